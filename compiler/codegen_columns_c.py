"""Render a fused node with reductions over its leading axes ("col" members,
see passes/column_reductions.py) into one C function, same signature as
codegen_c's kernels:

    for each block of up to COL_BLOCK columns       (OpenMP: blocks over threads)
        accumulators acc[block] per reduction
        for r in rows:
            for c in the block:                      (omp simd)
                the elem values; store elem outputs; accumulate
        store the reductions of the block

A thread reads each row's block contiguously; the accumulators of a block stay
in L1.  Float32 sums accumulate in double, as codegen_c's row reductions do.
Max/min propagate NaN element by element; an empty max/min (R == 0) returns 2
so that the executor re-runs the node through NumPy, which raises.
"""
from . import c_templates as T
from .op_groups import EXTREMA
from .codegen_c import KernelSpec, FusedRenderer, _prod, parallel_min_elements, schedule, team_clause

COL_BLOCK = 256


class ColumnRenderer(FusedRenderer):
    def render(self):
        body, space, k = self.body, self.space, self.split
        reds = [n for n in self.members if self.levels[n.id] == "col"]
        elem_outs = [r.node for r in body.outputs if self.levels.get(r.node) == "elem"]
        lines = self._header()
        if any(n.op in EXTREMA for n in reds):
            lines.append("  if (R == 0 && C > 0) return 2;")
        threads = team_clause(self.threads)
        red = " reduction(|:err)" if self.err else ""
        if _prod(space) >= parallel_min_elements(self.members):
            lines.append(f"  #pragma omp parallel for {schedule(1)}{red}{threads}")  # a column block at a time
        lines.append(f"  for (int64_t cb = 0; cb < C; cb += {COL_BLOCK}) {{")
        lines.append(f"    const int64_t cn = C - cb < {COL_BLOCK} ? C - cb : {COL_BLOCK};")
        for n in reds:
            acc_t, init = self._acc(n)
            lines.append(f"    {acc_t} acc{n.id}[{COL_BLOCK}];")
            lines.append(f"    for (int64_t cc = 0; cc < cn; cc++) acc{n.id}[cc] = {init};")
        lines.append("    for (int64_t r = 0; r < R; r++) {")
        if not self.err:
            lines.append("      #pragma omp simd")
        lines.append("      for (int64_t cc = 0; cc < cn; cc++) {")
        lines.append("        const int64_t c = cb + cc;")
        nodes = self._loop_nodes(elem_outs + [n.inputs[0].node for n in reds])
        lines += self._loop_body(nodes, "        ", stores=True)
        for n in reds:
            lines.append("        " + self._update(n, f"acc{n.id}[cc]", f"v{n.inputs[0].node}"))
        lines.append("      }")
        lines.append("    }")
        for n in reds:
            ct = self._ctype(n.id)
            lines.append(f"    for (int64_t cc = 0; cc < cn; cc++) out{self.out_index[n.id]}[cb + cc] = "
                         f"({ct})acc{n.id}[cc];")
        lines.append("  }")
        lines.append("  return err;")
        lines.append("}")
        spec = KernelSpec(self.name, self.node, False, _prod(space[:k]), _prod(space[k:]), False)
        return "\n".join(lines), spec

    def _acc(self, n):
        """(accumulator C type, initial value) of reduction node n."""
        dtype = n.avals[0].dtype
        red = T.REDUCTIONS[n.op]
        return red.accumulator(dtype), red.init(dtype)

    def _update(self, n, acc, x):
        op = n.op
        if op == "reduce_sum":
            return f"{acc} += {x};"
        if op == "reduce_prod":
            return f"{acc} *= {x};"
        if op == "reduce_any":
            return f"{acc} = {acc} | ({x} != 0);"
        if op == "reduce_all":
            return f"{acc} = {acc} & ({x} != 0);"
        cmp = ">" if op == "reduce_max" else "<"
        nan = f" || {x} != {x}" if n.avals[0].dtype.is_floating else ""
        return f"{acc} = ({x} {cmp} {acc}{nan}) ? {x} : {acc};"
