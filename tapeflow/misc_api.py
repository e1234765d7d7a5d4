"""Small TensorFlow namespaces that programs touch in passing: tf.version,
tf.get_logger, and the extra tf.config / tf.debugging / tf.autograph switches.

Each switch does what it can here: thread counts go to the compiler's
`num_threads` flag, device visibility and log placement are recorded, memory
growth is a no-op (tapeflow does not reserve GPU memory up front).
"""
import logging
import types

from tapeflow.compiler.flags import get_flag as _get_flag, set_flag as _set_flag
from tapeflow.runtime import devices as _devices
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.version import VERSION as __version__

# tf.version: VERSION is tapeflow's own version; TensorFlow programs only print it
# or compare its major number, and tapeflow runs TF2 programs.
version = types.SimpleNamespace(VERSION=__version__, GIT_VERSION="tapeflow-" + __version__,
                                COMPILER_VERSION="", GRAPH_DEF_VERSION=0)


def get_logger():
    """The "tensorflow" logging.Logger, as in TensorFlow."""
    return logging.getLogger("tensorflow")


# ------------------------------------------------------------------ autograph / debugging

_settings = {"autograph_verbosity": 0, "log_device_placement": False, "check_numerics": False}


def autograph_set_verbosity(level, alsologtostdout=False):
    """tf.autograph.set_verbosity: recorded; tapeflow's converter logs nothing."""
    _settings["autograph_verbosity"] = int(level)


def set_log_device_placement(enabled):
    """tf.debugging.set_log_device_placement: recorded; tapeflow does not log placements."""
    _settings["log_device_placement"] = bool(enabled)


def get_log_device_placement():
    return _settings["log_device_placement"]


def enable_check_numerics(stack_height_limit=30, path_length_limit=50):
    """Accepted; use tf.debugging.check_numerics on the tensors to check."""
    _settings["check_numerics"] = True


def disable_check_numerics():
    _settings["check_numerics"] = False


# ------------------------------------------------------------------ config

_threads = {"inter_op": 0}


def set_intra_op_parallelism_threads(num_threads):
    """Threads of one compiled kernel (the compiler's num_threads flag; 0 = all cores).
    Takes effect for kernels compiled afterwards."""
    n = int(num_threads)
    if n < 0:
        raise ValueError(with_location(f"set_intra_op_parallelism_threads: {n} is negative"))
    _set_flag("num_threads", None if n == 0 else n)


def get_intra_op_parallelism_threads():
    value = _get_flag("num_threads")
    return 0 if value is None else int(value)


def set_inter_op_parallelism_threads(num_threads):
    """Recorded only: tapeflow runs one op (or fused kernel) at a time."""
    _threads["inter_op"] = int(num_threads)


def get_inter_op_parallelism_threads():
    return _threads["inter_op"]


threading = types.SimpleNamespace(
    set_intra_op_parallelism_threads=set_intra_op_parallelism_threads,
    get_intra_op_parallelism_threads=get_intra_op_parallelism_threads,
    set_inter_op_parallelism_threads=set_inter_op_parallelism_threads,
    get_inter_op_parallelism_threads=get_inter_op_parallelism_threads,
)

_visible = {}  # device type -> the devices set visible (absent: all)


def _check_physical(device, what):
    if device not in _devices.list_physical_devices():
        raise ValueError(with_location(f"{what}: {device!r} is not a physical device of this machine"))


def set_memory_growth(device, enable):
    """No-op: tapeflow allocates GPU memory as it goes (CuPy's pool), never all up front."""
    _check_physical(device, "set_memory_growth")
    if device.device_type != "GPU":
        raise ValueError(with_location("Cannot set memory growth on non-GPU and non-Pluggable devices"))


def get_memory_growth(device):
    _check_physical(device, "get_memory_growth")
    return True


def get_memory_info(device):
    """{'current': bytes, 'peak': bytes} of CuPy's pool on a GPU; zeros on the CPU."""
    kind, index = _devices.parse_device(device)
    cupy = _devices.gpu_module() if kind == "GPU" else None
    if cupy is None:
        if kind == "GPU":
            raise ValueError(with_location(f"get_memory_info: there is no {device!r} on this machine"))
        return {"current": 0, "peak": 0}
    with cupy.cuda.Device(index):
        pool = cupy.get_default_memory_pool()
        return {"current": int(pool.used_bytes()), "peak": int(pool.total_bytes())}


def get_visible_devices(device_type=None):
    devices = _devices.list_physical_devices(device_type)
    return [d for d in devices if d.device_type not in _visible or d in _visible[d.device_type]]


def set_visible_devices(devices, device_type=None):
    """Records which devices the program means to use.  tapeflow places work with
    tf.device and the inputs' devices; hiding every GPU is allowed, hiding the CPU is not."""
    devices = [devices] if hasattr(devices, "device_type") else list(devices)
    for d in devices:
        _check_physical(d, "set_visible_devices")
        if device_type is not None and d.device_type != device_type.upper():  # TF's check and message
            raise ValueError(with_location(f"Unrecognized device: {d!r} (not a {device_type} device)"))
    kinds = [device_type.upper()] if device_type else ["CPU", "GPU"]
    for kind in kinds:
        chosen = [d for d in devices if d.device_type == kind]
        if kind == "CPU" and not chosen and (device_type or devices):
            if device_type:
                raise ValueError(with_location("set_visible_devices: the CPU cannot be hidden"))
            continue
        _visible[kind] = chosen


def list_logical_devices(device_type=None):
    # The CPU cannot be hidden, and its logical devices (set_logical_device_configuration)
    # all stand on it; a GPU's logical device is visible with its physical one.
    visible = {v.name for v in get_visible_devices(device_type)}
    return [d for d in _devices.list_logical_devices(device_type)
            if d.device_type == "CPU" or d.name.replace("/device:", "/physical_device:") in visible]


def enable_op_determinism():
    """tf.config.experimental.enable_op_determinism: tapeflow's kernels are deterministic
    already; what it switches off is the tiered start, whose first calls run the NumPy
    path (values within ulps of C's, but when the switch comes depends on the compiler)."""
    _set_flag("tiered", 0)


def disable_op_determinism():
    """The tiered start as the environment sets it again (see enable_op_determinism)."""
    _set_flag("tiered", None)
