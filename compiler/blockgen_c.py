"""A straight-line graph of many small, pure, static-shaped ops -- an RNN
unrolled over its time steps, with its gradient -- compiles into ONE C
function, written as a whole loop's body is (loopgen_c.py), so no Python runs
between its matmuls and elementwise ops:

    int block(void *in0.., void *out0..)

Inputs are read in place; each output is copied out once.  Eligible when every
op has a C form there and every value is at most loopgen_c.MAX_VALUE elements,
each matmul at most MAX_MATMUL multiply-adds (larger ones are BLAS's work) and
the graph has MIN_OPS to MAX_OPS ops, a matmul among them (the normal path
calls NumPy for each matmul and splits its fused kernels there; for fewer ops
the saving is small, for more the C compile is slow; without a matmul the
elementwise ops and reductions fuse into few kernels already).  Otherwise
`try_render_block` returns None and the graph compiles as usual.

Arrays share the slots of one arena: a slot is free again once the value it
held has had its last read (loop_plan.read_positions: where the reads really
run), so the arena is about the largest set of live values, as NumPy frees
its temporaries; an elementwise result or a matmul's running sum takes the
slot of an operand read there for the last time.  The arena is on the C stack
up to loopgen_c.STACK_BUDGET, else allocated per call.  A nonzero return (an
index out of range, an integer division by zero, a failed allocation) runs the
graph through the reference interpreter instead, which raises the op's own
error.
"""
from . import c_templates as T
from . import loop_plan as LP
from . import loopgen_c as LG
from .ir import Ref
from .loop_index_c import size_of
from .passes import constant_folding, cse, dce, optimize, simplify
from .passes.graph_edit import has_effects

MIN_OPS = 16
MAX_OPS = 2000  # the C compiler's time grows faster than linearly in one function
MAX_MATMUL = 1 << 18  # multiply-adds of one matmul (a 16x64 by 64x64 RNN step is 1 << 16)
_ALIGN = 64


class BlockSpec:
    def __init__(self, name, in_avals, out_avals, arena_bytes):
        self.name = name
        self.arena_bytes = arena_bytes  # scratch of one call, C stack or heap (tracemalloc sees neither)
        self.in_avals = in_avals
        self.out_avals = out_avals
        self.n_args = len(in_avals) + len(out_avals)


def try_render_block(graph, name):
    """(the graph as compiled, C source, BlockSpec) for a graph that compiles whole, else None."""
    ops = [n for n in graph.nodes if n.op not in ("input", "const")]
    if len(ops) < MIN_OPS or any(has_effects(n) for n in ops):  # before any pass (a stateful op stays)
        return None
    light = optimize(graph, passes=(constant_folding, simplify, cse, dce))
    if not _worth_it(light):
        return None
    try:
        return (light, *_BlockWriter(light, name).render_block())
    except LG.NotEligible:
        return None


def _worth_it(graph):
    ops = [n for n in graph.nodes if n.op not in ("input", "const")]
    if not MIN_OPS <= len(ops) <= MAX_OPS or not any(n.op == "matmul" for n in ops):
        return False
    for n in ops:
        if n.op == "matmul":
            a = graph.aval(n.inputs[0]).shape
            if len(a) != 2 or None in a or None in n.avals[0].shape:  # sizes known only at run time
                return False
            depth = a[0] if n.attr["transpose_a"] else a[-1]
            if size_of(n.avals[0].shape) * depth > MAX_MATMUL:
                return False
    return True


