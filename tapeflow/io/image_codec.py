"""Image file formats as TensorFlow's codecs decode and encode them, over Pillow (the
`images` extra): PNG, JPEG, GIF and BMP bytes <-> NumPy arrays.  No tensors here.

Traps, all TF's own (measured against TF 2.21's libpng / libjpeg-turbo):
- PNG: RGB to one channel is libpng's (9797 R + 19234 G + 3737 B) >> 15; alpha is dropped
  without compositing; one or three channels asked of an image with alpha drop it, four
  add an opaque alpha; 16-bit samples to uint8 keep the high byte, 8-bit to uint16 repeat
  the byte (x * 257).
- JPEG: TF's default IDCT is libjpeg's fast integer one (JDCT_IFAST) with fancy chroma
  upsampling, a pairing Pillow does not offer: the chroma planes are read with Pillow's fast
  IDCT without upsampling (replicated samples), then upsampled with libjpeg's triangle filter
  and converted to RGB with libjpeg's integer tables here, bit for bit.  One channel asked of
  a colour JPEG is its luma plane (libjpeg's grayscale output).
"""
import io

import numpy as np

from tapeflow.io import png16


class ImageError(ValueError):
    """Bytes that are not an image of the expected format (TF's InvalidArgumentError)."""


class ImageUnsupported(NotImplementedError):
    """A valid image of a kind this codec does not decode as TF does (UnimplementedError)."""


def _pillow():
    try:
        from PIL import Image
    except ImportError:
        raise ImportError("tapeflow's image codecs need Pillow: pip install 'tapeflow[images]' "
                          "(or pip install pillow)") from None
    return Image


def _open(data, what):
    Image = _pillow()
    try:
        im = Image.open(io.BytesIO(data))
    except Exception as exc:  # noqa: BLE001 - Pillow raises many kinds for bad bytes
        raise ImageError(f"{what}: the data is not a valid image ({exc})") from None
    return im


def _load(im, what):
    try:
        im.load()
    except Exception as exc:  # noqa: BLE001 - truncated or corrupt data
        raise ImageError(f"{what}: invalid or truncated image data ({exc})") from None
    return im


def sniff(data):
    """'jpeg', 'png', 'gif', 'bmp' or None, from the first bytes (TF's decode_image rules)."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:3] == b"GIF":
        return "gif"
    if data[:2] == b"BM":
        return "bmp"
    return None


# ------------------------------------------------------------------ channel rules
def _rgb_to_gray(rgb):
    """libpng's rgb_to_gray with TF's weights (0.299, 0.587): integer, truncated."""
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    return ((9797 * r + 19234 * g + 3737 * b) >> 15).astype(rgb.dtype)[..., None]


def _with_channels(pixels, channels, opaque):
    """pixels (h, w, c) with c in 1..4 as `channels` (0: as they are), TF's PNG/GIF/BMP rules."""
    have = pixels.shape[-1]
    if channels in (0, have):
        return pixels
    color = pixels[..., :3] if have >= 3 else np.repeat(pixels[..., :1], 3, axis=-1)
    alpha = pixels[..., -1:] if have in (2, 4) else np.full(pixels.shape[:-1] + (1,), opaque, pixels.dtype)
    if channels == 1:
        return pixels[..., :1] if have <= 2 else _rgb_to_gray(color)
    if channels == 2:
        gray = pixels[..., :1] if have <= 2 else _rgb_to_gray(color)
        return np.concatenate([gray, alpha], axis=-1)
    if channels == 3:
        return color
    return np.concatenate([color, alpha], axis=-1)


# ------------------------------------------------------------------ PNG
_PNG_MODES = {"1": "L", "L": "L", "LA": "LA", "RGB": "RGB", "RGBA": "RGBA", "I;16": "I;16", "I;16B": "I;16",
              "I": "I;16"}


def decode_png(data, channels=0, dtype="uint8"):
    """(h, w, c) uint8 or uint16 ('native': the file's own depth)."""
    if sniff(data) != "png":
        raise ImageError("decode_png: the data is not a PNG image")
    if png16.is_sixteen_bit_colour(data):  # Pillow would keep only 8 bits of each sample
        pixels = png16.decode(data, ImageError, ImageUnsupported)
        if dtype == "uint8":
            pixels = (pixels >> 8).astype(np.uint8)
        return np.ascontiguousarray(_with_channels(pixels, channels, np.iinfo(pixels.dtype).max))
    im = _load(_open(data, "decode_png"), "decode_png")
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    elif im.mode == "1":
        im = im.convert("L")
    if im.mode in ("RGB", "RGBA") and im.info.get("bitdepth", 8) == 16 or im.mode not in _PNG_MODES:
        raise ImageUnsupported(f"decode_png: {im.mode} PNGs with 16-bit colour samples are not supported")
    pixels = np.asarray(im)
    sixteen = im.mode.startswith("I")
    if sixteen:
        pixels = pixels.astype(np.uint16)
    if pixels.ndim == 2:
        pixels = pixels[..., None]
    if dtype == "uint16" and not sixteen:
        pixels = pixels.astype(np.uint16) * 257
    elif dtype == "native":
        pass
    elif dtype == "uint8" and sixteen:
        pixels = (pixels >> 8).astype(np.uint8)
    return np.ascontiguousarray(_with_channels(pixels, channels, np.iinfo(pixels.dtype).max))


