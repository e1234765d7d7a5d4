"""`continue` becomes `continue_ = True`; the rest of the loop body runs under
`if ag__.not_(continue_):`, and the flag is reset at the start of each iteration."""
import gast

from ..pyct import templates
from .base import Transformer, contains
from .jumps import guarded_block

_LOOPS = (gast.While, gast.For)


class _Continues(Transformer):
    def _loop(self, node):
        self.generic_visit(node)
        if not contains(node.body, gast.Continue, stop=_LOOPS):
            return node
        flag = self.ctx.namer.new("continue_")

        def stmt(s):
            if isinstance(s, gast.Continue):
                return templates.with_origin(templates.replace("flag = True", flag=flag), s)
            if isinstance(s, _LOOPS) or not contains([s], gast.Continue, stop=_LOOPS):
                return [s]
            for field in ("body", "orelse", "finalbody"):
                block = getattr(s, field, None)
                if block:
                    setattr(s, field, guarded_block(block, flag, gast.Continue, stmt, stop=_LOOPS))
            return [s]

        reset = templates.with_origin(templates.replace("flag = False", flag=flag), node.body[0])
        node.body = reset + guarded_block(node.body, flag, gast.Continue, stmt, stop=_LOOPS)
        return node

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Continues(ctx).visit(node)
