"""The generated Python function of a compiled graph: one line (or a few) per
node, in schedule order (see executor.py for the contract of its values).
`FunctionWriter` writes it for the `_Compiler` of executor.py, which owns the
namespace, the kernels and the generated C."""
import numpy as np

from tapeflow.runtime import devices, fp_quiet
from tapeflow.runtime.errors import InvalidArgumentError, op_error
from tapeflow.runtime.registry import PRIMITIVES
from tapeflow.runtime.tensor import Tensor

from .ir import Ref
from .passes.graph_edit import contiguous
from .reference import run_while

_ND = np.ndarray


def _lines_to_nodes(lines, spans):
    """Line number (1-based, in the function's source) -> the node it runs."""
    first_line, n = [], 1
    for item in lines:
        first_line.append(n)
        n += item.count("\n") + 1
    out = {}
    for start, end, node in spans:
        for k in range(start, end):
            for extra in range(lines[k].count("\n") + 1):
                out[first_line[k] + extra] = node
    return out


def _prim_caller(node):
    prim = PRIMITIVES[node.op]
    quiet = prim.quiet and fp_quiet.STATE is not None  # NumPy's fp warnings off, in this frame
    impl = prim.eager_impl if quiet else prim.impl
    attrs = node.attr

    def call(*arrays):
        token = fp_quiet.STATE.set(fp_quiet.IGNORE) if quiet else None
        try:
            return impl(np, *arrays, **attrs)
        except (AssertionError, InvalidArgumentError):
            raise  # raised on purpose (tf.debugging asserts), with the user's message
        except Exception as exc:
            from tapeflow.runtime.tensor import Tensor as _T
            raise op_error(prim.name, [_T(np.asarray(a)) for a in arrays], attrs, exc) from exc
        finally:
            if token is not None:
                fp_quiet.STATE.reset(token)
    return call


def _host(a):
    return np.asarray(devices.to_module(a, np))


def _assign(var, value):
    var._store(Tensor(np.asarray(value).astype(var._dtype.np, copy=False)))


def _normalize_input(a, index, dtype, shape):
    a = np.asarray(devices.to_module(a, np))  # a GPU array is copied to the host
    if a.dtype != dtype:
        if a.dtype.kind == dtype.kind and a.dtype.itemsize == dtype.itemsize:
            a = a.astype(dtype)
        else:
            raise TypeError(f"compiled graph: input {index} must be {dtype}{list(shape)}, got {a.dtype}{list(a.shape)}")
    if len(a.shape) != len(shape) or any(d is not None and d != e for d, e in zip(shape, a.shape)):
        raise ValueError(f"compiled graph: input {index} must have shape {list(shape)}, got {list(a.shape)}")
    return contiguous(a)


def _checked(v, dtype, shape):
    """A value from a NumPy op, as a kernel needs it; None if it cannot be."""
    if type(v) is not _ND or v.dtype != dtype or not v.flags.c_contiguous:
        v = contiguous(v, dtype=dtype)
    if v.shape != shape:
        return None
    return v


