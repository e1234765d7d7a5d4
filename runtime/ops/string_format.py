"""Text of a tensor as tf.strings.format / tf.print write it (TensorFlow's
SummarizeValue with print_v2): nested brackets, `summarize` items at each end
of every dimension with "..." between, strings quoted and C-escaped, floats in
the shortest of FLT_DIG/DBL_DIG or +3 significant digits that reads back."""
import numpy as np

_ESCAPES = {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord('"'): '\\"', ord("'"): "\\'",
            ord("\\"): "\\\\"}


def check_template(template, placeholder, n):
    count = template.count(placeholder)
    if count != n:
        raise ValueError(f"The template expects {count} tensors, but the inputs only has {n}. Please ensure "
                         f"the number of placeholders in template matches inputs length.")


def _escape(b):
    out = bytearray(b'"')
    for c in b:
        if c in _ESCAPES:
            out += _ESCAPES[c].encode()
        elif c < 0x20 or c == 0x7F:
            out += b"\\%03o" % c
        else:
            out.append(c)  # bytes >= 0x80 (UTF-8 text) pass through unchanged
    out += b'"'
    return bytes(out)


def _float_text(v, digits):
    for d in digits:
        text = "%.*g" % (d, v)
        if float(np.asarray(float(text), v.dtype)) == float(v) or v != v:
            return text
    return text


def element_text(v):
    if isinstance(v, bytes):
        return _escape(v)
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, np.floating):
        if v != v:
            return "nan"
        if np.isinf(v):
            return "inf" if v > 0 else "-inf"
        return _float_text(v, (6, 9) if v.dtype.itemsize <= 4 else (15, 17))
    return str(int(v))


def _text(v):
    t = element_text(v)
    return t if isinstance(t, bytes) else t.encode()


def _spacing(dim, ndim):
    if dim == ndim - 1:
        return b" "
    return b"\n" * (ndim - dim - 1) + b" " * (dim + 1)


def _dim_text(a, dim, ends, index, out):
    if dim == a.ndim:
        out.append(_text(a[index]))
        return
    out.append(b"[")
    n = a.shape[dim]
    start_of_end = max(ends, n - ends)
    for i in range(min(ends, n)):
        if i > 0:
            out.append(_spacing(dim, a.ndim))
        _dim_text(a, dim + 1, ends, index + (i,), out)
    if n > 2 * ends:
        out.append(_spacing(dim, a.ndim))
        out.append(b"...")
    for i in range(start_of_end, n):
        out.append(_spacing(dim, a.ndim))
        _dim_text(a, dim + 1, ends, index + (i,), out)
    out.append(b"]")


def summarize_array(a, summarize):
    """The text of array `a`, as bytes."""
    ends = a.size if summarize < 0 else summarize
    out = []
    if a.ndim == 0:
        out.append(_text(a[()]))
    else:
        _dim_text(a, 0, ends, (), out)
    return b"".join(out)
