"""A while_loop whose condition and body are small, pure, static-shaped code
(elementwise ops, reductions, small matmuls, nested conds) compiles, with its
bodies, into ONE C function: no Python runs per iteration.

    int loopN(void *init0.., void *extra0.., void *out0..)

Every value of the bodies is a local C array of its static size; elementwise
ops broadcast by index arithmetic over the static shapes; loop variables are
copied in once and out once; extras (loop-invariant inputs, any size) are read
in place.  A loop that is not eligible (a stateful op, an unknown dim, a value
larger than MAX_VALUE elements, an op without a C form here) returns None from
`try_render_loop` and runs as a Python loop over compiled bodies instead.
A nonzero return (integer division by zero) re-runs the whole loop in Python
from its initial values (the loop is pure), which raises NumPy's error.

Residual stacks (the keeping loop of a loop's gradient, tracer.control_flow_grad):
a loop var whose only use is `while_stack_push(var, index, row)` and that has a
static (rows, ...) shape is a *stack var*.  It is never copied: the C function
writes the pushed row in place into the stack's own buffer, which the runner
also returns as the output (as the push primitive itself writes in place), so
its size is not limited by MAX_VALUE.  The reverse loop reads those stacks as
extras (`tensor_array_read` at a dynamic index).

A loop var whose new value one node of the body computes, when nothing after that
node reads the old value, is written by that node straight into the var's state
array (loop_plan.direct_outputs): no copy per iteration (an RNN gradient's accumulators
were copied twice per step).
"""

from . import c_templates as T
from . import matmul_c
from .c_math import CPU_FUNCS
from .passes import constant_folding, cse, dce, optimize, simplify
from .passes.graph_edit import has_effects, contiguous, use_counts
from . import loop_index_c as LI
from . import loop_plan as LP
from .ir import Ref
from .loop_index_c import size_of

MAX_VALUE = 1 << 14  # elements in one local array
MAX_CONST = 1 << 12  # elements of a constant embedded in the source
# Local arrays of one loop function share a budget of C stack; past it, arrays are
# carved from one heap arena allocated per call.  Trap: C compilers give every
# block-scoped array of a function its own frame slot, so the frame is about the
# SUM of all declared arrays -- an unrolled body of 150 64x64 matmul + tanh steps
# (4.9 MB) overflowed the main thread's 8 MiB stack and 20 steps a 1 MiB thread
# stack, killing the interpreter.  64 KiB fits any thread's stack.
STACK_BUDGET = 64 * 1024


class NotEligible(Exception):
    pass


class LoopSpec:
    def __init__(self, name, var_avals, extra_avals, stack_vars=(), arena_bytes=0):
        self.name = name
        self.arena_bytes = arena_bytes  # local arrays of one call, stack and heap (tracemalloc sees neither)
        self.var_avals = var_avals
        self.extra_avals = extra_avals
        self.stack_vars = frozenset(stack_vars)  # positions written in place (see the module doc)
        self.n_args = 2 * len(var_avals) + len(extra_avals)


def try_render_loop(node, name):
    """(name, C source, LoopSpec) for a loop that compiles whole, else None."""
    attrs = node.attr
    light = (constant_folding, simplify, cse, dce)
    try:
        cond_g = optimize(attrs["cond_graph"], passes=light)
        body_g = optimize(attrs["body_graph"], passes=light)
        return LoopWriter(node, name, cond_g, body_g).render()
    except NotEligible:
        return None


