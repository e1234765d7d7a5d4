"""Static batch-shape arithmetic shared by the composite operators."""
from tapeflow.runtime.shape import TensorShape


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
