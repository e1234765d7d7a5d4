"""`return x` anywhere but the very end becomes `do_return = True; retval_ = x`;
what follows runs only while `do_return` is false, loops stop once it is set,
and the function ends with `return ag__.retval(retval_)`.  A function whose only
return is its last statement is left as it is."""
import gast

from ..pyct import templates
from .base import Transformer, contains
from .jumps import extend_loop_test, guarded_block

_LOOPS = (gast.While, gast.For)


class _Returns(Transformer):
    def visit_FunctionDef(self, node):
        self.generic_visit(node)  # nested functions first, each on its own
        body = node.body
        returns = [n for n in _own(body) if isinstance(n, gast.Return)]
        if not returns or (len(returns) == 1 and body[-1] is returns[0]):
            return node
        self.flag = self.ctx.namer.new("do_return")
        self.value = self.ctx.namer.new("retval_")
        always = always_returns(body)
        in_loop = any(contains(loop.body, gast.Return) for loop in _own(body) if isinstance(loop, _LOOPS))
        new_body = guarded_block(body, self.flag, gast.Return, self._stmt)
        head = templates.replace("flag = False\nvalue = ag__.UndefinedReturnValue()",
                                 flag=self.flag, value=self.value)
        if always:
            tail = templates.replace("return ag__.retval(value)", value=self.value)
        else:
            # The function may end without a return: when that is decided by a
            # tensor, its result is undefined on some path (TensorFlow's error).
            tail = templates.replace("return ag__.retval(value, flag, in_loop)", value=self.value,
                                     flag=self.flag, in_loop=gast.Constant(in_loop, None))
        node.body = templates.with_origin(head, node) + new_body + templates.with_origin(tail, body[-1])
        return node

    def _stmt(self, s):
        if isinstance(s, gast.Return):
            value = s.value if s.value is not None else gast.Constant(None, None)
            new = templates.replace("flag = True\nvalue = result", flag=self.flag, value=self.value,
                                    result=value)
            return templates.with_origin(new, s)
        if not contains([s], gast.Return):
            return [s]
        if isinstance(s, _LOOPS):
            s.body = guarded_block(s.body, self.flag, gast.Return, self._stmt)
            extend_loop_test(s, self.flag)
            return [s]
        for field in ("body", "orelse", "finalbody"):
            block = getattr(s, field, None)
            if block:
                setattr(s, field, guarded_block(block, self.flag, gast.Return, self._stmt))
        return [s]


def always_returns(stmts):
    """Every path through `stmts` ends in a return or raise."""
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, (gast.Return, gast.Raise)):
        return True
    if isinstance(last, gast.If):
        return always_returns(last.body) and always_returns(last.orelse)
    if isinstance(last, gast.With):
        return always_returns(last.body)
    if isinstance(last, gast.Try):
        return always_returns(last.finalbody) or (
            always_returns(last.body + last.orelse) and all(always_returns(h.body) for h in last.handlers))
    return any(isinstance(s, (gast.Return, gast.Raise)) for s in stmts)


def _own(stmts):
    from .base import own_nodes
    return own_nodes(stmts)


def transform(node, ctx):
    return _Returns(ctx).visit(node)
