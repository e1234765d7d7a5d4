"""Dataset.save / Dataset.load: a data set's elements written to a directory and read back.

The directory holds `element_spec.json` (the element structure: dicts, tuples, lists of
TensorSpecs, as plain JSON) and `elements.tfrecord`: for each element, one record per
component in tf.nest order, each a tf.io.serialize_tensor TensorProto.  This is tapeflow's
own layout, not TensorFlow's snapshot format: a directory saved by one library is read
back by the same library.  Dataset.cache(filename) keeps its first complete pass in the
same layout (in `filename` + ".cache"), written aside and renamed when the pass ends."""
import json
import os

from tapeflow.data import structure as S
from tapeflow.runtime import dtypes, nest
from tapeflow.runtime.errors import with_location

SPEC_FILE = "element_spec.json"
ELEMENTS_FILE = "elements.tfrecord"


def _encode_spec(spec):
    import tapeflow
    if isinstance(spec, dict):
        return {"dict": {str(k): _encode_spec(v) for k, v in spec.items()}}
    if isinstance(spec, (tuple, list)) and not hasattr(spec, "_fields"):
        return {"tuple" if isinstance(spec, tuple) else "list": [_encode_spec(v) for v in spec]}
    if type(spec) is tapeflow.TensorSpec:
        dims = spec.shape.dims
        return {"shape": None if dims is None else [None if d is None else int(d) for d in dims],
                "dtype": spec.dtype.name}
    raise TypeError(with_location(f"Dataset.save: elements with a {type(spec).__name__} component are not "
                                  f"supported (only tensors in dicts, tuples and lists)"))


def _decode_spec(doc):
    import tapeflow
    if not isinstance(doc, dict):
        raise ValueError(with_location(f"Dataset.load: bad element spec entry {doc!r}"))
    if "dict" in doc:
        return {k: _decode_spec(v) for k, v in doc["dict"].items()}
    if "tuple" in doc:
        return tuple(_decode_spec(v) for v in doc["tuple"])
    if "list" in doc:
        return [_decode_spec(v) for v in doc["list"]]
    return tapeflow.TensorSpec(doc["shape"], dtypes.as_dtype(doc["dtype"]))


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    import tapeflow
    if shard_func is not None:
        raise ValueError(with_location("Dataset.save: shard_func is not supported"))
    path = os.fspath(path)
    spec = _encode_spec(dataset.element_spec)
    os.makedirs(path, exist_ok=True)
    options = tapeflow.io.TFRecordOptions(compression_type=compression or "")
    count = 0
    with tapeflow.io.TFRecordWriter(os.path.join(path, ELEMENTS_FILE), options) as writer:
        for element in dataset:
            for t in nest.flatten(element):
                writer.write(tapeflow.io.serialize_tensor(t).numpy())
            count += 1
    with open(os.path.join(path, SPEC_FILE), "w") as f:  # last: a directory with it is complete
        json.dump({"spec": spec, "compression": compression or "", "count": count}, f)


def load(path, element_spec=None, compression=None, reader_func=None):
    import tapeflow
    path = os.fspath(path)
    spec_path = os.path.join(path, SPEC_FILE)
    if not os.path.isfile(spec_path):
        raise tapeflow.errors.NotFoundError(None, None, f"Dataset.load: no saved dataset at {path!r} "
                                                         f"(expected {SPEC_FILE}, written by Dataset.save)")
    with open(spec_path) as f:
        doc = json.load(f)
    spec = element_spec if element_spec is not None else _decode_spec(doc["spec"])
    flat = nest.flatten(spec)
    records = tapeflow.data.TFRecordDataset(os.path.join(path, ELEMENTS_FILE),
                                            compression_type=compression or doc.get("compression", ""))

    def parse(batch):
        parts = [tapeflow.ensure_shape(tapeflow.io.parse_tensor(batch[i], s.dtype), s.shape)
                 for i, s in enumerate(flat)]
        return nest.pack_sequence_as(spec, parts)
    out = records.batch(len(flat), drop_remainder=True).map(parse)
    count = doc.get("count")  # the element count, as TF's loaded cardinality (older saves lack it)
    if isinstance(count, int) and not isinstance(count, bool) and count >= 0:
        out = out.apply(tapeflow.data.experimental.assert_cardinality(count))
    return out


def file_cache(parent, filename):
    """Dataset.cache(filename): the first complete pass over `parent` is written to disk;
    every later pass (of this data set or of another pipeline naming the same file)
    reads it instead of running `parent`."""
    return pass_on_disk(parent, os.fspath(filename) + ".cache")


def snapshot(parent, path, reader_func=None, shard_func=None):
    """Dataset.snapshot: the first complete pass is written under `path`; later passes (and other
    pipelines naming `path`) read it back (this module's layout, not TF's snapshot files)."""
    if reader_func is not None or shard_func is not None:
        raise NotImplementedError(with_location("Dataset.snapshot: reader_func and shard_func are not supported"))
    return pass_on_disk(parent, os.fspath(path))


def pass_on_disk(parent, directory):
    """`parent`, whose first complete pass is kept in `directory` (this module's layout) and
    read back by every later pass: Dataset.cache(filename) and Dataset.snapshot(path)."""
    import shutil

    import tapeflow
    source = parent._produce

    def produce():
        if os.path.isfile(os.path.join(directory, SPEC_FILE)):
            yield from load(directory)._produce()
            return
        partial = f"{directory}.partial-{os.getpid()}"
        os.makedirs(partial, exist_ok=True)
        shapes = None  # per component: the dims every element shares (None where they differ)
        count = 0
        with tapeflow.io.TFRecordWriter(os.path.join(partial, ELEMENTS_FILE)) as writer:
            for flat in source():
                for a in flat:
                    writer.write(tapeflow.io.serialize_tensor(a).numpy())
                shapes = _merged(shapes, flat)
                count += 1
                yield flat
        with open(os.path.join(partial, SPEC_FILE), "w") as f:
            # The spec from the pass itself: asking parent.element_spec would run its map
            # function once more (a py_function's side effect TF does not have).
            spec = parent.element_spec if shapes is None else S.pack(parent._tmpl, [
                tapeflow.TensorSpec(dims, dtypes.string if kind in "OSU" else dtypes.as_dtype(dt))
                for dims, dt, kind in shapes])
            json.dump({"spec": _encode_spec(spec), "compression": "", "count": count}, f)
        if os.path.isfile(os.path.join(directory, SPEC_FILE)):
            shutil.rmtree(partial)  # another pass finished first
        else:
            if os.path.isdir(directory) and not os.listdir(directory):
                os.rmdir(directory)  # an empty folder named by the caller
            os.replace(partial, directory)

    return parent._derive(produce)


def _merged(shapes, flat):
    import numpy as np
    now = [(list(np.shape(a)), np.asarray(a).dtype, np.asarray(a).dtype.kind) for a in flat]
    if shapes is None:
        return now
    return [(None if dims is None else dims if dims == d else
             ([x if x == y else None for x, y in zip(dims, d)] if len(dims) == len(d) else None), dt, kind)
            for (dims, dt, kind), (d, _, _) in zip(shapes, now)]
