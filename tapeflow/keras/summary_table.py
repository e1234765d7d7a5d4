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
RIGHT = (False, False, True)


def _reduce_evenly(excess, widths):
    out, left, shares = [], excess, len(widths)
    for w in widths:
        take = min(w, round(left / shares))
        out.append(w - take)
        left -= take
        shares -= 1
    return out


def column_widths(line_length):
    """The width of each column, its padding included."""
    widths, current = [], 0
    for pos in POSITIONS:
        w = int(pos * line_length) - current
        if w < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(w + 2)
        current += w
    room = line_length - (len(widths) + 1)  # the vertical rules
    return _reduce_evenly(sum(widths) - room, widths) if sum(widths) > room else widths


def _cells(row, widths):
    """The lines of one table row: each cell wrapped at words to its column."""
    def wrap(text, width):  # rich: a word wider than its cell is cut with an ellipsis
        return [ln if len(ln) <= width else ln[:width - 1] + "…"
                for ln in textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)] or [""]
    wrapped = [wrap(text, w - 2) for text, w in zip(row, widths)]
    lines = []
    for i in range(max(len(c) for c in wrapped)):
        parts = []
        for cell, w, right in zip(wrapped, widths, RIGHT):
            text = cell[i] if i < len(cell) else ""
            parts.append(" " + (text.rjust(w - 2) if right else text.ljust(w - 2)) + " ")
        lines.append(parts)
    return lines


def render(name, rows, counts, line_length=None):
    """`rows`: (layer (type), output shape, param count) strings; `counts`: (label, count,
    size) lines printed after the table."""
    columns = shutil.get_terminal_size().columns  # rich's console width: it crops wider table lines
    if line_length is None:
        line_length = min(88, columns - 4)
    widths = column_widths(line_length)

    def rule(left, mid, right, fill):
        return left + mid.join(fill * w for w in widths) + right

    out = [f'Model: "{name}"', rule("┏", "┳", "┓", "━")]
    out += ["┃" + "┃".join(parts) + "┃" for parts in _cells(HEADER, widths)]
    out.append(rule("┡", "╇", "┩", "━"))
    for i, row in enumerate(rows):
        if i:
            out.append(rule("├", "┼", "┤", "─"))
        out += ["│" + "│".join(parts) + "│" for parts in _cells(row, widths)]
    out.append(rule("└", "┴", "┘", "─"))
    out = out[:1] + [line[:columns] for line in out[1:]]
    out += [f" {label}: {count:,} ({size})" for label, count, size in counts]
    return "\n".join(out) + "\n"
