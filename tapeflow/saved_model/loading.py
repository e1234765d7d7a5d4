"""tapeflow.saved_model.load: read a saved model directory into an object whose
signatures and methods run the saved graphs, compiled, without the original
Python code.

Nothing in the directory is executed or imported: the JSON is parsed with
duplicate keys and NaN literals refused, every graph is rebuilt node by node
under decode.py's checks, arrays come from checked .npy reads (never pickle),
and any problem is a SavedModelError naming the file and the place in it.
"""
import keyword
import os

from tapeflow.runtime import nest
from tapeflow.runtime.registry import Aval
from tapeflow.runtime.variables import Variable
from tapeflow.tracer.concrete import ConcreteFunction, _Output
from tapeflow.train import checkpoint_format as checkpoint
from tapeflow.train import files

from . import arrays, structure
from .decode import (GraphReader, decode_aval, decode_static_shape, expect, expect_dict, expect_int, expect_list,
                     expect_str)
from .format import CONSTANTS_DIR, FORMAT, MAX_PROGRAM_BYTES, PROGRAM, VARIABLES_DIR, VERSION, SavedModelError
from .loaded import LoadedFunction, LoadedModel, Signature


def load(export_dir, tags=None, options=None):
    """The saved model in directory `export_dir`: `.signatures[name](**inputs)`
    returns a dict of outputs; saved tf.functions are methods of the object.  `tags`
    (TensorFlow's MetaGraph tags) are accepted: a tapeflow saved model has one graph set."""
    if options is not None and (options.experimental_skip_checkpoint or options.experimental_load_function_aliases):
        raise NotImplementedError("tf.saved_model.load: LoadOptions(experimental_skip_checkpoint=True or "
                                  "experimental_load_function_aliases=True) is not implemented")
    path = os.fspath(export_dir)
    if not isinstance(path, str):
        raise SavedModelError(f"no saved model at {path!r}: the path must be a str")
    root = files.published(path, PROGRAM)  # the aside copy after a killed overwrite
    program = read_program(root)
    variables, keys, checkpoint_keys = _read_variables(root, program["variables"])
    reader = GraphReader(variables, _constant_reader(root))
    functions = [_function(reader, entry, f"{PROGRAM}: functions[{i}]")
                 for i, entry in enumerate(expect_list(program["functions"], f"{PROGRAM}: functions"))]
    signatures = {}
    sig_obj = program["signatures"]
    expect(isinstance(sig_obj, dict), f"{PROGRAM}: signatures", "must be an object")
    for name, entry in sig_obj.items():
        signatures[name] = _signature(name, entry, functions, f"{PROGRAM}: signatures[{name!r}]")
    methods = {}
    attr_obj = program["attributes"]
    expect(isinstance(attr_obj, dict), f"{PROGRAM}: attributes", "must be an object")
    bound = expect_list(program.get("input_signatures", []), f"{PROGRAM}: input_signatures")
    for name, indices in attr_obj.items():
        where = f"{PROGRAM}: attributes[{name!r}]"
        expect(name == "__call__" or (name.isidentifier() and not keyword.iskeyword(name)
                                      and not name.startswith("__")), where, "not a method name")
        expect(name == "__call__" or not LoadedModel.is_reserved(name), where, f"{name!r} is reserved")
        chosen = []
        for i in expect_list(indices, where):
            concrete, inputs = functions[expect_int(i, where, 0, len(functions))]
            expect(inputs is not None, where, f"function {i} cannot be called with arguments")
            chosen.append((concrete, inputs))
        methods[name] = LoadedFunction(name, chosen, bound_to_signature=name in bound)
    return LoadedModel(path, signatures, methods, list(zip(keys, variables)), checkpoint_keys)


# ------------------------------------------------------------------ the program
def read_json(file, root, limit, what):
    """The JSON in `file` (a regular file inside `root`), parsed strictly."""
    try:
        data = files.read_limited(file, root, limit)
    except FileNotFoundError:
        raise SavedModelError(f"no saved model at {root!r}: {what} is missing") from None
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise SavedModelError(f"{file!r} cannot be read: {reason}") from None
    try:
        return files.strict_json(data)
    except files.StrictJSONError as exc:
        raise SavedModelError(f"{file!r}: {exc}") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise SavedModelError(f"{file!r} is not valid JSON: {type(exc).__name__}: {exc}") from None


