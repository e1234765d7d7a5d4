"""Reshaping layers: Permute, RepeatVector, UpSampling1D/2D, ZeroPadding1D/2D,
Cropping1D/2D.  Dimensions other than the batch must be known where a layer
reshapes (the batch is always -1)."""
import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.image_preprocessing import resize
from tapeflow.runtime.errors import with_location


def _pairs(value, n, what):
    """An int, n ints, or n (before, after) pairs -> n (before, after) pairs."""
    if isinstance(value, int):
        return ((value, value),) * n
    value = tuple(value)
    if len(value) != n:
        raise ValueError(with_location(f"{what}: expected an int or {n} values, got {value!r}"))
    return tuple((v, v) if isinstance(v, int) else tuple(int(a) for a in v) for v in value)


def _known(inputs, layer, axes):
    dims = inputs.shape.dims
    if any(dims[a] is None for a in axes):
        raise ValueError(with_location(
            f"{type(layer).__name__} {layer.name}: dimensions {list(axes)} of the input must be known, "
            f"got shape {list(dims)}"))
    return dims


class Permute(Layer):
    """Permute the non-batch axes; `dims` counts from 1 (the batch axis stays first)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(int(d) for d in dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(with_location(f"Permute: dims must be a permutation of 1..{len(self.dims)}, "
                                           f"got {self.dims}"))

    def call(self, inputs):
        return tf.transpose(inputs, (0,) + self.dims)

    def get_config(self):
        return {**super().get_config(), "dims": list(self.dims)}


class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        self.n = int(n)

    def call(self, inputs):
        if inputs.shape.rank != 2:
            raise ValueError(with_location(
                f"RepeatVector {self.name}: expects (batch, features), got shape {list(inputs.shape)}"))
        return tf.tile(tf.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}


def _repeat_axis(x, axis, times):
    """Repeat each entry of `axis` `times` times (nearest-neighbour upsampling)."""
    dims = list(x.shape.dims)
    expanded = tf.expand_dims(x, axis + 1)
    multiples = [1] * (len(dims) + 1)
    multiples[axis + 1] = times
    tiled = tf.tile(expanded, multiples)
    new = [-1] + [d for d in dims[1:]]
    new[axis] = dims[axis] * times
    return tf.reshape(tiled, new)


class UpSampling1D(Layer):
    def __init__(self, size=2, **kwargs):
        super().__init__(**kwargs)
        self.size = int(size)

    def call(self, inputs):
        _known(inputs, self, (1, 2))
        return _repeat_axis(inputs, 1, self.size)

    def get_config(self):
        return {**super().get_config(), "size": self.size}


class UpSampling2D(Layer):
    """Scale NHWC images by `size`: rows and columns repeated (interpolation="nearest"), or
    resized with that tf.image.resize method (as Keras 3, which validates it at call time)."""

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(**kwargs)
        self.interpolation = interpolation.lower()
        if data_format not in (None, "channels_last"):
            raise ValueError(with_location("UpSampling2D: only data_format='channels_last' is supported"))
        self.size = (size, size) if isinstance(size, int) else tuple(int(s) for s in size)

    def call(self, inputs):
        dims = _known(inputs, self, (1, 2, 3))
        if self.interpolation != "nearest":
            new_size = (dims[1] * self.size[0], dims[2] * self.size[1])
            return resize(inputs, new_size, interpolation=self.interpolation)
        return _repeat_axis(_repeat_axis(inputs, 1, self.size[0]), 2, self.size[1])

    def get_config(self):
        return {**super().get_config(), "size": list(self.size), "interpolation": self.interpolation}


class ZeroPadding1D(Layer):
    def __init__(self, padding=1, **kwargs):
        super().__init__(**kwargs)
        self.padding = (padding, padding) if isinstance(padding, int) else tuple(int(p) for p in padding)

    def call(self, inputs):
        return tf.pad(inputs, [[0, 0], list(self.padding), [0, 0]])


class ZeroPadding2D(Layer):
    """Pad NHWC images with zeros: int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(with_location("ZeroPadding2D: only data_format='channels_last' is supported"))
        self.padding = _pairs(padding, 2, "ZeroPadding2D padding")

    def call(self, inputs):
        (t, b), (l, r) = self.padding
        return tf.pad(inputs, [[0, 0], [t, b], [l, r], [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": [list(p) for p in self.padding]}


class Cropping1D(Layer):
    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(**kwargs)
        self.cropping = (cropping, cropping) if isinstance(cropping, int) else tuple(int(c) for c in cropping)

    def call(self, inputs):
        steps = _known(inputs, self, (1,))[1]
        a, b = self.cropping
        return inputs[:, a:steps - b]


class Cropping2D(Layer):
    """Crop NHWC images: int, (rows, cols) or ((top, bottom), (left, right))."""

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(**kwargs)
        if data_format not in (None, "channels_last"):
            raise ValueError(with_location("Cropping2D: only data_format='channels_last' is supported"))
        self.cropping = _pairs(cropping, 2, "Cropping2D cropping")

    def call(self, inputs):
        dims = _known(inputs, self, (1, 2))
        (t, b), (l, r) = self.cropping
        if t + b >= dims[1] or l + r >= dims[2]:
            raise ValueError(with_location(
                f"Cropping2D {self.name}: cropping {self.cropping} leaves nothing of shape {list(dims)}"))
        return inputs[:, t:dims[1] - b, l:dims[2] - r, :]

    def get_config(self):
        return {**super().get_config(), "cropping": [list(p) for p in self.cropping]}
