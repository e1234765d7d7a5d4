"""Device placement: tf.device, tf.config.list_physical_devices, soft placement,
and moving arrays between the CPU (NumPy) and the GPU (CuPy, optional).

Where an eager op runs:
  - inside `tf.device(...)`: on that device (`registry.state.xp` is its array
    module); inputs that live elsewhere are copied there first, as TensorFlow does;
  - outside any tf.device: on the GPU when one of its inputs is there, else on
    the CPU (a CPU-only program never touches CuPy).
New tensors made from Python or NumPy values inside a GPU block live on the GPU.
A request for a device that is not present runs on the CPU and warns once per
device name (soft placement); with soft placement off it raises.

The per-op placement hook (`registry.place`) is installed only once a GPU array
exists in this process, so CPU programs keep the plain dispatch path.
"""
import re
import threading
import warnings
from collections import namedtuple

import numpy as np

from . import registry
from .errors import InvalidArgumentError, with_location

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])

_SPEC = re.compile(r"^(?:/job:\w+)?(?:/replica:\d+)?(?:/task:\d+)?"
                   r"/?(?:device:)?(?P<type>cpu|gpu|CPU|GPU)(?::(?P<index>\d+))?$")


class _PlacementState(threading.local):
    def __init__(self):
        self.stack = []  # canonical names requested by the enclosing tf.device blocks
        self.modules = []  # the array module each block runs on (numpy or cupy)


_placement = _PlacementState()
_settings = {"soft_placement": True}
_warned = set()
_gpu_count = None
_cupy = None  # the cupy module once a GPU is known to be usable


def _count_gpus():
    """Number of CUDA devices CuPy can see (0 when CuPy or a driver is missing)."""
    global _gpu_count
    if _gpu_count is None:
        try:
            import cupy
            _gpu_count = int(cupy.cuda.runtime.getDeviceCount())
        except Exception:  # no cupy, no driver, no device: all mean "no GPU"
            _gpu_count = 0
    return _gpu_count


def gpu_module():
    """The cupy module when a GPU is usable here, else None."""
    global _cupy
    if _cupy is None and _count_gpus() > 0:
        import cupy
        _cupy = cupy
    return _cupy


def list_physical_devices(device_type=None):
    devices = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    devices += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(_count_gpus())]
    if device_type is None:
        return devices
    return [d for d in devices if d.device_type == device_type.upper()]


class LogicalDeviceConfiguration:
    """One logical device to make of a physical one (tf.config.LogicalDeviceConfiguration).
    tapeflow's logical CPUs share the one CPU: they are names that tf.device accepts."""

    def __init__(self, memory_limit=None, experimental_priority=None, experimental_device_ordinal=None):
        self.memory_limit = memory_limit
        self.experimental_priority = experimental_priority
        self.experimental_device_ordinal = experimental_device_ordinal

    def __repr__(self):
        return f"LogicalDeviceConfiguration(memory_limit={self.memory_limit})"


_logical_configs = {}   # physical device name -> [LogicalDeviceConfiguration]


def set_logical_device_configuration(device, logical_devices):
    """Split a physical device into logical ones (CPUs only: a GPU is one device here)."""
    if device.device_type != "CPU" and logical_devices is not None and len(logical_devices) > 1:
        raise NotImplementedError(with_location(
            f"set_logical_device_configuration: tapeflow cannot split {device.name} into "
            f"{len(logical_devices)} logical devices; only the CPU can be split"))
    if logical_devices is None:
        _logical_configs.pop(device.name, None)
    else:
        _logical_configs[device.name] = list(logical_devices)


def get_logical_device_configuration(device):
    return _logical_configs.get(device.name)


def list_logical_devices(device_type=None):
    out, counts = [], {}
    for d in list_physical_devices(device_type):
        for _ in range(max(1, len(_logical_configs.get(d.name) or ()))):
            i = counts.get(d.device_type, 0)
            counts[d.device_type] = i + 1
            out.append(LogicalDevice(f"/device:{d.device_type}:{i}", d.device_type))
    return out


def placement_context():
    """This thread's tf.device blocks, to hand to another thread (tf.distribute's
    replica threads run under their caller's blocks)."""
    return list(_placement.stack), list(_placement.modules)


def adopt_placement_context(context):
    _placement.stack, _placement.modules = list(context[0]), list(context[1])


def set_soft_device_placement(enabled):
    _settings["soft_placement"] = bool(enabled)


def get_soft_device_placement():
    return _settings["soft_placement"]


