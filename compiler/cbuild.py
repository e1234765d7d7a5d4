"""Build generated C into a shared library, cached on disk, and load it.

Cache: TAPEFLOW_CACHE_DIR, else $XDG_CACHE_HOME/tapeflow, else ~/.cache/tapeflow
(created private, 0700).  The key hashes the source, the compiler (path, size,
mtime), the flags, the CPU's feature flags and tapeflow's version.  Files are
written to a temporary name and renamed (atomic); next to each library a
`.sha256` records its digest, so a truncated or corrupted library is detected
and rebuilt instead of being loaded.

Trust: a library in the cache is code every tapeflow process loads, so the cache
is trusted only as SSH and Python trust theirs: the directory and each file must
be owned by the user and not writable by group or others (files: no symlinks).
Otherwise one warning, and this process builds in a private temporary directory.

No compiler, or a failed compile: `build` returns None and warns once; the
executor then runs fused kernels through NumPy (slower, same results).

Tiered start: `cached` answers without compiling (loaded, or valid on disk);
`build_in_background` compiles on worker threads (one per core, so the
translation units of several graphs compile in parallel) and hands back the
warning for the caller's thread to give.  `_lock` guards the tables only; a
compile holds the lock of its own key, so nothing waits on an unrelated compile.
"""
import collections
import concurrent.futures
import ctypes
import hashlib
import os
import platform
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
import warnings

from tapeflow.runtime.version import VERSION

from . import flags

# -O2 with the vectorizer: as fast as -O3 on these loops and ~40% quicker to compile.
# -ffp-contract=off: GNU C would fuse a * b + c into one FMA (one rounding), where
# eager NumPy rounds twice -- compiled results must equal eager ones bit for bit.
BASE_FLAGS = ["-O2", "-ftree-vectorize", "-march=native", "-ffp-contract=off", "-fPIC", "-shared",
              "-std=gnu11",
              "-fno-math-errno", "-fno-trapping-math", "-fwrapv", "-fopenmp-simd",
              "-Wno-unknown-pragmas", "-Wl,--no-undefined"]
MVEC_LIBS = ["-lmvec", "-lm"]
PLAIN_LIBS = ["-lm"]
_lock = threading.Lock()  # guards the dicts below, never held while compiling
_loaded = {}  # key -> Library; never unloaded (kernel_call.Caller objects hold raw addresses into them)
_building = {}  # key -> Lock held while that key compiles
_pool = None  # the compile workers (build_in_background), made on first use
_warned = set()
_probe = {}


def cache_dir():
    d = flags.get_flag("cache_dir")
    if not d:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        d = os.path.join(base, "tapeflow")
    os.makedirs(d, mode=0o700, exist_ok=True)
    problem = _untrusted(d, follow=True)
    return d if problem is None else _private_dir(d, problem)


def _untrusted(path, follow):
    """Why `path` may not be used for code we load (None if it may)."""
    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError as exc:
        return str(exc)
    if not follow and not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if st.st_uid != os.getuid():
        return f"it is owned by uid {st.st_uid}, not by this user ({os.getuid()})"
    if st.st_mode & 0o022:
        return f"it is writable by group or others (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _private_dir(refused, problem):
    warn_once(f"tapeflow: not using the compile cache {refused!r}: {problem}; compiled kernels are built in a "
              f"private temporary directory instead (fix the cache's owner and mode, or set TAPEFLOW_CACHE_DIR)")
    with _lock:  # compile workers come here too
        if not _probe.get("private_dir"):
            _probe["private_dir"] = tempfile.mkdtemp(prefix="tapeflow-cache-")  # 0700, ours
        return _probe["private_dir"]


def find_cc():
    """Path of the C compiler, or None."""
    cc = flags.get_flag("cc") or os.environ.get("CC") or "cc"
    path = shutil.which(cc)
    return path


