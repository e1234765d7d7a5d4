"""`a and b`, `a or b`, `not a` and chained comparisons `a < b < c` become
ag__.and_/or_/not_ calls: Python semantics on Python values, short-circuiting
graph logic (a cond) on symbolic tensors."""
import gast

from ..pyct import templates
from .base import Transformer

_SIMPLE = (gast.Name, gast.Constant, gast.Attribute)


class _Logical(Transformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        op = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
        result = node.values[-1]
        for value in reversed(node.values[:-1]):
            result = templates.replace_as_expression(f"{op}(lambda: a, lambda: b)", a=value, b=result)
        return result

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return templates.replace_as_expression("ag__.not_(a)", a=node.operand)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 or not all(isinstance(c, _SIMPLE) for c in node.comparators[:-1]):
            return node  # a middle operand with side effects must be evaluated once: left alone
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            parts.append(gast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        result = parts[-1]
        for part in reversed(parts[:-1]):
            result = templates.replace_as_expression("ag__.and_(lambda: a, lambda: b)", a=part, b=result)
        return result


def transform(node, ctx):
    return _Logical(ctx).visit(node)
