"""Constructs the converter does not handle: a clear NotImplementedError naming
the construct and its line (the caller may then fall back to running eagerly)."""
import gast

from .base import Transformer


class _Check(Transformer):
    def visit_For(self, node):
        if node.orelse:
            raise self.ctx.error(node, "for/else is not supported in a converted function")
        return self.generic_visit(node)

    def visit_While(self, node):
        if node.orelse:
            raise self.ctx.error(node, "while/else is not supported in a converted function")
        return self.generic_visit(node)

    def visit_Yield(self, node):
        raise self.ctx.error(node, "generators (yield) are not supported in a converted function")

    visit_YieldFrom = visit_Yield

    def visit_Try(self, node):
        for s in node.body + node.orelse + node.finalbody + [x for h in node.handlers for x in h.body]:
            for n in gast.walk(s):
                # if/while/for inside try convert as they stand; a jump out of a
                # try block would need the flags to cross it.
                if isinstance(n, (gast.Return, gast.Break, gast.Continue)):
                    raise self.ctx.error(node, "return/break/continue inside try/except/finally "
                                               "is not supported in a converted function")
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node):
        raise self.ctx.error(node, "async functions are not supported in a converted function")

    def visit_AsyncFor(self, node):
        raise self.ctx.error(node, "async for is not supported in a converted function")

    visit_AsyncWith = visit_Await = visit_AsyncFor

    def visit_Lambda(self, node):
        return node  # lambdas are converted when called (call_trees), not here


def transform(node, ctx):
    return _Check(ctx).visit(node)