def _cpu_features():
    if "cpu" not in _probe:
        text = platform.machine()
        try:
            with open("/proc/cpuinfo") as f:
                for line in f:
                    if line.startswith("flags"):
                        text += line
                        break
        except OSError:
            pass
        _probe["cpu"] = hashlib.sha256(text.encode()).hexdigest()[:16]
    return _probe["cpu"]


def _cc_identity(cc):
    st = os.stat(cc)
    return f"{os.path.realpath(cc)}:{st.st_size}:{int(st.st_mtime)}"


def machine_identity():
    """What a library depends on besides its source and flags: the C compiler's
    identity (None without one) and the CPU's feature flags."""
    cc = find_cc()
    return (cc and _cc_identity(cc)), _cpu_features()


def _openmp_flags():
    """-fopenmp unless TAPEFLOW_NUM_THREADS=1; a compiler without OpenMP fails the
    first attempt and the build retries without it (no probe compile)."""
    threads = flags.get_flag("num_threads")
    if threads is not None and int(threads) <= 1:
        return []
    return ["-fopenmp"]


def warn_once(message):
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)


# OpenMP threads that finish a kernel spin-wait for the next one.  libgomp's default
# (300000 spins, several milliseconds) is a gamble on a machine whose cores are busy
# with other work: the spinning thread takes the core the main thread needs; a
# 2-thread GELU ran 10x slower than on one thread, and softmax+layernorm swung
# between 1.8x and 12x NumPy from run to run.  10000 spins (about half a
# millisecond) still bridge the gap between back-to-back kernels and gave steady
# figures (6x +- 0.3) on the same busy machine; 1000 let threads fall asleep
# between kernels and pay the wake-up.  libgomp reads this once, when the first
# kernel library loads it; a user's own setting wins.
SPINCOUNT = "10000"


class Library:
    """A loaded shared library: `function(name, n_args, gil_released)`."""

    def __init__(self, path):
        os.environ.setdefault("GOMP_SPINCOUNT", SPINCOUNT)
        self.path = path
        # OpenMP threads that spin after a kernel steal the cores from the BLAS
        # threads of the matmul that follows (a 784x256 matmul went 1 ms -> 50 ms).
        # libgomp reads this once, when the first library that links it loads.
        os.environ.setdefault("OMP_WAIT_POLICY", "passive")
        self._cdll = ctypes.CDLL(path)  # calls release the GIL: for large kernels
        self._pydll = ctypes.PyDLL(path)  # calls keep it: cheaper, for small ones

    def function(self, name, n_objects, n_ints, release_gil=False):
        lib = self._cdll if release_gil else self._pydll
        fn = getattr(lib, name)
        fn.argtypes = [ctypes.py_object] * n_objects + [ctypes.c_int64] * n_ints
        fn.restype = ctypes.c_int
        return fn

    def c_function(self, name, argtypes, restype):
        """A plain-C entry point (pointers and integers), called with the GIL released."""
        fn = getattr(self._cdll, name)
        fn.argtypes, fn.restype = list(argtypes), restype
        return fn


def lazily_built(source, mvec_source=None):
    """A function giving the library built from `source` (or `mvec_source`, as `build`):
    built on the first call (once, thread-safe), None when no C compiler works
    (remembered) or while the no_c flag is on (asked at each call).  The fixed-source
    libraries (random_c, conv_c, pool_c, depthwise_c) load through it."""
    built, lock = [], threading.Lock()

    def library():
        if flags.is_on("no_c"):
            return None
        if not built:
            with lock:
                if not built:
                    built.append(build(source, mvec_source))
        return built[0]
    return library


def build(source, mvec_source=None, include_dirs=(), python_extension=False):
    """Compile `source` (or `mvec_source`, the same code with SIMD math
    declarations, when libmvec links) and load it; None when no compiler works.
    `python_extension`: the code calls the Python C API, whose symbols resolve
    against the running interpreter when it loads (as an extension module's do),
    so they may stay undefined at link time."""
    lib, problem = _build(_plan(source, mvec_source, include_dirs, python_extension))
    if problem:
        warn_once(problem)
    return lib


