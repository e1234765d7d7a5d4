"""Record what TensorFlow writes for tests/tensorboard_program.py, read by TensorBoard:

    PYTHONPATH=<dir with the tensorboard package> /work/tfenv/bin/python tests/record_tensorboard_events.py

writes tests/golden/tensorboard_events.json (compared by test_tensorboard.py)."""
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tensorflow as tf  # noqa: E402

from tensorboard_program import read_back, write_summaries  # noqa: E402

logdir = tempfile.mkdtemp()
write_summaries(tf, logdir)
with open(os.path.join(HERE, "golden", "tensorboard_events.json"), "w") as f:
    json.dump({"tensorflow": tf.__version__, "events": read_back(logdir)}, f)
    f.write("\n")
print("recorded", len(read_back(logdir)), "tags")
