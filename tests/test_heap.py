"""runtime/heap.py: after `import tapeflow`, a freed large array's memory is reused
without page faults (glibc's thresholds raised); with the user's own malloc settings
in the environment, glibc's behaviour is left alone."""
import json
import os
import platform
import subprocess
import sys

import pytest

CHILD = r"""
import json, resource
import numpy as np
import tapeflow  # noqa: F401
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def step():  # four 8 MB arrays alive at once (a conv step's activations), all freed
    arrays = [np.ones(2 << 20, np.float32) for _ in range(4)]
    del arrays
step()
step()
before = faults()
for _ in range(5):
    step()
print(json.dumps((faults() - before) / 20))
"""


def _faults_per_array(env):
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="glibc only")
def test_freed_arrays_are_reused_without_page_faults():
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"}
    kept = _faults_per_array(env)
    fresh = _faults_per_array(dict(env, MALLOC_MMAP_THRESHOLD_="65536"))  # the user's setting wins
    # 8 MB is 2,048 pages (fewer faults where transparent huge pages serve some)
    assert kept < 50 and fresh > 200, (kept, fresh)
