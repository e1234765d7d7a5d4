"""The public surface: explicit names only, and the namespaces hold what TensorFlow's do."""
import types

import pytest

import tapeflow as tf

NAMESPACES = ["math", "nn", "random", "linalg", "dtypes", "bitwise", "errors", "nest", "image", "experimental",
              "autodiff", "signal", "audio"]


PACKAGES = """autograph benchmark compat config contrib data debugging distribute initializers io keras layers
    lookup losses metrics optimizers queue ragged saved_model sets sparse strings summary test train types""".split()


def test_no_implementation_modules_leak_into_the_namespace():
    modules = [n for n in tf.__all__ if isinstance(getattr(tf, n), types.ModuleType)]
    assert sorted(modules) == sorted(NAMESPACES + PACKAGES)
    for name in ("np", "R", "A", "M", "sys", "math_ops", "array_ops"):
        assert not hasattr(tf, name), name
    assert tf.types is not types  # tf.types is TensorFlow's namespace, not Python's module
    assert tf.types.experimental.TraceType.__module__ == "tapeflow.tracer.signature"


@pytest.mark.parametrize("ns", NAMESPACES)
def test_namespaces_are_importable_modules_with_explicit_members(ns):
    mod = getattr(tf, ns)
    assert isinstance(mod, types.ModuleType) and mod.__name__ == f"tapeflow.{ns}"
    assert sorted(n for n in vars(mod) if not n.startswith("__")) == mod.__all__
    imported = __import__(f"tapeflow.{ns}", fromlist=["x"])
    assert imported is mod


@pytest.mark.parametrize("path", """
    math.reduce_sum math.top_k math.log math.sigmoid math.softplus math.floormod math.argmax math.cumsum
    math.reduce_logsumexp math.is_nan math.squared_difference math.divide_no_nan math.reciprocal
    nn.relu nn.relu6 nn.leaky_relu nn.elu nn.selu nn.gelu nn.softplus nn.softsign nn.sigmoid nn.tanh
    nn.softmax nn.log_softmax nn.dropout nn.l2_normalize nn.moments nn.bias_add
    nn.softmax_cross_entropy_with_logits nn.sparse_softmax_cross_entropy_with_logits
    nn.sigmoid_cross_entropy_with_logits nn.conv2d nn.max_pool2d nn.avg_pool2d nn.max_pool nn.avg_pool
    random.normal random.uniform random.truncated_normal random.shuffle random.set_seed
    linalg.matmul linalg.einsum linalg.tensordot linalg.matrix_transpose linalg.eye
    dtypes.float32 dtypes.cast dtypes.as_dtype dtypes.DType errors.InvalidArgumentError
    add subtract multiply divide truediv floordiv pow negative abs sign square sqrt exp maximum minimum
    clip_by_value round floor ceil equal where reduce_any reduce_all argmin matmul tensordot einsum
    reshape transpose expand_dims squeeze concat stack unstack split tile pad gather gather_nd scatter_nd
    boolean_mask slice one_hot cast zeros ones zeros_like ones_like fill eye range linspace identity
    stop_gradient shape size rank cumsum sort argsort reverse add_n newaxis bool float32 int64
    GradientTape Variable Tensor TensorShape custom_gradient UnconnectedGradients convert_to_tensor
""".split())
def test_tensorflow_name_exists(path):
    obj = tf
    for part in path.split("."):
        obj = getattr(obj, part)
    assert obj is not None or path == "newaxis"