def cached(source, mvec_source=None, include_dirs=(), python_extension=False):
    """The library `build` would return, when it is loaded already or valid in
    the disk cache; None when getting it needs the compiler (nothing is compiled
    and nothing waits on a compile in progress)."""
    plan = _plan(source, mvec_source, include_dirs, python_extension)
    if not isinstance(plan, _Plan):
        return None
    key = plan.attempts[0][3]  # only the first choice: `build` would not look further
    with _lock:
        lib = _loaded.get(key)
    if lib is None and (lib := _load_cached(_paths(plan.directory, key))) is not None:
        with _lock:
            lib = _loaded.setdefault(key, lib)
    return lib


def build_in_background(source, mvec_source=None, include_dirs=(), python_extension=False):
    """A Future of (library or None, warning or None): the same work as `build`,
    on a worker thread; the caller warns.  What the build depends on (compiler,
    flags, cache directory) is read now, in the caller's thread.  Workers are
    joined at interpreter exit (a compile in progress finishes and is cached)."""
    plan = _plan(source, mvec_source, include_dirs, python_extension)
    if isinstance(plan, _Plan):
        try:
            return _workers().submit(_build, plan)
        except RuntimeError:  # interpreter shutting down: no new threads
            pass
    done = concurrent.futures.Future()
    done.set_result(_build(plan))
    return done


def _after_fork_in_child():
    """A forked child has none of the parent's threads: a lock a compile held
    would never be released, and the pool's workers are gone.  Start afresh (a
    graph that was still compiling keeps running through NumPy in the child)."""
    global _lock, _pool, _building
    _lock, _pool, _building = threading.Lock(), None, {}


os.register_at_fork(after_in_child=_after_fork_in_child)


def _workers():
    global _pool
    with _lock:
        if _pool is None:
            _pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1,
                                                          thread_name_prefix="tapeflow-cc")
        return _pool


# What one build compiles: the compiler, (source, libs, flags, key) per attempt in order, the cache directory.
_Plan = collections.namedtuple("_Plan", "cc attempts directory")


def _plan(source, mvec_source, include_dirs, python_extension=False):
    """A _Plan, or (None, warning or None) when there is no C to build."""
    if flags.is_on("no_c"):
        return None, None
    cc = find_cc()
    if cc is None:
        return None, (f"tapeflow: no C compiler found ({flags.get_flag('cc') or 'cc'}); compiled functions "
                      f"run their fused kernels through NumPy (slower). Set TAPEFLOW_CC to a compiler.")
    extra = flags.get_flag("cflags")
    extra = extra.split() if isinstance(extra, str) else list(extra or [])
    variants = []
    if mvec_source is not None:
        variants.append((mvec_source, MVEC_LIBS, _openmp_flags()))
    variants.append((source, PLAIN_LIBS, []))  # no libmvec, no OpenMP: plain C
    attempts = []
    identity = _cc_identity(cc)
    for src, libs, omp in variants:
        base = [f for f in BASE_FLAGS if not (python_extension and f == "-Wl,--no-undefined")]
        cmd_flags = base + omp + extra + [f"-I{d}" for d in include_dirs]
        key_text = "\n".join([src, identity, " ".join(cmd_flags + libs), _cpu_features(),
                              VERSION, sys.version.split()[0]])
        attempts.append((src, libs, cmd_flags, hashlib.sha256(key_text.encode()).hexdigest()[:32]))
    return _Plan(cc, attempts, cache_dir())


