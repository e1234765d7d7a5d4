"""The Keras functional API: `keras.Input` gives a symbolic KerasTensor; calling a
layer on KerasTensors records a node (layer, arguments) and returns new
KerasTensors; `Model(inputs, outputs)` runs the recorded nodes in creation order.

Output shapes are found by calling the layer once on placeholders of a scratch
graph (the tracer's GraphBuilder), so shapes keep their unknown (None) batch and
time dims and every layer needs only its ordinary `call`.  Weights are created
then (initial values are always computed eagerly), so a functional model is
built as soon as it is defined.

Creation order is a topological order: a node's inputs exist before it."""
import itertools

from tapeflow.compiler.ir import GraphBuilder
from tapeflow.keras import backend
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import Aval, state
from tapeflow.runtime.shape import TensorShape
from tapeflow.keras.layers.naming import unique_name
from tapeflow.runtime.tape import pause
from tapeflow.runtime.tensor import TensorBase

_node_ids = itertools.count()


class KerasTensor:
    """A symbolic value of a functional model: shape (batch dim usually None) and
    dtype, and the node that makes it.  Python operators and indexing record
    op layers; TensorFlow functions need keras.layers.Lambda."""

    __array_priority__ = 200  # numpy operands defer to our reflected operators

    def __init__(self, shape, dtype, node=None, index=0, name=None, ragged=False):
        self.tensor_shape = TensorShape(tuple(shape))  # for tapeflow's own shape rules
        self.dtype = str(backend.dtype_name(dtype))  # a plain str, as Keras 3
        self.ragged = ragged  # stands for a RaggedTensor (ragged_rank 1: keras.Input(ragged=True))
        self.node = node
        self.index = index
        # Keras 3 names every KerasTensor "keras_tensor", "keras_tensor_1", ... (keras.Input(name=)
        # keeps its name); the layer that made it is node.layer
        self.name = name or unique_name("keras_tensor")
        self.mask_spec = None  # (dims, dtype) of the Keras mask the value will carry, if any

    @property
    def shape(self):
        """A tuple with None for unknown dims, as Keras 3 (not a TensorShape)."""
        return tuple(self.tensor_shape.dims)

    @property
    def ndim(self):
        return self.tensor_shape.rank

    def get_shape(self):
        return self.tensor_shape

    def __repr__(self):
        return f"<KerasTensor shape={self.shape}, dtype={self.dtype}, name={self.name}>"

    def _refuse(self, what, error=TypeError):
        """Keras 3's exception classes: ValueError for a value (array, int, float, and so a
        TensorFlow function's input), TypeError for bool and len, NotImplementedError to iterate."""
        raise error(with_location(
            f"{what} a KerasTensor ({self.name}, shape {self.shape}): it is a symbolic input "
            f"of a functional model and has no value. Use Python operators, Keras layers, or wrap "
            f"TensorFlow functions in keras.layers.Lambda(lambda x: ...)"))

    def __array__(self, dtype=None, copy=None):
        self._refuse("Cannot convert to a tensor or array", ValueError)

    def __int__(self):
        self._refuse("Cannot convert to an int", ValueError)

    def __float__(self):
        self._refuse("Cannot convert to a float", ValueError)

    def __bool__(self):
        self._refuse("Cannot use as a Python bool")

    def __len__(self):
        self._refuse("len() of")

    def __iter__(self):
        self._refuse("Cannot iterate over", NotImplementedError)



# Operators on KerasTensors record OperatorLayer nodes, named after the Keras 3 op each one
# calls (OPERATOR_OPS: x * 2 is a "multiply" operation).
OPERATORS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "truediv": lambda a, b: a / b, "floordiv": lambda a, b: a // b, "mod": lambda a, b: a % b,
    "pow": lambda a, b: a ** b, "matmul": lambda a, b: a @ b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "neg": lambda a: -a, "abs": abs, "pos": lambda a: a, "getitem": lambda a, key: a[key],
}
OPERATOR_OPS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "truediv": "true_divide",
    "floordiv": "floor_divide", "mod": "mod", "pow": "power", "matmul": "matmul", "lt": "less",
    "le": "less_equal", "gt": "greater", "ge": "greater_equal", "neg": "negative", "abs": "absolute",
    "pos": "positive", "getitem": "get_item",
}
for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"):
    OPERATORS[f"r{_name}"] = lambda a, b, f=OPERATORS[_name]: f(b, a)
    OPERATOR_OPS[f"r{_name}"] = OPERATOR_OPS[_name]


