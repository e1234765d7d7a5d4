"""tf.py_function / tf.numpy_function, the graph utilities (ensure_shape,
control_dependencies, get_static_value, executing_eagerly, init_scope, ...) and
the small namespaces (version, logger, config, debugging, distribute, compat,
strings, ragged)."""
import logging

import numpy as np
import pytest

import tapeflow as tf

X = np.array([0.5, -1.5, 2.0], np.float32)


# ------------------------------------------------------------------ py_function

def test_py_function_returns_python_bytes_and_str_as_string_tensors():
    for run in (lambda f: f(), tf.function(lambda f: f())):
        out = run(lambda: tf.py_function(lambda: "é", [], tf.string))
        assert out.dtype == tf.string and out.numpy() == "é".encode()
    with pytest.raises(TypeError, match="Tout says string"):
        tf.py_function(lambda: 3, [], tf.string)
    with pytest.raises(TypeError, match="a string .* Tout says int32"):
        tf.py_function(lambda: b"x", [], tf.int32)


def test_reshape_gives_a_py_function_output_in_a_data_map_its_static_shape():
    ds = tf.data.Dataset.range(2).map(lambda x: (tf.reshape(tf.py_function(lambda a: b"x", [x], tf.string), ()),
                                                 tf.py_function(lambda a: b"x", [x], tf.string)))
    assert [s.shape.rank for s in ds.element_spec] == [0, None]  # measured on TF 2.21
    assert list(ds.as_numpy_iterator())[0] == (b"x", b"x")


def test_py_function_eager_and_graph_run_python_each_call():
    calls = []

    def f(x):
        calls.append(x.numpy().copy())
        return x * x + 1.0

    np.testing.assert_allclose(tf.py_function(f, [tf.constant(X)], tf.float32).numpy(), X * X + 1)
    g = tf.function(lambda x: tf.py_function(f, [x], tf.float32) * 2.0)
    for k in range(3):
        x = X + k
        np.testing.assert_allclose(g(tf.constant(x)).numpy(), (x * x + 1) * 2)
    assert len(calls) == 4  # once eagerly, then once per graph call (not at trace time)
    np.testing.assert_allclose(calls[-1], X + 2)


def test_numpy_function_gets_arrays_and_multiple_outputs():
    def f(a, b):
        assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
        return np.sort(a), (a * b).sum()

    spec = [tf.float32, tf.TensorSpec([], tf.float32)]
    for run in (lambda a, b: tf.numpy_function(f, [a, b], spec), tf.function(
            lambda a, b: tf.numpy_function(f, [a, b], spec))):
        s, d = run(tf.constant(X), tf.constant(X))
        np.testing.assert_allclose(s.numpy(), np.sort(X))
        np.testing.assert_allclose(d.numpy(), (X * X).sum(), rtol=1e-6)


def test_py_function_gradient_eager_and_compiled():
    def f(x):
        return tf.sin(x) * x

    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.py_function(f, [x], tf.TensorSpec([3], tf.float64)) * x)
        return tape.gradient(y, x)

    x = X.astype(np.float64)
    want = 2 * x * np.sin(x) + x * x * np.cos(x)  # d/dx of x^2 sin x
    np.testing.assert_allclose(grad(tf.constant(x)).numpy(), want, rtol=1e-12)
    np.testing.assert_allclose(tf.function(grad)(tf.constant(x)).numpy(), want, rtol=1e-12)


def test_numpy_function_has_no_gradient():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.numpy_function(np.exp, [x], tf.float32))
    assert tape.gradient(y, x) is None


def test_py_function_wrong_output_shape_and_dtype_errors():
    bad = tf.function(lambda x: tf.numpy_function(lambda a: a.sum(), [x], tf.float32))
    with pytest.raises(ValueError, match=r"output 0 has shape \[\] but the graph was traced for \[None\].*TensorSpec"):
        bad(tf.constant(X))
    with pytest.raises(TypeError, match="is a int32 tensor but Tout says float32"):
        tf.py_function(lambda a: tf.cast(a, tf.int32), [tf.constant(X)], tf.float32)


def test_py_function_stays_in_program_order_with_variables():
    v = tf.Variable(1.0)
    seen = []

    @tf.function
    def f():
        v.assign(2.0)
        tf.py_function(lambda: seen.append(float(v.numpy())) or 0.0, [], tf.float32)
        v.assign(3.0)
        return v.read_value()

    assert float(f()) == 3.0 and seen == [2.0]


# ------------------------------------------------------------------ graph utilities

