"""The second half of fusion: each cluster becomes one "fused" node whose body is
a Graph over its members, and the nodes are put back in an order where every
value comes before its users and effectful nodes keep their relative order."""
import heapq

import numpy as np

from .. import c_templates
from ..ir import Graph, Node, Ref, freeze_attrs
from .graph_edit import has_effects, max_node_id


def _is_inline_const(graph, ref):
    node = graph.node(ref.node)
    if node.op != "const":
        return False
    aval = node.avals[0]
    return c_templates.ctype(aval.dtype) is not None and int(np.prod(aval.shape, dtype=np.int64)) == 1


def rebuild(graph, clusters, cluster_of):
    next_id = [max_node_id(graph) + 1]

    def fresh():
        next_id[0] += 1
        return next_id[0] - 1

    used_outside = set(graph.outputs)
    for n in graph.nodes:
        c = cluster_of.get(n.id)
        for r in n.inputs:
            if c is None or cluster_of.get(r.node) is not c:
                used_outside.add(r)

    fused = {}  # cluster id -> (fused node, {member ref: fused ref})
    for c in clusters:
        fused[c.cid] = _fused_node(graph, c, used_outside, fresh)

    units = []  # (first position, kind, payload)
    unit_key = {}
    for i, n in enumerate(graph.nodes):
        c = cluster_of.get(n.id)
        key = ("c", c.cid) if c is not None else ("n", n.id)
        if key not in unit_key:
            unit_key[key] = len(units)
            units.append((i, key))
        unit_key[n.id] = unit_key[key]
    # dependency edges between units, plus a chain through effectful nodes
    deps = [set() for _ in units]
    last_effect = None
    for n in graph.nodes:
        u = unit_key[n.id]
        for r in n.inputs:
            if unit_key[r.node] != u:
                deps[u].add(unit_key[r.node])
        if has_effects(n):
            if last_effect is not None:
                deps[u].add(last_effect)
            last_effect = u
    users = [[] for _ in units]
    for u, ds in enumerate(deps):
        for d in ds:
            users[d].append(u)
    waiting = [len(ds) for ds in deps]
    ready = [(units[u][0], u) for u in range(len(units)) if waiting[u] == 0]
    heapq.heapify(ready)
    order = []
    while ready:
        _, u = heapq.heappop(ready)
        order.append(u)
        for v in users[u]:
            waiting[v] -= 1
            if waiting[v] == 0:
                heapq.heappush(ready, (units[v][0], v))
    assert len(order) == len(units), "fusion produced a cycle"

    subst = {}
    for c in clusters:
        subst.update(fused[c.cid][1])
    nodes = []
    for u in order:
        kind, ident = units[u][1]
        if kind == "c":
            node = fused[ident][0]
        else:
            node = graph.node(ident)
        inputs = tuple(subst.get(r, r) for r in node.inputs)
        if inputs != node.inputs:
            node = node.moved(inputs=inputs)
        nodes.append(node)
    outputs = tuple(subst.get(r, r) for r in graph.outputs)
    return Graph(tuple(nodes), graph.inputs, outputs, graph.name)


def _fused_node(graph, c, used_outside, fresh):
    members = set(c.members)
    externals = []
    inline = []
    for m in c.members:
        for r in graph.node(m).inputs:
            if r.node in members or r in externals or r.node in inline:
                continue
            if _is_inline_const(graph, r):
                inline.append(r.node)
            else:
                externals.append(r)
    body_nodes = [graph.node(i) for i in inline]
    body_inputs = []
    remap = {}
    for i, r in enumerate(externals):
        nid = fresh()
        body_nodes.append(Node(nid, "input", (), freeze_attrs({"index": i}), (graph.aval(r),)))
        body_inputs.append(Ref(nid, 0))
        remap[r] = Ref(nid, 0)
    # inputs first, then members in order (inline constants keep their ids)
    body_nodes = body_nodes[len(inline):] + body_nodes[:len(inline)]
    for m in c.members:
        n = graph.node(m)
        body_nodes.append(n.moved(inputs=[remap.get(r, r) for r in n.inputs]))
    outs = [Ref(m, 0) for m in c.members if Ref(m, 0) in used_outside]
    body = Graph(tuple(body_nodes), tuple(body_inputs), tuple(outs), f"fused_{c.cid}")
    levels = tuple(c.level[m] for m in c.members)
    node = Node(fresh(), "fused", tuple(externals),
                freeze_attrs({"body": body, "space": c.space, "split": c.split,
                              "levels": tuple(zip(c.members, levels))}),
                tuple(graph.aval(r) for r in outs),
                next((graph.node(m).loc for m in c.members if graph.node(m).loc), ""))
    return node, {r: Ref(node.id, i) for i, r in enumerate(outs)}
