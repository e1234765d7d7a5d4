"""Image files as TF reads and writes them: PNG/JPEG/GIF/BMP codecs (values, channel rules,
errors, static shapes in graphs), tf.image.resize_with_pad, and Keras's
image_dataset_from_directory / text_dataset_from_directory (Keras's order for a seed)."""
import os
import tempfile

import numpy as np

from parity import tolerance


def _pixels(shape, seed=0, dtype=np.uint8):
    rng = np.random.RandomState(seed)
    top = 65535 if dtype == np.uint16 else 255
    return np.clip(rng.normal(top / 2, top / 4, shape), 0, top).astype(dtype)


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


def program_png(tf):
    rgb, rgba, gray = _pixels((5, 7, 3)), _pixels((4, 3, 4), 1), _pixels((3, 5, 1), 2)
    wide = _pixels((40, 37, 3), 3)
    out = {}
    for name, x in (("rgb", rgb), ("rgba", rgba), ("gray", gray), ("wide", wide)):
        data = tf.io.encode_png(x)
        for channels in (0, 1, 3, 4):
            out[f"{name}_{channels}"] = tf.io.decode_png(data, channels=channels)
        out[f"{name}_u16"] = tf.io.decode_png(data, dtype=tf.uint16)
    deep = _pixels((3, 4, 1), 4, np.uint16)
    out["deep"] = tf.io.decode_png(tf.io.encode_png(deep), dtype=tf.uint16)
    out["deep_u8"] = tf.io.decode_png(tf.io.encode_png(deep))
    out["image_float"] = tf.io.decode_image(tf.io.encode_png(rgb), dtype=tf.float32)
    out["image_gray"] = tf.image.decode_image(tf.io.encode_png(rgba), channels=1)
    return out


def program_jpeg(tf):
    out = {}
    for name, x, sub in (("a", _pixels((37, 29, 3)), True), ("b", _pixels((16, 24, 3), 1), False),
                         ("c", _pixels((21, 18, 1), 2), True), ("d", _pixels((50, 51, 3), 3), True)):
        data = tf.io.encode_jpeg(x, quality=90, chroma_downsampling=sub)
        out[f"{name}_default"] = tf.io.decode_jpeg(data)
        out[f"{name}_gray"] = tf.io.decode_jpeg(data, channels=1)
        out[f"{name}_rgb"] = tf.io.decode_jpeg(data, channels=3)
        out[f"{name}_plain"] = tf.io.decode_jpeg(data, fancy_upscaling=False)
        out[f"{name}_accurate"] = tf.io.decode_jpeg(data, dct_method="INTEGER_ACCURATE")
        out[f"{name}_half"] = tf.io.decode_jpeg(data, ratio=2)
        out[f"{name}_quarter"] = tf.io.decode_jpeg(data, ratio=4)
        out[f"{name}_shape"] = tf.io.extract_jpeg_shape(data)
        out[f"{name}_is_jpeg"] = tf.io.is_jpeg(data)
        out[f"{name}_image"] = tf.io.decode_image(data)
    out["png_is_jpeg"] = tf.image.is_jpeg(tf.io.encode_png(_pixels((2, 2, 3))))
    return out


def program_jpeg_bytes(tf):
    """TF's encoder settings: quality, chroma subsampling, progressive, density."""
    x = _pixels((12, 10, 3), 5)
    return {"q95": tf.io.encode_jpeg(x), "q50": tf.io.encode_jpeg(x, quality=50),
            "no_sub": tf.io.encode_jpeg(x, chroma_downsampling=False),
            "progressive": tf.io.encode_jpeg(x, progressive=True),
            "gray": tf.io.encode_jpeg(x[..., :1]), "cm": tf.io.encode_jpeg(x, density_unit="cm", x_density=10,
                                                                        y_density=20)}


