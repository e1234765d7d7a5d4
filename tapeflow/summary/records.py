"""TFRecord framing for TensorBoard event files: tapeflow.io.record_format's, reused."""
from tapeflow.io.crc32c import crc32c, masked_crc32c  # noqa: F401
from tapeflow.io.record_format import frame, read_records  # noqa: F401
