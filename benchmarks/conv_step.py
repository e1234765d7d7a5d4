"""Convolution training steps, tapeflow next to TensorFlow, as ratios from one run.

  cnn     Conv2D 3x3/2 1->64, LeakyReLU, Conv2D 3x3/2 64->128, LeakyReLU, global
          max pool, Dense 128->10, softmax cross-entropy; batch 64, 28x28x1; Adam
  resnet  a residual block: conv 3x3 64->64, batch norm, ReLU, conv 3x3, batch norm,
          + input, ReLU; batch 32, 32x32x64; loss mean(y ** 2); Adam
  depthwise, pool, transpose   one op's forward + backward (input and filter
          gradients, an SGD update): DepthwiseConv2D 3x3, max + average pooling,
          Conv2DTranspose 3x3/2 (shapes in each function's docstring)

Each step is one program written against a `tf` module argument, so tapeflow and
TensorFlow run the same source on the same weights (NumPy, seeded).  Variants:
tapeflow eager, tapeflow `function`, TensorFlow eager, `tf.function`.  TensorFlow
runs in a subprocess (`--worker tf`, with /work/tfenv/bin/python or $TF_PYTHON)
when it is found; tapeflow in another (`--worker tapeflow`).  The two workers
take turns (`--rounds`, default 1), each timing every variant of every workload
round-robin for `--budget` seconds, and the best median of each variant is kept, so
a machine that gets busier or quieter weighs on both sides alike.  `--baseline PY`
adds the columns of another tapeflow (a checkout installed in PY's environment,
labelled "before"); `--threads N` sets every library's thread pools to N.  Before timing,
every variant's first 3 steps (losses and updated weights) are checked against
tapeflow eager's.  Each step's CPU time (user + system, all threads:
`time.process_time`) is shown next to its wall time: on a machine with more
runnable processes than cores the wall time mostly measures the scheduler's
share, the CPU time the work done (page faults of fresh large arrays included).

Run: .venv/bin/python benchmarks/conv_step.py [--budget 2] [--rounds 1] [--only cnn] [--quick]
                                             [--threads 1] [--baseline /path/to/python]
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TF_PYTHONS = [os.environ.get("TF_PYTHON", ""), "/work/tfenv/bin/python"]


def _adam(tf, params):
    """Adam (lr 1e-3, TF's defaults) as plain ops, the same in both libraries."""
    slots = [(tf.Variable(tf.zeros_like(p)), tf.Variable(tf.zeros_like(p))) for p in params]
    t = tf.Variable(0.0)

    def apply(grads):
        t.assign_add(1.0)
        lr = 1e-3 * tf.sqrt(1.0 - 0.999 ** t) / (1.0 - 0.9 ** t)
        for p, g, (m, v) in zip(params, grads, slots):
            m.assign(0.9 * m + 0.1 * g)
            v.assign(0.999 * v + 0.001 * g * g)
            p.assign_sub(lr * m / (tf.sqrt(v) + 1e-7))
    return apply


def _init(shapes, seed):
    rng = np.random.default_rng(seed)
    out = []
    for s in shapes:
        fan_in = int(np.prod(s[:-1])) if len(s) > 1 else 1
        out.append((rng.standard_normal(s) / np.sqrt(fan_in)).astype(np.float32) if len(s) > 1
                   else np.zeros(s, np.float32))
    return out


def cnn(tf):
    rng = np.random.default_rng(0)
    x = tf.constant(rng.standard_normal((64, 28, 28, 1)).astype(np.float32))
    y = tf.constant(rng.integers(0, 10, 64).astype(np.int32))
    params = [tf.Variable(a) for a in _init([(3, 3, 1, 64), (64,), (3, 3, 64, 128), (128,), (128, 10), (10,)], 1)]
    adam = _adam(tf, params)

    def step(x, y):
        k1, b1, k2, b2, w, b = params
        with tf.GradientTape() as tape:
            h = tf.nn.leaky_relu(tf.nn.conv2d(x, k1, 2, "SAME") + b1, 0.2)
            h = tf.nn.leaky_relu(tf.nn.conv2d(h, k2, 2, "SAME") + b2, 0.2)
            logits = tf.matmul(tf.reduce_max(h, axis=[1, 2]), w) + b
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(y, logits))
        adam(tape.gradient(loss, params))
        return loss
    return step, (x, y), params