class _BlockWriter(LG.LoopWriter):
    def __init__(self, graph, name):
        super().__init__(None, name, None, graph)
        self.slot_of = {}  # C name of an array -> (offset, bytes) in the arena
        self.free = {}  # bytes -> offsets of free slots of that size
        self.dead_at = {}  # position of a node -> Refs read for the last time there
        self.position = {n.id: k for k, n in enumerate(graph.nodes)}

    def render_block(self):
        g = self.body_g
        in_avals = [g.aval(r) for r in g.inputs]
        out_avals = [g.aval(r) for r in g.outputs]
        for a in in_avals + out_avals:
            if None in a.shape or T.ctype(a.dtype) is None:
                raise LG.NotEligible
        fused, adds = LP.fused_matmuls(g)
        _, last_read = LP.read_positions(g, adds, LP.inline_plan(g, adds))
        for r, at in last_read.items():
            if r not in g.outputs:
                self.dead_at.setdefault(at, []).append(r)
        params = [f"void *a{i}" for i in range(len(in_avals))] + [f"void *o{j}" for j in range(len(out_avals))]
        lines = [f"int {self.name}({', '.join(params)}) {{", "  int err = 0;"]
        inputs = []
        for i, a in enumerate(in_avals):
            ct = T.ctype(a.dtype)
            lines.append(f"  const {ct} *e{i} = (const {ct} *)TF_DATA(a{i});")
            inputs.append((f"e{i}", a))
            self.extra_names.add(f"e{i}")
        self.read_only |= self.extra_names
        targets = []
        for j, a in enumerate(out_avals):
            ct = T.ctype(a.dtype)
            lines.append(f"  {ct} *r{j} = ({ct} *)TF_DATA(o{j});")
            targets.append(f"r{j}")
        body = self.graph_code(g, inputs, targets, "  ")
        size = self.arena_bytes
        if size <= LG.STACK_BUDGET:
            lines += [f"  _Alignas({_ALIGN}) char local[{max(size, 1)}];", "  char *arena = local;"]
            end = []
        else:  # a failed allocation runs the graph in Python
            lines += [f"  char *arena = (char *)aligned_alloc({_ALIGN}, {size});", "  if (!arena) return 4;"]
            end = ["  free(arena);"]
            self.statics.insert(0, "#include <stdlib.h>")
        lines += self.hoisted + body + end + ["  return err;", "}"]
        src = "\n".join(self.statics + lines)
        return src, BlockSpec(self.name, in_avals, out_avals, size)

    def array(self, dtype, name, n, ind, pinned=False):
        """A slot of the arena: a free one of the same size unless `pinned`."""
        ct = T.ctype(dtype)
        nbytes = (max(n, 1) * dtype.np.itemsize + _ALIGN - 1) // _ALIGN * _ALIGN
        free = self.free.get(nbytes)
        if free and not pinned:
            offset = free.pop()
        else:
            offset = self.arena_bytes
            self.arena_bytes += nbytes
        if not pinned:
            self.slot_of[name] = (offset, nbytes)
        return f"{ind}{ct} *{name} = ({ct} *)(arena + {offset});"

    def _node_lines(self, graph, node, names, inner):
        if graph is self.body_g:
            self._release(self._overwritable(node), names)
        return super()._node_lines(graph, node, names, inner)

    def _overwritable(self, node):
        """Operands read for the last time by `node` whose slot its result may take:
        of an elementwise node, those of its shape (element i is read before it is
        written; its inlined producers run in the same loop); of an add that runs a
        matmul, the accumulator (the kernel reads each tile of it first), unless the
        kernel makes a transposed copy (that array must not take the slot)."""
        dying = self.dead_at.get(self.position[node.id], ())
        g = self.body_g
        if node.id in self.add_of_matmul:
            mm, acc = self.add_of_matmul[node.id]
            return [acc] if acc in dying and acc not in mm.inputs and not mm.attr["transpose_b"] else []
        if not LP.elementwise(g, node, self.add_of_matmul):
            return []
        return [r for r in dying if g.aval(r).shape == node.avals[0].shape]

    def node_done(self, graph, node, names):
        if graph is self.body_g:  # a cond branch's arrays keep their slots
            self._release(self.dead_at.get(self.position[node.id], ()), names)

    def _release(self, refs, names):
        for r in refs:
            slot = self.slot_of.pop(names.get(r), None)
            if slot is not None:
                self.free.setdefault(slot[1], []).append(slot[0])
