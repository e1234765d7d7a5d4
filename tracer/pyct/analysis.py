"""Static analysis of one function body, on structured control flow (after the
return/break/continue converters have removed jumps):

- `writes(stmts)`: names a block binds in its own scope;
- `reads(node)`: names an expression or statement reads (free names of nested
  functions, lambdas and comprehensions included);
- liveness: which names may be read later, computed backwards per block;
- definedness: which names are surely bound when a statement starts.

`annotate(fn_node)` stores on every if/while/for node
  node.cf_state     the names the control flow must carry (sorted): bound in the
                    statement and live after it or read inside before being bound;
  node.cf_undefined those of them that may be unbound when the statement starts.
Names declared global/nonlocal are never carried (they are not locals).
"""
import gast

# ------------------------------------------------------------------ writes

def writes(nodes):
    """Names bound by `nodes` (statements or targets) in the current scope."""
    out = set()
    for node in nodes if isinstance(nodes, list) else [nodes]:
        _writes(node, out)
    return out


def _writes(node, out):
    if isinstance(node, gast.Name):
        if isinstance(node.ctx, (gast.Store, gast.Del)):
            out.add(node.id)
        return
    if isinstance(node, gast.Subscript) and isinstance(node.ctx, (gast.Store, gast.Del)):
        # `d[k] = v` modifies d: in a tensor loop or branch d must be carried
        # through the node (a dict or list of tensors), as AutoGraph does.
        # (`o.d[k] = v` modifies the composite `o.d`: see composite_writes.)
        root = node.value
        while isinstance(root, gast.Subscript):
            root = root.value
        if isinstance(root, gast.Name):
            out.add(root.id)
    if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
        out.add(node.name)
        return
    if isinstance(node, (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)):
        return
    if isinstance(node, (gast.Import, gast.ImportFrom)):
        for a in node.names:
            out.add((a.asname or a.name).split(".")[0])
        return
    if isinstance(node, gast.ExceptHandler) and node.name is not None:
        _writes(node.name, out)
    for child in gast.iter_child_nodes(node):
        _writes(child, out)


# ------------------------------------------------------------------ reads

def reads(node):
    out = set()
    for n in node if isinstance(node, list) else [node]:
        _reads(n, out)
    return out


def _reads(node, out):
    if isinstance(node, gast.Name):
        if isinstance(node.ctx, gast.Load):
            out.add(node.id)
        return
    if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)):
        args = node.args
        inner = set()
        body = node.body if isinstance(node.body, list) else [node.body]
        for b in body:
            _reads(b, inner)
        params = {a.id for a in args.args + args.posonlyargs + args.kwonlyargs}
        params |= {a.id for a in (args.vararg, args.kwarg) if a is not None}
        out |= inner - params - writes(body)
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            _reads(d, out)
        for d in getattr(node, "decorator_list", []):
            _reads(d, out)
        return
    if isinstance(node, (gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)):
        inner = set()
        for child in gast.iter_child_nodes(node):
            _reads(child, inner)
        targets = set()
        for g in node.generators:
            targets |= writes(g.target)
        out |= inner - targets
        return
    for child in gast.iter_child_nodes(node):
        _reads(child, out)


# ------------------------------------------------------------------ liveness

class _Liveness:
    def block(self, stmts, live):
        for s in reversed(stmts):
            live = self.stmt(s, live)
        return live

    def stmt(self, s, live):
        if isinstance(s, gast.If):
            body_in = self.block(s.body, live)
            else_in = self.block(s.orelse, live)
            s.cf_live = live | body_in | else_in
            s.cf_live_out = set(live)
            return reads(s.test) | body_in | else_in
        if isinstance(s, gast.While):
            head = set(live) | reads(s.test)
            while True:
                new = head | self.block(s.body, head)
                if new == head:
                    break
                head = new
            s.cf_live = head
            return head
        if isinstance(s, gast.For):
            targets = writes(s.target)
            # Extra tests (break/return flags) are read before every iteration.
            head = set(live) | reads(getattr(s, "extra_tests", []))
            while True:
                new = head | (self.block(s.body, head) - targets)
                if new == head:
                    break
                head = new
            # The loop variable is carried only when it is read after the loop.
            s.cf_live = head
            return head | reads(s.iter)
        if isinstance(s, gast.Try):
            after = self.block(s.finalbody, live)
            else_in = self.block(s.orelse, after)
            handlers = set()
            for h in s.handlers:
                handlers |= self.block(h.body, after) | (reads(h.type) if h.type is not None else set())
            return self.block(s.body, else_in | handlers) | handlers
        if isinstance(s, gast.With):
            inner = self.block(s.body, live)
            bound = set()
            for item in s.items:
                if item.optional_vars is not None:
                    bound |= writes(item.optional_vars)
            return (inner - bound) | reads([i.context_expr for i in s.items])
        if isinstance(s, (gast.Return, gast.Raise)):
            return reads(s)
        if isinstance(s, gast.AugAssign):
            return (live - writes(s.target)) | reads(s.target) | reads(s.value) | _target_names(s.target)
        if isinstance(s, (gast.FunctionDef, gast.ClassDef)):
            return (live - {s.name}) | reads(s)
        return (live - writes(s)) | reads(s)


def _target_names(t):
    return {t.id} if isinstance(t, gast.Name) else set()


# ------------------------------------------------------------------ definedness

