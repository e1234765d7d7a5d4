"""Attention layers with Keras 3's semantics and weight layouts:
MultiHeadAttention (EinsumDense projections: query/key/value kernels
(dim, heads, key_dim), output kernel (heads, value_dim, dim)), Attention
(Luong dot-product or 'concat' scores) and AdditiveAttention (Bahdanau).

Masks: padding masks attached to query/value/key (Embedding(mask_zero=True),
Masking) are combined with attention_mask and the causal mask; masked scores get
a large negative number added before the softmax, as Keras does."""
import string

import numpy as np

import tapeflow as tf
from tapeflow.keras import initializers, regularizers
from tapeflow.keras.layers.base import Layer
from tapeflow.keras.layers.core import Dropout
from tapeflow.keras.layers.einsum_dense import EinsumDense
from tapeflow.keras.layers.keras_mask import get_keras_mask
from tapeflow.runtime.errors import with_location

_LETTERS = string.ascii_lowercase


def _large_negative(dtype):
    return -3e4 if dtype.name == "float16" else -1e9


def _as_bool(mask):
    mask = tf.convert_to_tensor(mask)
    return mask if mask.dtype.name == "bool" else tf.cast(mask, "bool")


def _causal_mask(q_steps, v_steps, who):
    """(1, Tq, Tv): query step i sees value steps j <= i."""
    if q_steps is None or v_steps is None:
        raise ValueError(with_location(f"{who}: use_causal_mask needs known sequence lengths"))
    return tf.constant(np.tril(np.ones((q_steps, v_steps), bool))[None])


def _softmax(x, axes):
    """Softmax normalized jointly over `axes` (one axis: tf.nn.softmax)."""
    if len(axes) == 1:
        return tf.nn.softmax(x, axis=axes[0])
    peak = tf.stop_gradient(tf.reduce_max(x, axis=list(axes), keepdims=True))
    e = tf.exp(x - peak)
    return e / tf.reduce_sum(e, axis=list(axes), keepdims=True)


def _build(layer, shape):
    layer.build(shape)
    layer.__dict__["built"] = True


def _proj_equation(free_dims, bound_dims, output_dims):
    """An einsum for a dense map of the last `bound_dims` axes to `output_dims` new
    axes, keeping `free_dims` leading axes; returns (equation, bias_axes, output rank)."""
    free = _LETTERS[:free_dims]
    bound = _LETTERS[free_dims:free_dims + bound_dims]
    out = _LETTERS[free_dims + bound_dims:free_dims + bound_dims + output_dims]
    return f"{free}{bound},{bound}{out}->{free}{out}", out, free_dims + output_dims


def _attention_equations(rank, attn_axes):
    """For projected tensors of `rank` (batch, ..., heads, channels): the einsum of
    the scores (key, query -> scores) and of the output (scores, value -> output)."""
    target = _LETTERS[:rank]
    batch_dims = [i for i in range(rank) if i not in attn_axes and i != rank - 1]  # includes heads
    source, offset = "", rank
    for i in range(rank):
        if i in batch_dims or i == rank - 1:
            source += _LETTERS[i]
        else:
            source += _LETTERS[offset]
            offset += 1
    product = "".join(target[i] for i in batch_dims) + "".join(target[i] for i in attn_axes) \
        + "".join(source[i] for i in attn_axes)
    return f"{source},{target}->{product}", f"{product},{source}->{target}", len(product)


