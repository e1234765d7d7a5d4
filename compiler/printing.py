"""Readable text and Graphviz source for graphs."""


def _ref_text(r):
    return f"%{r.node}" if r.index == 0 else f"%{r.node}.{r.index}"


def graph_text(graph, indent=""):
    lines = [f"{indent}graph {graph.name}({', '.join(_ref_text(r) for r in graph.inputs)}) {{"]
    for n in graph.nodes:
        outs = ", ".join(f"%{n.id}{'' if i == 0 else '.' + str(i)}: {a}" for i, a in enumerate(n.avals))
        attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in n.attrs if k not in ("then", "else", "cond", "body"))
        args = ", ".join(_ref_text(r) for r in n.inputs)
        lhs = f"{outs} = " if outs else ""
        lines.append(f"{indent}  {lhs}{n.op}({args}{'; ' + attrs if attrs else ''})")
        for k, v in n.attrs:
            if hasattr(v, "nodes") and hasattr(v, "outputs"):
                lines.append(f"{indent}    {k}:")
                lines.append(graph_text(v, indent + "    "))
    lines.append(f"{indent}  return {', '.join(_ref_text(r) for r in graph.outputs)}")
    lines.append(f"{indent}}}")
    return "\n".join(lines)


def _attr_text(v):
    if hasattr(v, "obj"):
        obj = v.obj
        if hasattr(obj, "_value") and hasattr(obj._value, "shape") and getattr(obj._value, "size", 99) <= 4:
            return str(obj._value.tolist())
        return repr(v)
    if hasattr(v, "name") and hasattr(v, "np"):
        return v.name
    return repr(v)


def graph_dot(graph):
    lines = [f'digraph "{graph.name}" {{', "  node [shape=box, fontname=monospace];"]
    for n in graph.nodes:
        label = f"%{n.id} {n.op}\\n" + ", ".join(repr(a) for a in n.avals)
        lines.append(f'  n{n.id} [label="{label}"];')
        for r in n.inputs:
            lines.append(f"  n{r.node} -> n{n.id};")
    for i, r in enumerate(graph.outputs):
        lines.append(f'  out{i} [label="output {i}", shape=oval];')
        lines.append(f"  n{r.node} -> out{i};")
    lines.append("}")
    return "\n".join(lines)
