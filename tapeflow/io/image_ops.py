"""The image codec ops of tf.io and tf.image: decode_png / decode_jpeg / decode_gif /
decode_bmp / decode_image, encode_png / encode_jpeg, extract_jpeg_shape and is_jpeg.  Each
codec is one row of the op table over image_codec.py (which knows nothing of tensors); they
trace into tf.function graphs and tf.data map functions with TF's static shapes (height and
width unknown) and run there through the NumPy executor."""
import numpy as np

from tapeflow.io import image_codec as codec
from tapeflow.io.ops import _strings, scalar_bytes
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, UnimplementedError, with_location
from tapeflow.runtime.ops import math_ops
from tapeflow.runtime.registry import Aval, bind, defprim, state
from tapeflow.runtime.tensor import convert_to_tensor


def _bytes(contents):
    return bytes(np.asarray(contents)[()])


def _run(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except codec.ImageUnsupported as exc:
        raise UnimplementedError(str(exc)) from None
    except codec.ImageError as exc:
        raise InvalidArgumentError(str(exc)) from None


def _channels_rule(rank, dtype_attr=None):
    def rule(contents, channels=0, dtype=None, **attrs):
        dtype = dtypes.as_dtype(dtype or dtype_attr or "uint8")
        return Aval((None,) * (rank - 1) + (channels or None,), dtype)
    return rule


def _decode_png_impl(xp, contents, channels, dtype):
    return _run(codec.decode, _bytes(contents), "decode_png", channels, dtype)


def _decode_jpeg_impl(xp, contents, channels, ratio, fancy_upscaling, dct_method):
    return _run(codec.decode, _bytes(contents), "decode_jpeg", channels,
                jpeg_options={"ratio": ratio, "fancy_upscaling": fancy_upscaling, "dct_method": dct_method})


def _decode_gif_impl(xp, contents):
    return _run(codec.decode, _bytes(contents), "decode_gif", frames="all")


def _decode_bmp_impl(xp, contents, channels):
    return _run(codec.decode_bmp, _bytes(contents), channels)  # BMP only: it checks the bytes


def _encode_png_impl(xp, image, compression):
    return scalar_bytes(_run(codec.encode_png, np.asarray(image), compression))


def _encode_jpeg_impl(xp, image, **settings):
    return scalar_bytes(_run(codec.encode_jpeg, np.asarray(image), **settings))


def _jpeg_shape_impl(xp, contents, output_type):
    return np.asarray(_run(codec.jpeg_shape, _bytes(contents)), dtype=dtypes.as_dtype(output_type).np)


def _decode_image_impl(xp, contents, channels, expand_animations, dtype):
    return _run(codec.decode, _bytes(contents), "decode_image", channels, dtype,
                frames="gif" if expand_animations else "first")


def _decode_image_rule(contents, channels, expand_animations, dtype):
    return Aval(None if expand_animations else (None, None, channels or None), dtypes.as_dtype(dtype))


def _string_rule(image, **attrs):
    return Aval((), dtypes.string)


DECODE_PNG = defprim("decode_png", _decode_png_impl, _channels_rule(3))
DECODE_JPEG = defprim("decode_jpeg", _decode_jpeg_impl, _channels_rule(3, "uint8"))
DECODE_GIF = defprim("decode_gif", _decode_gif_impl, lambda contents: Aval((None, None, None, 3), dtypes.uint8))
DECODE_BMP = defprim("decode_bmp", _decode_bmp_impl, _channels_rule(3, "uint8"))
DECODE_IMAGE = defprim("decode_image", _decode_image_impl, _decode_image_rule)
ENCODE_PNG = defprim("encode_png", _encode_png_impl, _string_rule)
ENCODE_JPEG = defprim("encode_jpeg", _encode_jpeg_impl, _string_rule)
EXTRACT_JPEG_SHAPE = defprim("extract_jpeg_shape", _jpeg_shape_impl,
                             lambda contents, output_type: Aval((3,), dtypes.as_dtype(output_type)))


def _contents(contents, op):
    t = _strings(contents, op, "contents")
    if t.shape.rank != 0:  # TF: InvalidArgumentError eagerly, ValueError while tracing
        error = ValueError if state.graph is not None else InvalidArgumentError
        raise error(with_location(f"{op}: contents must be a scalar string (rank 0), got shape {t.shape}"))
    return t


def _channels(channels, op, allowed):
    channels = 0 if channels is None else int(channels)
    if channels not in allowed:
        raise InvalidArgumentError(with_location(f"{op}: channels must be one of {allowed}, got {channels}"))
    return channels


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise InvalidArgumentError(with_location(  # TF's type (eager)
            f"decode_png: dtype must be uint8 or uint16, got {dtype.name}"))
    return bind(DECODE_PNG, (_contents(contents, "decode_png"),),
                {"channels": _channels(channels, "decode_png", (0, 1, 3, 4)), "dtype": dtype.name})


def decode_jpeg(contents, channels=0, ratio=1, fancy_upscaling=True, try_recover_truncated=False,
                acceptable_fraction=1, dct_method="", name=None):
    if int(ratio) not in (1, 2, 4, 8):
        raise InvalidArgumentError(with_location(f"decode_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}"))
    return bind(DECODE_JPEG, (_contents(contents, "decode_jpeg"),),
                {"channels": _channels(channels, "decode_jpeg", (0, 1, 3)), "ratio": int(ratio),
                 "fancy_upscaling": bool(fancy_upscaling), "dct_method": str(dct_method)})


def decode_and_crop_jpeg(contents, crop_window, channels=0, ratio=1, fancy_upscaling=True,
                         try_recover_truncated=False, acceptable_fraction=1, dct_method="", name=None):
    """The window [y, x, height, width] of a JPEG, decoded as TF's DecodeAndCropJpeg (libjpeg's
    crop region: the filtered chroma at its edges is not a full decode's); a window not inside
    the image is InvalidArgumentError. A numpy_function (no primitive): it traces, no gradient."""
    from tapeflow.tracer.py_function import numpy_function
    channels = _channels(channels, "decode_and_crop_jpeg", (0, 1, 3))
    if int(ratio) not in (1, 2, 4, 8):
        raise InvalidArgumentError(with_location(f"decode_and_crop_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}"))
    window = convert_to_tensor(crop_window, dtypes.int32)
    if window.shape.as_list() != [4]:
        raise InvalidArgumentError(with_location(
            f"decode_and_crop_jpeg: crop_window must be a vector of 4 ints [y, x, height, width], got shape "
            f"{window.shape.as_list()}"))
    options = {"ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling), "dct_method": str(dct_method)}

    def decode(data, win):
        y, x, h, w = (int(v) for v in win)
        rows, cols = _run(codec.jpeg_shape, _bytes(data))[:2]
        rows, cols = -(-rows // options["ratio"]), -(-cols // options["ratio"])
        if min(y, x) < 0 or h <= 0 or w <= 0 or y + h > rows or x + w > cols:
            raise InvalidArgumentError(f"decode_and_crop_jpeg: jpeg::Uncompress failed. Invalid JPEG data or "
                                       f"crop window [{y}, {x}, {h}, {w}] of a {rows}x{cols} image.")
        image = _run(codec.decode, _bytes(data), "decode_jpeg", channels,
                     jpeg_options=dict(options, columns=(x, w)))
        return np.ascontiguousarray(image[y:y + h])

    from tapeflow.tracer.signature import TensorSpec
    return numpy_function(decode, [_contents(contents, "decode_and_crop_jpeg"), window],
                          TensorSpec([None, None, channels or None], dtypes.uint8))


def decode_gif(contents, name=None):
    return bind(DECODE_GIF, (_contents(contents, "decode_gif"),), {})


def decode_bmp(contents, channels=0, name=None):
    return bind(DECODE_BMP, (_contents(contents, "decode_bmp"),),
                {"channels": _channels(channels, "decode_bmp", (0, 1, 3, 4))})


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None, expand_animations=True):
    """Any of JPEG, PNG, GIF and BMP, by the leading bytes: (h, w, c), or (frames, h, w, 3) for
    a GIF when expand_animations (so the rank is unknown until it runs); a float dtype scales
    the file's own depth to [0, 1] as convert_image_dtype."""
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16) and not dtype.is_floating:
        raise TypeError(with_location(f"decode_image: dtype must be uint8, uint16 or a float type, got {dtype.name}"))
    return bind(DECODE_IMAGE, (_contents(contents, "decode_image"),),
                {"channels": _channels(channels, "decode_image", (0, 1, 3, 4)),
                 "expand_animations": bool(expand_animations), "dtype": dtype.name})


def encode_png(image, compression=-1, name=None):
    image = convert_to_tensor(image)
    if image.shape.rank != 3 or image.dtype not in (dtypes.uint8, dtypes.uint16) or image.shape[-1] not in (1, 2, 3, 4):
        raise InvalidArgumentError(with_location(
            f"encode_png: image must be (height, width, 1..4) uint8 or uint16, got {image.dtype.name}{image.shape}"))
    return bind(ENCODE_PNG, (image,), {"compression": int(compression)})


def encode_jpeg(image, format="", quality=95, progressive=False, optimize_size=False,  # noqa: A002 - TF's name
                chroma_downsampling=True, density_unit="in", x_density=300, y_density=300, xmp_metadata="",
                name=None):
    image = convert_to_tensor(image)
    if image.shape.rank != 3 or image.dtype is not dtypes.uint8 or image.shape[-1] not in (1, 3):
        raise InvalidArgumentError(with_location(
            f"encode_jpeg: image must be (height, width, 1 or 3) uint8, got {image.dtype.name}{image.shape}"))
    if format not in ("", "grayscale", "rgb") or xmp_metadata:
        raise InvalidArgumentError(with_location(
            f"encode_jpeg: format must be '', 'grayscale' or 'rgb' (and xmp_metadata empty), got {format!r}"))
    return bind(ENCODE_JPEG, (image,), {"quality": int(quality), "progressive": bool(progressive),
                                        "optimize_size": bool(optimize_size),
                                        "chroma_downsampling": bool(chroma_downsampling),
                                        "density_unit": density_unit, "x_density": int(x_density),
                                        "y_density": int(y_density)})


def extract_jpeg_shape(contents, output_type=dtypes.int32, name=None):
    return bind(EXTRACT_JPEG_SHAPE, (_contents(contents, "extract_jpeg_shape"),),
                {"output_type": dtypes.as_dtype(output_type).name})


def is_jpeg(contents, name=None):
    """Whether contents start with JPEG's marker bytes (works on any string tensor)."""
    from tapeflow import strings
    return math_ops.equal(strings.substr(_strings(contents, "is_jpeg", "contents"), 0, 3), b"\xff\xd8\xff")
