"""Reading throughput of TFRecord Examples (read + batch + parse_example) and of CSV
(TextLineDataset + batch + decode_csv), tapeflow against real TensorFlow's tf.data on the
same files, each in its own process (MB/s of file, examples/s, peak RSS).

    python benchmarks/records_throughput.py [--mb 200] [--dir /tmp/records_bench]
                                            [--tf-python /work/tfenv/bin/python] [--batch 256]

The files are written once by tapeflow (and reused).  TensorFlow runs only through a
subprocess of its own Python (--tf-python, or $TAPEFLOW_TF_PYTHON, or a `python` that
imports tensorflow); tapeflow itself never imports it.  Not part of the test suite.
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
N_FLOATS, N_CSV_COLS = 32, 8


def _files(d):
    return os.path.join(d, "examples.tfrecord"), os.path.join(d, "table.csv")


def make_files(d, mb):
    """~mb MB of TFRecord Examples and ~mb MB of CSV, written by tapeflow."""
    sys.path.insert(0, os.path.dirname(HERE))
    import tapeflow as tf
    rec_path, csv_path = _files(d)
    os.makedirs(d, exist_ok=True)
    target = mb * 2 ** 20
    rng = np.random.RandomState(0)
    # A few thousand distinct rows, written over and over: the files are big, making them is quick.
    if not os.path.exists(rec_path) or abs(os.path.getsize(rec_path) - target) > target * 0.1:
        distinct = []
        for i in range(2000):
            ex = tf.train.Example()
            f = ex.features.feature
            f["x"].float_list.value.extend(rng.randn(N_FLOATS).astype(np.float32).tolist())
            f["id"].int64_list.value.append(int(rng.randint(0, 10 ** 6)))
            f["label"].int64_list.value.append(i % 10)
            f["text"].bytes_list.value.append(b"token %d" % (i % 997))
            distinct.append(ex.SerializeToString())
        with tf.io.TFRecordWriter(rec_path) as w:
            written, i = 0, 0
            while written < target:
                data = distinct[i % len(distinct)]
                w.write(data)
                written += len(data) + 16
                i += 1
    if not os.path.exists(csv_path) or abs(os.path.getsize(csv_path) - target) > target * 0.1:
        block = rng.randn(20000, N_CSV_COLS - 1)
        text = "".join(f"{i}," + ",".join(f"{v:.5f}" for v in row) + "\n" for i, row in enumerate(block))
        with open(csv_path, "w") as f:
            f.write(",".join(f"c{k}" for k in range(N_CSV_COLS)) + "\n")
            for _ in range(max(1, target // len(text))):
                f.write(text)


def run_engine(engine, d, batch):
    """Times both pipelines under one library (this process); prints one JSON line."""
    if engine == "tensorflow":
        import tensorflow as tf
    else:
        sys.path.insert(0, os.path.dirname(HERE))
        import tapeflow as tf
    rec_path, csv_path = _files(d)
    spec = {"x": tf.io.FixedLenFeature([N_FLOATS], tf.float32), "id": tf.io.FixedLenFeature([], tf.int64),
            "label": tf.io.FixedLenFeature([], tf.int64), "text": tf.io.FixedLenFeature([], tf.string)}
    out = {"engine": engine}
    ds = tf.data.TFRecordDataset(rec_path).batch(batch).map(lambda s: tf.io.parse_example(s, spec))
    ds = ds.prefetch(2)
    t0, n, check = time.perf_counter(), 0, 0.0
    for b in ds:
        n += int(b["id"].shape[0])
        check += float(b["x"].numpy()[:, 0].sum())
    dt = time.perf_counter() - t0
    out["tfrecord"] = {"seconds": dt, "examples": n, "mb_s": os.path.getsize(rec_path) / 2 ** 20 / dt,
                       "examples_s": n / dt, "check": round(check, 1)}
    defaults = [[0]] + [[0.0]] * (N_CSV_COLS - 1)
    ds = tf.data.TextLineDataset(csv_path).skip(1).batch(batch).map(lambda lines: tf.io.decode_csv(lines, defaults))
    ds = ds.prefetch(2)
    t0, n, check = time.perf_counter(), 0, 0.0
    for cols in ds:
        n += int(cols[0].shape[0])
        check += float(cols[1].numpy().sum())
    dt = time.perf_counter() - t0
    out["csv"] = {"seconds": dt, "examples": n, "mb_s": os.path.getsize(csv_path) / 2 ** 20 / dt,
                  "examples_s": n / dt, "check": round(check, 1)}
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    if engine == "tapeflow":
        from tapeflow.io import native
        out["c_readers"] = native.get() is not None
    print(json.dumps(out))


def _tf_python(arg):
    for candidate in (arg, os.environ.get("TAPEFLOW_TF_PYTHON"), "/work/tfenv/bin/python", shutil.which("python")):
        if candidate and os.path.exists(candidate):
            ok = subprocess.run([candidate, "-c", "import tensorflow"], capture_output=True).returncode == 0
            if ok:
                return candidate
    return None


def _run(python, engine, d, batch):
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    res = subprocess.run([python, os.path.abspath(__file__), "--engine", engine, "--dir", d, "--batch", str(batch)],
                         capture_output=True, text=True, env=env)
    lines = [ln for ln in res.stdout.splitlines() if ln.startswith("{")]
    if res.returncode or not lines:
        raise RuntimeError(f"{engine} run failed:\n{res.stderr[-2000:]}")
    return json.loads(lines[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mb", type=int, default=200)
    ap.add_argument("--dir", default=os.path.join("/tmp", "tapeflow_records_bench"))
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--tf-python", default=None)
    ap.add_argument("--engine", choices=("tapeflow", "tensorflow"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.engine:
        return run_engine(args.engine, args.dir, args.batch)
    make_files(args.dir, args.mb)
    load_before = os.getloadavg()
    results = [_run(sys.executable, "tapeflow", args.dir, args.batch)]
    tf_python = _tf_python(args.tf_python)
    if tf_python:
        results.append(_run(tf_python, "tensorflow", args.dir, args.batch))
    print(f"files: {args.mb} MB each, batch {args.batch}; load average (1 min) {load_before[0]:.1f} before, "
          f"{os.getloadavg()[0]:.1f} after, on {os.cpu_count()} cores; tapeflow's C readers "
          f"{'on' if results[0].get('c_readers') else 'off (NumPy/Python path)'}")
    print(f"{'engine':<11} {'pipeline':<9} {'MB/s':>8} {'examples/s':>12} {'seconds':>8} {'peak RSS MB':>12}")
    for r in results:
        for kind in ("tfrecord", "csv"):
            m = r[kind]
            print(f"{r['engine']:<11} {kind:<9} {m['mb_s']:8.1f} {m['examples_s']:12.0f} {m['seconds']:8.1f} "
                  f"{r['peak_rss_mb']:12.0f}")
    if len(results) == 2 and any(results[0][k]["check"] != results[1][k]["check"] for k in ("tfrecord", "csv")):
        print("warning: the two libraries read different values:",
              {k: (results[0][k]["check"], results[1][k]["check"]) for k in ("tfrecord", "csv")})


if __name__ == "__main__":
    main()