def test_ensure_shape_static_and_runtime():
    assert tf.ensure_shape(tf.zeros([2, 3]), [2, None]).shape == (2, 3)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"shape \[2, 3\], expected \[3, None\]"):
        tf.ensure_shape(tf.zeros([2, 3]), [3, None])
    f = tf.function(lambda x: tf.ensure_shape(x, [None, 3]) * 2.0, input_signature=[tf.TensorSpec([None, None])])
    out = f(tf.ones([4, 3]))
    np.testing.assert_allclose(out.numpy(), np.full((4, 3), 2.0))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"expected \[None, 3\]"):
        f(tf.ones([4, 2]))
    g = tf.function(lambda x: tf.ensure_shape(x, [5]))
    with pytest.raises(ValueError, match=r"expected \[5\]"):
        g(tf.ones([4]))
    sig = tf.function(lambda x: tf.ensure_shape(x, [None, 3]), input_signature=[tf.TensorSpec([None, None])])
    assert sig.get_concrete_function().graph.outputs  # traced with the refined shape


def test_ensure_shape_gradient_passes_through():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.ensure_shape(x, [2]) ** 2)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])


def test_control_dependencies_group_no_op_identity_n_tuple():
    v = tf.Variable(0.0)

    @tf.function
    def f(x):
        up = v.assign_add(x)
        with tf.control_dependencies([up]):
            y = tf.identity(v.read_value())
        tf.no_op()
        tf.group(up)
        a, b = tf.identity_n([y, x])
        c, d = tf.tuple([a, b])
        return c + d

    assert float(f(tf.constant(2.0))) == 4.0
    assert float(v.numpy()) == 2.0
    with pytest.raises(TypeError, match="expected tensors or operations"):
        with tf.control_dependencies([3]):
            pass


def test_executing_eagerly_get_static_value_init_scope():
    seen = {}

    @tf.function
    def f(x):
        seen["eager"] = tf.executing_eagerly()
        seen["static_x"] = tf.get_static_value(x)
        seen["static_c"] = tf.get_static_value(tf.constant([1, 2]) * 1)
        seen["static_shape"] = tf.get_static_value(tf.shape(x))
        seen["symbolic"] = tf.is_symbolic_tensor(x)
        with tf.init_scope():
            seen["init_eager"] = tf.executing_eagerly()
        return x

    f(tf.zeros([2, 5]))
    assert seen["eager"] is False and seen["init_eager"] is True and seen["symbolic"] is True
    assert seen["static_x"] is None
    assert seen["static_shape"].tolist() == [2, 5]
    assert tf.executing_eagerly() is True
    np.testing.assert_array_equal(tf.get_static_value(tf.constant([3, 4])), [3, 4])
    assert tf.get_static_value(5) == 5 and tf.is_symbolic_tensor(tf.constant(1.0)) is False


# ------------------------------------------------------------------ namespaces

def test_version_logger_autograph_debugging():
    assert tf.version.VERSION == tf.__version__ and isinstance(tf.version.GIT_VERSION, str)
    assert isinstance(tf.get_logger(), logging.Logger) and tf.get_logger().name == "tensorflow"
    tf.autograph.set_verbosity(0)
    tf.debugging.set_log_device_placement(False)
    tf.debugging.enable_check_numerics()
    tf.debugging.disable_check_numerics()
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad")


def test_config_threading_and_devices():
    before = tf.config.threading.get_intra_op_parallelism_threads()
    try:
        tf.config.threading.set_intra_op_parallelism_threads(1)
        from tapeflow.compiler.flags import get_flag
        assert get_flag("num_threads") == 1
        assert tf.config.threading.get_intra_op_parallelism_threads() == 1
    finally:
        tf.config.threading.set_intra_op_parallelism_threads(before)
    tf.config.threading.set_inter_op_parallelism_threads(2)
    assert tf.config.threading.get_inter_op_parallelism_threads() == 2
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="non-GPU"):  # as TensorFlow refuses it
        tf.config.experimental.set_memory_growth(cpu, True)
    assert tf.config.experimental.get_memory_info("CPU:0") == {"current": 0, "peak": 0}
    assert cpu in tf.config.get_visible_devices()
    assert tf.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    tf.config.set_visible_devices([], "GPU")
    assert tf.config.get_visible_devices("GPU") == [] and tf.config.list_logical_devices("GPU") == []
    with pytest.raises(ValueError, match="CPU cannot be hidden"):
        tf.config.set_visible_devices([], "CPU")
    tf.config.set_visible_devices(tf.config.list_physical_devices())
    assert tf.config.get_visible_devices() == tf.config.list_physical_devices()


