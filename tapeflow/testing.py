"""tf.test: the TestCase that TensorFlow's own tests and users' suites build on.

TestCase is unittest.TestCase plus TensorFlow's assertions over tensors, arrays and
nested structures of them.  Sessions do not exist in TF2 eager code: `session()` and
`cached_session()` are context managers yielding an object whose `run` evaluates,
and `evaluate` turns tensors (nested) into NumPy values, as TensorFlow's do in eager mode.
"""
import contextlib
import os
import tempfile
import unittest

import numpy as np

from tapeflow.runtime import devices as _devices
from tapeflow.runtime.tensor import TensorBase


def _numpy(value):
    """A tensor, variable, ragged/sparse tensor or nested structure of them as NumPy."""
    if isinstance(value, TensorBase) or hasattr(value, "numpy"):
        if hasattr(value, "to_list") and hasattr(value, "flat_values"):
            return value.to_list()
        arr = np.asarray(value.numpy())
        return arr[()] if arr.ndim == 0 else arr   # a scalar as a NumPy scalar, as TensorFlow's
    if isinstance(value, dict):
        return {k: _numpy(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) and any(isinstance(v, TensorBase) or hasattr(v, "numpy") for v in value):
        return type(value)(_numpy(v) for v in value) if isinstance(value, tuple) else [_numpy(v) for v in value]
    return value


class _EagerSession:
    """What `with self.session():` yields in eager code: run() evaluates its fetches."""

    def __init__(self, case):
        self._case = case

    def run(self, fetches, feed_dict=None):
        if feed_dict:
            raise TypeError("session.run(feed_dict=...) needs placeholders, which eager code has none of")
        return self._case.evaluate(fetches)


class TestCase(unittest.TestCase):
    """unittest.TestCase with TensorFlow's tensor assertions."""

    def evaluate(self, tensors):
        """Tensors (in any nest) as NumPy values."""
        if callable(tensors) and not isinstance(tensors, TensorBase):
            tensors = tensors()
        return _numpy(tensors)

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=True, force_gpu=False):
        yield _EagerSession(self)

    cached_session = session
    test_session = session

    def get_temp_dir(self):
        d = getattr(self, "_tempdir", None)
        if d is None:
            d = self._tempdir = tempfile.mkdtemp(prefix="tf_test_")
        return d

    def create_tempdir(self):
        return tempfile.mkdtemp(dir=self.get_temp_dir())

    # -- assertions
    def _nested(self, a, b, check, msg, path="value"):
        a, b = _numpy(a), _numpy(b)
        if isinstance(a, dict) and isinstance(b, dict):
            self.assertEqual(sorted(a), sorted(b), msg=f"{path}: keys differ" + (f": {msg}" if msg else ""))
            for k in a:
                self._nested(a[k], b[k], check, msg, f"{path}[{k!r}]")
        elif isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and (
                any(isinstance(v, (dict, list, tuple, np.ndarray)) for v in list(a) + list(b))):
            self.assertEqual(len(a), len(b), msg=f"{path}: lengths differ" + (f": {msg}" if msg else ""))
            for i, (x, y) in enumerate(zip(a, b)):
                self._nested(x, y, check, msg, f"{path}[{i}]")
        else:
            check(np.asarray(a), np.asarray(b), f"{path}" + (f": {msg}" if msg else ""))

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        def check(x, y, where):
            self.assertEqual(x.shape, y.shape, msg=f"{where}: shapes {x.shape} and {y.shape} differ")
            np.testing.assert_allclose(x, y, rtol=rtol, atol=atol, err_msg=where, equal_nan=True)
        self._nested(a, b, check, msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6, float_rtol=1e-6, float_atol=1e-6,
                                      half_rtol=1e-3, half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        x = np.asarray(_numpy(a))
        if x.dtype == np.float32:
            rtol, atol = max(rtol, float_rtol), max(atol, float_atol)
        elif x.dtype == np.float16:
            rtol, atol = max(rtol, half_rtol), max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllEqual(self, a, b, msg=None):
        # TensorFlow's assertAllEqual compares arrays (assertAllClose takes nested structures)
        if isinstance(a, dict) or isinstance(b, dict):
            raise ValueError("assertAllEqual compares arrays, not dicts; use assertAllClose for nests")
        x, y = np.asarray(_numpy(a)), np.asarray(_numpy(b))
        self.assertEqual(x.shape, y.shape, msg=f"shapes {x.shape} and {y.shape} differ" + (f": {msg}" if msg else ""))
        np.testing.assert_array_equal(x, y, err_msg=msg or "")

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol)
        except AssertionError:
            return
        raise AssertionError(f"the two values are close{': ' + msg if msg else ''}")

    def assertNotAllEqual(self, a, b, msg=None):
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError(f"the two values are equal{': ' + msg if msg else ''}")

    def assertAllGreater(self, a, comparison_target):
        self.assertTrue(np.all(np.asarray(_numpy(a)) > comparison_target), f"not all > {comparison_target}")

    def assertAllLess(self, a, comparison_target):
        self.assertTrue(np.all(np.asarray(_numpy(a)) < comparison_target), f"not all < {comparison_target}")

    def assertAllGreaterEqual(self, a, comparison_target):
        self.assertTrue(np.all(np.asarray(_numpy(a)) >= comparison_target), f"not all >= {comparison_target}")

    def assertAllLessEqual(self, a, comparison_target):
        self.assertTrue(np.all(np.asarray(_numpy(a)) <= comparison_target), f"not all <= {comparison_target}")

    def assertAllInRange(self, target, lower_bound, upper_bound, open_lower_bound=False, open_upper_bound=False):
        x = np.asarray(_numpy(target))
        lo = x > lower_bound if open_lower_bound else x >= lower_bound
        hi = x < upper_bound if open_upper_bound else x <= upper_bound
        self.assertTrue(np.all(lo & hi), f"not all in range [{lower_bound}, {upper_bound}]")

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):
        self.assertEqual(tuple(np.shape(np_array)), tuple(tf_tensor.shape.as_list()), msg=msg)

    def assertDTypeEqual(self, target, expected_dtype):
        self.assertEqual(np.asarray(_numpy(target)).dtype, np.dtype(expected_dtype))

    def assertArrayNear(self, farray1, farray2, err, msg=None):
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for x, y in zip(farray1, farray2):
            self.assertNear(float(x), float(y), err, msg=msg)

    def assertNear(self, f1, f2, err, msg=None):
        self.assertTrue(abs(f1 - f2) <= err, f"{f1} != {f2} +/- {err}" + (f": {msg}" if msg else ""))

    def assertStartsWith(self, actual, expected_start, msg=None):
        self.assertTrue(str(actual).startswith(expected_start), msg or f"{actual!r} does not start with {expected_start!r}")

    def assertRaisesOpError(self, expected_err_re_or_predicate):
        from tapeflow.runtime.errors import InvalidArgumentError, OpError
        return self.assertRaisesRegex((OpError, InvalidArgumentError), expected_err_re_or_predicate)

    def assertRaisesWithPredicateMatch(self, exception_type, expected_err_re_or_predicate):
        if callable(expected_err_re_or_predicate):
            return _PredicateRaises(self, exception_type, expected_err_re_or_predicate)
        return self.assertRaisesRegex(exception_type, expected_err_re_or_predicate)