def _build(plan):
    """(library or None, warning or None) for a _plan() result."""
    if not isinstance(plan, _Plan):
        return plan
    errors = []
    for src, libs, cmd_flags, key in plan.attempts:
        with _lock:
            lib = _loaded.get(key)
            if lib is not None:
                return lib, None
            building = _building.setdefault(key, threading.Lock())
        with building:  # one compile per key; other keys compile in parallel
            with _lock:
                lib = _loaded.get(key)
            if lib is None:
                lib, err = _load_or_compile(plan.cc, src, key, cmd_flags, libs, plan.directory)
        if lib is not None:
            with _lock:
                return _loaded.setdefault(key, lib), None
        errors.append(err)
    return None, ("tapeflow: compiling generated C failed; fused kernels run through NumPy (slower).\n"
                  + "\n".join(e for e in errors if e)[:4000])


def _digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _paths(d, key):
    """(directory, library path, digest path) for `key`: in `d`, or in the private
    directory when a file there may not be trusted."""
    so_path = os.path.join(d, f"k_{key}.so")
    for f in (so_path, so_path + ".sha256"):
        problem = _untrusted(f, follow=False) if os.path.lexists(f) else None
        if problem is not None:
            d = _private_dir(f, problem)
            so_path = os.path.join(d, f"k_{key}.so")
            break
    return d, so_path, so_path + ".sha256"


def _load_cached(paths):
    """The library at `paths` when it matches its recorded digest, else None."""
    _, so_path, sha_path = paths
    if os.path.exists(so_path) and os.path.exists(sha_path):
        try:
            with open(sha_path) as f:
                expected = f.read().strip()
            if _digest(so_path) == expected:
                return Library(so_path)
        except OSError:
            pass
    return None  # absent, truncated or corrupted: (re)built by _load_or_compile


def _load_or_compile(cc, src, key, cmd_flags, libs, directory):
    d, so_path, sha_path = paths = _paths(directory, key)
    lib = _load_cached(paths)
    if lib is not None:
        return lib, None
    fd, tmp_src = tempfile.mkstemp(suffix=".c", prefix=f"k_{key}_", dir=d)
    with os.fdopen(fd, "w") as f:
        f.write(src)
    tmp_so = tmp_src[:-2] + ".so"
    cmd = [cc, *cmd_flags, tmp_src, "-o", tmp_so, *libs]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        _cleanup(tmp_src, tmp_so)
        return None, f"{' '.join(cmd)}: {exc}"
    if proc.returncode != 0:
        _cleanup(tmp_so)
        return None, f"{' '.join(cmd)}\n{proc.stderr[-3000:]}"
    os.chmod(tmp_so, 0o700)  # whatever the umask: the trust rule above must hold for our own files
    digest = _digest(tmp_so)
    os.replace(tmp_src, os.path.join(d, f"k_{key}.c"))
    os.replace(tmp_so, so_path)
    _atomic_write(sha_path, digest)
    try:
        return Library(so_path), None
    except OSError as exc:
        return None, str(exc)


def _atomic_write(path, data):
    tmp = f"{path}.{os.getpid()}.{threading.get_ident()}.tmp"
    with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    os.replace(tmp, path)


# -- other artifacts in the same cache, under the same trust rules (AutoGraph's conversions)
def _blob_path(name):
    path = os.path.join(cache_dir(), name)
    problem = _untrusted(path, follow=False) if os.path.lexists(path) else None
    return path if problem is None else os.path.join(_private_dir(path, problem), name)


def load_blob(name):
    """The bytes `store_blob(name, ...)` stored, or None: absent, or failing the
    digest stored with them (truncated, corrupted)."""
    try:
        with open(_blob_path(name), "rb") as f:
            data = f.read()
    except OSError:
        return None
    digest, payload = data[:32], data[32:]
    return payload if len(digest) == 32 and hashlib.sha256(payload).digest() == digest else None


def store_blob(name, payload):
    """Store `payload` under `name` (atomically, with its digest); errors are ignored:
    the cache only saves work."""
    try:
        _atomic_write(_blob_path(name), hashlib.sha256(payload).digest() + payload)
    except OSError:
        pass


def _cleanup(*paths):
    for p in paths:
        try:
            os.remove(p)
        except OSError:
            pass
