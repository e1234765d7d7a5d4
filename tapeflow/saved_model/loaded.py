"""The objects `load` returns: the model, its signatures and its methods.

A loaded model is Trackable: its variables keep the paths they had in the
saved object ("dense/kernel"), so a checkpoint of the original object restores
into it (`tf.train.Checkpoint(model=loaded).restore(...)`) and the other way
round.  Calls run the saved graphs through tracer ConcreteFunctions: compiled
on the first call, and recorded on an active GradientTape like any tf.function
call (gradients reach the restored variables).
"""
import keyword

import numpy as np

from tapeflow.runtime import nest
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.registry import state
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor, wrap_array
from tapeflow.runtime.variables import Variable
from tapeflow.tracer.signature import TensorSpec
from tapeflow.train.trackable import Trackable

from .decode import expect
from .format import SavedModelError
from .structure import TensorLeaf


def _as_tensor(value, shape, dtype, what, error=ValueError):
    """`value` as a tensor of `dtype` whose shape fits `shape` (None: any dim).  A misfit raises
    `error`; a signature's typed tensor raises TF's InvalidArgumentError (TF runs its graph on
    any shape, which a tapeflow graph, compiled for its ranks and dims, cannot)."""
    if isinstance(value, Variable):
        value = value.read_value()
    # Tensors and NumPy arrays keep their dtype (a float64 array is not silently
    # rounded to float32); Python numbers and lists take the input's dtype.
    typed = isinstance(value, (TensorBase, np.ndarray, np.generic))
    t = convert_to_tensor(value) if typed else convert_to_tensor(value, dtype)
    dims = t.shape.dims
    if t.dtype is not dtype or len(dims) != len(shape) or any(s is not None and s != d for s, d in zip(shape, dims)):
        if error is None:
            error = InvalidArgumentError if typed else TypeError
        raise error(with_location(
            f"{what}: expected a {dtype.name} tensor of shape {list(shape)}, got {t.dtype.name}{list(dims)}"))
    return t


def _run(concrete, tensors):
    """Output tensors of a saved graph; one tape entry when a tape is recording."""
    if state.tapes:
        return concrete.call_with_tapes(tensors)
    return [wrap_array(a) for a in concrete.call_flat([t._value for t in tensors])]


class Signature:
    """A saved signature: called with its inputs by name (or in order), returns a dict
    output name -> tensor.  One saved from unknown-rank specs holds a graph per saved rank
    (`graphs`) and runs the one the call's ranks fit."""

    def __init__(self, name, graphs):
        self.name = name
        self.graphs = graphs  # [(ConcreteFunction, [(name, aval)] in graph input order, [(name, index, aval)])]
        self.concrete, self.inputs, self.outputs = graphs[0]

    @property
    def structured_input_signature(self):
        return (), {n: TensorSpec(_merged_shape([ins[i][1] for _, ins, _ in self.graphs]), a.dtype, n)
                    for i, (n, a) in enumerate(self.inputs)}

    @property
    def structured_outputs(self):
        return {n: TensorSpec(_merged_shape([outs[i][2] for _, _, outs in self.graphs]), a.dtype, n)
                for i, (n, _, a) in enumerate(self.outputs)}

    def __call__(self, *args, **kwargs):
        names = [n for n, _ in self.inputs]
        if len(args) > len(names):
            raise TypeError(with_location(f"signature {self.name!r} takes {len(names)} inputs, got {len(args)}"))
        given = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names or k in given:
                raise TypeError(with_location(
                    f"signature {self.name!r}: unexpected or repeated input {k!r}; its inputs are {names}"))
            given[k] = v
        missing = [n for n in names if n not in given]
        if missing:
            raise TypeError(with_location(f"signature {self.name!r}: missing inputs {missing}"))
        for concrete, inputs, outputs in self.graphs:
            if len(self.graphs) > 1 and not all(_rank_of(given[n]) == len(a.shape) for n, a in inputs):
                continue
            tensors = [_as_tensor(given[n], a.shape, a.dtype, f"signature {self.name!r}, input {n!r}", None)
                       for n, a in inputs]
            outs = _run(concrete, tensors)
            return {n: outs[i] for n, i, _ in outputs}
        ranks = sorted({tuple(len(a.shape) for _, a in inputs) for _, inputs, _ in self.graphs})
        raise ValueError(with_location(
            f"signature {self.name!r}: inputs of ranks {[_rank_of(given[n]) for n in names]}; it was saved from "
            f"unknown-rank specs for the ranks {ranks} (a tapeflow graph has fixed ranks)"))

    def __repr__(self):
        ins = ", ".join(f"{n}: {a!r}" for n, a in self.inputs)
        outs = ", ".join(f"{n}: {a!r}" for n, _, a in self.outputs)
        more = f" (+{len(self.graphs) - 1} other ranks)" if len(self.graphs) > 1 else ""
        return f"<signature {self.name}({ins}) -> {{{outs}}}{more}>"