def _binary(name):
    def method(self, other):
        return _op(name)(self, other)
    return method


def _unary(name):
    def method(self):
        return _op(name)(self)
    return method


for _name in OPERATORS:
    if _name == "getitem":
        continue
    if _name in ("neg", "abs", "pos"):
        setattr(KerasTensor, f"__{_name}__", _unary(_name))
    else:
        setattr(KerasTensor, f"__{_name}__", _binary(_name))
KerasTensor.__getitem__ = lambda self, key: _op("getitem")(self, key)


def _op(name):
    from tapeflow.keras.layers.lambda_layer import OperatorLayer
    return OperatorLayer(name)


def is_keras_tensor(x):
    return isinstance(x, KerasTensor)


def contains_keras_tensor(*structures):
    return any(isinstance(v, KerasTensor) for s in structures for v in nest.flatten(s, False))


class Node:
    """One call of a layer on KerasTensors: the arguments as given (KerasTensors
    stand for the values that will flow in) and the KerasTensors it returns."""

    def __init__(self, layer, args, kwargs):
        self.id = next(_node_ids)
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.outputs = None  # structure of KerasTensors

    @property
    def input_tensors(self):
        return [v for v in nest.flatten((self.args, self.kwargs), False) if isinstance(v, KerasTensor)]


_symbolic_depth = [0]


def in_symbolic_call():
    """True while a layer runs on call_symbolically's placeholders (Keras's compute_output_spec):
    a recurrent layer gives its states the nesting of its state_size there, as Keras does."""
    return _symbolic_depth[0] > 0


def call_symbolically(layer, call, args, kwargs):
    """Record `layer(*args, **kwargs)` on KerasTensors: run `call` (the layer's real
    __call__) on placeholders of a scratch graph to learn the outputs' shapes."""
    builder = GraphBuilder(f"keras_{layer.name}")
    to_placeholder = {}

    def placeholder(v):
        if isinstance(v, KerasTensor):
            if id(v) not in to_placeholder:
                to_placeholder[id(v)] = _ragged_placeholder(builder, v) if v.ragged else \
                    builder.placeholder(Aval(v.shape, dtypes.as_dtype(v.dtype)))
                if v.mask_spec is not None:  # the layer sees a mask, as it will when the model runs
                    to_placeholder[id(v)]._keras_mask = builder.placeholder(Aval(*v.mask_spec))
            return to_placeholder[id(v)]
        return v

    # expand_composites=False here and below: a RaggedTensor is one value of the model.
    concrete_args = nest.map_structure(placeholder, list(args), expand_composites=False)
    concrete_kwargs = {k: nest.map_structure(placeholder, v, expand_composites=False) for k, v in kwargs.items()}
    saved = state.graph
    state.graph = builder
    _symbolic_depth[0] += 1
    try:
        with pause(list(state.tapes)):
            outputs = call(*concrete_args, **concrete_kwargs)
    finally:
        _symbolic_depth[0] -= 1
        state.graph = saved
    node = Node(layer, args, kwargs)
    counter = itertools.count()

    def to_keras(t):
        if isinstance(t, TensorBase):
            kt = KerasTensor(t.shape.dims, t.dtype, node, next(counter))
            mask = getattr(t, "_keras_mask", None)
            if isinstance(mask, TensorBase):
                kt.mask_spec = (tuple(mask.shape.dims), mask.dtype)
            return kt
        if nest.is_composite(t):
            return KerasTensor(t.shape.dims, t.dtype, node, next(counter), ragged=True)
        return t

    node.outputs = nest.map_structure(to_keras, outputs, expand_composites=False) if outputs is not None else None
    layer.__dict__.setdefault("_inbound_nodes", []).append(node)  # layer.input / layer.output
    return node.outputs


