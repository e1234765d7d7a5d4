"""The protobuf wire format, written by hand: varints, field keys, length-delimited
payloads, and a field reader.  TensorBoard event files (tapeflow.summary), tf.train.Example
and tf.io.serialize_tensor are all encoded with these few functions, so the package needs
no protobuf runtime (see tapeflow/io/proto_message.py for why).

Wire types: 0 varint, 1 fixed 64-bit, 2 length-delimited, 5 fixed 32-bit.
"""
import struct

VARINT, FIXED64, BYTES, FIXED32 = 0, 1, 2, 5


class DecodeError(Exception):
    """Bytes that are not a valid encoding of the message (protobuf's message.DecodeError)."""


def varint(n):
    n &= (1 << 64) - 1  # negative int64s are ten bytes of two's complement, as protobuf does
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def key(field, wire):
    return varint((field << 3) | wire)


def double(field, value):
    return key(field, FIXED64) + struct.pack("<d", float(value))


def float32(field, value):
    return key(field, FIXED32) + struct.pack("<f", float(value))


def int64(field, value):
    return key(field, VARINT) + varint(int(value))


def length_delimited(field, payload):
    if isinstance(payload, str):
        payload = payload.encode("utf-8")
    return key(field, BYTES) + varint(len(payload)) + bytes(payload)


def packed_doubles(field, values):
    return length_delimited(field, b"".join(struct.pack("<d", float(v)) for v in values))


def packed_varints(values):
    """The payload of a packed repeated int64/int32/bool field (without its key)."""
    return b"".join(varint(int(v)) for v in values)


def signed64(n):
    return n - (1 << 64) if n >= 1 << 63 else n


def read_varint(data, pos):
    shift = result = 0
    end = len(data)
    while True:
        if pos >= end or shift > 63:
            raise DecodeError("truncated or overlong varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def iter_fields(data):
    """(field number, wire type, value) of each field of one message, in wire order: an int
    for varints, bytes for fixed-width and length-delimited fields.  Truncated or unknown
    encodings raise DecodeError."""
    pos, end = 0, len(data)
    while pos < end:
        k, pos = read_varint(data, pos)
        field, wire = k >> 3, k & 7
        if field == 0:
            raise DecodeError("field number 0")
        if wire == VARINT:
            value, pos = read_varint(data, pos)
        elif wire == BYTES:
            n, pos = read_varint(data, pos)
            if pos + n > end:
                raise DecodeError(f"length-delimited field {field} runs past the end")
            value, pos = bytes(data[pos:pos + n]), pos + n
        elif wire in (FIXED64, FIXED32):
            n = 8 if wire == FIXED64 else 4
            if pos + n > end:
                raise DecodeError(f"fixed-width field {field} runs past the end")
            value, pos = bytes(data[pos:pos + n]), pos + n
        else:
            raise DecodeError(f"unsupported wire type {wire} for field {field}")
        yield field, wire, value


def read_packed_varints(payload):
    out, pos = [], 0
    while pos < len(payload):
        v, pos = read_varint(payload, pos)
        out.append(v)
    return out


def fields(data):
    """{field number: [raw values]} of one message (see iter_fields)."""
    out = {}
    for field, _wire, value in iter_fields(data):
        out.setdefault(field, []).append(value)
    return out