def test_distribute_default_one_device_and_mirrored():
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1 and not tf.distribute.has_strategy()
    for strategy in (tf.distribute.OneDeviceStrategy("/cpu:0"), tf.distribute.MirroredStrategy()):
        with strategy.scope():
            assert tf.distribute.get_strategy() is strategy
            v = tf.Variable([1.0, 2.0])
        out = strategy.run(lambda x: x * v, args=(tf.constant([3.0, 4.0]),))
        np.testing.assert_allclose(out.numpy(), [3.0, 8.0])
        assert float(strategy.reduce(tf.distribute.ReduceOp.SUM, out, axis=0)) == 11.0
        assert float(strategy.reduce("MEAN", out, axis=0)) == 5.5
        assert strategy.reduce(tf.distribute.ReduceOp.SUM, out, axis=None) is out
        assert strategy.experimental_local_results(out) == (out,)
        ds = tf.data.Dataset.from_tensor_slices([1.0, 2.0]).batch(2)
        dist = strategy.experimental_distribute_dataset(ds)  # TF: a DistributedDataset even for one replica
        assert isinstance(dist, tf.distribute.DistributedDataset)
        np.testing.assert_array_equal([b.numpy() for b in dist], [[1.0, 2.0]])
    assert tf.distribute.get_strategy() is default
    # TF accepts devices it lacks (here a GPU: soft placement runs that replica on the CPU)
    assert tf.distribute.MirroredStrategy(["/cpu:0", "/gpu:0"]).num_replicas_in_sync == 2
    with pytest.raises(AssertionError, match="No duplicates allowed in `devices` argument"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/device:CPU:0"])


def test_compat():
    assert tf.compat.v2 is tf
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])  # TF1's reduce_sum: the TF2 one, with TF1's keyword names too
    assert tf.compat.v1.reduce_sum(x, reduction_indices=1, keep_dims=True).numpy().tolist() == [[3.0], [7.0]]
    assert tf.compat.v1.reduce_sum(x, axis=0).numpy().tolist() == tf.reduce_sum(x, axis=0).numpy().tolist()
    tf.compat.v1.enable_eager_execution()
    assert tf.compat.v1.executing_eagerly()
    assert tf.compat.v1.train.GradientDescentOptimizer is tf.train.GradientDescentOptimizer
    tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
    assert tf.get_logger().level == logging.ERROR
    tf.get_logger().setLevel(logging.NOTSET)
    with pytest.raises(RuntimeError, match=r"tf.placeholder\(\) is not compatible with eager execution"):
        tf.compat.v1.placeholder(tf.float32, [None, 3])
    with pytest.raises(RuntimeError, match="The Session graph is empty"):
        tf.compat.v1.Session().run(tf.constant(1.0))  # made eagerly as in TF 2; nothing to run
    # tf.Graph is the type of traced graphs, and making one says what to use instead
    with pytest.raises(NotImplementedError, match=r"tf.Graph\(\): TensorFlow 1 graph building .* @tf.function"):
        tf.Graph()
    graph = tf.function(lambda x: x + 1).get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    assert isinstance(graph, tf.Graph) and issubclass(type(graph), tf.Graph)
    assert not isinstance(tf.constant(1.0), tf.Graph)
    with pytest.raises(AttributeError, match="not provided by tapeflow"):
        tf.compat.v1.no_such_name  # noqa: B018


# ------------------------------------------------------------------ ragged

def test_ragged_constant_to_tensor_row_lengths():
    rt = tf.ragged.constant([[1, 2, 3], [], [4, 5]])
    assert isinstance(rt, tf.RaggedTensor) and rt.dtype == tf.int32
    assert rt.row_lengths().numpy().tolist() == [3, 0, 2]
    assert rt.flat_values.numpy().tolist() == [1, 2, 3, 4, 5]
    assert rt.row_splits.numpy().tolist() == [0, 3, 3, 5]
    assert rt.to_tensor().numpy().tolist() == [[1, 2, 3], [0, 0, 0], [4, 5, 0]]
    assert rt.to_tensor(default_value=-1).numpy().tolist() == [[1, 2, 3], [-1, -1, -1], [4, 5, -1]]
    assert rt.to_tensor(shape=[2, 2]).numpy().tolist() == [[1, 2], [0, 0]]
    assert rt.to_list() == [[1, 2, 3], [], [4, 5]] and rt.shape.as_list() == [3, None]
    assert rt[2].numpy().tolist() == [4, 5] and int(rt.nrows()) == 3
    inner = tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]])
    assert inner.to_tensor().shape == (2, 2, 2) and inner.dtype == tf.float32
    nested = tf.ragged.constant([[[1], [2, 3]]])
    assert nested.ragged_rank == 2 and nested.to_tensor().numpy().tolist() == [[[1, 0], [2, 3]]]


def test_ragged_from_row_lengths_gradient():
    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        dense = tf.RaggedTensor.from_row_lengths(v, [1, 2]).to_tensor(default_value=9.0)
        y = tf.reduce_sum(dense * tf.constant([[1.0, 10.0], [100.0, 1000.0]]))
    assert dense.numpy().tolist() == [[1.0, 9.0], [2.0, 3.0]]
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [1.0, 100.0, 1000.0])
