"""if / while / for statements become calls of ag__.if_stmt / while_stmt /
for_stmt on functions that take the carried variables and return their new
values (functional form: no shared mutable state between a branch and what
follows).  The runtime operators run plain Python on Python values and stage
cond / while_loop graph nodes on symbolic tensors.

    if x > 0:                  def if_body(x):
        x = x * 2                  x = x * 2
                                   return (x,)
                     ->        def else_body(x):
                                   return (x,)
                               (x,) = ag__.if_stmt(x > 0, if_body, else_body, (x,), ('x',))

The carried variables of each statement come from pyct.analysis (bound in the
statement and live after it, or read inside before being bound).  Variables that
may be unbound when a statement starts are set to ag__.Undefined('name') at the
top of the function, so a branch can be handed "no value yet".
"""
import gast

from ..pyct import analysis, parser, templates
from .base import Transformer


class _ControlFlow(Transformer):
    def __init__(self, ctx):
        super().__init__(ctx)
        self.declared = [{}]
        self.cells = [set()]

    def visit_FunctionDef(self, node):
        declared = analysis.declared_names(node)
        params = analysis.param_names(node)
        analysis.annotate(node, params, set(declared))
        undefined = set()
        for s in analysis._own_statements(node.body):
            undefined.update(getattr(s, "cf_undefined", ()))
            undefined.update(getattr(s, "cf_shared", ()))  # a binding for their nonlocal lines
        self.declared.append(declared)
        self.cells.append(node.cf_cells)
        node.body = self.visit_block(node.body)
        self.declared.pop()
        self.cells.pop()
        inits = []
        for name in sorted(undefined - set(params)):
            inits += templates.replace("name = ag__.Undefined(text)", name=name,
                                       text=gast.Constant(name, None))
        node.body = templates.with_origin(inits, node) + node.body
        return node

    def visit_Lambda(self, node):
        return node

    def _declarations(self, node):
        """`global x` / `nonlocal x` lines for declared names the block assigns."""
        kinds = self.declared[-1]
        out = []
        for name in getattr(node, "cf_declared", ()):
            out += templates.replace(f"{kinds[name]} name", name=name)
        return out

    def _state(self, node):
        """The carried state of a statement: its names, then its composites.

        Returns (parameter names, prologue, state tuple, state names, targets,
        epilogue).  A cell (a name some closure reads) is not a parameter of the
        generated functions: they declare it nonlocal and assign it from a
        renamed parameter, so a closure defined before or inside the statement
        reads the value of the current iteration or branch.  A composite
        (`self.x`) is passed in and out like a name and stored back into its
        object when it has a value."""
        names = list(node.cf_state)
        composites = list(getattr(node, "cf_composites", ()))
        cells = self.cells[-1]
        params, prologue, targets, epilogue = [], [], [], []
        nonlocals = []
        for name in names:
            if name in cells:
                arg = self.ctx.namer.new(name + "_arg")
                nonlocals.append(name)
                prologue += templates.replace("name = arg", name=name, arg=arg)
                params.append(arg)
            else:
                params.append(name)
            targets.append(gast.Name(name, gast.Store(), None, None))
        nonlocals += getattr(node, "cf_shared", [])
        if nonlocals:
            prologue = templates.replace("nonlocal names", names=nonlocals) + prologue
        loads = [gast.Name(n, gast.Load(), None, None) for n in names]
        inits = list(loads)
        for c in composites:
            arg = self.ctx.namer.new(c.replace(".", "_") + "_arg")
            params.append(arg)
            prologue += self._store_composite(c, arg)
            loads.append(self._load_composite(c))
            inits.append(self._load_composite(c))
            out = self.ctx.namer.new(c.replace(".", "_") + "_out")
            targets.append(gast.Name(out, gast.Store(), None, None))
            epilogue += self._store_composite(c, out)
        state = gast.Tuple(elts=loads, ctx=gast.Load())
        init = gast.Tuple(elts=inits, ctx=gast.Load())
        state_names = templates.strings_tuple(names + composites)
        target = gast.Tuple(elts=targets, ctx=gast.Store()) if targets else None
        return params, prologue, state, init, state_names, target, epilogue

    @staticmethod
    def _load_composite(c):
        return templates.replace_as_expression("ag__.load_composite(lambda: expr, text)",
                                               expr=parser.parse_expression(c), text=gast.Constant(c, None))

    @staticmethod
    def _store_composite(c, value):
        target = parser.parse_expression(c)
        return templates.replace("if not ag__.is_undefined(value):\n    target = value",
                                 value=value, target=target)

    def visit_If(self, node):
        node.body = self.visit_block(node.body)
        node.orelse = self.visit_block(node.orelse)
        params, prologue, state, init, state_names, target, epilogue = self._state(node)
        body_name = self.ctx.namer.new("if_body")
        else_name = self.ctx.namer.new("else_body")
        decl = self._declarations(node) + prologue
        inputs = list(getattr(node, "cf_inputs", ()))  # read, then rebound, inside: passed in, not out
        call = "ag__.if_stmt(test, body_name, else_name, init, state_names" + (", inputs)" if inputs else ")")
        new = templates.replace(
            """
            def body_name(state_args):
                decl
                body
                return state
            def else_name(state_args):
                decl
                orelse
                return state
            state_out = """ + call,
            body_name=body_name, else_name=else_name, state_args=params + inputs, decl=decl,
            body=node.body, orelse=node.orelse or templates.replace("pass"), state=state,
            state_out=self._target(target), test=node.test, state_names=state_names, init=init,
            inputs=gast.Tuple(elts=[gast.Name(n, gast.Load(), None, None) for n in inputs], ctx=gast.Load()))
        return templates.with_origin(self._drop_empty_target(new, target) + epilogue, node)

    def visit_While(self, node):
        node.body = self.visit_block(node.body)
        params, prologue, state, init, state_names, target, epilogue = self._state(node)
        test_name = self.ctx.namer.new("loop_test")
        body_name = self.ctx.namer.new("loop_body")
        options = getattr(node, "loop_options", None) or gast.Constant(None, None)
        new = templates.replace(
            """
            def test_name(state_args):
                prologue
                return test
            def body_name(state_args):
                decl
                body
                return state
            state_out = ag__.while_stmt(test_name, body_name, init, state_names, options)
            """,
            test_name=test_name, body_name=body_name, state_args=params, test=node.test,
            prologue=prologue or templates.replace("pass"),
            decl=self._declarations(node) + prologue, body=node.body, state=state,
            state_out=self._target(target), state_names=state_names, options=options, init=init)
        return templates.with_origin(self._drop_empty_target(new, target) + epilogue, node)

    def visit_For(self, node):
        node.body = self.visit_block(node.body)
        params, prologue, state, init, state_names, target, epilogue = self._state(node)
        body_name = self.ctx.namer.new("loop_body")
        itr = self.ctx.namer.new("itr")
        options = getattr(node, "loop_options", None) or gast.Constant(None, None)
        extra = getattr(node, "extra_tests", [])
        new = []
        if extra:
            extra_name = self.ctx.namer.new("extra_test")
            test = extra[0]
            for t in extra[1:]:
                test = templates.replace_as_expression("ag__.and_(lambda: a, lambda: b)", a=test, b=t)
            new += templates.replace("def extra_name(state_args):\n    prologue\n    return test",
                                     extra_name=extra_name, state_args=params, test=test,
                                     prologue=prologue or templates.replace("pass"))
            extra_ref = gast.Name(extra_name, gast.Load(), None, None)
        else:
            extra_ref = gast.Constant(None, None)
        new += templates.replace(
            """
            def body_name(itr, state_args):
                decl
                target = itr
                body
                return state
            state_out = ag__.for_stmt(iter_, extra_test, body_name, init, state_names, options, iterate)
            """,
            body_name=body_name, itr=itr, state_args=params, decl=self._declarations(node) + prologue,
            target=node.target, body=node.body, state=state, state_out=self._target(target),
            iter_=node.iter, extra_test=extra_ref, state_names=state_names, options=options, init=init,
            iterate=gast.Constant(node.target.id if isinstance(node.target, gast.Name) else None, None))
        return templates.with_origin(self._drop_empty_target(new, target) + epilogue, node)

    def _target(self, target):
        return target if target is not None else gast.Name("_", gast.Store(), None, None)

    def _drop_empty_target(self, new, target):
        """With nothing carried, the operator's result is not assigned."""
        if target is None:
            last = new[-1]
            new[-1] = gast.Expr(value=last.value)
        return new


def transform(node, ctx):
    return _ControlFlow(ctx).visit(node)
