"""What compiling a graph decided, kept on disk, so that a warm process skips
the passes and the C rendering: the compile record.

Keyed on the graph as traced (before any pass), a record holds the optimized
graphs in the order the compiler optimized them (the top one, then cond/while
bodies), each fused kernel's KernelSpec, each whole-loop attempt's result
(LoopSpec, or None for a loop left to Python), and the C translation unit's
body.  A compile that finds its record replays it: the same FunctionWriter
writes the same Python from the same graphs, and the C source is rebuilt from
the body, so cbuild looks the library up exactly as before (keyed on that
source; a missing, truncated or corrupted library is compiled again).

The key hashes everything those decisions depend on:
  - the traced graph, pickled: nodes, attrs, avals, each node's "file:line"
    (shown in errors), captured constants by a digest of their data, variables
    by position (the record names both by that position: it holds by value only
    the constants the passes made);
  - the compiler: tapeflow's, Python's and NumPy's versions, the size and mtime
    of every .py file of compiler/ and runtime/ (passes, kernel templates, the
    ops constant folding runs), the C compiler's identity and the CPU's flags;
  - the flags (TAPEFLOW_*, but the cache directory, tiering and dumps), the
    array data offset, and the renderers' tunable module constants (TUNABLES:
    tests and benchmarks/contention.py change some at run time).
A graph holding anything else (a py_function's callable, a GPU constant)
pickles to nothing: it is compiled in full, as before.  The record is stored
with cbuild.store_blob (same trust rules; a digest rejects a corrupted
entry), and holds its full key, checked on load.  Pickle is safe here only
because that directory is trusted as the kernel libraries are (code we load).
"""
import dataclasses
import hashlib
import io
import os
import pickle
import sys
import threading

import numpy as np

from tapeflow.runtime.tensor import Tensor
from tapeflow.runtime.variables import Variable
from tapeflow.runtime.version import VERSION

from . import blockgen_c, cbuild, codegen_c, codegen_columns_c, flags, loop_plan, loopgen_c
from .ir import Graph, Holder

FORMAT = "tapeflow compile record 1"
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE_DIRS = [os.path.join(_PACKAGE, d) for d in ("compiler", "runtime")]
_NOT_KEYED = ("cache_dir", "tiered", "dump_c", "dump_passes")  # change no decision


def tunables():
    """The renderers' module constants (read when a kernel is rendered)."""
    return (codegen_c.PARALLEL_MIN, codegen_c.COSTLY_WEIGHT, codegen_c.CHUNK, codegen_c.SCHEDULE,
            codegen_c.ADAPTIVE_TEAM, codegen_c.SCRATCH_MAX, codegen_columns_c.COL_BLOCK,
            loopgen_c.MAX_VALUE, loopgen_c.MAX_CONST, loopgen_c.STACK_BUDGET, blockgen_c.MIN_OPS,
            blockgen_c.MAX_OPS, blockgen_c.MAX_MATMUL, loop_plan.MAX_INLINE_DEPTH)


_fingerprint = []  # [text] once computed


def source_fingerprint():
    """Versions, and size and mtime of every .py file of SOURCE_DIRS (once per process)."""
    if not _fingerprint:
        parts = [FORMAT, VERSION, sys.version, np.__version__]
        for top in SOURCE_DIRS:
            _stat_tree(top, parts)
        _fingerprint.append("\n".join(parts))
    return _fingerprint[0]


def _stat_tree(folder, parts):
    with os.scandir(folder) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        if e.name.endswith(".py"):
            st = e.stat()
            parts.append(f"{e.path}:{st.st_size}:{st.st_mtime_ns}")
        elif e.name != "__pycache__" and e.is_dir():
            _stat_tree(e.path, parts)


# Taken when the compiler's modules load, not at the first compile: files edited
# while a process runs must not key records of the code it loaded before.
source_fingerprint()


class _Uncacheable(Exception):
    pass


def _const(value):
    return Holder(Tensor(value))


_loading = threading.local()  # .captured: what the traced graph being replayed captured, by position


def _captured(index, *identity):
    """A variable or constant of the traced graph, by position (`identity`: only
    in keys, which are never loaded)."""
    return Holder(_loading.captured[index])


def _graph(nodes, inputs, outputs, name):
    return Graph(nodes, inputs, outputs, name)


