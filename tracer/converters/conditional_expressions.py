"""`a if c else b` becomes `ag__.if_exp(c, lambda: a, lambda: b)`."""
from ..pyct import templates
from .base import Transformer


class _IfExp(Transformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return templates.replace_as_expression("ag__.if_exp(test, lambda: body, lambda: orelse)",
                                               test=node.test, body=node.body, orelse=node.orelse)


def transform(node, ctx):
    return _IfExp(ctx).visit(node)
