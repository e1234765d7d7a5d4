"""keras.layers.Hashing (one feature to hash bins) and HashedCrossing (the hash of a cross
of features, as tf.sparse.cross_hashed gives it for one value per row).

HashedCrossing is one primitive (`hashed_cross`, NumPy over the values) so that it runs
eagerly, in a functional model and inside a traced tf.data map alike."""
import numpy as np

import tapeflow as tf
from tapeflow.feature_cross import hashed_combiner
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.text_lookup import encode_categorical
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor


def _cross_impl(xp, *columns, num_bins):
    combine = hashed_combiner(num_buckets=num_bins, hash_key=None)
    flat = [np.asarray(c, dtype=object).reshape(-1).tolist() for c in columns]
    out = np.array([combine(combo) for combo in zip(*flat)], np.int64)
    return out.reshape(np.shape(columns[0]))


def _cross_rule(*columns, num_bins):
    return Aval(columns[0].shape, dtypes.int64)


HASHED_CROSS = defprim("hashed_cross", _cross_impl, _cross_rule)


class Hashing(Layer):
    """Strings or integers to bins [0, num_bins) by farmhash (TensorFlow's Fingerprint64);
    with mask_value, masked inputs are bin 0 and the rest fall in [1, num_bins)."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if num_bins is None or int(num_bins) <= 0:
            raise ValueError(with_location(f"Hashing: num_bins must be a positive int, got {num_bins!r}"))
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError(with_location(f"Hashing: output_mode must be 'int', 'one_hot', 'multi_hot' or "
                                           f"'count', got {output_mode!r}"))
        if isinstance(salt, int) and not isinstance(salt, bool):
            salt = [salt, salt]  # Keras: one integer is both halves of SipHash's key
        elif salt is not None and not (isinstance(salt, (list, tuple)) and len(salt) == 2):
            raise ValueError(with_location(f"The `salt` argument for `Hashing` can only be a tuple of size 2 "
                                           f"integers, or a single integer. Received: salt={salt}."))
        if sparse:
            raise ValueError(with_location("Hashing: sparse=True is not supported"))
        self.num_bins, self.mask_value, self.output_mode = int(num_bins), mask_value, output_mode
        self.salt = None if salt is None else list(salt)

    def _convert_inputs(self, inputs):
        return inputs if isinstance(inputs, TensorBase) else convert_to_tensor(inputs)

    def call(self, inputs):
        x = inputs
        masked = self.mask_value is not None and self.num_bins > 1  # bin 0 is the mask's
        text = tf.cast(x, "int64") if x.dtype.is_floating else x  # Keras hashes floats as integers
        text = text if text.dtype is dtypes.string else tf.strings.as_string(text)
        depth = self.num_bins - 1 if masked else self.num_bins
        if self.salt is not None:
            bins = tf.strings.to_hash_bucket_strong(text, depth, self.salt)
        else:
            bins = tf.strings.to_hash_bucket_fast(text, depth)
        if masked:
            bins = tf.where(tf.equal(x, self.mask_value), tf.zeros_like(bins), bins + 1)
        if self.output_mode == "int":
            return bins
        return encode_categorical(bins, self.output_mode, self.num_bins, dtype="float32")

    def get_config(self):
        return {**super().get_config(), "num_bins": self.num_bins, "mask_value": self.mask_value,
                "salt": self.salt, "output_mode": self.output_mode, "sparse": False}


class HashedCrossing(Layer):
    """The cross of two or more integer or string features (each of shape (), (batch,) or
    (batch, 1), all alike) hashed to bins [0, num_bins): TF's cross_hashed of the values."""
    _allow_non_tensor_positional_args = True

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None, **kwargs):
        if output_mode not in ("int", "one_hot"):
            raise ValueError(with_location(f"The `output_mode` argument of HashedCrossing must be one of "
                                           f"('int', 'one_hot'). Received: {output_mode!r}"))
        if sparse:
            raise ValueError(with_location("HashedCrossing: sparse=True is not supported"))
        super().__init__(name=name, dtype=dtype or ("int64" if output_mode == "int" else None), **kwargs)
        self.num_bins, self.output_mode, self.sparse = int(num_bins), output_mode, False

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < 2:
            raise ValueError(with_location(f"`HashedCrossing` should be called on a list or tuple of at least "
                                           f"two inputs. Received: inputs={inputs!r}"))
        first = tuple(inputs[0].shape)
        if len(first) > 2 or (len(first) == 2 and first[-1] != 1):
            raise ValueError(with_location(f"All `HashedCrossing` inputs should have shape `()`, `(batch_size)` "
                                           f"or `(batch_size, 1)`. Received: shape {first}"))
        if any(tuple(x.shape) != first for x in inputs[1:]):
            raise ValueError(with_location(f"All `HashedCrossing` inputs should have equal shape. Received: "
                                           f"{[tuple(x.shape) for x in inputs]}"))
        if not all(x.dtype.is_integer or x.dtype is dtypes.string for x in inputs):
            raise ValueError(with_location(f"All `HashedCrossing` inputs should have an integer or string dtype. "
                                           f"Received: {[x.dtype.name for x in inputs]}"))
        bins = bind(HASHED_CROSS, tuple(inputs), {"num_bins": self.num_bins})
        if self.output_mode == "int":
            return tf.cast(bins, self.dtype)
        return encode_categorical(bins, "one_hot", self.num_bins, dtype=self.compute_dtype)

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        return (first[:-1] if first and first[-1] == 1 else first) + (self.num_bins,)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": False, "name": self.name,
                "dtype": self.dtype}
