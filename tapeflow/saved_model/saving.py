"""tapeflow.saved_model.save: write an object's traced functions, signatures and
variables as a saved model directory (format: format.py, encode.py).

What is saved:
  signatures   name -> one concrete function with tensor inputs and named outputs
               (from `signatures=`, or for a built keras Model "serving_default":
               its call on the built input shape with an unknown batch dimension);
  attributes   every tf.function attribute of the object (and the object itself
               when it is a tf.function) with all the concrete functions traced
               so far, so that the loaded object's `obj.f(...)` picks one by the
               call's arguments as the original did;
  variables    every variable those graphs use, named by its path in the object
               graph ("dense/kernel") or "_captured/N" when the object does not
               reach it.  The `variables/` folder is a tapeflow checkpoint.
"""
import contextlib
import inspect
import io
import itertools
import os
import warnings

import numpy as np

from tapeflow.runtime import nest
from tapeflow.runtime.registry import Aval
from tapeflow.runtime.variables import Variable
from tapeflow.tracer.concrete import ConcreteFunction, _Output
from tapeflow.tracer.function import Function
from tapeflow.tracer.signature import TensorSpec
from tapeflow.train import checkpoint_format as checkpoint
from tapeflow.train import files
from tapeflow.train.trackable import Trackable, checkpoint_children, children_of, walk_graph

from . import structure
from .encode import GraphWriter, encode_aval
from .format import CONSTANTS_DIR, FORMAT, PROGRAM, VARIABLES_DIR, VERSION, SavedModelSaveError
from .loaded import LoadedModel

SERVING = "serving_default"


def save(obj, export_dir, signatures=None, options=None, overwrite=True):
    """Write `obj` to the directory `export_dir` (atomically: a failed save leaves
    what was there before).  `signatures`: a tf.function with an input_signature,
    a ConcreteFunction, or a dict name -> those.  `options`: a tf.saved_model.SaveOptions
    (options.py says what each one means here).  Across several MPI ranks the chief
    writes and the others wait."""
    from tapeflow.distribute.collective import on_chief
    from .options import SaveOptions
    if options is not None and not isinstance(options, SaveOptions):
        raise TypeError(f"tf.saved_model.save: options must be a tf.saved_model.SaveOptions, "
                        f"got {type(options).__name__}")
    on_chief(lambda: _save(obj, export_dir, signatures, overwrite))  # returns None, as TensorFlow's


def _save(obj, export_dir, signatures, overwrite):
    sigs = _signature_functions(obj, signatures)
    attributes = _attribute_functions(obj)
    if isinstance(obj, _keras_model_class()) and SERVING in sigs and signatures is None and "__call__" not in attributes:
        attributes["__call__"] = [sigs[SERVING][0]]
    if not sigs and not any(attributes.values()):
        if isinstance(obj, _keras_model_class()) and signatures is None:
            keras_serving(obj)  # raises: the model is not built
        raise SavedModelSaveError(
            f"save: {type(obj).__name__} has no traced tf.function and no signature to save; pass "
            f"signatures= or call its tf.functions (or give them an input_signature) first")
    writer = GraphWriter()
    table = _FunctionTable(writer)
    program = {"format": FORMAT, "version": VERSION,
               "signatures": {name: _signature_entry(name, fn, table) for name, fn in sigs.items()},
               "attributes": {name: [table.index(c) for c in fns] for name, fns in attributes.items()}}
    bound = _signature_bound(obj, attributes)
    if bound:  # optional: the methods whose calls bind to an input_signature (TypeError when none fits)
        program["input_signatures"] = bound
    program["functions"] = table.entries
    if not getattr(obj, "_saves_used_variables_only", False):
        for var in _reachable_variables(obj):  # TF saves the whole object graph: unused variables too
            writer.variable_index(var)
    names = _variable_names(obj, writer.variables)
    checkpoint_keys = _checkpoint_keys(obj)
    program["variables"] = [{"key": key, "name": var.name, "trainable": bool(var.trainable),
                             **encode_aval(_var_aval(var)),
                             **({"checkpoint_key": checkpoint_keys[id(var)]} if id(var) in checkpoint_keys else {})}
                            for key, var in zip(names, writer.variables)]
    _write_directory(export_dir, program, list(zip(names, writer.variables)), writer.constant_files, overwrite)
    return os.fspath(export_dir)


