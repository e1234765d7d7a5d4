"""`assert test, msg` becomes `ag__.assert_stmt(test, lambda: msg)`: a Python
assert on Python values, a graph assertion on a symbolic test."""
import gast

from ..pyct import templates
from .base import Transformer


class _Asserts(Transformer):
    def visit_Assert(self, node):
        self.generic_visit(node)
        msg = node.msg if node.msg is not None else gast.Constant("Assertion failed", None)
        new = templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test, msg=msg)
        return templates.with_origin(new, node)


def transform(node, ctx):
    return _Asserts(ctx).visit(node)
