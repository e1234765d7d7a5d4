"""tf.strings: the string ops (primitives in runtime/ops/string_ops.py) with
TensorFlow's signatures.  Elementwise ops take RaggedTensors too (applied to
the flat values); split and the unicode/bytes splitters give RaggedTensors."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, OutOfRangeError, with_location
from tapeflow.runtime.ops import array_ops as A
from tapeflow.runtime.ops import gather_ops as G
from tapeflow.runtime.ops import join_ops as J
from tapeflow.runtime.ops import math_ops as M
from tapeflow.runtime.ops import range_ops
from tapeflow.runtime.ops import reduce_ops as RD
from tapeflow.runtime.ops import segment_ops
from tapeflow.runtime.ops import sort_ops
from tapeflow.runtime.ops import string_ops as S
from tapeflow.runtime.ops.reduce_ops import normalize_axes
from tapeflow.runtime.ops import string_format
from tapeflow.runtime.registry import Aval, bind
from tapeflow.runtime.tensor import SymbolicTensor, TensorBase, convert_to_tensor
from tapeflow.ragged_tensor import RaggedTensor

_NO_ATTRS = {}


def _text(v, what):
    """A static text argument (str, bytes or an eager scalar string tensor) as bytes."""
    if isinstance(v, TensorBase):
        v = v.numpy()
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, bytes):
        return v
    raise TypeError(with_location(f"{what} must be a Python str or bytes, got {type(v).__name__}"))


def _strings(x, op):
    t = convert_to_tensor(x, dtypes.string) if not isinstance(x, TensorBase) else convert_to_tensor(x)
    if t.dtype is not dtypes.string:
        raise InvalidArgumentError(with_location(f"tf.strings.{op}: expected a string tensor, got {t.dtype.name} "
                                                 f"{list(t.shape)}"))
    return t


def _bind(prim, inputs, attrs):
    """bind, after the primitive's shape/dtype rule (which eager execution skips):
    bad arguments are TensorFlow's InvalidArgumentError, naming the op."""
    try:
        prim.shape_rule(*[Aval(x.shape.dims, x.dtype) for x in inputs], **attrs)
    except (TypeError, ValueError) as exc:
        raise InvalidArgumentError(with_location(f"tf.strings {prim.name}: {exc}")) from None
    return bind(prim, inputs, attrs)


def _elementwise(op):
    """Run `op(tensor, ...)` on a RaggedTensor's flat values, keeping its row partition."""
    def apply(x, *args, **kwargs):
        if isinstance(x, RaggedTensor):
            return x.with_flat_values(op(x.flat_values, *args, **kwargs))
        return op(x, *args, **kwargs)
    apply.__name__ = op.__name__
    apply.__doc__ = op.__doc__
    return apply


# --- joins ---------------------------------------------------------------------
def join(inputs, separator="", name=None):
    """Elementwise concatenation of the input tensors (broadcast) with `separator`."""
    if isinstance(inputs, (str, bytes)):
        raise TypeError(with_location(f"Expected list for 'inputs' argument to 'string_join' Op, not {inputs!r}."))
    xs = [_strings(x, "join") for x in inputs]
    return _bind(S.STRING_JOIN, tuple(xs), {"separator": _text(separator, "separator")})


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """Joins the strings along `axis` (all axes when None) with `separator`."""
    if isinstance(inputs, RaggedTensor):
        return _ragged_reduce_join(inputs, axis, keepdims, separator)
    x = _strings(convert_to_tensor(inputs), "reduce_join")  # TF converts without a dtype: [] is float32
    try:
        axes = normalize_axes(axis, x.shape.rank, "strings.reduce_join")
    except ValueError as exc:  # TF: the kernel's OutOfRangeError ("Invalid reduction dimension")
        raise OutOfRangeError(str(exc)) from None
    return _bind(S.REDUCE_JOIN, (x,), {"axis": axes, "keepdims": bool(keepdims),
                                      "separator": _text(separator, "separator")})


