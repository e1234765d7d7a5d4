"""Dataset.map: a function over every element, optionally on a thread pool; the
result's structure is learnt from the first mapped element."""
import collections
import concurrent.futures
import os

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import AUTOTUNE, element_error, peek, remember
from tapeflow.data.seeds import FunctionStreams, is_peeking
from tapeflow.tracer.py_function import data_function


def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
    """map_func(*element) for tuple elements, map_func(element) otherwise.  A
    failure names the element's index and the line of map_func that raised."""
    parent = self
    source = self._produce
    out_tmpl, out_static = [], []

    def apply(index, flat, streams):
        element = parent._element(flat)
        try:
            with streams.call(), data_function():
                result = map_func(*element) if isinstance(element, tuple) and \
                    not hasattr(element, "_fields") else map_func(element)
        except Exception as exc:
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
                rt, rflat = apply(i, flat, streams)
                yield remember(out_tmpl, rt, rflat)
            return
        workers = (os.cpu_count() or 2) if workers == AUTOTUNE else int(workers)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            pending = collections.deque()
            for i, flat in enumerate(inputs, start):
                pending.append(pool.submit(apply, i, flat, streams))
                if len(pending) >= workers * 2:
                    yield remember(out_tmpl, *pending.popleft().result())
            while pending:
                yield remember(out_tmpl, *pending.popleft().result())

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
    out._static = lambda: out_static[0] if out_static and any(s is not None for s in out_static[0]) else None
    return out
