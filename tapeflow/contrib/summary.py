"""tf.contrib.summary (TF 1.5-1.15 eager): the tf.summary writers, with TF1's recording rules.
Trap: contrib summaries record nothing unless inside always_record_summaries() or
record_summaries_every_n_global_steps(n), and their default step is the global step."""
import contextlib

from tapeflow import summary as _summary
from tapeflow.summary.writer import create_file_writer, create_noop_writer, flush  # noqa: F401
from tapeflow.train.optimizers import get_or_create_global_step

__all__ = ["create_file_writer", "create_noop_writer", "flush", "always_record_summaries",
           "never_record_summaries", "record_summaries_every_n_global_steps", "scalar", "histogram",
           "should_record_summaries"]

_modes = []  # the enclosing recording rules, innermost last: each a callable giving a bool


@contextlib.contextmanager
def _recording(rule):
    _modes.append(rule)
    try:
        with _summary.record_if(rule):
            yield
    finally:
        _modes.pop()


def always_record_summaries():
    return _recording(lambda: True)


def never_record_summaries():
    return _recording(lambda: False)


def record_summaries_every_n_global_steps(n, global_step=None):
    """Record only when the global step is a multiple of n (read at each summary call)."""
    n = int(n)
    if n <= 0:
        raise ValueError(f"record_summaries_every_n_global_steps: n must be positive, got {n}")

    def rule():
        step = global_step if global_step is not None else get_or_create_global_step()
        return int(step.numpy()) % n == 0
    return _recording(rule)


def should_record_summaries():
    return bool(_modes) and _summary.should_record_summaries()


def _step(step):
    return step if step is not None else get_or_create_global_step()


def scalar(name, tensor, family=None, step=None):
    if not should_record_summaries():
        return False
    return _summary.scalar(name if family is None else f"{family}/{name}", tensor, step=_step(step))


def histogram(name, tensor, family=None, step=None):
    if not should_record_summaries():
        return False
    return _summary.histogram(name if family is None else f"{family}/{name}", tensor, step=_step(step))
