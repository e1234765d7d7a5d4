"""Eager dispatch overhead: the per-op cost of `x * 1.0001 + 0.5`, as a ratio to
raw NumPy (and to torch eager when importable), measured in one run.

Targets: <= 3x raw NumPy on a tiny tensor (shape (8,)), within 1.1x on 2**20
elements.  Each measurement interleaves the contenders and keeps the best of
several repeats, so a busy machine slows all of them alike.

Run: python benchmarks/eager_overhead.py [--quick]
"""
import sys
import timeit

import numpy as np

import tapeflow as tf


def _contenders(n):
    a = np.random.default_rng(0).random(n).astype(np.float32)
    x = tf.constant(a)
    out = {"numpy": lambda: a * 1.0001 + 0.5, "tapeflow": lambda: x * 1.0001 + 0.5}
    try:
        import torch
        t = torch.from_numpy(a.copy())
        out["torch"] = lambda: t * 1.0001 + 0.5
    except ImportError:
        pass
    return out


def measure(n, number, repeat):
    """Best seconds per call of each contender, interleaved round by round."""
    fns = _contenders(n)
    best = {k: float("inf") for k in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            best[name] = min(best[name], timeit.timeit(fn, number=number) / number)
    return best


def main(quick=False):
    rows = []
    scale = 0.2 if quick else 1.0
    for label, n, number, repeat, target in (("tiny (8,)", 8, int(20000 * scale), 9, 3.0),
                                            ("large 2**20", 2 ** 20, max(int(40 * scale), 5), 9, 1.1)):
        best = measure(n, number, repeat)
        ratio = best["tapeflow"] / best["numpy"]
        extra = f", torch {best['torch'] * 1e6:.2f} us ({best['tapeflow'] / best['torch']:.2f}x)" \
            if "torch" in best else ""
        rows.append((label, ratio, target))
        print(f"{label:12s} numpy {best['numpy'] * 1e6:9.2f} us  tapeflow {best['tapeflow'] * 1e6:9.2f} us  "
              f"ratio {ratio:5.2f}x (target <= {target}x){extra}")
    return rows


if __name__ == "__main__":
    main(quick="--quick" in sys.argv)