def read_program(path):
    program = read_json(os.path.join(path, PROGRAM), path, MAX_PROGRAM_BYTES, PROGRAM)
    expect(isinstance(program, dict), PROGRAM, "the top level must be an object")
    fmt, version = program.get("format"), program.get("version")
    expect(fmt == FORMAT, PROGRAM, f"format is {fmt!r}, not {FORMAT!r}")
    expect(version == VERSION and not isinstance(version, bool), PROGRAM,
           f"version {version!r} is not supported (this tapeflow reads version {VERSION})")
    return expect_dict(program, PROGRAM, ("format", "version", "signatures", "attributes", "functions",
                                          "variables"), optional=("input_signatures",))


# ------------------------------------------------------------------ variables
def _read_variables(path, entries):
    where = f"{PROGRAM}: variables"
    folder = os.path.join(path, VARIABLES_DIR)
    index = read_json(os.path.join(folder, checkpoint.INDEX), path, MAX_PROGRAM_BYTES,
                      f"{VARIABLES_DIR}/{checkpoint.INDEX}")
    iwhere = f"{VARIABLES_DIR}/{checkpoint.INDEX}"
    expect_dict(index, iwhere, ("format", "version", "values"))
    expect(index["format"] == checkpoint.FORMAT and index["version"] in (1, checkpoint.VERSION), iwhere,
           "not a tapeflow checkpoint index")
    files = index["values"]
    expect(isinstance(files, dict), iwhere, "values must be an object")
    variables, keys, checkpoint_keys = [], [], {}
    for i, entry in enumerate(expect_list(entries, where)):
        w = f"{where}[{i}]"
        expect_dict(entry, w, ("key", "name", "trainable", "shape", "dtype"), optional=("checkpoint_key",))
        key = _checked_key(entry["key"], w)
        if "checkpoint_key" in entry:  # the variable's name in a checkpoint of the saved object
            checkpoint_keys[key] = _checked_key(entry["checkpoint_key"], w)
        expect(key not in keys, w, f"key {key!r} appears twice")
        name = expect_str(entry["name"], w + ", name", 1024)
        expect(isinstance(entry["trainable"], bool), w, "trainable must be a bool")
        dtype = arrays.dtype_by_name(entry["dtype"], w)
        shape = decode_static_shape(entry["shape"], w + ", shape")
        file_entry = files.get(key)
        expect(file_entry is not None, w, f"{iwhere} has no value for {key!r}")
        expect_dict(file_entry, f"{iwhere}[{key!r}]", ("file", "shape", "dtype"))
        expect(file_entry["shape"] == list(shape) and file_entry["dtype"] == dtype.name, f"{iwhere}[{key!r}]",
               "shape or dtype differ from the program's")
        fname = arrays.check_file_name(file_entry["file"], f"{iwhere}[{key!r}]")
        value = arrays.read_npy(os.path.join(folder, fname), path, dtype, shape, f"variable {key!r}")
        base = name[:-2] if name.endswith(":0") else name
        variables.append(Variable(value, trainable=entry["trainable"], name=base))
        keys.append(key)
    expect(len(set(checkpoint_keys.values())) == len(checkpoint_keys), where, "a checkpoint_key appears twice")
    return variables, keys, checkpoint_keys


def _checked_key(key, where):
    expect_str(key, where + ", key", 1024)
    parts = key.split("/")
    expect(all(parts), where, f"bad variable key {key!r}")
    return key


def _constant_reader(path):
    cache = {}

    def read(name, dtype, shape, where):
        hit = cache.get(name)
        if hit is None:
            hit = cache[name] = arrays.read_npy(os.path.join(path, CONSTANTS_DIR, name), path, dtype, shape,
                                                where)
        expect(hit.dtype == dtype.np and hit.shape == tuple(shape), where, f"{name} is used with two shapes")
        return hit

    return read


