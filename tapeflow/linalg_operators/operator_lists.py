"""Operators made of a list of operators (block diagonal, composition, Kronecker, block lower
triangular): the constructor checks of the list, each raising the calling class's TensorFlow
message, and the determinant / log-determinant / trace folded over the list."""
from tapeflow.runtime.ops import math_ops as M


def operator_list(operators, empty_message):
    """`operators` as a list; ValueError(empty_message, with {} the list) when it is empty."""
    operators = list(operators)
    if not operators:
        raise ValueError(empty_message.format(operators))
    return operators


def same_dtype(operators, what="Expected all operators to have the same dtype.  Found"):
    dtype = operators[0].dtype
    if any(op.dtype != dtype for op in operators):
        raise TypeError(what + " " + "   ".join(str((op.name, op.dtype)) for op in operators))
    return dtype


def all_hinted(operators, attr, given, message):
    """A hint every operator has is the whole's too (an explicit False then contradicts)."""
    if all(getattr(op, attr) for op in operators):
        if given is False:
            raise ValueError(message)
        return True
    return given


def product_of(operators, method):
    """operators[0].method() * operators[1].method() * ... (determinants)."""
    return fold(operators, method, M.multiply)


def sum_of(operators, method):
    """operators[0].method() + operators[1].method() + ... (log-determinants, traces)."""
    return fold(operators, method, M.add)


def fold(operators, method, combine):
    """combine(...combine(operators[0].method(), operators[1].method())..., operators[-1].method())."""
    result = getattr(operators[0], method)()
    for op in operators[1:]:
        result = combine(result, getattr(op, method)())
    return result
