"""tf.audio: 16-bit PCM WAV files to float32 samples in [-1, 1) and back, as
TensorFlow's DecodeWav / EncodeWav read and write them (a RIFF header, a "fmt "
chunk, other chunks skipped, one "data" chunk; samples / 32768 on the way in,
round(x * 32768) clamped to int16 on the way out)."""
import collections
import struct

import numpy as np

from tapeflow.io.image_ops import _contents
from tapeflow.io.ops import scalar_bytes
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor


def _parse_wav(data):
    """(int16 samples [frames, channels], sample rate) of WAV bytes; InvalidArgumentError if malformed."""
    def need(offset, size):
        if offset + size > len(data):
            raise InvalidArgumentError("Data too short when trying to read string")

    need(0, 12)
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise InvalidArgumentError(f"Header mismatch: expected RIFF...WAVE but got {data[:4]!r}...{data[8:12]!r}")
    offset, fmt = 12, None
    while True:
        if offset + 8 > len(data):
            raise InvalidArgumentError("No data chunk found in WAV")
        chunk, size = data[offset:offset + 4], struct.unpack("<I", data[offset + 4:offset + 8])[0]
        offset += 8
        if chunk == b"fmt ":
            need(offset, 16)
            audio_format, channels, rate, _, _, bits = struct.unpack("<HHIIHH", data[offset:offset + 16])
            if audio_format != 1:
                raise InvalidArgumentError(f"Bad audio format for WAV: Expected 1 (PCM), but got {audio_format}")
            if bits != 16:
                raise InvalidArgumentError(f"Can only read 16-bit WAV files, but received {bits}")
            if channels == 0:
                raise InvalidArgumentError("WAV file has no channels")
            fmt = (channels, rate)
        elif chunk == b"data":
            if fmt is None:
                raise InvalidArgumentError("The fmt chunk must come before the data chunk in a WAV file")
            need(offset, size)
            channels, rate = fmt
            frames = size // (2 * channels)
            samples = np.frombuffer(data, "<i2", frames * channels, offset).reshape(frames, channels)
            return samples, rate
        offset += size  # Trap: TensorFlow does not skip RIFF's pad byte after an odd-sized chunk


def _decode_wav_impl(xp, contents, desired_channels, desired_samples):
    samples, rate = _parse_wav(bytes(np.asarray(contents)[()]))
    audio = samples.astype(np.float32) / np.float32(32768.0)
    if desired_channels > 0:  # TensorFlow repeats the last channel when asked for more
        audio = audio[:, np.minimum(np.arange(desired_channels), audio.shape[1] - 1)]
    if desired_samples >= 0:
        audio = audio[:desired_samples]
        audio = np.pad(audio, [(0, desired_samples - audio.shape[0]), (0, 0)])
    return np.ascontiguousarray(audio), np.asarray(rate, np.int32)


def _decode_wav_rule(contents, desired_channels, desired_samples):
    return (Aval((desired_samples if desired_samples >= 0 else None, desired_channels if desired_channels > 0
                  else None), dtypes.float32), Aval((), dtypes.int32))


def _encode_wav_impl(xp, audio, sample_rate):
    return scalar_bytes(wav_bytes(audio, sample_rate))


def wav_bytes(audio, sample_rate):
    """A 16-bit PCM WAV file (bytes) of float audio [frames, channels] (also tf.summary.audio's)."""
    audio = np.asarray(audio, np.float32)
    frames, channels = audio.shape
    pcm = np.clip(np.round(audio * np.float32(32768.0)), -32768, 32767).astype("<i2").tobytes()
    rate = int(np.asarray(sample_rate))
    header = struct.pack("<4sI4s4sIHHIIHH4sI", b"RIFF", 36 + len(pcm), b"WAVE", b"fmt ", 16, 1, channels, rate,
                         rate * channels * 2, channels * 2, 16, b"data", len(pcm))
    return header + pcm


DecodeWav = collections.namedtuple("DecodeWav", ["audio", "sample_rate"])
DECODE_WAV = defprim("decode_wav", _decode_wav_impl, _decode_wav_rule, None, multiple_results=True)
ENCODE_WAV = defprim("encode_wav", _encode_wav_impl, lambda audio, rate: Aval((), dtypes.string), None)


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None):
    """(audio float32 [samples, channels], sample_rate int32) of a 16-bit PCM WAV file."""
    audio, rate = bind(DECODE_WAV, (_contents(contents, "decode_wav"),),
                       {"desired_channels": int(desired_channels), "desired_samples": int(desired_samples)})
    return DecodeWav(audio, rate)


def encode_wav(audio, sample_rate, name=None):
    audio = convert_to_tensor(audio, dtypes.float32)
    if audio.shape.rank != 2:
        raise InvalidArgumentError(with_location(f"encode_wav: audio must be [samples, channels], got {audio.shape}"))
    rate = convert_to_tensor(sample_rate, dtypes.int32)
    if rate.shape.rank != 0:
        raise InvalidArgumentError(with_location(f"encode_wav: sample_rate must be a scalar, got {rate.shape}"))
    return bind(ENCODE_WAV, (audio, rate), {})