def output_shape_of(layer, input_shape, dtype="float32"):
    """Keras's default compute_output_shape: run the layer on placeholders of `input_shape`
    (a shape, or a list of shapes) in a scratch graph, recording no node."""
    builder = GraphBuilder(f"shape_{layer.name}")

    def is_shape(s):
        return isinstance(s, (list, tuple, TensorShape)) and all(d is None or isinstance(d, int) for d in s)

    def placeholder(s):
        return builder.placeholder(Aval(tuple(TensorShape(s).dims), dtypes.as_dtype(dtype)))
    inputs = placeholder(input_shape) if is_shape(input_shape) else [placeholder(s) for s in input_shape]
    saved = state.graph
    state.graph = builder
    try:
        with pause(list(state.tapes)):
            out = layer._call_concrete(inputs)
    finally:
        state.graph = saved
    return nest.map_structure(lambda t: tuple(t.shape.dims), out)


def _ragged_placeholder(builder, kt):
    """A RaggedTensor of graph placeholders (flat values, row splits) for a ragged KerasTensor."""
    from tapeflow.ragged_tensor import RaggedTensor
    values = builder.placeholder(Aval((None,) + kt.shape[2:], dtypes.as_dtype(kt.dtype)))
    splits = builder.placeholder(Aval((None,), dtypes.int64))
    return RaggedTensor(values, splits, _validate=False)


def nodes_between(inputs, outputs):
    """The nodes needed to compute `outputs` from `inputs`, in creation order; an
    error names an output that depends on a KerasTensor not among `inputs`."""
    input_ids = {id(t) for t in inputs}
    needed = {}
    todo = list(outputs)
    while todo:
        t = todo.pop()
        if id(t) in input_ids:
            continue
        node = t.node
        if node is None or node.layer._is_input_layer:
            raise ValueError(with_location(
                f"Model: output depends on {t.name} (shape {t.shape}), which is not one of "
                f"the model's inputs; pass every keras.Input the outputs use to Model(inputs=...)"))
        if node.id not in needed:
            needed[node.id] = node
            todo.extend(node.input_tensors)
    return [needed[k] for k in sorted(needed)]


