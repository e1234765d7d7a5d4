"""Static batch-shape arithmetic shared by the composite operators."""
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import array_ops as A


def broadcast_static(a, b):
    """The broadcast of two static shapes (None dims stay unknown); ValueError if they clash."""
    a, b = TensorShape(a), TensorShape(b)
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    x, y = list(a), list(b)
    n = max(len(x), len(y))
    x, y = [1] * (n - len(x)) + x, [1] * (n - len(y)) + y
    out = []
    for p, q in zip(x, y):
        if p == 1:
            out.append(q)
        elif q == 1 or q == p:
            out.append(p)
        elif p is None or q is None:
            out.append(None if q is None else q)
        else:
            raise ValueError(f"Incompatible shapes for broadcasting: {a} and {b}")
    return TensorShape(out)


def reshape(x, dims):
    """x reshaped to dims, of which one may be None (a batch dim unknown while tracing)."""
    return A.reshape_keeping_unknown(x, list(dims))


def broadcast_vectors(a, b):
    """Two batches of vectors broadcast to one shape (unchanged when they already agree)."""
    if list(a.shape) == list(b.shape):
        return a, b
    shape = broadcast_static(a.shape, b.shape).as_list()
    return A.broadcast_to(a, shape), A.broadcast_to(b, shape)
