"""Render a fused node into one C function.

    int NAME(void *in0, ..., void *out0, ..., int64_t R, int64_t C)

The void* are NumPy arrays (PyObject*): TF_DATA reads their data pointer (the
executor checked contiguity, dtype and shape).  The loop nest is

    for r in rows:                       (OpenMP parallel for when large)
        row values that need no reduction
        stage 1: for c in cols: accumulate the reductions of depth 1
        row values of depth 1 ...
        final:   for c in cols: store the elem outputs

Elem values are recomputed in each loop that needs them (cheaper than a round
trip through memory for these arithmetic-bound-free kernels).  A kernel whose
inputs are all read in full or as scalars and that has no reductions is one
flat loop over every element (R = 1).  The return value is 0, or 1 when an
integer division by zero happened, 2 for an empty max/min reduction: the
executor then re-runs the node through NumPy, which raises the right error.
"""
import numpy as np

from tapeflow.runtime import dtypes

from . import c_team
from . import c_templates as T
from .c_math import CPU_FUNCS
from .op_groups import COSTLY, EXTREMA
from .passes.column_reductions import has_column_reductions
from .passes.fusion import classify

# Work (elements x cost per element) below which a kernel runs on one thread;
# a cheap op costs 1, a COSTLY one (a libm call, a division) 1 + COSTLY_WEIGHT.
# Trap: right after a BLAS call (matmul) OpenBLAS's threads keep spinning for a
# while, and a two-thread kernel of a few hundred KB waits on them: the MLP
# step's 200K-element SGD update took 560 us with threads from 2**16 up, 26 us
# alone; a conv net's 0.5M-element relu after its im2col matmul made the
# compiled net slower than eager until 2**20.  On a busy machine a thread team
# costs a wake-up and a barrier that wait for a descheduled thread: a 2**20
# element x*a+b (0.1-0.5 ms of memory traffic) went 10-50x slower with a second
# process on the cores, so memory-bound kernels need 2**22 elements; GELU
# (tanh) and softmax (exp, div) of a million elements still use every core.
PARALLEL_MIN = 1 << 22
COSTLY_WEIGHT = 3