def encode_png(pixels, compression=-1):
    """bytes of a PNG of (h, w, c) uint8 or uint16 pixels, c in 1..4."""
    Image = _pillow()
    c = pixels.shape[-1]
    if pixels.dtype == np.uint16:
        if c != 1:
            return png16.encode(pixels, compression)
        plane = np.ascontiguousarray(pixels[..., 0]).astype("<u2")
        im = Image.frombytes("I;16", (plane.shape[1], plane.shape[0]), plane.tobytes())
    else:
        im = Image.fromarray(np.ascontiguousarray(pixels[..., 0] if c == 1 else pixels), {1: "L", 2: "LA", 3: "RGB",
                                                                                         4: "RGBA"}[c])
    out = io.BytesIO()
    im.save(out, "PNG", compress_level=6 if compression in (-1, None) else int(compression))
    return out.getvalue()


# ------------------------------------------------------------------ JPEG
def _fancy_h2(plane, width):
    """libjpeg's h2v1 triangle filter along the last axis: (..., n) -> (..., width)."""
    p = plane.astype(np.int32)
    left = np.concatenate([p[..., :1], p[..., :-1]], axis=-1)
    right = np.concatenate([p[..., 1:], p[..., -1:]], axis=-1)
    out = np.empty(p.shape[:-1] + (2 * p.shape[-1],), np.int32)
    out[..., 0::2] = (3 * p + left + 1) >> 2
    out[..., 1::2] = (3 * p + right + 2) >> 2
    return out[..., :width]


def _fancy_h2v2(plane, height, width):
    """libjpeg's h2v2 triangle filter: vertical 3:1 column sums, then horizontal with
    rounding 8 / 7 over 16; edge rows and columns are repeated."""
    p = plane.astype(np.int32)
    above = np.concatenate([p[:1], p[:-1]], axis=0)
    below = np.concatenate([p[1:], p[-1:]], axis=0)
    rows = np.empty((2 * p.shape[0], p.shape[1]), np.int32)
    rows[0::2] = 3 * p + above
    rows[1::2] = 3 * p + below
    left = np.concatenate([rows[:, :1], rows[:, :-1]], axis=1)
    right = np.concatenate([rows[:, 1:], rows[:, -1:]], axis=1)
    out = np.empty((rows.shape[0], 2 * rows.shape[1]), np.int32)
    out[:, 0::2] = (3 * rows + left + 8) >> 4
    out[:, 1::2] = (3 * rows + right + 7) >> 4
    return out[:height, :width]


def _fix(x):
    return int(x * 65536 + 0.5)


def _ycc_to_rgb(y, cb, cr):
    """libjpeg's ycc_rgb_convert: 16-bit fixed point tables, arithmetic shifts, clamped."""
    y, cb, cr = (a.astype(np.int64) for a in (y, cb, cr))
    cb, cr = cb - 128, cr - 128
    half = 1 << 15
    r = y + ((_fix(1.40200) * cr + half) >> 16)
    g = y + ((-_fix(0.34414) * cb + half - _fix(0.71414) * cr) >> 16)
    b = y + ((_fix(1.77200) * cb + half) >> 16)
    return np.clip(np.stack([r, g, b], axis=-1), 0, 255).astype(np.uint8)


