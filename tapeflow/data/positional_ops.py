"""The transformations by element position: repeat, take, skip, enumerate and
concatenate.  Each also knows how to start a pass at element k directly (its
`seek`, for a restored iterator) from its input's seek."""
import itertools

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import INFINITE, PASSES_BEFORE, UNKNOWN
from tapeflow.runtime.errors import with_location


def repeat(self, count=None, name=None):
    parent, source = self, self._produce
    count = -1 if count is None else int(count)

    def passes(first, k):
        """The elements of `first` (pass k, perhaps begun part way), then of the passes after."""
        while count < 0 or k < count:
            any_element = False
            for flat in first:
                any_element = True
                yield flat
            k += 1
            if not any_element:
                return  # repeating an empty dataset forever would hang
            first = source()

    def produce():
        return passes(source(), 0)

    def seek(k, epochs):
        n = parent._card
        if n == INFINITE:
            return parent._start_at(k, epochs)
        if n < 0:
            return None
        if n == 0:
            return iter(())
        done, within = divmod(k, n)
        if 0 <= count <= done:
            return iter(())
        # pass `done` of the input: its shuffles give the order of their pass e + done
        shifted = {key: e + done for key, e in (epochs or {}).items()}
        shifted[PASSES_BEFORE] = (epochs or {}).get(PASSES_BEFORE, 0) + done  # a reshuffle's seed depends on it
        first = parent._start_at(within, shifted)
        return None if first is None else passes(first, done)

    card = self._card
    if count < 0:
        card = 0 if card == 0 else (INFINITE if card != UNKNOWN else UNKNOWN)
    elif card >= 0:
        card = card * count
    return self._derive(produce, card, seek=seek)


def take(self, count, name=None):
    count = int(count)
    parent, source = self, self._produce

    def produce():
        if count == 0:
            return
        for i, flat in enumerate(source()):
            yield flat
            if count > 0 and i + 1 >= count:
                return

    def seek(k, epochs):
        if 0 <= count <= k:
            return iter(())
        rest = parent._start_at(k, epochs)
        return rest if rest is None or count < 0 else itertools.islice(rest, count - k)

    card = self._card
    if count >= 0:
        card = count if card in (INFINITE,) else (min(card, count) if card >= 0 else UNKNOWN)
    return self._derive(produce, card, seek=seek)


def skip(self, count, name=None):
    count = int(count)
    parent, source = self, self._produce

    def seek(k, epochs):
        return iter(()) if count < 0 else parent._start_at(k + count, epochs)

    def produce():
        for i, flat in enumerate(source()):
            if count < 0 or i < count:
                continue
            yield flat

    card = self._card
    if count < 0:
        card = 0
    elif card >= 0:
        card = max(0, card - count)
    return self._derive(produce, card, seek=seek)


def enumerate_(self, start=0, name=None):
    parent, source = self, self._produce

    def numbered(inputs, first):
        for i, flat in enumerate(inputs, first):
            yield [np.asarray(i, np.int64)] + flat

    def produce():
        return numbered(source(), int(start))

    def seek(k, epochs):
        rest = parent._start_at(k, epochs)
        return None if rest is None else numbered(rest, int(start) + k)

    shapes = None if self._shapes is None else [((), np.dtype(np.int64))] + list(self._shapes)
    return Dataset(produce, cardinality=self._card, shapes=shapes, tmpl_fn=lambda: (S.LEAF, self._tmpl),
                   parents=(self,), seek=seek)


def _joined_shapes(first, second):
    """The element shapes of first then second, where both are known statically: the dtypes
    must agree (TensorFlow's TypeError, at once), a dim that differs becomes None."""
    if first._shapes is None or second._shapes is None:
        return None
    a, b = first._shapes, second._shapes
    if len(a) != len(b) or any(da != db for (_, da), (_, db) in zip(a, b)):
        raise TypeError(with_location(
            f"Dataset.concatenate: incompatible dataset elements: dtypes {[str(d) for _, d in a]} "
            f"and {[str(d) for _, d in b]}"))
    out = []
    for (sa, dtype), (sb, _) in zip(a, b):
        if sa is None or sb is None or len(sa) != len(sb):
            return None
        out.append((tuple(x if x == y else None for x, y in zip(sa, sb)), dtype))
    return out


def concatenate(self, dataset, name=None):
    first, second = self, dataset
    shapes = _joined_shapes(first, second)

    def produce():
        yield from first._produce()
        check = True
        for flat in second._produce():
            if check and not S.same_structure(second._tmpl, first._tmpl):
                raise TypeError(with_location(
                    f"Dataset.concatenate: the element structures differ: {first._tmpl!r} "
                    f"and {second._tmpl!r}"))
            check = False
            yield flat

    a, b = self._card, dataset._card
    card = INFINITE if INFINITE in (a, b) else (a + b if a >= 0 and b >= 0 else UNKNOWN)
    def seek(k, epochs):
        n = first._card
        if n < 0:
            return None
        if k >= n:
            return second._start_at(k - n, epochs)
        head = first._start_at(k, epochs)
        return None if head is None else itertools.chain(head, second._produce())

    out = self._derive(produce, card, shapes=shapes, seek=seek)
    out._parents = (self, dataset)
    return out
