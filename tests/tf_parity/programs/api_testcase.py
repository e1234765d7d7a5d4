"""tf.test.TestCase as users' suites use it: assertions pass and fail as TensorFlow's do."""


def _outcome(tf, body):
    class T(tf.test.TestCase):
        def test_it(self):
            body(self)
    import unittest
    result = unittest.TestResult()
    T("test_it").run(result)
    return {"failures": len(result.failures), "errors": [type(e).__name__ for e in result.errors] and
            [str(e[1]).splitlines()[-1].split(":")[0] for e in result.errors]}


def program_all_close_passes(tf):
    return _outcome(tf, lambda s: s.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.0000001]))


def program_all_close_fails(tf):
    return _outcome(tf, lambda s: s.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.1]))


def program_all_equal_nested(tf):
    return _outcome(tf, lambda s: s.assertAllEqual({"a": tf.constant([1, 2]), "b": tf.constant([3])},
                                                   {"a": [1, 2], "b": [3]}))


def program_all_equal_fails(tf):
    return _outcome(tf, lambda s: s.assertAllEqual(tf.constant([1, 2]), [1, 3]))


def program_shape_mismatch_fails(tf):
    return _outcome(tf, lambda s: s.assertAllEqual(tf.constant([[1, 2]]), [1, 2]))


def program_evaluate(tf):
    out = {}

    class T(tf.test.TestCase):
        def test_it(self):
            out["v"] = self.evaluate({"x": tf.constant([1, 2]), "y": (tf.constant(3.0), tf.constant(True))})
    import unittest
    T("test_it").run(unittest.TestResult())
    v = out["v"]
    return {"x": v["x"], "y0": v["y"][0], "y1": v["y"][1], "type": type(v["x"]).__name__}


def program_cached_session_noop(tf):
    out = {}

    class T(tf.test.TestCase):
        def test_it(self):
            with self.cached_session():
                out["a"] = self.evaluate(tf.constant(2) * 3)
            with self.session():
                out["b"] = self.evaluate(tf.constant([1.0]) + 1)
    import unittest
    result = unittest.TestResult()
    T("test_it").run(result)
    return {"a": out["a"], "b": out["b"], "ok": result.wasSuccessful()}


def program_assert_raises_regex(tf):
    def body(s):
        with s.assertRaisesRegex(tf.errors.InvalidArgumentError, "dimension|shape|Incompatible|broadcast"):
            tf.ones([2]) + tf.ones([3])
    return _outcome(tf, body)


def program_assert_raises_op_error(tf):
    def body(s):
        with s.assertRaisesOpError("."):
            tf.reshape(tf.range(6), [4, 2])
    return _outcome(tf, body)


def program_all_in_range_and_greater(tf):
    def body(s):
        s.assertAllInRange(tf.constant([0.1, 0.5]), 0.0, 1.0)
        s.assertAllGreater(tf.constant([2, 3]), 1)
        s.assertAllLessEqual(tf.constant([2, 3]), 3)
        s.assertNotAllClose(tf.constant([1.0]), [2.0])
    return _outcome(tf, body)


def program_close_according_to_type(tf):
    return _outcome(tf, lambda s: s.assertAllCloseAccordingToType(
        tf.constant([1.0, 2.0], tf.float16), [1.0005, 2.001]))


def program_shape_equal(tf):
    import numpy as np
    return _outcome(tf, lambda s: s.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3])))
