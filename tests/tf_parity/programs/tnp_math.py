"""tf.experimental.numpy elementwise math: unary float functions, rounding, complex parts,
predicates, binary arithmetic/comparison/bitwise/logical ops, with NumPy promotion."""
from parity import tolerance

# Tensors, not lists: TF 2.21's tnp fails on lists and int arrays in many of these functions
# without numpy behavior (it calls .astype on tensors); the numpy-behavior unit test covers ints.
_X = [0.25, 0.5, 0.75]
_S = [-2.5, -0.5, 0.0, 1.5, 2.5]


def _t(tf, v):
    return tf.experimental.numpy.asarray(v)


@tolerance(rtol=1e-6, atol=1e-7)
def program_tnp_unary_float64(tf):
    tnp = tf.experimental.numpy
    names = ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "exp2", "cbrt", "sin", "cos", "tan",
             "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arctanh", "deg2rad",
             "rad2deg", "fabs", "sinc", "square", "reciprocal"]
    return {n: getattr(tnp, n)(_t(tf, _X)) for n in names if n != "rad2deg"} | {"arccosh": tnp.arccosh(_t(tf, [1.5, 2.0]))}


@tolerance(rtol=1e-5, atol=1e-6)
def program_tnp_unary_float32(tf):
    tnp = tf.experimental.numpy
    x = tf.constant(_X)
    return {n: getattr(tnp, n)(x) for n in ["sqrt", "exp", "log2", "cbrt", "sinc", "arctan", "exp2"]}


def program_tnp_rounding_sign(tf):
    tnp = tf.experimental.numpy
    s = _t(tf, _S)
    return {"floor": tnp.floor(s), "ceil": tnp.ceil(s), "fix": tnp.fix(s), "sign": tnp.sign(_S), "abs": tnp.abs([-1, 2]),
            "absolute": tnp.absolute(tf.constant([-1.5])), "neg": tnp.negative([1, -2]), "pos": tnp.positive([1.0]),
            "signbit": tnp.signbit([-1.0, 0.0, 2.0, -0.0]),
            "signbit_int": tnp.signbit([-1, 3])}


def program_tnp_complex_parts(tf):
    tnp = tf.experimental.numpy
    z = tnp.asarray([1 + 2j, -3j, 2.0])
    return {"real": tnp.real(z), "imag": tnp.imag(z), "conj": tnp.conj(z), "conjugate": tnp.conjugate(z),
            "angle": tnp.angle(z), "angle_deg": tnp.angle(z, deg=True), "imag_real": tnp.imag([1.0, 2.0]),
            "iscomplex": tnp.iscomplex(z), "isreal": tnp.isreal(z), "obj": [tnp.iscomplexobj(z), tnp.isrealobj(z),
                                                                             tnp.iscomplexobj([1.0])],
            "angle_real": tnp.angle([-1.0, 1.0])}


def program_tnp_predicates(tf):
    tnp = tf.experimental.numpy
    v = _t(tf, [1.0, float("inf"), float("-inf"), float("nan")])
    return {"finite": tnp.isfinite(v), "inf": tnp.isinf(v), "nan": tnp.isnan(v), "posinf": tnp.isposinf(v),
            "neginf": tnp.isneginf(v), "scalar": [tnp.isscalar(1.0), tnp.isscalar([1.0]), tnp.isscalar("a")]}


def program_tnp_arith(tf):
    tnp = tf.experimental.numpy
    a, b = [7, -7, 5], [2, 2, -3]
    return {"add": tnp.add(a, b), "sub": tnp.subtract(a, b), "mul": tnp.multiply(a, 2.5), "div": tnp.divide(a, b),
            "true_div": tnp.true_divide(a, b), "fdiv": tnp.floor_divide(a, b), "mod": tnp.mod(a, b),
            "rem": tnp.remainder(a, b), "divmod": list(tnp.divmod(a, b)), "power": tnp.power(a, 2),
            "fpow": tnp.float_power([2, 3], 2), "fpow_f": tnp.float_power(tf.constant([2, 3]), 2.5), "max": tnp.maximum(a, b), "min": tnp.minimum(a, 0.5),
            "f32": tnp.add(tf.constant([1.0]), 1).dtype}


@tolerance(rtol=1e-6, atol=1e-7)
def program_tnp_float_binary(tf):
    tnp = tf.experimental.numpy
    return {"arctan2": tnp.arctan2([1.0, -1.0], [2.0, 3.0]), "hypot": tnp.hypot(_t(tf, [3.0, 5]), _t(tf, [4.0, 12])),
            "logaddexp": tnp.logaddexp(_t(tf, [1.0, -50.0]), _t(tf, [2.0, -51.0])),
            "logaddexp2": tnp.logaddexp2(_t(tf, [1.0, 3.0]), _t(tf, [2.0, 3.0])),
            "heaviside": tnp.heaviside(_t(tf, [-1.5, 0.0, 2.0]), 0.5),
            "nextafter": tnp.nextafter(_t(tf, [1.0, 2.0]), _t(tf, [2.0, 0.0]))}


def program_tnp_gcd_lcm(tf):
    tnp = tf.experimental.numpy
    return {"gcd": tnp.gcd([12, 18, -4, 0], [8, 12, 6, 5]), "lcm": tnp.lcm([4, 6, 0], [6, -4, 3]),
            "gcd_b": tnp.gcd(tnp.arange(6), 4)}


def program_tnp_compare(tf):
    tnp = tf.experimental.numpy
    a, b = [1, 2, 3], [3, 2, 1.5]
    return {"eq": tnp.equal(a, b), "ne": tnp.not_equal(a, b), "lt": tnp.less(a, b), "le": tnp.less_equal(a, b),
            "gt": tnp.greater(a, b), "ge": tnp.greater_equal(a, b)}


def program_tnp_bitwise_logical(tf):
    tnp = tf.experimental.numpy
    a, b = tf.constant([12, 10], tf.int32), tf.constant([10, 6], tf.int32)
    return {"and": tnp.bitwise_and(a, b), "or": tnp.bitwise_or(a, b), "xor": tnp.bitwise_xor(a, b),
            "not": tnp.bitwise_not(a), "not_bool": tnp.bitwise_not([True, False]),
            "land": tnp.logical_and([1, 0, 2], [1, 1, 0]), "lor": tnp.logical_or([0, 0], [0, 3]),
            "lxor": tnp.logical_xor([True, True], [False, True]), "lnot": tnp.logical_not([0, 1.5])}


def program_tnp_clip(tf):
    tnp = tf.experimental.numpy
    return {"clip": tnp.clip([1, 5, 9], 2, 6), "clip_none": tnp.clip([1.0, 5.0], None, 3.0),
            "clip_f": tnp.clip(tf.constant([1, 5]), 1.5, 4).dtype}
