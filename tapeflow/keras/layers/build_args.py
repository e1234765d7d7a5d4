"""What Layer does with build() and call() arguments before the layer's own code sees them:
build shapes as TensorShapes (and the first one kept for get_build_config), positional
call arguments checked to be tensors."""
import functools

from tapeflow.keras import functional
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase


def as_build_shapes(shape):
    """A build() argument as TensorShapes: Keras 3 code calls `layer.build((None, 256))`
    with plain tuples, while the layers here read `.rank`; a list/tuple of ints and
    Nones is one shape, anything else nested is a structure of shapes."""
    if isinstance(shape, (list, tuple)):
        if all(d is None or isinstance(d, int) for d in shape):
            return TensorShape(shape)
        return type(shape)(as_build_shapes(s) for s in shape)
    if isinstance(shape, dict):
        return {k: as_build_shapes(v) for k, v in shape.items()}
    return shape


def normalizing_build(build):
    @functools.wraps(build)
    def wrapper(self, input_shape, *args, **kwargs):
        out = build(self, as_build_shapes(input_shape), *args, **kwargs)
        self.__dict__.setdefault("_build_shape", input_shape)  # the first build's, for get_build_config
        self.__dict__["built"] = True  # as in Keras, an explicit build() marks the layer built
        return out
    wrapper._normalizes_shapes = True
    return wrapper


def check_positional_tensors(args):
    """Keras 3: positional arguments hold only tensors (or arrays, or None); a
    Python number there (a nested list of floats, a positional `training`) is a
    ValueError naming it."""
    for arg in nest.flatten(list(args)):
        if arg is None or isinstance(arg, (TensorBase, functional.KerasTensor)) or hasattr(arg, "__array__"):
            continue
        raise ValueError(with_location(
            f"Only input tensors may be passed as positional arguments. The following argument value "
            f"should be passed as a keyword argument: {arg!r} (of type {type(arg)})"))
