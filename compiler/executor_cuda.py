"""Compiled graphs on a device array module: the GPU executor.

`DeviceProgram(graph, xp, kernels)` runs an optimized graph as a list of steps:
fused nodes launch one generated CUDA kernel each (codegen_cuda), every other
primitive runs its table implementation with `xp` (CuPy: matmul and conv go to
cuBLAS), cond/while pick their branch and loop on the host.  Values are dropped
after their last use, so CuPy's memory pool recycles their blocks for the next
allocations (that pool, not a static plan, reuses intermediates here).

With `kernels=None` fused nodes run their body graphs through `xp` instead:
that is how the same program is tested on the CPU (xp = numpy) and the path a
kernel falls back to for shapes it was not made for.

`PlacedExecutable` is what `compile_graph` returns on a machine with a GPU:
each call runs where runtime.devices places it, compiling each side once.
"""
import numpy as np

from tapeflow.runtime import devices
from tapeflow.runtime.errors import op_error
from tapeflow.runtime.registry import PRIMITIVES
from tapeflow.runtime.tensor import Tensor

from . import codegen_cuda
from .ir import Ref
from .passes import optimize
from .reference import run_while

# --fmad=false: as -ffp-contract=off on the CPU, a * b + c is rounded twice, as the
# eager (one op per kernel) path rounds it.  The source needs nothing else.
NVRTC_OPTIONS = ("--fmad=false",)


class DeviceProgram:
    """One graph (optimized unless `optimized`) as steps over array module `xp`."""

    def __init__(self, graph, xp, kernels=None, optimized=False):
        self.graph = graph if optimized else optimize(graph)
        self.xp = xp
        self.kernels = kernels
        self.constants = {}  # slot -> device array or variable, set before each run
        self.steps = []  # (fn, input refs, output refs, refs dead after the step)
        self._build()

    def _build(self):
        # Values live in a list indexed by slot (a Ref's hash is slow on this path).
        g = self.graph
        slot = {}
        for node in g.nodes:
            for j in range(len(node.avals)):
                slot[Ref(node.id, j)] = len(slot)
        self.n_slots = len(slot)
        self.input_slots = tuple(slot[r] for r in g.inputs)
        self.output_slots = tuple(slot[r] for r in g.outputs)
        last_use = {}
        for i, node in enumerate(g.nodes):
            for r in node.inputs:
                last_use[r] = i
        keep = set(g.outputs)
        for i, node in enumerate(g.nodes):
            op = node.op
            outs = tuple(Ref(node.id, j) for j in range(len(node.avals)))
            if op == "input":
                continue
            if op in ("const", "variable"):
                value = node.attr["value"].obj._value if op == "const" else node.attr["var"].obj
                self.constants[slot[outs[0]]] = self._device_array(value) if op == "const" else value
                keep.add(outs[0])
                continue
            dead = tuple(slot[r] for r in dict.fromkeys(node.inputs) if last_use[r] == i and r not in keep)
            self.steps.append((self._step(node), tuple(slot[r] for r in node.inputs),
                               tuple(slot[r] for r in outs), dead))

    def _device_array(self, array):
        return devices.to_module(array, self.xp)

    def _step(self, node):
        step = _STEPS.get(node.op)
        if step is not None:
            return step(self, node)
        prim = PRIMITIVES.get(node.op)
        if prim is None:
            raise NotImplementedError(f"the GPU executor has no rule for graph op {node.op!r}")
        return _PrimStep(prim, node.attr, self.xp)

    def _read_variable(self, node):
        return lambda var: (self._device_array(var._value._value),)

    def _assign_variable(self, node):
        return _assign

    def _fused(self, node):
        body_program = DeviceProgram(node.attr["body"], self.xp, None, optimized=True)
        if self.kernels is None:
            return body_program
        return self.kernels.add(node, body_program)

    def _cond(self, node):
        attrs = node.attr
        branches = (DeviceProgram(attrs["then_graph"], self.xp, self.kernels),
                    DeviceProgram(attrs["else_graph"], self.xp, self.kernels))
        return lambda pred, *ops: branches[0 if bool(pred) else 1](*ops)

    def _while(self, node):
        attrs = node.attr
        cond = DeviceProgram(attrs["cond_graph"], self.xp, self.kernels)
        body = DeviceProgram(attrs["body_graph"], self.xp, self.kernels)
        # the condition's value crosses to the host once per iteration
        return lambda *vals: run_while(attrs, vals, cond, body)

    def __call__(self, *arrays):
        g = self.graph
        if len(arrays) != len(g.inputs):
            raise ValueError(f"graph {g.name} takes {len(g.inputs)} inputs, got {len(arrays)}")
        env = [None] * self.n_slots
        for s, v in self.constants.items():
            env[s] = v
        for i, (ref, s, a) in enumerate(zip(g.inputs, self.input_slots, arrays)):
            env[s] = self._input(i, a, g.aval(ref))
        for fn, ins, outs, dead in self.steps:
            results = fn(*[env[s] for s in ins])
            for s, v in zip(outs, results):
                env[s] = v
            for s in dead:
                env[s] = None  # the memory pool may hand the block to the next allocation
        return [env[s] for s in self.output_slots]

    def _input(self, index, a, aval):
        a = self._device_array(a)
        dtype = aval.dtype.np
        if a.dtype != dtype:
            if a.dtype.kind == dtype.kind and a.dtype.itemsize == dtype.itemsize:
                a = a.astype(dtype)
            else:
                raise TypeError(f"compiled graph: input {index} must be {dtype}{list(aval.shape)}, "
                                f"got {a.dtype}{list(a.shape)}")
        shape = aval.shape
        if len(a.shape) != len(shape) or any(d is not None and d != e for d, e in zip(shape, a.shape)):
            raise ValueError(f"compiled graph: input {index} must have shape {list(shape)}, got {list(a.shape)}")
        return a