def resnet(tf):
    rng = np.random.default_rng(2)
    x = tf.constant(rng.standard_normal((32, 32, 32, 64)).astype(np.float32))
    params = [tf.Variable(a) for a in _init([(3, 3, 64, 64), (64,), (64,), (3, 3, 64, 64), (64,), (64,)], 3)]
    for i in (1, 4):
        params[i].assign(tf.ones([64]))
    adam = _adam(tf, params)

    def bn(h, gamma, beta):
        mean, var = tf.nn.moments(h, axes=[0, 1, 2])
        return tf.nn.batch_normalization(h, mean, var, beta, gamma, 1e-3)

    def step(x):
        k1, g1, b1, k2, g2, b2 = params
        with tf.GradientTape() as tape:
            h = tf.nn.relu(bn(tf.nn.conv2d(x, k1, 1, "SAME"), g1, b1))
            out = tf.nn.relu(bn(tf.nn.conv2d(h, k2, 1, "SAME"), g2, b2) + x)
            loss = tf.reduce_mean(out * out)
        adam(tape.gradient(loss, params))
        return loss
    return step, (x,), params


def _grad_step(tf, fn, x, params):
    """loss = sum(fn(x) ** 2); the step returns it after updating the weights by SGD."""
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(fn(x) ** 2)
        grads = tape.gradient(loss, [x] + params)
        for p, g in zip(params, grads[1:]):
            p.assign_sub(1e-6 * g)
        return loss + 0.0 * tf.reduce_sum(grads[0])
    return step, (x,), params


def depthwise(tf):
    """DepthwiseConv2D 3x3 (multiplier 1) on 32x32x32x64, SAME, forward + backward."""
    rng = np.random.default_rng(4)
    x = tf.constant(rng.standard_normal((32, 32, 32, 64)).astype(np.float32))
    k = tf.Variable((rng.standard_normal((3, 3, 64, 1)) / 3).astype(np.float32))
    return _grad_step(tf, lambda x: tf.nn.depthwise_conv2d(x, k, [1, 1, 1, 1], "SAME"), x, [k])


def pool(tf):
    """max pool 3x3/2 SAME then average pool 2x2/2 on 32x32x32x64, forward + backward."""
    rng = np.random.default_rng(5)
    x = tf.constant(rng.standard_normal((32, 32, 32, 64)).astype(np.float32))
    return _grad_step(tf, lambda x: tf.nn.avg_pool2d(tf.nn.max_pool2d(x, 3, 2, "SAME"), 2, 2, "VALID"), x, [])


def transpose(tf):
    """Conv2DTranspose 3x3/2 SAME, 16x16x64 -> 32x32x32, batch 32, forward + backward."""
    rng = np.random.default_rng(6)
    x = tf.constant(rng.standard_normal((32, 16, 16, 64)).astype(np.float32))
    k = tf.Variable((rng.standard_normal((3, 3, 32, 64)) / 24).astype(np.float32))
    return _grad_step(tf, lambda x: tf.nn.conv2d_transpose(x, k, [32, 32, 32, 32], 2, "SAME"), x, [k])


WORKLOADS = {"cnn": cnn, "resnet": resnet, "depthwise": depthwise, "pool": pool, "transpose": transpose}


def _variants(tf, name):
    """{variant: (step, args, params)}; each variant builds its own variables."""
    out = {}
    for mode in ("eager", "function"):
        step, args, params = WORKLOADS[name](tf)
        out[mode] = (tf.function(step) if mode == "function" else step, args, params)
    return out


def _check_values(tf, name, variants):
    """Losses and weights of the first 3 steps of every variant."""
    rec = {}
    for mode, (step, args, params) in variants.items():
        losses = [float(step(*args)) for _ in range(3)]
        rec[mode] = {"losses": losses, "params": [np.asarray(p.numpy()).tolist() for p in params]}
    return rec


