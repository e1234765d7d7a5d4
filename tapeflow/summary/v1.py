"""tf.compat.v1.summary run eagerly, as TensorFlow 2 does: each op returns a scalar string tensor
holding a serialized TF1 `Summary` proto (simple_value scalars, HistogramProto histograms, plain
tensors), which a program may decode or drop.  With a default tf.summary writer and a step set,
the op forwards to the TF2 op under the same tag and returns b"" instead (TF's "compatibility"
path).  merge / merge_all / FileWriter are graph-mode only: RuntimeError with TF's text.

Summary.Value fields (framework/summary.proto): tag=1, simple_value=2, histo=5, tensor=8,
metadata=9; HistogramProto: min=1, max=2, num=3, sum=4, sum_squares=5, bucket_limit=6 (packed),
bucket=7 (packed); proto3 leaves zero-valued scalar fields out.
"""
import bisect
import re
import sys
import warnings

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.runtime.variables import current_name_scope
from tapeflow.summary import proto, writer as _writer
from tapeflow.io.wire import double, float32, length_delimited, packed_doubles
from tapeflow.tracer.staging import is_symbolic

_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w.]")


def _default_buckets():
    """TF's default histogram bucket limits: +-1e-12 * 1.1**k up to 1e20, 0 and +-DBL_MAX."""
    positive, v = [], 1.0e-12
    while v < 1.0e20:
        positive.append(v)
        v *= 1.1
    positive.append(sys.float_info.max)
    return [-x for x in reversed(positive)] + [0.0] + positive


_BUCKET_LIMITS = _default_buckets()


def _clean_tag(name):
    return None if name is None else _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")


def _tag(name, family):
    """TF1's summary_scope: '<scope>/<name>', or '<family>/<scope>/<family>/<name>'."""
    name, family = _clean_tag(name), _clean_tag(family)
    base = name if family is None else f"{family}/{name}"
    scope = current_name_scope()
    full = f"{scope}/{base}" if scope else base
    return full if family is None else f"{family}/{full}"


def _eager_array(op, tensor, dtype=None):
    t = convert_to_tensor(tensor, dtype) if dtype is not None else convert_to_tensor(tensor)
    if is_symbolic(t):
        raise NotImplementedError(with_location(
            f"tf.compat.v1.summary.{op} inside a tf.function is not supported by tapeflow; use "
            f"tf.summary.{op} with a default writer (tf.summary.create_file_writer(...).as_default())"))
    return t, np.asarray(t.numpy())


def _result(value_bytes):
    return convert_to_tensor(length_delimited(1, value_bytes), dtypes.string)


def _forwarded(op, *args, **kwargs):
    """TF2's compatibility path: a default writer with a step takes the summary; b"" is returned."""
    has_writer, step = _writer.default_writer_step()
    if not has_writer:
        warnings.warn("Cannot activate TF2 compatibility support for TF1 summary ops: default summary "
                      "writer not found.", stacklevel=3)
        return None
    from tapeflow.train.optimizers import get_global_step
    if step is None:
        step = get_global_step()
        if step is None:
            warnings.warn("Cannot activate TF2 compatibility support for TF1 summary ops: global step not "
                          "set.", stacklevel=3)
            return None
    getattr(_writer, op)(*args, step=step, **kwargs)  # (the writer's own step when it has one)
    return convert_to_tensor(b"", dtypes.string)


def _numeric(op, name, t):
    if t.dtype is dtypes.string or t.dtype.is_complex:
        raise InvalidArgumentError(with_location(
            f"tf.compat.v1.summary.{op} {name!r}: values must be real numbers, got {t.dtype.name}"))


def scalar(name, tensor, collections=None, family=None):
    """A Summary with one simple_value (float32) tagged by the name scope (and family)."""
    tag = _tag(name, family)
    forwarded = _forwarded("scalar", tag, tensor)
    if forwarded is not None:
        return forwarded
    t, arr = _eager_array("scalar", tensor)
    _numeric("scalar", name, t)
    if arr.shape != ():
        raise InvalidArgumentError(with_location(
            f"tf.compat.v1.summary.scalar {name!r}: tags and values are not the same shape: [] != "
            f"{list(arr.shape)}"))
    return _result(length_delimited(1, tag) + float32(2, float(arr)))


