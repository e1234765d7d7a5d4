"""Lambda (wrap any function of tensors as a layer) and Identity."""
import inspect

from tapeflow.keras.layers.base import Layer
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor


def _as_tensors(inputs):
    """Arrays and numbers become tensors with their own dtype (no cast to the layer's)."""
    def conv(x):
        if isinstance(x, TensorBase) or not hasattr(x, "shape") or nest.is_composite(x):
            return x
        return convert_to_tensor(x)
    if isinstance(inputs, (list, tuple, dict)):
        return nest.map_structure(conv, inputs, expand_composites=False)
    return conv(inputs)


class Lambda(Layer):
    """`Lambda(lambda x: tf.concat([x, x ** 2], -1))`: a function as a layer.  In
    a functional model it lets TensorFlow functions act on KerasTensors.  The
    function must not create variables."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(with_location(f"Lambda: expected a callable, got {type(function).__name__}"))
        self.function = function
        self.arguments = dict(arguments or {})
        self.output_shape_hint = output_shape
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_takes_training = "training" in params
        self._fn_takes_mask = "mask" in params

    def _convert_inputs(self, inputs):
        return _as_tensors(inputs)

    def call(self, inputs, *args, training=None, **kwargs):
        extra = dict(self.arguments)
        if self._fn_takes_training:
            extra["training"] = training
        return self.function(inputs, *[_as_tensors(a) for a in args], **kwargs, **extra)

    def get_config(self):
        raise NotImplementedError(with_location(
            f"Lambda {self.name}: a Python function cannot be saved as configuration (no code is "
            f"serialized); save the weights, or replace the Lambda by a built-in layer"))


class OperatorLayer(Lambda):
    """A Python operator or a keras.ops function applied to KerasTensors (x + y, x[:, 1:], -x,
    keras.ops.sum(x, axis=1)): the operator is named, so a model using it can be saved as configuration.

    As in Keras 3 it is an operation, not a layer: an instance of the op's own class (x * 2 makes
    a `Multiply` named "multiply"; every such class is saved as OperatorLayer), listed in
    model.operations and summary() and left out of model.layers."""

    _allow_non_tensor_positional_args = True  # x[:, 1:], x * 2.0: Python operands
    _is_operation = True

    def __new__(cls, op, *args, **kwargs):
        if cls is OperatorLayer:
            cls = _operation_class(_op_name(op))
        return super().__new__(cls, op, *args, **kwargs)

    def __init__(self, op, **kwargs):
        from tapeflow.keras import ops
        from tapeflow.keras.functional import OPERATORS
        from tapeflow.keras.layers.base import unique_name
        fn = OPERATORS.get(op) or (op.startswith(_PREFIX) and getattr(ops, op[len(_PREFIX):], None))
        if not callable(fn):
            raise ValueError(with_location(f"OperatorLayer: unknown operator {op!r}"))
        kwargs.setdefault("name", unique_name(_op_name(op)))
        super().__init__(getattr(fn, "eager_function", fn), **kwargs)
        self.op = op

    def get_config(self):
        return {"name": self.name, "op": self.op}


_PREFIX = "keras.ops."  # an operator is named "add"; a keras.ops function "keras.ops.add"
_OPERATION_CLASSES = {}


def _op_name(op):
    """The Keras 3 op that `op` is: "keras.ops.relu" -> "relu", the operator "mul" -> "multiply"."""
    from tapeflow.keras.functional import OPERATOR_OPS
    if op.startswith(_PREFIX):
        return op[len(_PREFIX):]
    if op not in OPERATOR_OPS:
        raise ValueError(with_location(f"OperatorLayer: unknown operator {op!r}"))
    return OPERATOR_OPS[op]


def _operation_class(name):
    """The OperatorLayer subclass named as Keras 3's operation class ("true_divide" -> TrueDivide)."""
    cls = _OPERATION_CLASSES.get(name)
    if cls is None:
        cls = type("".join(part.capitalize() for part in name.split("_")), (OperatorLayer,),
                   {"_registered_name": "OperatorLayer", "__module__": __name__,
                    "__doc__": f"The operation keras.ops.{name} in a functional model."})
        _OPERATION_CLASSES[name] = cls
    return cls


class Identity(Layer):
    """Returns its input unchanged."""
    _built_at_init = True  # Keras 3 marks it built in __init__ (count_params before a call is 0)

    def _convert_inputs(self, inputs):
        return _as_tensors(inputs)

    def call(self, inputs):
        return inputs