def program_decode_errors(tf):
    png = tf.io.encode_png(_pixels((3, 3, 3)))
    jpeg = tf.io.encode_jpeg(_pixels((8, 8, 3)))
    return {"png_garbage": _catch(lambda: tf.io.decode_png(b"not an image")),
            "jpeg_of_png": _catch(lambda: tf.io.decode_jpeg(png)),
            "image_garbage": _catch(lambda: tf.io.decode_image(b"\x00\x01\x02\x03 nothing")),
            "truncated_png": _catch(lambda: tf.io.decode_png(png[:40] if isinstance(png, bytes) else
                                                             tf.strings.substr(png, 0, 40))),
            "png_channels_2": _catch(lambda: tf.io.decode_png(png, channels=2)),
            "jpeg_rgba": _catch(lambda: tf.io.encode_jpeg(_pixels((2, 2, 4)))),
            "png_float": _catch(lambda: tf.io.encode_png(np.zeros((2, 2, 3), np.float32))),
            "jpeg_ratio": _catch(lambda: tf.io.decode_jpeg(jpeg, ratio=3)),
            "batch": _catch(lambda: tf.io.decode_png(tf.stack([png, png])))}


def program_in_graph(tf):
    folder = tempfile.mkdtemp()
    paths = []
    for i, shape in enumerate([(4, 5, 3), (6, 3, 3)]):
        path = os.path.join(folder, f"im{i}.png")
        tf.io.write_file(path, tf.io.encode_png(_pixels(shape, i)))
        paths.append(path)

    @tf.function
    def load(path):
        image = tf.io.decode_image(tf.io.read_file(path), channels=3, expand_animations=False)
        return tf.image.resize(image, [4, 4])

    spec = load.get_concrete_function(tf.TensorSpec([], tf.string)).structured_outputs
    png_spec = tf.function(lambda s: tf.io.decode_png(s, channels=3)).get_concrete_function(
        tf.TensorSpec([], tf.string)).structured_outputs
    ds = tf.data.Dataset.from_tensor_slices(paths).map(
        lambda p: tf.io.decode_png(tf.io.read_file(p))).map(lambda im: tf.reduce_sum(tf.cast(im, tf.int32)))
    return {"a": load(tf.constant(paths[0])), "b": load(tf.constant(paths[1])), "spec": [spec.shape, spec.dtype],
            "png_spec": [png_spec.shape, png_spec.dtype],
            "sums": list(ds), "traces": load.experimental_get_tracing_count()}


@tolerance(rtol=1e-5, atol=1e-3)
def program_resize_with_pad(tf):
    x = _pixels((5, 9, 2)).astype(np.float32)
    return {"wide": tf.image.resize_with_pad(x, 6, 6), "tall": tf.image.resize_with_pad(x, 12, 4),
            "same": tf.image.resize_with_pad(x, 10, 18), "batch": tf.image.resize_with_pad(np.stack([x, x + 1]), 7, 3),
            "nearest": tf.image.resize_with_pad(x.astype(np.uint8), 4, 8, method="nearest")}


def _image_folder(tf):
    folder = tempfile.mkdtemp()
    shapes = [(6, 8, 3), (9, 5, 3), (7, 7, 3), (10, 12, 3), (5, 6, 3), (8, 8, 3), (6, 11, 3)]
    for c, cls in enumerate(["cats", "dogs"]):
        os.makedirs(os.path.join(folder, cls, "nested"))
        for i, shape in enumerate(shapes[c:c + 5]):
            pixels = _pixels(shape, 10 * c + i)
            if i % 2:
                tf.io.write_file(os.path.join(folder, cls, f"p{i}.png"), tf.io.encode_png(pixels))
            else:
                sub = "nested" if i == 4 else ""
                tf.io.write_file(os.path.join(folder, cls, sub, f"j{i}.jpg"), tf.io.encode_jpeg(pixels))
        tf.io.write_file(os.path.join(folder, cls, "notes.txt"), "not an image")
    return folder


@tolerance(rtol=1e-5, atol=1e-3)
def program_image_dataset_from_directory(tf):
    tf.random.set_seed(1234)  # the shuffle's seed pair takes the global seed as its first half
    folder = _image_folder(tf)
    u = tf.keras.utils
    ds = u.image_dataset_from_directory(folder, batch_size=4, image_size=(6, 6), seed=3, verbose=False)
    train, val = u.image_dataset_from_directory(folder, batch_size=3, image_size=(5, 4), seed=1,
                                                validation_split=0.3, subset="both", label_mode="categorical",
                                                verbose=False)
    gray = u.image_dataset_from_directory(folder, color_mode="grayscale", image_size=(4, 4), shuffle=False,
                                          interpolation="nearest", label_mode="binary", verbose=False)
    crop = u.image_dataset_from_directory(folder, image_size=(4, 6), crop_to_aspect_ratio=True, shuffle=False,
                                          labels=None, verbose=False)
    pad = u.image_dataset_from_directory(folder, image_size=(4, 6), pad_to_aspect_ratio=True, shuffle=False,
                                         batch_size=None, verbose=False)
    names = lambda d: [os.path.relpath(p, folder) for p in d.file_paths]  # noqa: E731
    return {"batches": list(ds), "class_names": ds.class_names, "files": names(ds), "spec": ds.element_spec,
            "train": list(train), "val": list(val), "train_files": names(train), "val_files": names(val),
            "gray": list(gray), "crop": list(crop), "pad": [list(e) for e in pad][:3],
            "second_epoch": list(ds)[0][1]}


