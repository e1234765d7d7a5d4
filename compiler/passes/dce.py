"""Dead-code elimination: keep what the outputs need, every stateful node (and
what it needs), and the graph inputs; drop the rest.  Order is kept."""
from ..ir import Graph
from .graph_edit import has_effects

NAME = "dce"


def run(graph):
    live = {r.node for r in graph.outputs}
    live.update(n.id for n in graph.nodes if has_effects(n) or n.op == "input")
    for node in reversed(graph.nodes):
        if node.id in live:
            live.update(r.node for r in node.inputs)
    nodes = tuple(n for n in graph.nodes if n.id in live)
    if len(nodes) == len(graph.nodes):
        return graph
    return Graph(nodes, graph.inputs, graph.outputs, graph.name)