def parse_device(spec):
    """'/gpu:0', 'GPU:1', '/device:CPU:0', '/job:localhost/.../device:GPU:0' -> ('GPU', 0)."""
    m = _SPEC.match(spec.strip())
    if not m:
        raise ValueError(with_location(f"tf.device: cannot parse the device name {spec!r}"))
    return m.group("type").upper(), int(m.group("index") or 0)


def current_device():
    """The innermost requested device as a canonical name, or '' outside tf.device."""
    return _placement.stack[-1] if _placement.stack else ""


def placed_module():
    """The array module of the innermost tf.device block, or None outside any."""
    return _placement.modules[-1] if _placement.modules else None


class device:
    """Context manager that places the operations inside on a device.

    A missing device falls back to the CPU (warning once), or raises when soft
    placement is off.
    """

    def __init__(self, device_name):
        self._gpu_index = None
        self._module = np
        if device_name is None or device_name == "":
            self._name = ""
            self._module = None
            return
        kind, index = parse_device(device_name)
        self._name = f"/device:{kind}:{index}"
        present = len(list_logical_devices(kind))
        if index >= present:
            if not _settings["soft_placement"]:
                raise InvalidArgumentError(with_location(
                    f"tf.device({device_name!r}): there is no {kind}:{index} on this machine "
                    f"(found {present}) and soft device placement is off"))
            if self._name not in _warned:
                _warned.add(self._name)
                warnings.warn(f"tf.device({device_name!r}): no {kind}:{index} is present; "
                              f"operations run on the CPU instead (soft placement)", stacklevel=2)
        elif kind == "GPU":
            self._module = gpu_module()
            self._gpu_index = index

    def __enter__(self):
        module = self._module  # None for tf.device(None): no placement inside
        _placement.stack.append(self._name)
        _placement.modules.append(module)
        if module is not None and module is not np:
            enable_transfers()
        self._saved_xp = registry.state.xp
        registry.state.xp = module if module is not None else np
        self._cuda_device = None
        if self._gpu_index is not None:
            self._cuda_device = self._module.cuda.Device(self._gpu_index)
            self._cuda_device.__enter__()
        return self

    def __exit__(self, *exc):
        if self._cuda_device is not None:
            self._cuda_device.__exit__(*exc)
        _placement.stack.pop()
        _placement.modules.pop()
        registry.state.xp = self._saved_xp
        return False


# ---------------------------------------------------------------- transfers
_SMALL = 16  # elements: device copies of arrays this small are cached (scalars in x * 2.0)
_small_copies = {}


def on_gpu(array):
    return type(array) is not np.ndarray and hasattr(array, "__cuda_array_interface__")


def to_module(array, xp):
    """`array` on the device of array module `xp` (itself when already there)."""
    if xp is np:
        return array.get() if on_gpu(array) else array
    if on_gpu(array):
        return array
    array = np.asarray(array)
    if array.size > _SMALL:
        return xp.asarray(array)
    # Tensors never change, so equal small host arrays may share one device copy.
    key = (array.dtype.str, array.shape, array.tobytes())
    copy = _small_copies.get(key)
    if copy is None:
        copy = xp.asarray(array)
        if len(_small_copies) < 4096:
            _small_copies[key] = copy
    return copy


def place_inputs(inputs):
    """registry.place: (xp, arrays) for one eager op, per the rules above."""
    xp = placed_module()
    arrays = [t._value for t in inputs]
    if xp is None:
        xp = np
        for a in arrays:
            if type(a) is not np.ndarray and on_gpu(a):
                xp = _cupy
                break
    if xp is not np and any(a.dtype == object for a in arrays):
        xp = np  # string tensors live on the host: their ops run on the CPU, as in TensorFlow
    if xp is np:
        for i, a in enumerate(arrays):
            if type(a) is not np.ndarray and on_gpu(a):
                arrays[i] = a.get()
    else:
        for i, a in enumerate(arrays):
            if not on_gpu(a):
                arrays[i] = to_module(a, xp)
    return xp, arrays


def runs_on_gpu(arrays):
    """Where a compiled function called with these arrays runs: the placement of
    the enclosing tf.device block, else the GPU when an input is there."""
    xp = placed_module()
    if xp is not None:
        return xp is not np
    return any(on_gpu(a) for a in arrays)


def enable_transfers():
    """Install the per-op placement hook (once a GPU array may exist)."""
    if registry.place is None and gpu_module() is not None:
        registry.place = place_inputs


def module_of(array):
    """The array module an array belongs to: numpy, or cupy for a GPU array."""
    return _cupy if on_gpu(array) and _cupy is not None else np


def creation_module(array):
    """Where an eager creation op like zeros_like(x) puts its result: the
    enclosing tf.device block's device, else x's."""
    xp = placed_module()
    return xp if xp is not None else module_of(array)
