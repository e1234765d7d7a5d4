"""Readable text and Graphviz source for graphs.

Text form, one node a line:
    %3: float32[2, 3] = mul(%1, %2)
Nested graphs (cond branches, while cond/body) are printed indented under
their node.
"""


def _is_graph(v):
    return hasattr(v, "nodes") and hasattr(v, "outputs")


def _ref_text(r):
    return f"%{r.node}" if r.index == 0 else f"%{r.node}.{r.index}"


def _input_text(graph, r):
    node = graph.node(r.node)
    return f"{_ref_text(r)}: {node.avals[r.index]}"


def graph_text(graph, indent=""):
    ins = ", ".join(_input_text(graph, r) for r in graph.inputs)
    lines = [f"{indent}graph {graph.name}({ins}) {{"]
    for n in graph.nodes:
        if n.op == "input":
            continue
        outs = ", ".join(f"%{n.id}{'' if i == 0 else '.' + str(i)}: {a}" for i, a in enumerate(n.avals))
        attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in n.attrs if not _is_graph(v))
        args = ", ".join(_ref_text(r) for r in n.inputs)
        lhs = f"{outs} = " if outs else ""
        lines.append(f"{indent}  {lhs}{n.op}({args}{'; ' + attrs if attrs else ''})")
        for k, v in n.attrs:
            if _is_graph(v):
                lines.append(f"{indent}    {k}:")
                lines.append(graph_text(v, indent + "    "))
    lines.append(f"{indent}  return {', '.join(_ref_text(r) for r in graph.outputs)}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _attr_text(v):
    if hasattr(v, "obj"):  # a Holder
        obj = v.obj
        name = getattr(obj, "name", None)
        if isinstance(name, str) and hasattr(obj, "read_value"):
            return f"<Variable {name}>"
        if hasattr(obj, "_value") and hasattr(obj._value, "shape") and getattr(obj._value, "size", 99) <= 4:
            return str(obj._value.tolist())
        return repr(v)
    if hasattr(v, "name") and hasattr(v, "np"):
        return v.name
    return repr(v)


def graph_dot(graph):
    """Graphviz source; nested graphs become clusters under their node."""
    lines = [f'digraph "{graph.name}" {{', "  node [shape=box, fontname=monospace];"]
    _dot_body(graph, "", lines)
    lines.append("}")
    return "\n".join(lines)


def _dot_body(graph, prefix, lines):
    for n in graph.nodes:
        label = f"%{n.id} {n.op}\\n" + ", ".join(repr(a) for a in n.avals)
        lines.append(f'  {prefix}n{n.id} [label="{label}"];')
        for r in n.inputs:
            lines.append(f"  {prefix}n{r.node} -> {prefix}n{n.id};")
        for k, v in n.attrs:
            if _is_graph(v):
                sub = f"{prefix}n{n.id}_{k}_"
                lines.append(f'  subgraph "cluster_{sub}" {{ label="{k}";')
                _dot_body(v, sub, lines)
                lines.append("  }")
    for i, r in enumerate(graph.outputs):
        lines.append(f'  {prefix}out{i} [label="output {i}", shape=oval];')
        lines.append(f"  {prefix}n{r.node} -> {prefix}out{i};")


class NodeDef:
    """One node as tf.Graph.as_graph_def() lists it: name, op, input names."""

    __slots__ = ("name", "op", "input", "device")

    def __init__(self, name, op, inputs):
        self.name, self.op, self.input, self.device = name, op, list(inputs), ""

    def __str__(self):
        lines = [f'name: "{self.name}"', f'op: "{self.op}"'] + [f'input: "{i}"' for i in self.input]
        return "\n".join(lines) + "\n"


class GraphDef:
    """The nodes of a graph (top level; a cond's branches and a loop's body stay
    inside their node), printed in protobuf text form as TensorFlow prints one."""

    def __init__(self, nodes):
        self.node = nodes

    def __str__(self):
        body = "".join("node {\n" + "".join(f"  {line}\n" for line in str(n).splitlines()) + "}\n"
                       for n in self.node)
        return body + "versions {\n  producer: 1\n}\n"


def graph_def(graph):
    def name(ref):
        base = graph.node(ref.node).name
        return base if ref.index == 0 else f"{base}:{ref.index}"
    return GraphDef([NodeDef(n.name, n.op, [name(r) for r in n.inputs]) for n in graph.nodes])