class _PredicateRaises:
    def __init__(self, case, exception_type, predicate):
        self._case, self._type, self._predicate = case, exception_type, predicate

    def __enter__(self):
        return self

    def __exit__(self, kind, exc, tb):
        if kind is None:
            raise AssertionError(f"{self._type.__name__} not raised")
        if not issubclass(kind, self._type) or not self._predicate(exc):
            return False
        return True


def main(argv=None):
    """Run the tests of the calling module (unittest's runner)."""
    unittest.main(argv=argv)


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    return bool(_devices.list_physical_devices("GPU"))


def gpu_device_name():
    gpus = _devices.list_physical_devices("GPU")
    return gpus[0].name.replace("/physical_device:", "/device:") if gpus else ""


def is_built_with_cuda():
    """True where tapeflow can run on a CUDA GPU here (through CuPy)."""
    return is_gpu_available()


is_built_with_gpu_support = is_built_with_cuda


def get_temp_dir():
    return tempfile.gettempdir() if not os.environ.get("TEST_TMPDIR") else os.environ["TEST_TMPDIR"]


def is_built_with_xla():
    """False: tapeflow has no XLA (jit_compile= is accepted; its graphs always compile to C)."""
    return False


def is_built_with_rocm():
    return False


_CPU_TARGETS = ("arm", "aarch64", "ppc", "powerpc", "x86", "s390x")


