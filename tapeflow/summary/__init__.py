"""tf.summary: TensorBoard event files (scalars, histograms, images, audio, text, any
tensor, traced graphs) in TensorFlow 2's format, encoded here: no protobuf needed to write them."""
import types

from tapeflow.summary.writer import (  # noqa: F401
    NoopWriter, SummaryWriter, audio, create_file_writer, create_noop_writer, flush, histogram, image, record_if,
    scalar, should_record_summaries, text, write,
)
from tapeflow.summary.trace import graph, trace_export, trace_off, trace_on  # noqa: F401
from tapeflow.summary import writer as _writer
from tapeflow.summary.proto import decode_event
from tapeflow.summary.records import crc32c, masked_crc32c, read_records

experimental = types.SimpleNamespace(set_step=_writer.set_step, get_step=_writer.get_step)


def read_events(path):
    """The decoded Events of one event file (see proto.decode_event)."""
    return [decode_event(r) for r in read_records(path)]


__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "scalar", "histogram", "image", "text", "audio", "write",
           "trace_on", "trace_off", "trace_export", "graph",
           "flush", "record_if", "should_record_summaries", "experimental", "crc32c", "masked_crc32c",
           "read_records", "read_events"]