# ------------------------------------------------------------------ what to save
def _keras_model_class():
    from tapeflow.keras.models import Model
    return Model


def _signature_functions(obj, signatures):
    if signatures is None:
        if isinstance(obj, _keras_model_class()):
            # TF: an unbuilt model (say one whose tf.function methods are all it serves) has no
            # default signature, and is saved with its methods
            return {SERVING: (keras_serving(obj), ["inputs"])} if _keras_input_specs(obj) is not None else {}
        if isinstance(obj, Function) and obj.input_signature is not None:
            signatures = obj
        else:
            # As TensorFlow: the one tf.function attribute with an input_signature, if exactly one.
            candidates = [fn for fn in _function_attributes(obj).values() if fn.input_signature is not None]
            if len(candidates) != 1:
                return {}
            signatures = candidates[0]
    if not isinstance(signatures, dict):
        signatures = {SERVING: signatures}
    out = {}
    for name, fn in signatures.items():
        if not isinstance(name, str) or not name:
            raise SavedModelSaveError(f"save: signature names are non-empty strings, got {name!r}")
        if isinstance(fn, Function):
            if fn.input_signature is None:
                raise SavedModelSaveError(
                    f"save: signature {name!r} is tf.function {fn.__name__} without an input_signature; give it "
                    f"one, or pass fn.get_concrete_function(...) ")
            if _unknown_rank(fn):  # one graph per saved rank, picked by the call's ranks
                out[name] = (_trace_saved_ranks(fn, fn.__name__), _parameter_names(fn.python_function))
            else:
                out[name] = (fn.get_concrete_function(), _parameter_names(fn.python_function))
        elif isinstance(fn, ConcreteFunction):  # inputs named by the traced function's parameters
            sig = fn.call_signature
            out[name] = (fn, [] if sig is None else [p.name for p in sig.parameters.values()
                                                     if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)])
        else:
            raise SavedModelSaveError(f"save: signature {name!r} is a {type(fn).__name__}; expected a tf.function "
                                      f"with an input_signature or a ConcreteFunction")
    return out


def _keras_input_specs(model):
    """The specs a built model was called with (a functional model's: its keras.Inputs'), or None."""
    specs = model.__dict__.get("_build_input_specs")
    graph = model.__dict__.get("_functional")
    if specs is None and graph is not None:
        specs = nest.map_structure(lambda kt: TensorSpec(kt.shape, kt.dtype), graph.inputs)
    return specs if model.built else None


def keras_serving(model):
    """The model's call on its built input shape, batch dimension unknown."""
    specs = _keras_input_specs(model)
    if specs is None:
        raise SavedModelSaveError(
            f"save: keras model {model.name} is not built, so its input shape is unknown; call it on a batch "
            f"(or build it) first, or pass signatures=")

    # TF names every input of a Keras model's serving signature "inputs" (then inputs_1, ...
    # in nest order: a dict's by sorted key)

    def unbatched(spec):
        if not isinstance(spec, TensorSpec):
            return spec
        dims = spec.shape.dims
        return TensorSpec((None,) + tuple(dims[1:]) if dims else dims, spec.dtype, "inputs")

    def serve(inputs):
        return model(inputs, training=False)

    serve.__name__ = f"{model.name}_serving"
    signature = nest.map_structure(unbatched, specs)
    concrete = Function(serve, input_signature=[signature], fallback=False).get_concrete_function()
    concrete.input_structure = ((signature,), {})   # as traced, with the input names kept
    return concrete


def _function_attributes(obj):
    """name -> tf.function (bound to obj) for the tf.function attributes of `obj`
    (`__call__` when `obj` is one)."""
    found = {}
    if isinstance(obj, Function):
        found["__call__"] = obj
    else:
        for name in dir(type(obj)):
            if isinstance(inspect.getattr_static(type(obj), name, None), Function):
                found[name] = getattr(obj, name)
        for name, value in vars(obj).items() if hasattr(obj, "__dict__") else ():
            if isinstance(value, Function) and not name.startswith("__"):
                found[name] = value
    return found


def _unknown_rank(fn):
    return fn.input_signature is not None and any(spec.shape.rank is None for spec in nest.flatten(fn.input_signature))


