"""ConcreteFunction: one traced graph of a tf.function, and how to run it.

It keeps everything a later gradient issue needs to record a tape entry for a
call: the forward `graph`, its `inputs` (placeholders, in the order of the
flattened tensor arguments), the `variables` it reads and writes, and the
flat outputs with the structure they are packed into.
"""
import warnings

from tapeflow import compiler
from tapeflow.compiler.interpreter import run_graph
from tapeflow.runtime import nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import SymbolicTensor, wrap_array

from . import autodiff, concrete_signature
from .signature import TensorSpec


_warned_failures = set()
# fn(concrete_function) called before each run of a concrete function while not
# empty (tf.summary.trace_on remembers the graphs that run).
CALL_OBSERVERS = []


def _warn_compile_failure(fn_name, graph_name, exc):
    """One warning per function: the slow path should not be silent, but the forward,
    backward and every retrace of one function failing the same way is one problem."""
    key = (fn_name, type(exc))
    if key in _warned_failures:
        return
    _warned_failures.add(key)
    warnings.warn(f"tapeflow: compiling {graph_name!r} of tf.function {fn_name!r} failed "
                  f"({type(exc).__name__}: {exc}); it runs through the reference interpreter "
                  f"(slower, same results)", RuntimeWarning, stacklevel=2)


