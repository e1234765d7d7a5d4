"""tnp products: matmul, dot, inner, outer, vdot, tensordot, einsum, kron, cross, polyval."""
import tapeflow as tf
from tapeflow.experimental_numpy.dtypes import asarray, promote


def matmul(x1, x2):
    a, b = promote(x1, x2)
    if len(a.shape) == 0 or len(b.shape) == 0:  # IndexError: TF 2.21's type (measured)
        raise IndexError(f"tnp.matmul: operands must not be scalars (shapes {a.shape} and {b.shape})")
    inner_a, inner_b = a.shape[-1], b.shape[-2] if len(b.shape) > 1 else b.shape[0]
    if inner_a is not None and inner_b is not None and inner_a != inner_b:
        raise ValueError(f"tnp.matmul: the inner dimensions of shapes {a.shape} and {b.shape} differ "
                         f"({inner_a} vs {inner_b})")
    if len(a.shape) == 1 and len(b.shape) == 1:
        return tf.reduce_sum(a * b)
    if len(a.shape) == 1:
        return tf.squeeze(tf.matmul(a[None, :], b), -2)
    if len(b.shape) == 1:
        return tf.squeeze(tf.matmul(a, b[:, None]), -1)
    return tf.matmul(a, b)


def dot(a, b):
    a, b = promote(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    if len(b.shape) == 1:
        return tf.tensordot(a, b, [[-1], [0]])
    return tf.tensordot(a, b, [[len(a.shape) - 1], [len(b.shape) - 2]])


def inner(a, b):
    a, b = promote(a, b)
    if len(a.shape) == 0 or len(b.shape) == 0:
        return a * b
    return tf.tensordot(a, b, [[-1], [-1]])


def outer(a, b):
    a, b = promote(a, b)
    return tf.reshape(a, [-1, 1]) * tf.reshape(b, [1, -1])


def vdot(a, b):
    a, b = promote(a, b)
    return tf.reduce_sum(tf.math.conj(tf.reshape(a, [-1])) * tf.reshape(b, [-1]))


def tensordot(a, b, axes=2):
    a, b = promote(a, b)
    return tf.tensordot(a, b, axes)


def einsum(subscripts, *operands, **kwargs):
    return tf.einsum(subscripts, *promote(*operands))


def kron(a, b):
    a, b = promote(a, b)
    n = max(len(a.shape), len(b.shape))
    a = tf.reshape(a, [1] * (n - len(a.shape)) + a.shape.as_list())
    b = tf.reshape(b, [1] * (n - len(b.shape)) + b.shape.as_list())
    a_exp = tf.reshape(a, [d for s in a.shape.as_list() for d in (s, 1)])
    b_exp = tf.reshape(b, [d for s in b.shape.as_list() for d in (1, s)])
    return tf.reshape(a_exp * b_exp, [x * y for x, y in zip(a.shape.as_list(), b.shape.as_list())])


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    from tapeflow.experimental_numpy.shapes import moveaxis
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote(a, b)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    if a.shape[-1] == 2:
        a = tf.concat([a, tf.zeros_like(a[..., :1])], -1)
    if b.shape[-1] == 2:
        b = tf.concat([b, tf.zeros_like(b[..., :1])], -1)
    a, b = tf.broadcast_to(a, tf.shape(a + b)), tf.broadcast_to(b, tf.shape(a + b))
    return moveaxis(tf.linalg.cross(a, b), -1, axisc)


def polyval(p, x):
    p, x = promote(p, x)
    out = tf.zeros_like(x)
    for i in range(p.shape[0]):
        out = out * x + p[i]
    return out