class LoopWriter:
    """Writes one loop's C function (`node` None: a straight-line block, blockgen_c.py,
    whose `body_g` is the graph)."""

    def __init__(self, node, name, cond_g, body_g):
        self.node = node
        self.name = name
        self.cond_g = cond_g
        self.body_g = body_g
        self.n_vars = node.attr["n_vars"] if node is not None else 0
        self.limit = node.attr.get("maximum_iterations") if node is not None else None
        self.counter = 0
        self.statics = []
        self.in_avals = None
        self.stack_vars = {}  # loop var position -> id of the push node that writes it
        self.direct = {}  # body node id -> the state array it writes (loop_plan.direct_outputs)
        self.inlined = {}  # C name of an inlined producer -> (node, its args) (loop_plan.inline_plan)
        self.extra_names = set()  # C names of the loop-invariant inputs
        self.read_only = set()  # C names never written while the loop runs: extras, constants
        self.views = set()  # C names of blocks read in place from a read-only array (no copy)
        self.hoisted = []  # statements run once before the loop (see _matmul)
        self.transposed = {}  # extra's C name -> its transposed copy
        self.names, self.fused_into_add, self.add_of_matmul = {}, set(), {}  # of the graph being written
        self.inline_ids = {}
        self.row_cols = None  # while an element loop runs over rows (r) and columns (c): the columns
        self.stack_bytes = 0  # local arrays declared on the C stack so far (STACK_BUDGET)
        self.arena_bytes = 0  # arrays carved from the heap arena so far

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def render(self):
        graph_avals = [self.body_g.aval(r) for r in self.body_g.inputs]
        if len(graph_avals) != len(self.node.inputs):
            raise NotEligible
        for a in graph_avals:
            if None in a.shape or T.ctype(a.dtype) is None:
                raise NotEligible
        var_avals = graph_avals[:self.n_vars]
        extra_avals = graph_avals[self.n_vars:]
        self.stack_vars = self._find_stack_vars()
        direct = LP.direct_outputs(self.body_g, self.n_vars, self.stack_vars)
        self.direct = {node_id: f"s{j}" for j, node_id in direct.items()}
        for j, a in enumerate(var_avals):
            if j not in self.stack_vars and size_of(a.shape) > MAX_VALUE:
                raise NotEligible
        lines = []
        params = [f"void *a{i}" for i in range(len(graph_avals))] + [f"void *o{j}" for j in range(self.n_vars)]
        lines.append(f"int {self.name}({', '.join(params)}) {{")
        lines.append("  int err = 0;")
        state = []
        for j, a in enumerate(var_avals):
            ct = T.ctype(a.dtype)
            n = size_of(a.shape)
            if j in self.stack_vars:  # the runner passes the stack itself as o{j}
                lines.append(f"  {ct} *s{j} = ({ct} *)TF_DATA(o{j});")
                state.append((f"s{j}", a))
                continue
            lines.append(self.array(a.dtype, f"s{j}", n, "  "))
            lines.append(f"  for (int64_t i = 0; i < {n}; i++) s{j}[i] = ((const {ct} *)TF_DATA(a{j}))[i];")
            state.append((f"s{j}", a))
        extras = []
        for j, a in enumerate(extra_avals):
            ct = T.ctype(a.dtype)
            idx = self.n_vars + j
            lines.append(f"  const {ct} *e{j} = (const {ct} *)TF_DATA(a{idx});")
            extras.append((f"e{j}", a))
            self.extra_names.add(f"e{j}")
        self.read_only |= self.extra_names
        inputs = state + extras
        loop_start = len(lines)
        lines.append("  for (int64_t it = 0;; it++) {")
        if self.limit is not None:
            lines.append(f"    if (it >= {int(self.limit)}LL) break;")
        cond_out = self.fresh("c")
        lines.append(f"    uint8_t {cond_out}[1];")
        lines += self.graph_code(self.cond_g, inputs, [cond_out], "    ")
        lines.append(f"    if (!{cond_out}[0]) break;")
        new_names = []
        for j, a in enumerate(var_avals):
            if j in self.stack_vars or j in direct:
                new_names.append(None)  # pushed in place, or written into s{j}, by the body
                continue
            nn = self.fresh("n")
            lines.append(self.array(a.dtype, nn, size_of(a.shape), "    "))
            new_names.append(nn)
        lines += self.graph_code(self.body_g, inputs, new_names, "    ")
        for j, a in enumerate(var_avals):
            if new_names[j] is not None:
                lines.append(f"    for (int64_t i = 0; i < {size_of(a.shape)}; i++) s{j}[i] = {new_names[j]}[i];")
        lines.append("    if (err) goto done;")
        lines.append("  }")
        for j, a in enumerate(var_avals):
            if j in self.stack_vars:
                continue
            ct = T.ctype(a.dtype)
            lines.append(f"  for (int64_t i = 0; i < {size_of(a.shape)}; i++) (({ct} *)TF_DATA(o{j}))[i] = s{j}[i];")
        lines.append("done:")
        lines.append("  free(arena);")
        lines.append("  return err;")
        lines.append("}")
        lines[loop_start:loop_start] = self.hoisted
        # the arena's size is known only now; a failed malloc re-runs the loop in Python
        lines.insert(2, f"  char *arena = {self.arena_bytes} ? (char *)malloc({self.arena_bytes}) : 0;")
        lines.insert(3, f"  if ({self.arena_bytes} && !arena) return 4;")
        self.statics.insert(0, "#include <stdlib.h>")
        src = "\n".join(self.statics + lines)
        return self.name, src, LoopSpec(self.name, var_avals, extra_avals, self.stack_vars,
                                             self.arena_bytes + self.stack_bytes)

    def _find_stack_vars(self):
        """{loop var position: push node id} for the stack vars (module doc):
        the body's output j is a push onto its input j, which nothing else reads
        (neither the body nor the condition), and the push's result is read
        by nothing but that output."""
        body, cond = self.body_g, self.cond_g
        uses = use_counts(body)
        cond_uses = use_counts(cond)
        found = {}
        for j in range(self.n_vars):
            out = body.outputs[j]
            node = body.node(out.node)
            var = body.inputs[j]
            if node.op != "while_stack_push" or node.inputs[0] != var:
                continue
            if uses.get(var, 0) != 1 or uses.get(out, 0) != 1 or cond_uses.get(cond.inputs[j], 0):
                continue
            if None in node.avals[0].shape or node.avals[0] != body.aval(var):
                continue
            found[j] = node.id
        return found

    # -- one graph as a block of statements
    def graph_code(self, graph, inputs, targets, ind):
        """Statements computing graph's outputs into the arrays `targets`."""
        if len(inputs) != len(graph.inputs) or len(targets) != len(graph.outputs):
            raise NotEligible
        names = {}
        for r, (nm, aval) in zip(graph.inputs, inputs):
            if graph.aval(r) != aval:
                raise NotEligible
            names[r] = nm
        saved = self.names, self.fused_into_add, self.add_of_matmul, self.inline_ids
        self.names = {}
        self.fused_into_add, self.add_of_matmul = LP.fused_matmuls(graph)
        self.inline_ids = LP.inline_plan(graph, self.add_of_matmul)
        try:
            return self._graph_code(graph, names, targets, ind)
        finally:
            self.names, self.fused_into_add, self.add_of_matmul, self.inline_ids = saved

    def _graph_code(self, graph, names, targets, ind):
        lines = [f"{ind}{{"]
        inner = ind + "  "
        for node in graph.nodes:
            lines += self._node_lines(graph, node, names, inner)
            self.node_done(graph, node, names)
        for r, target in zip(graph.outputs, targets):
            if target is None:  # a stack var or a direct output, written in place
                continue
            aval = graph.aval(r)
            lines.append(f"{inner}for (int64_t i = 0; i < {size_of(aval.shape)}; i++) {target}[i] = {names[r]}[i];")
        lines.append(f"{ind}}}")
        return lines

    def node_done(self, graph, node, names):
        """Called once the statements of `node` are written (a block reuses arrays here)."""

    def _node_lines(self, graph, node, names, inner):
        """The statements of one node (none for an input, a constant, an inlined producer)."""
        lines = []
        if node.op == "input":
            return lines
        if has_effects(node):
            raise NotEligible
        if node.id in self.stack_vars.values() and graph is self.body_g:
            lines += self._push(node, names, inner)
            return lines
        for a in node.avals:
            if None in a.shape or T.ctype(a.dtype) is None or size_of(a.shape) > MAX_VALUE:
                raise NotEligible
        direct = self.direct.get(node.id) if graph is self.body_g else None
        outs = []
        for i, a in enumerate(node.avals):
            nm = direct or self.fresh("v")
            outs.append(nm)
            names[Ref(node.id, i)] = nm
        if node.op == "const":
            names[Ref(node.id, 0)] = self._const(node)
            return lines
        if node.id in self.inline_ids:  # computed in its consumer's element loop
            self.inlined[outs[0]] = (node, [(names[r], graph.aval(r)) for r in node.inputs])
            return lines
        args = [(names[r], graph.aval(r)) for r in node.inputs]
        if not direct and node.op in ("getitem", "gather", "tensor_array_read") and args[0][0] in self.read_only:
            self.views.add(outs[0])  # a pointer into the block (LI.leading_index)
            self.read_only.add(outs[0])
            lines.append(f"{inner}const {T.ctype(node.avals[0].dtype)} *{outs[0]};")
        elif not direct and node.id not in self.fused_into_add:  # a fused matmul has no array of its own
            for nm, a in zip(outs, node.avals):
                lines.append(self.array(a.dtype, nm, size_of(a.shape), inner))
        self.names.update((r, (names[r], graph.aval(r))) for r in node.inputs)
        lines += self.node_code(node, args, outs, inner)
        return lines

    def _push(self, node, names, ind):
        """Row `index` of a stack var becomes the pushed value, in place.  An
        index out of range sets err = 3 (the Python loop then runs, which grows
        the stack as the primitive does)."""
        stack, index, value = node.inputs
        aval = node.avals[0]
        row = size_of(aval.shape[1:])
        target = names[stack]
        names[Ref(node.id, 0)] = target
        ix = self.fresh("ix")
        return [f"{ind}{{",
                f"{ind}  const int64_t {ix} = (int64_t){names[index]}[0];",
                f"{ind}  if ({ix} < 0 || {ix} >= {aval.shape[0]}) err = 3;",
                f"{ind}  else for (int64_t i = 0; i < {row}; i++) {target}[{ix} * {row} + i] = {names[value]}[i];",
                f"{ind}}}"]

    def _const(self, node):
        """A constant becomes a static array of the translation unit; returns its name."""
        value = contiguous(node.attr["value"].obj._value)
        aval = node.avals[0]
        if value.size > MAX_CONST:
            raise NotEligible
        name = f"{self.name}_{self.fresh('k')}"
        items = ", ".join(T.literal(v, aval.dtype) for v in value.reshape(-1).tolist()) or "0"
        self.statics.append(f"static const {T.ctype(aval.dtype)} {name}[{max(value.size, 1)}] = {{{items}}};")
        self.read_only.add(name)
        return name

    def node_code(self, node, args, outs, ind):
        op = node.op
        if op in T.REDUCTIONS:
            lines = LI.reduction(node, args[0], outs[0], ind, self.fresh)
            if lines is None:
                raise NotEligible
            return lines
        if op == "matmul":
            if node.id in self.fused_into_add:
                return []  # computed by the add that reads it (loop_plan.fused_matmuls)
            return self._matmul(node, args, outs[0], ind)
        if op == "add" and node.id in self.add_of_matmul:
            mm, acc = self.add_of_matmul[node.id]
            return self._matmul(mm, [self.names[r] for r in mm.inputs], outs[0], ind, acc=self.names[acc][0])
        if op == "cond":
            return self._cond(node, args, outs, ind)
        if op in ("getitem", "gather", "tensor_array_read", "getitem_grad"):
            lines = LI.leading_index(node, args, outs[0], ind, self.fresh, view=outs[0] in self.views)
            if lines is None:
                raise NotEligible
            return lines
        if op in ("broadcast_like", "reshape_like", "sum_like"):
            return self._like(node, args[0], outs[0], ind)
        in_dtypes = [a.dtype for _, a in args]
        if op == "select":
            in_dtypes = in_dtypes[1:]
        tmpl = T.template(op, in_dtypes, node.avals[0].dtype, node.attr, funcs=CPU_FUNCS) if in_dtypes else None
        if tmpl is None or len(outs) != 1:
            raise NotEligible
        if op in ("reshape", "expand_squeeze"):
            n = size_of(node.avals[0].shape)
            return [f"{ind}for (int64_t i = 0; i < {n}; i++) {outs[0]}[i] = {args[0][0]}[i];"]
        shape = node.avals[0].shape
        simd = [] if T.uses_err(op) else ["#pragma omp simd"]
        cols = self._row_operand(args, shape)
        if cols is None:
            lines = [ind + p for p in simd] + [f"{ind}for (int64_t i = 0; i < {size_of(shape)}; i++) {{"]
            body = ind + "  "
        else:  # rows of a row-broadcast operand (a bias): read in place, not gathered by i % cols
            lines = [f"{ind}for (int64_t r = 0; r < {size_of(shape) // cols}; r++) {{"]
            lines += [ind + "  " + p for p in simd] + [f"{ind}  for (int64_t c = 0; c < {cols}; c++) {{",
                                                      f"{ind}    const int64_t i = r * {cols} + c;"]
            body = ind + "    "
        self.row_cols = cols
        try:
            expr = self._element(node, args, tmpl, shape, body, lines)
        finally:
            self.row_cols = None
        lines.append(f"{body}{outs[0]}[i] = {expr};")
        lines += [f"{ind}  }}", f"{ind}}}"] if cols is not None else [f"{ind}}}"]
        return lines

    def _row_operand(self, args, shape):
        """The size of the trailing dims an operand (or an inlined producer's) spans
        when it broadcasts over the leading ones only (b in x + b), else None."""
        for nm, a in args:
            if nm in self.inlined:
                cols = self._row_operand(self.inlined[nm][1], shape)
                if cols is not None:
                    return cols
                continue
            src = tuple(a.shape)
            while src and src[0] == 1:
                src = src[1:]
            if src and len(src) < len(shape) and tuple(shape[len(shape) - len(src):]) == src:
                return size_of(src)
        return None

    def _element(self, node, args, tmpl, shape, ind, lines):
        """The C expression of element i of an elementwise node, its operands read
        into scalars first (an inlined producer's value computed there too)."""
        tmps = []
        for nm, a in args:
            t = self.fresh("t")
            if nm in self.inlined:
                p_node, p_args = self.inlined.pop(nm)
                in_dtypes = [pa.dtype for _, pa in p_args][1 if p_node.op == "select" else 0:]
                p_tmpl = T.template(p_node.op, in_dtypes, p_node.avals[0].dtype, p_node.attr, funcs=CPU_FUNCS)
                operand = self._element(p_node, p_args, p_tmpl, shape, ind, lines)
            else:
                operand = f"{nm}[{self._bcast_index(a.shape, shape)}]"
            lines.append(f"{ind}const {T.ctype(a.dtype)} {t} = {operand};")
            tmps.append(t)
        ct = T.ctype(node.avals[0].dtype)
        return f"({ct})({tmpl.format(*tmps, ctype=ct)})"

    def _bcast_index(self, src, dst):
        if tuple(src) == tuple(dst):
            return "i"
        if size_of(src) == 1:
            return "0"
        if self.row_cols is not None and size_of(src) == self.row_cols and \
                tuple(dst[len(dst) - len(src):]) == tuple(src):  # a row in the loop over c (node_code)
            return "c"
        return T.broadcast_index("i", src, dst)

    def _like(self, node, arg, out, ind):
        """Ops that take their result's shape from a second operand (gradients'
        zeros, reshapes and sums back to an input's shape)."""
        (x, xa), shape = arg, node.avals[0].shape
        n = size_of(shape)
        if node.op == "reshape_like":
            return [f"{ind}for (int64_t i = 0; i < {n}; i++) {out}[i] = {x}[i];"]
        if node.op == "broadcast_like":
            return [f"{ind}for (int64_t i = 0; i < {n}; i++) {out}[i] = {x}[{self._bcast_index(xa.shape, shape)}];"]
        if len(shape) > len(xa.shape):
            raise NotEligible
        # sum_like: every element of x adds into the element of `out` it broadcasts from
        return [f"{ind}for (int64_t i = 0; i < {n}; i++) {out}[i] = 0;",
                f"{ind}for (int64_t i = 0; i < {size_of(xa.shape)}; i++) "
                f"{out}[{self._bcast_index(shape, xa.shape)}] += {x}[i];"]

    def _matmul(self, node, args, out, ind, acc=None):
        (a, aa), (b, ba) = args
        if len(aa.shape) != 2 or len(ba.shape) != 2 or not aa.dtype.is_floating:
            raise NotEligible
        ta, tb = node.attr["transpose_a"], node.attr["transpose_b"]
        M, N = node.avals[0].shape
        K = aa.shape[0] if ta else aa.shape[1]
        ct = T.ctype(aa.dtype)
        helper = matmul_c.helper_source(ct)
        if helper not in self.statics:
            self.statics.append(helper)
        lines = []
        if tb:  # the kernel reads rows of b: copy b transposed into a local array
            if K * N > MAX_VALUE:
                raise NotEligible
            if b in self.extra_names:  # loop-invariant (a weight in a gradient loop): once, before the loop
                if b not in self.transposed:
                    bt = self.transposed[b] = self.fresh("bt")
                    self.hoisted += self._transpose(ct, b, bt, K, N, "  ", ba.dtype, pinned=True)
                b = self.transposed[b]
            else:
                bt = self.fresh("bt")
                lines += self._transpose(ct, b, bt, K, N, ind, ba.dtype)
                b = bt
        a_si, a_sk = (1, M) if ta else (K, 1)
        c = "0" if acc is None else acc  # a null pointer: no initial value
        lines.append(f"{ind}{matmul_c.helper_name(ct)}({a}, {a_si}, {a_sk}, {b}, {c}, {out}, {M}, {K}, {N});")
        return lines

    def array(self, dtype, name, n, ind, pinned=False):
        """The declaration of a local array of n elements: on the stack while
        STACK_BUDGET lasts, else a slice of the heap arena.  (`pinned`: written
        before the statements around it run; a block never reuses its slot.)"""
        ct = T.ctype(dtype)
        nbytes = max(n, 1) * dtype.np.itemsize
        if self.stack_bytes + nbytes <= STACK_BUDGET:
            self.stack_bytes += nbytes
            return f"{ind}{ct} {name}[{max(n, 1)}];"
        offset = self.arena_bytes
        self.arena_bytes += (nbytes + 63) // 64 * 64  # 64-byte aligned slices
        return f"{ind}{ct} *restrict {name} = ({ct} *)(arena + {offset});"

    def _transpose(self, ct, b, bt, K, N, ind, dtype, pinned=False):
        """bt[K, N] = transpose of b[N, K], declared here (`pinned`: hoisted, run first)."""
        return [self.array(dtype, bt, K * N, ind, pinned),
                f"{ind}for (int64_t k = 0; k < {K}; k++)",
                f"{ind}  for (int64_t j = 0; j < {N}; j++) {bt}[k * {N} + j] = {b}[j * {K} + k];"]

    def _cond(self, node, args, outs, ind):
        attrs = node.attr
        light = (constant_folding, simplify, cse, dce)
        then_g = optimize(attrs["then_graph"], passes=light)
        else_g = optimize(attrs["else_graph"], passes=light)
        pred = args[0][0]
        lines = [f"{ind}if ({pred}[0]) {{"]
        lines += self.graph_code(then_g, args[1:], outs, ind + "  ")
        lines.append(f"{ind}}} else {{")
        lines += self.graph_code(else_g, args[1:], outs, ind + "  ")
        lines.append(f"{ind}}}")
        return lines
