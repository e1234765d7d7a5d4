"""Record TensorFlow's outcome of every parity program into recorded/<module>.json.

Run with a Python that has real TensorFlow (never a tapeflow dependency), e.g.

    python3 -m venv /tmp/tfenv && /tmp/tfenv/bin/pip install tensorflow-cpu==2.21.0
    /tmp/tfenv/bin/python tests/tf_parity/record.py [MODULE ...]

With no arguments every module of programs/ is recorded; a module's JSON is
rewritten whole.  The test (test_parity.py) needs no TensorFlow.
"""
import importlib.util
import json
import os
import pathlib
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE / "programs"))  # programs share helpers from programs/_*.py

import parity  # noqa: E402


def load_module(path):
    spec = importlib.util.spec_from_file_location(f"parity_programs.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def record(path, tf):
    module = load_module(path)
    outcomes = {}
    for name, fn in parity.programs_of(module):
        outcomes[name] = parity.encode_outcome(fn, tf)
        if "error" in outcomes[name]:
            print(f"  {path.stem}.{name}: TensorFlow raises {outcomes[name]['error']}")
    import keras
    doc = {"recorded_with": {"tensorflow": tf.__version__, "keras": keras.__version__},
           "programs": outcomes}
    out = HERE / "recorded" / f"{path.stem}.json"
    out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    print(f"{path.stem}: {len(outcomes)} programs -> {out.relative_to(HERE.parent.parent)}")


def main(argv):
    import tensorflow as tf
    if "tapeflow" in getattr(tf, "__file__", "") or not hasattr(tf, "__version__"):
        raise SystemExit("record.py must run under real TensorFlow, not tapeflow")
    wanted = set(argv)
    for path in sorted((HERE / "programs").glob("*.py")):
        if path.stem.startswith("_") or (wanted and path.stem not in wanted):
            continue
        record(path, tf)


if __name__ == "__main__":
    main(sys.argv[1:])
