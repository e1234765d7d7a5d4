"""`compile_graph(graph) -> executable`: optimize, generate C for every fused
kernel (of the graph and of its cond/while bodies, in ONE translation unit),
and turn the schedule into ONE generated Python function of straight-line
calls, so that a call costs a few microseconds plus the kernels.

Values in the generated function are local variables named after their Ref;
each is dropped (`del`) after its last use so memory is freed as early as in
eager code, and fused kernels write into buffers chosen by the memory plan.
Arrays reach a kernel only C-contiguous, of the node's dtype and static shape:
graph inputs are checked on entry, kernel outputs and constants are so by
construction, and anything a NumPy op produced is checked before the call
(a mismatch runs that node through NumPy instead).

Tiered start: when a graph's C is not in the cache yet, the executable starts
on its NumPy path (every `_k_` is None, so each fused kernel runs its body
through NumPy, as without a compiler) while the C compiles on a worker thread.
The first call that finds the compile done switches, on the caller's thread:
it binds the kernels in the namespace the generated code reads them from
(each call picks them up; a call in flight may mix both, which is safe: any
kernel call may fall back to NumPy already) and gives the warning of a failed
compile there.  Nothing ever waits for the compiler but `wait_for_c`.
"""
import concurrent.futures
import sys
import threading

import numpy as np

from tapeflow.runtime import devices
from tapeflow.runtime.tensor import Tensor

from . import array_abi, blockgen_c, c_math, c_team, cbuild, codegen_c, compile_record, flags, kernel_call
from . import loopgen_c
from .c_templates import MATH_FUNCS
from .op_groups import MVEC_BINARY, MVEC_UNARY
from .interpreter import run_graph
from .function_writer import FunctionWriter
from .ir import Graph, note_failing_node
from .passes import CPU_PIPELINE, optimize
from .reference import REFERENCE_SPECIALS

_ND = np.ndarray
_LARGE = 1 << 16  # kernels at least this big release the GIL while they run


_offset = []  # [data offset or None] once known (array_abi: found on the first compile)


def data_offset():
    if not _offset:
        _offset.append(array_abi.data_offset())
    return _offset[0]


def _prelude(with_mvec, offset):
    lines = ["#include <stdint.h>", "#include <math.h>",
             f"#define TF_DATA(o) (*(char **)((char *)(o) + {offset}))"]
    if with_mvec:
        # glibc's libmvec: SIMD variants of these, so loops calling them vectorize
        for fn in MVEC_UNARY:
            for t, s in (("float", "f"), ("double", "")):
                lines.append(f"#pragma omp declare simd notinbranch\n{t} {fn}{s}({t});")
        for fn in MVEC_BINARY:
            for t, s in (("float", "f"), ("double", "")):
                lines.append(f"#pragma omp declare simd notinbranch\n{t} {fn}{s}({t}, {t});")
    return "\n".join(lines) + "\n" + c_math.SOURCE + c_team.SOURCE + "\n"


def compile_graph(graph, tick=None):
    """Compile `graph`; returns an Executable: executable(*arrays) -> list of arrays.
    With a GPU present, a PlacedExecutable that also runs on the GPU when a call
    is placed there (executor_cuda.py).

    `tick` (for profilers): a callable the generated code calls with an index
    into `Executable.profile_points` after the input checks and after each op
    node, so the time between two calls is the cost of that node.  A profiled
    executable is the CPU one."""
    if tick is None and devices.gpu_module() is not None:
        from .executor_cuda import PlacedExecutable
        return PlacedExecutable(graph, _compile_cpu)
    return _compile_cpu(graph, tick)


def _compile_cpu(graph, tick=None):
    """A profiled executable, or one whose passes print, is compiled in full;
    any other replays its compile record when one is on disk (compile_record.py)
    and otherwise stores one."""
    if tick is not None or flags.is_on("dump_passes"):
        return _Compiler(tick).compile(graph)
    key = compile_record.key(graph, data_offset())
    record = compile_record.load(key) if key is not None else None
    if record is not None:
        try:
            return _Compiler(replay=compile_record.Replay(record, key)).compile(graph)
        except compile_record.OutOfStep:
            pass
    compiler = _Compiler(recording=key is not None)
    exe = compiler.compile(graph)
    if key is not None:
        compile_record.store(key, **compiler.trail)
    return exe