# The graph nodes a DeviceProgram runs its own way; every other op is a _PrimStep.
_STEPS = {"read_variable": DeviceProgram._read_variable, "assign_variable": DeviceProgram._assign_variable,
          "fused": DeviceProgram._fused, "cond": DeviceProgram._cond, "while_loop": DeviceProgram._while}


class _PrimStep:
    """A primitive through its table implementation on `xp`."""

    __slots__ = ("prim", "attrs", "xp")

    def __init__(self, prim, attrs, xp):
        self.prim = prim
        self.attrs = attrs
        self.xp = xp

    def __call__(self, *arrays):
        xp = self.xp
        try:
            result = self.prim.impl(xp, *arrays, **self.attrs)
        except Exception as exc:
            raise op_error(self.prim.name, [Tensor(a) for a in arrays], self.attrs, exc) from exc
        results = tuple(result) if self.prim.multiple_results else (result,)
        if xp is np:
            return results
        # some implementations build small host arrays (shape, random draws)
        return tuple(devices.to_module(r, xp) for r in results)


def _assign(var, value):
    # The variable keeps its device: a host variable gets a host copy back.
    old = var._value._value
    value = value.astype(var._dtype.np, copy=False)
    var._store(Tensor(devices.to_module(value, devices.module_of(old))))
    return ()


# ---------------------------------------------------------------- CUDA kernels
class CudaKernels:
    """The fused kernels of one compiled graph (and its nested graphs): one
    CUDA module, compiled by NVRTC on the first launch and cached on disk by
    CuPy (~/.cupy/kernel_cache)."""

    def __init__(self, cupy):
        self.xp = cupy
        self.entries = []  # (name, source, spec)
        self._module = None
        self._sm_count = None

    def add(self, node, fallback):
        name = f"tf_fused_{len(self.entries)}"
        src, spec = codegen_cuda.render_fused(node, name)
        self.entries.append((name, src, spec))
        return CudaLaunch(self, spec, fallback)

    @property
    def source(self):
        return codegen_cuda.module_source([src for _, src, _ in self.entries])

    def function(self, name):
        """The kernel `name`: fn((grid,), (block,), args) launches it."""
        if self._module is None:
            self._module = self.xp.RawModule(code=self.source, options=NVRTC_OPTIONS)
            self._sm_count = self.xp.cuda.Device().attributes["MultiProcessorCount"]
        return self._module.get_function(name)

    @property
    def sm_count(self):
        return self._sm_count