class FunctionWriter:
    def __init__(self, compiler, graph, fname):
        self.c = compiler
        self.g = graph
        self.fname = fname
        self.ns = compiler.namespace
        self.lines = []
        self.trusted = set()  # refs known C-contiguous with their aval's dtype and shape

    def name(self, ref):
        node = self.g.node(ref.node)
        if node.op == "const":
            return f"_c{self.fname}_{ref.node}"
        if node.op == "variable":
            return f"_var{self.fname}_{ref.node}"
        return f"v{ref.node}" if len(node.avals) == 1 else f"v{ref.node}_{ref.index}"

    def glob(self, prefix, value):
        key = f"_{prefix}{self.fname}_{self.c.fresh('')}"
        self.ns[key] = value
        return key

    def write(self):
        g = self.g
        L = self.lines
        params = [self.name(r) for r in g.inputs]
        L.append(f"def {self.fname}({', '.join(params)}):")
        for i, r in enumerate(g.inputs):
            self._input(i, r)
        self._profile_point(None)
        last_use = {}
        for i, node in enumerate(g.nodes):
            for r in node.inputs:
                last_use[r] = i
        outputs = set(g.outputs)
        # buffers the memory plan hands on stay alive until the taker's line
        donors = {r for n in g.nodes if n.op == "fused" for r in (n.attr.get("reuse") or ()) if r is not None}
        spans = []  # (first line index, end line index, node): which node each line runs
        for i, node in enumerate(g.nodes):
            start = len(L)
            self._node(node)
            spans.append((start, len(L), node))
            dead = [r for r in dict.fromkeys(node.inputs) if last_use.get(r) == i and r not in outputs
                    and r not in donors and g.node(r.node).op not in ("const", "variable")]
            if dead:
                L.append(f"    del {', '.join(self.name(r) for r in dead)}")
        L.append(f"    return [{', '.join(self.name(r) for r in g.outputs)}]")
        self.c.functions.append("\n".join(L))
        self.c.line_nodes.append(_lines_to_nodes(L, spans))

    def write_block(self, name, spec, reference):
        """The function of a graph compiled whole (blockgen_c): check the inputs,
        allocate the outputs, one call; `reference(*inputs)` if the C cannot."""
        L = self.lines
        params = [self.name(r) for r in self.g.inputs]
        L.append(f"def {self.fname}({', '.join(params)}):")
        for i, r in enumerate(self.g.inputs):
            self._input(i, r)
        outs = [f"o{j}" for j in range(len(spec.out_avals))]
        for o, aval in zip(outs, spec.out_avals):
            L.append(f"    {o} = _empty({tuple(aval.shape)!r}, {self.glob('dt', aval.dtype.np)})")
        L.append(f"    if _k_{name} is None or _k_{name}({', '.join(params + outs)}):")
        L.append(f"        return {self.glob('ref', reference)}({', '.join(params)})")
        L.append(f"    return [{', '.join(outs)}]")
        self.c.functions.append("\n".join(L))
        self.c.line_nodes.append({})

    def _input(self, i, ref):
        aval = self.g.aval(ref)
        v = self.name(ref)
        dt = self.glob("dt", aval.dtype.np)
        shape = aval.shape
        if None in shape:
            cond = f"{v}.__class__ is not _nd or {v}.dtype is not {dt} or not {v}.flags.c_contiguous"
            self.lines.append(f"    if {cond} or len({v}.shape) != {len(shape)}: "
                              f"{v} = _normalize_input({v}, {i}, {dt}, {shape!r})")
        else:
            cond = f"{v}.__class__ is not _nd or {v}.dtype is not {dt} or {v}.shape != {shape!r} " \
                   f"or not {v}.flags.c_contiguous"
            self.lines.append(f"    if {cond}: {v} = _normalize_input({v}, {i}, {dt}, {shape!r})")
            self.trusted.add(ref)
        self.ns["_normalize_input"] = _normalize_input

    def _profile_point(self, node):
        if self.c.tick is not None:
            self.lines.append(f"    _tick({len(self.c.profile_points)})")
            self.c.profile_points.append((self.g, node))

    def _node(self, node):
        if node.op in ("input", "const", "variable"):  # values bound before the body runs: no line
            if node.op != "input":
                self._bind_captured(node)
            return
        outs = ", ".join(self.name(Ref(node.id, i)) for i in range(len(node.avals)))
        args = [self.name(r) for r in node.inputs]
        _WRITERS.get(node.op, FunctionWriter._call)(self, node, outs, args)
        self._profile_point(node)

    def _bind_captured(self, node):
        ref = Ref(node.id, 0)
        if node.op == "const":
            self.ns[self.name(ref)] = contiguous(node.attr["value"].obj._value)
            self.trusted.add(ref)
        else:
            self.ns[self.name(ref)] = node.attr["var"].obj

    def _read_variable(self, node, outs, args):
        self.lines.append(f"    {outs} = {args[0]}._value._value")
        self.lines.append(f"    if {outs}.__class__ is not _nd: {outs} = _host({outs})")  # a GPU variable
        self.ns["_host"] = _host

    def _assign_variable(self, node, outs, args):
        self.ns["_assign"] = _assign
        self.lines.append(f"    _assign({args[0]}, {args[1]})")

    def _fused_live(self, node, outs, args):
        if node.avals:  # with dce switched off, a cluster may compute only dead values
            self._fused(node, outs, args)

    def _call(self, node, outs, args):
        """Any other primitive: one call of its NumPy implementation."""
        fn = self.glob("p", _prim_caller(node))
        call = f"{fn}({', '.join(args)})"
        if not node.avals:  # print, assert: called for their effect only
            self.lines.append(f"    {call}")
        else:
            target = outs + "," if PRIMITIVES[node.op].multiple_results else outs
            self.lines.append(f"    {target} = {call}")

    def _fused(self, node, outs, args):
        L = self.lines
        name = self.c.fresh("k")
        src, spec = self.c.render_fused(node, name)
        self.c.kernels.append((name, src, spec))
        self.c.kernel_of[(id(self.g), node.id)] = name
        target = outs + ("," if len(node.avals) == 1 else "")
        if spec.dynamic:
            L.append(f"    {target} = _dyn_{name}({', '.join(args)})")
            return
        # static: check what NumPy ops produced, then call the kernel directly
        checked = []
        guards = []
        body = node.attr["body"]
        for r, a, inner in zip(node.inputs, args, body.inputs):
            if r in self.trusted:
                checked.append(a)
                continue
            aval = body.aval(inner)
            dt = self.glob("dt", aval.dtype.np)
            tmp = f"t{node.id}_{len(checked)}"
            L.append(f"    {tmp} = _checked({a}, {dt}, {aval.shape!r})")
            self.ns["_checked"] = _checked
            guards.append(f"{tmp} is None")
            checked.append(tmp)
        reuse = node.attr.get("reuse") or (None,) * len(node.avals)
        out_names = []
        for j, aval in enumerate(node.avals):
            o = f"o{node.id}_{j}"
            if reuse[j] is not None:
                L.append(f"    {o} = {self.name(reuse[j])}")
            else:
                dt = self.glob("dt", aval.dtype.np)
                L.append(f"    {o} = _empty({aval.shape!r}, {dt})")
            out_names.append(o)
        call = f"_k_{name}({', '.join(checked + out_names)}, {spec.rows}, {spec.cols})"
        fb = f"_fb_{name}({', '.join(args)})"
        if guards:
            L.append(f"    if {' or '.join(guards)} or _k_{name} is None or {call}:")
        else:
            L.append(f"    if _k_{name} is None or {call}:")
        L.append(f"        {', '.join(out_names)}{',' if len(out_names) == 1 else ''} = {fb}")
        L.append(f"    {outs} = {', '.join(out_names)}")
        donors = [self.name(r) for r in dict.fromkeys(reuse) if r is not None]
        if donors:  # the buffer now lives on under the new value's name
            L.append(f"    del {', '.join(donors)}")
        for j in range(len(node.avals)):
            self.trusted.add(Ref(node.id, j))
        del checked

    def _cond(self, node, outs, args):
        attrs = node.attr
        then_fn = self.c.function(attrs["then_graph"])
        else_fn = self.c.function(attrs["else_graph"])
        target = outs + ("," if len(node.avals) == 1 else "")
        call_args = ", ".join(args[1:])
        if not node.avals:
            self.lines.append(f"    ({then_fn} if {args[0]} else {else_fn})({call_args})")
        else:
            self.lines.append(f"    {target} = ({then_fn} if {args[0]} else {else_fn})({call_args})")

    def _while(self, node, outs, args):
        target = outs + ("," if len(node.avals) == 1 else "")
        loop = self.c.render_loop(node, self.c.fresh("loop"))
        python_loop = self.glob("w", self._python_while(node))
        if loop is not None:
            self._c_loop(node, outs, target, args, python_loop, *loop)
        elif node.avals:
            self.lines.append(f"    {target} = {python_loop}({', '.join(args)})")
        else:
            self.lines.append(f"    {python_loop}({', '.join(args)})")

    def _c_loop(self, node, outs, target, args, python_loop, name, src, spec):
        """A loop compiled to one C function, called as a fused kernel is: arrays
        not known to fit are checked, the results allocated (a stack var is pushed
        in place, as the push primitive does: its own buffer is the result);
        anything unexpected, or a nonzero return, runs the Python loop instead."""
        self.c.loops.append((name, src, spec))
        L = self.lines
        checked, guards = [], []
        for i, (r, a, aval) in enumerate(zip(node.inputs, args, list(spec.var_avals) + list(spec.extra_avals))):
            if r in self.trusted and self.g.aval(r).shape == aval.shape and self.g.aval(r).dtype is aval.dtype:
                checked.append(a)
                continue
            tmp = f"t{node.id}_{i}"
            L.append(f"    {tmp} = _checked({a}, {self.glob('dt', aval.dtype.np)}, {tuple(aval.shape)!r})")
            self.ns["_checked"] = _checked
            guards.append(f"{tmp} is None")
            checked.append(tmp)
        fallback = f"{python_loop}({', '.join(args)})"
        L.append(f"    if {' or '.join(guards + [f'_k_{name} is None'])}:")
        L.append(f"        {target} = {fallback}" if node.avals else f"        {fallback}")
        L.append("    else:")
        out_names = []
        for j, aval in enumerate(spec.var_avals):
            o = f"o{node.id}_{j}"
            if j in spec.stack_vars:
                L.append(f"        {o} = {checked[j]} if {checked[j]}.flags.writeable else {checked[j]}.copy()")
            else:
                L.append(f"        {o} = _empty({tuple(aval.shape)!r}, {self.glob('dt', aval.dtype.np)})")
            out_names.append(o)
        L.append(f"        if _k_{name}({', '.join(checked + out_names)}):")
        L.append(f"            {target} = {fallback}" if node.avals else f"            {fallback}")
        if node.avals:
            L.append("        else:")
            L.append(f"            {outs} = {', '.join(out_names)}")

    def _python_while(self, node):
        attrs = node.attr
        cond_fn = self.c.function(attrs["cond_graph"])
        body_fn = self.c.function(attrs["body_graph"])
        ns = self.ns

        def run(*vals):
            return list(run_while(attrs, vals, ns[cond_fn], ns[body_fn]))
        return run


# The nodes the executor writes its own lines for; every other op is one `_call`.
_WRITERS = {"read_variable": FunctionWriter._read_variable, "assign_variable": FunctionWriter._assign_variable,
            "fused": FunctionWriter._fused_live, "cond": FunctionWriter._cond, "while_loop": FunctionWriter._while}