class _Definedness:
    def block(self, stmts, defined):
        for s in stmts:
            defined = self.stmt(s, defined)
        return defined

    def stmt(self, s, defined):
        if isinstance(s, gast.If):
            s.cf_defined = set(defined)
            return self.block(s.body, defined) & self.block(s.orelse, defined)
        if isinstance(s, (gast.While, gast.For)):
            s.cf_defined = set(defined)
            inner = set(defined) | (writes(s.target) if isinstance(s, gast.For) else set())
            # The body may run after earlier iterations bound more names; what
            # is surely bound at its start is what was bound before the loop.
            self.block(s.body, inner)
            return set(defined)
        if isinstance(s, gast.Try):
            self.block(s.body, defined)
            for h in s.handlers:
                self.block(h.body, defined)
            self.block(s.orelse, defined)
            return self.block(s.finalbody, defined)
        if isinstance(s, gast.With):
            bound = set(defined)
            for item in s.items:
                if item.optional_vars is not None:
                    bound |= writes(item.optional_vars)
            return self.block(s.body, bound)
        return set(defined) | writes(s)


# ------------------------------------------------------------------ annotate

def annotate(fn_node, params, declared):
    """Annotate the if/while/for statements of one function body (not of
    nested functions: each is annotated on its own).

    A name that a nested function or lambda reads (a cell) is carried by every
    statement that binds it, live or not: the closure may be called later, and
    must see the value Python would give it."""
    body = fn_node.body
    _Liveness().block(body, set())
    _Definedness().block(body, set(params))
    cells = closed_over(body)
    fn_node.cf_cells = cells
    for s in _own_statements(body):
        if isinstance(s, gast.If):
            bound = writes(s.body) | writes(s.orelse)
        elif isinstance(s, gast.While):
            bound = writes(s.body)
        elif isinstance(s, gast.For):
            bound = writes(s.body) | writes(s.target)
        else:
            continue
        # A cell first bound inside the statement is carried only when live: a
        # closure that reads it is then defined inside too, and sees the body's own.
        state = (bound & (s.cf_live | (cells & s.cf_defined))) - declared
        if isinstance(s, gast.If):
            # A branch's outputs are the names read after the if; a name the branch only reads
            # before rebinding it is an input alone (its new value may differ in shape or type
            # between the branches, as it may in TensorFlow).
            outputs = (bound & (s.cf_live_out | (cells & s.cf_defined))) - declared
            s.cf_inputs = sorted(state - outputs)
            state = outputs
        s.cf_state = sorted(state)
        # A cell first bound inside a loop and not carried is one variable for all the
        # iterations, as in Python (a lambda made in each iteration reads the last value):
        # the generated body declares it nonlocal instead of binding its own per call.
        s.cf_shared = sorted((bound & cells) - state - declared) if not isinstance(s, gast.If) else []
        s.cf_composites = sorted(c for c in composite_writes(_blocks_of(s))
                                 if c.split(".")[0] not in bound and c.split(".")[0] not in declared)
        s.cf_undefined = sorted((state | set(getattr(s, "cf_inputs", ()))) - s.cf_defined)
        s.cf_declared = sorted(bound & declared)


def _own_statements(stmts):
    """Statements of this function, nested blocks included, nested defs excluded."""
    for s in stmts:
        yield s
        if isinstance(s, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody"):
            yield from _own_statements(getattr(s, field, []) or [])
        for h in getattr(s, "handlers", []) or []:
            yield from _own_statements(h.body)


def declared_names(fn_node):
    """Names declared global or nonlocal in this function (not nested ones)."""
    out = {}
    for s in _own_statements(fn_node.body):
        if isinstance(s, gast.Global):
            out.update((n, "global") for n in s.names)
        elif isinstance(s, gast.Nonlocal):
            out.update((n, "nonlocal") for n in s.names)
    return out


def param_names(fn_node):
    args = fn_node.args
    names = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
    names += [a.id for a in (args.vararg, args.kwarg) if a is not None]
    return names


def _blocks_of(s):
    if isinstance(s, gast.If):
        return s.body + s.orelse
    return s.body


_CALLED_AT_ONCE = ("and_", "or_", "if_exp", "assert_stmt")


def closed_over(stmts):
    """Names that functions and lambdas defined in `stmts` (this scope) read.
    The lambdas converters generate for `and`/`or`/`x if c else y`/assert
    messages run at once, where they stand, and are not closures."""
    out = set()
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if (isinstance(n, gast.Call) and isinstance(n.func, gast.Attribute)
                and isinstance(n.func.value, gast.Name) and n.func.value.id == "ag__"
                and n.func.attr in _CALLED_AT_ONCE):
            for a in n.args:
                todo.append(a.body if isinstance(a, gast.Lambda) else a)
            continue
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda)):
            out |= reads(n)
            continue
        if isinstance(n, gast.ClassDef):
            # Its body runs at once, but its methods are closures over this scope's names.
            todo.extend(n.body)
            todo.extend(n.decorator_list + n.bases)
            continue
        todo.extend(gast.iter_child_nodes(n))
    return out


def composite_name(target):
    """'obj.a.b' for a target `obj.a.b` or `obj.a.b[k]...` (the attribute chain
    up to the first subscript), None for plain names and other targets."""
    chain = []
    node = target
    while isinstance(node, (gast.Attribute, gast.Subscript)):
        if isinstance(node, gast.Subscript):
            chain = []
        else:
            chain.append(node.attr)
        node = node.value
    if not isinstance(node, gast.Name) or not chain:
        return None
    return ".".join([node.id] + chain[::-1])


def composite_writes(stmts):
    """Composite names (`self.x`, `o.a.b`) assigned by `stmts` in this scope."""
    out = set()
    todo = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            continue
        if isinstance(n, (gast.Attribute, gast.Subscript)) and isinstance(n.ctx, (gast.Store, gast.Del)):
            c = composite_name(n)
            if c is not None:
                out.add(c)
        todo.extend(gast.iter_child_nodes(n))
    return out
