"""Guide cells converted as parity programs that do not pass yet on this branch; the
harness skips modules whose name starts with "_".  Each waits for a fix named here:

- tfguide_function.program_tracing_double: a float32 scalar prints as
  tf.Tensor(2.200000047683716, ...) where TensorFlow prints 2.2 (parity_api's
  printing change fixes it; verified in a trial merge).
- tfguide_modules.program_keras_build_step: an eager matmul shape mismatch is a
  ValueError here, TensorFlow's InvalidArgumentError (parity_api's exception types).

Move a program back into its module and run record.py once its fix is on main.
"""
import contextlib
import io


def _printed(fn, *args, **kwargs):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        result = fn(*args, **kwargs)
    return result, out.getvalue().splitlines()


def _init(tf, shape):
    n = 1
    for d in shape:
        n *= d
    return tf.reshape(tf.cos(tf.range(n, dtype=tf.float32) * 0.7) + 0.3, shape)


def _flexible_dense(tf):
    class FlexibleDense(tf.keras.layers.Layer):
        def __init__(self, out_features, **kwargs):
            super().__init__(**kwargs)
            self.out_features = out_features

        def build(self, input_shape):
            self.w = tf.Variable(_init(tf, [input_shape[-1], self.out_features]), name='w')
            self.b = tf.Variable(tf.zeros([self.out_features]), name='b')

        def call(self, inputs):
            return tf.matmul(inputs, self.w) + self.b
    return FlexibleDense


def program_tracing_double(tf):
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a

    def cell():
        print(double(tf.constant(1)))
        print()
        print(double(tf.constant(1.1)))
        print()
        # double(tf.constant("a")): strings skipped until the strings issue lands
        print(double(tf.constant(2)))
    _, lines = _printed(cell)
    return {"lines": lines, "traces": double.experimental_get_tracing_count()}


def program_keras_build_step(tf):
    FlexibleDense = _flexible_dense(tf)
    flexible_dense = FlexibleDense(out_features=3)
    # The guide also shows flexible_dense.variables before and after the call: Keras 3
    # does not collect raw tf.Variables of a layer (both are []), tapeflow's Keras does
    # (a listed difference), so they are not compared.
    out = flexible_dense(tf.constant([[2.0, 2.0, 2.0], [3.0, 3.0, 3.0]]))
    try:
        flexible_dense(tf.constant([[2.0, 2.0, 2.0, 2.0]]))
        failed = None
    except tf.errors.InvalidArgumentError as e:
        failed = type(e).__name__
    return {"out": out, "failed": failed}