class FunctionalGraph:
    """What Model(inputs, outputs) runs: the input and output structures and the nodes."""

    def __init__(self, inputs, outputs):
        self.inputs = _as_structure(inputs, "inputs")
        self.outputs = _as_structure(outputs, "outputs")
        if isinstance(self.outputs, (list, tuple)) and len(self.outputs) == 1:
            # Keras unpacks a one-output list: Model(x, [y]) returns, predicts and fits like Model(x, y)
            self.outputs = self.outputs[0]
        self.flat_inputs = nest.flatten(self.inputs, False)
        self.flat_outputs = nest.flatten(self.outputs, False)
        for t in self.flat_inputs + self.flat_outputs:
            if not isinstance(t, KerasTensor):
                raise TypeError(with_location(
                    f"Model(inputs, outputs): expected KerasTensors (from keras.Input and layer calls), "
                    f"got {type(t).__name__}"))
        self.nodes = nodes_between(self.flat_inputs, self.flat_outputs)
        self.input_layers = [t.node.layer if t.node is not None and t.node.layer._is_input_layer else None
                             for t in self.flat_inputs]

    @property
    def input_names(self):
        return [t.name for t in self.flat_inputs]

    @property
    def output_names(self):
        """The names of the layers (operations) making the outputs, as Keras 3's output_names."""
        return [t.node.layer.name if t.node is not None else t.name for t in self.flat_outputs]

    def layers(self):
        """Every layer once, in Keras's order (which orders model.layers and model.weights):
        by depth from the outputs, deepest first; a tie by first visit of a depth-first walk
        from the outputs in order; inputs no output uses last."""
        order, first_seen = self._walk_from_outputs()
        node_depth, layer_depth, by_id = {}, {}, {}
        in_graph = {n.id for n in order}
        for node in reversed(order):
            # A shared layer takes the largest depth of its nodes.
            depth = max(node_depth.setdefault(node.id, 0), layer_depth.get(id(node.layer), 0))
            layer_depth[id(node.layer)], node_depth[node.id] = depth, depth
            by_id[id(node.layer)] = node.layer
            for t in node.input_tensors:
                if t.node is not None and t.node.id in in_graph:
                    node_depth[t.node.id] = max(depth + 1, node_depth.get(t.node.id, 0))
        for layer in self.input_layers:
            if layer is not None and id(layer) not in layer_depth:
                layer_depth[id(layer)], first_seen[id(layer)], by_id[id(layer)] = 0, -1, layer
        return sorted(by_id.values(), key=lambda l: (-layer_depth[id(l)], first_seen[id(l)]))

    def _walk_from_outputs(self):
        """(nodes in post-order of a depth-first walk from the outputs, {id(layer): the
        index of its first visit}); a walk stops at the declared inputs.  Iterative, so a
        deep model does not reach Python's recursion limit."""
        input_ids = {id(t) for t in self.flat_inputs}
        finished, order, first_seen = set(), [], {}
        stack = [(t, False) for t in reversed(self.flat_outputs)]
        while stack:
            t, expanded = stack.pop()
            node = t.node
            if node is None or node.id in finished:
                continue
            if expanded:
                finished.add(node.id)
                order.append(node)
                continue
            if id(t) in input_ids and not node.layer._is_input_layer:
                finished.add(node.id)
                continue
            first_seen.setdefault(id(node.layer), len(first_seen))
            stack.append((t, True))
            if not node.layer._is_input_layer:
                stack.extend((p, False) for p in reversed(node.input_tensors))
        return order, first_seen

    def _flat_values(self, inputs):
        """The call's inputs matched to the model's inputs: same structure, a dict by
        input name, or a list in order."""
        if isinstance(inputs, dict) and not isinstance(self.inputs, dict):
            missing = [n for n in self.input_names if n not in inputs]
            if missing:
                raise ValueError(with_location(
                    f"Model: the input dict lacks {missing}; the model's inputs are {self.input_names}"))
            return [inputs[n] for n in self.input_names]
        flat = nest.flatten(inputs, False)
        if len(flat) != len(self.flat_inputs):
            raise ValueError(with_location(
                f"Model: expected {len(self.flat_inputs)} input(s) {self.input_names}, got {len(flat)}"))
        return flat

    def run(self, inputs, training=None, call_layer=None):
        values = {}
        for t, v in zip(self.flat_inputs, self._flat_values(inputs)):
            values[id(t)] = _cast_input(v, t)

        def resolve(v):
            return values[id(v)] if isinstance(v, KerasTensor) else v

        for node in self.nodes:
            args = nest.map_structure(resolve, list(node.args), expand_composites=False)
            kwargs = {k: nest.map_structure(resolve, v, expand_composites=False) for k, v in node.kwargs.items()}
            if "training" not in kwargs and training is not None:
                kwargs["training"] = training
            out = node.layer(*args, **kwargs)
            for kt, o in zip(nest.flatten(node.outputs, False), nest.flatten(out, False)):
                if isinstance(kt, KerasTensor):
                    values[id(kt)] = o
        return nest.map_structure(resolve, self.outputs, expand_composites=False)


def _cast_input(value, spec):
    from tapeflow.runtime.ops import math_ops
    from tapeflow.runtime.tensor import convert_to_tensor
    want = dtypes.as_dtype(spec.dtype)
    if nest.is_composite(value):
        flat = value.flat_values
        return value if flat.dtype is want else value.with_flat_values(math_ops.cast(flat, want))
    t = convert_to_tensor(value)
    if t.dtype is not want and (t.dtype.is_floating or want.is_floating
                                or (t.dtype.is_integer and want.is_integer)):
        t = math_ops.cast(t, want)
    return adjust_input_rank(t, tuple(spec.shape))


def adjust_input_rank(t, ref):
    """Keras 3's _adjust_input_rank: a value one rank off an input whose (or whose value's) last
    dimension is 1 gets it added or dropped ((batch,) for an Input((1,)))."""
    from tapeflow.runtime.ops import array_ops
    rank = t.shape.rank
    if rank == len(ref) + 1 and t.shape[-1] == 1:
        return array_ops.squeeze(t, -1)
    if rank == len(ref) - 1 and ref[-1] == 1:
        return array_ops.expand_dims(t, -1)
    return t


def _as_structure(value, what):
    if isinstance(value, KerasTensor):
        return value
    if isinstance(value, (list, tuple)):
        return type(value)(value)  # a tuple stays a tuple: Keras 3 returns the structure given
    if isinstance(value, dict):
        return dict(value)
    raise TypeError(with_location(
        f"Model: {what} must be a KerasTensor or a list/dict of them, got {type(value).__name__}"))
