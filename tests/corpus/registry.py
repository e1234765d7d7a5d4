"""`@case(args...)` registers a corpus function with the argument tuples it is
checked on.  NumPy arrays (0-d included) become tensors at test time; Python
values are passed as they are (the Python-valued variants)."""
import numpy as np

CORPUS = []


def case(*arg_sets, name=None):
    def deco(fn):
        CORPUS.append((name or fn.__name__, fn, arg_sets))
        return fn
    return deco


def i32(v):
    return np.asarray(v, np.int32)


def f32(v):
    return np.asarray(v, np.float32)


def i64(v):
    return np.asarray(v, np.int64)


def f64(v):
    return np.asarray(v, np.float64)