def _ragged_reduce_join(rt, axis, keepdims, separator):
    """reduce_join of a RaggedTensor: a ragged axis joins the values that line up on it (in
    order, as unsorted_segment_join), a dense inner axis joins within the flat values."""
    from tapeflow import ragged_ops
    if axis is None:
        out = reduce_join(rt.flat_values, None, separator=separator)
        return A.reshape(out, [1] * rt.shape.rank) if keepdims else out
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    axes = sorted({int(a) % rt.shape.rank for a in axes}, reverse=True)
    out = rt
    for a in axes:
        out = _ragged_join_axis(out, a, separator, ragged_ops) if isinstance(out, RaggedTensor) \
            else reduce_join(out, a, separator=separator)
    if keepdims:
        if isinstance(out, RaggedTensor):
            raise NotImplementedError(with_location(
                "tf.strings.reduce_join(ragged, keepdims=True): tapeflow keeps dims only when the result is dense"))
        for a in sorted(axes):  # the joined axes come back as size-1 axes
            out = A.expand_dims(out, a)
    return out


def _ragged_join_axis(rt, a, separator, ragged_ops):
    def join_segments(values, ids, n):
        return unsorted_segment_join(values, ids, n, separator)
    if a > rt.ragged_rank:      # a dense inner axis of the flat values
        return rt.with_flat_values(reduce_join(rt.flat_values, a - rt.ragged_rank, separator=separator))
    if a == 0:                  # every row is one group
        return ragged_ops.grouped_rows(join_segments, rt, A.zeros_like(rt.row_splits[1:]), 1).values
    if a == 1:                  # the rows of each row are a group
        return ragged_ops.grouped_rows(join_segments, rt.values, rt.value_rowids(), rt.nrows())
    return rt.with_values(_ragged_join_axis(rt.values, a - 1, separator, ragged_ops))


# --- per-item transforms -------------------------------------------------------
@_elementwise
def length(input, unit="BYTE", name=None):  # noqa: A002
    """Length of every string in bytes ("BYTE") or Unicode characters ("UTF8_CHAR"), int32."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(with_location(
            f'tf.strings.length: unit must be "BYTE" or "UTF8_CHAR", got {unit!r}'))
    return _bind(S.STRING_LENGTH, (_strings(input, "length"),), {"unit": unit})


@_elementwise
def upper(input, encoding="", name=None):  # noqa: A002
    return _bind(S.STRING_UPPER, (_strings(input, "upper"),), {"encoding": encoding})


@_elementwise
def lower(input, encoding="", name=None):  # noqa: A002
    return _bind(S.STRING_LOWER, (_strings(input, "lower"),), {"encoding": encoding})


@_elementwise
def strip(input, name=None):  # noqa: A002
    """Leading and trailing ASCII whitespace removed."""
    return _bind(S.STRING_STRIP, (_strings(input, "strip"),), _NO_ATTRS)


@_elementwise
def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002 - TensorFlow's names
    """`len` bytes (or UTF-8 characters) from `pos` (negative: from the end)."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise InvalidArgumentError(with_location(
            f'tf.strings.substr: unit must be "BYTE" or "UTF8_CHAR", got {unit!r}'))
    x = _strings(input, "substr")
    p, n = convert_to_tensor(pos), convert_to_tensor(len)
    return _bind(S.SUBSTR, (x, p, n), {"unit": unit})