def _signature_bound(obj, attributes):
    found = _function_attributes(obj)
    return sorted(name for name in attributes if name in found and found[name].input_signature is not None)


def _attribute_functions(obj):
    """name -> [ConcreteFunction]: every trace of each tf.function attribute."""
    found = _function_attributes(obj)
    out = {}
    for name, fn in sorted(found.items()):
        if name != "__call__" and LoadedModel.is_reserved(name):
            warnings.warn(f"save: tf.function {name} is not saved as a method: loaded models use that name "
                          f"themselves", RuntimeWarning, stacklevel=3)
            continue
        if _unknown_rank(fn):
            _trace_saved_ranks(fn, name)
        elif fn.input_signature is not None:
            fn.get_concrete_function()  # a signature is traced even when never called
        concretes = [c for c in fn._cache.values() if isinstance(c, ConcreteFunction)]  # noqa: SLF001
        usable = [c for c in concretes if _callable_from_file(c, f"{name}")]
        if usable:
            out[name] = usable
    return out


SAVED_RANKS = range(6)  # the ranks an unknown-rank input is saved for (tapeflow's graphs have fixed ranks)
MAX_RANK_TRACES = 36


def _trace_saved_ranks(fn, name):
    """TensorFlow saves one rank-polymorphic trace of an unknown-rank input_signature; a tapeflow
    graph has fixed ranks, so the saved model holds one trace per rank in SAVED_RANKS for each
    such input (every combination while they are at most MAX_RANK_TRACES, else equal ranks).  A
    rank the body cannot be traced at is left out (the loaded function's error names the saved
    ranks).  Only the first of these traces runs the body's Python side effects visibly (TF traces
    once): the others' prints are swallowed."""
    unknown = sum(spec.shape.rank is None for spec in nest.flatten(fn.input_signature))
    combos = list(itertools.product(SAVED_RANKS, repeat=unknown))
    if len(combos) > MAX_RANK_TRACES:
        combos = [(r,) * unknown for r in SAVED_RANKS]
    traced = fn.experimental_get_tracing_count() > 0
    errors, concretes = [], []
    for ranks in combos:
        quiet = contextlib.redirect_stdout(io.StringIO()) if traced else contextlib.nullcontext()
        traced = True
        try:
            with quiet:
                concretes.append(fn.concrete_for_ranks(ranks))
        except Exception as exc:  # noqa: BLE001 - a rank the body does not accept is not saved
            errors.append(exc)
    if concretes:
        return concretes
    raise SavedModelSaveError(f"save: {name} cannot be traced at any rank of {list(SAVED_RANKS)} for its "
                              f"unknown-rank input_signature: {errors[0]}") from errors[0]


def _callable_from_file(concrete, name):
    """Whether a loaded object can pick this concrete function from call arguments:
    every argument is a tensor or a plain Python value."""
    leaves = nest.flatten(concrete.input_structure) if concrete.input_structure is not None else [object()]
    bad = [x for x in leaves if not isinstance(x, (TensorSpec, type(None), bool, int, float, str, np.generic))]
    if bad:
        warnings.warn(f"save: the trace of {name} for arguments holding a {type(bad[0]).__name__} is not "
                      f"saved as a method (only tensors and plain Python values can be matched on load)",
                      RuntimeWarning, stacklevel=4)
    return not bad


