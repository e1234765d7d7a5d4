"""`x.append(v)` as a statement becomes `x = ag__.list_append(x, v)`: the list
is then a variable that loops carry, and a tensor loop can turn it into a
TensorArray.  `x.pop()` likewise becomes `x, v = ag__.list_pop(x)`."""
import gast

from ..pyct import analysis, templates
from .base import Transformer


class _Lists(Transformer):
    """Only lists held in local variables are rewritten: appending to a global
    or closed-over list must stay a mutation of that list."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self.locals = [set()]

    def visit_FunctionDef(self, node):
        own = set(analysis.param_names(node)) | analysis.writes(node.body)
        self.locals.append(own - set(analysis.declared_names(node)))
        self.generic_visit(node)
        self.locals.pop()
        return node

    def visit_Expr(self, node):
        call = node.value
        if (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
                and isinstance(call.func.value, gast.Name) and call.func.attr == "append"
                and call.func.value.id in self.locals[-1]
                and len(call.args) == 1 and not call.keywords):
            new = templates.replace("target = ag__.list_append(target, value)",
                                    target=call.func.value.id, value=call.args[0])
            return templates.with_origin(new, node)
        return self.generic_visit(node)

    def visit_Lambda(self, node):
        return node


def transform(node, ctx):
    return _Lists(ctx).visit(node)
