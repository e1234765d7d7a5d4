"""Public names of the training library: keras, data, train, devices, TF1 compatibility."""
import sys
import types

from tapeflow import (  # noqa: F401
    compat, contrib, data, distribute, io, keras, ragged, saved_model, sparse, strings, summary, train,
)
from tapeflow import misc_api as _misc
from tapeflow import testing as test  # noqa: F401  (tf.test)
from tapeflow.misc_api import get_logger, version  # noqa: F401
from tapeflow.ragged_spec import RaggedTensorSpec  # noqa: F401
from tapeflow.ragged_tensor import RaggedTensor  # noqa: F401
from tapeflow.sparse import SparseTensor  # noqa: F401
from tapeflow.module import Module, name_scope  # noqa: F401
from tapeflow.compat_v1 import (  # noqa: F401
    enable_eager_execution, executing_eagerly, layers, log, random_normal, random_uniform, truncated_normal,
    arg_max, arg_min, assign, assign_add, assign_sub, div, multinomial, random_shuffle, set_random_seed,
    to_double, to_float, to_int32, to_int64, softmax_cross_entropy_with_logits_v2,
    count_nonzero, GraphKeys, add_to_collection, add_to_collections, get_collection, get_collection_ref,
    Session, InteractiveSession, placeholder, global_variables_initializer,
)
from tapeflow.compat_v1 import losses_namespace as _losses_namespace
from tapeflow.compat_v1 import Saver as _c1_saver
from tapeflow.runtime import devices as _devices
from tapeflow.runtime.devices import device  # noqa: F401

# TF 1.5-1.15 spelled the softmax loss with a _v2 suffix; tf.nn is built in _core_api (runtime side),
# so the TF1 alias is attached here where the compat module is importable.
_nn = sys.modules["tapeflow.nn"]
_nn.softmax_cross_entropy_with_logits_v2 = softmax_cross_entropy_with_logits_v2
_nn.__all__ = sorted(set(_nn.__all__) | {"softmax_cross_entropy_with_logits_v2"})

# TF 2 keeps these four top-level names as aliases of the Keras submodules (tf.optimizers.Adam, ...).
metrics, optimizers, initializers = keras.metrics, keras.optimizers, keras.initializers
# tf.losses is keras.losses plus the TF1-only names (softmax_cross_entropy, Reduction, ...) that
# do not collide with a Keras name; TF1's own mean_squared_error lives in tf.compat.v1.losses.
losses = _losses_namespace("tapeflow.losses", tf1_mse=False)
sys.modules[losses.__name__] = losses
# TF 1.x top-level tf.logging (absl-style verbosity over the "tensorflow" logger) and tf.train.Saver
# (a clear error pointing at tf.train.Checkpoint; train/ cannot import compat_v1, so attached here).
logging = compat.v1.logging
train.Saver = _c1_saver


def _run_functions_eagerly(run_eagerly):
    """tf.config.run_functions_eagerly: the tracer's switch (tapeflow.tracer)."""
    import tapeflow.tracer as tracer
    switch = getattr(tracer, "run_functions_eagerly", None)
    if switch is None:
        raise NotImplementedError("tf.config.run_functions_eagerly needs the tracer (tf.function)")
    return switch(run_eagerly)


config = types.SimpleNamespace(
    list_physical_devices=_devices.list_physical_devices,
    list_logical_devices=_misc.list_logical_devices,
    get_visible_devices=_misc.get_visible_devices,
    set_visible_devices=_misc.set_visible_devices,
    threading=_misc.threading,
    set_soft_device_placement=_devices.set_soft_device_placement,
    get_soft_device_placement=_devices.get_soft_device_placement,
    run_functions_eagerly=_run_functions_eagerly,
    LogicalDeviceConfiguration=_devices.LogicalDeviceConfiguration,
    set_logical_device_configuration=_devices.set_logical_device_configuration,
    get_logical_device_configuration=_devices.get_logical_device_configuration,
    experimental=types.SimpleNamespace(
        VirtualDeviceConfiguration=_devices.LogicalDeviceConfiguration,
        set_virtual_device_configuration=_devices.set_logical_device_configuration,
        get_virtual_device_configuration=_devices.get_logical_device_configuration,
        list_physical_devices=_devices.list_physical_devices, list_logical_devices=_misc.list_logical_devices,
        set_memory_growth=_misc.set_memory_growth, get_memory_growth=_misc.get_memory_growth,
        get_memory_info=_misc.get_memory_info, get_visible_devices=_misc.get_visible_devices,
        set_visible_devices=_misc.set_visible_devices),
)

__all__ = ["test", "contrib", "data", "io", "keras", "saved_model", "summary", "train", "config", "device", "layers",
           "log",
           "random_normal", "Module", "name_scope", "arg_max", "arg_min", "assign", "assign_add",
           "assign_sub", "div", "multinomial", "random_shuffle", "set_random_seed", "to_double", "to_float",
           "to_int32", "to_int64",
           "random_uniform", "truncated_normal", "enable_eager_execution", "executing_eagerly",
           "compat", "distribute", "ragged", "sparse", "strings", "version", "get_logger", "RaggedTensor", "RaggedTensorSpec",
           "SparseTensor", "losses", "metrics", "optimizers", "initializers", "logging", "count_nonzero", "GraphKeys",
           "add_to_collection", "add_to_collections", "get_collection", "get_collection_ref", "Session",
           "InteractiveSession", "placeholder", "global_variables_initializer"]

# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from tapeflow import lookup  # noqa: E402,F401  (tf.lookup)

__all__ += ["lookup"]
