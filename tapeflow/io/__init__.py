"""tf.io: files (gfile, read_file / write_file), TFRecord files, tf.train.Example protos and
their parsing, CSV decoding, tensor serialization.  The formats are implemented here in
Python and NumPy: record_format.py (TFRecord framing), crc32c.py, wire.py (protobuf wire
format), proto_message.py / example_pb.py (tf.train.Example), csv_fields.py (decode_csv rules),
gfile.py."""
from tapeflow.io import gfile  # noqa: F401