class _Output:
    """Marks where the i-th graph output goes in the output structure."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def rebind_variables(graph, mapping):
    """`graph` (sub-graphs included) with the variables named in `mapping`
    ({id(old variable): new variable}) read and written in their place."""
    from tapeflow.compiler.ir import Graph, Holder
    nodes = []
    for n in graph.nodes:
        attrs = n.attrs
        if n.op == "variable" and id(n.attr["var"].obj) in mapping:
            attrs = tuple((k, Holder(mapping[id(v.obj)]) if k == "var" else v) for k, v in attrs)
        elif n.subgraphs():
            attrs = tuple((k, rebind_variables(v, mapping) if isinstance(v, Graph) else v) for k, v in attrs)
        nodes.append(n.moved(attrs=attrs) if attrs is not n.attrs else n)
    return Graph(tuple(nodes), graph.inputs, graph.outputs, graph.name)


class ConcreteFunction:
    argument_variables = ()  # the tf.Variable arguments it was traced for
    fast_guard = None  # the call shortcut for tensors of its own key, made by the tracer (fast_call.py)

    def __init__(self, name, graph, structure, input_avals, origin=""):
        self.name = name
        self.graph = graph
        self._structure = structure  # outputs, with _Output markers for graph outputs
        self._input_avals = input_avals
        self._origin = origin
        self._run = None  # the executable, compiled on the first call
        self._call = None  # what a call runs: the executable, or the function it generated
        self._vjp = None  # {watched inputs: autodiff.VJPGraphs with compiled halves}, built on taped calls
        self.compile_error = None
        self.input_structure = None  # (args, kwargs) with TensorSpec leaves, set by the tracer
        self.call_signature = None  # inspect.Signature of the traced Python function, set by the tracer

    # -- the graph's placeholders and results, as symbolic tensors (.shape, .dtype, .name): views
    # for inspection, as TF's cf.inputs / cf.outputs
    @property
    def inputs(self):
        return [self._view(r) for r in self.graph.inputs]

    @property
    def outputs(self):
        return [self._view(r) for r in self.graph.outputs]

    def _view(self, ref):
        return SymbolicTensor(self.graph, ref.node, ref.index, self.graph.aval(ref))

    @property
    def variables(self):
        return self.graph.variables()

    trainable_variables = property(lambda self: [v for v in self.variables if v.trainable])

    @property
    def structured_input_signature(self):
        """((positional TensorSpecs and Python values), {keyword-only ones}), as TensorFlow's."""
        return concrete_signature.structured_input_signature(self)

    @property
    def structured_outputs(self):
        """The output structure, a TensorSpec for each graph output."""
        return self._output_specs()

    @property
    def output_shapes(self):
        """The TensorShape of every output, in the output structure."""
        return nest.map_structure(lambda v: v.shape if isinstance(v, TensorSpec) else v, self._output_specs())

    @property
    def output_dtypes(self):
        return nest.map_structure(lambda v: v.dtype if isinstance(v, TensorSpec) else v, self._output_specs())

    def _output_specs(self):
        def spec(v):
            if isinstance(v, _Output):
                aval = self.graph.aval(self.graph.outputs[v.index])
                return TensorSpec(aval.shape, aval.dtype)
            return v
        s = self._structure
        return nest.map_structure(spec, s) if nest.is_nested(s) else spec(s)

    # -- running
    def _executable(self):
        if self._run is None:
            self._run = self._compile(self.graph)
        return self._run

    def _settle(self):
        """What calls run: a CPU Executable's generated function, one frame less
        (failures are tagged in `_failed`), once it is final -- until a tiered
        start switches to C, the executable itself, which does the switch (None
        is returned to the caller, `_call` stays unset); any other executable
        itself (a PlacedExecutable places every call)."""
        run = self._executable()
        if not isinstance(run, compiler.Executable):
            self._call = run
        elif run.generated is not None:
            self._call = run.generated
        return self._call or run

    def _compile(self, graph):
        try:
            return compiler.compile_graph(graph)
        except Exception as exc:  # keep the reference interpreter as the safe path
            self.compile_error = exc
            _warn_compile_failure(self.name, graph.name, exc)
            return lambda *arrays: run_graph(graph, list(arrays))

    def call_flat(self, arrays):
        """Run on input arrays; returns the list of output arrays."""
        if CALL_OBSERVERS:
            for observe in CALL_OBSERVERS:
                observe(self)
        call = self._call or self._settle()
        try:
            return call(*arrays)
        except Exception as exc:
            raise self._failed(exc) from exc

    def _failed(self, exc):
        if self._call is not None and self._call is not self._run:  # the generated function raised
            self._run.note_failure(exc)
        return _located(exc, self)

    def vjp_graphs(self, watched=None):
        """The forward-with-residuals and backward graphs, compiled, built once per
        set of differentiated inputs (`watched`: one bool per input, None = all)."""
        key = None if watched is None or all(watched) else tuple(watched)
        cache = self._vjp if self._vjp is not None else {}
        self._vjp = cache
        vjp = cache.get(key)
        if vjp is None:
            wrt = None if key is None else [i for i, w in enumerate(key) if w]
            vjp = autodiff.VJPGraphs(self.graph, wrt=wrt)
            vjp.run_forward = self._compile(vjp.forward)
            vjp.run_backward = self._compile(vjp.backward)
            cache[key] = vjp
        return vjp

    def call_with_tapes(self, tensors):
        """Run on input tensors (aligned with the graph's inputs); returns output
        tensors.  When an active tape watches an input or a variable the graph
        reads, the call is recorded as one tape entry whose gradient is the
        compiled backward graph (differentiating only the watched inputs)."""
        if not autodiff.needs_tape(tensors, self.trainable_variables):
            return self.call_flat([t._value for t in tensors])
        for observe in CALL_OBSERVERS:
            observe(self)
        vjp = self.vjp_graphs(autodiff.watched_inputs(tensors))
        try:
            return autodiff.taped_call(vjp, tensors, lambda g, arrays: vjp.run_forward(*arrays),
                                       lambda g, arrays: vjp.run_backward(*arrays))
        except Exception as exc:
            raise _located(exc, self) from exc

    @property
    def single_output(self):
        """The index of the one graph output the function returns (None: a structure)."""
        s = self._structure
        return s.index if isinstance(s, _Output) else None

    def pack(self, out_arrays):
        return self.pack_tensors([wrap_array(a) for a in out_arrays])

    def pack_tensors(self, outs):
        s = self._structure
        if isinstance(s, _Output):
            return outs[s.index]
        if not nest.is_nested(s):
            return s
        leaves = [outs[v.index] if isinstance(v, _Output) else v for v in nest.flatten(s)]
        return nest.pack_sequence_as(s, leaves)

    def __call__(self, *args, **kwargs):
        return self.pack(self.call_flat(concrete_signature.bind_call(self, args, kwargs)))

    def to_dot(self):
        return self.graph.to_dot()

    def pretty_printed_signature(self, verbose=True):
        return concrete_signature.describe(self, self._output_specs())

    def __str__(self):
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __repr__(self):
        ins = ", ".join(repr(a) for a in self._input_avals)
        return f"<ConcreteFunction {self.name}({ins})>"


def _located(exc, fn):
    """The same exception type, its message naming the user's line of the op
    that failed (noted by the executor or interpreter) and the function."""
    node = getattr(exc, "tapeflow_node", None)
    where = f"{node[0]} at {node[1]}, " if node else ""
    traced = f", traced at {fn._origin}" if fn._origin else ""
    # TensorFlow's type for a kernel's integer division by zero (eagerly too, through bind)
    kind = InvalidArgumentError if isinstance(exc, ZeroDivisionError) else type(exc)
    try:
        new = kind(f"{exc} ({where}while running the graph of {fn.name}{traced})")
    except Exception:
        return exc
    new.tapeflow_node = node
    return new