def worker(lib, names, budget):
    if lib == "tf":
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
        import tensorflow as tf
    else:
        import tapeflow as tf
    result = {}
    for name in names:
        variants = _variants(tf, name)
        values = _check_values(tf, name, variants)
        samples = {mode: [] for mode in variants}
        cpu = {mode: [] for mode in variants}
        end = time.perf_counter() + budget
        while time.perf_counter() < end or min(len(s) for s in samples.values()) < 5:
            for mode, (step, args, _) in variants.items():
                c0, t0 = time.process_time(), time.perf_counter()
                float(step(*args))
                samples[mode].append(time.perf_counter() - t0)
                cpu[mode].append(time.process_time() - c0)
        result[name] = {mode: {"median": float(np.median(s)), "min": float(np.min(s)), "n": len(s),
                               "cpu": float(np.median(cpu[mode])), "values": values[mode]}
                        for mode, s in samples.items()}
    print("RESULT " + json.dumps(result))


def _run_worker(python, lib, names, budget, threads):
    env = dict(os.environ)
    if threads:
        for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "TAPEFLOW_NUM_THREADS",
                    "TF_NUM_INTRAOP_THREADS"):
            env[var] = str(threads)
        env["TF_NUM_INTEROP_THREADS"] = "1"
    proc = subprocess.run([python, os.path.abspath(__file__), "--worker", lib, "--only", ",".join(names),
                           "--budget", str(budget)], capture_output=True, text=True, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[7:])
    raise RuntimeError(f"{lib} worker failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")


def _agree(ref, other):
    """Largest relative difference of losses and weights after 3 steps."""
    worst = 0.0
    for a, b in zip(ref["losses"] + [np.asarray(p) for p in ref["params"]],
                    other["losses"] + [np.asarray(p) for p in other["params"]]):
        a, b = np.asarray(a), np.asarray(b)
        worst = max(worst, float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(a))))))
    return worst


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--worker", choices=["tf", "tapeflow"])
    ap.add_argument("--only", default=",".join(WORKLOADS))
    ap.add_argument("--budget", type=float, default=2.0)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="the CNN and ResNet rows, minimal samples")
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--baseline", default="", help="a python whose tapeflow gives the 'before' columns")
    args = ap.parse_args()
    if args.quick:
        args.only, args.budget = "cnn,resnet", 0.0
    names = [n for n in args.only.split(",") if n]
    if args.worker:
        return worker(args.worker, names, args.budget)
    tf_python = next((p for p in TF_PYTHONS if p and os.path.exists(p)), None)
    best = {}
    for _ in range(args.rounds):
        runs = ([("tapeflow", "tapeflow", sys.executable)] + ([("tf", "tf", tf_python)] if tf_python else [])
                + ([("before", "tapeflow", args.baseline)] if args.baseline else []))
        for label, lib, python in runs:
            res = _run_worker(python, lib, names, args.budget, args.threads)
            for name, modes in res.items():
                for mode, rec in modes.items():
                    key = (name, f"{label} {mode}")
                    if key not in best or rec["median"] < best[key]["median"]:
                        best[key] = rec
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min); threads: {args.threads or 'default'}")
    for name in names:
        ref = best[(name, "tapeflow eager")]
        tf_ref = best.get((name, "tf function"))
        print(f"\n{name}: wall ms per step (median; min), ratio to tf.function; CPU ms per step (median), ratio")
        for key in sorted(k for k in best if k[0] == name):
            rec = best[key]
            ratio = f"x{rec['median'] / tf_ref['median']:.2f}" if tf_ref else ""
            cpu_ratio = f"x{rec['cpu'] / tf_ref['cpu']:.2f}" if tf_ref else ""
            print(f"  {key[1]:18s} {rec['median'] * 1e3:8.2f} ms ({rec['min'] * 1e3:7.2f}) {ratio:>7s}  "
                  f"cpu {rec['cpu'] * 1e3:8.2f} ms {cpu_ratio:>7s}  n={rec['n']:<3d} "
                  f"max rel diff vs tapeflow eager {_agree(ref['values'], rec['values']):.1e}")


if __name__ == "__main__":
    main()
