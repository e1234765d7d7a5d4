"""What converters share: the conversion context and a scope-aware transformer."""
import gast

from ..pyct.parser import ConversionError


class Context:
    """Per-conversion facts: fresh names and where the code comes from."""

    def __init__(self, namer, filename):
        self.namer = namer
        self.filename = filename

    def error(self, node, message):
        line = getattr(node, "lineno", None)
        where = f" (at {self.filename}:{line})" if line else ""
        return ConversionError(f"{message}{where}")


class Transformer(gast.NodeTransformer):
    def __init__(self, ctx):
        self.ctx = ctx

    def visit_block(self, stmts):
        """Visit a list of statements; a visit may return a list (spliced)."""
        out = []
        for s in stmts:
            r = self.visit(s)
            if r is None:
                continue
            out.extend(r if isinstance(r, list) else [r])
        return out


def own_nodes(stmts, stop=()):
    """Nodes of `stmts` in this function's scope: nested defs, lambdas and
    classes are not entered, nor any node type in `stop` (e.g. inner loops)."""
    scopes = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)
    todo = list(stmts)
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, scopes) or isinstance(n, stop):
            continue
        todo.extend(gast.iter_child_nodes(n))


def contains(stmts, kinds, stop=()):
    return any(isinstance(n, kinds) for n in own_nodes(stmts, stop))
