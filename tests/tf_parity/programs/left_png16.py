"""16-bit colour PNGs (issue #11): encode_png of uint16 images with 2-4 channels and
decode_png(dtype=tf.uint16) of them are lossless, as TF's libpng; 8-bit decoding keeps the high
byte; the channel rules apply to 16-bit samples; PNG bytes written by TF 2.21 itself (which
use all four PNG row filters) decode to the same pixels."""
import base64

import numpy as np

# TF 2.21's tf.io.encode_png of _image(2) and _image(4) (libpng's adaptive row filters).
_TF_PNG = {
    2: (
    "iVBORw0KGgoAAAANSUhEUgAAAAoAAAAMEAQAAACh8jhoAAAA/0lEQVQYlWM+v1f07aI0ZlN+NUEpEQ6xP/InddqkYsVylPRU"
    "lNQFNFl47Ff+c1j3dQ8j9w7++VxHYJDzCOcRriPY+MxCIiIc3Pu493Ht49rHbce9DwG59nEh8RjvtU5l90uffQZmxqlFV/Z6"
    "PrM/DeO/a2MuVWMSEGbUe2B0HLtlqCIsPDt4dqAI7eDagaZpB9cOriNMqQU2yjw7uHdw7+DewbODZ8cjhcOhPDt44HxND4Nc"
    "nh08OxiDOELf4/IpsggL9w4edMuQ+AgR5lv/3h6zOW38EBYc777cLpNarPwIFmDmuVfavz5Xv8VYalApjsunyHwW7h3cO3D5"
    "FNlyAJzjwTejtF66AAAAAElFTkSuQmCC"
    ),
    4: (
    "iVBORw0KGgoAAAANSUhEUgAAAAoAAAAMEAYAAAAL+/DjAAABhElEQVQokWPO7smzXTVlmvmVumu9ezxOxfGrCUoJ84oyinCI"
    "/ZF4L/VYTmLNyfVrHpyR2nrN64bbIWUlPRUlNVENTnUBTRbt77qvl4uqLNC+Wvfv82HzbHNbgWmM3Dv45wu3iedyHUGGnEe4"
    "jnBCSS4ckBMKUUWZhUREOMR+S7zn3se9j3sfFxRy7+O2g4igQi6oGm47Liyy3Pu49zH1805/vN9D/RT3Du4d3Dt4MOCmi/t+"
    "nU1a/w8mj66mR/Dxm20e92V4dkBUMOo9MDputs5qKvGewh80LDCbsBq0AwpxW7SD6whUBVQVIzfHE7eVi6eeceXJ37rO/thf"
    "dPfcZhNUORoQttiyiTnFz2LvU3QXvz9dabh+udxM1b2zw1Mffn3PGMQR+j7yWuxeUmMTlwoWWCBzoXkaKWxweBx70DBpeP1T"
    "v52w7izEWEg8Isem+B/FuJ99ce8Q8coNhzw7eHY4rWlzfsH4ajtMlrHUoFK85l8DRtiQm9BZYDYR9BRabOIKGgCtNYmiiKMA"
    "1AAAAABJRU5ErkJggg=="
    ),
}


def _image(c):
    rng = np.random.default_rng(3)
    y, x = np.mgrid[0:12, 0:10]
    for k in (2, 4):  # the fixtures were made in this order, from one generator
        img = np.stack([(y * 3000 + x * 2500 + j * 999) % 65536 for j in range(k)], -1).astype(np.uint16)
        img[::3, ::4] = rng.integers(0, 65535, size=img[::3, ::4].shape)
        if k == c:
            return img
    raise ValueError(c)


def _small(c):
    return (np.arange(2 * 3 * c).reshape(2, 3, c) * 7000 % 65536).astype(np.uint16)


def program_round_trip_uint16(tf):
    out = {}
    for c in (1, 2, 3, 4):
        data = tf.io.encode_png(tf.constant(_small(c)))
        out[f"c{c}"] = tf.io.decode_png(data, dtype=tf.uint16)
        out[f"c{c}_uint8"] = tf.io.decode_png(data)
        out[f"c{c}_image"] = tf.io.decode_image(data, dtype=tf.uint16)
    return out


def program_uint16_channels_and_floats(tf):
    data = tf.io.encode_png(tf.constant(_small(3)))
    rgba = tf.io.encode_png(tf.constant(_small(4)))
    return {"gray": tf.io.decode_png(data, channels=1, dtype=tf.uint16),
            "rgba": tf.io.decode_png(data, channels=4, dtype=tf.uint16),
            "rgb_of_rgba": tf.io.decode_png(rgba, channels=3, dtype=tf.uint16),
            "float": tf.io.decode_image(data, dtype=tf.float32),
            "compressed": tf.io.decode_png(tf.io.encode_png(tf.constant(_small(3)), compression=9), dtype=tf.uint16)}


def program_decode_tf_written_png16(tf):
    out = {}
    for c, text in _TF_PNG.items():
        pixels = tf.io.decode_png(base64.b64decode("".join(text)), dtype=tf.uint16)
        out[f"c{c}"] = pixels
        out[f"c{c}_same"] = bool(np.array_equal(pixels.numpy(), _image(c)))
    return out


def program_decode_png_float_dtype(tf):
    data = tf.io.encode_png(tf.constant(_small(3)))
    return {"y": tf.io.decode_png(data, dtype=tf.float32)}
