"""AutoGraph conversions cached on disk: a new process loads them instead of
converting; an edited function, an edited converter, a corrupted or untrusted
entry all convert again."""
import importlib
import os
import subprocess
import sys
import textwrap

import pytest

import tapeflow as tf
from tapeflow.compiler import cbuild
from tapeflow.tracer import conversion, conversion_cache

MODULE = """
def f(x):
    if x > 0:
        return x * {k}
    return -x
"""


@pytest.fixture
def user_module(tmp_path, monkeypatch, private_compiler_cache):
    """A user module on disk (rewrite(k) changes it); conversions start uncached in memory."""
    folder = tmp_path / "src"
    folder.mkdir()
    monkeypatch.syspath_prepend(str(folder))
    path = folder / "conv_cache_user_mod.py"

    def write(k):
        path.write_text(MODULE.format(k=k))
        os.utime(path, ns=(k * 10 ** 9, k * 10 ** 9))  # a new mtime whatever the clock's resolution
        sys.modules.pop("conv_cache_user_mod", None)
        importlib.invalidate_caches()
        conversion._by_code.clear()
        return importlib.import_module("conv_cache_user_mod").f
    yield write
    sys.modules.pop("conv_cache_user_mod", None)


def _converts(monkeypatch):
    """Count the real conversions from now on."""
    calls = []
    real = conversion._convert
    monkeypatch.setattr(conversion, "_convert", lambda fn: calls.append(fn) or real(fn))
    return calls


def _run(fn, x):
    return tf.function(fn)(tf.constant(x)).numpy()


def test_a_second_conversion_loads_the_stored_one(user_module, monkeypatch):
    calls = _converts(monkeypatch)
    f = user_module(3)
    assert _run(f, 2.0) == 6.0 and len(calls) == 1
    source = conversion.to_code(f)
    conversion._by_code.clear()
    monkeypatch.setattr(conversion, "_convert", lambda fn: pytest.fail("converted again"))
    g = user_module(3)  # the same file, re-imported: a new function object, the same code
    assert _run(g, 2.0) == 6.0 and _run(g, -1.0) == 1.0
    assert conversion.to_code(g) == source


def test_an_edited_function_converts_again(user_module, monkeypatch):
    calls = _converts(monkeypatch)
    assert _run(user_module(3), 2.0) == 6.0
    assert _run(user_module(5), 2.0) == 10.0
    assert len(calls) == 2


def test_an_edited_converter_misses(user_module, monkeypatch):
    calls = _converts(monkeypatch)
    conversion.converted_function(user_module(3))
    monkeypatch.setattr(conversion_cache, "_fingerprint", ["another converter"])
    conversion._by_code.clear()
    conversion.converted_function(user_module(3))
    assert len(calls) == 2


def test_the_fingerprint_follows_the_converter_files():
    text = conversion_cache.converter_fingerprint()
    for name in ("/conversion.py:", "converters/control_flow.py:", "pyct/templates.py:"):
        assert name in text


def test_a_corrupted_entry_converts_again_and_is_rewritten(user_module, monkeypatch, tmp_path):
    calls = _converts(monkeypatch)
    f = user_module(3)
    conversion.converted_function(f)
    entries = [p for p in os.listdir(tmp_path / "cache") if p.startswith("ag_")]
    assert len(entries) == 1
    path = tmp_path / "cache" / entries[0]
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    conversion._by_code.clear()
    assert _run(user_module(3), 2.0) == 6.0 and len(calls) == 2
    conversion._by_code.clear()
    assert _run(user_module(3), 2.0) == 6.0 and len(calls) == 2  # the rewritten entry loads


def test_an_untrusted_entry_is_not_loaded(user_module, monkeypatch, tmp_path):
    calls = _converts(monkeypatch)
    conversion.converted_function(user_module(3))
    path = next(p for p in (tmp_path / "cache").iterdir() if p.name.startswith("ag_"))
    os.chmod(path, 0o666)
    cbuild._warned.clear()
    conversion._by_code.clear()
    with pytest.warns(RuntimeWarning, match="not using the compile cache"):
        assert _run(user_module(3), 2.0) == 6.0
    assert len(calls) == 2


def test_code_without_a_file_is_converted_each_time(private_compiler_cache, monkeypatch, tmp_path):
    calls = _converts(monkeypatch)
    namespace = {}
    exec(compile(textwrap.dedent(MODULE.format(k=2)), "<no file>", "exec"), namespace)
    assert conversion_cache.load(namespace["f"]) is None
    conversion_cache.store(namespace["f"], None, "", "f")
    cache = tmp_path / "cache"
    assert not (cache.exists() and [p for p in os.listdir(cache) if p.startswith("ag_")])
    assert calls == []


CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
import tapeflow as tf
from tapeflow.tracer import conversion
calls = []
real = conversion._convert
conversion._convert = lambda fn: calls.append(fn) or real(fn)
import conv_cache_child_mod as m
print(float(tf.function(m.f)(tf.constant(2.0))), len(calls))
"""


def test_a_new_process_finds_the_conversion(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "conv_cache_child_mod.py").write_text(MODULE.format(k=4))
    env = dict(os.environ, TAPEFLOW_CACHE_DIR=str(tmp_path / "cache"))
    outs = [subprocess.run([sys.executable, "-c", CHILD, str(folder)], env=env, capture_output=True, text=True,
                           timeout=300) for _ in range(2)]
    assert [o.stdout.split() for o in outs] == [["8.0", "1"], ["8.0", "0"]], [o.stderr for o in outs]
