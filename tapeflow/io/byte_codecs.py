"""tf.io's byte-level codecs of string tensors: web-safe base64 (encode_base64 /
decode_base64), decode_compressed (ZLIB / GZIP) and decode_raw (the bytes of each
string read as numbers of a dtype), with TensorFlow's errors for bad input."""
import base64
import binascii
import gzip
import zlib

import numpy as np

from tapeflow.io.ops import _strings
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import DataLossError, InvalidArgumentError, with_location
from tapeflow.runtime.registry import Aval, bind, defprim


def _each(fn, a):
    flat = [fn(v) for v in np.asarray(a).reshape(-1).tolist()]
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    return out.reshape(np.shape(a))


def _decode_base64(b):
    try:
        return base64.b64decode(b + b"=" * (-len(b) % 4), altchars=b"-_", validate=True)
    except (binascii.Error, ValueError):
        raise InvalidArgumentError(f"Invalid character found in base64: {b[:40]!r}") from None


def _decompress(b, kind):
    try:
        if kind == "ZLIB":
            return zlib.decompress(b)
        if kind == "GZIP":
            return gzip.decompress(b)
    except (zlib.error, OSError, EOFError) as exc:
        raise DataLossError(f"decode_compressed: {kind} data is corrupt: {exc}") from None
    return b


def _codec_impl(xp, x, codec, pad, compression):
    if codec == "encode_base64":
        return _each(lambda b: base64.urlsafe_b64encode(b) if pad else base64.urlsafe_b64encode(b).rstrip(b"="), x)
    if codec == "decode_base64":
        return _each(_decode_base64, x)
    return _each(lambda b: _decompress(b, compression), x)


# One kernel family over string tensors, chosen by the `codec` attr.
STRING_CODEC = defprim("string_codec", _codec_impl, lambda x, **attrs: Aval(x.shape, dtypes.string), None)


def _decode_raw_impl(xp, x, out_type, little_endian, fixed_length):
    dtype = np.dtype(out_type.np).newbyteorder("<" if little_endian else ">")
    flat = np.asarray(x).reshape(-1).tolist()
    if fixed_length is not None:
        flat = [b[:fixed_length].ljust(fixed_length, b"\0") for b in flat]
    lengths = {len(b) for b in flat}
    if len(lengths) > 1:
        raise InvalidArgumentError(f"DecodeRaw requires input strings to all be the same size, but "
                                   f"lengths {sorted(lengths)[:2]} differ")
    width = lengths.pop() if lengths else 0
    if width % dtype.itemsize:
        raise InvalidArgumentError(f"Input to DecodeRaw has length {width} that is not a multiple of "
                                   f"{dtype.itemsize}, the size of {out_type.name}")
    n = width // dtype.itemsize
    out = np.frombuffer(b"".join(flat), dtype=dtype).astype(out_type.np) if flat else np.zeros(0, out_type.np)
    return out.reshape(np.shape(x) + (n,))


def _decode_raw_rule(x, out_type, little_endian, fixed_length):
    n = None if fixed_length is None else fixed_length // out_type.size
    return Aval(tuple(x.shape) + (n,), out_type)


DECODE_RAW = defprim("decode_raw", _decode_raw_impl, _decode_raw_rule, None)


def encode_base64(input, pad=False, name=None):  # noqa: A002 - TensorFlow's names
    return bind(STRING_CODEC, (_strings(input, "encode_base64", "input"),),
                {"codec": "encode_base64", "pad": bool(pad), "compression": ""})


def decode_base64(input, name=None):  # noqa: A002
    return bind(STRING_CODEC, (_strings(input, "decode_base64", "input"),),
                {"codec": "decode_base64", "pad": False, "compression": ""})


def decode_compressed(bytes, compression_type="", name=None):  # noqa: A002
    kind = (compression_type or "").upper()
    if kind not in ("", "ZLIB", "GZIP"):
        raise InvalidArgumentError(with_location(f"decode_compressed: compression_type must be '', 'ZLIB' or "
                                                 f"'GZIP', got {compression_type!r}"))
    return bind(STRING_CODEC, (_strings(bytes, "decode_compressed", "bytes"),),
                {"codec": "decode_compressed", "pad": False, "compression": kind})


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):
    out_type = dtypes.as_dtype(out_type)
    if out_type.is_string or out_type.is_bool:
        raise TypeError(with_location(f"decode_raw: out_type must be numeric, got {out_type.name}"))
    return bind(DECODE_RAW, (_strings(input_bytes, "decode_raw", "input_bytes"),),
                {"out_type": out_type, "little_endian": bool(little_endian),
                 "fixed_length": None if fixed_length is None else int(fixed_length)})
