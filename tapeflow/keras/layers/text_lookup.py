"""keras.layers.StringLookup and IntegerLookup: tokens to indices (and back with invert).

Index layout (Keras 3): [mask token (int mode only)] [num_oov_indices OOV slots] [vocabulary].
With several OOV slots, unknown integers go to slot `token % num_oov_indices` and unknown
strings to their farmhash bucket (tf.strings.to_hash_bucket_fast), as in Keras.  adapt()
orders the vocabulary by frequency, ties by token, both descending (Keras's order).
The lookup is one primitive (`vocab_lookup`, NumPy over a Python dict / sorted keys), so
the layers work eagerly, in Dataset.map, in tf.function and in compiled fit.
"""
import numpy as np

import tapeflow as tf
from tapeflow.keras.layers.base import Layer
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import Aval, attr_type, bind, defprim
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


@attr_type
class Vocab:
    """A token -> index table (attrs of the lookup op; equal only to itself).  Saved models
    store it as (tokens, start, default, is_string)."""

    _saved_name = "vocab"

    def _saved_attr(self):
        return (tuple(self.tokens), self.start, self.default, self.is_string)

    @classmethod
    def _from_saved(cls, value, where):
        from tapeflow.saved_model.format import SavedModelError
        ok = isinstance(value, tuple) and len(value) == 4 and isinstance(value[0], tuple) and \
            all(type(v) is int for v in value[1:3]) and type(value[3]) is bool
        kind = bytes if ok and value[3] else int
        if not ok or not all(type(t) is kind for t in value[0]):
            raise SavedModelError(f"{where}: a vocabulary is (tokens, start, default, is_string) with "
                                  f"{'bytes' if ok and value[3] else 'int'} tokens")
        return cls(value[0], value[1], value[2], value[3])

    def __init__(self, tokens, start, default, is_string):
        self.tokens, self.start, self.default, self.is_string = list(tokens), start, default, is_string
        if is_string:
            self.index = {t: start + i for i, t in enumerate(self.tokens)}
        else:
            keys = np.asarray(self.tokens, dtype=np.int64)
            order = np.argsort(keys, kind="stable")
            self.sorted_keys, self.sorted_ids = keys[order], (start + order).astype(np.int64)

    def lookup(self, values):
        values = np.asarray(values)
        if self.is_string:
            get, d = self.index.get, self.default
            flat = np.fromiter((get(v, d) for v in values.reshape(-1).tolist()), np.int64, count=values.size)
            return flat.reshape(values.shape)
        flat = values.reshape(-1).astype(np.int64)
        if not len(self.sorted_keys):
            return np.full(values.shape, self.default, np.int64)
        pos = np.clip(np.searchsorted(self.sorted_keys, flat), 0, len(self.sorted_keys) - 1)
        found = self.sorted_keys[pos] == flat
        return np.where(found, self.sorted_ids[pos], self.default).reshape(values.shape)

    def __repr__(self):
        return f"<vocabulary of {len(self.tokens)}>"


def _lookup_rule(x, vocab):
    return Aval(x.shape, dtypes.int64)


VOCAB_LOOKUP = defprim("vocab_lookup", lambda xp, x, vocab: vocab.lookup(x), _lookup_rule)


def _invert_impl(xp, ids, table, fallback, is_string):
    ids = np.asarray(ids).astype(np.int64)
    ok = (ids >= 0) & (ids < len(table))
    out = np.empty(ids.shape, dtype=object if is_string else np.int64)
    flat_ok, flat_ids = ok.reshape(-1), ids.reshape(-1)
    flat = out.reshape(-1)
    for k in range(flat.size):
        flat[k] = table[flat_ids[k]] if flat_ok[k] else fallback
    return out


def _invert_rule(ids, table, fallback, is_string):
    return Aval(ids.shape, dtypes.string if is_string else dtypes.int64)


VOCAB_INVERT = defprim("vocab_invert", _invert_impl, _invert_rule)


