"""Fold reductions over LEADING axes into the fused kernel that computes their
input, so that input never materializes: the bias gradient of a dense layer
(reduce_sum(g * mask, axis=0)), the statistics of batch norm.

Fusion (fusion.py) only puts reductions over trailing axes into a cluster (one
value per row).  Here a fused node whose members are all elementwise ("elem"),
with a static iteration space S, takes in reductions over S[:m] of its outputs
as members of level "col": one value per column of S[m:].  Its split becomes m
(rows S[:m], columns S[m:]), which every input it reads must allow; several
reductions of one kernel fold when they share m.  codegen_columns_c.py renders
such a kernel; the body stays a plain graph, so the NumPy fallback and the
reference interpreter need nothing new.

A renderer that does not know level "col" must not accept such a node:
`has_column_reductions(node)` says whether it is one.
"""
from .. import c_templates
from ..ir import Graph, Node, Ref, freeze_attrs
from .fusion import classify
from .graph_edit import max_node_id

NAME = "column_reductions"


def has_column_reductions(node):
    return node.op == "fused" and any(level == "col" for _, level in node.attr["levels"])


def run(graph):
    producers = {n.id: n for n in graph.nodes if _foldable_kernel(n)}
    if not producers:
        return graph
    uses = {}
    for n in graph.nodes:
        for r in n.inputs:
            uses.setdefault(r, []).append(n.id)
    for r in graph.outputs:
        uses.setdefault(r, []).append(None)
    folds = {}  # fused node id -> (m, [reduction nodes])
    for n in graph.nodes:
        if n.op not in c_templates.REDUCTIONS or len(n.inputs) != 1:
            continue
        src = n.inputs[0]
        kernel = producers.get(src.node)
        m = _leading_split(graph, n, kernel)
        if m is None:
            continue
        fold = folds.setdefault(kernel.id, (m, []))
        if fold[0] == m:
            fold[1].append(n)
    if not folds:
        return graph
    return _rebuild(graph, folds, uses)


def _foldable_kernel(node):
    if node.op != "fused":
        return False
    space = tuple(node.attr["space"])
    return None not in space and all(level == "elem" for _, level in node.attr["levels"])


def _leading_split(graph, red, kernel):
    """m when `red` reduces the leading axes S[:m] of a full-space output of
    `kernel`, in a dtype the templates handle, and every input allows split m."""
    if kernel is None:
        return None
    space = tuple(kernel.attr["space"])
    src_aval = graph.aval(red.inputs[0])
    if src_aval.shape != space or c_templates.ctype(src_aval.dtype) is None:
        return None
    if (red.op in ("reduce_any", "reduce_all")) != src_aval.dtype.is_bool:
        return None
    axes = tuple(red.attr["axis"])
    m = len(axes)
    if m == 0 or m >= len(space) or axes != tuple(range(m)):
        return None  # all axes, or trailing ones: fusion's row reductions
    body = kernel.attr["body"]
    if any(classify(body.aval(r).shape, space, m) is None for r in body.inputs):
        return None
    return m


def _rebuild(graph, folds, uses):
    next_id = max_node_id(graph) + 1
    subst = {}
    replaced = {}  # old fused node id -> new node
    dropped = set()
    for kid, (m, reds) in folds.items():
        kernel = graph.node(kid)
        body = kernel.attr["body"]
        folded_ids = {r.id for r in reds}
        # outputs still used by something other than a folded reduction
        kept = [j for j in range(len(kernel.avals))
                if any(u not in folded_ids for u in uses.get(Ref(kid, j), []))]
        new_body_nodes = list(body.nodes)
        outputs = [body.outputs[j] for j in kept]
        avals = [kernel.avals[j] for j in kept]
        levels = list(kernel.attr["levels"])
        for red in reds:
            inner_src = body.outputs[red.inputs[0].index]
            new_body_nodes.append(Node(red.id, red.op, (inner_src,), red.attrs, red.avals))
            outputs.append(Ref(red.id, 0))
            avals.append(red.avals[0])
            levels.append((red.id, "col"))
            dropped.add(red.id)
        attrs = dict(kernel.attr)
        attrs.update(body=Graph(tuple(new_body_nodes), body.inputs, tuple(outputs), body.name),
                     split=m, levels=tuple(levels))
        node = Node(next_id, "fused", kernel.inputs, freeze_attrs(attrs), tuple(avals))
        next_id += 1
        for i, j in enumerate(kept):
            subst[Ref(kid, j)] = Ref(node.id, i)
        for i, red in enumerate(reds):
            subst[Ref(red.id, 0)] = Ref(node.id, len(kept) + i)
        replaced[kid] = node
    nodes = []
    for n in graph.nodes:
        if n.id in dropped:
            continue
        n = replaced.get(n.id, n)
        inputs = tuple(subst.get(r, r) for r in n.inputs)
        if inputs != n.inputs:
            n = Node(n.id, n.op, inputs, n.attrs, n.avals)
        nodes.append(n)
    outputs = tuple(subst.get(r, r) for r in graph.outputs)
    return Graph(tuple(nodes), graph.inputs, outputs, graph.name)
