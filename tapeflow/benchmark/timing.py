"""Adaptive, time-bounded timing of several callables measured side by side.

Each callable is first calibrated: a sample runs it `loops` times so that one
sample lasts about `sample_s` (a 2 us call is timed 1000 calls at a time, a
50 ms call one at a time).  Samples are then taken round-robin, one per
callable per round, so a machine that gets busier or quieter slows all
contenders alike: the ratios of medians stay meaningful even when the absolute
figures drift.  A callable stops sampling once the 95% confidence interval of
its median (from order statistics, no normality assumed) is narrower than
`precision` of the median (half-width), or when the time budget is spent and
it has `min_samples`.  A hard floor of 3 samples holds even past the budget, so
a slow function still gets a median rather than a single reading.

The garbage collector is paused inside a sample (as `timeit` does) and runs
between samples, so its pauses land on no contender.
"""
import gc
import math
import time
from dataclasses import asdict, dataclass

_CLOCK = time.perf_counter


@dataclass
class Timing:
    """Seconds per call: median, quartiles and minimum of the samples."""

    median: float
    q1: float
    q3: float
    minimum: float
    samples: int
    loops: int  # calls per sample

    @property
    def spread(self):
        """Half the interquartile range, relative to the median (0.02 = +-2%)."""
        return (self.q3 - self.q1) / 2 / self.median if self.median > 0 else 0.0

    def as_dict(self):
        d = asdict(self)
        d["spread"] = self.spread
        return d


def _quantile(sorted_values, q):
    """Linear-interpolated quantile of an already sorted list."""
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def summarize(per_call, loops):
    """A Timing from per-call seconds of each sample."""
    s = sorted(per_call)
    return Timing(median=_quantile(s, 0.5), q1=_quantile(s, 0.25), q3=_quantile(s, 0.75),
                  minimum=s[0], samples=len(s), loops=loops)


def median_ci_width(per_call):
    """Width of the ~95% confidence interval of the median, relative to it.

    Order-statistic interval: the ranks n/2 -+ 1.96 sqrt(n)/2 bracket the true
    median with ~95% probability whatever the distribution."""
    n = len(per_call)
    if n < 6:
        return math.inf
    s = sorted(per_call)
    half = 1.96 * math.sqrt(n) / 2
    lo = max(0, int(math.floor(n / 2 - half)))
    hi = min(n - 1, int(math.ceil(n / 2 + half)))
    med = _quantile(s, 0.5)
    return (s[hi] - s[lo]) / med if med > 0 else 0.0


def _run(fn, loops, sync):
    gc_was = gc.isenabled()
    gc.disable()
    try:
        t0 = _CLOCK()
        for _ in range(loops):
            fn()
        if sync is not None:
            sync()
        return (_CLOCK() - t0) / loops
    finally:
        if gc_was:
            gc.enable()


def calibrate(fn, sample_s, sync=None):
    """Calls per sample so that one sample lasts about `sample_s` seconds."""
    loops = 1
    while True:
        t = _run(fn, loops, sync) * loops
        if t >= sample_s or loops >= 1 << 20:
            return loops
        # grow towards the target, at most 10x per step (the first call may be slow)
        loops = min(loops * 10, max(loops + 1, int(loops * sample_s / max(t, 1e-9))))


def measure(fns, budget_s=2.0, sample_s=2e-3, min_samples=5, max_samples=400, precision=0.01,
            sync=None):
    """{name: Timing} for the callables in `fns` ({name: zero-argument callable}).

    Call each once beforehand (warm-up is the caller's: the first call of a
    tf.function traces and compiles).  `sync`, if given, runs at the end of each
    sample (e.g. waiting for a GPU)."""
    loops = {name: calibrate(fn, sample_s, sync) for name, fn in fns.items()}
    samples = {name: [] for name in fns}
    active = list(fns)
    start = _CLOCK()
    while active:
        out_of_time = _CLOCK() - start > budget_s
        for name in list(active):
            s = samples[name]
            if len(s) >= max_samples or (len(s) >= min_samples and (
                    out_of_time or median_ci_width(s) <= 2 * precision)):
                active.remove(name)
                continue
            if out_of_time and len(s) >= 3:  # past the budget only the floor of 3 holds
                active.remove(name)
                continue
            s.append(_run(fns[name], loops[name], sync))
    return {name: summarize(samples[name], loops[name]) for name in fns}


__all__ = ["Timing", "measure", "calibrate", "summarize", "median_ci_width"]
