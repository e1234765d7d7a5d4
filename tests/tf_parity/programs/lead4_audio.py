"""tf.audio as the audio recognition tutorial uses it: WAV bytes written and read
back, channel and sample counts, malformed files, and the decode -> squeeze -> STFT
spectrogram pipeline inside tf.data."""
import io
import struct
import wave

from parity import tolerance


def _wav(frames, channels=1, width=2, rate=8000, extra_chunk=None):
    buf = io.BytesIO()
    w = wave.open(buf, "wb")
    w.setnchannels(channels)
    w.setsampwidth(width)
    w.setframerate(rate)
    w.writeframes(frames)
    w.close()
    data = buf.getvalue()
    if extra_chunk is not None:  # a LIST chunk between fmt and data (an odd size gets RIFF's pad byte)
        body = extra_chunk + b"\x00" * (len(extra_chunk) % 2)
        data = data[:36] + b"LIST" + struct.pack("<I", len(extra_chunk)) + body + data[36:]
        data = data[:4] + struct.pack("<I", len(data) - 8) + data[8:]
    return data


def program_encode_decode(tf):
    x = tf.constant([[0.0, 0.5], [-1.0, 1.0], [0.25, -0.3333], [2.0, -2.0], [1e-5, -1e-5]])
    wav = tf.audio.encode_wav(x, 16000)
    audio, rate = tf.audio.decode_wav(wav)
    named = tf.audio.decode_wav(wav, desired_channels=1)
    return {"bytes": wav, "audio": audio, "rate": rate, "mono": named.audio, "named_rate": named.sample_rate,
            "three": tf.audio.decode_wav(wav, desired_channels=3).audio,
            "padded": tf.audio.decode_wav(wav, desired_samples=7).audio,
            "cut": tf.audio.decode_wav(wav, desired_samples=2).audio}


def program_foreign_files(tf):
    pcm = struct.pack("<6h", 0, 1000, -1000, 32767, -32768, 5)
    out = {"mono": tf.audio.decode_wav(_wav(pcm)), "stereo": tf.audio.decode_wav(_wav(pcm, channels=2)),
           "chunk": tf.audio.decode_wav(_wav(pcm, extra_chunk=b"abcd")).audio}
    for name, data in {"8bit": _wav(b"\x00\x01\x02\x03", width=1), "24bit": _wav(bytes(6), width=3),
                       "short": b"RIFFjunk", "odd_chunk": _wav(pcm, extra_chunk=b"abc"), "not_riff": b"X" * 64}.items():
        try:
            tf.audio.decode_wav(data)
            out[name] = "ok"
        except Exception as e:  # noqa: BLE001
            out[name] = type(e).__name__
    return out


@tolerance(rtol=1e-4, atol=1e-5)
def program_spectrogram_pipeline(tf):
    import numpy as np
    t = np.arange(400, dtype=np.float32)
    clips = [(np.sin(t * f) * 0.5 * 32767).astype("<i2").tobytes() for f in (0.05, 0.2, 0.4)]
    files = tf.data.Dataset.from_tensor_slices([_wav(c) for c in clips])

    def spectrogram(contents):
        audio, _ = tf.audio.decode_wav(contents, desired_channels=1, desired_samples=512)
        waveform = tf.squeeze(audio, axis=-1)
        spec = tf.abs(tf.signal.stft(waveform, frame_length=255, frame_step=128))
        return spec[..., tf.newaxis]

    specs = files.map(spectrogram)
    first = next(iter(specs))
    return {"spec_shape": first.shape, "element_spec": specs.element_spec,
            "peaks": [tf.argmax(tf.reduce_sum(s[..., 0], 0)) for s in specs], "first_row": first[0, :6, 0]}


def program_in_function(tf):
    @tf.function
    def roundtrip(x, rate):
        audio, r = tf.audio.decode_wav(tf.audio.encode_wav(x, rate), desired_channels=1)
        return audio, r

    spec = roundtrip.get_concrete_function(tf.TensorSpec([None, 2], tf.float32), tf.TensorSpec([], tf.int32))
    audio, rate = roundtrip(tf.constant([[0.1, 0.2], [0.3, 0.4]]), tf.constant(44100))
    return {"audio": audio, "rate": rate, "shapes": [o.shape for o in spec.structured_outputs]}
