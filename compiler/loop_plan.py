"""Where the values of a whole-loop C body live (compiler/loopgen_c.py), decided
before any C is written, as plans over one graph:

- fused matmuls: add(acc, matmul(a, b)) runs the matmul kernel with acc as its
  initial value;
- inlined elementwise producers: an elementwise node whose only use is an
  elementwise node of the same shape is computed inside its consumer's element
  loop, as a scalar (no array, no pass over memory);
- direct outputs: a loop var's new value written by its node straight into the
  var's state array.

A plan moves where values are read: a fused matmul reads its operands where its
add runs, an inlined producer where its consumer runs.  `read_positions` gives
those positions, which direct outputs must respect.
"""
from . import c_templates as T
from .c_math import CPU_FUNCS
from .ir import Ref
from .passes.graph_edit import use_counts

MAX_INLINE_DEPTH = 64

# ops whose C is not the template path (element i of each operand -> element i)
NOT_ELEMENTWISE = frozenset(T.REDUCTIONS) | {"matmul", "cond", "const", "getitem", "gather", "tensor_array_read",
                                             "getitem_grad", "broadcast_like", "reshape_like", "sum_like",
                                             "reshape", "expand_squeeze", "while_stack_push", "input"}


def fused_matmuls(graph):
    """add(acc, matmul(a, b)) whose matmul has no other use: the add calls the
    matmul kernel with acc as its initial value.  Returns (ids of the fused
    matmuls, {add id: (matmul node, Ref of acc)})."""
    uses = use_counts(graph)
    by_id = {n.id: n for n in graph.nodes}
    fused, adds = set(), {}
    for node in graph.nodes:
        if node.op != "add":
            continue
        for k in (1, 0):
            mm = by_id.get(node.inputs[k].node)
            acc = node.inputs[1 - k]
            if mm is None or mm.op != "matmul" or mm.id in fused or uses.get(node.inputs[k]) != 1:
                continue
            if graph.aval(acc) != node.avals[0] or mm.avals[0] != node.avals[0]:
                continue  # no broadcasting in the fused form
            fused.add(mm.id)
            adds[node.id] = (mm, acc)
            break
    return fused, adds


def direct_outputs(body, n_vars, stack_vars):
    """{loop var j: id of the body node that writes its new value into s{j}}.  Trap: s{j}
    holds the old value until then, so no node may read it later, nor the node itself
    but element by element (same shape) or as the accumulator of a fused matmul (its
    kernel reads each tile of c before writing it); a fused matmul reads its operands
    where its add runs, and no output may be the old value (a var passed on or swapped)."""
    fused, adds = fused_matmuls(body)
    position, last_read = read_positions(body, adds, inline_plan(body, adds))
    outs = list(body.outputs[:n_vars])
    found = {}
    for j in range(n_vars):
        r, var = outs[j], body.inputs[j]
        node = body.node(r.node)
        if j in stack_vars or var in outs or outs.count(r) != 1 or node.op in ("input", "const", "cond"):
            continue
        if node.avals != (body.aval(var),) or node.id in fused or last_read.get(var, -1) > position[node.id]:
            continue
        if node.id in adds:
            mm, acc = adds[node.id]
            reads_ok = var not in mm.inputs and (acc == var or var not in node.inputs)
        else:
            reads_ok = var not in node.inputs or (
                node.op not in NOT_ELEMENTWISE and body.aval(var).shape == node.avals[0].shape)
        if reads_ok:
            found[j] = node.id
    return found


def elementwise(graph, node, adds=()):
    """Whether the node's C is the template path (and no err, so it may move)."""
    if node.op in NOT_ELEMENTWISE or node.id in adds or len(node.avals) != 1 or T.uses_err(node.op):
        return False
    in_dtypes = [graph.aval(r).dtype for r in node.inputs]
    if node.op == "select":
        in_dtypes = in_dtypes[1:]
    return bool(in_dtypes) and T.template(node.op, in_dtypes, node.avals[0].dtype, node.attr,
                                          funcs=CPU_FUNCS) is not None


def inline_plan(graph, adds):
    """{id of an inlined producer: id of its consumer} (module doc); a consumer may
    itself be inlined into the next one, MAX_INLINE_DEPTH deep at most (the C is
    written recursively: a chain of thousands of ops exceeded Python's recursion
    limit)."""
    uses = use_counts(graph)
    outputs = set(graph.outputs)
    readers = {}
    for node in graph.nodes:
        for r in node.inputs:
            readers[r] = node
    plan, depth = {}, {}  # depth: producers inlined in a chain into the node
    for node in graph.nodes:
        out = Ref(node.id, 0)
        consumer = readers.get(out)
        if consumer is None or uses.get(out) != 1 or out in outputs or not elementwise(graph, node, adds):
            continue
        d = depth.get(node.id, 0) + 1
        if d <= MAX_INLINE_DEPTH and elementwise(graph, consumer, adds) and \
                consumer.avals[0].shape == node.avals[0].shape:
            plan[node.id] = consumer.id
            depth[consumer.id] = max(depth.get(consumer.id, 0), d)
    return plan


def read_positions(graph, adds, inlined):
    """(position of each node, {Ref: the last position where it is read}), reads
    placed where they really run (module doc)."""
    position = {n.id: k for k, n in enumerate(graph.nodes)}
    runs_at = {mm.id: add_id for add_id, (mm, _) in adds.items()}
    runs_at.update(inlined)
    last_read = {}
    for node in graph.nodes:
        at = node.id
        while at in runs_at:
            at = runs_at[at]
        for r in node.inputs:
            last_read[r] = max(last_read.get(r, -1), position[at])
    return position, last_read