def _histogram_proto(values):
    counts = [0.0] * len(_BUCKET_LIMITS)
    lo, hi, total, squares = _BUCKET_LIMITS[-1], -_BUCKET_LIMITS[-1], 0.0, 0.0
    for v in values:
        counts[bisect.bisect_right(_BUCKET_LIMITS, v)] += 1.0
        lo, hi = min(lo, v), max(hi, v)
        total += v
        squares += v * v
    limits, kept = [], []
    i = 0
    while i < len(counts):  # a run of empty buckets is one entry: the run's last limit, count 0
        j = i
        while counts[j] == 0.0 and j + 1 < len(counts) and counts[j + 1] == 0.0:
            j += 1
        limits.append(_BUCKET_LIMITS[j])
        kept.append(counts[j])
        i = j + 1
    body = b"".join(double(f, x) for f, x in ((1, lo), (2, hi), (3, float(len(values))), (4, total),
                                                (5, squares)) if x != 0.0)
    return body + packed_doubles(6, limits) + packed_doubles(7, kept)


def histogram(name, values, collections=None, family=None):
    """A Summary with a HistogramProto over TF's default buckets (empty runs merged)."""
    tag = _tag(name, family)
    forwarded = _forwarded("histogram", tag, values)
    if forwarded is not None:
        return forwarded
    t, arr = _eager_array("histogram", values)
    _numeric("histogram", name, t)
    flat = [float(v) for v in arr.astype(np.float64).reshape(-1)]
    if not all(np.isfinite(flat)):
        raise InvalidArgumentError(with_location(f"Nan in summary histogram for: {tag}"))
    return _result(length_delimited(1, tag) + length_delimited(5, _histogram_proto(flat)))


def _tensor_value(tag, arr, metadata):
    return length_delimited(1, tag) + length_delimited(8, proto.array_tensor(arr)) + length_delimited(9, metadata)


def tensor_summary(name, tensor, summary_description=None, collections=None, summary_metadata=None,
                   family=None, display_name=None):
    """A Summary holding the tensor itself, with empty (or the given serialized) metadata."""
    tag = _tag(name, family)
    _, arr = _eager_array("tensor_summary", tensor)
    metadata = summary_metadata if isinstance(summary_metadata, bytes) else b""
    if summary_description:
        metadata += length_delimited(3, summary_description)
    if display_name:
        metadata += length_delimited(2, display_name)
    return _result(_tensor_value(tag, arr, metadata))


def text(name, tensor, collections=None):
    """A Summary holding a string tensor, with plugin "text"."""
    tag = _tag(name, None)
    forwarded = _forwarded("text", tag, tensor)
    if forwarded is not None:
        return forwarded
    t, arr = _eager_array("text", tensor)
    if t.dtype is not dtypes.string:
        raise ValueError(with_location("tf.compat.v1.summary.text: Expected tensor to have dtype string, "
                                       f"got {t.dtype.name}"))
    return _result(_tensor_value(tag, arr, length_delimited(1, length_delimited(1, "text"))))


def _v2_only(op):
    def summary_op(name, tensor, *args, family=None, **kwargs):
        tag = _tag(name, family)
        forwarded = _forwarded(op, tag, tensor, *args, **kwargs)
        if forwarded is not None:
            return forwarded
        raise NotImplementedError(with_location(
            f"tf.compat.v1.summary.{op}: tapeflow writes {op} summaries through a default writer only "
            f"(tf.summary.create_file_writer(logdir).as_default(step=...)); the serialized TF1 proto is "
            f"not provided"))
    summary_op.__name__ = op
    return summary_op


image, audio = _v2_only("image"), _v2_only("audio")


def _merging(*args, **kwargs):
    raise RuntimeError(with_location("Merging tf.summary.* ops is not compatible with eager execution. "
                                     "Use tf.summary (TF2) with a default writer instead."))


merge = merge_all = _merging


def FileWriter(*args, **kwargs):  # noqa: N802 - TensorFlow 1's class name
    raise RuntimeError(with_location(
        "v1.summary.FileWriter is not compatible with eager execution. Use `tf.summary.create_file_writer`"))


def all_v2_summary_ops():
    """TF returns None eagerly (the v2 ops live in graph collections)."""
    return None


NAMES = {"scalar": scalar, "histogram": histogram, "tensor_summary": tensor_summary, "text": text,
         "image": image, "audio": audio, "merge": merge, "merge_all": merge_all, "FileWriter": FileWriter,
         "all_v2_summary_ops": all_v2_summary_ops}
