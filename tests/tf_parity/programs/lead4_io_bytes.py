"""tf.io's byte codecs as record-parsing programs use them: web-safe base64,
decode_compressed, decode_raw (endianness, fixed_length, errors), in tf.data maps
and tf.function; tf.as_string at the top level."""
import gzip
import zlib
from _sweep import outcomes


def program_base64(tf):
    x = tf.constant([b"hello?>", b"a", b"\xff\xfe\x00z", b""])
    enc = tf.io.encode_base64(x)
    out = {"enc": enc, "pad": tf.io.encode_base64(x, pad=True), "dec": tf.io.decode_base64(enc),
           "dec_pad": tf.io.decode_base64(tf.io.encode_base64(x, pad=True)), "scalar": tf.io.encode_base64("ab")}
    try:
        tf.io.decode_base64("!!!")
        out["bad"] = "ok"
    except Exception as e:  # noqa: BLE001
        out["bad"] = type(e).__name__
    return out


def program_decode_compressed(tf):
    out = {"zlib": tf.io.decode_compressed(tf.constant([zlib.compress(b"abc"), zlib.compress(b"")]), "ZLIB"),
           "gzip": tf.io.decode_compressed(gzip.compress(b"xyz"), "GZIP"), "none": tf.io.decode_compressed(b"plain")}
    try:
        tf.io.decode_compressed(b"not zlib", "ZLIB")
        out["bad"] = "ok"
    except Exception as e:  # noqa: BLE001
        out["bad"] = type(e).__name__
    return out


def program_decode_raw(tf):
    out = {"i16": tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"]), tf.int16),
           "big": tf.io.decode_raw(tf.constant(b"\x01\x00\x02\x00"), tf.int16, little_endian=False),
           "fixed": tf.io.decode_raw(tf.constant([b"\x01\x02", b"\x03"]), tf.uint8, fixed_length=3),
           "f32": tf.io.decode_raw(tf.io.serialize_tensor(tf.constant(1.5))[-4:], tf.float32),
           "f64": tf.io.decode_raw(tf.constant([b"\x00" * 7 + b"\x40"]), tf.float64),
           "empty": tf.io.decode_raw(tf.constant([b"", b""]), tf.int32)}
    out.update(outcomes({"sizes": lambda: tf.io.decode_raw(tf.constant([b"\x01\x02", b"\x03"]), tf.uint8),
                         "multiple": lambda: tf.io.decode_raw(tf.constant(b"\x01\x02\x03"), tf.int16)}))
    return out


def program_raw_records_pipeline(tf):
    import numpy as np
    images = (np.arange(3 * 4, dtype=np.uint8).reshape(3, 4) * 7).astype(np.uint8)
    records = tf.data.Dataset.from_tensor_slices([row.tobytes() for row in images])

    def parse(record):
        pixels = tf.io.decode_raw(record, tf.uint8)
        return tf.cast(tf.reshape(pixels, [2, 2]), tf.float32) / 255.0

    parsed = records.map(parse)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.string)])
    def batch_decode(b):
        return tf.io.decode_raw(b, tf.uint8)

    return {"parsed": list(parsed), "spec": parsed.element_spec, "batch": batch_decode(tf.constant([b"ab", b"cd"])),
            "traced_shape": batch_decode.get_concrete_function().structured_outputs.shape,
            "as_string": tf.as_string(tf.constant([1.5, 2.0]), precision=2)}
