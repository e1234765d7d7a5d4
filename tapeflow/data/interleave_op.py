"""Dataset.interleave and flat_map: the elements of the datasets a function
makes from each input element, in TF's cycle order."""
import os

from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import (AUTOTUNE, UNKNOWN, call_on_element, element_error, learnt_tmpl,
                                    positive)
from tapeflow.runtime.errors import with_location


def _child(op, fn, parent, index, flat):
    """The Dataset that `fn` makes from one input element (interleave, flat_map, ...)."""
    try:
        out = call_on_element(fn, parent._element(flat))
    except Exception as exc:
        raise element_error(f"Dataset.{op}", fn, index, exc) from exc
    if not isinstance(out, Dataset):
        raise TypeError(with_location(
            f"Dataset.{op}: the function must return a Dataset, got {type(out).__name__} "
            f"for element {index}"))
    return out


def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
               deterministic=None, name=None):
    """Open `cycle_length` datasets map_func(element) and take `block_length`
    elements from each in turn.  A slot whose dataset ends is refilled with the
    next input element's dataset when its turn comes again (TF's order exactly);
    num_parallel_calls and deterministic change nothing here: the order is
    always the deterministic one."""
    cycle = (os.cpu_count() or 1) if cycle_length in (None, AUTOTUNE) else positive(cycle_length, "interleave")
    block = 1 if block_length is None else positive(block_length, "interleave")
    parent, source, store = self, self._produce, []

    def produce():
        inputs = enumerate(source())
        slots = [None] * cycle
        index, input_done = 0, False
        while True:
            if slots[index] is None and not input_done:
                item = next(inputs, None)
                if item is None:
                    input_done = True
                else:
                    child = _child("interleave", map_func, parent, *item)
                    if not store:
                        store.append(child._tmpl)
                    slots[index] = (child, iter(child._produce()))
            if slots[index] is None:
                if input_done and all(s is None for s in slots):
                    return
                index = (index + 1) % cycle
                continue
            child, it = slots[index]
            for _ in range(block):
                flat = next(it, None)
                if flat is None:
                    slots[index] = None
                    break
                yield flat
            index = (index + 1) % cycle

    out = Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=learnt_tmpl(store, produce, "interleave"),
                  parents=(self,))
    out._options = self._options
    return out


def flat_map(self, map_func, name=None):
    """The elements of map_func(element) for every element, one dataset after the other."""
    return interleave(self, map_func, cycle_length=1, block_length=1)