def parallel_min_elements(members):
    """Elements from which a kernel of these member nodes runs on a thread team."""
    costly = sum(1 for n in members if n.op in COSTLY)
    return max(1, PARALLEL_MIN // (1 + COSTLY_WEIGHT * costly))


# Threads take chunks of CHUNK elements (whole rows, or column blocks) as they
# come free (schedule(dynamic)), not one fixed share each: on a busy machine a
# descheduled thread then delays a kernel by one chunk, not by its half of the
# work (a static 2-thread 1M-element kernel went 0.1 ms -> 5 ms per call with
# a second process on the cores).  Each element is still computed whole by one
# thread and nothing is summed across threads (only the error flags are
# OR-ed), so results stay bit for bit the same whatever thread took a chunk.
CHUNK = 1 << 14
SCHEDULE = "dynamic"  # "static": one fixed share per thread, as before (benchmarks/contention.py --before)


# The team of each parallel loop is chosen at the call from how busy the cores
# are (c_team.py); False: always the num_threads flag's (or OpenMP's) count, as
# before (benchmarks/contention.py --before).
ADAPTIVE_TEAM = True


def team_clause(most):
    """The num_threads clause of a parallel loop of at most `most` threads (None: OpenMP's count)."""
    if ADAPTIVE_TEAM:
        return c_team.clause(most)
    return f" num_threads({most})" if most else ""


def schedule(chunk):
    """The OpenMP schedule clause of a loop whose threads take `chunk` iterations at a time."""
    return "schedule(static)" if SCHEDULE == "static" else f"schedule(dynamic, {chunk})"


SCRATCH_MAX = 1 << 14  # row length up to which costly values are kept in a per-row buffer
# ops worth keeping in a row buffer when several loops of a row need them


class KernelSpec:
    """What the executor needs to call one generated kernel."""

    def __init__(self, name, node, flat, rows, cols, dynamic):
        self.name = name
        self.node = node
        self.flat = flat
        self.rows = rows  # static R and C (None when a dim is unknown)
        self.cols = cols
        self.dynamic = dynamic


def _prod(dims):
    if None in dims:
        return None
    return int(np.prod(dims, dtype=np.int64))


def render_fused(node, name, num_threads=None):
    """(C source of the kernel, KernelSpec)."""
    if has_column_reductions(node):
        from .codegen_columns_c import ColumnRenderer
        return ColumnRenderer(node, name, num_threads, CPU_FUNCS).render()
    return FusedRenderer(node, name, num_threads, CPU_FUNCS).render()


class FusedRenderer:
    """The cluster walk shared by the C and CUDA renderers: analysis, per-op
    expressions, broadcast index arithmetic, the row/stage/elem loop bodies.
    What differs per target is in a few hooks (marked "target hook"); the CUDA
    renderer (codegen_cuda.py) overrides those and `render`."""

    COL_LOOP = "for (int64_t c = 0; c < C; c++) {"  # target hook: the loop over one row's columns

    def __init__(self, node, name, num_threads, funcs=None):
        attrs = node.attr
        self.funcs = funcs  # math functions this target replaces with its own (c_math.CPU_FUNCS)
        self.node = node
        self.name = name
        self.body = attrs["body"]
        self.space = tuple(attrs["space"])
        self.split = attrs["split"]
        self.levels = dict(attrs["levels"])
        self.threads = num_threads
        self.input_index = {r.node: i for i, r in enumerate(self.body.inputs)}
        self.members = [n for n in self.body.nodes if n.id in self.levels]
        self.by_id = {n.id: n for n in self.body.nodes}
        self.out_index = {r.node: j for j, r in enumerate(self.body.outputs)}
        self.err = any(T.uses_err(n.op) for n in self.members)
        self.depth = self._depths()

    # -- analysis
    def _depths(self):
        depth = {}
        for n in self.members:
            d = max((depth.get(r.node, 0) for r in n.inputs), default=0)
            depth[n.id] = d + 1 if n.op in T.REDUCTIONS else d
        return depth

    def _elem_mode(self, i):
        aval = self.body.inputs[i]
        shape = self.by_id[aval.node].avals[0].shape
        return classify(shape, self.space, self.split)

    def _is_flat(self):
        if any(self.levels[n.id] == "row" for n in self.members):
            return False
        return all(self._elem_mode(i) in ("full", "scalar") for i in range(len(self.body.inputs))
                   if self._used_as_elem(i))

    def _used_as_elem(self, i):
        rid = self.body.inputs[i].node
        return any(self.levels[n.id] == "elem" and any(r.node == rid for r in n.inputs) for n in self.members)

    # -- expressions
    def _ctype(self, node_id):
        return T.ctype(self.by_id[node_id].avals[0].dtype)

    def _operand(self, ref, as_row):
        nid = ref.node
        if nid in self.input_index:
            return f"{'y' if as_row else 'x'}{self.input_index[nid]}"
        return f"v{nid}"

    def _expr(self, n, as_row):
        in_dtypes = [self.by_id[r.node].avals[0].dtype for r in n.inputs]
        if n.op == "select":
            tmpl = T.template("select", in_dtypes[1:], n.avals[0].dtype)
        elif n.op in T.REDUCTIONS:
            raise AssertionError("reductions are not expressions")
        else:
            tmpl = T.template(n.op, in_dtypes, n.avals[0].dtype, n.attr, funcs=self.funcs)
        args = [self._operand(r, as_row) for r in n.inputs]
        return tmpl.format(*args, ctype=T.ctype(n.avals[0].dtype))

    def _elem_index(self, i):
        mode = self._elem_mode(i)
        if mode == "full":
            return "r * C + c"
        if mode == "scalar":
            return "0"
        if mode == "row":
            return "r"
        if mode == "col":
            return "c"
        # general: unravel the element index over the static space
        shape = self.by_id[self.body.inputs[i].node].avals[0].shape
        return T.broadcast_index("(r * C + c)", shape, self.space, self.split)

    def _row_index(self, i, users):
        """Index of input i when a row node reads it: per row, or a scalar."""
        shape = self.by_id[self.body.inputs[i].node].avals[0].shape
        return "0" if all(d == 1 for d in shape) else "r"

    # -- emission
    def _loop_nodes(self, targets, cached=()):
        """Elem members needed (transitively) to compute `targets`, in order;
        a member in `cached` is loaded from the row buffer, not recomputed."""
        need = set()
        stack = list(targets)
        while stack:
            nid = stack.pop()
            if nid in need or nid not in self.levels or self.levels[nid] != "elem":
                continue
            need.add(nid)
            if nid not in cached:
                stack.extend(r.node for r in self.by_id[nid].inputs)
        return [n for n in self.members if n.id in need]

    def _plan_scratch(self, loops):
        """Costly elem values that several loops of a row need: computed in the
        first, kept in a row buffer (a stack array of C values) for the rest."""
        cols = _prod(self.space[self.split:])
        if self.err or cols is None or cols > SCRATCH_MAX or cols == 0:
            return set()
        uses = {}
        for targets in loops:
            for n in self._loop_nodes(targets):
                uses[n.id] = uses.get(n.id, 0) + 1
        return {nid for nid, k in uses.items() if k > 1 and self.by_id[nid].op in COSTLY}

    def _loads(self, nodes, as_row):
        used = []
        for n in nodes:
            for r in n.inputs:
                i = self.input_index.get(r.node)
                if i is not None and i not in used:
                    used.append(i)
        return used

    def _header(self):
        """The signature, typed data pointers, inline constants and `err`."""
        body = self.body
        lines = []
        params = [f"void *a{i}" for i in range(len(body.inputs))]
        params += [f"void *o{j}" for j in range(len(body.outputs))]
        params += ["int64_t R", "int64_t C"]
        lines.append(f"int {self.name}({', '.join(params)}) {{")
        for i, r in enumerate(body.inputs):
            ct = self._ctype(r.node)
            lines.append(f"  const {ct} *in{i} = (const {ct} *)TF_DATA(a{i});")
        for j, r in enumerate(body.outputs):
            ct = self._ctype(r.node)
            lines.append(f"  {ct} *out{j} = ({ct} *)TF_DATA(o{j});")
        for n in body.nodes:
            if n.op == "const":
                value = n.attr["value"].obj._value.reshape(())
                lines.append(f"  const {T.ctype(n.avals[0].dtype)} v{n.id} = {T.literal(value.item(), n.avals[0].dtype)};")
        lines.append("  int err = 0;")
        return lines

    def render(self):
        body, space, k = self.body, self.space, self.split
        flat = self._is_flat()
        lines = self._header()
        if any(n.op in EXTREMA for n in self.members):
            lines.append("  if (C == 0 && R > 0) return 2;")
        threads = team_clause(self.threads)
        total = _prod(space)
        least = parallel_min_elements(self.members)
        small = total is not None and total < least  # no thread team (nor its outlined code)
        if flat:
            simd = "" if self.err else " simd"
            red = " reduction(|:err)" if self.err else ""
            if small:
                lines.append(f"  #pragma omp{simd}" if simd else "")
            else:
                lines.append(f"  #pragma omp parallel for{simd} if(C >= {least}) "
                             f"{schedule(CHUNK)}{red}{threads}")
            lines.append("  for (int64_t c = 0; c < C; c++) {")
            lines.append("    const int64_t r = 0;")
            lines += self._loop_body(self._loop_nodes([o.node for o in body.outputs]), "    ", stores=True)
            lines.append("  }")
        else:
            red = " reduction(|:err)" if self.err else ""
            if not small:
                lines.append(f"  #pragma omp parallel for if(R > 1 && R * C >= {least}) "
                             f"{schedule(f'C >= {CHUNK} ? 1 : {CHUNK} / (C > 0 ? C : 1)')}{red}{threads}")
            lines.append("  for (int64_t r = 0; r < R; r++) {")
            lines += self._row_body("    ")
            lines.append("  }")
        lines.append("  return err;")
        lines.append("}")
        spec = KernelSpec(self.name, self.node, flat,
                          1 if flat else _prod(space[:k]), _prod(space) if flat else _prod(space[k:]),
                          None in space)
        return "\n".join(lines), spec

    def _loop_body(self, nodes, ind, stores, reductions=()):
        lines = []
        for i in self._loads(list(nodes) + list(reductions), False):
            ct = self._ctype(self.body.inputs[i].node)
            lines.append(f"{ind}const {ct} x{i} = in{i}[{self._elem_index(i)}];")
        scratch = getattr(self, "scratch", set())
        stored = getattr(self, "stored", set())
        new_stores = []
        for n in nodes:
            if n.id in stored:
                lines.append(f"{ind}const {self._ctype(n.id)} v{n.id} = sc{n.id}[c];")
                continue
            lines.append(f"{ind}const {self._ctype(n.id)} v{n.id} = {self._expr(n, False)};")
            if n.id in scratch:
                lines.append(f"{ind}sc{n.id}[c] = v{n.id};")
                new_stores.append(n.id)
        stored.update(new_stores)
        for red in reductions:
            lines += self._accumulate(red, ind)
        if stores:
            for j, r in enumerate(self.body.outputs):
                if self.levels.get(r.node) == "elem":
                    lines.append(f"{ind}out{j}[r * C + c] = v{r.node};")
        return lines

    def _row_body(self, ind):
        lines = []
        row_members = [n for n in self.members if self.levels[n.id] == "row"]
        row_inputs = []
        for n in row_members:
            if n.op in T.REDUCTIONS:
                continue  # reads its input per element, in its stage loop
            for r in n.inputs:
                i = self.input_index.get(r.node)
                if i is not None and i not in row_inputs:
                    row_inputs.append(i)
        for i in row_inputs:
            ct = self._ctype(self.body.inputs[i].node)
            lines.append(f"{ind}const {ct} y{i} = in{i}[{self._row_index(i, None)}];")
        max_depth = max(self.depth.values(), default=0)
        elem_outs = [r.node for r in self.body.outputs if self.levels.get(r.node) == "elem"]
        loops = [[n.inputs[0].node for n in row_members if n.op in T.REDUCTIONS and self.depth[n.id] == d]
                 for d in range(1, max_depth + 1)] + [elem_outs]
        self.scratch = self._plan_scratch([t for t in loops if t])
        self.stored = set()
        cols = _prod(self.space[self.split:])
        for nid in sorted(self.scratch):
            lines.append(f"{ind}{self._ctype(nid)} sc{nid}[{cols}];")
        for d in range(0, max_depth + 1):
            if d > 0:
                reds = [n for n in row_members if n.op in T.REDUCTIONS and self.depth[n.id] == d]
                if reds:
                    lines += self._stage(reds, ind)
            for n in row_members:
                if self.depth[n.id] == d and n.op not in T.REDUCTIONS:
                    lines.append(f"{ind}const {self._ctype(n.id)} v{n.id} = {self._expr(n, True)};")
            for n in row_members:
                if self.depth[n.id] == d and n.id in self.out_index:
                    lines += self._store_row(ind, self.out_index[n.id], n.id)
        if elem_outs:
            lines += self._simd(ind, [])
            lines.append(ind + self.COL_LOOP)
            lines += self._loop_body(self._loop_nodes(elem_outs, self.stored), ind + "  ", stores=True)
            lines.append(f"{ind}}}")
        return lines

    def _stage(self, reds, ind):
        lines = []
        clauses = []
        for n in reds:
            acc, init, clause = self._acc_decl(n)
            lines.append(f"{ind}{acc} = {init};")
            clauses += clause
        sources = [n.inputs[0].node for n in reds]
        nodes = self._loop_nodes(sources, self.stored)
        lines += self._simd(ind, clauses)
        lines.append(ind + self.COL_LOOP)
        # a reduction may read an input directly (no elem member in between)
        lines += self._loop_body(nodes, ind + "  ", stores=False, reductions=reds)
        lines.append(f"{ind}}}")
        for n in reds:
            lines += self._combine(n, ind)
        for n in reds:
            ct = self._ctype(n.id)
            if n.op in EXTREMA and n.avals[0].dtype.is_floating:
                lines.append(f"{ind}if (nan{n.id}) acc{n.id} = NAN;")
            lines.append(f"{ind}const {ct} v{n.id} = ({ct})acc{n.id};")
        return lines

    # -- target hooks (C with OpenMP here)
    def _simd(self, ind, clauses):
        """Lines before a column loop: vectorize it (its reductions in `clauses`)."""
        return [] if self.err else [f"{ind}#pragma omp simd {' '.join(clauses)}".rstrip()]

    def _store_row(self, ind, j, node_id):
        return [f"{ind}out{j}[r] = v{node_id};"]

    def _combine(self, n, ind):
        """Lines after a stage loop that merge partial accumulators (none in C:
        one thread owns a row)."""
        return []

    def _acc_decl(self, n):
        dtype = n.avals[0].dtype
        red = T.REDUCTIONS[n.op]
        clauses = [f"reduction({red.omp}:acc{n.id})"]
        if n.op in ("reduce_any", "reduce_all"):
            return f"int acc{n.id}", red.init(dtype), clauses
        if red.extremum and dtype.is_floating:
            return f"int nan{n.id} = 0; {red.accumulator(dtype)} acc{n.id}", red.init(dtype), \
                clauses + [f"reduction(|:nan{n.id})"]
        return f"{red.accumulator(dtype)} acc{n.id}", red.init(dtype), clauses

    def _accumulate(self, n, ind):
        src = self._operand(n.inputs[0], False)
        acc = f"acc{n.id}"
        op = n.op
        if op == "reduce_sum":
            return [f"{ind}{acc} += {src};"]
        if op == "reduce_prod":
            return [f"{ind}{acc} *= {src};"]
        if op == "reduce_any":
            return [f"{ind}{acc} |= ({src} != 0);"]
        if op == "reduce_all":
            return [f"{ind}{acc} &= ({src} != 0);"]
        cmp = ">" if op == "reduce_max" else "<"
        lines = [f"{ind}{acc} = {src} {cmp} {acc} ? {src} : {acc};"]
        if n.avals[0].dtype.is_floating:
            lines.append(f"{ind}nan{n.id} |= ({src} != {src});")
        return lines
