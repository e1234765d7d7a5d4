"""What the compiler did to a traced graph: op counts before and after the
optimization pipeline, and the C kernels generated.

An "op" is a node that does work when the graph runs: inputs, captured
constants and variable handles are not counted.  Before optimization the
bodies of cond/while nodes count with their parents.  After it, each generated
function's optimized graph (`Executable.graphs`: the top graph and every
cond/while body) counts once, and a fused kernel counts as one op whatever it
contains.
"""
from dataclasses import asdict, dataclass

from tapeflow.compiler.op_groups import VALUE_NODES as NOT_OPS  # the nodes that do no work


@dataclass
class GraphStats:
    ops_before: int  # ops as traced, bodies of control flow included
    ops_after: int  # ops scheduled after optimization (a kernel is one op)
    kernels: int  # generated C kernels (fused clusters and whole loops)
    fused_ops: int  # ops of the traced graph that run inside kernels
    uses_c: bool  # False: no C compiler, kernels run through NumPy
    interpreted: bool = False  # the tracer fell back to the reference interpreter

    def as_dict(self):
        return asdict(self)


def count_ops(graph):
    """Ops of `graph`, the bodies of its cond/while nodes included."""
    n = 0
    for node in graph.nodes:
        if node.op in NOT_OPS:
            continue
        n += 1
        if node.op != "fused":
            n += sum(count_ops(sub) for sub in node.subgraphs())
    return n


def scheduled_ops(graph):
    """Ops of one optimized graph as its generated function runs them."""
    return sum(1 for node in graph.nodes if node.op not in NOT_OPS)


def fused_ops(graph):
    """Ops inside the fused kernels of one optimized graph."""
    return sum(count_ops(node.attr["body"]) for node in graph.nodes if node.op == "fused")


def graph_stats(traced, executable):
    """GraphStats of a traced graph and its compiled Executable (None: it runs
    in the reference interpreter, nothing was optimized)."""
    before = count_ops(traced)
    if executable is None:
        return GraphStats(before, before, 0, 0, False, interpreted=True)
    graphs = executable.graphs or [executable.optimized_graph]
    return GraphStats(ops_before=before,
                      ops_after=sum(scheduled_ops(g) for g in graphs),
                      kernels=len(executable.kernels),
                      fused_ops=sum(fused_ops(g) for g in graphs),
                      uses_c=executable.uses_c)


__all__ = ["GraphStats", "graph_stats", "count_ops", "scheduled_ops"]
