"""What a benchmark ran on: machine, versions, thread settings.  Figures from two
machines are not comparable; ratios from one run on one machine are."""
import os
import platform
import sys

THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TAPEFLOW_NUM_THREADS",
                    "OPENBLAS_CORETYPE", "XLA_FLAGS", "TF_NUM_INTRAOP_THREADS", "TF_NUM_INTEROP_THREADS")


def _cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _memory_gib():
    try:
        return round(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2 ** 30, 1)
    except (ValueError, OSError, AttributeError):
        return None


def _version(module_name):
    module = sys.modules.get(module_name)
    return getattr(module, "__version__", None) if module is not None else None


def _blas():
    """NumPy's BLAS library and its thread count, when threadpoolctl can tell."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    return [{k: info.get(k) for k in ("internal_api", "version", "num_threads", "architecture")}
            for info in threadpool_info()]


def _c_compiler():
    from tapeflow.compiler import get_flag
    return get_flag("cc") or os.environ.get("CC") or "cc"


def environment(peers=None):
    """A dict: machine, Python and library versions, thread settings.  `peers`
    ({name: version}) adds the versions of optional libraries that ran."""
    import numpy
    import tapeflow
    from tapeflow.runtime import registry
    versions = {"python": platform.python_version(), "numpy": numpy.__version__,
                "tapeflow": tapeflow.__version__}
    for name in ("matplotlib",):
        if _version(name):
            versions[name] = _version(name)
    versions.update(peers or {})
    return {
        "machine": {"cpu": _cpu_model(), "cores": os.cpu_count(), "memory_gib": _memory_gib(),
                    "os": f"{platform.system()} {platform.release()}", "arch": platform.machine()},
        "versions": versions,
        "threads": {name: os.environ[name] for name in THREAD_VARIABLES if name in os.environ},
        "blas": _blas(),
        "tapeflow_backend": getattr(registry.state.xp, "__name__", str(registry.state.xp)),
        "c_compiler": _c_compiler(),
        "load_average": _load_average(),
    }


def _load_average():
    """The 1-minute load average: above ~0 on an idle machine means other work
    competed for the cores (multi-threaded kernels suffer most)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


__all__ = ["environment"]
