"""Elementwise fusion: maximal clusters of elementwise ops (with broadcasting and
casts), optionally containing reductions over trailing axes, become one "fused"
node each.  Softmax, layer norm and GELU each become a single kernel.

A cluster has an iteration space S (a shape) split at axis k into rows S[:k]
and columns S[k:].  Its values are either
  "elem": shape S, one value per element, or
  "row":  shape S[:k] + (1,)*(rank-k) or S[:k], one value per row
          (a reduction over S[k:] and elementwise ops on such values).
An elem op may read row values (they broadcast per row); a row op never reads
elem values except through a reduction.  Inputs from outside the cluster are
read by index arithmetic: full, per row, per column, scalar, or general
(static shapes only).

The fused node: op "fused", inputs = the values the cluster reads, outputs = the
member values used outside, attrs body (a Graph over the members, the executor's
NumPy fallback runs it with the reference interpreter), space, split.

Legality: a node joins a cluster only if none of its other inputs depends on the
cluster (else the cluster would feed itself); effectful nodes are never fused and
keep their order (they are chained in the final topological sort).
"""
from .. import c_templates
from ..op_groups import PASS_THROUGH, ROW_RESHAPES, VALUE_NODES
from . import fusion_rebuild
from .graph_edit import has_effects

NAME = "fusion"
# A cluster stops growing at this many members: the C compiler's time grows faster
# than linearly with the size of one loop body (a 20,000-op chain did not compile in
# 300 s), while a kernel boundary every few hundred ops costs one extra pass over
# memory.  Chains longer than this become consecutive kernels.
MAX_CLUSTER_MEMBERS = 400


def run(graph):
    clusters, cluster_of = _form_clusters(graph)
    if not clusters:
        return graph
    return fusion_rebuild.rebuild(graph, clusters, cluster_of)


# ---------------------------------------------------------------- shapes
def _pad(shape, rank):
    return (1,) * (rank - len(shape)) + tuple(shape)


def _ones(dims):
    return all(d == 1 for d in dims)


def classify(shape, space, k):
    """How an input of `shape` is read in the iteration `space` split at k:
    "scalar", "full", "row", "col", "general", or None if it cannot be."""
    rank = len(space)
    if len(shape) > rank:
        return None
    p = _pad(shape, rank)
    if _ones(p):
        return "scalar"
    if p == tuple(space):
        return "full"
    if p[:k] == tuple(space[:k]) and _ones(p[k:]):
        return "row"
    if _ones(p[:k]) and p[k:] == tuple(space[k:]):
        return "col"
    if None not in space and None not in p and all(a in (1, b) for a, b in zip(p, space)):
        return "general"
    return None


def is_row_shape(shape, space, k):
    rank = len(space)
    return (len(shape) <= rank and _pad(shape, rank) == tuple(space[:k]) + (1,) * (rank - k)) or \
        tuple(shape) == tuple(space[:k])


# ---------------------------------------------------------------- clusters
class _Cluster:
    def __init__(self, cid, space, split, splits, first_pos):
        self.cid = cid
        self.space = tuple(space)
        self.split = split
        self.splits = splits  # valid splits while `split` is undecided (pure elementwise)
        self.members = []
        self.level = {}  # node id -> "elem" | "row"
        self.first_pos = first_pos
        self.last_pos = first_pos  # members span graph positions first_pos..last_pos
        self.has_reduce = False


def _aval(graph, ref):
    return graph.node(ref.node).avals[ref.index]


def _elementwise_ok(graph, node):
    if len(node.avals) != 1 or has_effects(node) or node.op in ROW_RESHAPES:
        return False
    in_dtypes = [_aval(graph, r).dtype for r in node.inputs]
    if node.op == "select":
        in_dtypes = in_dtypes[1:]
    if not in_dtypes:
        return False
    return c_templates.template(node.op, in_dtypes, node.avals[0].dtype, node.attr) is not None


def _reduce_split(graph, node):
    """k when `node` is a fusable reduction over the trailing axes S[k:], else None."""
    op = node.op
    if op not in c_templates.REDUCTIONS:
        return None
    src = _aval(graph, node.inputs[0])
    dtype = src.dtype
    if c_templates.ctype(dtype) is None:
        return None
    if (op in ("reduce_any", "reduce_all")) != dtype.is_bool:
        return None
    axes = tuple(node.attr["axis"])
    rank = len(src.shape)
    if not axes or axes != tuple(range(axes[0], rank)):
        return None
    return axes[0]


