"""Preprocessing layers over integer and numeric features: CategoryEncoding
(one_hot / multi_hot / count) and Discretization (bucket indices)."""
import numpy as np

import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import TensorBase


class CategoryEncoding(Layer):
    """Integer ids in [0, num_tokens) -> num_tokens-long vectors.  'one_hot': each id of a
    rank-1 batch (or (batch, 1)) -> a one-hot row; 'multi_hot': 1 where an id occurs in the
    row (a rank-1 input is one row); 'count': how often it occurs (times count_weights)."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if num_tokens is None or int(num_tokens) < 1:
            raise ValueError(with_location(f"CategoryEncoding: num_tokens must be a positive int, got {num_tokens!r}"))
        if output_mode not in ("one_hot", "multi_hot", "count"):
            raise ValueError(with_location(
                f"CategoryEncoding: output_mode must be 'one_hot', 'multi_hot' or 'count', got {output_mode!r}"))
        if sparse:
            raise ValueError(with_location("CategoryEncoding: sparse=True is not supported"))
        self.num_tokens, self.output_mode = int(num_tokens), output_mode

    def _convert_inputs(self, inputs):  # ids stay integers
        t = tf.convert_to_tensor(inputs)
        return t if t.dtype.is_integer else tf.cast(t, "int32")

    def _check_range(self, ids):
        if isinstance(ids, TensorBase) and hasattr(ids, "numpy"):
            try:
                values = ids.numpy()
            except Exception:  # a traced value: no check possible before it runs
                return
            if values.size and (values.min() < 0 or values.max() >= self.num_tokens):
                raise ValueError(with_location(
                    f"CategoryEncoding {self.name}: ids must be in [0, {self.num_tokens}), "
                    f"got values from {values.min()} to {values.max()}"))

    def call(self, inputs, count_weights=None):
        self._check_range(inputs)
        from tapeflow.keras.layers.text_lookup import encode_categorical
        return encode_categorical(inputs, self.output_mode, self.num_tokens, dtype=self.dtype,
                                  count_weights=count_weights)

    def get_config(self):
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode}


class Discretization(Layer):
    """Bucket index of each value: bin_boundaries [b0, b1, ...] give buckets
    (-inf, b0), [b0, b1), ..., [bn, inf) numbered 0..n+1 (int32, as Keras 3).  adapt(data)
    with num_bins sets the boundaries at the data's quantiles."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int", **kwargs):
        super().__init__(**kwargs)
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(with_location(f"Discretization: output_mode must be 'int', 'one_hot', 'multi_hot' or "
                                           f"'count', got {output_mode!r}"))
        self.output_mode = output_mode
        if bin_boundaries is None and num_bins is None:
            raise ValueError(with_location("Discretization: give bin_boundaries, or num_bins and call adapt"))
        self.bin_boundaries = [float(b) for b in bin_boundaries] if bin_boundaries is not None else None
        self.num_bins = num_bins
        self.epsilon = epsilon

    def adapt(self, data, batch_size=None, steps=None):
        if self.num_bins is None:
            raise ValueError(with_location("Discretization.adapt: needs num_bins"))
        from tapeflow.data import Dataset
        batches = data if isinstance(data, Dataset) else [data]
        summary = np.zeros((2, 0), np.float32)
        for batch in batches:  # Keras's mergeable quantile summary, batch by batch
            batch = batch[0] if isinstance(batch, tuple) else batch
            values = np.asarray(batch.numpy() if isinstance(batch, TensorBase) else batch, np.float32)
            merged = np.concatenate((_summarize(values, self.epsilon), summary), axis=1)
            summary = _compress(merged[:, np.argsort(merged[0], kind="stable")], self.epsilon)
        self.bin_boundaries = _compress(summary, 1.0 / int(self.num_bins))[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError(with_location(f"Discretization {self.name}: call adapt(data) first"))
        x = tf.convert_to_tensor(inputs)
        if not x.dtype.is_floating:
            x = tf.cast(x, "float64")
        bounds = tf.constant(np.asarray(self.bin_boundaries, x.dtype.name))
        # index = how many boundaries are <= x
        below = tf.cast(tf.expand_dims(x, -1) >= bounds, "int32")
        ids = tf.reduce_sum(below, axis=-1)
        if self.output_mode == "int":
            return ids
        from tapeflow.keras.layers.text_lookup import encode_categorical
        return encode_categorical(ids, self.output_mode, len(self.bin_boundaries) + 1, dtype="float32")

    def _convert_inputs(self, inputs):
        return tf.convert_to_tensor(inputs)

    def get_config(self):
        return {**super().get_config(), "bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode, "sparse": False}


def _summarize(values, epsilon):
    """Every step-th sorted value (step: the values per 1/epsilon bucket, at least 1), each
    weighing `step`: Keras's approximate quantile summary of one batch."""
    values = np.sort(values.reshape(-1))
    step = max(values.size * epsilon, 1)
    picked = values[int(step - 1)::int(step)]
    return np.stack([picked, np.full_like(picked, step)])


def _compress(summary, epsilon):
    """Re-bin a (values, weights) summary at cumulative-weight fractions epsilon, 2 epsilon, ...
    (a summary with fewer than 1/epsilon points is kept as it is)."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    share = cumulative / cumulative[-1]
    bins = np.interp(fractions, share, summary[0])
    cut = np.interp(fractions, share, cumulative)
    return np.stack((bins, cut - np.concatenate(([0.0], cut[:-1])))).astype("float32")
