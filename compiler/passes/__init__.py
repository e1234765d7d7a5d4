"""The optimization pipeline: one plain list of passes, run in order.

Ordering constraints:
  constant_folding  first, so later passes see constants instead of ops on them;
  simplify          after folding (its patterns look for constant operands); it
                    leaves replaced nodes behind for dce, and may make new constants;
  cse               after simplify, so rewritten forms (x**2 -> x*x) merge;
  dce               after every rewrite, so fusion sees true use counts;
  fusion            after dce: a value used only inside a cluster never materializes;
  dce (again)       drops constants that fusion copied into kernel bodies;
  memory_plan       last: it plans buffers of the final schedule of fused kernels.
CPU_PIPELINE adds, before memory_plan,
  column_reductions folds reductions over leading axes into the elementwise kernel
                    of their input; only the C renderer knows such kernels, so it
                    is not in the backend-neutral PIPELINE.
Every pass is `run(graph) -> graph` and may be switched off by name
(TAPEFLOW_DISABLE_PASSES=cse,fusion or compiler.disable_passes("cse")).
"""
import sys

from .. import flags
from . import column_reductions, constant_folding, cse, dce, fusion, memory_plan, simplify

PIPELINE = (
    constant_folding,
    simplify,
    cse,
    dce,
    fusion,
    dce,
    memory_plan,
)
CPU_PIPELINE = PIPELINE[:-1] + (column_reductions, memory_plan)
PASS_NAMES = tuple(dict.fromkeys(p.NAME for p in CPU_PIPELINE))


def optimize(graph, passes=None):
    """Run the pipeline (or the given passes) on `graph`; returns a new Graph."""
    skip = flags.disabled_passes()
    unknown = skip - set(PASS_NAMES) - {"all"}
    if unknown:
        raise ValueError(f"TAPEFLOW_DISABLE_PASSES names unknown passes {sorted(unknown)}; "
                         f"the passes are {list(PASS_NAMES)}")
    dump = flags.is_on("dump_passes")
    if dump:
        print(f"=== {graph.name}: before optimization\n{graph}", file=sys.stderr)
    for p in passes if passes is not None else PIPELINE:
        if p.NAME in skip or "all" in skip:
            continue
        graph = p.run(graph)
        if dump:
            print(f"=== {graph.name}: after {p.NAME}\n{graph}", file=sys.stderr)
    return graph