def _jpeg_open(data, mode=None, scale=1, fast=True):
    """A JPEG Pillow image set to decode with the fast IDCT and no fancy upsampling (Pillow's
    'draft' decoding), or Pillow's default (accurate IDCT, fancy upsampling)."""
    im = _open(data, "decode_jpeg")
    if im.format != "JPEG":
        raise ImageError("decode_jpeg: the data is not a JPEG image")
    if scale > 1 and min(im.size) < scale:
        raise ImageUnsupported(f"decode_jpeg: ratio {scale} of a {im.size[1]}x{im.size[0]} image")
    if mode is not None or scale > 1:  # Pillow picks the largest scale s with size * s <= the image
        im.draft(mode or im.mode, None if scale == 1 else (im.size[0] // scale, im.size[1] // scale))
    im.decoderconfig = (im.decoderconfig[0] if im.decoderconfig else 1, 1 if fast else 0)
    return im


def decode_jpeg(data, channels=0, ratio=1, fancy_upscaling=True, dct_method="", columns=None):
    """(h, w, c) uint8, as TF's DecodeJpeg; columns=(x, w): only those columns, as TF's
    DecodeAndCropJpeg decodes them (see _fancy_columns)."""
    if ratio not in (1, 2, 4, 8):
        raise ImageError(f"decode_jpeg: ratio must be 1, 2, 4 or 8, got {ratio}")
    if dct_method not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
        raise ImageError(f"decode_jpeg: unknown dct_method {dct_method!r}")
    fast = dct_method != "INTEGER_ACCURATE"
    probe = _jpeg_open(data)
    if probe.mode not in ("L", "RGB"):
        raise ImageUnsupported(f"decode_jpeg: {probe.mode} JPEGs are not supported")
    color = probe.mode == "RGB"
    if not color or channels == 1:
        pixels = np.asarray(_load(_jpeg_open(data, "L" if color else None, ratio, fast), "decode_jpeg"))[..., None]
        if columns is not None:  # luma only: no upsampling, nothing at the edges differs
            pixels = pixels[:, columns[0]:columns[0] + columns[1]]
        return np.repeat(pixels, 3, axis=-1) if channels == 3 else pixels
    factors = [(h, v) for _, h, v, _ in getattr(probe, "layer", [])]
    # libjpeg upsamples chroma where its IDCT cannot be scaled to the luma's size (4:2:0 at
    # full size; 4:2:2 at every ratio, one DCT scale serving both axes), with its triangle
    # filter only when fancy_upscaling and the chroma plane is wider than 2 samples.
    upsampled = len(factors) == 3 and factors[0] != factors[1] and (ratio == 1 or factors[0] == (2, 1))
    if not upsampled or fast != fancy_upscaling:  # Pillow decodes (fast, plain) and (accurate, fancy)
        pixels = np.asarray(_load(_jpeg_open(data, None, ratio, fast), "decode_jpeg"))
        return pixels if columns is None else pixels[:, columns[0]:columns[0] + columns[1]]
    (hy, vy), (hc, vc) = factors[0], factors[1]
    if not fast or factors[2] != (hc, vc) or (hc, vc) != (1, 1) or (hy, vy) not in (
            (2, 2), (2, 1)):
        raise ImageUnsupported(f"decode_jpeg: chroma subsampling {factors} with dct_method={dct_method!r}, "
                               f"fancy_upscaling={fancy_upscaling} and ratio {ratio} is not supported")
    ycc = np.asarray(_load(_jpeg_open(data, "YCbCr", ratio, fast=True), "decode_jpeg"))
    plain = -(-ycc.shape[1] // hy) <= 2  # libjpeg picks plain upsampling by the whole image's width
    skip = 0
    if columns is not None:
        ycc, skip = _crop_region(ycc, columns, (8 // ratio) * hy)
        plain = plain or -(-ycc.shape[1] // hy) == 1  # a one-sample region: replicated (measured against TF)
    height, width = ycc.shape[:2]
    planes = [ycc[::vy, ::hy, i] for i in (1, 2)]  # the replicated samples are the decoded plane
    if plain:  # libjpeg's plain upsampling: the replicated planes as they are
        cb, cr = ycc[..., 1], ycc[..., 2]
    elif vy == 2:
        cb, cr = (_fancy_h2v2(p, height, width) for p in planes)
    else:
        cb, cr = (_fancy_h2(p, width) for p in planes)
    return _ycc_to_rgb(ycc[..., 0], cb, cr)[:, skip:]


def _crop_region(ycc, columns, align):
    """The columns libjpeg's jpeg_crop_scanline decodes for (x, w): from x rounded down to an
    iMCU column (`align` pixels) to x + w; its upsampler sees their edges as the image's (so
    the filtered chroma at the window's right edge differs from a full decode's). Returns the
    region and how many leading columns of it lie before x."""
    x, w = columns
    start = x // align * align
    return ycc[:, start:x + w], x - start


def jpeg_shape(data):
    """[height, width, channels] from the header."""
    im = _open(data, "extract_jpeg_shape")
    if im.format != "JPEG":
        raise ImageError("extract_jpeg_shape: the data is not a JPEG image")
    return [im.size[1], im.size[0], len(im.getbands())]


def encode_jpeg(pixels, quality=95, progressive=False, optimize_size=False, chroma_downsampling=True,
                density_unit="in", x_density=300, y_density=300):
    """bytes of a baseline (or progressive) JPEG of (h, w, 1 or 3) uint8 pixels, TF's settings."""
    Image = _pillow()
    c = pixels.shape[-1]
    if c not in (1, 3):
        raise ImageError(f"encode_jpeg: images must have 1 or 3 channels, got {c}")
    im = Image.fromarray(np.ascontiguousarray(pixels[..., 0] if c == 1 else pixels), "L" if c == 1 else "RGB")
    out = io.BytesIO()
    unit = {"in": 1, "cm": 2}[density_unit]
    im.save(out, "JPEG", quality=int(quality), progressive=bool(progressive), optimize=bool(optimize_size),
            subsampling="4:2:0" if chroma_downsampling and c == 3 else "4:4:4", dpi=(x_density, y_density))
    data = out.getvalue()
    if unit == 2:  # Pillow writes inches; the JFIF unit byte sits at offset 13
        data = data[:13] + b"\x02" + data[14:]
    return data


# ------------------------------------------------------------------ GIF, BMP, any
def decode(data, op, channels=0, dtype="uint8", frames="still", jpeg_options=None):
    """TF's DecodeImage family: decode_jpeg, decode_png and decode_gif each read JPEG, PNG and
    GIF, decode_image BMP too, by the leading bytes.  frames: 'still' (decode_jpeg/png: an
    animated GIF is an error), 'all' (decode_gif: every image as (frames, h, w, 3)), 'gif'
    (decode_image expanding animations: a GIF 4-D, others 3-D) or 'first' (decode_image
    without: a GIF's first frame)."""
    kind = sniff(data)
    bmp_too = frames in ("gif", "first")
    if kind is None or kind == "bmp" and not bmp_too:
        raise ImageError(f"{op}: Unknown image file format. One of JPEG, PNG, GIF{', BMP' if bmp_too else ''} "
                         f"required.")
    if kind == "gif":
        if channels not in (0, 3):
            raise ImageError(f"{op}: channels must be 0 or 3 for a GIF, got {channels}")
        image = decode_gif(data)
        if frames == "still" and len(image) > 1:
            raise ImageError(f"{op}: Got {len(image)} frames, but animated gifs can only be decoded by "
                             f"tf.io.decode_gif or tf.io.decode_image")
        if frames in ("still", "first"):
            image = image[0]
    elif kind == "png":  # a float result starts from the file's own depth
        image = decode_png(data, channels, dtype if dtype in ("uint8", "uint16") else "native")
    elif kind == "jpeg":
        if channels == 4:
            raise ImageError(f"{op}: channels must be 0, 1 or 3 for a JPEG, got 4")
        image = decode_jpeg(data, channels, **(jpeg_options or {}))
    else:
        image = decode_bmp(data, channels)
    if frames == "all" and image.ndim == 3:
        image = image[None]
    if dtype in ("uint16", "float16", "float64") and image.dtype == np.uint8:
        # libpng repeats the byte; the other decoders shift it
        image = image.astype(np.uint16) * 257 if kind == "png" else image.astype(np.uint16) << 8
    if dtype not in ("uint8", "uint16"):
        # TF's kernel: float32 from the decoded depth, float16 / float64 from 16 bits (so a
        # float16 white is inf: 65535 overflows before the scaling), each cast times 1 / max
        with np.errstate(over="ignore"):  # TF prints nothing for the float16 overflow
            image = image.astype(dtype) * np.dtype(dtype).type(1.0 / np.iinfo(image.dtype).max)
    return image


def decode_gif(data):
    """(frames, h, w, 3) uint8: every frame composed as TF's GIF decoder does."""
    if sniff(data) != "gif":
        raise ImageError("decode_gif: the data is not a GIF image")
    im = _open(data, "decode_gif")
    frames = []
    try:
        for index in range(getattr(im, "n_frames", 1)):
            im.seek(index)
            frames.append(np.asarray(im.convert("RGB")))
    except Exception as exc:  # noqa: BLE001
        raise ImageError(f"decode_gif: invalid GIF data ({exc})") from None
    return np.stack(frames)


def decode_bmp(data, channels=0):
    if sniff(data) != "bmp":
        raise ImageError("decode_bmp: the data is not a BMP image")
    im = _load(_open(data, "decode_bmp"), "decode_bmp")
    if im.mode not in ("RGB", "RGBA", "L"):
        im = im.convert("RGB")
    pixels = np.asarray(im)
    pixels = pixels[..., None] if pixels.ndim == 2 else pixels
    return np.ascontiguousarray(_with_channels(pixels, channels, 255))
