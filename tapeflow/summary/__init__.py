"""tf.summary: TensorBoard event files (scalars, histograms, text), no protobuf needed."""
import types

from tapeflow.summary.writer import (  # noqa: F401
    NoopWriter, SummaryWriter, create_file_writer, create_noop_writer, flush, histogram, record_if, scalar,
    should_record_summaries, text,
)
from tapeflow.summary import writer as _writer
from tapeflow.summary.proto import decode_event
from tapeflow.summary.records import crc32c, masked_crc32c, read_records

experimental = types.SimpleNamespace(set_step=_writer.set_step, get_step=_writer.get_step)


def read_events(path):
    """The decoded Events of one event file (see proto.decode_event)."""
    return [decode_event(r) for r in read_records(path)]


__all__ = ["SummaryWriter", "create_file_writer", "create_noop_writer", "scalar", "histogram", "text",
           "flush", "record_if", "should_record_summaries", "experimental", "crc32c", "masked_crc32c",
           "read_records", "read_events"]