class MultiHeadAttention(Layer):
    """call(query, value, key=None, attention_mask=None, return_attention_scores=False,
    training=None, use_causal_mask=False) -> (batch, Tq, output dim) [, scores
    (batch, heads, Tq, Tv)]."""
    supports_masking = True

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True, output_shape=None,
                 attention_axes=None, kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        self.num_heads, self.key_dim = int(num_heads), int(key_dim)
        self.value_dim = int(value_dim) if value_dim is not None else self.key_dim
        self.dropout = float(dropout)
        self.use_bias = use_bias
        self._output_shape_arg = output_shape
        if attention_axes is not None and not isinstance(attention_axes, (list, tuple)):
            attention_axes = (attention_axes,)
        self.attention_axes = tuple(attention_axes) if attention_axes is not None else None
        self._dense_kwargs = dict(
            kernel_initializer=initializers.get(kernel_initializer),
            bias_initializer=initializers.get(bias_initializer),
            kernel_regularizer=regularizers.get(kernel_regularizer),
            bias_regularizer=regularizers.get(bias_regularizer),
            kernel_constraint=kernel_constraint, bias_constraint=bias_constraint)
        self._dropout_layer = Dropout(self.dropout, seed=seed, dtype=self.dtype_policy)
        self.__dict__["_heads_built"] = False

    def build(self, query_shape, value_shape=None, key_shape=None):
        """build(query_shape, value_shape[, key_shape]) makes the weights; with only
        the query's shape (the first call) they are made in call, from all three."""
        if value_shape is not None:
            self._build_heads(tuple(query_shape), tuple(value_shape),
                              tuple(key_shape) if key_shape is not None else tuple(value_shape))
            self.__dict__["built"] = True

    def _sublayer_kwargs(self):
        """Keras 3 gives each projection its own copy of the initializers: a seedless one draws a
        new seed per copy (one shared instance would give query, key and value equal kernels)."""
        out = dict(self._dense_kwargs)
        for key in ("kernel_initializer", "bias_initializer"):
            init = out[key]
            if isinstance(init, initializers.Initializer):
                out[key] = type(init)(**init.get_config())
        return out

    def _build_heads(self, q_shape, v_shape, k_shape):
        rank = len(q_shape)
        if rank < 3:
            raise ValueError(with_location(
                f"MultiHeadAttention {self.name}: query must be (batch, steps, ..., dim), got {list(q_shape)}"))
        bias = lambda axes: axes if self.use_bias else None  # noqa: E731

        def projection(name, shape, width):
            equation, axes, out_rank = _proj_equation(len(shape) - 1, 1, 2)
            return EinsumDense(equation, [None] * (out_rank - 3) + [self.num_heads, width], bias_axes=bias(axes),
                               name=name, dtype=self.dtype_policy, **self._sublayer_kwargs())

        self._query_dense = projection("query", q_shape, self.key_dim)
        _build(self._query_dense, q_shape)
        self._key_dense = projection("key", k_shape, self.key_dim)
        _build(self._key_dense, k_shape)
        self._value_dense = projection("value", v_shape, self.value_dim)
        _build(self._value_dense, v_shape)
        out = self._output_shape_arg
        out = [q_shape[-1]] if out is None else (list(out) if isinstance(out, (list, tuple)) else [out])
        equation, axes, out_rank = _proj_equation(rank - 1, 2, len(out))
        self._output_dense = EinsumDense(equation, [None] * (out_rank - 1 - len(out)) + out,
                                         bias_axes=bias(axes), name="attention_output", dtype=self.dtype_policy,
                                         **self._sublayer_kwargs())
        _build(self._output_dense, tuple(q_shape[:-1]) + (self.num_heads, self.value_dim))
        proj_rank = rank + 1
        axes = tuple(range(1, proj_rank - 2)) if self.attention_axes is None \
            else tuple(a % rank for a in self.attention_axes)
        self._attn_axes = axes
        self._dot_eq, self._combine_eq, scores_rank = _attention_equations(proj_rank, axes)
        self._norm_axes = tuple(range(scores_rank - len(axes), scores_rank))
        self.__dict__["_heads_built"] = True

    def _build_from(self, inputs):
        self.__dict__["built"] = True  # the weights need value's shape too: made in call

    def _attention_mask(self, query, value, key, query_mask, value_mask, key_mask, attention_mask,
                        use_causal_mask):
        auto = None
        if query_mask is not None:
            auto = tf.expand_dims(_as_bool(query_mask), -1)  # (B, Tq, 1)
        for m in (value_mask, key_mask):
            if m is not None:
                m = tf.expand_dims(_as_bool(m), -2)  # (B, 1, Tv)
                auto = m if auto is None else tf.logical_and(auto, m)
        if use_causal_mask:
            m = _causal_mask(query.shape[1], value.shape[1], f"MultiHeadAttention {self.name}")
            auto = m if auto is None else tf.logical_and(auto, m)
        if attention_mask is not None:
            attention_mask = _as_bool(attention_mask)
            return attention_mask if auto is None else tf.logical_and(attention_mask, auto)
        return auto

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None, use_causal_mask=False):
        value_given, key_given = value, key
        value = self._convert_inputs(value)
        key = value if key is None else self._convert_inputs(key)
        query_mask = get_keras_mask(query) if query_mask is None else query_mask
        value_mask = get_keras_mask(value_given) if value_mask is None else value_mask
        if key_mask is None and key_given is not None:
            key_mask = get_keras_mask(key_given)
        if not self._heads_built:
            self._build_heads(tuple(query.shape.dims), tuple(value.shape.dims), tuple(key.shape.dims))
        mask = self._attention_mask(query, value, key, query_mask, value_mask, key_mask, attention_mask,
                                    use_causal_mask)
        q = self._query_dense(query)  # (B, Tq, H, key_dim)
        k = self._key_dense(key)
        v = self._value_dense(value)
        q = q * tf.cast(1.0 / np.sqrt(self.key_dim), q.dtype)
        scores = tf.einsum(self._dot_eq, k, q)  # (B, H, Tq, Tv)
        if mask is not None:
            for _ in range(scores.shape.rank - mask.shape.rank):
                mask = tf.expand_dims(mask, -2 * len(self._attn_axes) - 1)  # the heads axis
            keep = tf.cast(mask, scores.dtype)
            scores = _softmax(scores + (1.0 - keep) * _large_negative(scores.dtype), self._norm_axes) * keep
        else:
            scores = _softmax(scores, self._norm_axes)
        dropped = self._dropout_layer(scores, training=training)
        output = self._output_dense(tf.einsum(self._combine_eq, dropped, v))
        return (output, scores) if return_attention_scores else output

    def compute_mask(self, inputs, mask=None):
        return get_keras_mask(inputs)  # the query's padding mask

    def get_config(self):
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout, "use_bias": self.use_bias,
                "output_shape": self._output_shape_arg,
                "attention_axes": list(self.attention_axes) if self.attention_axes is not None else None}


