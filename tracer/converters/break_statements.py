"""`break` becomes `break_ = True`; the rest of the loop body runs under
`if ag__.not_(break_):` and the loop stops once the flag is set."""
import gast

from ..pyct import templates
from .base import Transformer, contains
from .jumps import extend_loop_test, guarded_block

_LOOPS = (gast.While, gast.For)


class _Breaks(Transformer):
    def _loop(self, node):
        self.generic_visit(node)  # inner loops own their breaks
        if not contains(node.body, gast.Break, stop=_LOOPS):
            return node
        flag = self.ctx.namer.new("break_")

        def stmt(s):
            if isinstance(s, gast.Break):
                return templates.with_origin(templates.replace("flag = True", flag=flag), s)
            if isinstance(s, _LOOPS) or not contains([s], gast.Break, stop=_LOOPS):
                return [s]
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if block:
                    setattr(s, field, guarded_block(block, flag, gast.Break, stmt, stop=_LOOPS))
            return [s]

        node.body = guarded_block(node.body, flag, gast.Break, stmt, stop=_LOOPS)
        extend_loop_test(node, flag)
        init = templates.with_origin(templates.replace("flag = False", flag=flag), node)
        return init + [node]

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Breaks(ctx).visit(node)