def encode_categorical(ids, mode, depth, idf_weights=None, dtype="int64", count_weights=None):
    """Keras 3's encoding of integer ids [0, depth): one_hot / multi_hot / count / tf_idf.
    A scalar is one sample of one id ([1] ids).  one_hot encodes each id ((n, 1) as (n,)):
    a scalar gives (1, depth).  The others encode the ids along the last axis together: a rank-1
    input is ONE sample, (depth,), a (batch, n) one (batch, depth)."""
    if ids.shape.rank == 0:
        ids = tf.reshape(ids, [1])
        count_weights = None if count_weights is None else tf.reshape(count_weights, [1])
    if mode == "one_hot":
        if ids.shape.rank >= 2 and ids.shape[-1] == 1:
            ids = tf.squeeze(ids, -1)
        return tf.one_hot(ids, depth, dtype=dtype)
    hot = tf.one_hot(ids, depth, dtype="float32" if count_weights is not None else "int64")
    if count_weights is not None:
        hot = hot * tf.expand_dims(tf.cast(count_weights, "float32"), -1)
    counts = tf.reduce_sum(hot, axis=-2)
    if mode == "multi_hot":
        return tf.cast(counts > 0, dtype)
    if mode == "count":
        return tf.cast(counts, dtype)
    return tf.cast(counts, "float32") * idf_weights


def data_values(data, what):
    """The flat values (and the rows, for document frequencies) of adapt()'s data."""
    from tapeflow.data import Dataset
    batches = data if isinstance(data, Dataset) else [data]
    rows = []
    for b in batches:
        b = b[0] if isinstance(b, tuple) else b
        arr = np.asarray(b.numpy() if isinstance(b, TensorBase) else b)
        if arr.dtype.kind in "SU":
            arr = np.array([v.encode() if isinstance(v, str) else bytes(v) for v in arr.reshape(-1).tolist()],
                           dtype=object).reshape(arr.shape)
        elif arr.dtype == object:
            arr = np.array([v.encode() if isinstance(v, str) else v for v in arr.reshape(-1).tolist()],
                           dtype=object).reshape(arr.shape)
        rows.extend(arr.reshape(arr.shape[0], -1) if arr.ndim >= 1 else arr.reshape(1, 1))
    return rows


def frequency_order(counts):
    """Tokens by count, then token, both descending (Keras's adapt order)."""
    return [t for t, _ in sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)]


