"""Dataset.interleave and flat_map: the elements of the datasets a function
makes from each input element, in TF's cycle order."""
import itertools
import os

from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import (AUTOTUNE, UNKNOWN, call_on_element, element_error, free_variables_now,
                                    learnt_tmpl, positive)
from tapeflow.runtime.errors import InvalidArgumentError, with_location


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


def _elements(child):
    return iter(child._produce())


class _UnknownLength(Exception):
    pass


class _Positions:
    """A child's element positions 0 .. n-1 as an iterator, counting those taken."""

    def __init__(self, child):
        self.child, self.n, self.taken = child, child._card, 0

    def __iter__(self):
        return self

    def __next__(self):
        if self.n < 0:
            raise _UnknownLength()
        if self.taken >= self.n:
            raise StopIteration
        self.taken += 1
        return self.taken - 1


def _cycled(open_child, cycle, block, slots, where):
    """TF's interleave order over children's element iterators: `open_child()` gives the
    next one (None when the input has ended).  `slots` (an iterator or None per cycle
    entry) and `where` ([cycle index, input ended, taken in this block]) are changed in
    place, so that between two outputs they hold the whole state."""
    while True:
        index = where[0]
        if slots[index] is None and not where[1]:
            slots[index] = open_child()
            where[1] = slots[index] is None
        if slots[index] is None:
            if where[1] and all(s is None for s in slots):
                return
            where[0], where[2] = (index + 1) % cycle, 0
            continue
        flat = next(slots[index], None)
        if flat is None:
            slots[index] = None
            where[0], where[2] = (index + 1) % cycle, 0
            continue
        where[2] += 1
        if where[2] == block:
            where[0], where[2] = (index + 1) % cycle, 0
        yield flat


def interleave(self, map_func, cycle_length=None, block_length=None, num_parallel_calls=None,
               deterministic=None, name=None):
    """Open `cycle_length` datasets map_func(element) and take `block_length`
    elements from each in turn.  A slot whose dataset ends is refilled with the
    next input element's dataset when its turn comes again (TF's order exactly);
    num_parallel_calls and deterministic change nothing else here: the order is
    always the deterministic one."""
    cycle, too_parallel = _cycle_length(cycle_length, num_parallel_calls)
    block = 1 if block_length is None else positive(block_length, "interleave")
    parent, source, store, child_shapes = self, self._produce, [], []
    map_func = free_variables_now(map_func)

    def open_children(inputs, first):
        """The element iterators of the children made from `inputs` (numbered from `first`),
        with `wrap(child)` making each one's iterator."""
        def open_child(wrap):
            item = next(inputs, None)
            if item is None:
                return None
            child = _child("interleave", map_func, parent, item[0] + first, item[1])
            if not store:
                store.append(child._tmpl)
                child_shapes.append(_static_shapes(child))
            return wrap(child)
        return open_child

    def produce():
        if too_parallel:
            raise too_parallel
        opener = open_children(enumerate(source()), 0)
        return _cycled(lambda: opener(_elements), cycle, block, [None] * cycle, [0, False, 0])

    def seek(k, epochs):
        # The same cycle over the children's positions (each child's cardinality must be
        # known): which children are open after k elements, and how far each is read.
        # map_func runs again on the inputs read so far; no child element is produced.
        opener = open_children(enumerate(source()), 0)
        slots, where, read = [None] * cycle, [0, False, 0], [0]

        def open_counted():
            it = opener(_Positions)
            read[0] += it is not None
            return it
        try:
            for _ in itertools.islice(_cycled(open_counted, cycle, block, slots, where), k):
                pass
        except _UnknownLength:
            return None
        resumed = [None if s is None else s.child._start_at(s.taken, epochs) for s in slots]
        rest = parent._start_at(read[0], epochs)
        if rest is None or any(r is None and s is not None for r, s in zip(resumed, slots)):
            return None
        more = open_children(enumerate(rest), read[0])
        return _cycled(lambda: more(_elements), cycle, block, resumed, where)

    out = Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=learnt_tmpl(store, produce, "interleave"),
                  parents=(self,), seek=seek)
    out._options = self._options
    out._static = lambda: child_shapes[0] if child_shapes else None
    return out


def _schedulable_cores():
    """TensorFlow's port::MaxParallelism: the cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _cycle_length(cycle_length, num_parallel_calls):
    """(cycle length, None or the error iterating must raise), by TF's rules: an AUTOTUNE (or
    None) cycle length is the schedulable cores when sequential, min(num_parallel_calls, cores)
    for a fixed parallelism, and cores / 3 rounded up (a thread for the current element and two
    prefetching ones per cycle slot) under AUTOTUNE parallelism; a fixed parallelism must not
    exceed the cycle length."""
    parallel = None if num_parallel_calls is None else int(num_parallel_calls)
    fixed = cycle_length not in (None, AUTOTUNE)
    if fixed:
        cycle = positive(cycle_length, "interleave")
    elif parallel is None:
        cycle = _schedulable_cores()
    elif parallel == AUTOTUNE:
        cycle = -(-_schedulable_cores() // 3)
    else:
        cycle = min(parallel, _schedulable_cores())
    if parallel is None or parallel == AUTOTUNE or parallel <= cycle:
        return cycle, None
    error = InvalidArgumentError(with_location(
        f"Dataset.interleave: If `cycle_length` is set to a fixed value, `num_parallel_calls` must be either "
        f"`tf.data.AUTOTUNE` or a value less than or equal to `cycle_length`. However, `num_parallel_calls` "
        f"is {parallel} and `cycle_length` is {cycle}"))
    if fixed:  # TF's kernel refuses the dataset as it is made; an AUTOTUNE cycle when iterated
        raise error
    return cycle, error


def _static_shapes(child):
    """The shapes of a child's element_spec (a batch of unknown size stays None there, as
    TF's traced spec has it), None for a child whose spec cannot be read."""
    import tapeflow
    from tapeflow.data import structure as S
    try:
        leaves = S.flatten(child.element_spec)
    except Exception:  # noqa: BLE001 - e.g. an empty mapped child: the elements' shapes are used
        return None
    return [v.shape if isinstance(v, tapeflow.TensorSpec) else None for v in leaves]


def flat_map(self, map_func, name=None):
    """The elements of map_func(element) for every element, one dataset after the other."""
    return interleave(self, map_func, cycle_length=1, block_length=1)