def _rank_of(value):
    shape = getattr(value, "shape", None)
    return len(shape) if shape is not None else np.ndim(value)


def _merged_shape(avals):
    """The shape all of these have in common: None where dims differ, unknown rank where ranks do."""
    shapes = [tuple(a.shape) for a in avals]
    if len({len(s) for s in shapes}) > 1:
        return None
    return [d[0] if len(set(d)) == 1 else None for d in zip(*shapes)]


def _match(value, spec, lenient):
    """Whether a call's argument `value` has the structure and Python values of the
    traced argument `spec` (tensors are checked when converted).  Python numbers
    and lists fill a tensor argument only when `lenient` (a trace for the Python
    value itself is preferred, as the original function would have used it)."""
    if isinstance(spec, TensorLeaf):
        return isinstance(value, TensorBase) or hasattr(value, "shape") or (
            lenient and isinstance(value, (int, float, list)))
    if isinstance(spec, dict):
        return isinstance(value, dict) and set(value) == set(spec) and all(
            _match(value[k], spec[k], lenient) for k in spec)
    if isinstance(spec, (list, tuple)):
        return isinstance(value, (list, tuple)) and isinstance(value, tuple) == isinstance(spec, tuple) \
            and len(value) == len(spec) and all(_match(v, s, lenient) for v, s in zip(value, spec))
    return type(value) is type(spec) and value == spec


def _leaves_up_to(value, spec):
    """`value` flattened as far as `spec` goes (nest.flatten's order): a Python list where the
    spec has a tensor stays one value, converted to that tensor."""
    if isinstance(spec, TensorLeaf) or not isinstance(spec, (dict, list, tuple)):
        return [value]
    # nest's order of a dict: its keys flattened as the leaves of {key: key}
    keys = nest.flatten({k: k for k in spec}, False) if isinstance(spec, dict) else range(len(spec))
    return [leaf for k in keys for leaf in _leaves_up_to(value[k], spec[k])]


def _bound(params, args, kwargs):
    """The call with keywords moved to their positions and omitted scalar defaults filled in
    (params: the saved [name] / [name, default] of the positional parameters)."""
    call_args, rest = list(args), dict(kwargs)
    for p in params[len(args):]:
        if p[0] in rest:
            call_args.append(rest.pop(p[0]))
        elif len(p) == 2:
            call_args.append(p[1])
        else:
            break
    return call_args, rest


