"""Merge layers: combine a list of tensors (Add, Subtract, Multiply, Average,
Maximum, Minimum, Concatenate, Dot) and their function forms (keras.layers.add...).
Elementwise merges broadcast, as in Keras 3."""
import tapeflow as tf
from tapeflow.keras import ops
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location


class _Merge(Layer):
    min_inputs = 2
    max_inputs = None
    supports_masking = True

    def compute_mask(self, inputs, mask=None):
        """Elementwise merges keep a step only where every masked input keeps it."""
        masks = [m for m in (mask or []) if m is not None] if isinstance(mask, (list, tuple)) else []
        if not masks or type(self) in (Concatenate, Dot):
            return None
        out = tf.cast(masks[0], "bool")
        for m in masks[1:]:
            out = tf.logical_and(out, tf.cast(m, "bool"))
        return out

    def _check(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(with_location(f"{type(self).__name__} {self.name}: expects a list of tensors"))
        n = len(inputs)
        if n < self.min_inputs or (self.max_inputs is not None and n > self.max_inputs):
            want = self.min_inputs if self.max_inputs == self.min_inputs else f"at least {self.min_inputs}"
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: expects {want} inputs, got {n}"))
        return list(inputs)

    def call(self, inputs):
        xs = self._check(inputs)
        out = xs[0]
        for x in xs[1:]:
            out = self._merge(out, x)
        return self._finish(out, len(xs))

    def _finish(self, out, n):
        return out


class Add(_Merge):
    def _merge(self, a, b):
        return a + b


class Subtract(_Merge):
    max_inputs = 2

    def _merge(self, a, b):
        return a - b


class Multiply(_Merge):
    def _merge(self, a, b):
        return a * b


class Average(_Merge):
    def _merge(self, a, b):
        return a + b

    def _finish(self, out, n):
        return out / float(n)


class Maximum(_Merge):
    def _merge(self, a, b):
        return tf.maximum(a, b)


class Minimum(_Merge):
    def _merge(self, a, b):
        return tf.minimum(a, b)


class Concatenate(_Merge):
    min_inputs = 1

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return ops.concatenate(self._check(inputs), axis=self.axis)  # mixed dtypes promote, as Keras

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


class Dot(_Merge):
    """Dot products of two batches of vectors or matrices along `axes` (per sample);
    normalize=True gives cosine similarities."""
    max_inputs = 2

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        self.axes = axes
        self.normalize = normalize

    def call(self, inputs):
        x, y = self._check(inputs)
        rx, ry = x.shape.rank, y.shape.rank
        ax, ay = self.axes if isinstance(self.axes, (list, tuple)) else (self.axes, self.axes)
        ax, ay = ax % rx, ay % ry
        if self.normalize:
            x = tf.math.l2_normalize(x, axis=ax)
            y = tf.math.l2_normalize(y, axis=ay)
        if rx == 2 and ry == 2:
            return tf.reduce_sum(x * y, axis=1, keepdims=True)
        if rx == 3 and ry == 3 and 0 not in (ax, ay):
            # Move the contracted axis of x last and of y first (after batch): one batched matmul.
            if ax == 1:
                x = tf.transpose(x, [0, 2, 1])
            if ay == 2:
                y = tf.transpose(y, [0, 2, 1])
            return tf.matmul(x, y)
        raise ValueError(with_location(
            f"Dot {self.name}: supported are two rank-2 or two rank-3 inputs contracted over non-batch "
            f"axes; got shapes {list(x.shape)} and {list(y.shape)} with axes {self.axes}"))

    def get_config(self):
        return {**super().get_config(), "axes": self.axes, "normalize": self.normalize}


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes, normalize=False, **kwargs):
    return Dot(axes, normalize, **kwargs)(inputs)