class CudaLaunch:
    """Calls one generated kernel: checks and normalizes the inputs, allocates
    the outputs from CuPy's pool, launches.  Anything the kernel was not made
    for (an unexpected shape, an empty space) runs the body instead."""

    def __init__(self, kernels, spec, fallback):
        from .passes.fusion import classify
        self.kernels = kernels
        self.spec = spec
        self.fallback = fallback
        attrs = spec.node.attr
        self.space = tuple(attrs["space"])
        self.split = attrs["split"]
        body = attrs["body"]
        self.in_avals = [body.aval(r) for r in body.inputs]
        self.modes = [classify(a.shape, self.space, self.split) for a in self.in_avals]
        self.out_avals = spec.node.avals
        self.fn = None

    def __call__(self, *arrays):
        space = self._space(arrays)
        if space is None:
            return self.fallback(*arrays)
        k = self.split
        rows = int(np.prod(space[:k], dtype=np.int64))
        cols = int(np.prod(space[k:], dtype=np.int64))
        if rows * cols == 0:
            return self.fallback(*arrays)  # empty: nothing to launch, and max/min must raise
        cp = self.kernels.xp
        args = []
        for a, aval in zip(arrays, self.in_avals):
            if a.dtype != aval.dtype.np or not a.flags.c_contiguous:
                a = cp.ascontiguousarray(a, dtype=aval.dtype.np)
            args.append(a)
        outs = [cp.empty(_out_shape(aval.shape, space), aval.dtype.np) for aval in self.out_avals]
        if self.fn is None:
            self.fn = self.kernels.function(self.spec.name)
        spec = self.spec
        if spec.flat:
            rows, cols = 1, rows * cols
        grid, block = codegen_cuda.launch_config(spec.mode, rows, cols, self.kernels.sm_count)
        self.fn((grid,), (block,), tuple(args) + tuple(outs) + (np.int64(rows), np.int64(cols)))
        return outs

    def _space(self, arrays):
        """The iteration space for these inputs, or None when one does not fit."""
        space = self.space
        if None in space:
            space = None
            for a, mode in zip(arrays, self.modes):
                if mode == "full":
                    space = tuple(a.shape)
                    break
            if space is None or len(space) != len(self.space):
                return None
        if not _fits(arrays, self.in_avals, self.modes, space, self.split):
            return None
        return space


def _fits(arrays, avals, modes, space, k):
    rank = len(space)
    for a, aval, mode in zip(arrays, avals, modes):
        shape = tuple(a.shape)
        if len(shape) != len(aval.shape) or any(d is not None and d != e for d, e in zip(aval.shape, shape)):
            return False
        padded = (1,) * (rank - len(shape)) + shape
        if mode == "full":
            ok = padded == space
        elif mode == "scalar":
            ok = all(d == 1 for d in padded)
        elif mode == "row":
            ok = padded[:k] == space[:k] and all(d == 1 for d in padded[k:])
        elif mode == "col":
            ok = all(d == 1 for d in padded[:k]) and padded[k:] == space[k:]
        else:  # general: static shapes only, checked above
            ok = None not in aval.shape
        if not ok:
            return False
    return True


def _out_shape(shape, space):
    if len(shape) == len(space):
        return tuple(s if d is None else d for d, s in zip(shape, space))
    return tuple(space[:len(shape)])


class CudaExecutable:
    """A graph compiled for the GPU.  Debug views: .optimized_graph, .cuda_source."""

    def __init__(self, program, kernels):
        self._program = program
        self.kernels = kernels
        self.optimized_graph = program.graph

    @property
    def cuda_source(self):
        return self.kernels.source

    def __call__(self, *arrays):
        return self._program(*arrays)


def compile_graph_cuda(graph):
    cupy = devices.gpu_module()
    if cupy is None:
        raise RuntimeError("compile_graph_cuda: no GPU is usable here (CuPy and a CUDA device are needed)")
    kernels = CudaKernels(cupy)
    return CudaExecutable(DeviceProgram(graph, cupy, kernels), kernels)


class PlacedExecutable:
    """compile_graph's result when a GPU is present: a call runs on the GPU when
    runtime.devices places it there (inside tf.device('/gpu:N'), or outside any
    tf.device with an input already on the GPU), on the CPU otherwise."""

    def __init__(self, graph, compile_cpu):
        self._graph = graph
        self._compile_cpu = compile_cpu
        self._cpu = None
        self._gpu = None

    @property
    def cpu(self):
        if self._cpu is None:
            self._cpu = self._compile_cpu(self._graph)
        return self._cpu

    @property
    def gpu(self):
        if self._gpu is None:
            self._gpu = compile_graph_cuda(self._graph)
        return self._gpu

    def __call__(self, *arrays):
        if devices.runs_on_gpu(arrays):
            return self.gpu(*arrays)
        return self.cpu(*[devices.to_module(a, np) for a in arrays])

    def __getattr__(self, name):  # the CPU executable's debug views
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.cpu, name)
