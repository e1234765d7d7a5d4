"""What one trace of a tf.function builds around the user's code: the graph
builder (which enforces "variables only on the first trace"), a placeholder per
tensor argument named as TensorFlow names it, and the structure of the outputs."""
import numpy as np

from tapeflow.compiler.ir import GraphBuilder
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import Aval
from tapeflow.runtime.tensor import SymbolicTensor, Tensor, convert_to_tensor
from tapeflow.runtime.variables import Variable

from . import concrete_signature
from .concrete import _Output
from .signature import TensorSpec, _is_tensor_leaf, traced_value
from .tensor_array import TensorArray
from .undefined import Undefined


class FunctionGraphBuilder(GraphBuilder):
    """The builder of a tf.function's graph: enforces "variables only on the
    first trace"."""

    def __init__(self, name, function):
        super().__init__(name)
        self.function = function

    def on_variable_created(self, var):
        fn = self.function
        if fn is not None and fn._traced_once:
            raise ValueError(with_location(
                f"tf.function only supports singleton tf.Variables created on the first call: "
                f"{fn.__name__} created a variable again on trace #{fn._tracing_count + 1}; create "
                f"it outside the function, or once, guarded by e.g. `if self.v is None`"))
        if fn is not None:
            fn._variables_made += 1


def placeholder_args(builder, args, kwargs, relax, names=()):
    """The arguments with each tensor leaf replaced by a placeholder; returns
    (args, kwargs, input avals).  A placeholder is named after its parameter
    (`names`: the positional ones), nested leaves `name_0`, `name_1`, ..., as
    TensorFlow names them (what a symbolic tensor prints: Tensor("x:0", ...))."""
    avals = []
    tensor_names = builder.__dict__.setdefault("tensor_names", {})

    def leaf_named(name):
        count = [0]

        def leaf(a):
            if not _is_tensor_leaf(a):
                return traced_value(a)
            if isinstance(a, TensorSpec):
                aval = Aval(a.shape.dims, a.dtype)
            else:
                t = convert_to_tensor(a)
                aval = Aval(t.shape.dims, t.dtype)
            if relax is not None:
                aval = Aval(relax[len(avals)], aval.dtype)
            avals.append(aval)
            ph = builder.placeholder(aval)
            if not isinstance(a, TensorSpec):
                builder.input_values[ph.node] = t  # what a variable's initializer may read
            if name is not None:
                tensor_names[ph.node] = name if count[0] == 0 and not nested else f"{name}_{count[0]}"
            count[0] += 1
            return ph
        return leaf

    def placeholders(a, name):
        global_nested = nest.is_nested(a)
        nonlocal nested
        nested = global_nested
        leaf = leaf_named(name)
        return nest.map_structure(leaf, a) if global_nested else leaf(a)

    nested = False
    new_args = [placeholders(a, names[i] if i < len(names) else None) for i, a in enumerate(args)]
    new_kwargs = {k: placeholders(kwargs[k], k) for k in sorted(kwargs)}
    return new_args, new_kwargs, avals


def positional_names(fn):
    """Names for the positional arguments of a call of `fn` (*args as args_0, args_1...)."""
    sig = concrete_signature.python_signature(fn)
    if sig is None:
        return ()
    out, var = [], None
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            out.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            var = p.name
    if var is not None:
        out += [f"{var}_{i}" for i in range(64)]
    return out


def output_structure(builder, result):
    """(structure with _Output markers, flat output tensors)."""
    outputs = []

    def leaf(v):
        if isinstance(v, Undefined):
            v._fail()
        if isinstance(v, TensorArray):
            v = v.stack()
        if isinstance(v, Variable):
            v = v.read_value()
        if isinstance(v, (bool, int, float, str, np.generic, np.ndarray)):
            # TensorFlow returns a Python value computed at trace time as a tensor.
            v = convert_to_tensor(v)
        if isinstance(v, (SymbolicTensor, Tensor)):
            outputs.append(v)
            return _Output(len(outputs) - 1)
        return v

    if nest.is_nested(result):
        structure = nest.map_structure(leaf, result)
    else:
        structure = leaf(result)
    return structure, outputs
