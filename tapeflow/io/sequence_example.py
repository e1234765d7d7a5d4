"""tf.io.parse_single_sequence_example / parse_sequence_example: tf.train.SequenceExample
protos to (context, feature lists[, lengths]).

The context is a tf.train.Features, parsed by parse_example (re-serialized as an Example,
so every context feature type and error is parse_example's); a feature list is parsed
here: FixedLenSequenceFeature -> [steps, *shape] (a batch padded with default_value, else
zeros, and its lengths), VarLenFeature -> SparseTensor [steps, longest step].  Eager (as
Dataset.map runs its functions); not in a traced graph."""
import numpy as np

from tapeflow.io.example_parsing import FixedLenSequenceFeature, VarLenFeature
from tapeflow.io.example_pb import Example, SequenceExample
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import Tensor, convert_to_tensor

_KINDS = {"int64_list": dtypes.int64, "float_list": dtypes.float32, "bytes_list": dtypes.string}


def _records(serialized, op):
    t = convert_to_tensor(serialized)
    if t.dtype is not dtypes.string or not hasattr(t, "numpy"):
        raise TypeError(with_location(f"{op}: serialized must be an eager string tensor, got {t!r}"))
    return t, [bytes(b) for b in np.asarray(t.numpy(), object).reshape(-1)]


def _messages(records, op):
    out = []
    for r in records:
        m = SequenceExample()
        try:
            m.ParseFromString(r)
        except Exception:
            raise InvalidArgumentError(with_location(f"{op}: could not parse a serialized SequenceExample")) from None
        out.append(m)
    return out


def _steps(message, key, spec, op):
    """The feature list `key` of one SequenceExample as a list of value arrays (None: absent)."""
    lists = message.feature_lists.feature_list
    if key not in lists:
        return None
    dtype = dtypes.as_dtype(spec.dtype)
    steps = []
    for t, feature in enumerate(lists[key].feature):
        kind = feature.WhichOneof("kind")
        if kind is None:
            steps.append(np.zeros([0], object if dtype is dtypes.string else dtype.as_numpy_dtype))
            continue
        if _KINDS[kind] is not dtype:
            raise InvalidArgumentError(with_location(
                f"{op}: feature list '{key}' step {t}: data type {_KINDS[kind].name} does not match the "
                f"expected type {dtype.name}"))
        values = list(getattr(feature, kind).value)
        steps.append(np.array(values, object) if dtype is dtypes.string else np.array(values, dtype.as_numpy_dtype))
    return steps


def _dense(key, spec, all_steps, op):
    """[batch, longest, *shape] and the lengths, for a FixedLenSequenceFeature."""
    shape = list(spec.shape)
    size = int(np.prod(shape)) if shape else 1
    dtype = dtypes.as_dtype(spec.dtype)
    npdt = object if dtype is dtypes.string else dtype.as_numpy_dtype
    rows = []
    for steps in all_steps:
        if steps is None:
            if not spec.allow_missing:
                raise InvalidArgumentError(with_location(
                    f"{op}: Name: <unknown>, Feature list '{key}' is required but could not be found."))
            steps = []
        for t, v in enumerate(steps):
            if v.size != size:
                raise InvalidArgumentError(with_location(
                    f"{op}: Name: <unknown>, Key: {key}, Index: {t}. Number of values != expected. "
                    f"values size: {v.size} but output shape: {shape}"))
        rows.append(np.array([v.reshape(shape) for v in steps], npdt).reshape([len(steps)] + shape))
    longest = max((len(r) for r in rows), default=0)
    pad = b"" if dtype is dtypes.string else 0
    if spec.default_value is not None:
        pad = np.asarray(spec.default_value, npdt)
    out = np.empty([len(rows), longest] + shape, npdt)
    out[...] = pad
    for b, r in enumerate(rows):
        out[b, :len(r)] = r
    return out, np.array([len(r) for r in rows], np.int64)


def _sparse(spec, all_steps):
    """(indices [n, 3], values, dense_shape [3]) over (batch, step, position), for a VarLenFeature."""
    from tapeflow.sparse import SparseTensor
    dtype = dtypes.as_dtype(spec.dtype)
    indices, values = [], []
    longest_steps = longest_values = 0
    for b, steps in enumerate(all_steps):
        steps = steps or []
        longest_steps = max(longest_steps, len(steps))
        for t, v in enumerate(steps):
            longest_values = max(longest_values, v.size)
            indices += [(b, t, j) for j in range(v.size)]
            values += list(v)
    npdt = object if dtype is dtypes.string else dtype.as_numpy_dtype
    return SparseTensor(Tensor(np.array(indices, np.int64).reshape(-1, 3)), Tensor(np.array(values, npdt)),
                        [len(all_steps), longest_steps, longest_values])


def _parse(serialized, context_features, sequence_features, op, single=False):
    import tapeflow
    context_features, sequence_features = dict(context_features or {}), dict(sequence_features or {})
    for key, spec in sequence_features.items():
        if not isinstance(spec, (FixedLenSequenceFeature, VarLenFeature)):
            raise NotImplementedError(with_location(
                f"{op}: sequence feature {key!r} is a {type(spec).__name__}; tapeflow parses feature lists as "
                f"FixedLenSequenceFeature or VarLenFeature"))
    t, records = _records(serialized, op)
    messages = _messages(records, op)
    contexts = [Example(features=m.context).SerializeToString() for m in messages]
    parse = tapeflow.io.parse_single_example if single else tapeflow.io.parse_example
    records = tapeflow.constant(np.array(contexts[0] if single else contexts, object), tapeflow.string)
    context = parse(records, context_features) if context_features else {}
    lists, lengths = {}, {}
    for key in sorted(sequence_features):
        spec = sequence_features[key]
        steps = [_steps(m, key, spec, op) for m in messages]
        if isinstance(spec, VarLenFeature):
            lists[key] = _sparse(spec, steps)
        else:
            dense, counts = _dense(key, spec, steps, op)
            lists[key], lengths[key] = Tensor(dense), Tensor(counts)
    return context, lists, lengths


def parse_sequence_example(serialized, context_features=None, sequence_features=None, example_names=None,
                           name=None):
    """A vector of serialized SequenceExamples -> (context, feature_lists, lengths)."""
    t, _ = _records(serialized, "parse_sequence_example")
    if t.shape.rank != 1:
        raise ValueError(with_location(f"parse_sequence_example: serialized must be a vector, got shape "
                                       f"{t.shape.as_list()}"))
    return _parse(serialized, context_features, sequence_features, "parse_sequence_example")


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None, example_name=None,
                                  name=None):
    """One serialized SequenceExample (a scalar) -> (context, feature_lists)."""
    from tapeflow.sparse import SparseTensor
    op = "parse_single_sequence_example"
    t, _ = _records(serialized, op)
    if t.shape.rank != 0:
        raise ValueError(with_location(f"{op}: serialized must be a scalar, got shape {t.shape.as_list()}"))
    context, lists, _ = _parse(t, context_features, sequence_features, op, single=True)
    single = {}
    for key, value in lists.items():
        if isinstance(value, SparseTensor):
            single[key] = SparseTensor(value.indices[:, 1:], value.values, value.dense_shape[1:])
        else:
            single[key] = value[0]
    return context, single
