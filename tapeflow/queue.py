"""tf.queue: FIFOQueue, PaddingFIFOQueue, PriorityQueue, RandomShuffleQueue (eager, thread-safe).

A queue holds tuples of NumPy arrays, one per component, checked against its dtypes and
shapes on enqueue.  Where TensorFlow blocks forever (a dequeue from an empty open queue, an
enqueue into a full one), tapeflow waits for another thread at most BLOCKING_TIMEOUT_S seconds
and then raises DeadlineExceededError, so a program never hangs (README lists the difference).
A closed queue: enqueue is CancelledError; a dequeue of more than remain is OutOfRangeError."""
import threading

import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import (CancelledError, DeadlineExceededError, InvalidArgumentError,
                                     OutOfRangeError, with_location)
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import Tensor, TensorBase, convert_to_tensor

BLOCKING_TIMEOUT_S = 10.0  # tapeflow's bound on a wait TensorFlow makes without end


class QueueBase:
    _kind = "QueueBase"

    def __init__(self, capacity, dtypes_, shapes=None, names=None, name=None):
        single = not isinstance(dtypes_, (list, tuple))
        self._dtypes = [dtypes.as_dtype(d) for d in ([dtypes_] if single else dtypes_)]
        if shapes is None:
            self._shapes = [TensorShape(None)] * len(self._dtypes)
        else:
            listed = isinstance(shapes, (list, tuple)) and len(shapes) > 0 and \
                all(isinstance(s, (list, tuple, TensorShape)) for s in shapes)
            shapes = shapes if listed else [shapes]  # a list of shapes, or one shape
            self._shapes = [TensorShape(s) for s in shapes]
        if len(self._shapes) != len(self._dtypes):
            raise ValueError(with_location(f"{self._kind}: {len(self._dtypes)} dtypes but {len(self._shapes)} shapes"))
        if names is not None and len(names) != len(self._dtypes):
            raise ValueError(with_location(f"{self._kind}: {len(self._dtypes)} dtypes but {len(names)} names"))
        self._names = list(names) if names is not None else None
        self._capacity = int(capacity)
        self._items = []
        self._closed = False
        self._cond = threading.Condition()
        self.name = name or self._kind

    dtypes = property(lambda self: list(self._dtypes))
    shapes = property(lambda self: list(self._shapes))
    names = property(lambda self: self._names)

    # ---------------------------------------------------------------- components
    def _components(self, vals, many):
        if self._names is not None:
            if not isinstance(vals, dict) or set(vals) != set(self._names):
                raise ValueError(with_location(f"{self._kind}.enqueue: expected a dict with keys {self._names}"))
            vals = [vals[n] for n in self._names]
        elif not isinstance(vals, (list, tuple)):
            vals = [vals]
        out = []
        for i, (v, dtype, shape) in enumerate(zip(vals, self._dtypes, self._shapes)):
            if isinstance(v, TensorBase) and v.dtype is not dtype:
                raise ValueError(with_location(f"component_{i}: Tensor conversion requested dtype {dtype.name} "
                                               f"for Tensor with dtype {v.dtype.name}"))
            t = convert_to_tensor(v, dtype=dtype)
            got = t.shape[1:] if many else t.shape
            if not got.is_compatible_with(shape):
                raise ValueError(with_location(f"Shapes {shape} and {got} are incompatible"))
            out.append(np.asarray(t.numpy(), object if dtype is dtypes.string else None))
        if many and len({len(a) for a in out}) > 1:
            raise ValueError(with_location(f"{self._kind}.enqueue_many: components of different lengths"))
        return out

    def _wait(self, ready, what):
        if not self._cond.wait_for(ready, BLOCKING_TIMEOUT_S):
            raise DeadlineExceededError(with_location(
                f"{self._kind} '{self.name}': {what} waited {BLOCKING_TIMEOUT_S} s (TensorFlow blocks until "
                f"another thread acts; tapeflow.queue.BLOCKING_TIMEOUT_S sets the bound)"))

    def _put(self, rows):
        with self._cond:
            for row in rows:
                if self._closed:
                    raise CancelledError(with_location(f"{self._kind} '{self.name}' is closed."))
                self._wait(lambda: self._closed or len(self._items) < self._capacity, "enqueue into a full queue")
                if self._closed:
                    raise CancelledError(with_location(f"{self._kind} '{self.name}' is closed."))
                self._insert(row)
                self._cond.notify_all()

    def _insert(self, row):
        self._items.append(row)

    def _take(self):
        return self._items.pop(0)

    def _can_take(self, n):
        return len(self._items) >= n

    def enqueue(self, vals, name=None):
        self._put([self._components(vals, False)])

    def enqueue_many(self, vals, name=None):
        comps = self._components(vals, True)
        self._put([[c[k] for c in comps] for k in range(len(comps[0]))] if comps else [])

    def _get(self, n, up_to=False):
        with self._cond:
            if not up_to or not self._closed:
                self._wait(lambda: self._closed or self._can_take(n), "dequeue from an empty queue")
            if not self._can_take(n if not up_to else 1) or (not up_to and not self._can_take(n)):
                raise OutOfRangeError(with_location(
                    f"{self._kind} '{self.name}' is closed and has insufficient elements (requested {n}, "
                    f"current size {len(self._items)})"))
            rows = [self._take() for _ in range(min(n, len(self._items)))]
            self._cond.notify_all()
        return rows

    def _pack(self, comps):
        tensors = [Tensor(np.asarray(c)) if d is not dtypes.string else convert_to_tensor(c, dtypes.string)
                   for c, d in zip(comps, self._dtypes)]
        if self._names is not None:
            return dict(zip(self._names, tensors))
        return tensors[0] if len(tensors) == 1 else tensors

    def _stack(self, rows):
        return [np.stack([r[i] for r in rows]) for i in range(len(self._dtypes))]

    def dequeue(self, name=None):
        return self._pack(self._get(1)[0])

    def dequeue_many(self, n, name=None):
        return self._pack(self._stack(self._get(int(n))))

    def dequeue_up_to(self, n, name=None):
        return self._pack(self._stack(self._get(int(n), up_to=True)))

    def close(self, cancel_pending_enqueues=False, name=None):
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def is_closed(self, name=None):
        return convert_to_tensor(self._closed)

    def size(self, name=None):
        return convert_to_tensor(np.int32(len(self._items)))


