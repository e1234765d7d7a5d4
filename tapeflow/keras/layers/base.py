"""keras.layers.Layer: deferred build, weights, automatic tracking of sublayers
and variables (also inside lists and dicts), and the `training` call context."""
import inspect

from tapeflow.keras import functional, initializers, regularizers
from tapeflow.keras.variables import Variable as KerasVariable, autocast as autocast_variables
from tapeflow.keras.input_spec import assert_input_compatibility
from tapeflow.keras.layers import keras_mask
from tapeflow.keras.layers.build_args import check_positional_tensors, normalizing_build
from tapeflow.keras.layers.naming import (  # noqa: F401 - layer_scope, unique_name: used from here
    auto_config, layer_scope, unique_name, weight_path)
from tapeflow.keras.layers.naming import call_context as _context, snake_case as _snake
from tapeflow.module import Module
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.ops import array_ops, math_ops
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.runtime.variables import Variable
from tapeflow.tracer.signature import TensorSpec
from tapeflow.tracer.graph_ops import init_scope
from tapeflow.train.trackable import Trackable, expand_tracked, is_trackable


class Layer(Module):
    """Base class of layers: override `build(input_shape)` and `call(inputs, ...)`.
    A tf.Module whose variables and sublayers are tracked when assigned."""

    _is_input_layer = False
    _built_at_init = False  # True: built in __init__ unless the class defines build (Keras 3's list)
    _is_operation = False  # a keras.ops call or Python operator in a functional model
    _allow_non_tensor_positional_args = False  # Keras 3: positional arguments are tensors
    input_spec = None  # an InputSpec (or a nest of them) checked before every call
    # Keras masking: a layer that supports masking passes its input's mask (through
    # compute_mask) on to its outputs; the others drop it.
    supports_masking = False
    # Mixed precision (Keras 3): `autocast` casts float inputs to the compute dtype and reads
    # float variables as it inside call; the normalization layers turn it off, compute their
    # statistics in float32 and give their output in the compute dtype.
    autocast = True
    _normalizes_in_float32 = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_normalizes_shapes", False):
            cls.build = normalizing_build(build)

    def __new__(cls, *args, **kwargs):
        obj = super().__new__(cls)
        obj.__dict__["_auto_config"] = auto_config(cls, args, kwargs)  # for get_config
        return obj

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        if input_shape is None and input_dim is not None:
            input_shape = (input_dim,)
        if "autocast" in kwargs:
            self.__dict__["autocast"] = bool(kwargs.pop("autocast"))
        activity_regularizer = regularizers.get(kwargs.pop("activity_regularizer", None))
        if kwargs:
            raise TypeError(f"{type(self).__name__}: unexpected keyword arguments {sorted(kwargs)}")
        d = self.__dict__
        d["_tracked"] = {}  # attribute name -> tracked value (layer, variable, list, dict)
        d["_own_weights"] = []  # (name, variable) made by add_weight, in creation order
        d["_trainable"] = bool(trainable)
        d["built"] = self._built_at_init and type(self).build is Layer.build
        d["_name"] = name or unique_name(_snake(type(self).__name__))
        d["_scope_name"] = d["_name"]
        d["activity_regularizer"] = activity_regularizer
        d["_weight_regularizers"] = []  # (variable, regularizer) from add_weight
        d["_call_losses"] = []  # add_loss values of the latest call
        from tapeflow.keras import mixed_precision
        # a dtype, a policy or its name, a policy's config (as get_config writes it); None: global
        policy = mixed_precision.get(dtype)
        d["dtype"] = policy.variable_dtype  # Keras 3: a layer's dtype is its variables'
        d["_compute_dtype"] = policy.compute_dtype
        d["_policy_name"] = policy.name
        if not self.supports_masking and type(self).compute_mask is not Layer.compute_mask:
            d["supports_masking"] = True  # Keras 3: overriding compute_mask means the layer supports masks
        d["_call_has_training"] = "training" in inspect.signature(self.call).parameters
        d["_call_has_mask"] = "mask" in inspect.signature(self.call).parameters
        first = next(iter(inspect.signature(self.call).parameters.values()), None)
        # the name call's first argument may be passed under (e.g. MultiHeadAttention's query=)
        d["_call_first_arg"] = first.name if first is not None and first.kind in (
            inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD) else "inputs"
        d["_output_shape"] = None
        d["_inbound_nodes"] = []  # functional.Node per call on KerasTensors, in call order
        # Per-example input shape declared with input_shape=; lets Sequential build early.
        d["_declared_input_shape"] = tuple(input_shape) if input_shape is not None else None

    @property
    def dtype_policy(self):
        from tapeflow.keras.mixed_precision import Policy
        return Policy(self._policy_name)

    @property
    def compute_dtype(self):
        return self._compute_dtype

    @property
    def variable_dtype(self):
        return self.dtype

    # ---------------------------------------------------------------- tracking
    def __setattr__(self, name, value):
        if "_tracked" not in self.__dict__:
            raise RuntimeError(f"{type(self).__name__}: call super().__init__() before setting attributes")
        tracked = self.__dict__["_tracked"]
        if is_trackable(value) and name not in ("_deferred_restores", "_call_losses"):
            tracked[name] = value
            if isinstance(value, Variable):
                self._take_deferred(name, value)  # restored under the attribute's name before it was made
            pending = self._pending_child_paths(name)
            if pending and isinstance(value, Trackable):
                for path, (val, src) in pending.items():
                    value._defer_restore(path, val, src)
        elif name in tracked:
            del tracked[name]
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self.__dict__["_tracked"].pop(name, None)
        object.__delattr__(self, name)

    def _track_child(self, name, value):
        """Track `value` under `name` unless it is tracked already."""
        for _, obj in self._tracked_items():
            if obj is value:
                return
        self.__dict__["_tracked"][name] = value

    def _tracked_items(self):
        out = []
        for name, value in self.__dict__["_tracked"].items():
            expand_tracked(name, value, out)
        return out

    @property
    def _layers(self):
        seen = set()
        layers = []
        for _, obj in self._tracked_items():
            if isinstance(obj, Layer) and id(obj) not in seen:
                seen.add(id(obj))
                layers.append(obj)
        return layers

    @property
    def layers(self):  # as Keras 3, operations (x * 2, keras.ops.relu(x)) are not layers
        return [l for l in self._layers if not l._is_operation]

    def _flatten_layers(self, include_self=True):
        if include_self:
            yield self
        for layer in self._layers:
            yield from layer._flatten_layers(True)

    @property
    def submodules(self):
        return list(self._flatten_layers(include_self=False))

    def _trackable_children(self, renamed=None):
        """name -> child; `renamed` (TF's checkpoint names): {weight: name}, else the attribute."""
        children = {}
        attrs = {} if renamed is None else {id(v): n for n, v in self._tracked_items() if isinstance(v, Variable)}
        for name, var in self.__dict__["_own_weights"]:
            children[(renamed or {}).get(name) or attrs.get(id(var), name)] = var
        for name, obj in self._tracked_items():
            if not any(obj is c for c in children.values()):
                children[name] = obj
        return children

    _checkpoint_names = {}  # weight name -> Keras 3's attribute for it, where not the same ("_kernel")

    def _checkpoint_children(self):
        return self._trackable_children(self._checkpoint_names)

    # ---------------------------------------------------------------- weights
    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self.__dict__["_trainable"] = bool(value)
        for v in self._direct_variables():  # as Keras: the variables made trainable follow the flag
            if isinstance(v, KerasVariable) and v._auto_watch:
                v.trainable = bool(value)
        for layer in self._layers:
            layer.trainable = value

    def add_weight(self, name=None, shape=(), dtype=None, initializer="glorot_uniform",
                   trainable=True, regularizer=None, constraint=None, **unused):
        if name is None:
            name = f"variable_{len(self._own_weights)}"
        dtype = dtypes.as_dtype(dtype or self.dtype)
        init = initializers.get(initializer if initializer is not None else
                                ("glorot_uniform" if dtype.is_floating else "zeros"))
        # Initial values are computed eagerly even when the layer is built inside a
        # trace (TF lifts variable initializers out of functions: init_scope).
        with init_scope():
            value = init(tuple(int(d) for d in shape), dtype=dtype)  # by keyword, as Keras: tf.random.normal fits
        var = KerasVariable(value, trainable=trainable, name=name, dtype=dtype, path=weight_path(self, name))
        self.__dict__["_own_weights"].append((name, var))
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            self._weight_regularizers.append((var, regularizer))
        if constraint is not None:
            from tapeflow.keras import constraints
            var.constraint = constraints.get(constraint)  # applied by the optimizer after each update
        for saved_as in {self._checkpoint_names.get(name, name), name}:  # as TF names it, as tapeflow did
            self._take_deferred(saved_as, var)
        return var

    def _direct_variables(self):
        """Variables made by add_weight and keras.Variables assigned as attributes (Keras 3 leaves
        a raw tf.Variable out of the weights; checkpoints still hold it)."""
        out = [v for _, v in self._own_weights]
        for _, obj in self._tracked_items():
            if isinstance(obj, KerasVariable) and not any(obj is v for v in out):
                out.append(obj)
        return out

    def _collect_direct(self):
        direct = self._direct_variables()  # a layer's trainable before its non-trainable, as Keras
        return [v for v in direct if v._auto_watch] + [v for v in direct if not v._auto_watch]

    def _collect(self, want_trainable):
        """Variables of this layer, then of each sublayer, each once.  `want_trainable`
        None: all (a layer's trainable before its non-trainable, as Keras orders them)."""
        seen = set()
        out = []
        direct = self._collect_direct() if want_trainable is None else self._direct_variables()
        for v in direct:
            is_trainable = v.trainable and self.trainable
            if (want_trainable is None or is_trainable == want_trainable) and id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        for layer in self._layers:
            for v in layer._collect(want_trainable):
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        return out

    @property
    def weights(self):
        return self._collect(None)

    @property
    def variables(self):
        return self.weights

    @property
    def trainable_weights(self):
        return self._collect(True)

    @property
    def trainable_variables(self):
        return self._collect(True)

    @property
    def non_trainable_weights(self):
        return self._collect(False)

    @property
    def non_trainable_variables(self):
        return self._collect(False)

    def get_weights(self):
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights):
        mine = self.weights
        if len(weights) != len(mine):
            raise ValueError(with_location(
                f"{self.name}.set_weights: expected {len(mine)} arrays, got {len(weights)}"))
        for var, value in zip(mine, weights):
            var.assign(convert_to_tensor(value, var.dtype))

    # ---------------------------------------------------------------- losses
    def add_loss(self, loss):
        """Add a scalar (or a zero-argument callable) to this layer's losses; fit adds
        `model.losses` to the compiled loss.  Values from a call last until the next call."""
        self._call_losses.append(loss)

    @property
    def losses(self):
        """Losses from add_loss in the latest call, then weight regularization
        (computed from the current weights), of this layer and every sublayer."""
        out = []
        for layer in self._flatten_layers(True):
            out.extend(l() if callable(l) and not isinstance(l, TensorBase) else l for l in layer._call_losses)
        for layer in self._flatten_layers(True):
            out.extend(reg(var) for var, reg in layer._weight_regularizers)
        return out

    def _clear_losses(self):
        for layer in self._flatten_layers(True):
            if layer._call_losses:
                layer.__dict__["_call_losses"] = []

    def count_params(self):
        if not self.built:  # Keras 3 raises for any layer not built (see _built_at_init)
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but the layer isn't built. "
                             f"You can build it manually via: `layer.build(input_shape)`.")
        return int(sum(v.shape.num_elements() for v in self.weights))

    # ---------------------------------------------------------------- calling
    def build(self, input_shape):
        """Create weights from the first input's shape (default: none; marks the layer built, as Keras)."""
        self.__dict__["built"] = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def _convert_inputs(self, inputs):
        # Keras 3 casts float inputs to a float compute dtype (none without autocast)
        want = dtypes.as_dtype(self._compute_dtype)
        casts = want.is_floating and self.autocast

        def conv(x):
            if nest.is_composite(x):  # a RaggedTensor: its flat values are cast
                flat = x.flat_values
                cast = casts and flat.dtype.is_floating and flat.dtype is not want
                return x.with_flat_values(math_ops.cast(flat, want)) if cast else x
            if isinstance(x, TensorBase) or hasattr(x, "shape") or isinstance(x, (int, float, list)):
                t = convert_to_tensor(x)
                if casts and t.dtype.is_floating and t.dtype is not want:
                    t = math_ops.cast(t, want)
                return t
            return x

        if isinstance(inputs, (list, tuple, dict)):
            return nest.map_structure(conv, inputs)
        return conv(inputs)

    def __call__(self, *args, **kwargs):
        if not args:
            first = self.__dict__.get("_call_first_arg", "inputs")
            if first in kwargs:
                args = (kwargs.pop(first),)
            elif "inputs" in kwargs:
                args = (kwargs.pop("inputs"),)
        if not self._allow_non_tensor_positional_args:
            check_positional_tensors(args)
        if self.input_spec is not None and args:  # Keras checks before building, eagerly and symbolically
            assert_input_compatibility(self.input_spec, args[0], self.name)
        if functional.contains_keras_tensor(args, kwargs):
            return functional.call_symbolically(self, self._call_concrete, args, kwargs)
        return self._call_concrete(*args, **kwargs)

    def _call_concrete(self, inputs, *args, **kwargs):
        if not _context.training:
            self._clear_losses()  # the outermost call starts a fresh set of add_loss values
        inputs = self._convert_inputs(inputs)
        training = kwargs.get("training")
        if training is None and _context.training:
            training = _context.training[-1]
        if self._call_has_training:
            kwargs["training"] = training
        else:
            kwargs.pop("training", None)
        if not self.built:
            # The first input as TensorSpecs: a saved model's default
            # serving signature is built from it (with an unknown batch dimension).
            self.__dict__["_build_input_specs"] = nest.map_structure(
                lambda t: TensorSpec(t.shape, t.dtype) if isinstance(t, TensorBase) else None, inputs)
            with layer_scope(self):
                self._build_from(inputs)
        mask = kwargs.get("mask")
        if mask is None:
            mask = keras_mask.masks_of(inputs)
            if mask is not None and self._call_has_mask:
                kwargs["mask"] = mask
        _context.training.append(training)
        try:
            mixed = self._compute_dtype != self.dtype
            with layer_scope(self), autocast_variables(self._compute_dtype if mixed and self.autocast else None):
                outputs = self.call(inputs, *args, **kwargs)
            if mixed and self._normalizes_in_float32:
                outputs = nest.map_structure(lambda t: math_ops.cast(t, self._compute_dtype) if isinstance(
                    t, TensorBase) and t.dtype.is_floating else t, outputs)
        finally:
            _context.training.pop()
        if self.supports_masking:
            keras_mask.attach_output_masks(outputs, self.compute_mask(inputs, mask))
        if self.activity_regularizer is not None:
            for out in nest.flatten(outputs):
                if isinstance(out, TensorBase):
                    loss = self.activity_regularizer(out)
                    if out.shape.rank:  # Keras 3 divides by the batch size (0 for an empty batch)
                        batch = math_ops.cast(array_ops.shape(out)[0], loss.dtype)
                        loss = math_ops.div_no_nan(loss, batch)
                    self.add_loss(loss)
        first = nest.flatten(outputs)[0] if outputs is not None else None
        if isinstance(first, TensorBase):
            self.__dict__["_output_shape"] = tuple(first.shape.dims) if len(nest.flatten(outputs)) == 1 \
                else [tuple(o.shape.dims) for o in nest.flatten(outputs)]
        return outputs

    def compute_output_shape(self, input_shape):
        """The output's shape for an input of `input_shape`, found by running the layer symbolically."""
        return functional.output_shape_of(self, input_shape, self.dtype)

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs given the input's mask: passed on unchanged by default."""
        return mask if self.supports_masking else None

    def _build_from(self, inputs):
        shapes = nest.map_structure(lambda t: TensorShape(t.shape), inputs) \
            if isinstance(inputs, (list, tuple, dict)) else TensorShape(inputs.shape)
        self.build(shapes)
        self.__dict__.setdefault("_build_shape", shapes)  # get_build_config (a wrapped build records it too)
        self.__dict__["built"] = True

    def _first_node(self, what):
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(
                f"layer {self.name}.{what}: the layer has never been called on a symbolic input "
                f"(keras.Input or a Sequential model with a known input shape)")
        return nodes[0]  # as Keras: the first call's tensors

    @property
    def input(self):
        """The KerasTensor(s) of the layer's first symbolic call."""
        args = self._first_node("input").args
        return args[0] if len(args) == 1 else list(args)

    @property
    def output(self):
        """The KerasTensor(s) the layer's first symbolic call returned."""
        return self._first_node("output").outputs

    @property
    def output_shape(self):
        if self._output_shape is None:
            raise AttributeError(f"layer {self.name} has not been called yet, so its output shape is unknown")
        return self._output_shape

    def get_config(self):
        config = {"name": self.name}
        auto = self.__dict__.get("_auto_config")
        if getattr(type(self).get_config, "_is_default", False) and auto is not None:
            # Keras 3: a class without its own get_config gets its constructor's arguments
            # (and loses `name` when the constructor could not take it back).
            config.update(auto)
            params = inspect.signature(type(self).__init__).parameters
            if "name" not in params and not ("kwargs" in params and params["kwargs"].kind is
                                             inspect.Parameter.VAR_KEYWORD):
                config.pop("name")
        config.update(trainable=self.trainable, dtype=self.dtype_policy_config())
        if self._declared_input_shape is not None:
            config["input_shape"] = list(self._declared_input_shape)
        return config

    get_config._is_default = True

    def get_build_config(self):
        shape = self.__dict__.get("_build_shape")
        return None if shape is None else {"input_shape": nest.map_structure(
            lambda s: tuple(s.as_list()) if isinstance(s, TensorShape) else s, shape)}

    def build_from_config(self, config):
        if config and "input_shape" in config:
            self.build(config["input_shape"])

    def save_own_variables(self, store):
        """Keras 3: this layer's own variables (not its sublayers') as store["0"], store["1"], ..."""
        for i, v in enumerate(self._collect_direct()):
            store[str(i)] = v.numpy()

    def load_own_variables(self, store):
        own = self._collect_direct()
        if len(store) != len(own):
            raise ValueError(with_location(f"Layer '{self.name}' expected {len(own)} variables, but received "
                                           f"{len(store)} variables during loading"))
        for i, v in enumerate(own):
            v.assign(store[str(i)])

    def dtype_policy_config(self):
        """The dtype as Keras 3 writes it in a config: its DTypePolicy, serialized."""
        return {"module": "keras", "class_name": "DTypePolicy", "config": {"name": self._policy_name},
                "registered_name": None}

    @classmethod
    def from_config(cls, config):
        """A new layer from get_config()'s dict: the constructor's keyword arguments, as in Keras."""
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"
