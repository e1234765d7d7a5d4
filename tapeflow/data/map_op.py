"""Dataset.map: a function over every element, optionally on a thread pool; the
result's structure is learnt from the first mapped element."""
import collections
import concurrent.futures
import os

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import AUTOTUNE, element_error, peek, remember
from tapeflow.data.seeds import is_peeking


def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
    """map_func(*element) for tuple elements, map_func(element) otherwise.  A
    failure names the element's index and the line of map_func that raised."""
    parent = self
    source = self._produce
    out_tmpl = []

    def apply(index, flat):
        element = parent._element(flat)
        try:
            result = map_func(*element) if isinstance(element, tuple) and \
                not hasattr(element, "_fields") else map_func(element)
        except Exception as exc:
            raise element_error("Dataset.map", map_func, index, exc) from exc
        if isinstance(result, list):  # TF: a list the function returns is a tuple (nested lists stay values)
            result = tuple(result)
        rt, rflat = S.flat_arrays(result)
        return rt, rflat

    def mapped(inputs, start):
        workers = num_parallel_calls
        if workers is None or workers == 1 or is_peeking():  # a peek runs here, where its writes are undone
            for i, flat in enumerate(inputs, start):
                rt, rflat = apply(i, flat)
                yield remember(out_tmpl, rt, rflat)
            return
        workers = (os.cpu_count() or 2) if workers == AUTOTUNE else int(workers)
        with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
            pending = collections.deque()
            for i, flat in enumerate(inputs, start):
                pending.append(pool.submit(apply, i, flat))
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

    return Dataset(produce, cardinality=self._card, shapes=None, tmpl_fn=tmpl_fn,
                   parents=(self,), seek=seek)
