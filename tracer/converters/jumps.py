"""Shared by the return, break and continue converters: a jump becomes an
assignment to a flag, and the statements after anything that may have jumped
run under `if ag__.not_(flag):`."""
from ..pyct import templates
from .base import contains


def guarded_block(stmts, flag, jump_kinds, convert_stmt, stop=()):
    """Rewrite a block: `convert_stmt(s)` turns one statement into a list (and
    turns its jumps into flag assignments); after a statement that may jump,
    the rest of the block goes under a guard on `flag`."""
    out = []
    for i, s in enumerate(stmts):
        may_jump = contains([s], jump_kinds, stop)
        out.extend(convert_stmt(s))
        if isinstance(s, jump_kinds):
            return out  # the rest is unreachable
        if may_jump and i + 1 < len(stmts):
            rest = guarded_block(stmts[i + 1:], flag, jump_kinds, convert_stmt, stop)
            guard = templates.replace("if ag__.not_(flag):\n    rest", flag=flag, rest=rest)
            out.extend(templates.with_origin(guard, stmts[i + 1]))
            return out
    return out


def extend_loop_test(loop, flag):
    """The loop also stops once `flag` is set: a while test gains a conjunct, a
    for loop an extra test (checked before each iteration)."""
    import gast
    if isinstance(loop, gast.While):
        loop.test = templates.replace_as_expression(
            "ag__.and_(lambda: ag__.not_(flag), lambda: test)", flag=flag, test=loop.test)
    else:
        tests = getattr(loop, "extra_tests", [])
        tests.append(templates.replace_as_expression("ag__.not_(flag)", flag=flag))
        loop.extra_tests = tests
