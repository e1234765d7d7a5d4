"""A small protobuf message class for the few schemas tapeflow reads and writes.

Why not the `protobuf` package: tf.train.Example's schema is six tiny messages of
repeated scalars, one oneof and one map; a hand-written codec over tapeflow/io/wire.py
is ~300 lines, adds no dependency (and no descriptor-pool clashes with an installed
TensorFlow), and its bytes are checked against real TensorFlow's in the tests.

A message class declares FIELDS: name -> (number, kind), kind one of
  Repeated(coerce, "packed-varint" | "packed-float" | "bytes")   repeated scalars
  SubMessage(cls)            a singular message field (proto3: has presence)
  MapField(cls)              map<string, cls>
  RepeatedMessage(cls)       repeated cls
and ONEOF = (oneof name, (field names...)).

Presence follows protobuf: reading an unset message field gives an empty message that
becomes set (in its parent, up the chain) once it is modified.  Serialization writes
fields in number order and map entries sorted by key: byte-for-byte what TensorFlow's
SerializeToString(deterministic=True) writes.  (TensorFlow's default order of map
entries is its hash table's, different in every process.)
"""
import math
import operator
import struct

import numpy as np

from tapeflow.io import wire


# ------------------------------------------------------------------ scalar coercion

def coerce_int64(v):
    """What protobuf takes for an int64: anything with __index__ (ints, NumPy integers and
    0-d integer arrays, integer scalar tensors), except a bool."""
    if isinstance(v, (bool, np.bool_)):
        raise TypeError(f"Expected an int, got a boolean: {v!r}")
    try:
        v = operator.index(v)
    except TypeError:
        raise TypeError(f"'{type(v).__name__}' object cannot be interpreted as an integer") from None
    if not -(1 << 63) <= v < (1 << 63):
        raise ValueError(f"Value out of range: {v}")
    return v


def coerce_float(v):
    """What protobuf takes for a float: anything with __float__ or __index__ (scalar tensors
    included), but not text, bytes or a NumPy array (even 0-d)."""
    if isinstance(v, (str, bytes, np.ndarray)) or not (hasattr(v, "__float__") or hasattr(v, "__index__")):
        raise TypeError(f"must be real number, not {type(v).__name__}")
    return float(np.float32(float(v)))  # a proto float holds float32: reading it back gives the rounded value


def coerce_bytes(v):
    if isinstance(v, str):
        raise TypeError("expected bytes, str found")
    if not isinstance(v, (bytes, bytearray, memoryview)):
        raise TypeError(f"expected bytes, {type(v).__name__} found")
    return bytes(v)


# ------------------------------------------------------------------ field kinds

class Repeated:
    def __init__(self, coerce, encoding):
        self.coerce, self.encoding = coerce, encoding


class SubMessage:
    def __init__(self, cls_name):
        self.cls_name = cls_name


class MapField:
    def __init__(self, cls_name):
        self.cls_name = cls_name


class RepeatedMessage:
    def __init__(self, cls_name):
        self.cls_name = cls_name


_CLASSES = {}


class RepeatedScalars(list):
    """A repeated scalar field: a list that checks what goes in and marks its message set."""

    def __init__(self, coerce, on_change, values=()):
        self._coerce, self._on_change = coerce, on_change
        super().__init__(coerce(v) for v in values)

    def _changed(self):
        if self._on_change is not None:
            self._on_change()

    def append(self, v):
        super().append(self._coerce(v))
        self._changed()

    def extend(self, values):
        super().extend([self._coerce(v) for v in values])
        self._changed()

    def insert(self, i, v):
        super().insert(i, self._coerce(v))
        self._changed()

    def __setitem__(self, i, v):
        super().__setitem__(i, [self._coerce(x) for x in v] if isinstance(i, slice) else self._coerce(v))
        self._changed()

    def __iadd__(self, values):
        self.extend(values)
        return self

    def __delitem__(self, i):
        super().__delitem__(i)
        self._changed()

    def __reduce__(self):  # pickles / deep-copies as a plain list
        return (list, (list(self),))


class MessageMap(dict):
    """A map<string, Message> field: reading a missing key adds an empty entry (as protobuf)."""

    def __init__(self, cls, on_change):
        super().__init__()
        self._cls, self._on_change = cls, on_change

    def __missing__(self, k):
        if not isinstance(k, str):
            raise TypeError(f"map keys are str, got {type(k).__name__}")
        entry = self._cls()
        dict.__setitem__(self, k, entry)
        self._on_change()
        return entry

    def __setitem__(self, k, v):
        raise ValueError("Direct assignment of submessage not allowed; use map[key].CopyFrom(value)")

    def get_or_create(self, k):
        return self[k]


class RepeatedMessages(list):
    def __init__(self, cls, on_change):
        super().__init__()
        self._cls, self._on_change = cls, on_change

    def add(self, **kwargs):
        m = self._cls(**kwargs)
        list.append(self, m)
        self._on_change()
        return m

    def append(self, m):
        self.add().CopyFrom(m)

    def extend(self, ms):
        for m in ms:
            self.append(m)


# ------------------------------------------------------------------ the message base

