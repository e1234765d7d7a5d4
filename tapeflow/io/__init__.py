"""tf.io: files (gfile, read_file / write_file), TFRecord files, tf.train.Example protos and
their parsing, CSV decoding, tensor serialization.  The formats are implemented here in
Python and NumPy: record_format.py (TFRecord framing), crc32c.py, wire.py (protobuf wire
format), proto_message.py / example_pb.py (tf.train.Example), csv_fields.py (decode_csv
rules), example_parsing.py (parse_example), example_ragged.py (RaggedFeature),
tensor_proto.py (serialize_tensor), image_codec.py (PNG/JPEG/GIF/BMP over Pillow), gfile.py; native.py / native_source.py are the hot loops
in C (the Python code above is their fallback and reference); ops.py makes them ops on
tensors."""
from tapeflow.io import gfile  # noqa: F401
from tapeflow.io.ops import (  # noqa: F401
    FixedLenFeature, FixedLenSequenceFeature, RaggedFeature, VarLenFeature, decode_csv, parse_example, parse_single_example,
    matching_files, parse_tensor, read_file, serialize_tensor, write_file,
)
from tapeflow.io.json_example import decode_json_example  # noqa: F401
from tapeflow.io.sequence_example import parse_sequence_example, parse_single_sequence_example  # noqa: F401
from tapeflow.io.sparse_io import (  # noqa: F401
    SparseFeature, deserialize_many_sparse, serialize_many_sparse, serialize_sparse,
)
from tapeflow.io.image_ops import (  # noqa: F401
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png, encode_jpeg, encode_png, extract_jpeg_shape,
    is_jpeg,
)
from tapeflow.io.tfrecord import TFRecordOptions, TFRecordWriter, tf_record_iterator  # noqa: F401
from tapeflow.io.byte_codecs import decode_base64, decode_compressed, decode_raw, encode_base64  # noqa: F401
from tapeflow.io.graph_file import write_graph  # noqa: F401

__all__ = ["gfile", "FixedLenFeature", "FixedLenSequenceFeature", "RaggedFeature", "VarLenFeature", "decode_csv", "parse_example",
           "parse_single_example", "parse_tensor", "read_file", "serialize_tensor", "write_file", "write_graph",
           "TFRecordOptions", "TFRecordWriter", "decode_bmp", "decode_gif", "decode_image", "decode_jpeg",
           "decode_png", "encode_jpeg", "encode_png", "extract_jpeg_shape", "is_jpeg", "decode_base64",
           "decode_compressed", "decode_raw", "encode_base64", "matching_files", "SparseFeature",
           "serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse", "decode_and_crop_jpeg", "decode_json_example",
           "parse_sequence_example", "parse_single_sequence_example"]