class FIFOQueue(QueueBase):
    _kind = "FIFOQueue"

    def __init__(self, capacity, dtypes, shapes=None, names=None, shared_name=None, name="fifo_queue"):
        super().__init__(capacity, dtypes, shapes, names, name)


class PaddingFIFOQueue(QueueBase):
    """dequeue_many pads each component to the longest element along its unknown dimensions (zeros, b"")."""

    _kind = "PaddingFIFOQueue"

    def __init__(self, capacity, dtypes, shapes, names=None, shared_name=None, name="padding_fifo_queue"):
        super().__init__(capacity, dtypes, shapes, names, name)
        if any(s.rank is None for s in self._shapes):
            raise ValueError(with_location("PaddingFIFOQueue: every component needs a shape of known rank"))

    def _stack(self, rows):
        out = []
        for i, dtype in enumerate(self._dtypes):
            parts = [r[i] for r in rows]
            widest = [max(p.shape[d] for p in parts) for d in range(parts[0].ndim)] if parts else []
            arr = np.full([len(parts)] + widest, b"" if dtype is dtypes.string else 0,
                          object if dtype is dtypes.string else parts[0].dtype if parts else None)
            for k, p in enumerate(parts):
                arr[(k,) + tuple(slice(0, n) for n in p.shape)] = p
            out.append(arr)
        return out


class PriorityQueue(QueueBase):
    """Elements are (int64 priority, *components); the lowest priority leaves first."""

    _kind = "PriorityQueue"

    def __init__(self, capacity, types, shapes=None, names=None, shared_name=None, name="priority_queue"):
        types = list(types) if isinstance(types, (list, tuple)) else [types]
        shapes = None if shapes is None else [[]] + [list(s) for s in shapes]
        super().__init__(capacity, [dtypes.int64] + types, shapes, None if names is None else ["priority"] + list(names),
                         name)

    def _insert(self, row):
        at = next((k for k, r in enumerate(self._items) if int(r[0]) > int(row[0])), len(self._items))
        self._items.insert(at, row)


class RandomShuffleQueue(QueueBase):
    """Dequeues a random element, once more than min_after_dequeue remain (or the queue is closed).
    Its draws are NumPy's under `seed`, not TensorFlow's."""

    _kind = "RandomShuffleQueue"

    def __init__(self, capacity, min_after_dequeue, dtypes, shapes=None, names=None, seed=None, shared_name=None,
                 name="random_shuffle_queue"):
        super().__init__(capacity, dtypes, shapes, names, name)
        self._min_after = int(min_after_dequeue)
        self._rng = np.random.default_rng(seed)

    def _can_take(self, n):
        return len(self._items) >= n + (0 if self._closed else self._min_after)

    def _take(self):
        return self._items.pop(int(self._rng.integers(len(self._items))))