class LoadedFunction:
    """A saved tf.function: each call runs the saved trace its arguments match."""

    def __init__(self, name, candidates, bound_to_signature=False):
        self.__name__ = name
        self._candidates = candidates  # [(ConcreteFunction, [args, kwargs] of TensorLeaf / values)]
        # Saved from a tf.function with an input_signature: a call that does not fit raises
        # TF's TypeError ("Binding inputs to tf.function failed"), else TF's ValueError.
        self._bound = bound_to_signature

    @property
    def concrete_functions(self):
        return [c for c, _ in self._candidates]

    def __call__(self, *args, **kwargs):
        errors = []
        for lenient, (concrete, (spec_args, spec_kwargs)) in [(x, c) for x in (False, True) for c in self._candidates]:
            call_args, call_kwargs = list(args), kwargs
            if not (_match(call_args, spec_args, lenient) and _match(call_kwargs, spec_kwargs, lenient)):
                call_args, call_kwargs = _bound(getattr(concrete, "saved_params", ()), args, kwargs)
                if not (_match(call_args, spec_args, lenient) and _match(call_kwargs, spec_kwargs, lenient)):
                    continue
            values = _leaves_up_to([call_args, call_kwargs], [spec_args, spec_kwargs])
            specs = nest.flatten([spec_args, spec_kwargs])
            try:
                tensors = [_as_tensor(v, s.shape, s.dtype, f"{self.__name__}")
                           for v, s in zip(values, specs) if isinstance(s, TensorLeaf)]
            except (ValueError, TypeError) as exc:
                errors.append(str(exc))
                continue
            return concrete.pack_tensors(_run(concrete, tensors))
        traces = "; ".join(repr(c) for c, _ in self._candidates)
        error = TypeError if self._bound else ValueError  # TensorFlow's types
        raise error(with_location(
            f"{self.__name__} of the saved model: " + ("binding the inputs to its input_signature failed"
                                                       if self._bound else "no trace for these arguments")
            + f"; saved traces: {traces}" + (f" ({errors[0]})" if errors else "")))

    def __repr__(self):
        return f"<saved function {self.__name__} with {len(self._candidates)} traces>"


class _Node(Trackable):
    """An object of the saved object graph that owns variables (a layer, ...)."""

    def __init__(self):
        self._children = {}

    def _trackable_children(self):
        return dict(self._children)

    def __getitem__(self, key):
        """A saved list's items by index, a saved dict's by key (TF restores both as containers)."""
        try:
            return self._children[str(key)]
        except KeyError:
            raise (IndexError if isinstance(key, int) else KeyError)(key) from None


def _add_child(node, name, child):
    node._children[name] = child
    if name.isidentifier() and not keyword.iskeyword(name) and not hasattr(type(node), name) \
            and name not in node.__dict__:
        node.__dict__[name] = child


class LoadedModel(_Node):
    """What `load` returns."""

    # Instance attributes a saved method may not replace (class attributes are checked too).
    RESERVED = frozenset(("signatures", "variables", "path", "_call", "_children"))

    @classmethod
    def is_reserved(cls, name):
        return name in cls.RESERVED or hasattr(cls, name)

    def __init__(self, path, signatures, methods, named_variables, checkpoint_keys=None):
        super().__init__()
        # {variable key: its name in a checkpoint of the saved object} (older saved models: none)
        self.__dict__["_checkpoint_keys"] = {k: (checkpoint_keys or {}).get(k) for k, _ in named_variables}
        self.path = path
        self.signatures = signatures
        self.variables = [v for _, v in named_variables]
        self._call = methods.pop("__call__", None)
        for name, fn in methods.items():
            self.__dict__[name] = fn
        for key, var in named_variables:
            self._place(key, var)

    def _checkpoint_children(self):
        """The variables under the names a checkpoint of the saved object gives them (TensorFlow's,
        "hidden/_kernel"), so that checkpoints pass between the original class and the loaded
        object; one without (a saved model of older tapeflow) goes by its attribute path."""
        keys = self.__dict__["_checkpoint_keys"]
        if not any(keys.values()):
            return self._trackable_children()
        return {keys[k] or k: v for k, v in zip(keys, self.variables)}

    @property
    def trainable_variables(self):
        return [v for v in self.variables if v.trainable]

    @property
    def non_trainable_variables(self):
        return [v for v in self.variables if not v.trainable]

    def _place(self, key, var):
        *parents, leaf = key.split("/")
        node = self
        for part in parents:
            child = node._children.get(part)
            if child is None:
                child = _Node()
                _add_child(node, part, child)
            expect(isinstance(child, _Node), "saved_model.json: variables",
                   f"{key!r} is under {part!r}, which is a variable")
            node = child
        if leaf in node._children:
            raise SavedModelError(f"saved_model.json: variables: {key!r} is both a variable and an object")
        _add_child(node, leaf, var)

    def __call__(self, *args, **kwargs):
        if self._call is None:
            raise TypeError(with_location("this saved model was saved without __call__; use .signatures or its "
                                          "methods"))
        return self._call(*args, **kwargs)

    def __repr__(self):
        return f"<saved model {self.path!r}: signatures {sorted(self.signatures)}>"