def _form_clusters(graph):
    pos = {n.id: i for i, n in enumerate(graph.nodes)}
    clusters = []
    cluster_of = {}
    effect_prev = {}  # effectful node id -> the effectful node before it
    last_effect = None
    for node in graph.nodes:
        if has_effects(node):
            effect_prev[node.id] = last_effect
            last_effect = node.id
            continue
        split = _reduce_split(graph, node)
        elementwise = split is None and _elementwise_ok(graph, node)
        row_reshape = node.op in ROW_RESHAPES
        if split is None and not elementwise and not row_reshape:
            continue
        joined = False
        seen = []
        for r in node.inputs:
            c = cluster_of.get(r.node)
            if c is None or c in seen:
                continue
            seen.append(c)
            if not c.members or len(c.members) >= MAX_CLUSTER_MEMBERS:
                continue
            level, new_split, new_splits = _join_level(graph, node, c, cluster_of, split, elementwise)
            if level is None:
                continue
            if any(cluster_of.get(o.node) is not c and _depends_on(graph, o.node, c, cluster_of, pos, effect_prev, clusters)
                   for o in node.inputs):
                continue
            c.split, c.splits = new_split, new_splits
            c.members.append(node.id)
            c.last_pos = pos[node.id]
            c.level[node.id] = level
            c.has_reduce = c.has_reduce or split is not None
            cluster_of[node.id] = c
            joined = True
            # the node may tie c to other clusters it reads: merge them into c
            for r in node.inputs:
                other = cluster_of.get(r.node)
                if other is not None and other is not c:
                    _try_merge(graph, c, other, cluster_of, pos, effect_prev, clusters)
            break
        if joined or row_reshape:
            continue
        c = _new_cluster(graph, node, split, len(clusters), pos[node.id])
        if c is not None:
            clusters.append(c)
            cluster_of[node.id] = c
    kept = []
    for c in clusters:
        if c.members and _worth_a_kernel(graph, c):
            kept.append(c)
        else:
            for m in c.members:
                cluster_of.pop(m, None)
    for c in kept:
        if c.split is None:
            c.split = _best_split(graph, c, cluster_of)
    return kept, cluster_of


def _try_merge(graph, c, other, cluster_of, pos, effect_prev, clusters):
    """Move every member of `other` into `c` when both iterate the same space with
    a common split and neither reaches the other through a node outside both."""
    if other.space != c.space or len(c.members) + len(other.members) > MAX_CLUSTER_MEMBERS:
        return False
    if c.split is not None and other.split is not None:
        if c.split != other.split:
            return False
        split, splits = c.split, None
    elif c.split is not None:
        if c.split not in other.splits:
            return False
        split, splits = c.split, None
    elif other.split is not None:
        if other.split not in c.splits:
            return False
        split, splits = other.split, None
    else:
        splits = c.splits & other.splits
        if not splits:
            return False
        split = None
    S = c.space
    rank = len(S)
    both = set(c.members) | set(other.members)
    for a, b in ((c, other), (other, c)):
        for m in a.members:
            for r in graph.node(m).inputs:
                if r.node in both:
                    if cluster_of.get(r.node) is b and b.level[r.node] == "row" and a.level[m] == "elem":
                        k = split
                        if k is None or _pad(_aval(graph, r).shape, rank) != S[:k] + (1,) * (rank - k):
                            return False
                    if cluster_of.get(r.node) is b and b.level[r.node] == "elem" and a.level[m] == "row" \
                            and graph.node(m).op not in c_templates.REDUCTIONS:
                        return False
                    continue
                if _depends_on(graph, r.node, b, cluster_of, pos, effect_prev, clusters):
                    return False
    c.split, c.splits = split, splits
    for m in other.members:
        cluster_of[m] = c
        c.level[m] = other.level[m]
    c.members = sorted(c.members + other.members, key=lambda m: pos[m])
    c.first_pos = min(c.first_pos, other.first_pos)
    c.last_pos = max(c.last_pos, other.last_pos)
    c.has_reduce = c.has_reduce or other.has_reduce
    other.members = []
    return True


def _new_cluster(graph, node, split, cid, position):
    if split is not None:
        space = _aval(graph, node.inputs[0]).shape
        c = _Cluster(cid, space, split, None, position)
        c.has_reduce = True
        level = "row"
    else:
        space = node.avals[0].shape
        splits = {k for k in range(len(space) + 1)
                  if all(classify(_aval(graph, r).shape, space, k) for r in node.inputs)}
        if not splits:
            return None
        c = _Cluster(cid, space, None, splits, position)
        level = "elem"
    c.members.append(node.id)
    c.level[node.id] = level
    return c


def _join_level(graph, node, c, cluster_of, split, elementwise):
    """(level, split, splits) if `node` may join cluster `c`, else (None, ..)."""
    S, k, splits = c.space, c.split, c.splits
    rank = len(S)
    fail = (None, None, None)
    if split is not None:  # a reduction over S[split:]
        src = node.inputs[0]
        if _aval(graph, src).shape != S:
            return fail
        if k is None:
            if split not in splits:
                return fail
            k, splits = split, None
        elif k != split:
            return fail
        if cluster_of.get(src.node) is c and c.level[src.node] != "elem":
            return fail
        return "row", k, splits
    out = node.avals[0].shape
    if elementwise and out == S:
        for r in node.inputs:
            shape = _aval(graph, r).shape
            if cluster_of.get(r.node) is c:
                if c.level[r.node] == "row" and (k is None or _pad(shape, rank) != S[:k] + (1,) * (rank - k)):
                    return fail
                continue
            if k is not None:
                if classify(shape, S, k) is None:
                    return fail
            else:
                splits = {s for s in splits if classify(shape, S, s)}
                if not splits:
                    return fail
        return "elem", k, splits
    if k is None or not is_row_shape(out, S, k):
        return fail
    for r in node.inputs:
        shape = _aval(graph, r).shape
        inside = cluster_of.get(r.node) is c
        if inside and c.level[r.node] != "row":
            return fail
        if node.op in ROW_RESHAPES:
            if not inside or not is_row_shape(shape, S, k):
                return fail
            continue
        if not (shape == out or _ones(shape)):
            return fail
    return "row", k, splits


