"""The seed programs (../shared/seed_programs) run to their "all checks hold"."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from keras_helpers import missing

REPO = Path(__file__).resolve().parents[1]
SEEDS = next((p for p in (REPO.parent / "shared" / "seed_programs", REPO / "shared" / "seed_programs")
              if p.is_dir()), None)

# What each seed needs from other branches (the skip lifts once they are merged).
REQUIRES = {
    "seed_000_linear_regression.py": ("random.normal",),
    "seed_003_brain_blog.py": ("nn.softmax_cross_entropy_with_logits",),
    "seed_004_getting_started.py": ("nn.sparse_softmax_cross_entropy_with_logits", "function"),
}


@pytest.mark.skipif(SEEDS is None, reason="the shared seed programs are not next to this checkout")
@pytest.mark.parametrize("name", sorted(REQUIRES))
def test_seed_program(name, tmp_path):
    absent = missing(*REQUIRES[name])
    if absent:
        pytest.skip(f"needs {absent} (other branches)")
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    proc = subprocess.run([sys.executable, str(SEEDS / name)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    assert "all checks hold" in proc.stdout.splitlines()[-1]
