"""The kernels of floor division and modulo, as TensorFlow's FloorDiv / FloorMod compute them:
integers floor toward -inf (NumPy's own) and refuse a zero divisor; a float modulo is C's fmod
moved by the divisor where the signs differ, so a zero remainder keeps the dividend's sign
(NumPy's mod gives it the divisor's)."""
import numpy as np


def floordiv_impl(xp, x, y):
    if x.dtype.kind == "f":
        return xp.floor(x / y)
    if xp is np and np.any(y == 0):
        raise ZeroDivisionError("integer division by zero")
    return xp.floor_divide(x, y)


def mod_impl(xp, x, y):
    if x.dtype.kind != "f":
        if xp is np and np.any(y == 0):
            raise ZeroDivisionError("integer division by zero")
        return xp.mod(x, y)
    r = xp.fmod(x, y)
    return xp.where((r != 0) & ((r < 0) != (y < 0)), r + y, r)
