"""Every call `f(a, *b, k=c, **d)` becomes
`ag__.converted_call(f, (a, *b,), dict(k=c, **d))`, which decides at run time
whether `f` is user code to convert, a builtin with an AutoGraph version
(print, range, len, ...), or library code to call as it is.

Zero-argument `super()` needs the class cell that only a def inside a class
body gets; it is rewritten to `super(__class__, self)` (the converted function
receives the original `__class__` cell)."""
import gast

from ..pyct import templates
from .base import Transformer


class _Calls(Transformer):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.first_params = []

    def visit_FunctionDef(self, node):
        args = node.args.posonlyargs + node.args.args
        self.first_params.append(args[0].id if args else None)
        self.generic_visit(node)
        self.first_params.pop()
        return node

    def visit_Call(self, node):
        func = node.func
        if isinstance(func, gast.Name) and func.id == "super" and not node.args and self.first_params \
                and self.first_params[-1] is not None:
            return templates.replace_as_expression("super(__class__, self_)", self_=self.first_params[-1])
        self.generic_visit(node)
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name) and func.value.id == "ag__":
            return node
        if node.keywords:
            kwargs = templates.replace_as_expression("dict()")
            kwargs.keywords = node.keywords
        else:
            kwargs = gast.Constant(None, None)
        new = templates.replace_as_expression("ag__.converted_call(func, (args,), kwargs)",
                                              func=node.func, args=list(node.args), kwargs=kwargs)
        return new


def transform(node, ctx):
    return _Calls(ctx).visit(node)