# ------------------------------------------------------------------ functions
def _function(reader, entry, where):
    """(ConcreteFunction over the decoded graph, decoded input structure or None)."""
    expect_dict(entry, where, ("name", "graph", "outputs", "inputs"), optional=("params",))
    name = expect_str(entry["name"], where + ", name", 256)
    graph = reader.graph(entry["graph"], where + ", graph")
    n_out = len(graph.outputs)
    outputs = structure.decode_structure(entry["outputs"], where + ", outputs", ("output",))

    def marker(leaf):
        if isinstance(leaf, structure.OutputLeaf):
            expect(leaf.index < n_out, where, f"output {leaf.index} of a graph with {n_out} outputs")
            return _Output(leaf.index)
        return leaf

    outputs = nest.map_structure(marker, outputs) if nest.is_nested(outputs) else marker(outputs)
    input_avals = [graph.aval(r) for r in graph.inputs]
    inputs = None
    if entry["inputs"] is not None:
        inputs = structure.decode_structure(entry["inputs"], where + ", inputs", ("tensor",))
        expect(isinstance(inputs, list) and len(inputs) == 2 and isinstance(inputs[0], list)
               and isinstance(inputs[1], dict), where, "inputs must be [args list, kwargs dict]")
        specs = structure.flatten_leaves(inputs, structure.TensorLeaf)
        expect([Aval(s.shape, s.dtype) for s in specs] == input_avals, where,
               "the tensor arguments do not match the graph's inputs")
    concrete = ConcreteFunction(name, graph, outputs, input_avals, origin="a saved model")
    params = expect_list(entry.get("params", []), where + ", params", 256)
    for p in params:
        expect(isinstance(p, list) and len(p) in (1, 2) and isinstance(p[0], str) and (
            len(p) == 1 or p[1] is None or type(p[1]) in (bool, int, float, str)), where + ", params",
            "each is [name] or [name, default]")
    concrete.saved_params = [tuple(p) for p in params]
    return concrete, inputs


def _signature(name, entry, functions, where):
    """A signature; one saved with unknown-rank inputs holds one graph per saved rank ("more")."""
    expect(name != "", where, "a signature needs a name")
    expect_dict(entry, where, ("function", "inputs", "outputs"), optional=("more",))
    first = _signature_graph(entry, functions, where)
    more = [_signature_graph(e, functions, f"{where}, more[{i}]", alone=True)
            for i, e in enumerate(expect_list(entry.get("more", []), where + ", more"))]
    for alt in more:
        expect([n for n, _ in alt[1]] == [n for n, _ in first[1]], where, "ranks of one signature name other inputs")
    return Signature(name, [first] + more)


def _signature_graph(entry, functions, where, alone=False):
    if alone:  # an entry of "more"
        expect(isinstance(entry, dict), where, "expected an object")
        expect_dict(entry, where, ("function", "inputs", "outputs"))
    concrete, _ = functions[expect_int(entry["function"], where + ", function", 0, len(functions))]
    graph = concrete.graph
    ins = expect_list(entry["inputs"], where + ", inputs")
    expect(len(ins) == len(graph.inputs), where, f"{len(ins)} inputs for a graph of {len(graph.inputs)}")
    inputs = []
    for i, item in enumerate(ins):
        w = f"{where}, inputs[{i}]"
        expect(isinstance(item, dict), w, "expected an object")
        expect_dict(item, w, ("name", "shape", "dtype"))
        aval = decode_aval({"shape": item["shape"], "dtype": item["dtype"]}, w)
        expect(aval == graph.aval(graph.inputs[i]), w, "does not match the graph's input")
        inputs.append((expect_str(item["name"], w + ", name", 256), aval))
    outputs = []
    for i, item in enumerate(expect_list(entry["outputs"], where + ", outputs")):
        w = f"{where}, outputs[{i}]"
        expect(isinstance(item, dict), w, "expected an object")
        expect_dict(item, w, ("name", "output", "shape", "dtype"))
        index = expect_int(item["output"], w, 0, len(graph.outputs))
        aval = decode_aval({"shape": item["shape"], "dtype": item["dtype"]}, w)
        expect(aval == graph.aval(graph.outputs[index]), w, "does not match the graph's output")
        outputs.append((expect_str(item["name"], w + ", name", 256), index, aval))
    for kind, items in (("input", inputs), ("output", outputs)):
        names = [x[0] for x in items]
        expect(len(set(names)) == len(names), where, f"two {kind}s have the same name")
    return concrete, inputs, outputs


def contains_saved_model(export_dir):
    """Whether `export_dir` holds a (completely written) tapeflow saved model."""
    path = os.fspath(export_dir)
    return os.path.isfile(os.path.join(path, PROGRAM))
