"""tf.compat.v1 op names and spellings that TF2 programs still call eagerly: the TF1 keyword
names (squeeze_dims=, dim=, keep_dims=, keep_prob=), TF1-only functions (sparse_to_dense,
batch_gather, py_func, Print, ...), the v1 learning-rate decays (callables when eager, as in
TensorFlow), tf.compat.v1.data's iterator helpers and tf.compat.v1.nn / .random / .metrics.

Eager TF has nothing to initialize: the v1 initializer ops give None, as TensorFlow's no_op."""
import math
import sys
import types

import tapeflow
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.ops import random_ops


def _one_of(op, new, old, new_name, old_name):
    if new is not None and old is not None:
        raise ValueError(with_location(f"tf.compat.v1.{op}: cannot specify both '{new_name}' and '{old_name}'"))
    return old if new is None else new


def squeeze(input, axis=None, name=None, squeeze_dims=None):  # noqa: A002 - TF's argument name
    return tapeflow.squeeze(input, axis=_one_of("squeeze", axis, squeeze_dims, "axis", "squeeze_dims"))


def expand_dims(input, axis=None, name=None, dim=None):  # noqa: A002 - TF's argument name
    axis = _one_of("expand_dims", axis, dim, "axis", "dim")
    if axis is None:
        raise ValueError(with_location("tf.compat.v1.expand_dims: Must specify an axis argument"))
    return tapeflow.expand_dims(input, axis)


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None, keep_dims=None):  # noqa: A002
    keepdims = bool(_one_of("norm", keepdims, keep_dims, "keepdims", "keep_dims"))
    return tapeflow.norm(tensor, ord=ord, axis=axis, keepdims=keepdims)


def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    keepdims = bool(_one_of("nn.moments", keepdims, keep_dims, "keepdims", "keep_dims"))
    return tapeflow.nn.moments(x, axes, keepdims=keepdims)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """TF1's dropout keeps each element with probability keep_prob (= 1 - rate)."""
    if keep_prob is not None:
        if rate is not None:
            raise ValueError(with_location("tf.compat.v1.nn.dropout: cannot specify both 'rate' and 'keep_prob'"))
        rate = 1 - keep_prob
    if rate is None:
        raise ValueError(with_location("tf.compat.v1.nn.dropout: you must provide a rate (or keep_prob)"))
    return tapeflow.nn.dropout(x, rate=rate, noise_shape=noise_shape, seed=seed)


def conv2d(input, filter=None, strides=None, padding=None, use_cudnn_on_gpu=True,  # noqa: A002 - TF's names
           data_format="NHWC", dilations=(1, 1, 1, 1), name=None, filters=None):
    return tapeflow.nn.conv2d(input, _one_of("nn.conv2d", filters, filter, "filters", "filter"), strides, padding,
                              data_format=data_format, dilations=dilations)


def _v1_pool(pool):
    def v1_pool(value=None, ksize=None, strides=None, padding=None, data_format="NHWC", name=None, input=None):  # noqa: A002
        return pool(_one_of(f"nn.{pool.__name__}", input, value, "input", "value"), ksize, strides, padding,
                    data_format=data_format)
    v1_pool.__name__ = pool.__name__
    return v1_pool


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True, max_norm=None):
    return tapeflow.nn.embedding_lookup(params, ids, max_norm=max_norm)


def _v1_softmax(softmax):
    def v1_softmax(logits, axis=None, name=None, dim=None):
        return softmax(logits, axis=_one_of(f"nn.{softmax.__name__}", axis, dim, "axis", "dim"))
    v1_softmax.__name__ = softmax.__name__
    return v1_softmax


def in_top_k(predictions, targets, k, name=None):
    """TF1's argument order: predictions first (TF2's tf.math.in_top_k takes targets first)."""
    return tapeflow.math.in_top_k(targets, predictions, k)


def xw_plus_b(x, weights, biases, name=None):
    return tapeflow.nn.bias_add(tapeflow.matmul(x, weights), biases)