class _BaseAttention(Layer):
    """call([query, value] or [query, value, key], mask=[query_mask, value_mask],
    return_attention_scores=False, training=None, use_causal_mask=False)."""
    supports_masking = True

    def __init__(self, use_scale=False, dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale
        self.dropout = float(dropout)
        self.seed = seed
        self._dropout_layer = Dropout(self.dropout, seed=seed, dtype=self.dtype_policy)

    def _unpack(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(with_location(
                f"{type(self).__name__} {self.name}: inputs must be [query, value] or [query, value, key]"))
        q, v = inputs[0], inputs[1]
        return q, v, inputs[2] if len(inputs) == 3 else v

    def call(self, inputs, mask=None, training=None, return_attention_scores=False, use_causal_mask=False):
        q, v, k = self._unpack(inputs)
        q_mask = v_mask = None
        if mask is not None:
            q_mask, v_mask = mask[0], mask[1]
        scores = self._scores(q, k)  # (B, Tq, Tv)
        keep = None
        if v_mask is not None:
            keep = tf.expand_dims(_as_bool(v_mask), -2)
        if use_causal_mask:
            causal = _causal_mask(q.shape[1], v.shape[1], f"{type(self).__name__} {self.name}")
            keep = causal if keep is None else tf.logical_and(keep, causal)
        if keep is not None:
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = scores - big * tf.cast(tf.logical_not(keep), scores.dtype)
        weights = tf.nn.softmax(scores, axis=-1)
        result = tf.matmul(self._dropout_layer(weights, training=training), v)
        if q_mask is not None:
            result = result * tf.expand_dims(tf.cast(q_mask, result.dtype), -1)
        return (result, weights) if return_attention_scores else result

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return _as_bool(mask[0])

    def get_config(self):
        return {**super().get_config(), "use_scale": self.use_scale, "dropout": self.dropout}


class Attention(_BaseAttention):
    """Dot-product attention: scores = query @ key^T (times `scale` with use_scale);
    score_mode='concat': concat_score_weight * sum(tanh(query + key), -1)."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, seed=seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(with_location(f"Attention: score_mode must be 'dot' or 'concat', got {score_mode!r}"))
        self.score_mode = score_mode

    def build(self, input_shape):
        self.scale = self.add_weight("scale", (), initializer="ones") if self.use_scale else None
        self.concat_score_weight = self.add_weight("concat_score_weight", (), initializer="ones") \
            if self.score_mode == "concat" else None

    def _scores(self, q, k):
        if self.score_mode == "dot":
            scores = tf.matmul(q, k, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        pairs = tf.expand_dims(q, -2) + tf.expand_dims(k, -3)  # (B, Tq, Tv, dim)
        if self.scale is not None:
            pairs = self.scale * pairs
        return self.concat_score_weight * tf.reduce_sum(tf.tanh(pairs), axis=-1)

    def get_config(self):
        return {**super().get_config(), "score_mode": self.score_mode}


class AdditiveAttention(_BaseAttention):
    """Bahdanau attention: scores = sum(scale * tanh(query + key), -1), `scale` a
    learned (dim,) vector with use_scale (the default)."""

    def __init__(self, use_scale=True, dropout=0.0, seed=None, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, seed=seed, **kwargs)

    def build(self, input_shape):
        dim = input_shape[0][-1]
        self.scale = self.add_weight("scale", (dim,), initializer="glorot_uniform") if self.use_scale else None

    def _scores(self, q, k):
        pairs = tf.tanh(tf.expand_dims(q, -2) + tf.expand_dims(k, -3))
        if self.scale is not None:
            pairs = self.scale * pairs
        return tf.reduce_sum(pairs, axis=-1)