class Executable:
    """A compiled graph.  Debug views: .optimized_graph, .python_source, .c_source;
    .graphs: every optimized graph (the top one first, then cond/while bodies),
    .kernels: names of the C kernels (fused nodes, whole loops and blocks),
    .scratch_bytes: the C scratch memory of whole loops' and blocks' arenas (one call
    of each; tracemalloc, which sees NumPy's buffers, cannot see these),
    .profile_points: (graph, node or None for the entry checks) per tick index."""

    def __init__(self, fn, optimized, python_source, c_source, library, graphs=(), kernels=(),
                 profile_points=()):
        self._fn = fn
        self.optimized_graph = optimized
        self.python_source = python_source
        self.c_source = c_source
        self.uses_c = library is not None
        self.graphs = list(graphs)
        self.kernels = list(kernels)
        self.profile_points = list(profile_points)
        self.fallbacks = {}  # kernel name -> _Fallback (its .calls and .reason)
        self.kernel_of = {}  # (id(graph), fused node id) -> kernel name
        self._pending = None  # tiered start: (Future of (library, warning), bind)

    filename = None
    line_nodes = {}
    scratch_bytes = 0

    def _start_tiered(self, future, bind):
        """Run through NumPy until `future` gives the library; `bind(library)`
        then installs it and returns the kernel names."""
        self._pending = (future, bind)
        self._switch_lock = threading.Lock()
        self._entry, self._fn = self._fn, self._tiered

    def _tiered(self, *arrays):
        if self._pending is not None and self._pending[0].done():
            self._switch()
        return self._entry(*arrays)

    def wait_for_c(self, timeout=None):
        """Wait (at most `timeout` seconds) for a background compile to finish and
        switch to its kernels; returns `uses_c`.  Calls never need it."""
        pending = self._pending
        if pending is not None:
            concurrent.futures.wait([pending[0]], timeout)
            if pending[0].done():
                self._switch()
        return self.uses_c

    def _switch(self):
        with self._switch_lock:
            if self._pending is None:
                return  # another thread switched first
            future, bind = self._pending
            try:
                library, problem = future.result()
            except Exception as exc:  # the worker itself failed: as a failed compile
                library, problem = None, ("tapeflow: compiling generated C failed; fused kernels run "
                                          f"through NumPy (slower).\n{type(exc).__name__}: {exc}")
            if problem:
                cbuild.warn_once(problem)
            if library is not None:
                self.kernels = bind(library)
                self.uses_c = True
            self._fn = self._entry
            self._pending = None

    def __call__(self, *arrays):
        try:
            return self._fn(*arrays)
        except Exception as exc:
            self.note_failure(exc)
            raise

    @property
    def generated(self):
        """The generated function: what calling the executable runs, one frame less
        (None while a tiered start waits for its C: calls must switch it then).
        Whoever calls it directly passes an exception it raises to note_failure."""
        return None if self._pending is not None else self._fn

    def note_failure(self, exc):
        """Tag `exc` with the node whose generated line raised it (the innermost
        such line; a node run by the reference interpreter tagged it already)."""
        node = None
        tb = exc.__traceback__
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self.filename:
                node = self.line_nodes.get(tb.tb_lineno, node)
            tb = tb.tb_next
        if node is not None:
            note_failing_node(exc, node)