def relu_layer(x, weights, biases, name=None):
    return tapeflow.nn.relu(xw_plus_b(x, weights, biases))


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None, seq_dim=None,  # noqa: A002
                     batch_dim=None):
    seq_axis = _one_of("reverse_sequence", seq_axis, seq_dim, "seq_axis", "seq_dim")
    batch_axis = _one_of("reverse_sequence", batch_axis, batch_dim, "batch_axis", "batch_dim")
    return tapeflow.reverse_sequence(input, seq_lengths, seq_axis=seq_axis, batch_axis=batch_axis or 0)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa: A002 - TF's name
    """TF1's 4-D space_to_batch: one block size for both spatial dims."""
    block_size = _one_of("space_to_batch", block_size, block_shape, "block_size", "block_shape")
    return tapeflow.space_to_batch(input, [block_size, block_size], paddings)


def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10, back_prop=True,
               swap_memory=False, name=None, maximum_iterations=None, return_same_structure=False):
    """TF1's while_loop: without return_same_structure, the one loop variable itself when
    loop_vars holds one, else a tuple (what TensorFlow packs)."""
    out = tapeflow.while_loop(cond, body, loop_vars, shape_invariants=shape_invariants,
                              maximum_iterations=maximum_iterations)
    if return_same_structure or not isinstance(out, (list, tuple)):
        return out
    return out[0] if len(out) == 1 else tuple(out)


def set_random_seed(seed):
    tapeflow.random.set_seed(seed)


def sparse_to_dense(sparse_indices, output_shape, sparse_values, default_value=0, validate_indices=True,
                    name=None):
    indices = tapeflow.cast(tapeflow.convert_to_tensor(sparse_indices), "int64")
    if indices.shape.rank == 1:
        indices = tapeflow.expand_dims(indices, -1)  # ids of a 1-D output
    shape = tapeflow.cast(tapeflow.reshape(tapeflow.convert_to_tensor(output_shape), [-1]), "int64")
    values = tapeflow.convert_to_tensor(sparse_values)
    values = values * tapeflow.ones([tapeflow.shape(indices)[0]], values.dtype) if values.shape.rank == 0 else values
    sp = tapeflow.sparse.SparseTensor(indices, values, shape)
    if validate_indices:
        sp = tapeflow.sparse.reorder(sp)
    return tapeflow.sparse.to_dense(sp, default_value=tapeflow.cast(default_value, values.dtype),
                                    validate_indices=validate_indices)


def batch_gather(params, indices, name=None):
    """TF1's batch_gather: gather along the axis after indices' batch dimensions."""
    indices = tapeflow.convert_to_tensor(indices)
    return tapeflow.gather(params, indices, batch_dims=indices.shape.rank - 1)


def random_poisson(lam, shape, dtype="float32", seed=None, name=None):
    return tapeflow.random.poisson(shape, lam, dtype=dtype, seed=seed)


def stateless_multinomial(logits, num_samples, seed, output_dtype="int64", name=None):
    return tapeflow.random.stateless_categorical(logits, num_samples, seed, dtype=output_dtype)


def substr(input, pos, len, name=None, unit="BYTE"):  # noqa: A002 - TF's argument names
    return tapeflow.strings.substr(input, pos, len, unit=unit)