def program_text_dataset_from_directory(tf):
    tf.random.set_seed(1234)
    folder = tempfile.mkdtemp()
    for c, cls in enumerate(["neg", "pos"]):
        os.makedirs(os.path.join(folder, cls))
        for i in range(6):
            with open(os.path.join(folder, cls, f"t{i}.txt"), "w") as f:
                f.write(f"{cls} text number {i} " * (i + 1))
    u = tf.keras.utils
    ds = u.text_dataset_from_directory(folder, batch_size=4, seed=5, max_length=20, verbose=False)
    val = u.text_dataset_from_directory(folder, batch_size=2, seed=2, validation_split=0.25, subset="validation",
                                        verbose=False)
    return {"batches": list(ds), "val": list(val), "class_names": ds.class_names}


def program_text_dataset_from_directory_arguments(tf):
    """Keras 3's loader takes format= but no encoding= (a TypeError)."""
    folder = tempfile.mkdtemp()
    os.makedirs(os.path.join(folder, "a"))
    with open(os.path.join(folder, "a", "t.txt"), "w") as f:
        f.write("text")
    u = tf.keras.utils
    ds = u.text_dataset_from_directory(folder, shuffle=False, format="tf", verbose=False)
    try:
        u.text_dataset_from_directory(folder, encoding="utf-8", verbose=False)
        encoding = "accepted"
    except TypeError:
        encoding = "TypeError"
    return {"batches": list(ds), "encoding": encoding}


def _pil_bytes(frames, fmt):
    import io

    from PIL import Image
    out = io.BytesIO()
    images = [Image.fromarray(f) for f in frames]
    images[0].save(out, fmt, save_all=len(images) > 1, append_images=images[1:])
    return out.getvalue()


def program_gif_and_bmp(tf):
    frames = [_pixels((5, 6, 3), i) for i in range(3)]
    gif, still = _pil_bytes(frames, "GIF"), _pil_bytes(frames[:1], "GIF")
    bmp, bmp_gray = _pil_bytes(frames[:1], "BMP"), _pil_bytes([frames[0][..., 0]], "BMP")
    png = tf.io.encode_png(frames[0])
    return {"gif": tf.io.decode_gif(gif), "gif_image": tf.io.decode_image(gif),
            "gif_first": tf.io.decode_image(gif, expand_animations=False),
            "still_jpeg_op": tf.io.decode_jpeg(still), "still_png_op": tf.io.decode_png(still, dtype=tf.uint16),
            "animated_png_op": _catch(lambda: tf.io.decode_png(gif)),
            "gif_of_png": tf.io.decode_gif(png), "bmp": tf.io.decode_bmp(bmp), "bmp_image": tf.io.decode_image(bmp),
            "bmp_gray": tf.io.decode_image(bmp_gray), "bmp_rgba": tf.io.decode_bmp(bmp, channels=4),
            "bmp_png_op": _catch(lambda: tf.io.decode_png(bmp)), "png_bmp_op": _catch(lambda: tf.io.decode_bmp(png)),
            "gif_channels": _catch(lambda: tf.io.decode_image(gif, channels=1))}


def program_decode_dtypes(tf):
    x = _pixels((4, 5, 3), 7)
    deep = _pixels((3, 2, 1), 8, np.uint16)
    png, jpg, deep_png = tf.io.encode_png(x), tf.io.encode_jpeg(x), tf.io.encode_png(deep)
    out = {}
    for name, data in (("png", png), ("jpg", jpg), ("deep", deep_png)):
        for dtype in (tf.uint8, tf.uint16, tf.float32, tf.float16, tf.float64):
            out[f"{name}_{dtype.name}"] = tf.io.decode_image(data, dtype=dtype)
    out["jpg_png_op_u16"] = tf.io.decode_png(jpg, dtype=tf.uint16)
    return out
