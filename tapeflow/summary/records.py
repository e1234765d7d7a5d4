"""TFRecord framing with CRC32C, as TensorBoard event files use it.

A record is: uint64 length, uint32 masked CRC32C of those 8 bytes, the data,
uint32 masked CRC32C of the data (all little-endian).  CRC32C (Castagnoli,
reflected polynomial 0x82F63B78) is computed here table-driven, one byte at a
time: event files are small, and this keeps the package free of dependencies."""
import struct


def _make_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return tuple(table)


_TABLE = _make_table()


def crc32c(data, crc=0):
    """CRC32C of `data` (bytes), continuing from `crc`; crc32c(b"123456789") == 0xE3069283."""
    crc ^= 0xFFFFFFFF
    table = _TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data):
    """TFRecord's mask: rotate right by 15 bits and add a constant (mod 2**32)."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def frame(data):
    """The bytes of one record holding `data`."""
    header = struct.pack("<Q", len(data))
    return header + struct.pack("<I", masked_crc32c(header)) + bytes(data) + \
        struct.pack("<I", masked_crc32c(data))


def read_records(path):
    """The data of every record in a TFRecord file, checking both CRCs; a corrupt or
    cut-off record is an error naming the file and the byte offset."""
    with open(path, "rb") as f:
        blob = f.read()
    out, pos = [], 0
    while pos < len(blob):
        if pos + 12 > len(blob):
            raise ValueError(f"{path}: truncated record header at byte {pos}")
        header = blob[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (header_crc,) = struct.unpack("<I", blob[pos + 8:pos + 12])
        if header_crc != masked_crc32c(header):
            raise ValueError(f"{path}: corrupt record length at byte {pos} (CRC mismatch)")
        start, end = pos + 12, pos + 12 + length
        if end + 4 > len(blob):
            raise ValueError(f"{path}: truncated record at byte {pos}")
        data = blob[start:end]
        (data_crc,) = struct.unpack("<I", blob[end:end + 4])
        if data_crc != masked_crc32c(data):
            raise ValueError(f"{path}: corrupt record data at byte {pos} (CRC mismatch)")
        out.append(data)
        pos = end + 4
    return out
