"""tf.config.optimizer, the remaining tf.config.experimental switches and tf.debugging's
traceback filtering: each records its setting and reads back what TensorFlow reads back.

None changes how tapeflow runs: its graphs are always compiled (so `set_jit` has nothing to
switch), its float32 matmuls are IEEE (TensorFloat-32 is a GPU mode it never uses), eager ops
run synchronously, inputs on another device are copied (the "silent" policy), and its errors
are not filtered.  The readings are TensorFlow's, measured (tests/tf_parity/programs/fng_api.py).
"""
from tapeflow.runtime import devices as _devices
from tapeflow.runtime.errors import with_location

_state = {"jit": "", "tf32": True, "synchronous": True, "device_policy": "silent", "traceback_filtering": True}
# Grappler's option names (tf.config.optimizer.set_experimental_options); the two TF reports unset.
_options = {"disable_model_pruning": False, "disable_meta_optimizer": False}
_OPTION_NAMES = {"layout_optimizer", "constant_folding", "shape_optimization", "remapping",
                 "arithmetic_optimization", "dependency_optimization", "loop_optimization",
                 "function_optimization", "debug_stripper", "scoped_allocator_optimization",
                 "pin_to_host_optimization", "implementation_selector", "auto_mixed_precision",
                 "disable_meta_optimizer", "min_graph_nodes", "disable_model_pruning",
                 "auto_parallel", "auto_mixed_precision_mkl", "auto_mixed_precision_onednn_bfloat16",
                 "use_plugin_optimizers", "memory_optimization"}
_POLICIES = ("silent", "warn", "explicit", "silent_for_int32")


def get_jit():
    """'autoclustering' once set_jit(True) (or 'autoclustering'), else ''."""
    return _state["jit"]


def set_jit(enabled):
    _state["jit"] = "autoclustering" if enabled else ""


def get_experimental_options():
    return dict(_options)


def set_experimental_options(options):
    for name in options:
        if name not in _OPTION_NAMES:
            raise ValueError(with_location(f"tf.config.optimizer.set_experimental_options: unknown option {name!r}"))
    merged = dict(options)
    merged.update((k, v) for k, v in _options.items() if k not in merged)
    _options.clear()
    _options.update(merged)


def enable_tensor_float_32_execution(enabled):
    _state["tf32"] = bool(enabled)


def tensor_float_32_execution_enabled():
    return _state["tf32"]


def get_memory_usage(device):
    """Deprecated in TF for get_memory_info(device)['current']; the same here."""
    from .misc_api import get_memory_info
    return get_memory_info(device)["current"]


def reset_memory_stats(device):
    """Checks the device exists (the CuPy pool's peak is its size: nothing to reset)."""
    kind, _ = _devices.parse_device(device)
    if kind == "GPU" and _devices.gpu_module() is None:
        raise ValueError(with_location(f"reset_memory_stats: there is no {device!r} on this machine"))


def get_device_details(device):
    """{} for a CPU, as TF; a GPU's name and compute capability from CuPy."""
    if getattr(device, "device_type", None) != "GPU":
        return {}
    cupy = _devices.gpu_module()
    index = int(device.name.rsplit(":", 1)[1])
    props = cupy.cuda.runtime.getDeviceProperties(index)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    return {"device_name": name, "compute_capability": (props["major"], props["minor"])}


def set_synchronous_execution(enable):
    _state["synchronous"] = bool(enable)


def get_synchronous_execution():
    return _state["synchronous"]


def set_device_policy(device_policy):
    if device_policy is None:
        device_policy = "silent"
    if device_policy not in _POLICIES:
        raise ValueError(f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
                         f"https://www.tensorflow.org/api_docs/python/tf/config/experimental/set_device_policy "
                         f"for valid `device_policy` arguments.")
    _state["device_policy"] = device_policy


def get_device_policy():
    return _state["device_policy"]


def enable_traceback_filtering():
    _state["traceback_filtering"] = True


def disable_traceback_filtering():
    _state["traceback_filtering"] = False


def is_traceback_filtering_enabled():
    return _state["traceback_filtering"]
