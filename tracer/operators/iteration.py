"""Iteration sources of staged for loops: each has `length()` (a scalar) and
`element(i)` for the iteration counter i.  range/enumerate/zip in converted code
return them when an argument is symbolic; otherwise the Python builtins."""
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.registry import state as dispatch_state
from tapeflow.runtime.tensor import SymbolicTensor, TensorBase, convert_to_tensor
from tapeflow.runtime.ops import array_ops, math_ops

from .. import staging
from ..tensor_array import TensorArray, read_rows


class TensorRange:
    """range(start, limit, delta) with a symbolic bound: element i is start + i * delta."""

    def __init__(self, start, limit, delta):
        self.start, self.limit, self.delta = start, limit, delta

    def length(self):
        start, limit, delta = (convert_to_tensor(staging.as_tensor(v)) for v in (self.start, self.limit, self.delta))
        dtype = limit.dtype if isinstance(self.limit, TensorBase) else start.dtype
        start, limit, delta = (math_ops.cast(v, dtype) for v in (start, limit, delta))
        n = math_ops.negative(math_ops.floordiv(start - limit, delta))  # ceil((limit - start) / delta)
        return math_ops.cast(math_ops.maximum(n, 0), "int32")

    def element(self, i):
        dtype = convert_to_tensor(staging.as_tensor(self.limit)).dtype
        i = math_ops.cast(i, dtype)
        return math_ops.add(math_ops.multiply(i, self.delta), self.start)

    def as_python(self):
        return range(int(self.start), int(self.limit), int(self.delta))


class _Rows:
    def __init__(self, x):
        self.x = x

    def length(self):
        n = self.x.shape.dims[0]
        return convert_to_tensor(n) if n is not None else array_ops.shape(self.x)[0]

    def element(self, i):
        return read_rows(self.x, i)


class Pull:
    """The elements of a data set, taken one per iteration when the graph runs (the
    iterator's graph `next`).  An endless one ends only by break or return; a finite
    one also when `more()` (the iterator's graph end-of-data check, run by the loop's
    condition before each iteration) is false."""

    def __init__(self, iterator, finite):
        self.iterator, self.finite = iterator, finite

    def length(self):
        return convert_to_tensor(2 ** 31 - 1)

    def more(self):
        return self.iterator.has_next_in_graph() if self.finite else None

    def element(self, i):
        return self.iterator.next_in_graph()


def is_endless_dataset(it):
    """A data set whose cardinality is INFINITE (-1), duck-typed (tf.data sits above)."""
    card = getattr(it, "cardinality", None)
    if card is None or not callable(card) or not hasattr(it, "element_spec"):
        return False
    try:
        return int(card()) == -1
    except (TypeError, ValueError):
        return False


def varies_per_pass(it):
    """A data set (or an iterator over one) whose passes may differ (it runs Python, or
    reshuffles), duck-typed: unrolled at trace time, every call would see the elements of
    the pass made while tracing, so a loop over it is staged."""
    dataset = getattr(it, "_dataset", it)
    return getattr(dataset, "_passes_differ", False) is True and hasattr(it, "element_spec")


def source(it):
    if isinstance(it, (TensorRange, TensorEnumerate, TensorZip)):
        return it
    if isinstance(it, TensorArray):
        return _Rows(it.stack())
    if isinstance(it, TensorBase):
        return _Rows(staging.as_tensor(it))
    return _Rows(convert_to_tensor(it))


class TensorEnumerate:
    def __init__(self, it, start):
        self.source, self.start = source(it), start

    def length(self):
        return self.source.length()

    def element(self, i):
        return (i + self.start, self.source.element(i))


class TensorZip:
    def __init__(self, its):
        self.sources = [source(it) for it in its]

    def length(self):
        n = self.sources[0].length()
        for s in self.sources[1:]:
            n = math_ops.minimum(n, s.length())
        return n

    def element(self, i):
        return tuple(s.element(i) for s in self.sources)


def _tracing_tensor(v):
    """A value a staged loop iterates as a tensor: any tensor while tracing."""
    return dispatch_state.graph is not None and isinstance(v, (TensorBase, TensorArray, TensorRange,
                                                                 TensorEnumerate, TensorZip))


def range_(*args):
    if any(isinstance(staging.as_tensor(a), SymbolicTensor) for a in args):
        if len(args) == 1:
            return TensorRange(0, args[0], 1)
        if len(args) == 2:
            return TensorRange(args[0], args[1], 1)
        return TensorRange(*args)
    return range(*[int(a) if isinstance(a, TensorBase) else a for a in args])


def _staged_dataset(it):
    """A data set (not an iterator) whose loop is staged while tracing: enumerate and zip
    over it stay data sets (Dataset.enumerate / Dataset.zip), as in AutoGraph."""
    return dispatch_state.graph is not None and varies_per_pass(it) and callable(getattr(it, "enumerate", None))


def enumerate_(iterable, start=0):
    if _tracing_tensor(iterable):
        return TensorEnumerate(iterable, start)
    if _staged_dataset(iterable):
        return iterable.enumerate(start)
    return enumerate(iterable, start)


def zip_(*iterables, **kwargs):
    if iterables and not kwargs and any(_staged_dataset(it) for it in iterables) and all(
            callable(getattr(it, "enumerate", None)) and hasattr(it, "element_spec") for it in iterables):
        return type(iterables[0]).zip(tuple(iterables))
    if any(_tracing_tensor(it) for it in iterables):
        if kwargs:
            raise NotImplementedError(with_location("zip(..., strict=) over tensors"))
        return TensorZip(iterables)
    return zip(*iterables, **kwargs)


def len_(x):
    if isinstance(x, TensorArray):
        return x.size()
    if isinstance(x, TensorBase):
        t = staging.as_tensor(x)
        if t.shape.rank == 0:
            raise TypeError(with_location("len() of a scalar tensor is not defined"))
        n = t.shape.dims[0]
        return n if n is not None else array_ops.shape(t)[0]
    return len(x)