class _Pickler(pickle.Pickler):
    """What graphs hold, pickled for a key (`captured` empty: every variable and
    constant of the traced graph is entered there by position, first met first;
    a constant is keyed by dtype, shape and a digest of its data) or for a record
    (what the traced graph captured, by that position; constants the passes made,
    by value).  Graphs go without their lazily built index; any other held
    object cannot be stored."""

    def __init__(self, file, captured, keying):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.captured = captured  # id(variable or constant) -> (index, it)
        self.keying = keying

    def reducer_override(self, obj):
        if type(obj) is Holder:
            return self._held(obj.obj)
        if type(obj) is Graph:
            return _graph, (obj.nodes, obj.inputs, obj.outputs, obj.name)
        return NotImplemented

    def _held(self, held):
        is_var = isinstance(held, Variable)
        if not is_var and not (type(held) is Tensor and isinstance(held._value, (np.ndarray, np.generic))):
            raise _Uncacheable(type(held).__name__)  # a GPU array, a Python callable, ...
        if self.keying:
            index, _ = self.captured.setdefault(id(held), (len(self.captured), held))
            if is_var:
                return _captured, (index,)
            a = np.asarray(held._value)
            if a.dtype.hasobject:  # strings: by value
                return _captured, (index, a)
            # by name and bytes: ml_dtypes' types (bfloat16, float8) all have str '<V1'/'<V2' and
            # refuse the buffer protocol
            data = np.ascontiguousarray(a).view(np.uint8).data
            return _captured, (index, a.dtype.name, a.shape, hashlib.sha256(data).digest())
        if id(held) in self.captured:
            return _captured, (self.captured[id(held)][0],)
        if is_var:
            raise _Uncacheable("a variable the traced graph does not hold")
        return _const, (held._value,)


def _dumps(value, captured, keying):
    buf = io.BytesIO()
    _Pickler(buf, captured, keying).dump(value)
    return buf.getvalue()


class Key:
    """The record key of one traced graph: .digest (hex), the variables and
    constants it captured by position (the record refers to them the same way),
    and its input nodes (their "file:line" is where the trace was called: not
    keyed, put back on replay)."""

    def __init__(self, digest, captured, inputs):
        self.digest = digest
        self.captured = captured
        self.inputs = inputs

    @property
    def blob(self):
        return f"cr_{self.digest[:32]}.bin"


def key(graph, data_offset):
    """The Key of `graph`, or None when it cannot be recorded."""
    captured = {}
    inputs = {n.id: n for n in graph.nodes if n.op == "input"}
    unplaced = Graph(tuple(dataclasses.replace(n, loc="") if n.op == "input" else n for n in graph.nodes),
                     graph.inputs, graph.outputs, graph.name)
    try:
        traced = _dumps(unplaced, captured, keying=True)
    except (_Uncacheable, pickle.PicklingError, TypeError, AttributeError):
        return None
    settings = [(name, repr(flags.get_flag(name))) for name in flags.names() if name not in _NOT_KEYED]
    h = hashlib.sha256(source_fingerprint().encode())
    h.update(repr((cbuild.machine_identity(), settings, tunables(), data_offset)).encode())
    h.update(traced)
    return Key(h.hexdigest(), captured, inputs)


def load(k):
    """The record stored under `k` ({graphs, kernels, loops, body}), or None:
    absent, corrupted, or stored for another key."""
    payload = cbuild.load_blob(k.blob)
    if payload is None:
        return None
    _loading.captured = [it for _, it in sorted(k.captured.values(), key=lambda pair: pair[0])]
    try:
        record = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a damaged entry of any kind is a miss, never an error
        return None
    finally:
        _loading.captured = None
    if not isinstance(record, dict) or record.get("key") != k.digest:
        return None
    return record


def store(k, graphs, kernels, loops, body):
    """Store what a full compile decided (nothing when it holds what cannot be stored)."""
    record = {"key": k.digest, "graphs": graphs, "kernels": kernels, "loops": loops, "body": body}
    try:
        payload = _dumps(record, k.captured, keying=False)
    except (_Uncacheable, pickle.PicklingError, TypeError, AttributeError):
        return
    cbuild.store_blob(k.blob, payload)


class OutOfStep(Exception):
    """A replayed compile asked for what its record does not hold (then it is
    compiled in full: never expected, as the compiler is deterministic)."""


class Replay:
    """A loaded record handed out in the order the compiler asks for it."""

    def __init__(self, record, key):
        top, *nested = record["graphs"]
        top = Graph(tuple(key.inputs.get(n.id, n) if n.op == "input" else n for n in top.nodes),
                    top.inputs, top.outputs, top.name)
        self._graphs = iter([top, *nested])
        self._kernels = iter(record["kernels"])
        self._loops = iter(record["loops"])
        self.body = record["body"]

    def graph(self):
        return _next(self._graphs)

    def kernel(self, name, node):
        """The KernelSpec of the fused `node`, to be called `name`."""
        spec = _next(self._kernels)
        if spec.name != name or spec.node is not node:
            raise OutOfStep(f"kernel {name} of node {node.id}")
        return spec

    def loop(self, name):
        """The LoopSpec of the loop to be called `name`, or None (a Python loop)."""
        spec = _next(self._loops)
        if spec is not None and spec.name != name:
            raise OutOfStep(f"loop {name}")
        return spec


def _next(it):
    try:
        return next(it)
    except StopIteration:
        raise OutOfStep("the record ends early") from None
