"""keras.Model (subclass it and define `call`) and keras.Sequential."""
import numpy as np

from tapeflow.keras import functional
from tapeflow.keras.saving import load_model, model_from_json  # noqa: F401 - keras.models names
from tapeflow.keras.layers.base import Layer, layer_scope
from tapeflow.keras.layers.input import InputLayer
from tapeflow.keras.training import Trainer
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor
from tapeflow.tracer.signature import TensorSpec


class Model(Trainer, Layer):
    """A layer with training methods (compile/fit/evaluate/predict), summary()
    and weight saving.  Either functional, `Model(inputs, outputs)` over
    KerasTensors, or subclassed with a `call`: sublayers and variables assigned
    as attributes, also in lists and dicts, are tracked automatically."""

    def __new__(cls, *args, **kwargs):
        # As Keras 3: Model(inputs, outputs) is an instance of Functional (type(m).__name__ says so).
        if cls is Model and (args or "inputs" in kwargs):
            cls = Functional
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if len(args) > 2:
            raise TypeError(with_location("Model(inputs, outputs, name=...): too many positional arguments"))
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if inputs is not None and kwargs.get("name") is None and type(self) in (Model, Functional):
            from tapeflow.keras.layers.base import unique_name
            kwargs["name"] = unique_name("functional")  # Keras 3's name for functional models
        Layer.__init__(self, **kwargs)
        self._init_trainer()
        self.__dict__["_functional"] = None
        if inputs is not None or outputs is not None:
            if inputs is None or outputs is None:
                raise ValueError(with_location("Model(inputs, outputs): give both inputs and outputs"))
            graph = functional.FunctionalGraph(inputs, outputs)
            self.__dict__["_functional"] = graph
            self._functional_layers = graph.layers()  # tracked: weights in layer order
            self.__dict__["built"] = True

    def call(self, inputs, training=None):
        if self._functional is not None:
            return self._functional.run(inputs, training)
        raise NotImplementedError(with_location(
            f"{type(self).__name__}: a subclassed Model must define call(inputs)"))

    def _convert_inputs(self, inputs):
        if self.__dict__.get("_functional") is not None:
            return inputs  # each input is converted to its keras.Input's dtype
        return Layer._convert_inputs(self, inputs)

    # -- the functional graph's ends
    def _graph(self, what):
        if self.__dict__.get("_functional") is None:
            raise AttributeError(f"{self.name}.{what}: only a functional model (Model(inputs, outputs)) has it")
        return self._functional

    @property
    def inputs(self):
        return self._graph("inputs").flat_inputs

    @property
    def outputs(self):
        return self._graph("outputs").flat_outputs

    @property
    def input(self):
        return self._graph("input").inputs

    @property
    def output(self):
        return self._graph("output").outputs

    def _symbolic_outputs(self):
        """The graph's output KerasTensors when calling the model runs that graph, else None."""
        graph = self.__dict__.get("_functional") or self.__dict__.get("_sequential_graph")
        if graph is None or type(self).call is not Model.call and type(self).call is not Sequential.call:
            return None
        return graph.outputs

    @property
    def output_names(self):
        g = self.__dict__.get("_functional")
        return g.output_names if g is not None else self.__dict__.get("_output_names")

    @property
    def input_shape(self):
        return _shapes_of(self._graph("input_shape").flat_inputs)

    @property
    def output_shape(self):
        # The graph's (batch None for keras.Input), not the last call's batch size.
        try:
            graph = self._graph("output_shape")
        except AttributeError:
            return Layer.output_shape.fget(self)
        return _shapes_of(graph.flat_outputs)

    def export(self, filepath, format="tf_saved_model", verbose=True, **unused):  # noqa: A002 - Keras's name
        """A saved model for serving: tf.saved_model.load(filepath).serve(x) is the inference call."""
        if format != "tf_saved_model":
            raise ValueError(with_location(f"{self.name}.export: only format='tf_saved_model' is supported, "
                                           f"got {format!r}"))
        from tapeflow.saved_model.keras_export import export_keras
        export_keras(self, filepath, verbose)

    def get_layer(self, name=None, index=None):
        layers = self.layers
        if index is not None:
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(with_location(f"{self.name}.get_layer: no layer named {name!r}; "
                                       f"layers: {[l.name for l in layers]}"))

    # -- summary
    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, **unused):
        """Keras 3's box-drawn table, as one string to print_fn (stdout by default)."""
        from tapeflow.keras import summary_table
        rows = []  # as Keras 3, an unbuilt model lists its layers with "?" shapes and no weights
        graph = self.__dict__.get("_functional")
        connected = None if graph is None else summary_table.connections(graph.nodes)

        def add(layer, level):
            try:
                shape = _display_shape(layer.output_shape) if layer.built else "?"
            except AttributeError:
                shape = "?"
            count = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
            prefix = "   " * level + "└ " if level else ""
            row = (f"{prefix}{layer.name} ({type(layer).__name__})", shape, count)
            if connected is not None:
                row += (connected.get(id(layer), "-") if not level else "-",)
            if show_trainable:
                row += (("Y" if layer.trainable else "N") if layer.weights else "-",)
            rows.append(row)
            if expand_nested and getattr(layer, "layers", None):
                for inner in layer.layers:
                    add(inner, level + 1)

        for layer in self._summary_layers():
            add(layer, 0)
        trainable = self.trainable_weights
        non_trainable = self.non_trainable_weights
        counts = [("Total params", _param_count(trainable) + _param_count(non_trainable),
                   _memory_size(trainable + non_trainable)),
                  ("Trainable params", _param_count(trainable), _memory_size(trainable)),
                  ("Non-trainable params", _param_count(non_trainable), _memory_size(non_trainable))]
        optimizer = getattr(self, "optimizer", None)
        opt_vars = list(getattr(optimizer, "variables", None) or []) if optimizer is not None else []
        if opt_vars and getattr(optimizer, "built", True):  # Keras counts them in the total too
            counts.append(("Optimizer params", _param_count(opt_vars), _memory_size(opt_vars)))
            counts[0] = ("Total params", counts[0][1] + counts[-1][1], _memory_size(trainable + non_trainable + opt_vars))
        text = summary_table.render(self.name, rows, counts, line_length, positions, connected is not None,
                                    show_trainable)
        if print_fn is None:
            print(text, end="")
        else:
            print_fn(text)

    def _summary_layers(self):
        return self.operations

    @property
    def operations(self):
        """The layers and the operations (keras.ops calls, Python operators) of the model."""
        return list(self._layers)

    def save(self, filepath, overwrite=True, **unused):
        """A directory with the architecture as JSON (config.json) and the weights;
        keras.models.load_model rebuilds it (known layers only, no code runs)."""
        from tapeflow.keras import saving
        if not str(filepath).endswith((".keras", ".h5")):
            raise ValueError(with_location(
                "Invalid filepath extension for saving. Please add either a `.keras` extension for the "
                "native Keras format (recommended) or a `.h5` extension. Use `tf.saved_model.save(model, "
                f"path)` for a SavedModel. Received: filepath={filepath}"))
        saving.save_model(self, filepath, overwrite)

    def to_json(self, **kwargs):
        """The architecture as a JSON string (keras.models.model_from_json rebuilds it)."""
        import json
        from tapeflow.keras import saving
        return json.dumps(saving.layer_config(self), **kwargs)

    def get_config(self):
        """Sequential and functional models: their architecture (as Model.save writes it)."""
        if isinstance(self, Sequential) or (self.__dict__.get("_functional") is not None and type(self) in (Model, Functional)):
            from tapeflow.keras import saving
            return saving.layer_config(self)["config"]
        return Layer.get_config(self)

    get_config._is_default = True

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from tapeflow.keras import saving
        kind = "Sequential" if issubclass(cls, Sequential) else "Functional"
        if "layers" not in config and "nodes" not in config and kind == "Functional":
            return cls(**config)  # a subclassed model's own constructor arguments
        saving._SCOPE.append({**saving._SCOPE[-1], **(custom_objects or {})})
        try:
            return saving.layer_from_config({"class_name": kind, "config": config})
        finally:
            saving._SCOPE.pop()

    # -- checkpoints: children named as TensorFlow names them for Keras 3 models
    def _checkpoint_children(self):
        children = {}
        for name, obj in Layer._checkpoint_children(self).items():
            head, _, rest = name.partition("/")
            if head == "layers" and isinstance(self, Sequential):  # index 0 is Keras's InputLayer
                name = f"_functional/_operations/{int(rest.partition('/')[0]) + 1}"
            children["_operations/" + rest if head == "_functional_layers" else name] = obj
        if self.__dict__.get("optimizer") is not None:  # Keras 3 tracks the compiled optimizer
            children["optimizer"] = self.optimizer
        return children

    # -- weights on disk (tapeflow checkpoint format, see README)
    def save_weights(self, filepath, overwrite=True):
        if not str(filepath).endswith(".weights.h5"):
            raise ValueError(with_location(f"The filename must end in `.weights.h5`. Received: filepath={filepath}"))
        self._write_weights(filepath, overwrite)

    def _weights_roots(self, version=None):
        """The model's own values (not its optimizer's), named as checkpoint `version` names them."""
        from tapeflow.train import checkpoint_format as checkpoint
        if (version or checkpoint.VERSION) == 1:
            return self._trackable_children()
        return {k: v for k, v in self._checkpoint_children().items() if k != "optimizer"}

    def _write_weights(self, filepath, overwrite=True):
        from tapeflow.train import checkpoint_format as checkpoint
        checkpoint.write_objects(filepath, self._weights_roots(), overwrite=overwrite)

    def load_weights(self, filepath, skip_mismatch=False):
        from tapeflow.train import checkpoint_format as checkpoint
        version = checkpoint.read_versioned_index(filepath)[0]
        status = checkpoint.read_objects(filepath, self._weights_roots(version), owner=self)
        for layer in self._flatten_layers():  # as Keras 3's loading: state derived from weights is redone
            getattr(layer, "finalize_state", lambda: None)()
        return status


