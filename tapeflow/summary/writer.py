"""tf.summary writers and ops: scalar, histogram and text summaries written as
TensorBoard event files (records.py framing, proto.py messages).

Writing is a stateful primitive with no outputs (like tf.print), so a summary
inside a tf.function is written each time the graph runs, with the step's value
at that time.  The writer travels in the primitive's attrs as an id (attrs must
be hashable); the writer chosen is the default one when the op is called or traced.
"""
import atexit
import contextlib
import itertools
import os
import socket
import threading
import time

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import bind, defprim
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.summary import proto, records
from tapeflow.io.audio_ops import wav_bytes
from tapeflow.summary.png import encode_png

_WRITERS = {}  # id -> writer, for the primitive's impl
_ids = itertools.count(1)
_files = itertools.count()
_lock = threading.Lock()


class _Context:
    """The default writer stack (with each level's default step), the global step
    set by experimental.set_step, and the record_if conditions."""

    def __init__(self):
        self.stack = []  # [(writer, step or None)]
        self.step = None
        self.record = []


_ctx = _Context()


class _Writer:
    """TF's writer API that the file writer and the no-op writer share."""

    @contextlib.contextmanager
    def as_default(self, step=None):
        _ctx.stack.append((self, step))
        try:
            yield self
        finally:
            _ctx.stack.pop()
            self.flush()

    def set_as_default(self, step=None):
        _ctx.stack.append((self, step))

    def init(self):
        return None

    def flush(self):
        return None

    def close(self):
        return None


class SummaryWriter(_Writer):
    """Writes an event file events.out.tfevents.<time>.<host>.<pid>.<n>.v2 in logdir."""

    def __init__(self, logdir, max_queue=None, flush_millis=None, filename_suffix=None):
        self.logdir = os.fspath(logdir)
        os.makedirs(self.logdir, exist_ok=True)
        name = f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}.{os.getpid()}." \
               f"{next(_files)}.v2{filename_suffix or ''}"
        self.path = os.path.join(self.logdir, name)
        self._file = open(self.path, "wb")
        self._max_queue = 10 if max_queue is None else max(int(max_queue), 1)
        self._pending = 0
        self._id = next(_ids)
        _WRITERS[self._id] = self
        self._append(proto.event(time.time(), 0, file_version="brain.Event:2"))
        self.flush()  # TensorBoard sees the file at once
        atexit.register(self.close)

    # -- TF's writer API (init: the file is created in the constructor)
    def flush(self):
        with _lock:
            if self._file is not None:
                self._file.flush()
                self._pending = 0

    def close(self):
        with _lock:
            if self._file is not None:
                self._file.close()
                self._file = None
        _WRITERS.pop(self._id, None)

    # -- writing
    def _append(self, event_bytes):
        with _lock:
            if self._file is None:
                raise ValueError(with_location(f"tf.summary: the writer for {self.logdir} is closed"))
            self._file.write(records.frame(event_bytes))
            self._pending += 1
            full = self._pending >= self._max_queue
        if full:
            self.flush()

    def _write_value(self, value_bytes, step):
        self._append(proto.event(time.time(), step, values=[value_bytes]))


class NoopWriter(_Writer):
    """create_noop_writer(): a default writer that writes nothing."""

    _id = 0


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None, name=None,
                       experimental_trackable=False, experimental_mesh=None):
    return SummaryWriter(logdir, max_queue, flush_millis, filename_suffix)


def create_noop_writer():
    return NoopWriter()


# ------------------------------------------------------------------ the primitive

def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def _write_impl(xp, step, *data, writer, kind, tag, description, buckets, strings):
    w = _WRITERS.get(writer)
    if w is None:  # closed since tracing: nothing to write to, as TF's closed writers do
        return ()
    w._write_value(_ENCODERS[kind](tag, [_host(d) for d in data], description, buckets, strings), int(_host(step)))
    return ()


WRITE = defprim("summary_write", _write_impl, lambda *avals, **attrs: (), None,
                stateful=True, multiple_results=True)


def histogram_buckets(arr, bucket_count):
    """TensorFlow 2's histogram: float64 [k, 3] rows of (left, right, count) over
    `bucket_count` equal-width buckets from min to max (a value falls in bucket
    floor((x - min) / width), the max in the last); one distinct value puts every
    count in the last bucket, with both edges at the value; no data gives zeros."""
    arr = np.asarray(arr, np.float64).reshape(-1)
    if bucket_count == 0 or arr.size == 0:
        return np.zeros((bucket_count, 3))
    lo, hi = arr.min(), arr.max()
    if lo == hi:
        counts = np.zeros(bucket_count)
        counts[-1] = arr.size
        return np.stack([np.full(bucket_count, hi), np.full(bucket_count, hi), counts], axis=1)
    width = (hi - lo) / bucket_count
    index = np.minimum(np.floor((arr - lo) / width).astype(np.int32), bucket_count - 1)
    counts = np.bincount(index, minlength=bucket_count).astype(np.float64)
    edges = np.linspace(lo, hi, bucket_count + 1)
    edges[-1] = hi
    return np.stack([edges[:-1], edges[1:], counts], axis=1)


