"""The legacy `tf.keras.backend` tensor functions (K.sum, K.dot, K.batch_dot, ...) that
Keras 3 keeps for TF1-era programs: thin wrappers over tapeflow ops with Keras's
argument conventions (reductions take `axis, keepdims`; K.ones/K.zeros/K.eye of a
fully known shape give variables)."""
import builtins
import math

import numpy as np

import tapeflow as tf


def _floatx():
    from tapeflow.keras.backend import floatx
    return floatx()


def _float_if_bool(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(x, _floatx()) if x.dtype == tf.bool else x


def abs(x):  # noqa: A001 - Keras's names shadow builtins here
    return tf.abs(x)


def all(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_all(tf.cast(x, tf.bool), axis, keepdims)


def any(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_any(tf.cast(x, tf.bool), axis, keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_sum(x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return tf.reduce_prod(x, axis, keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_max(x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return tf.reduce_min(x, axis, keepdims)


def mean(x, axis=None, keepdims=False):
    return tf.reduce_mean(_float_if_bool(x), axis, keepdims)


def std(x, axis=None, keepdims=False):
    return tf.math.reduce_std(_float_if_bool(x), axis=axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return tf.math.reduce_variance(_float_if_bool(x), axis=axis, keepdims=keepdims)


def argmax(x, axis=-1):
    return tf.argmax(x, axis)


def argmin(x, axis=-1):
    return tf.argmin(x, axis)


def arange(start, stop=None, step=1, dtype="int32"):
    if stop is None and start < 0:
        start = 0
    result = tf.range(start, stop, step) if stop is not None else tf.range(start, delta=step)
    return result if dtype == "int32" else tf.cast(result, dtype)


def cast(x, dtype):
    return tf.cast(x, dtype)


def cast_to_floatx(x):
    if isinstance(x, (tf.Tensor, tf.Variable)):
        return tf.cast(x, _floatx())
    return np.asarray(x, dtype=_floatx())


def clip(x, min_value, max_value):
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) and max_value < min_value:
        max_value = min_value
    return tf.clip_by_value(x, -np.inf if min_value is None else min_value,
                            np.inf if max_value is None else max_value)


def concatenate(tensors, axis=-1):
    return tf.concat(list(tensors), axis)


def constant(value, dtype=None, shape=None, name=None):
    return tf.constant(value, dtype=dtype or _floatx(), shape=shape, name=name)


def variable(value, dtype=None, name=None, constraint=None):
    dtype = dtype or _floatx()
    if tf.is_tensor(value):  # Keras casts a tensor value (tf.Variable itself would refuse it)
        value = tf.cast(value, dtype)
    return tf.Variable(value, dtype=dtype, name=name, constraint=constraint)


def _filled(fill, shape, dtype, name):
    v = fill(shape, dtype=dtype or _floatx())
    return variable(v, dtype or _floatx(), name) if builtins.all(d is not None for d in v.shape.as_list()) else v


def ones(shape, dtype=None, name=None):
    return _filled(tf.ones, shape, dtype, name)


def zeros(shape, dtype=None, name=None):
    return _filled(tf.zeros, shape, dtype, name)


def eye(size, dtype=None, name=None):
    return variable(tf.eye(size, dtype=dtype or _floatx()), dtype or _floatx(), name)


def ones_like(x, dtype=None, name=None):
    return tf.ones_like(x, dtype=dtype)


def zeros_like(x, dtype=None, name=None):
    return tf.zeros_like(x, dtype=dtype)


def count_params(x):
    return math.prod(x.shape.as_list())


def ndim(x):
    return x.shape.rank


def shape(x):
    return tf.shape(x)


def eval(x):  # noqa: A001
    return x.numpy() if hasattr(x, "numpy") else np.asarray(x)


def batch_get_value(tensors):
    return [x.numpy() for x in tensors]


def batch_set_value(tuples):
    for x, value in tuples:
        x.assign(np.asarray(value, dtype=x.dtype.name))


def update(x, new_x):
    return x.assign(new_x)


def update_add(x, increment):
    return x.assign_add(increment)


def update_sub(x, decrement):
    return x.assign_sub(decrement)


def dot(x, y):
    """Keras's nd dot: x's last axis against y's second-to-last (matmul for rank 2)."""
    if x.shape.rank > 2 or y.shape.rank > 2:
        xs, ys = x.shape.as_list(), y.shape.as_list()
        perm = list(range(len(ys)))
        perm = [perm.pop(-2)] + perm
        xt = tf.reshape(x, [-1, xs[-1]])
        yt = tf.reshape(tf.transpose(y, perm), [ys[-2], -1])
        return tf.reshape(tf.matmul(xt, yt), xs[:-1] + ys[:-2] + ys[-1:])
    return tf.matmul(x, y)


def batch_dot(x, y, axes=None):
    """Per-example dot of x[i] and y[i] over axes (x's, y's); static shapes."""
    x, y = tf.convert_to_tensor(x), tf.convert_to_tensor(y)
    xs, ys = x.shape.as_list(), y.shape.as_list()
    if len(xs) < 2 or len(ys) < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {tuple(xs)} and {tuple(ys)}.")
    if xs[0] is not None and ys[0] is not None and xs[0] != ys[0]:
        raise ValueError(f"Cannot do batch_dot on inputs with different batch sizes. Received inputs "
                         f"with shapes {tuple(xs)} and {tuple(ys)}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [len(xs) - 1, len(ys) - 1 if len(ys) == 2 else len(ys) - 2]
    a0, a1 = (a + len(s) if a < 0 else a for a, s in zip(axes, (xs, ys)))
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched, add a dummy "
                         "batch dimension to your inputs using K.expand_dims(x, 0)")
    if xs[a0] is not None and ys[a1] is not None and xs[a0] != ys[a1]:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {tuple(xs)} and {tuple(ys)} with "
                         f"axes={[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] ({xs[a0]} != {ys[a1]}).")
    # Move the contracted axes to x's end and y's position 1, flatten the rest: one matmul.
    x = tf.transpose(x, [i for i in range(len(xs)) if i != a0] + [a0])
    y = tf.transpose(y, [0, a1] + [i for i in range(1, len(ys)) if i != a1])
    x_mid, y_rest = x.shape.as_list()[1:-1], y.shape.as_list()[2:]
    out = tf.matmul(tf.reshape(x, [-1, math.prod(x_mid), xs[a0]]), tf.reshape(y, [-1, ys[a1], math.prod(y_rest)]))
    # Two rank-2 inputs give (batch, 1), as Keras (it squeezes only one of the two unit axes).
    return tf.reshape(out, [-1] + (x_mid + y_rest or [1]))


def batch_flatten(x):
    return tf.reshape(x, [-1, math.prod(x.shape.as_list()[1:])])


def flatten(x):
    return tf.reshape(x, [-1])


def expand_dims(x, axis=-1):
    return tf.expand_dims(x, axis)


def squeeze(x, axis):
    return tf.squeeze(x, [axis])


def reshape(x, shape):
    return tf.reshape(x, shape)


def permute_dimensions(x, pattern):
    return tf.transpose(x, perm=pattern)


def transpose(x):
    return tf.transpose(x)


def stack(x, axis=0):
    return tf.stack(x, axis=axis)


def tile(x, n):
    return tf.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    if x.shape.rank != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={x.shape.rank}")
    return tf.tile(tf.expand_dims(x, 1), [1, n, 1])


def repeat_elements(x, rep, axis):
    return tf.repeat(x, rep, axis=axis)


def reverse(x, axes):
    return tf.reverse(x, [axes] if isinstance(axes, int) else axes)


def gather(reference, indices):
    return tf.gather(reference, indices)


def one_hot(indices, num_classes):
    return tf.one_hot(indices, depth=num_classes, axis=-1)


def l2_normalize(x, axis=None):
    return tf.math.l2_normalize(x, axis=axis)


def switch(condition, then_expression, else_expression):
    """Elementwise choice for a tensor condition; the callables' branch for a scalar one."""
    then_value = then_expression() if callable(then_expression) else then_expression
    else_value = else_expression() if callable(else_expression) else else_expression
    condition = tf.cast(condition, tf.bool)
    if condition.shape.rank == 0:
        return then_value if bool(condition) else else_value
    return tf.where(condition, then_value, else_value)


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [tf.stop_gradient(v) for v in variables]
    return tf.stop_gradient(variables)


def softmax(x, axis=-1):
    if x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return tf.nn.softmax(x, axis=axis)


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    from tapeflow.keras.activations import relu as keras_relu
    return keras_relu(x, negative_slope=alpha, max_value=max_value, threshold=threshold)


def binary_crossentropy(target, output, from_logits=False):
    """Per element, as Keras's legacy backend (eps inside the logs, unlike keras.losses)."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = 1e-7
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * tf.math.log(output + eps) + (1 - target) * tf.math.log(1 - output + eps))


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = tf.clip_by_value(output / tf.reduce_sum(output, axis, True), 1e-7, 1.0 - 1e-7)
    return -tf.reduce_sum(target * tf.math.log(output), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    target = tf.cast(target, tf.int64)
    output = tf.convert_to_tensor(output)
    if output.shape.rank is not None and axis % output.shape.rank != output.shape.rank - 1:
        raise ValueError("sparse_categorical_crossentropy: only the last axis is supported here")
    if target.shape.rank == output.shape.rank:
        target = tf.squeeze(target, -1)
    if from_logits:
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    logp = tf.math.log(tf.clip_by_value(output, 1e-7, 1 - 1e-7))
    return -tf.reduce_sum(tf.one_hot(target, output.shape[-1], dtype=logp.dtype) * logp, -1)


def _unary(name, fn):
    def op(x):
        return fn(x)
    op.__name__ = op.__qualname__ = name
    return op


def _binary(name, fn):
    def op(x, y):
        return fn(x, y)
    op.__name__ = op.__qualname__ = name
    return op


# ---- the one-argument and two-argument elementwise functions, one per line ----
exp = _unary("exp", tf.exp)
log = _unary("log", tf.math.log)
sqrt = _unary("sqrt", tf.sqrt)
square = _unary("square", tf.square)
sign = _unary("sign", tf.sign)
round = _unary("round", tf.round)  # noqa: A001
sin = _unary("sin", tf.sin)
cos = _unary("cos", tf.cos)
tanh = _unary("tanh", tf.tanh)
sigmoid = _unary("sigmoid", tf.sigmoid)
softplus = _unary("softplus", tf.nn.softplus)
softsign = _unary("softsign", tf.nn.softsign)
elu = _unary("elu", tf.nn.elu)
equal = _binary("equal", tf.equal)
not_equal = _binary("not_equal", tf.not_equal)
greater = _binary("greater", tf.greater)
greater_equal = _binary("greater_equal", tf.greater_equal)
less = _binary("less", tf.less)
less_equal = _binary("less_equal", tf.less_equal)
maximum = _binary("maximum", tf.maximum)
minimum = _binary("minimum", tf.minimum)
pow = _binary("pow", tf.pow)  # noqa: A001


def cumsum(x, axis=0):
    return tf.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return tf.math.cumprod(x, axis=axis)
