"""Dataset.window: overlapping windows of elements, each a structure of Datasets."""
import collections

import numpy as np

from tapeflow.data.elements import positive


def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
    """Windows of `size` elements `stride` apart, a new one every `shift` elements
    (default: size).  Each element is a structure of Datasets.  Without
    drop_remainder the last windows may be shorter (but never empty)."""
    size = positive(size, "window")
    shift = size if shift is None else positive(shift, "window")
    stride = positive(stride, "window")
    span = (size - 1) * stride + 1
    source = self._produce

    def produce():
        it = iter(source())
        buf, base, exhausted = collections.deque(), 0, False  # buf[0] is element number `base`
        start = 0
        while True:
            while not exhausted and base + len(buf) < start + span:
                flat = next(it, None)
                if flat is None:
                    exhausted = True
                else:
                    buf.append(flat)
            while buf and base < start:  # elements before this window are no longer needed
                buf.popleft()
                base += 1
            if exhausted and base < start:  # the input ended before this window's start
                return
            picks = [buf[k - base] for k in range(start, start + span, stride) if k - base < len(buf)]
            if not picks or (drop_remainder and len(picks) < size):
                return
            yield [np.stack(parts) for parts in zip(*picks)]
            start += shift

    card = self._card
    if card >= 0:
        card = (max(0, (card - span) // shift + 1) if card >= span else 0) if drop_remainder \
            else -(-card // shift)
    shapes = None if self._shapes is None else [((None,) + tuple(s), d) for s, d in self._shapes]
    out = self._derive(produce, card, shapes)
    out._nested = True
    return out