def _parameter_names(fn):
    try:
        return [p.name for p in inspect.signature(fn).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


# ------------------------------------------------------------------ functions
class _FunctionTable:
    """The program's "functions" list: each concrete function once."""

    def __init__(self, writer):
        self.writer = writer
        self.entries = []
        self._index = {}

    def index(self, concrete):
        i = self._index.get(id(concrete))
        if i is None:
            where = f"function {concrete.name}"
            entry = {"name": concrete.name, "graph": self.writer.graph(concrete.graph),
                     "outputs": structure.encode_structure(concrete._structure, _output_leaf, where),
                     "inputs": _encode_inputs(concrete, where)}
            params = _encode_params(concrete)
            if params is not None:
                entry["params"] = params
            i = self._index[id(concrete)] = len(self.entries)
            self.entries.append(entry)
        return i


def _output_leaf(v):
    return {"output": v.index} if isinstance(v, _Output) else None


def _encode_inputs(concrete, where):
    s = concrete.input_structure
    if s is None:
        return None
    leaves = nest.flatten(s)
    if not all(isinstance(x, (TensorSpec, type(None), bool, int, float, str, np.generic)) for x in leaves):
        return None  # not callable by arguments; still usable as a signature
    args, kwargs = s
    return structure.encode_structure(
        [list(args), dict(kwargs)], lambda x: structure.tensor_leaf_json(_spec_aval(x), x.name)
        if isinstance(x, TensorSpec) else None, where)


def _encode_params(concrete):
    """The positional parameters of the traced function, [name] or [name, default] (a Python
    scalar default): a loaded call binds keywords and omitted defaults to them as tf.function
    binds a call before keying it (the saved traces hold bound arguments)."""
    sig = concrete.call_signature
    if sig is None:
        return None
    out = []
    for p in sig.parameters.values():
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            break
        simple = p.default is not p.empty and (p.default is None or type(p.default) in (bool, int, float, str))
        out.append([p.name, p.default] if simple else [p.name])
    return out


def _spec_aval(spec):
    return Aval(spec.shape.dims, spec.dtype)


def _var_aval(var):
    return Aval(var.shape.dims, var.dtype)


def _signature_entry(name, fn_and_params, table):
    concrete, params = fn_and_params
    if isinstance(concrete, list):  # an unknown-rank signature: one entry per saved rank
        first, *more = [_signature_entry(name, (c, params), table) for c in concrete]
        return dict(first, more=more) if more else first
    graph = concrete.graph
    in_names = _input_names(concrete, params)
    outputs = _output_names(concrete._structure, len(graph.outputs))
    return {"function": table.index(concrete),
            "inputs": [dict(encode_aval(graph.aval(r)), name=n) for n, r in zip(in_names, graph.inputs)],
            "outputs": [dict(encode_aval(graph.aval(graph.outputs[i])), name=n, output=i) for n, i in outputs]}


def _input_names(concrete, params):
    """One name per graph input: the TensorSpec's name, else the parameter's name
    (with _j for the j-th tensor of a nested argument), else args_i."""
    names = []
    s = concrete.input_structure
    if s is not None:
        args, kwargs = s
        groups = [(params[i] if i < len(params) else f"args_{i}", a) for i, a in enumerate(args)]
        groups += sorted(kwargs.items())
        for base, arg in groups:
            for path, spec in _leaf_paths(arg, ()):
                if isinstance(spec, TensorSpec):
                    names.append(spec.name or _path_name(base, path))
    if len(names) != len(concrete.graph.inputs):
        names = [f"args_{i}" for i in range(len(concrete.graph.inputs))]
    return unique_names(names)


def _leaf_paths(s, path):
    """(path, leaf) in nest's order (dicts by sorted key)."""
    if isinstance(s, dict):
        for k in sorted(s, key=nest._sort_key):  # noqa: SLF001 - the order graph inputs follow
            yield from _leaf_paths(s[k], path + (k,))
    elif isinstance(s, (list, tuple)):
        for i, v in enumerate(s):
            yield from _leaf_paths(v, path + (i,))
    else:
        yield path, s


def _path_name(base, path):
    """x -> "x"; x[0], x[1] -> "x" (unique_names makes them x, x_1); x["a"] -> "a" (a dict key
    names the input), as TensorFlow names the graph's inputs."""
    if path and isinstance(path[0], str):
        return "_".join(str(p) for p in path)
    return base


def _output_names(s, n_outputs):
    """[(name, graph output index)] for the outputs of a signature: a dict's keys
    (key_j inside a nested value), else output_i."""
    if isinstance(s, dict) and all(isinstance(k, str) for k in s):
        pairs = []
        for k in sorted(s):
            leaves = [v for v in nest.flatten(s[k]) if isinstance(v, _Output)]
            pairs += [(k if len(leaves) == 1 and not nest.is_nested(s[k]) else f"{k}_{j}", v.index)
                      for j, v in enumerate(leaves)]
    else:
        leaves = [v for v in (nest.flatten(s) if nest.is_nested(s) else [s]) if isinstance(v, _Output)]
        pairs = [(f"output_{j}", v.index) for j, v in enumerate(leaves)]
    names = unique_names([n for n, _ in pairs])
    return list(zip(names, [i for _, i in pairs]))


def unique_names(names):
    """names with a _k suffix on the k-th repeat of one (shared with the ONNX exporter)."""
    seen, out = {}, []
    for n in names:
        k = seen.get(n, 0)
        seen[n] = k + 1
        out.append(n if k == 0 else f"{n}_{k}")
    return out


# ------------------------------------------------------------------ variables
def _variable_names(obj, variables):
    """A key per variable: its path from `obj` (as a checkpoint of obj names it),
    or "_captured/N"."""
    path_of = {}
    _walk_object(obj, "", path_of, set(), 0)
    names, n_captured = [], 0
    for var in variables:
        key = path_of.get(id(var))
        if key is None:
            key = f"_captured/{n_captured}"
            n_captured += 1
        names.append(key)
    return names


def _reachable_variables(obj):
    """The variables reachable from `obj` (as _variable_names walks it), in path order."""
    path_of, by_id = {}, {}
    _walk_object(obj, "", path_of, set(), 0, by_id)
    return [by_id[i] for i in sorted(path_of, key=path_of.get)]


def _checkpoint_keys(obj):
    """{id(variable): its key in a checkpoint of obj's children}."""
    variables, _, _ = walk_graph(checkpoint_children(obj)) if isinstance(obj, Trackable) else ([], None, None)
    return {id(v): path for path, v in variables}


def _walk_object(x, prefix, path_of, seen, depth, by_id=None):
    if id(x) in seen or depth > 16:
        return
    seen.add(id(x))
    if isinstance(x, Variable):
        path_of.setdefault(id(x), prefix)
        if by_id is not None:
            by_id[id(x)] = x
        return
    if isinstance(x, Trackable):
        children = children_of(x).items()
    elif isinstance(x, (list, tuple)):
        children = [(str(i), v) for i, v in enumerate(x)]
    elif isinstance(x, dict):
        children = [(k, v) for k, v in x.items() if isinstance(k, str)]
    elif isinstance(x, Function):
        return
    elif depth == 0 or (hasattr(x, "__dict__") and not isinstance(x, type) and not callable(x)):
        children = [(k, v) for k, v in getattr(x, "__dict__", {}).items() if not k.startswith("__")]
    else:
        return
    for name, child in children:
        # Trackables may name a child by a path ("layers/0"); keys only need non-empty segments.
        if isinstance(name, str) and name and all(name.split("/")):
            _walk_object(child, f"{prefix}/{name}" if prefix else name, path_of, seen, depth + 1, by_id)


# ------------------------------------------------------------------ writing
def _write_directory(export_dir, program, named_variables, constants, overwrite):
    """Crash-safe (train/files.py): a temporary sibling, fsync'ed, published by
    renames; an existing saved model is renamed aside first and deleted last, so
    the path always holds a complete model, the old one or the new one."""
    path = os.path.abspath(os.fspath(export_dir))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = files.make_temp_dir(path)
    try:
        checkpoint.write_values(os.path.join(tmp, VARIABLES_DIR), named_variables)
        if constants:
            os.mkdir(os.path.join(tmp, CONSTANTS_DIR))
            for i, array in enumerate(constants):
                files.write_array(os.path.join(tmp, CONSTANTS_DIR, f"{i}.npy"), array)
            files.fsync_dir(os.path.join(tmp, CONSTANTS_DIR))
        # The program goes last: a directory without it is never a saved model.
        files.write_json(os.path.join(tmp, PROGRAM), program, allow_nan=False)
        files.fsync_dir(tmp)
        files.publish(tmp, path, overwrite)
    except OSError as exc:
        files.remove_dir(tmp)
        if isinstance(exc, FileExistsError):
            raise FileExistsError(f"save: {path!r} exists (pass overwrite=True)") from None
        where = f" ({exc.filename})" if exc.filename else ""
        if exc.errno is None:  # a buffered file's short write: no errno
            raise OSError(f"{exc} (a short write: is the disk full?) while saving the model {path!r}") from exc
        raise type(exc)(exc.errno, f"{exc.strerror or exc} while saving the model {path!r}{where}") from exc
    except BaseException:
        files.remove_dir(tmp)
        raise
