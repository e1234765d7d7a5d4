"""tf.io.TFRecordWriter, tf.io.TFRecordOptions and TF1's tf_record_iterator (the framing and
the streams are record_format.py's)."""
from tapeflow.io import record_format
from tapeflow.runtime.errors import with_location


class TFRecordOptions:
    """Options of a TFRecord file; tapeflow uses compression_type (and compression_level)."""

    compression_type_map = {"": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None, output_buffer_size=None,
                 window_bits=None, compression_level=None, compression_method=None, mem_level=None,
                 compression_strategy=None):
        self.compression_type = record_format.compression_of(compression_type, "TFRecordOptions")
        self.compression_level = compression_level

    @classmethod
    def get_compression_type_string(cls, options):
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return record_format.compression_of(options, "TFRecordOptions")


def _record_bytes(record):
    # TensorFlow's writer takes bytes (or str) only: a tensor is a TypeError there too
    if isinstance(record, str):
        record = record.encode("utf-8")
    if not isinstance(record, (bytes, bytearray, memoryview)):
        raise TypeError(with_location(f"TFRecordWriter.write: expected bytes, got {type(record).__name__} "
                                      f"(for a string tensor t, write t.numpy())"))
    return bytes(record)


class TFRecordWriter:
    """Writes records to a TFRecord file: write(bytes), flush(), close(); a context manager."""

    def __init__(self, path, options=None):
        path = path.numpy().decode() if hasattr(path, "numpy") else path
        self._writer = record_format.RecordFileWriter(
            path.decode() if isinstance(path, bytes) else str(path),
            TFRecordOptions.get_compression_type_string(options))

    def write(self, record):
        if self._writer._stream is None:
            raise ValueError(with_location("TFRecordWriter.write: the writer is closed"))
        self._writer.write(_record_bytes(record))

    def flush(self):
        self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def tf_record_iterator(path, options=None):
    """TF1's tf.compat.v1.io.tf_record_iterator: the records (bytes) of one file."""
    return record_format.iter_records(path, TFRecordOptions.get_compression_type_string(options))
