"""A while loop compiled whole into C never overflows the C stack.

Every intermediate of a compiled loop body used to be a local C array; the frame
is about the sum of them, so a long unrolled body crashed the interpreter
(segfault) -- in the main thread past ~8 MiB, in a thread with a 1 MiB stack
already at 20 float64 64x64 matmul + tanh steps.  Now arrays past a 64 KiB
stack budget come from a heap arena.  Each case runs in a subprocess, so a crash
fails the test instead of killing pytest.
"""
import subprocess
import sys
import textwrap

import pytest

from tapeflow.compiler import loopgen_c

PROGRAM = textwrap.dedent("""
    import sys, threading
    import numpy as np
    import tapeflow as tf
    steps, dtype, stack = int(sys.argv[1]), sys.argv[2], int(sys.argv[3])

    @tf.function
    def f(h, w):
        i = tf.constant(0)
        while i < 2:
            for _ in range(steps):
                h = tf.tanh(tf.matmul(h, w))
            i += 1
        return h

    rng = np.random.default_rng(0)
    h = (rng.standard_normal((64, 64)) * 0.1).astype(dtype)
    w = (rng.standard_normal((64, 64)) * 0.1).astype(dtype)
    result = {}

    def run():
        result["out"] = f(h, w).numpy()

    if stack:
        threading.stack_size(stack)
        t = threading.Thread(target=run)
        t.start()
        t.join()
    else:
        run()
    ref = h
    for _ in range(2 * steps):
        ref = np.tanh(ref @ w)
    np.testing.assert_allclose(result["out"], ref, rtol=1e-4, atol=1e-6)
    exe = f.get_concrete_function(h, w)._executable()
    assert any(k.startswith("loop") for k in exe.kernels), exe.kernels  # compiled whole
    print("ok")
""")


@pytest.mark.parametrize("steps, dtype, stack", [
    (300, "float32", 0),            # 2.4 MB of intermediates per iteration in the main thread
    (20, "float64", 1 << 20),       # a thread with a 1 MiB stack
])
def test_long_compiled_loop_body_does_not_overflow_the_stack(steps, dtype, stack, tmp_path):
    script = tmp_path / "loop_program.py"  # a file: AutoGraph reads the function's source
    script.write_text(PROGRAM)
    proc = subprocess.run([sys.executable, str(script), str(steps), dtype, str(stack)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"
    assert proc.stdout.strip().endswith("ok")


def test_small_loop_values_stay_on_the_stack():
    import numpy as np
    import tapeflow as tf
    from tapeflow.compiler.testing import aval, trace, while_loop

    def program(x):
        out = while_loop(lambda i, v: i < 5, lambda i, v: (i + 1, tf.tanh(v) * 2.0), [tf.constant(0), x])
        return out[1]
    g = trace(program, [aval((8,))])
    node = next(n for n in g.nodes if n.op == "while_loop")
    name, src, spec = loopgen_c.try_render_loop(node, "loop_t")
    assert "char *arena = 0 ?" in src and "restrict" not in src  # nothing spilled
    from tapeflow import compiler
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    want = x
    for _ in range(5):
        want = np.tanh(want) * 2
    np.testing.assert_allclose(compiler.compile_graph(g)(x)[0], want, rtol=1e-5)
