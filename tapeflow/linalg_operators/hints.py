"""How the hints of two operators combine when one is composed with (or solved against) the
other: True / False when TensorFlow's rules decide it, None when it is unknown."""


def is_square(a, b):
    if a.is_square and b.is_square:
        return True
    if a.is_square is False and b.is_square is False:
        m, n = a.range_dimension, b.domain_dimension
        if m is not None and n is not None:
            return m == n
    if a.is_square is not None and b.is_square is not None and a.is_square != b.is_square:
        return False
    return None


def non_singular(a, b):
    if a.is_non_singular is False or b.is_non_singular is False:
        return False
    return a.is_non_singular and b.is_non_singular


def commuting_self_adjoint(a, b):
    """Self-adjointness survives composition only of commuting operators (diagonals)."""
    if a.is_self_adjoint and b.is_self_adjoint:
        return True
    if {a.is_self_adjoint, b.is_self_adjoint} == {True, False}:
        return False
    return None


def commuting_positive_definite(a, b):
    if a.is_positive_definite and a.is_self_adjoint and b.is_positive_definite and b.is_self_adjoint:
        return True
    return None


def commuting(a, b):
    """The three hints of a product of commuting operators, as keyword arguments."""
    return dict(is_non_singular=non_singular(a, b), is_self_adjoint=commuting_self_adjoint(a, b),
                is_positive_definite=commuting_positive_definite(a, b))
