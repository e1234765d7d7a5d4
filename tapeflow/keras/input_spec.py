"""keras.InputSpec (keras.layers.InputSpec): what a layer expects of its inputs (dtype,
rank bounds, fixed axes, a shape), checked before every call of a layer that sets
`self.input_spec`, with Keras 3's ValueError messages."""
from tapeflow.runtime import nest


def _shape(x):
    s = x.shape
    dims = s.as_list() if hasattr(s, "as_list") else list(s)
    return tuple(None if d is None else int(d) for d in dims)


def _dtype_name(dtype):
    from tapeflow.runtime import dtypes
    return dtypes.as_dtype(dtype).name


class InputSpec:
    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None,
                 allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = _dtype_name(dtype) if dtype is not None else None
        if shape is not None:
            self.shape = tuple(None if d is None else int(d) for d in shape)
            self.ndim = len(self.shape)
        else:
            self.ndim, self.shape = ndim, None
        self.max_ndim, self.min_ndim, self.name, self.optional = max_ndim, min_ndim, name, optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed value: {max_dim}")

    def __repr__(self):
        parts = [f"dtype={self.dtype}" if self.dtype else "", f"shape={self.shape}" if self.shape else "",
                 f"ndim={self.ndim}" if self.ndim else "", f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                 f"min_ndim={self.min_ndim}" if self.min_ndim else "", f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(p for p in parts if p)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes, "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _inputs_by_name(specs, inputs):
    names = [spec.name for spec in specs]
    if not (isinstance(inputs, dict) and all(names)):
        return inputs
    for name in names:
        if name not in inputs:
            raise ValueError(f'Missing data for input "{name}". You passed a data dictionary with keys '
                             f"{list(inputs.keys())}. Expected the following keys: {names}")
    return [inputs[name] for name in names]


def _check_one(index, x, spec, layer_name):
    where = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the layer"
    shape = _shape(x)
    ndim = len(shape)
    if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
        raise ValueError(f"{where}: expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
    if spec.max_ndim is not None and ndim > spec.max_ndim:
        raise ValueError(f"{where}: expected max_ndim={spec.max_ndim}, found ndim={ndim}")
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(f"{where}: expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                         f"Full shape received: {shape}")
    if spec.dtype is not None and _dtype_name(x.dtype) != spec.dtype:
        raise ValueError(f"{where}: expected dtype={spec.dtype}, found dtype={_dtype_name(x.dtype)}")
    for axis, value in (spec.axes or {}).items():
        if value is not None and shape[axis] not in (value, None):
            raise ValueError(f"{where}: expected axis {axis} of input shape to have value {value}, but received "
                             f"input with shape {shape}")
    if spec.shape is not None:
        spec_shape, got = spec.shape, shape
        if spec.allow_last_axis_squeeze:
            got = got[:-1] if got and got[-1] == 1 else got
            spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else spec_shape
        for want, dim in zip(spec_shape, got):
            if want is not None and dim is not None and want != dim:
                raise ValueError(f"{where}: expected shape={spec.shape}, found shape={shape}")


def assert_input_compatibility(input_spec, inputs, layer_name):
    """ValueError where `inputs` break `input_spec` (an InputSpec, or a nest of them)."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    inputs = nest.flatten(_inputs_by_name(specs, inputs))
    if len(inputs) != len(specs):
        names = [spec.name for spec in specs if spec is not None]
        if len(names) == len(specs) and all(names):
            raise ValueError(f'Layer "{layer_name}" expects {len(specs)} named input(s) with keys {names}, but '
                             f"it received {len(inputs)} input tensors.")
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received {len(inputs)} '
                         f"input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or x is None and spec.optional:
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for "
                             f"layer '{layer_name}'.")
        _check_one(index, x, spec, layer_name)