class _Compiler:
    """`replay`: a compile record's decisions, used instead of running the
    passes and renderers; `recording`: keep them in `trail` for a record."""

    def __init__(self, tick=None, replay=None, recording=False):
        self.replay = replay
        self.trail = {"graphs": [], "kernels": [], "loops": [], "body": None} if recording else None
        self.kernels = []  # (name, source, spec)
        self.loops = []
        self.namespace = {"_np": np, "_nd": _ND, "_empty": np.empty, "_Tensor": Tensor, "_tick": tick}
        self.tick = tick
        self.profile_points = []  # (graph, node) per `_tick(i)` written; only when profiling
        self.graphs = []  # every optimized graph, top first
        self.functions = []  # python source of each generated function
        self.line_nodes = []  # per function: line number in it -> the node it runs
        self.kernel_of = {}  # (id(graph), fused node id) -> kernel name
        self._counter = 0

    def fresh(self, prefix):
        self._counter += 1
        return f"{prefix}{self._counter}"

    def compile(self, graph):
        entry = self.function(graph, top=True)
        c_source = None
        library = pending = None
        offset = data_offset() if (self.kernels or self.loops) else None
        if offset is not None:
            if self.replay is not None:
                body = self.replay.body
            else:
                body = "\n\n".join([src for _, src, _ in self.kernels + self.loops] + self._trampolines())
            if self.trail is not None:
                self.trail["body"] = body
            c_source = _prelude(True, offset) + body
            plain = _prelude(False, offset) + body
            if self.tick is None and _tiering_on():
                kernel_call.start()  # (its C too must not hold up the first calls)
                library = cbuild.cached(plain, mvec_source=c_source)
                if library is None:
                    pending = cbuild.build_in_background(plain, mvec_source=c_source)
            else:  # the Caller's C (a cold cache's first compile) builds on a worker meanwhile
                kernel_call.start()
                library = cbuild.build(plain, mvec_source=c_source)
                kernel_call.wait()
        kernels = self._bind_kernels(library, compiling=pending is not None)
        py_source = "\n\n".join(self.functions)
        if flags.is_on("dump_c"):
            print(f"=== generated C\n{c_source}\n=== generated Python\n{py_source}", file=sys.stderr)
        filename = f"<tapeflow compiled {graph.name}>"
        code = compile(py_source, filename, "exec")
        exec(code, self.namespace)
        exe = Executable(self.namespace[entry], self.namespace.get("_graph_" + entry), py_source,
                         c_source, library, self.graphs, kernels, self.profile_points)
        exe.filename, exe.line_nodes = filename, self._global_line_nodes()
        exe.fallbacks = {name: self.namespace["_fb_" + name] for name, _, _ in self.kernels}
        exe.kernel_of = dict(self.kernel_of)
        exe.scratch_bytes = sum(spec.arena_bytes for _, _, spec in self.loops)
        if pending is not None:
            exe._start_tiered(pending, self._bind_kernels)
            if pending.done():  # nothing to compile (no compiler): warn now, as without tiering
                exe._switch()
        return exe

    def _global_line_nodes(self):
        """Line numbers of the joined module source -> nodes (functions are
        joined with one blank line between them)."""
        out, first = {}, 1
        for src, local in zip(self.functions, self.line_nodes):
            for line, node in local.items():
                out[first + line - 1] = node
            first += src.count("\n") + 2
        return out

    # -- kernels
    def _signatures(self):
        """(name, object arguments, integer arguments) of every C entry point."""
        out = [(name, len(spec.node.inputs) + len(spec.node.avals), 2) for name, _, spec in self.kernels]
        return out + [(name, spec.n_args, 0) for name, _, spec in self.loops]

    def _trampolines(self):
        return [kernel_call.trampoline(*sig) for sig in self._signatures()]

    def _bind_kernels(self, library, compiling=False):
        """Put the kernels of `library` (None: the NumPy path) in the namespace;
        returns their names.  The fallbacks are made once: a tiered start's
        switch keeps them, their counts restarted (calls before it are no fault
        of the C)."""
        ns = self.namespace
        for name, _, spec in self.kernels:
            fallback = ns.get("_fb_" + name) or _fallback(spec.node)
            fallback.calls = 0
            fallback.reason = "the C kernels were still compiling (tiered start)" if compiling else ""
            ns["_fb_" + name] = fallback
            n_obj = len(spec.node.inputs) + len(spec.node.avals)
            if library is None:
                ns["_k_" + name] = None
                ns["_dyn_" + name] = _DynamicKernel(spec, None, fallback)
                continue
            big = spec.dynamic or (spec.rows or 0) * (spec.cols or 0) >= _LARGE
            fn = kernel_call.function(library, name, n_obj, 2, release_gil=big)
            ns["_k_" + name] = fn
            ns["_dyn_" + name] = _DynamicKernel(spec, fn, fallback)
        for name, _, spec in self.loops:
            if library is None:
                ns["_k_" + name] = None
            else:
                ns["_k_" + name] = kernel_call.function(library, name, spec.n_args, 0, release_gil=False)
        return [name for name, _, _ in self.kernels + self.loops] if library is not None else []

    # -- the decisions a compile record keeps: optimized graphs, kernel specs, whole-loop C
    def optimized(self, graph):
        graph = self.replay.graph() if self.replay is not None else optimize(graph, CPU_PIPELINE)
        if self.trail is not None:
            self.trail["graphs"].append(graph)
        return graph

    def render_fused(self, node, name):
        """(C source, KernelSpec) of a fused node (no source when replayed)."""
        if self.replay is not None:
            return "", self.replay.kernel(name, node)
        src, spec = codegen_c.render_fused(node, name, flags.get_flag("num_threads"))
        if self.trail is not None:
            self.trail["kernels"].append(spec)
        return src, spec

    def render_loop(self, node, name):
        """loopgen_c.try_render_loop's answer (no source when replayed)."""
        if self.replay is not None:
            spec = self.replay.loop(name)
            return None if spec is None else (name, "", spec)
        loop = loopgen_c.try_render_loop(node, name)
        if self.trail is not None:
            self.trail["loops"].append(None if loop is None else loop[2])
        return loop

    def render_block(self, graph, name):
        """blockgen_c.try_render_block's answer (no source when replayed); its
        decision comes first in a record, its graph as the top one."""
        if self.replay is not None:
            spec = self.replay.loop(name)
            return None if spec is None else (self.replay.graph(), "", spec)
        block = blockgen_c.try_render_block(graph, name)
        if self.trail is not None:
            self.trail["loops"].append(None if block is None else block[2])
            if block is not None:
                self.trail["graphs"].append(block[0])
        return block

    # -- python generation
    def function(self, graph, top=False):
        if top and self.tick is None:  # a profile shows the nodes one by one
            block = self.render_block(graph, "block")  # (the only C function of its library)
            if block is not None:
                return self.block_function(graph, "block", *block)
        graph = self.optimized(graph)
        fname = self.fresh("_run")
        self.namespace["_graph_" + fname] = graph
        self.graphs.append(graph)  # the top graph is optimized before any body
        FunctionWriter(self, graph, fname).write()
        return fname

    def block_function(self, traced, name, graph, src, spec):
        """The generated function of a graph compiled whole into one C function;
        the reference interpreter runs the traced graph when the C cannot."""
        self.loops.append((name, src, spec))
        fname = self.fresh("_run")
        self.namespace["_graph_" + fname] = graph
        self.graphs.append(graph)
        FunctionWriter(self, graph, fname).write_block(name, spec, lambda *arrays: run_graph(traced, list(arrays), op_errors=True))
        return fname


