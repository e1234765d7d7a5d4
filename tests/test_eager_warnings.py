"""NumPy's RuntimeWarnings from tapeflow's kernels do not reach the user (TensorFlow prints
none for log(0.) or 0/0); a user's own NumPy code still warns."""
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tapeflow as tf
from tapeflow import runtime

CASES = [
    ("log0", lambda: tf.math.log(0.0), -np.inf),
    ("div00", lambda: tf.constant(0.0) / tf.constant(0.0), np.nan),
    ("sqrt_neg", lambda: tf.sqrt(-1.0), np.nan),
    ("exp_overflow", lambda: tf.exp(1000.0), np.inf),
    ("inf_minus_inf", lambda: tf.constant(np.inf) - tf.constant(np.inf), np.nan),
    ("graph_log0", lambda: tf.function(lambda x: tf.math.log(x))(tf.constant(0.0)), -np.inf),
]


@pytest.mark.parametrize("name, run, want", CASES, ids=[c[0] for c in CASES])
def test_no_runtime_warning_from_kernels(name, run, want):
    # pytest resets the filters that importing tapeflow installed, so install them again here;
    # the subprocess test below checks that the import itself installs them.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        runtime.silence_kernel_warnings()
        got = run().numpy()
        np.log(np.zeros(1))  # the user's own NumPy call still warns
    mine = [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)]
    assert mine == ["divide by zero encountered in log"]
    np.testing.assert_equal(got, np.float32(want))


def test_importing_tapeflow_silences_its_kernels_only():
    code = ("import numpy as np, tapeflow as tf\n"
            "tf.math.log(0.0); tf.constant(0.0) / 0.0\n"
            "np.log(np.zeros(1))\n")
    run = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stderr.count("RuntimeWarning") == 1 and "<string>:3" in run.stderr, run.stderr


def test_kernels_stay_quiet_even_when_warnings_are_errors():
    # No filter can silence a warning under simplefilter("error"): the kernels' NumPy error
    # state is off instead (runtime/fp_quiet.py), while the user's NumPy still raises.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for _, run, want in CASES:
            np.testing.assert_equal(run().numpy(), np.float32(want))
        np.testing.assert_equal(tf.cast(tf.constant([1e5]), tf.float16).numpy(), np.float16(np.inf))
        with pytest.raises(RuntimeWarning):
            np.log(np.zeros(1))
    assert np.geterr()["divide"] == "warn"  # the user's state is left as it was


def test_py_function_runs_the_users_numpy_with_the_users_settings():
    seen = []

    def user(x):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = np.log(x.numpy())
        seen.extend(str(w.message) for w in caught)
        return out

    tf.py_function(user, [tf.constant([0.0])], tf.float32)
    assert seen == ["divide by zero encountered in log"]