def string_split(source, sep=None, skip_empty=True, delimiter=None, result_type="SparseTensor", name=None):
    """TF1's split of a vector of strings at EACH character of the delimiter (default " "; ""
    splits into bytes), empty tokens dropped with skip_empty: a SparseTensor (or RaggedTensor)."""
    if result_type not in ("SparseTensor", "RaggedTensor"):
        raise ValueError(with_location(f"tf.compat.v1.string_split: result_type must be 'SparseTensor' or "
                                       f"'RaggedTensor', got {result_type!r}"))
    delimiter = _one_of("string_split", sep, delimiter, "sep", "delimiter")
    delimiter = " " if delimiter is None else delimiter
    delimiter = delimiter.decode("utf-8") if isinstance(delimiter, bytes) else delimiter
    source = tapeflow.convert_to_tensor(source, dtype="string")
    if not delimiter:
        parts = tapeflow.strings.bytes_split(source)
    else:
        if len(delimiter) > 1:  # every delimiter character splits: map them all to the first one
            chars = "".join("\\" + c if c in "\\]^-[" else c for c in delimiter)
            source = tapeflow.strings.regex_replace(source, f"[{chars}]", delimiter[0].replace("\\", "\\\\"))
        parts = tapeflow.strings.split(source, sep=delimiter[0])
    if skip_empty:
        keep = tapeflow.not_equal(parts, "")
    else:  # an empty string has no tokens at all, even the empty one
        keep = tapeflow.RaggedTensor.from_row_splits(
            tapeflow.gather(tapeflow.not_equal(source, ""), parts.value_rowids()), parts.row_splits)
    parts = tapeflow.ragged.boolean_mask(parts, keep)
    return parts if result_type == "RaggedTensor" else parts.to_sparse()


def py_func(func, inp, Tout, stateful=True, name=None):  # noqa: N803 - TF's argument name
    return tapeflow.numpy_function(func, inp, Tout, stateful=stateful)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: N802 - TF's name
    """TF1's identity that also prints `message` and `data` to stderr when it runs (each
    tensor in brackets, a scalar too: "[2]")."""
    data = [tapeflow.convert_to_tensor(d) for d in data]
    data = [tapeflow.reshape(d, [1]) if d.shape.rank == 0 else d for d in data]
    tapeflow.print(*([message] if message else []), *data, output_stream=sys.stderr,
                   summarize=3 if summarize is None else summarize, sep="")
    return tapeflow.identity(input_)


def dimension_value(dimension):
    return getattr(dimension, "value", dimension)


class _ReuseMode:
    def __repr__(self):
        return "_ReuseMode.AUTO_REUSE"


AUTO_REUSE = _ReuseMode()


def _nothing_to_initialize(*args, **kwargs):
    """Eagerly variables and tables are initialized when made: TensorFlow's no_op gives None."""
    return None


def report_uninitialized_variables(var_list=None, name=None):
    return tapeflow.constant([], dtype="string")


# ---------------------------------------------------------------- v1 learning-rate decays
# Eagerly each returns a zero-argument callable, read at every optimizer step (TensorFlow's rule).

def _step(global_step):
    return tapeflow.cast(tapeflow.convert_to_tensor(global_step), "float32")


def _positive(op, decay_steps):
    if decay_steps <= 0:
        raise ValueError(with_location(f"tf.compat.v1.train.{op}: decay_steps must be positive, got {decay_steps}"))


def piecewise_constant(x, boundaries, values, name=None):
    if len(values) != len(boundaries) + 1:
        raise ValueError(with_location("tf.compat.v1.train.piecewise_constant: the length of values should be "
                                       "one more than the length of boundaries"))

    def decayed():
        step = tapeflow.convert_to_tensor(x)
        out = tapeflow.convert_to_tensor(values[-1])
        for b, v in reversed(list(zip(boundaries, values))):  # the first boundary >= step decides
            out = tapeflow.where(step <= tapeflow.cast(b, step.dtype), tapeflow.cast(v, out.dtype), out)
        return out
    return decayed


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001, power=1.0, cycle=False,
                     name=None):
    def decayed():
        step, steps = _step(global_step), tapeflow.constant(float(decay_steps))
        if cycle:
            steps = steps * tapeflow.maximum(tapeflow.math.ceil(step / steps), 1.0)
        else:
            step = tapeflow.minimum(step, steps)
        frac = (1.0 - step / steps) ** power
        return (learning_rate - end_learning_rate) * frac + end_learning_rate
    return decayed


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    def decayed():
        p = tapeflow.minimum(_step(global_step), float(decay_steps)) / float(decay_steps)
        cosine = 0.5 * (1.0 + tapeflow.cos(math.pi * p))
        return learning_rate * ((1.0 - alpha) * cosine + alpha)
    return decayed