class Message:
    FIELDS = {}
    ONEOF = None
    FULL_NAME = ""

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        _CLASSES[cls.__name__] = cls
        cls._BY_NUMBER = {num: (name, kind) for name, (num, kind) in cls.FIELDS.items()}

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", {})
        object.__setattr__(self, "_set", set())
        object.__setattr__(self, "_on_change", None)
        for name, value in kwargs.items():
            if name not in self.FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            if value is None:
                continue
            self._assign(name, value)

    # -- field access
    def _mark(self, name):
        if self.ONEOF is not None and name in self.ONEOF[1]:
            for other in self.ONEOF[1]:
                if other != name and other in self._set:
                    self._set.discard(other)
                    self._values.pop(other, None)
        self._set.add(name)
        if self._on_change is not None:
            self._on_change()

    def _field(self, name):
        values = self._values
        if name in values:
            return values[name]
        _num, kind = self.FIELDS[name]
        on_change = (lambda: self._mark(name))
        if isinstance(kind, Repeated):
            value = RepeatedScalars(kind.coerce, on_change)
        elif isinstance(kind, SubMessage):
            value = _CLASSES[kind.cls_name]()
            object.__setattr__(value, "_on_change", on_change)
        elif isinstance(kind, MapField):
            value = MessageMap(_CLASSES[kind.cls_name], on_change)
        else:
            value = RepeatedMessages(_CLASSES[kind.cls_name], on_change)
        values[name] = value
        return value

    def __getattr__(self, name):
        if name.startswith("_") or name not in type(self).FIELDS:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return self._field(name)

    def __setattr__(self, name, value):
        if name not in self.FIELDS:
            raise AttributeError(f"Assignment not allowed (no field {name!r} in protocol message "
                                 f"object {type(self).__name__}).")
        kind = self.FIELDS[name][1]
        if not isinstance(kind, Repeated):
            raise AttributeError(f"Assignment not allowed to field \"{name}\" in protocol message object.")
        raise AttributeError(f"Assignment not allowed to repeated field \"{name}\" in protocol message object.")

    def _assign(self, name, value):
        kind = self.FIELDS[name][1]
        if isinstance(kind, Repeated):
            if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
                raise TypeError(f"{type(self).__name__}.{name}: expected a list of values, got {type(value).__name__}")
            field = self._field(name)
            list.extend(field, [kind.coerce(v) for v in value])
            self._mark(name)
        elif isinstance(kind, SubMessage):
            self._field(name).CopyFrom(_as_message(_CLASSES[kind.cls_name], value))
            self._mark(name)
        elif isinstance(kind, MapField):
            field = self._field(name)
            for k, v in dict(value).items():
                field[k].CopyFrom(_as_message(field._cls, v))
        else:
            field = self._field(name)
            for v in value:
                field.append(_as_message(field._cls, v))

    def HasField(self, name):
        kind = self.FIELDS.get(name, (None, None))[1]
        if not isinstance(kind, SubMessage) and not (self.ONEOF and name == self.ONEOF[0]):
            raise ValueError(f'Protocol message {type(self).__name__} has no singular "{name}" field.')
        if self.ONEOF and name == self.ONEOF[0]:
            return self.WhichOneof(name) is not None
        return name in self._set

    def WhichOneof(self, oneof):
        if not self.ONEOF or oneof != self.ONEOF[0]:
            raise ValueError(f'Protocol message has no oneof "{oneof}" field.')
        return next((n for n in self.ONEOF[1] if n in self._set), None)

    def ClearField(self, name):
        self._values.pop(name, None)
        self._set.discard(name)

    def Clear(self):
        self._values.clear()
        self._set.clear()

    def CopyFrom(self, other):
        if other is self:
            return
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other):
        if type(other) is not type(self):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"{type(self).__name__} got {type(other).__name__}.")
        self.MergeFromString(other.SerializeToString())
        if self._on_change is not None:
            self._on_change()

    def ListFields(self):
        out = []
        for name, (num, kind) in sorted(self.FIELDS.items(), key=lambda kv: kv[1][0]):
            value = self._values.get(name)
            if isinstance(kind, SubMessage):
                if name in self._set:
                    out.append((name, value))
            elif value:
                out.append((name, value))
        return out

    # -- encoding
    def SerializeToString(self, deterministic=True):
        out = []
        for name, (num, kind) in sorted(self.FIELDS.items(), key=lambda kv: kv[1][0]):
            value = self._values.get(name)
            if isinstance(kind, SubMessage):
                if name in self._set:
                    out.append(wire.length_delimited(num, value.SerializeToString()))
            elif not value:
                continue
            elif isinstance(kind, Repeated):
                out.append(_encode_repeated(num, kind.encoding, value))
            elif isinstance(kind, MapField):
                for k in sorted(value):
                    entry = wire.length_delimited(1, k.encode("utf-8")) + \
                        wire.length_delimited(2, value[k].SerializeToString())
                    out.append(wire.length_delimited(num, entry))
            else:
                out.extend(wire.length_delimited(num, m.SerializeToString()) for m in value)
        return b"".join(out)

    def ByteSize(self):
        return len(self.SerializeToString())

    def MergeFromString(self, data):
        for num, wtype, raw in wire.iter_fields(data):
            entry = self._BY_NUMBER.get(num)
            if entry is None:
                continue                     # unknown fields are skipped (not kept)
            name, kind = entry
            field = self._field(name)
            if isinstance(kind, Repeated):
                list.extend(field, _decode_repeated(kind.encoding, wtype, raw))
                self._mark(name)
            elif wtype != wire.BYTES:
                raise wire.DecodeError(f"{type(self).__name__}.{name}: wrong wire type {wtype}")
            elif isinstance(kind, SubMessage):
                field.MergeFromString(raw)
                self._mark(name)
            elif isinstance(kind, MapField):
                k, v = b"", b""
                for enum, ewtype, eraw in wire.iter_fields(raw):
                    if enum == 1 and ewtype == wire.BYTES:
                        k = eraw
                    elif enum == 2 and ewtype == wire.BYTES:
                        v = eraw
                try:
                    key = k.decode("utf-8")
                except UnicodeDecodeError:
                    raise wire.DecodeError("map key is not valid UTF-8") from None
                dict.pop(field, key, None)
                field[key].MergeFromString(v)
            else:
                field.add().MergeFromString(raw)
        return len(data)

    def ParseFromString(self, data):
        self.Clear()
        try:
            return self.MergeFromString(data)
        except wire.DecodeError:
            raise wire.DecodeError(f"Error parsing message with type '{self.FULL_NAME}'") from None

    @classmethod
    def FromString(cls, data):
        m = cls()
        m.ParseFromString(bytes(data))
        return m

    # -- comparison and text
    def __eq__(self, other):
        if type(other) is not type(self):
            return NotImplemented
        return self.SerializeToString() == other.SerializeToString()

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __str__(self):
        return "".join(_text_lines(self, ""))

    __repr__ = __str__

    def __reduce__(self):
        return (type(self).FromString, (self.SerializeToString(),))

    def __deepcopy__(self, memo):
        return type(self).FromString(self.SerializeToString())


