"""Model.summary()'s text as Keras 3 prints it: a box-drawn table (Keras renders it with
rich, no colours when captured) then the parameter counts, one string.

Trap: Keras asks for columns of int(position * line_length) characters *plus* one space
of padding each side, more than the line holds; rich then takes the excess back evenly,
column by column (round() of the share left, Python's banker's rounding included). The
default line length is min(88, terminal columns - 4): 76 when no terminal is attached;
table lines wider than the terminal are cut at its width, as rich's console does."""
import shutil
import textwrap

POSITIONS = (0.45, 0.80, 1.0)
HEADER = ("Layer (type)", "Output Shape", "Param #")
# A functional model that is not a chain of one-input layers adds "Connected to".
GRAPH_POSITIONS = (0.3, 0.56, 0.74, 1.0)
GRAPH_HEADER = HEADER + ("Connected to",)
ALIGN = ("left", "left", "right", "left")  # show_trainable adds a centred "Trainable" column


def connections(nodes):
    """{id(layer): "inbound[node][tensor], ..."} for a functional model's nodes, or None when
    the model is sequential-like (Keras: each layer called once, on one tensor, and no
    tensor feeding two calls)."""
    nodes = list(nodes)
    seen_layers, consumed, branching = set(), set(), False
    for node in nodes:
        ins = node.input_tensors
        if len(ins) > 1 or id(node.layer) in seen_layers or any(id(t) in consumed for t in ins):
            branching = True
        seen_layers.add(id(node.layer))
        consumed.update(id(t) for t in ins)
    if sum(1 for n in nodes if not n.input_tensors) > 1:  # several inputs
        branching = True
    if not branching:
        return None
    out = {}
    for node in nodes:
        parts = [f"{t.node.layer.name}[{t.node.layer._inbound_nodes.index(t.node)}][{t.index}]"
                 for t in node.input_tensors if t.node is not None]
        if parts:
            joined = ", ".join(parts)
            out[id(node.layer)] = out[id(node.layer)] + ", " + joined if id(node.layer) in out else joined
    return out


def _reduce_evenly(excess, widths):
    out, left, shares = [], excess, len(widths)
    for w in widths:
        take = min(w, round(left / shares))
        out.append(w - take)
        left -= take
        shares -= 1
    return out


def column_widths(line_length, positions=POSITIONS):
    """The width of each column, its padding included."""
    widths, current = [], 0
    for pos in positions:
        w = int(pos * line_length) - current
        if w < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(w + 2)
        current += w
    room = line_length - (len(widths) + 1)  # the vertical rules
    return _reduce_evenly(sum(widths) - room, widths) if sum(widths) > room else widths


def _cells(row, widths, align):
    """The lines of one table row: each cell wrapped at words to its column."""
    def wrap(text, width):  # rich: a word wider than its cell is cut with an ellipsis
        return [ln if len(ln) <= width else ln[:width - 1] + "…"
                for ln in textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)] or [""]
    wrapped = [wrap(text, w - 2) for text, w in zip(row, widths)]
    lines = []
    for i in range(max(len(c) for c in wrapped)):
        parts = []
        for cell, w, how in zip(wrapped, widths, align):
            text = cell[i] if i < len(cell) else ""
            left = (w - 2 - len(text)) // 2 if how == "center" else 0  # rich: the odd space goes right
            text = text.rjust(w - 2) if how == "right" else (" " * left + text).ljust(w - 2)
            parts.append(" " + text + " ")
        lines.append(parts)
    return lines


def render(name, rows, counts, line_length=None, positions=None, graph=False, show_trainable=False):
    """`rows`: (layer (type), output shape, param count[, connected to][, trainable]) strings;
    `counts`: (label, count, size) lines printed after the table.  `positions`: the columns'
    right edges as fractions of the line (Keras 3's)."""
    columns = shutil.get_terminal_size().columns  # rich's console width: it crops wider table lines
    header, align = (GRAPH_HEADER, ALIGN) if graph else (HEADER, ALIGN[:3])
    positions = list(positions or (GRAPH_POSITIONS if graph else POSITIONS))
    default = 108 if graph else 88
    if show_trainable:  # Keras 3: 12 more characters, the other columns shrunk to 90%
        default += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header, align = header + ("Trainable",), align + ("center",)
    if line_length is None:
        line_length = min(default, columns - 4)
    widths = column_widths(line_length, positions)

    def rule(left, mid, right, fill):
        return left + mid.join(fill * w for w in widths) + right

    out = [f'Model: "{name}"', rule("┏", "┳", "┓", "━")]
    out += ["┃" + "┃".join(parts) + "┃" for parts in _cells(header, widths, align)]
    out.append(rule("┡", "╇", "┩", "━"))
    for i, row in enumerate(rows):
        if i:
            out.append(rule("├", "┼", "┤", "─"))
        out += ["│" + "│".join(parts) + "│" for parts in _cells(row, widths, align)]
    out.append(rule("└", "┴", "┘", "─"))
    out = out[:1] + [line[:columns] for line in out[1:]]
    out += [f" {label}: {count:,} ({size})" for label, count, size in counts]
    return "\n".join(out) + "\n"