class IndexLookup(Layer):
    """What StringLookup and IntegerLookup share (Keras's IndexLookup)."""
    _allow_non_tensor_positional_args = True  # Keras's preprocessing layers take lists and arrays

    _is_string = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=None, vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", sparse=False, pad_to_max_tokens=False,
                 **kwargs):
        vocabulary_dtype = kwargs.pop("vocabulary_dtype", "int64")
        encoding = kwargs.pop("encoding", "utf-8")
        oov_method, salt = kwargs.pop("oov_method", "floormod"), kwargs.pop("salt", None)
        kwargs.pop("vocabulary_size", None)  # in get_config, for information only (as Keras)
        super().__init__(**kwargs)
        self.vocabulary_dtype, self.encoding = vocabulary_dtype, encoding
        cls = type(self).__name__
        if oov_method != "floormod" or salt is not None:
            raise NotImplementedError(with_location(
                f"{cls}: only oov_method='floormod' without a salt is supported (got oov_method={oov_method!r}, "
                f"salt={salt!r})"))
        if output_mode not in OUTPUT_MODES:
            raise ValueError(with_location(f"{cls}: output_mode must be one of {OUTPUT_MODES}, got {output_mode!r}"))
        if invert and output_mode != "int":
            raise ValueError(with_location(f"{cls}: invert=True needs output_mode='int', got {output_mode!r}"))
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(with_location(f"{cls}: idf_weights are only used with output_mode='tf_idf'"))
        if num_oov_indices < 0:
            raise ValueError(with_location(f"{cls}: num_oov_indices must be >= 0, got {num_oov_indices}"))
        if sparse:
            raise ValueError(with_location(f"{cls}: sparse=True is not supported"))
        self.max_tokens, self.num_oov_indices = max_tokens, int(num_oov_indices)
        self.mask_token, self.oov_token = mask_token, oov_token
        self.invert, self.output_mode, self.pad_to_max_tokens = bool(invert), output_mode, bool(pad_to_max_tokens)
        self.input_vocabulary = vocabulary
        self._idf = None
        self._vocab = None
        self.set_vocabulary([] if vocabulary is None else vocabulary, idf_weights, _given=vocabulary is not None)

    # -- the index layout
    def _oov_start(self):
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start(self):
        return self._oov_start() + self.num_oov_indices

    def _key(self, token):
        if self._is_string:
            return token.encode("utf-8") if isinstance(token, str) else bytes(token)
        return int(token)

    def _show(self, key):
        return key.decode("utf-8") if self._is_string else np.int64(key)

    def set_vocabulary(self, vocabulary, idf_weights=None, _given=True):
        cls = type(self).__name__
        if isinstance(vocabulary, str):                     # a vocabulary file, one token a line
            with open(vocabulary, "rb") as f:
                vocabulary = [line.rstrip(b"\r") for line in f.read().split(b"\n")]
            while vocabulary and vocabulary[-1] == b"":
                vocabulary.pop()
        if isinstance(vocabulary, TensorBase):
            vocabulary = vocabulary.numpy().tolist()
        tokens = [self._key(t) for t in np.asarray(vocabulary, dtype=object).reshape(-1).tolist()]
        special = [] if self.mask_token is None else [self._key(self.mask_token)]
        if special and tokens[:1] == special and self.output_mode == "int":
            tokens = tokens[1:]                           # a vocabulary may start with the mask token
        oov = None if self.oov_token is None else self._key(self.oov_token)
        if oov is not None and tokens[:self.num_oov_indices] == [oov] * self.num_oov_indices and \
                self.num_oov_indices and tokens.count(oov) == self.num_oov_indices:
            tokens = tokens[self.num_oov_indices:]        # ... and then the OOV slots
        if len(set(tokens)) != len(tokens):
            dup = next(t for t in tokens if tokens.count(t) > 1)
            raise ValueError(with_location(f"{cls}: the vocabulary holds {self._show(dup)!r} more than once"))
        if special and special[0] in tokens:
            raise ValueError(with_location(f"{cls}: the mask token {self.mask_token!r} is in the vocabulary"))
        if self.invert and oov is not None and oov in tokens:
            raise ValueError(with_location(f"{cls}: the OOV token {self.oov_token!r} is in the vocabulary"))
        if self.max_tokens is not None and len(tokens) + self._token_start() > self.max_tokens:
            raise ValueError(with_location(
                f"{cls}: a vocabulary of {len(tokens)} tokens plus {self._token_start()} special ones is larger "
                f"than max_tokens={self.max_tokens}"))
        if self.output_mode == "tf_idf":
            if _given and tokens and idf_weights is None:
                raise ValueError(with_location(f"{cls}: output_mode='tf_idf' with a vocabulary needs idf_weights"))
            if idf_weights is not None:
                w = np.asarray(idf_weights, dtype=np.float32).reshape(-1)
                if len(w) != len(tokens):
                    raise ValueError(with_location(f"{cls}: {len(w)} idf_weights for {len(tokens)} tokens"))
                oov_w = np.full(self._token_start(), w.mean() if len(w) else 0.0, np.float32)
                self._idf = np.concatenate([oov_w, w]).astype(np.float32)
        default = -1 if self.num_oov_indices != 1 else self._oov_start()
        self._vocab = Vocab(tokens, self._token_start(), default, self._is_string)

    def get_vocabulary(self, include_special_tokens=True):
        tokens = [self._show(t) for t in self._vocab.tokens]
        if not include_special_tokens:
            return tokens
        mask = [] if self._oov_start() == 0 else [self.mask_token]
        return mask + [self.oov_token] * self.num_oov_indices + tokens

    def vocabulary_size(self):
        return self._token_start() + len(self._vocab.tokens)

    # -- adapt
    def adapt(self, data, batch_size=None, steps=None):
        counts, doc_freq, docs = {}, {}, 0
        mask = None if self.mask_token is None else self._key(self.mask_token)
        for row in data_values(data, "adapt"):
            seen = set()
            for v in row.tolist():
                k = self._key(v)
                if k == mask:
                    continue
                counts[k] = counts.get(k, 0) + 1
                seen.add(k)
            for k in seen:
                doc_freq[k] = doc_freq.get(k, 0) + 1
            docs += 1
        tokens = frequency_order(counts)
        if self.max_tokens is not None:
            tokens = tokens[:max(self.max_tokens - self._token_start(), 0)]
        idf = None
        if self.output_mode == "tf_idf":
            idf = np.log1p(docs / (1.0 + np.array([doc_freq[t] for t in tokens], np.float64))).astype(np.float32)
        self.set_vocabulary(tokens, idf, _given=False)

    # -- call
    def _convert_inputs(self, inputs):
        return inputs if isinstance(inputs, (TensorBase, tf.RaggedTensor)) else convert_to_tensor(inputs)

    def _depth(self):
        if self.pad_to_max_tokens and self.max_tokens is not None:
            return self.max_tokens
        return self.vocabulary_size()

    def call(self, inputs):
        if isinstance(inputs, tf.RaggedTensor):  # Keras 3 (TF backend): ids of a ragged batch stay ragged
            if self.output_mode != "int" and not self.invert:
                raise ValueError(with_location(
                    f"{type(self).__name__}: a RaggedTensor input needs output_mode='int' "
                    f"(got output_mode={self.output_mode!r})"))
            return inputs.with_flat_values(self.call(inputs.flat_values))
        if self.invert:
            table = tuple([None] * self._token_start() + list(self._vocab.tokens))
            table = tuple(self._key(self.oov_token) if t is None else t for t in table)
            if self.mask_token is not None and self._oov_start():
                table = (self._key(self.mask_token),) + table[1:]
            return bind(VOCAB_INVERT, (tf.cast(inputs, "int64"),),
                        {"table": table, "fallback": self._key(self.oov_token), "is_string": self._is_string})
        self._check_input(inputs)
        ids = bind(VOCAB_LOOKUP, (inputs,), {"vocab": self._vocab})
        if self.mask_token is not None and self._oov_start():
            ids = tf.where(tf.equal(inputs, self.mask_token), tf.zeros_like(ids), ids)
        if self.num_oov_indices == 0:
            self._check_no_oov(inputs, ids)
        elif self.num_oov_indices > 1:
            if self._is_string:
                buckets = tf.strings.to_hash_bucket_fast(inputs, self.num_oov_indices)
            else:
                buckets = tf.math.floormod(tf.cast(inputs, "int64"), self.num_oov_indices)
            ids = tf.where(tf.equal(ids, -1), buckets + self._oov_start(), ids)
        if self.output_mode == "int":
            return ids
        idf = None if self._idf is None else tf.constant(_pad(self._idf, self._depth()))
        return encode_categorical(ids, self.output_mode, self._depth(), idf)

    def _check_input(self, inputs):
        is_string = inputs.dtype is dtypes.string
        if is_string != self._is_string:
            raise TypeError(with_location(f"{type(self).__name__}: expected {'string' if self._is_string else 'integer'} "
                                          f"inputs, got {inputs.dtype.name}{list(inputs.shape)}"))

    def _check_no_oov(self, inputs, ids):
        if not hasattr(ids, "numpy") or type(ids).__name__ != "Tensor":
            return                             # traced: the graph has no eager check to make
        bad = np.asarray(inputs.numpy())[ids.numpy() == -1]
        if bad.size:
            raise InvalidArgumentError(with_location(
                f"When `num_oov_indices=0` all inputs should be in vocabulary, found OOV values "
                f"{bad.tolist()}, consider setting `num_oov_indices=1`."))

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        vocab = self.input_vocabulary
        if vocab is None and self._vocab.tokens:
            vocab = [self._show(t) if self._is_string else int(t) for t in self._vocab.tokens]
        elif isinstance(vocab, (np.ndarray, TensorBase)):
            vocab = np.asarray(vocab.numpy() if isinstance(vocab, TensorBase) else vocab).tolist()
        idf = None if self._idf is None else self._idf[self._token_start():].tolist()
        return {**super().get_config(), "max_tokens": self.max_tokens, "num_oov_indices": self.num_oov_indices,
                "mask_token": self.mask_token, "oov_token": self.oov_token, "vocabulary": vocab,
                "idf_weights": idf, "invert": self.invert, "output_mode": self.output_mode,
                "sparse": False, "pad_to_max_tokens": self.pad_to_max_tokens,
                "vocabulary_size": None if vocab is None else self.vocabulary_size(), "oov_method": "floormod", "salt": None,
                **({"encoding": self.encoding} if self._is_string else {"vocabulary_dtype": self.vocabulary_dtype})}