def _as_message(cls, value):
    if isinstance(value, cls):
        return value
    if isinstance(value, dict):
        return cls(**value)
    raise TypeError(f"expected {cls.__name__} (or a dict of its fields), got {type(value).__name__}")


def _encode_repeated(num, encoding, values):
    if encoding == "bytes":
        return b"".join(wire.length_delimited(num, v) for v in values)
    if encoding == "packed-float":
        return wire.length_delimited(num, np.asarray(values, dtype="<f4").tobytes())
    return wire.length_delimited(num, wire.packed_varints(values))


def _decode_repeated(encoding, wtype, raw):
    if encoding == "bytes":
        if wtype != wire.BYTES:
            raise wire.DecodeError("bytes field with a non length-delimited wire type")
        return [raw]
    if encoding == "packed-float":
        if wtype == wire.FIXED32:           # an unpacked element
            return [struct.unpack("<f", raw)[0]]
        if wtype != wire.BYTES or len(raw) % 4:
            raise wire.DecodeError("malformed packed float field")
        return np.frombuffer(raw, dtype="<f4").astype(np.float64).tolist()
    if wtype == wire.VARINT:                # an unpacked element
        return [wire.signed64(raw)]
    if wtype != wire.BYTES:
        raise wire.DecodeError("malformed packed varint field")
    return [wire.signed64(v) for v in wire.read_packed_varints(raw)]


# ------------------------------------------------------------------ text format

def _float_text(v):
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    f = np.float32(v)
    for digits in range(1, 10):         # the shortest %g that reads back as the same float32
        s = "%.*g" % (digits, v)
        if np.float32(float(s)) == f:
            return s
    return repr(v)


def _bytes_text(b):
    out = []
    for byte in b:
        ch = chr(byte)
        if ch in '"\'\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append("\\%03o" % byte)
    return '"' + "".join(out) + '"'


def _scalar_text(v):
    if isinstance(v, bytes):
        return _bytes_text(v)
    if isinstance(v, float):
        return _float_text(v)
    return str(v)


def _text_lines(msg, indent):
    for name, (num, kind) in sorted(msg.FIELDS.items(), key=lambda kv: kv[1][0]):
        value = msg._values.get(name)
        if isinstance(kind, SubMessage):
            if name in msg._set:
                yield f"{indent}{name} {{\n"
                yield from _text_lines(value, indent + "  ")
                yield f"{indent}}}\n"
        elif not value:
            continue
        elif isinstance(kind, Repeated):
            for v in value:
                yield f"{indent}{name}: {_scalar_text(v)}\n"
        elif isinstance(kind, MapField):
            for k, v in value.items():
                yield f"{indent}{name} {{\n{indent}  key: {_bytes_text(k.encode('utf-8'))}\n"
                yield f"{indent}  value {{\n"
                yield from _text_lines(v, indent + "    ")
                yield f"{indent}  }}\n{indent}}}\n"
        else:
            for v in value:
                yield f"{indent}{name} {{\n"
                yield from _text_lines(v, indent + "  ")
                yield f"{indent}}}\n"
