"""Dataset.map: a function over every element, optionally on a thread pool; the
result's structure is learnt from the first mapped element."""
import collections
import concurrent.futures
import os
import threading
import warnings

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import AUTOTUNE, UNKNOWN, element_error, free_variables_now, peek, remember
from tapeflow.data.seeds import FunctionStreams, is_peeking
from tapeflow.tracer.py_function import data_function

# ignore_errors(): while it pulls an element, a map function that raises drops that element
# (the count is per thread: a pipeline's generators run in the thread that pulls from them).
_ignoring = threading.local()


def _dropping():
    return getattr(_ignoring, "depth", 0) > 0


def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
    """map_func(*element) for tuple elements, map_func(element) otherwise.  A
    failure names the element's index and the line of map_func that raised."""
    parent, map_func = self, free_variables_now(map_func)
    source = self._produce
    out_tmpl, out_static = [], []

    def apply(index, flat, streams, drop=False):
        element = parent._element(flat)
        try:
            with streams.call(), data_function():
                result = map_func(*element) if isinstance(element, tuple) and \
                    not hasattr(element, "_fields") else map_func(element)
        except Exception as exc:
            if drop:
                return None
            raise element_error("Dataset.map", map_func, index, exc) from exc
        if isinstance(result, list):  # TF: a list the function returns is a tuple (nested lists stay values)
            result = tuple(result)
        if not out_static:  # the static shapes TF's trace gives (a py_function's: unknown)
            out_static.append([getattr(v, "_static_shape", None) for v in S.flatten(result)])
        rt, rflat = S.flat_arrays(result)
        return rt, rflat

    def mapped(inputs, start):
        # TF traces map_func once and instantiates it per iterator: its random ops
        # restart their streams on every pass and continue them from element to element.
        streams = FunctionStreams()
        workers = num_parallel_calls
        if workers is None or workers == 1 or is_peeking():  # a peek runs here, where its writes are undone
            for i, flat in enumerate(inputs, start):
                done = apply(i, flat, streams, _dropping())
                if done is not None:
                    yield remember(out_tmpl, *done)
            return
        workers = (os.cpu_count() or 2) if workers == AUTOTUNE else int(workers)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            pending = collections.deque()
            for i, flat in enumerate(inputs, start):
                pending.append(pool.submit(apply, i, flat, streams, _dropping()))
                if len(pending) >= workers * 2:
                    done = pending.popleft().result()
                    if done is not None:
                        yield remember(out_tmpl, *done)
            while pending:
                done = pending.popleft().result()
                if done is not None:
                    yield remember(out_tmpl, *done)

    def produce():
        return mapped(source(), 0)

    def seek(k, epochs):  # the input from element k on: map_func runs on no element before it
        inputs = parent._start_at(k, epochs)
        return None if inputs is None else mapped(inputs, k)

    def tmpl_fn():
        if not out_tmpl:  # not iterated yet: map the first element to learn the structure
            peek(produce)
        if not out_tmpl:
            raise ValueError("the element structure of an empty mapped dataset is unknown")
        return out_tmpl[0]

    out = Dataset(produce, cardinality=self._card, shapes=None, tmpl_fn=tmpl_fn,
                  parents=(self,), seek=seek)
    traced = []

    def static():
        if not traced:
            traced.append(_traced_static_shapes(parent, map_func))
        first = out_static[0] if out_static else None
        if traced[0] is None or first is None or len(traced[0]) != len(first):
            return first if first is not None and any(s is not None for s in first) else None
        # a py_function's output keeps its unknown shape; otherwise the trace's shape is TF's
        return [t if e is None else e for t, e in zip(traced[0], first)]

    out._static = static
    return out


def _traced_static_shapes(parent, map_func):
    """The static shapes of map_func's outputs traced on the parent's element_spec, as TF's
    element_spec gives them (a batch of unknown size stays None, not the first batch's size);
    None where the function does not trace (the first element's shapes are used then)."""
    import tapeflow
    from tapeflow.runtime import nest
    try:
        spec = parent.element_spec
        args = spec if isinstance(spec, tuple) and not hasattr(spec, "_fields") else (spec,)
        if not all(isinstance(s, tapeflow.TensorSpec) for s in nest.flatten(args)):
            return None  # ragged and sparse components keep the eager path's specs
        with data_function():
            concrete = tapeflow.function(map_func).get_concrete_function(*args)
        result = concrete.structured_outputs
        if isinstance(result, list):
            result = tuple(result)
        leaves = S.flatten(result)
    except Exception:  # noqa: BLE001 - a function that only runs eagerly keeps the first element's shapes
        return None
    return [getattr(v, "shape", None) if isinstance(v, tapeflow.TensorSpec) else None for v in leaves]


def ignore_errors(self, log_warning=False, name=None):
    """The elements, less those whose map function raised (upstream of here)."""
    source = self._produce

    def produce():
        it = iter(source())
        while True:
            _ignoring.depth = getattr(_ignoring, "depth", 0) + 1
            try:
                flat = next(it)
            except StopIteration:
                return
            finally:
                _ignoring.depth -= 1
            yield flat

    if log_warning:
        warnings.warn("Dataset.ignore_errors: elements whose map function raises are dropped", stacklevel=2)
    return self._derive(produce, cardinality=UNKNOWN)