def _tiering_on():
    """The `tiered` flag, on unless set to a false value."""
    return flags.get_flag("tiered") is None or flags.is_on("tiered")


class _Fallback:
    """A kernel's body run through NumPy (the reference interpreter), counting
    its runs and why, so that a slow path shows in `tf.profile`."""

    def __init__(self, node):
        self.body = node.attr["body"]
        self.calls = 0
        self.reason = ""

    def __call__(self, *arrays):
        self.calls += 1
        if not self.reason:
            self.reason = "the C kernel refused its inputs or reported an error"
        return run_graph(self.body, list(arrays), special=REFERENCE_SPECIALS)

    def because(self, reason, arrays):
        self.reason = reason
        return self(*arrays)


def _fallback(node):
    return _Fallback(node)


class _DynamicKernel:
    """Calls a kernel whose space has unknown dims: reads them off the inputs
    read in full, checks every input against its access pattern, allocates the
    outputs.  Anything unexpected runs the body through NumPy instead."""

    def __init__(self, spec, fn, fallback):
        from .passes.fusion import classify
        self.fn = fn
        self.fallback = fallback
        node = spec.node
        attrs = node.attr
        self.space = tuple(attrs["space"])
        self.split = attrs["split"]
        body = attrs["body"]
        self.in_shapes = [body.aval(r).shape for r in body.inputs]
        self.modes = [classify(s, self.space, self.split) for s in self.in_shapes]
        self.out_avals = node.avals
        self.flat = spec.flat

    def __call__(self, *arrays):
        if self.fn is None:
            return self.fallback.because("no C library", arrays)
        # a strided view (x[:, ::2], a transpose) is copied once: the kernel reads
        # flat C order.  Falling back to NumPy for it made every fused kernel of a
        # graph with a None dim run in Python for such inputs, silently.
        # np.asarray(order="C"), not ascontiguousarray: that makes a NumPy scalar (a 0-d
        # reduction's result) a (1,) array, which no longer matched its traced () shape.
        arrays = [a if type(a) is _ND and a.flags.c_contiguous else np.asarray(a, order="C")
                  for a in arrays]
        space = None
        for a, mode, shape in zip(arrays, self.modes, self.in_shapes):
            if mode == "full":
                space = a.shape
                break
        if space is None or len(space) != len(self.space):
            return self.fallback.because("no input gives the iteration space", arrays)
        for a, shape in zip(arrays, self.in_shapes):
            if len(a.shape) != len(shape) or any(d is not None and d != e for d, e in zip(shape, a.shape)):
                return self.fallback.because(f"an input of shape {list(a.shape)} where {list(shape)} was traced",
                                             arrays)
        rank = len(space)
        for a, mode, shape in zip(arrays, self.modes, self.in_shapes):
            padded = (1,) * (rank - len(a.shape)) + a.shape
            k = self.split
            ok = {"full": padded == space, "scalar": all(d == 1 for d in padded),
                  "row": padded[:k] == space[:k] and all(d == 1 for d in padded[k:]),
                  "col": all(d == 1 for d in padded[:k]) and padded[k:] == space[k:]}.get(mode, False)
            if not ok:
                return self.fallback.because(f"an input of shape {list(a.shape)} does not broadcast "
                                             f"over {list(space)} as traced", arrays)
        k = self.split
        rows = int(np.prod(space[:k], dtype=np.int64))
        cols = int(np.prod(space[k:], dtype=np.int64))
        if self.flat:
            rows, cols = 1, rows * cols
        outs = []
        for aval in self.out_avals:
            shape = tuple(space[i] if d is None else d for i, d in enumerate(aval.shape[:len(space)])) \
                if len(aval.shape) == len(space) else tuple(space[:len(aval.shape)])
            outs.append(np.empty(shape, aval.dtype.np))
        if self.fn(*arrays, *outs, rows, cols):
            return self.fallback(*arrays)
        return outs


__all__ = ["compile_graph", "Executable", "Graph", "MATH_FUNCS"]