def _pad(w, depth):
    return np.concatenate([w, np.zeros(max(depth - len(w), 0), np.float32)])[:depth]


class StringLookup(IndexLookup):
    """Strings to int64 indices (or back with invert=True)."""

    _is_string = True

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]", vocabulary=None,
                 idf_weights=None, invert=False, output_mode="int", pad_to_max_tokens=False, sparse=False,
                 encoding="utf-8", name=None, **kwargs):
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)


class IntegerLookup(IndexLookup):
    """Integers to int64 indices (or back with invert=True); OOV token -1."""

    _is_string = False

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1, vocabulary=None,
                 vocabulary_dtype="int64", idf_weights=None, invert=False, output_mode="int", sparse=False,
                 pad_to_max_tokens=False, name=None, **kwargs):
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices, mask_token=mask_token,
                         oov_token=oov_token, vocabulary=vocabulary, idf_weights=idf_weights, invert=invert,
                         output_mode=output_mode, sparse=sparse, pad_to_max_tokens=pad_to_max_tokens, name=name,
                         **kwargs)

    def _check_input(self, inputs):
        if not inputs.dtype.is_integer:
            raise TypeError(with_location(f"IntegerLookup: expected integer inputs, got "
                                          f"{inputs.dtype.name}{list(inputs.shape)}"))