def _scaled(op, global_step, decay_steps, staircase):
    _positive(op, decay_steps)
    p = _step(global_step) / float(decay_steps)
    return tapeflow.floor(p) if staircase else p


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    return lambda: learning_rate / (1.0 + decay_rate * _scaled("inverse_time_decay", global_step, decay_steps,
                                                                staircase))


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False, name=None):
    return lambda: learning_rate * tapeflow.exp(-decay_rate * _scaled("natural_exp_decay", global_step,
                                                                      decay_steps, staircase))


# ---------------------------------------------------------------- namespaces

class FallbackNamespace(types.ModuleType):
    """A v1 namespace: its own names first, then the TF2 module's."""

    def __init__(self, name, fallback, **own):
        super().__init__(name)
        self.__dict__.update(own)
        self._fallback = fallback

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._fallback, name)


class _GraphOnlyMetrics(types.ModuleType):
    """tf.compat.v1.metrics: TF1's streaming metrics are graph-only (TensorFlow raises eagerly)."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)

        def unsupported(*args, **kwargs):
            raise RuntimeError(with_location(f"tf.metrics.{name} is not supported when eager execution is "
                                             f"enabled; use tf.keras.metrics"))
        return unsupported


def _output_of(what):
    def get(dataset):
        return tapeflow.nest.map_structure(lambda spec: getattr(spec, what), dataset.element_spec)
    return get


def _namespaces():
    data = FallbackNamespace("tapeflow.compat.v1.data", tapeflow.data, make_one_shot_iterator=iter,
                     get_output_shapes=_output_of("shape"), get_output_types=_output_of("dtype"),
                     get_output_classes=lambda ds: tapeflow.nest.map_structure(
                         lambda spec: spec.value_type, ds.element_spec))
    nn = FallbackNamespace("tapeflow.compat.v1.nn", tapeflow.nn, moments=moments, dropout=dropout, conv2d=conv2d,
                   avg_pool=_v1_pool(tapeflow.nn.avg_pool), max_pool=_v1_pool(tapeflow.nn.max_pool),
                   embedding_lookup=embedding_lookup, softmax=_v1_softmax(tapeflow.nn.softmax),
                   log_softmax=_v1_softmax(tapeflow.nn.log_softmax), in_top_k=in_top_k, xw_plus_b=xw_plus_b,
                   relu_layer=relu_layer)
    random = FallbackNamespace("tapeflow.compat.v1.random", tapeflow.random, stateless_multinomial=stateless_multinomial,
                       poisson=random_poisson, set_random_seed=set_random_seed, get_seed=random_ops.get_seed)
    math = FallbackNamespace("tapeflow.compat.v1.math", tapeflow.math, in_top_k=in_top_k, softmax=nn.softmax,
                     log_softmax=nn.log_softmax)
    return {"data": data, "nn": nn, "random": random, "math": math,
            "metrics": _GraphOnlyMetrics("tapeflow.compat.v1.metrics")}


DECAYS = dict(piecewise_constant=piecewise_constant, polynomial_decay=polynomial_decay, cosine_decay=cosine_decay,
              inverse_time_decay=inverse_time_decay, natural_exp_decay=natural_exp_decay)

NAMES = dict(
    squeeze=squeeze, expand_dims=expand_dims, norm=norm, sparse_to_dense=sparse_to_dense, batch_gather=batch_gather,
    random_poisson=random_poisson, substr=substr, string_split=string_split, py_func=py_func, Print=Print, dimension_value=dimension_value,
    AUTO_REUSE=AUTO_REUSE, where_v2=tapeflow.where, sparse_tensor_dense_matmul=tapeflow.sparse.sparse_dense_matmul,
    global_variables_initializer=_nothing_to_initialize, local_variables_initializer=_nothing_to_initialize,
    tables_initializer=_nothing_to_initialize, variables_initializer=_nothing_to_initialize,
    report_uninitialized_variables=report_uninitialized_variables, reverse_sequence=reverse_sequence,
    space_to_batch=space_to_batch, while_loop=while_loop, random_crop=tapeflow.image.random_crop,
    **_namespaces())