def _param_count(weights):
    return int(sum(v.shape.num_elements() for v in weights))


def _memory_size(weights):
    """Bytes the weights occupy, as Keras prints them: 20.51 KB (1024-based units)."""
    size = float(sum(v.shape.num_elements() * np.dtype(v.dtype.as_numpy_dtype).itemsize for v in weights))
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:.2f} {unit}"
        size /= 1024


def _shapes_of(tensors):
    shapes = [tuple(t.shape) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _display_shape(shape):
    if isinstance(shape, list):
        return ", ".join(_display_shape(s) for s in shape)
    dims = ["None"] + [str(d) for d in shape[1:]] if shape else []
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


class Functional(Model):
    """What Model(inputs, outputs) makes, as in Keras 3 (a Model over a graph of layers)."""


class Sequential(Model):
    """A stack of layers, each feeding the next."""

    def __init__(self, layers=None, name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self._stack = []
        self._track_child("layers", self._stack)  # tracked by identity: later appends are seen
        self.__dict__["_input_spec"] = None
        for layer in layers or []:
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, functional.KerasTensor) and layer.node is not None \
                and layer.node.layer._is_input_layer:
            layer = layer.node.layer  # Sequential([keras.Input(shape), ...])
        if isinstance(layer, InputLayer):
            if self._stack:
                raise ValueError(with_location("Sequential.add: an Input must come first"))
            self.__dict__["_input_spec"] = layer  # not a tracked sublayer: it holds no weights
            self.build((None,) + layer.input_shape_per_example)
            return
        if not isinstance(layer, Layer):
            raise TypeError(with_location(f"Sequential.add: expected a layer, got {type(layer).__name__}"))
        if any(other.name == layer.name and other is not layer for other in self._stack):
            raise ValueError(with_location(  # Keras 3's check and message
                f"All layers added to a Sequential model should have unique names. Name '{layer.name}' is "
                f"already the name of a layer in this model. Update the `name` argument to pass a unique name."))
        self._stack.append(layer)  # the list itself is tracked, so appends are seen
        if self._input_spec is not None:
            self.build((None,) + self._input_spec.input_shape_per_example)
        elif self._stack[0]._declared_input_shape is not None:
            self.build((None,) + self._stack[0]._declared_input_shape)
        elif len(self._stack) > 1 and isinstance(self._stack[0], Model):
            # As Keras: a first layer that is a model with known inputs builds the stack
            # (Sequential([base_model, Dense(1)]) has the head's weights at once).
            try:
                shape = self._stack[0].input_shape
            except (ValueError, AttributeError):
                shape = None
            if isinstance(shape, tuple):
                self.build(shape)

    def pop(self):
        if not self._stack:
            raise IndexError("Sequential.pop: there are no layers to remove")  # Keras's IndexError
        layer = self._stack.pop()
        graph = self.__dict__.get("_sequential_graph")
        if graph is not None:  # rebuild the graph: .outputs becomes the new last layer's output
            self.__dict__["_sequential_graph"] = None
            if self._stack:
                self._build_graph(tuple(graph.flat_inputs[0].shape))
        return layer

    @property
    def layers(self):
        return list(self._stack)

    def build(self, input_shape=None):
        """Build every layer by calling the stack on a KerasTensor of `input_shape`
        (which also gives the model .inputs/.outputs and each layer .input/.output)."""
        if input_shape is None:
            raise ValueError(with_location("Sequential.build: give the input shape, e.g. (None, 784)"))
        if state.graph is not None or not self._stack:
            return
        with layer_scope(self):  # the layers' weights are "sequential/<layer>/<weight>"
            if self._build_graph(input_shape):
                return
        # A layer that needs concrete sizes: build on one zero example instead.
        dtype = self._input_spec.input_dtype if self._input_spec is not None else "float32"
        dims = [1 if d is None else int(d) for d in TensorShape(input_shape).dims]
        Layer.__call__(self, np.zeros(dims, np.dtype(getattr(dtype, "np", dtype))), training=False)

    def _build_graph(self, input_shape):
        """Call each layer in turn on KerasTensors from an input of `input_shape`, as
        Keras's Sequential does: the symbolic graph that feature-extraction models
        (Model(seq.inputs, [l.output for l in seq.layers])) reuse.  False when some
        layer cannot run symbolically; then the model has no graph."""
        shape = tuple(TensorShape(input_shape).dims)
        source = self._input_spec
        if source is None or tuple(source.output.shape)[1:] != shape[1:]:
            source = self.__dict__.get("_built_input")
            if source is None or tuple(source.output.shape) != shape:
                source = InputLayer(batch_shape=shape)
        self.__dict__["_built_input"] = source  # reused by rebuilds so old layer outputs stay connected
        x = source.output
        try:
            for layer in self._stack:
                x = layer(x)  # no `training`: the functional graph passes the caller's on
        except (TypeError, ValueError):
            self.__dict__["_sequential_graph"] = None
            return False
        if not isinstance(x, functional.KerasTensor):
            self.__dict__["_sequential_graph"] = None
            return False
        self.__dict__["_sequential_graph"] = functional.FunctionalGraph(source.output, x)
        if self.__dict__.get("_build_input_specs") is None:  # a saved model's serving signature
            self.__dict__["_build_input_specs"] = TensorSpec(TensorShape(shape), source.input_dtype)
        self.__dict__["built"] = True
        return True

    def _graph(self, what):
        graph = self.__dict__.get("_sequential_graph")
        if graph is None:
            raise AttributeError(
                f"{self.name}.{what}: the Sequential model has no input shape yet; start it with "
                f"keras.Input(shape), give input_shape= to its first layer, or call build(input_shape)")
        return graph

    def _build_from(self, inputs):
        # As Keras: the first call builds the graph at the batch's full shape (so
        # input_shape is (7, 4) after a call on 7 rows); layers that cannot run
        # symbolically build themselves as the input flows through.
        if state.graph is None and self._stack and isinstance(inputs, TensorBase):
            self._build_graph(tuple(inputs.shape.dims))
        self.__dict__["built"] = True

    def call(self, inputs, training=None):
        x = inputs
        graph = self.__dict__.get("_sequential_graph")
        if graph is not None and isinstance(x, (TensorBase, np.ndarray)):  # Keras 3 runs its functional graph
            x = functional.adjust_input_rank(convert_to_tensor(x), tuple(graph.flat_inputs[0].shape))
        for layer in self._stack:
            x = layer(x, training=training)
        return x

    def _summary_layers(self):
        return self._stack


def clone_model(model, input_tensors=None, clone_function=None, **unused):
    """keras.models.clone_model: the same architecture with new, freshly initialized layers
    (rebuilt from their configs).  `clone_function(layer)` makes each layer of a Sequential
    model instead; a functional model is cloned from its config only."""
    from tapeflow.keras import saving
    if input_tensors is not None:
        raise ValueError(with_location("clone_model: input_tensors= is not supported; clone, then call the clone"))
    if clone_function is None:
        return saving.layer_from_config(saving.layer_config(model))
    if not isinstance(model, Sequential):
        raise ValueError(with_location(
            f"clone_model: clone_function= is supported for Sequential models; {model.name} is "
            f"{type(model).__name__}"))
    clone = Sequential(name=model.name)
    if model._input_spec is not None:
        clone.add(InputLayer(**model._input_spec.get_config()))
    for layer in model.layers:
        clone.add(clone_function(layer))
    return clone