def _depends_on(graph, node_id, c, cluster_of, pos, effect_prev, clusters):
    """Does the value of `node_id` (not in c) depend on a member of cluster c?

    Trap: a cluster runs as one unit, so reaching any member of another cluster D
    means depending on all of D, including members placed after c's first member.
    Pruning by graph position (anything before c's first member cannot depend on
    c) is therefore sound only while no cluster straddles that position: a softmax
    cluster that had absorbed a later `equal` of the labels made an `argmax` of
    it look independent of the labels' cluster, and fusion built a cycle."""
    start = c.first_pos
    straddling = any(d is not c and d.members and d.first_pos < start <= d.last_pos for d in clusters)
    stack = [node_id]
    seen = set()
    while stack:
        nid = stack.pop()
        if nid in seen:
            continue
        seen.add(nid)
        owner = cluster_of.get(nid)
        if owner is c:
            return True
        if owner is not None:
            for m in owner.members:
                seen.add(m)
                stack.extend(r.node for r in graph.node(m).inputs)
            continue
        if pos[nid] < start and not straddling:
            continue
        stack.extend(r.node for r in graph.node(nid).inputs)
        prev = effect_prev.get(nid)
        if prev is not None:
            stack.append(prev)
    return False


def _worth_a_kernel(graph, c):
    ops = [graph.node(m).op for m in c.members]
    if all(op in PASS_THROUGH or op in ROW_RESHAPES for op in ops):
        return False  # a lone view (broadcast, reshape) costs nothing in NumPy
    if None in c.space:
        # The executor reads unknown dims off an input read in full.
        k = c.split if c.split is not None else min(c.splits)
        ext = _external_inputs(graph, c, None)
        return any(classify(_aval(graph, r).shape, c.space, k) == "full" for r in ext)
    return True


def _best_split(graph, c, cluster_of):
    ext = _external_inputs(graph, c, cluster_of)
    best = None
    for k in sorted(c.splits):
        modes = [classify(_aval(graph, r).shape, c.space, k) for r in ext]
        if "general" not in modes:
            return k
        best = k if best is None else best
    return best


def _external_inputs(graph, c, cluster_of):
    members = set(c.members)
    out = []
    for m in c.members:
        for r in graph.node(m).inputs:
            if r.node not in members and r not in out:
                out.append(r)
    return out


# ---------------------------------------------------------------- explanations
def explain_unfused(graph):
    """{node id: why it stays out of every kernel} for the op nodes of `graph`
    (the graph as fusion receives it) that `run` leaves unfused.  Node ids are
    kept by `run`, so the answer applies to its output too.  Profilers use it."""
    _, cluster_of = _form_clusters(graph)
    reasons = {}
    for node in graph.nodes:
        if node.id in cluster_of or node.op in VALUE_NODES:
            continue
        reasons[node.id] = _unfused_reason(graph, node)
    return reasons


def _unfused_reason(graph, node):
    op = node.op
    in_dtypes = [_aval(graph, r).dtype.name for r in node.inputs]
    if node.subgraphs():
        return "control flow: its bodies are compiled as separate graphs"
    if has_effects(node):
        return "stateful (variable access or side effect): kept in program order"
    if op in c_templates.REDUCTIONS:
        if _reduce_split(graph, node) is None:
            axes = tuple(node.attr["axis"])
            rank = len(_aval(graph, node.inputs[0]).shape)
            if axes and axes == tuple(range(axes[0], rank)):
                return f"reduction over dtype {getattr(in_dtypes[0], 'name', in_dtypes[0])}: no C kernel for it"
            return f"reduction over axes {axes} of a rank-{rank} value: kernels reduce trailing axes only"
        return "reduction whose space no neighbouring elementwise cluster shares; alone it runs in NumPy"
    if op in ROW_RESHAPES or op in PASS_THROUGH:
        return "a view (reshape/broadcast): free in NumPy, a kernel of its own would only copy"
    if len(node.avals) != 1:
        return "has several results: no kernel template"
    if not _elementwise_ok(graph, node):
        if not c_templates.has_kernel(op):
            return c_templates.NO_KERNEL.get(op, "not elementwise: no kernel template (runs as one NumPy call)")
        return f"no C template for dtypes {in_dtypes} -> {node.avals[0].dtype.name}"
    if None in node.avals[0].shape:
        return "unknown dims and no input read in full, so a kernel could not size its loop"
    return "operand shapes do not share one iteration space (a general broadcast)"
