"""Prefetching: produce a pipeline's elements on a background thread."""
import queue
import threading

_DONE = object()


def background(source, size):
    """Iterate source() on a daemon thread, at most `size` elements ahead; errors are
    re-raised in the consumer, and closing the consumer stops the thread."""
    q = queue.Queue(maxsize=size)
    stop = threading.Event()

    def worker():
        try:
            for flat in source():
                while not stop.is_set():
                    try:
                        q.put(("item", flat), timeout=0.1)
                        break
                    except queue.Full:
                        continue
                if stop.is_set():
                    return
            q.put(("done", _DONE))
        except BaseException as exc:  # handed to the consumer, raised there
            q.put(("error", exc))

    thread = threading.Thread(target=worker, daemon=True, name="tapeflow-prefetch")
    thread.start()
    try:
        while True:
            kind, value = q.get()
            if kind == "item":
                yield value
            elif kind == "done":
                return
            else:
                raise value
    finally:
        stop.set()
