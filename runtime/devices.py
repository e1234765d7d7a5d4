"""Device placement: tf.device, tf.config.list_physical_devices and soft placement.

Eager arrays live where `registry.state.xp` puts them (NumPy: the CPU).  A request
for a device that is not present runs on the CPU and warns once per device name,
as TensorFlow's soft placement does; with soft placement switched off it raises.
"""
import re
import threading
import warnings
from collections import namedtuple

from .errors import InvalidArgumentError, with_location

PhysicalDevice = namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = namedtuple("LogicalDevice", ["name", "device_type"])

_SPEC = re.compile(r"^(?:/job:\w+)?(?:/replica:\d+)?(?:/task:\d+)?"
                   r"/?(?:device:)?(?P<type>cpu|gpu|CPU|GPU)(?::(?P<index>\d+))?$")


class _PlacementState(threading.local):
    def __init__(self):
        self.stack = []


_placement = _PlacementState()
_settings = {"soft_placement": True}
_warned = set()
_gpu_count = None


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


def list_physical_devices(device_type=None):
    devices = [PhysicalDevice("/physical_device:CPU:0", "CPU")]
    devices += [PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(_count_gpus())]
    if device_type is None:
        return devices
    return [d for d in devices if d.device_type == device_type.upper()]


def list_logical_devices(device_type=None):
    return [LogicalDevice(d.name.replace("/physical_device:", "/device:"), d.device_type)
            for d in list_physical_devices(device_type)]


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


class device:
    """Context manager that places the operations inside on a device.

    Only the CPU executes eager operations here; a missing device falls back to
    it (warning once), or raises when soft placement is off.
    """

    def __init__(self, device_name):
        if device_name is None or device_name == "":
            self._name = ""
            return
        kind, index = parse_device(device_name)
        self._name = f"/device:{kind}:{index}"
        present = len(list_physical_devices(kind))
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
            # Arrays are NumPy-backed in eager mode; compiled functions choose the
            # GPU on their own.  Eager ops inside this block still run on the CPU.
            if self._name not in _warned:
                _warned.add(self._name)
                warnings.warn(f"tf.device({device_name!r}): eager operations run on the CPU; "
                              f"tf.function-compiled code uses the GPU", stacklevel=2)

    def __enter__(self):
        _placement.stack.append(self._name)
        return self

    def __exit__(self, *exc):
        _placement.stack.pop()
        return False
