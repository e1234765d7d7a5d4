"""`tf.autograph.experimental.set_loop_options(...)` as the first statements of a
loop body: removed from the body, its arguments become the loop's options
(evaluated where the loop starts)."""
import gast

from ..pyct import templates
from .base import Transformer


def _is_directive(stmt):
    if not isinstance(stmt, gast.Expr) or not isinstance(stmt.value, gast.Call):
        return False
    f = stmt.value.func
    name = f.attr if isinstance(f, gast.Attribute) else f.id if isinstance(f, gast.Name) else None
    return name == "set_loop_options"


class _Directives(Transformer):
    def _loop(self, node):
        self.generic_visit(node)
        options = None
        body = []
        for s in node.body:
            if _is_directive(s):
                options = s.value
            else:
                body.append(s)
        if options is not None:
            node.body = body or templates.replace("pass")
            node.loop_options = templates.replace_as_expression("ag__.loop_options()")
            node.loop_options.args = options.args
            node.loop_options.keywords = options.keywords
        return node

    visit_While = visit_For = _loop


def transform(node, ctx):
    return _Directives(ctx).visit(node)
