"""tf.experimental.numpy array creation and dtypes: array/asarray, zeros/ones/full (and *_like),
eye/identity/tri, arange/linspace/logspace/geomspace, diag/diagflat, meshgrid, vander; NumPy
dtypes, result_type/promote_types (float64 default float), finfo/iinfo, ndarray."""
import numpy as np


def program_tnp_array_asarray(tf):
    tnp = tf.experimental.numpy
    return {"float": tnp.asarray(1.0), "list": tnp.array([1, 2]), "nested": tnp.asarray([[1.5, 2], [3, 4]]),
            "dtype": tnp.array([1, 2], dtype=tnp.float32), "ndmin": tnp.array([1, 2], ndmin=3).shape,
            "tensor_kept": tnp.asarray(tf.constant([1, 2], tf.int32)), "bool": tnp.asarray([True, False]),
            "any": tnp.asanyarray([1.0]), "contig": tnp.ascontiguousarray([[1, 2]]), "copy": tnp.copy([3, 4]),
            "np_in": tnp.asarray(np.arange(3, dtype=np.int16)), "complex": tnp.asarray(1 + 2j)}


def program_tnp_zeros_ones_full(tf):
    tnp = tf.experimental.numpy
    x = tf.constant([[1, 2, 3]], tf.int32)
    return {"zeros": tnp.zeros(3), "ones": tnp.ones([2, 2], tnp.int32), "empty": tnp.empty((2,)).shape,
            "full": tnp.full([2, 3], 7), "full_f": tnp.full(2, 1.5, dtype=tnp.float32),
            "zl": tnp.zeros_like(x), "ol": tnp.ones_like(x, dtype=float), "fl": tnp.full_like(x, 9),
            "el": tnp.empty_like([1.0, 2.0]).shape}


def program_tnp_eye_tri(tf):
    tnp = tf.experimental.numpy
    return {"eye": tnp.eye(3), "eye_rect": tnp.eye(2, 4, k=1, dtype=tnp.int32), "eye_neg": tnp.eye(3, k=-1),
            "identity": tnp.identity(2), "tri": tnp.tri(3, 4, 1), "tri_int": tnp.tri(2, dtype=tnp.int64)}


def program_tnp_arange(tf):
    tnp = tf.experimental.numpy
    return {"a": tnp.arange(5), "b": tnp.arange(1, 7, 2), "c": tnp.arange(0.0, 1.0, 0.25),
            "d": tnp.arange(5, dtype=tnp.float32), "e": tnp.arange(5, 0, -2), "empty": tnp.arange(3, 1)}


def program_tnp_linspace_family(tf):
    tnp = tf.experimental.numpy
    lin, step = tnp.linspace(0, 1, 5, retstep=True)
    return {"lin": lin, "step": step, "noend": tnp.linspace(0.0, 2.0, 4, endpoint=False),
            "f32": tnp.linspace(0, 10, 3, dtype=tnp.float32), "vec": tnp.linspace(tnp.array([0., 1]), tnp.array([2., 3]), 3), "f32t": tnp.linspace(tf.constant(0.), 10, 3), "int_dt": tnp.linspace(0, 10, 3, dtype=tnp.int32), "geom_f32": tnp.geomspace(1, 8, 4, dtype=tnp.float32),
            "vec_axis": tnp.linspace(tnp.array([0., 1]), tnp.array([2., 3]), 3, axis=1),
            "log": tnp.logspace(0, 3, 4), "log2": tnp.logspace(0, 3, 4, base=2.0),
            "geom": tnp.geomspace(1, 1000, 4)}


def program_tnp_diag_mesh_vander(tf):
    tnp = tf.experimental.numpy
    m = tnp.arange(9).reshape if False else tf.reshape(tnp.arange(9), [3, 3])
    gx, gy = tnp.meshgrid([1, 2, 3], [4, 5])
    ix, iy = tnp.meshgrid([1, 2, 3], [4, 5], indexing="ij")
    return {"diag_v": tnp.diag([1, 2]), "diag_k": tnp.diag([1, 2], k=1), "diag_m": tnp.diag(m),
            "diag_m_k": tnp.diag(m, k=-1), "flat": tnp.diagflat([[1, 2], [3, 4]]),
            "gx": gx, "gy": gy, "ix": ix, "iy": iy, "vander": tnp.vander([1, 2, 3]),
            "vander_inc": tnp.vander([1.0, 2.0], 3, increasing=True)}


def program_tnp_dtypes(tf):
    tnp = tf.experimental.numpy
    names = ["bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16",
             "float32", "float64", "complex64", "complex128", "int_", "float_", "complex_", "object_",
             "string_", "unicode_", "inexact"]
    return {"names": [getattr(tnp, n).__name__ for n in names], "is_np": tnp.float32 is np.float32,
            "ndarray": tnp.ndarray is tf.Tensor, "consts": [tnp.pi, tnp.e, tnp.inf, tnp.newaxis],
            "sub": [tnp.issubdtype(tnp.float32, tnp.inexact), tnp.issubdtype(tnp.int32, tnp.inexact)],
            "finfo": [float(tnp.finfo(tnp.float32).eps), float(tnp.finfo(tnp.float64).max)],
            "iinfo": [int(tnp.iinfo(tnp.int32).max), int(tnp.iinfo(tnp.uint8).min)]}


def program_tnp_result_type(tf):
    tnp = tf.experimental.numpy
    return {"rt": [tnp.result_type(tnp.int32, tnp.float32), tnp.result_type(1.0), tnp.result_type(1),
                   tnp.result_type(tnp.int8, tnp.uint8), tnp.result_type(tf.constant(1.0), 2),
                   tnp.result_type(tf.constant(1), 2.5), tnp.result_type(tf.float16, tf.int8),
                   tnp.result_type(tnp.float32, 1j), tnp.result_type(True, tnp.int16)],
            "pt": [str(tnp.promote_types(tnp.int32, tnp.float32)), str(tnp.promote_types(tnp.uint8, tnp.int8)),
                   str(tnp.promote_types(tf.int16, tf.float16))],
            "ops": [tnp.add(tf.constant(1.0), 2.0).dtype, tnp.add(tf.constant(1), 2.5).dtype,
                    tnp.add(tf.constant(1, tf.int32), 2).dtype, tnp.multiply(tf.constant(1, tf.int8), tf.constant(2, tf.int16)).dtype,
                    tnp.add(tf.constant(1.0), tf.constant(2.0, tf.float64)).dtype,
                    tnp.add([1, 2], [0.5, 1]).dtype]}


def program_tnp_linspace_list_error(tf):
    return {"err": tf.experimental.numpy.linspace([0, 1], [2, 3], 3)}


def program_tnp_public_names(tf):
    tnp = tf.experimental.numpy
    names = sorted(n for n in dir(tnp) if not n.startswith("_"))
    return {"count": len(names), "names": names,
            "random": sorted(n for n in dir(tnp.random) if not n.startswith("_") and callable(getattr(tnp.random, n)))}