def _as_uint8_images(arr):
    """tf.image.convert_image_dtype(data, uint8, saturate=True), as image summaries do:
    floats scale by 255.5 and truncate after clipping to [0, 255]; integers scale by
    their type's range."""
    if arr.dtype == np.uint8:
        return arr
    if arr.dtype.kind == "f":
        return np.clip(arr.astype(np.float64) * 255.5, 0, 255).astype(np.uint8)
    if arr.dtype == np.bool_:
        return arr.astype(np.uint8) * 255
    info = np.iinfo(arr.dtype)
    scale = (int(info.max) + 1) // 256
    return np.clip(arr.astype(np.int64) // max(scale, 1), 0, 255).astype(np.uint8)


def _encode_scalar(tag, data, description, buckets, strings):
    return proto.scalar_value(tag, float(data[0]), description)


def _encode_histogram(tag, data, description, buckets, strings):
    return proto.histogram_value(tag, histogram_buckets(data[0], buckets), description)


def _encode_text(tag, data, description, buckets, strings):
    return proto.text_value(tag, strings[1], strings[0], description)


def _encode_image(tag, data, description, buckets, strings):
    images = _as_uint8_images(data[0])
    k, height, width = images.shape[:3]
    pngs = [encode_png(images[i]) for i in range(min(k, buckets))]  # `buckets` carries max_outputs
    return proto.image_value(tag, width, height, pngs, description)


def _encode_audio(tag, data, description, buckets, strings):
    clips, rate = np.asarray(data[0], np.float32), int(np.asarray(data[1]))
    wavs = [wav_bytes(clips[i], rate) for i in range(min(clips.shape[0], buckets))]  # `buckets`: max_outputs
    return proto.audio_value(tag, wavs, description)


def _encode_tensor(tag, data, description, buckets, strings):
    return proto.tensor_value_with_metadata(tag, proto.array_tensor(np.asarray(data[0])), description or b"")


_ENCODERS = {"scalar": _encode_scalar, "histogram": _encode_histogram, "text": _encode_text,
             "image": _encode_image, "audio": _encode_audio, "tensor": _encode_tensor}


def default_target(op, step):
    """(writer, step tensor) to write to, or None when nothing is to be written."""
    if not _ctx.stack or not should_record_summaries():
        return None
    writer, default_step = _ctx.stack[-1]
    if isinstance(writer, NoopWriter):
        return None
    step = step if step is not None else (default_step if default_step is not None else _ctx.step)
    if step is None:
        raise ValueError(with_location(
            f"tf.summary.{op}: no step set. Pass step=, use writer.as_default(step=...) or "
            f"tf.summary.experimental.set_step()"))
    # A Variable (e.g. optimizer.iterations) is read here: in a graph, when it runs.
    return writer, convert_to_tensor(step) if isinstance(step, TensorBase) else convert_to_tensor(step, dtypes.int64)


def _emit(op, step, data, kind, tag, description, buckets=0, strings=()):
    target = default_target(op, step)
    if target is None:
        return False
    writer, step = target
    if step.dtype is not dtypes.int64:
        from tapeflow.runtime.ops import math_ops
        step = math_ops.cast(step, dtypes.int64)
    bind(WRITE, (step,) + tuple(data), {"writer": writer._id, "kind": kind, "tag": str(tag),
                                         "description": description or None, "buckets": int(buckets),
                                         "strings": strings})
    return True


def scalar(name, data, step=None, description=None):
    """Write a real scalar; returns True when written, False without a default writer."""
    if not _ctx.stack:
        return False
    t = convert_to_tensor(data)
    if t.shape.rank != 0:
        raise ValueError(with_location(f"tf.summary.scalar: {name!r} must be a scalar, got shape {t.shape}"))
    if not (t.dtype.is_floating or t.dtype.is_integer or t.dtype is dtypes.bool_):
        raise TypeError(with_location(f"tf.summary.scalar: {name!r} must be real, got {t.dtype.name}"))
    return _emit("scalar", step, (t,), "scalar", name, description)


def histogram(name, data, step=None, buckets=None, description=None):
    """Write a histogram of `data`'s values in `buckets` (default 30) equal-width buckets."""
    if not _ctx.stack:
        return False
    buckets = 30 if buckets is None else int(buckets)
    if buckets < 0:
        raise ValueError(with_location(f"tf.summary.histogram: buckets must be >= 0, got {buckets}"))
    return _emit("histogram", step, (convert_to_tensor(data),), "histogram", name, description, buckets)


def image(name, data, step=None, max_outputs=3, description=None):
    """Write up to `max_outputs` images of `data` [k, height, width, channels] as PNGs
    (channels 1 to 4; floats are clipped to [0, 1])."""
    if not _ctx.stack:
        return False
    t = convert_to_tensor(data)
    if t.shape.rank != 4:
        raise ValueError(with_location(f"tf.summary.image: {name!r} must be [k, height, width, channels], "
                                       f"got shape {t.shape}"))
    if t.shape.dims[3] not in (None, 1, 2, 3, 4):
        raise ValueError(with_location(f"tf.summary.image: {name!r} has {t.shape.dims[3]} channels; "
                                       f"expected 1, 2, 3 or 4"))
    if int(max_outputs) < 0:
        raise ValueError(with_location(f"tf.summary.image: max_outputs must be >= 0, got {max_outputs}"))
    return _emit("image", step, (t,), "image", name, description, int(max_outputs))


def text(name, data, step=None, description=None):
    """Write a string (or nested lists of strings): the text is fixed when the op is made."""
    if not _ctx.stack:
        return False
    arr = np.asarray(data.numpy() if isinstance(data, TensorBase) else data)  # a string tensor: bytes objects
    if arr.dtype.kind not in "USO" or (arr.dtype.kind == "O" and not all(
            isinstance(s, (str, bytes)) for s in arr.reshape(-1).tolist())):
        raise TypeError(with_location(f"tf.summary.text: {name!r} must be strings, got {arr.dtype}"))
    strings = (tuple(arr.shape), tuple(s if isinstance(s, str) else s.decode() for s in arr.reshape(-1).tolist()))
    return _emit("text", step, (), "text", name, description, strings=strings)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """Write up to `max_outputs` clips of float `data` [k, frames, channels] (values in [-1, 1])
    as 16-bit PCM WAV files at `sample_rate` Hz."""
    if encoding not in (None, "wav"):
        raise ValueError(with_location(f"tf.summary.audio: unknown encoding {encoding!r} (only 'wav')"))
    if not _ctx.stack:
        return False
    t = convert_to_tensor(data)
    if not t.dtype.is_floating:
        raise TypeError(with_location(f"tf.summary.audio: {name!r} must be floats, got {t.dtype.name}"))
    if t.shape.rank != 3:
        raise ValueError(with_location(f"tf.summary.audio: {name!r} must be [k, frames, channels], "
                                       f"got shape {t.shape}"))
    if int(max_outputs) < 0:
        raise ValueError(with_location(f"tf.summary.audio: max_outputs must be >= 0, got {max_outputs}"))
    rate = convert_to_tensor(sample_rate)
    return _emit("audio", step, (t, rate), "audio", name, description, int(max_outputs))


def write(tag, tensor, step=None, metadata=None, name=None):
    """Write any tensor (or the result of a callable, called only when recording) under `tag`;
    `metadata`: a SummaryMetadata (anything with SerializeToString) or its serialized bytes."""
    if not _ctx.stack or not should_record_summaries():
        return False
    if metadata is not None and hasattr(metadata, "SerializeToString"):
        metadata = metadata.SerializeToString()
    if metadata is not None and not isinstance(metadata, bytes):
        raise TypeError(with_location(f"tf.summary.write: metadata must be a SummaryMetadata or bytes, got "
                                      f"{type(metadata).__name__}"))
    t = convert_to_tensor(tensor() if callable(tensor) else tensor)
    # `description` carries the serialized metadata (attrs must be hashable: bytes are)
    return _emit("write", step, (t,), "tensor", tag, metadata or None)


def flush(writer=None, name=None):
    target = writer if writer is not None else (_ctx.stack[-1][0] if _ctx.stack else None)
    if target is not None:
        target.flush()


@contextlib.contextmanager
def record_if(condition):
    """Record summaries only while `condition` (a bool, or a callable giving one) holds."""
    _ctx.record.append(condition)
    try:
        yield
    finally:
        _ctx.record.pop()


def should_record_summaries():
    if not _ctx.stack or isinstance(_ctx.stack[-1][0], NoopWriter):
        return False
    for cond in _ctx.record:
        value = cond() if callable(cond) else cond
        if not bool(value):
            return False
    return True


def default_writer_step():
    """(whether a default writer is set, the step it would write at or None)."""
    if not _ctx.stack:
        return False, None
    default_step = _ctx.stack[-1][1]
    return True, default_step if default_step is not None else _ctx.step


def set_step(step):
    _ctx.step = step


def get_step():
    return _ctx.step