@_elementwise
def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replace matches of `pattern` by `rewrite` (\\1 names a group, \\0 the match)."""
    return _bind(S.REGEX_REPLACE, (_strings(input, "regex_replace"),),
                {"pattern": _text(pattern, "pattern"), "rewrite": _text(rewrite, "rewrite"),
                 "replace_global": bool(replace_global)})


@_elementwise
def regex_full_match(input, pattern, name=None):  # noqa: A002
    return _bind(S.REGEX_FULL_MATCH, (_strings(input, "regex_full_match"),), {"pattern": _text(pattern, "pattern")})


@_elementwise
def to_number(string_tensor, out_type=dtypes.float32, name=None):
    return _bind(S.STRING_TO_NUMBER, (_strings(string_tensor, "to_number"),),
                {"out_type": dtypes.as_dtype(out_type)})


@_elementwise
def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="", name=None):  # noqa: A002
    """Numbers and bools as text (printf's %f, %e with scientific, %g with shortest)."""
    return _bind(S.AS_STRING, (convert_to_tensor(input),),
                {"precision": int(precision), "scientific": bool(scientific), "shortest": bool(shortest),
                 "width": int(width), "fill": fill})


def format(template, inputs, placeholder="{}", summarize=3, name=None):  # noqa: A001 - TensorFlow's name
    """`template` with each `placeholder` replaced by the text of one input tensor."""
    if isinstance(inputs, (list, tuple)):
        xs = tuple(convert_to_tensor(x) for x in inputs)
    else:
        xs = (convert_to_tensor(inputs),)
    template, placeholder = _text(template, "template"), _text(placeholder, "placeholder")
    string_format.check_template(template, placeholder, len(xs))  # a ValueError, as TensorFlow
    return _bind(S.STRING_FORMAT, xs, {"template": template, "placeholder": placeholder,
                                       "summarize": int(summarize)})


# --- hashing -------------------------------------------------------------------
@_elementwise
def to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002
    """farmhash Fingerprint64 of every string, modulo num_buckets (TensorFlow's buckets)."""
    return _bind(S.TO_HASH_BUCKET_FAST, (_strings(input, "to_hash_bucket_fast"),), {"num_buckets": int(num_buckets)})


@_elementwise
def to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """SipHash-2-4 under `key` (two integers) of every string, modulo num_buckets."""
    key = [int(k) for k in key]
    if len(key) != 2:
        raise ValueError(with_location(f"tf.strings.to_hash_bucket_strong: key must be two integers, got {key}"))
    return _bind(S.TO_HASH_BUCKET_STRONG, (_strings(input, "to_hash_bucket_strong"),),
                {"num_buckets": int(num_buckets), "key": tuple(key)})


@_elementwise
def to_hash_bucket(string_tensor, num_buckets, name=None):
    """TensorFlow's legacy Hash64 of every string, modulo num_buckets."""
    return _bind(S.TO_HASH_BUCKET, (_strings(string_tensor, "to_hash_bucket"),), {"num_buckets": int(num_buckets)})


# --- ragged results ------------------------------------------------------------
def _ragged_pieces(x, op, attrs, dense_scalar=True):
    """The pieces of every string: a vector for a scalar, else one more ragged
    dimension than the input (a RaggedTensor input keeps its partitions)."""
    if isinstance(x, RaggedTensor):
        return x.with_flat_values(_ragged_pieces(x.flat_values, op, attrs))
    t = _strings(x, op)
    rank = t.shape.rank
    values, splits = _bind(S.STRING_PIECES, (A.reshape(t, (-1,)),), attrs)
    if rank == 0:
        return values
    out = RaggedTensor.from_row_splits(values, splits, validate=False)
    for d in reversed(t.shape.dims[1:]):
        if d is None:
            raise ValueError(with_location(f"tf.strings.{op}: inner dimensions must be known, got {t.shape}"))
        out = RaggedTensor.from_uniform_row_length(out, d, validate=False)
    return out


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """Split every string at `sep` (runs of whitespace when None or empty)."""
    if isinstance(input, TensorBase) and input.dtype is not dtypes.string:  # TF: the conversion's ValueError
        raise ValueError(with_location(
            f"input: Tensor conversion requested dtype string for Tensor with dtype {input.dtype.name}"))
    sep = b"" if sep is None else _text(sep, "sep")
    return _ragged_pieces(input, "split", {"mode": "split", "sep": sep, "maxsplit": int(maxsplit)})


def bytes_split(input, name=None):  # noqa: A002
    return _ragged_pieces(input, "bytes_split", {"mode": "bytes"})


def _check_encoding(encoding, errors):
    if str(encoding).upper().replace("_", "-") not in ("UTF-8", "UTF8"):
        raise NotImplementedError(with_location(f"tf.strings: tapeflow decodes UTF-8 only, got {encoding!r}"))
    if errors not in ("replace", "ignore", "strict"):
        raise ValueError(with_location(f"tf.strings: errors must be 'replace', 'ignore' or 'strict', got {errors!r}"))


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Every string as a list of its UTF-8 characters (each a string)."""
    _check_encoding(input_encoding, errors)
    return _ragged_pieces(input, "unicode_split", {"mode": "unicode_split", "errors": errors,
                                                   "replacement_char": int(replacement_char)})


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """Every string as its Unicode code points (int32)."""
    _check_encoding(input_encoding, errors)
    return _ragged_pieces(input, "unicode_decode", {"mode": "unicode_decode", "errors": errors,
                                                    "replacement_char": int(replacement_char),
                                                    "replace_control": bool(replace_control_characters)})


def _offsets(input, errors, replacement_char, op):  # noqa: A002
    """The int64 byte offset where every decoded character starts, shaped as its pieces."""
    return _ragged_pieces(input, op, {"mode": "unicode_offsets", "errors": errors,
                                      "replacement_char": int(replacement_char)})


def unicode_split_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                               name=None):
    """(characters, byte offsets): unicode_split and where each character starts."""
    return (unicode_split(input, input_encoding, errors, replacement_char),
            _offsets(input, errors, replacement_char, "unicode_split_with_offsets"))


def unicode_decode_with_offsets(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                                replace_control_characters=False, name=None):
    """(code points, byte offsets): unicode_decode and where each character starts."""
    return (unicode_decode(input, input_encoding, errors, replacement_char, replace_control_characters),
            _offsets(input, errors, replacement_char, "unicode_decode_with_offsets"))


_OUTPUT_CODECS = {"UTF-8": "utf-8", "UTF-16-BE": "utf-16-be", "UTF-32-BE": "utf-32-be"}  # TF's allowed values


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533, name=None):  # noqa: A002
    """Code points (the last dimension, dense or ragged) encoded as UTF-8, UTF-16-BE or UTF-32-BE."""
    codec = _OUTPUT_CODECS.get(output_encoding)
    if codec is None:
        if str(output_encoding).upper().replace("_", "-") not in ("UTF-8", "UTF8"):  # tapeflow also takes utf-8
            raise InvalidArgumentError(with_location(
                f"Value for attr 'output_encoding' of \"{output_encoding}\" is not in the list of allowed values: "
                "\"UTF-8\", \"UTF-16-BE\", \"UTF-32-BE\""))
        _check_encoding(output_encoding, errors)
        codec = "utf-8"
    elif errors not in ("replace", "ignore", "strict"):
        raise ValueError(with_location(f"tf.strings: errors must be 'replace', 'ignore' or 'strict', got {errors!r}"))
    if isinstance(input, RaggedTensor):
        if input.ragged_rank > 1:
            return input.with_values(unicode_encode(input.values, output_encoding, errors, replacement_char))
        rows = input.to_list()
        shape = (len(rows),)
    else:
        arr = np.asarray(convert_to_tensor(input).numpy())
        shape = arr.shape[:-1]
        rows = arr.reshape((-1, arr.shape[-1]) if arr.ndim else (1, 1)).tolist()
    out = [("".join(chr(c) if 0 <= c <= 0x10FFFF else chr(replacement_char) for c in r)).encode(codec, "surrogatepass")
           for r in rows]
    arr = np.empty(len(out), dtype=object)
    arr[:] = out
    return convert_to_tensor(arr.reshape(shape))


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """The n-grams (joined with `separator`) of the last axis of `data` (dense or ragged),
    for every width in `ngram_width`, optionally padded with pad_values (left, right)."""
    widths = (int(ngram_width),) if isinstance(ngram_width, int) else tuple(int(w) for w in ngram_width)
    if not widths or min(widths) < 1:
        raise ValueError(with_location(f"tf.strings.ngrams: ngram_width must be positive, got {ngram_width}"))
    if pad_values is None:
        left = right = b""
        pad = 0
    else:
        left, right = (pad_values, pad_values) if isinstance(pad_values, (str, bytes)) else tuple(pad_values)
        left, right = _text(left, "pad_values"), _text(right, "pad_values")
        pad = -1 if padding_width is None else int(padding_width)
        if padding_width is not None and pad < 1:
            raise ValueError(with_location(f"tf.strings.ngrams: padding_width must be positive, got {padding_width}"))
    attrs = {"widths": widths, "separator": _text(separator, "separator"), "left": left, "right": right,
             "pad_width": pad, "preserve": bool(preserve_short_sequences)}
    if isinstance(data, RaggedTensor):
        if data.ragged_rank > 1:
            return data.with_values(ngrams(data.values, ngram_width, separator, pad_values, padding_width,
                                           preserve_short_sequences))
        values, splits = _bind(S.STRING_NGRAMS, (_strings(data.values, "ngrams"), data.row_splits), attrs)
        return RaggedTensor.from_row_splits(values, splits, validate=False)
    t = _strings(data, "ngrams")
    dims = t.shape.dims
    if not dims or dims[-1] is None or None in dims[:-1]:
        raise ValueError(with_location(f"tf.strings.ngrams: dense data needs a known shape of rank >= 1, "
                                       f"got {t.shape}"))
    rows = RaggedTensor.from_tensor(A.reshape(t, (-1, dims[-1])))
    out = ngrams(rows, ngram_width, separator, pad_values, padding_width, preserve_short_sequences)
    if len(dims) == 1:
        return out.flat_values
    return A.reshape(out.to_tensor(), tuple(dims[:-1]) + (-1,))


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """Joins (with `separator`, in input order) the rows of `inputs` of each segment id;
    empty segments give "".  A composite: rows sorted by id, a leading separator on every
    row but a segment's first, then a padded [segments, longest, ...] gather and reduce_join."""
    x = _strings(inputs, "unsorted_segment_join")
    ids = convert_to_tensor(segment_ids)
    n = convert_to_tensor(num_segments, ids.dtype)
    if ids.shape.rank != 1 or x.shape.rank is None or x.shape.rank < 1:
        raise NotImplementedError(with_location(
            f"tf.strings.unsorted_segment_join: tapeflow takes a vector of segment_ids (one per row of inputs), "
            f"got shapes {ids.shape} and {x.shape}"))
    bad = RD.reduce_any(M.logical_or(M.less(ids, 0), M.greater_equal(ids, n)))
    if not isinstance(bad, SymbolicTensor) and bool(bad.numpy()):  # in a graph, gather's range check
        raise InvalidArgumentError(with_location(
            "segment_ids are not allowed to exceed num_segments or to have negative values."))
    order = sort_ops.argsort(ids, stable=True)
    sid, rows = G.gather(ids, order), G.gather(x, order)
    first = M.not_equal(sid, J.concat([A.fill([1], M.cast(-1, ids.dtype)), sid[:-1]], 0))
    prefix = A.where(first, A.fill(A.shape(sid), b""), A.fill(A.shape(sid), _text(separator, "separator")))
    prefix = A.reshape(prefix, [-1] + [1] * (x.shape.rank - 1))
    rows = J.concat([join([prefix, rows]), A.zeros_like(rows[:1])], 0)  # a last "" row for the padding
    counts = segment_ops.unsorted_segment_sum(A.ones_like(ids), ids, n)
    starts = sort_ops.cumsum(counts, exclusive=True)
    width = RD.reduce_max(J.concat([counts, A.zeros([1], ids.dtype)], 0))
    j = range_ops.range_(width, dtype=ids.dtype)
    idx = A.where(M.less(j[None, :], counts[:, None]), starts[:, None] + j[None, :],
                  A.fill(A.shape(counts[:, None] + j[None, :]), M.cast(A.size(ids), ids.dtype)))
    return reduce_join(G.gather(rows, idx), axis=1)
from tapeflow.strings_transcode import unicode_transcode  # noqa: E402,F401
from tapeflow.strings_script import unicode_script  # noqa: E402,F401