def is_cpu_target_available(target):
    """Whether the C compiler can target the CPU family (as TF's LLVM build: every known family)."""
    if not target.startswith(_CPU_TARGETS):
        raise AssertionError("Unknown CPU target: " + target)
    return True


def compute_gradient(f, x, delta=None):
    """(theoretical, numerical) Jacobians of y = f(*x): one 2-D array per argument, shaped
    (y's size, the argument's size); the numerical one by central differences of `delta`
    (default 1/1024, exact in binary), computed in the argument's dtype as TF does."""
    from tapeflow.runtime.backprop import GradientTape
    from tapeflow.runtime.tensor import convert_to_tensor
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}")
    delta = 1.0 / 1024 if delta is None else delta
    xs = [np.array(convert_to_tensor(v).numpy()) for v in x]
    y0 = np.asarray(convert_to_tensor(f(*[convert_to_tensor(v) for v in xs])).numpy())
    theoretical, numerical = [], []
    for i, xi in enumerate(xs):
        ts = [convert_to_tensor(v) for v in xs]
        with GradientTape() as tape:
            tape.watch(ts[i])
            y = convert_to_tensor(f(*ts))
        jac = tape.jacobian(y, ts[i], unconnected_gradients="zero")
        theoretical.append(np.asarray(jac.numpy(), dtype=y0.dtype).reshape(y0.size, xi.size))
        cols = np.zeros((y0.size, xi.size), dtype=y0.dtype)
        scale = np.asarray(2 * delta, dtype=y0.dtype)[()]
        for col in range(xi.size):
            args = [v.copy() for v in xs]
            args[i].reshape(-1)[col] += delta
            plus = np.asarray(convert_to_tensor(f(*[convert_to_tensor(v) for v in args])).numpy())
            args[i].reshape(-1)[col] -= 2 * delta
            minus = np.asarray(convert_to_tensor(f(*[convert_to_tensor(v) for v in args])).numpy())
            cols[:, col] = ((plus - minus) / scale).reshape(-1)
        numerical.append(cols)
    return tuple(theoretical), tuple(numerical)


class TensorFlowBenchmark:
    """tf.test.Benchmark (TF's class name): subclass it; `report_benchmark` prints the entry as
    TF's log does."""

    def is_abstract(self):
        return type(self) is TensorFlowBenchmark

    def _get_name(self, name=None):
        return f"{type(self).__name__}.{name}" if name else type(self).__name__

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None, extras=None,
                         name=None, metrics=None):
        lines = ["entry {", f'  name: "{self._get_name(name)}"']
        for key, value in (("iters", iters), ("cpu_time", cpu_time), ("wall_time", wall_time),
                           ("throughput", throughput)):
            if value is not None:
                lines.append(f"  {key}: {value}")
        for key, value in sorted((extras or {}).items()):
            lines.append(f'  extras {{ key: "{key}" value {{ double_value: {value} }} }}')
        for m in metrics or []:
            lines.append(f'  metrics {{ name: "{m["name"]}" value: {m["value"]} }}')
        lines.append("}")
        print("\n".join(lines) + "\n")

    def evaluate(self, tensors):
        from tapeflow.runtime import nest
        return nest.map_structure(lambda t: t.numpy() if isinstance(t, TensorBase) else t, tensors)

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2, min_iters=10,
                         store_trace=False, store_memory_usage=True, name=None, extras=None, mbs=0):
        import time
        fn = op_or_tensor if callable(op_or_tensor) else (lambda: op_or_tensor)
        for _ in range(burn_iters):
            fn()
        start = time.perf_counter()
        for _ in range(min_iters):
            fn()
        wall = (time.perf_counter() - start) / max(min_iters, 1)
        self.report_benchmark(iters=min_iters, wall_time=wall, extras=extras, name=name)
        return {"iters": min_iters, "wall_time": wall, "extras": extras or {}, "name": self._get_name(name)}


Benchmark = TensorFlowBenchmark
