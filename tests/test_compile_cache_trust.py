"""The compile cache holds code every tapeflow process loads: it is created 0700,
and a cache directory or library not owned by the user, or writable by group or
others, is refused with one warning (this process then builds in a private
temporary directory), as SSH and Python's own caches do."""
import os
import stat
import warnings

import pytest

from tapeflow.compiler import cbuild
from tapeflow.compiler.flags import set_flag

SOURCE = "int tapeflow_trust_probe(void) { return 41 + %d; }\n"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setattr(cbuild, "_warned", set())
    monkeypatch.setattr(cbuild, "_loaded", {})
    monkeypatch.setattr(cbuild, "_probe", {})
    d = tmp_path / "new" / "cache"
    set_flag("cache_dir", str(d))
    yield d
    set_flag("cache_dir", None)


def _refusals(record):
    return [w for w in record if "not using the compile cache" in str(w.message)]


def test_the_cache_directory_is_created_private(cache):
    assert cbuild.cache_dir() == str(cache)
    assert stat.S_IMODE(os.stat(cache).st_mode) == 0o700


@pytest.mark.parametrize("spoil,why", [
    (lambda d: os.chmod(d, 0o777), "writable by group or others"),
    (lambda d: os.chmod(d, 0o720), "writable by group or others"),
    (lambda d: os.chown(d, 65534, 65534), "owned by uid 65534"),
])
def test_an_untrusted_cache_directory_is_refused_once(cache, spoil, why):
    cache.mkdir(parents=True)
    spoil(cache)
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        first, second = cbuild.cache_dir(), cbuild.cache_dir()
    assert len(_refusals(record)) == 1 and why in str(_refusals(record)[0].message)
    assert first == second != str(cache)
    st = os.stat(first)
    assert st.st_uid == os.getuid() and stat.S_IMODE(st.st_mode) == 0o700


@pytest.mark.skipif(cbuild.find_cc() is None, reason="needs a C compiler")
@pytest.mark.parametrize("spoil,why", [
    (lambda p: os.chmod(p, 0o777), "writable by group or others"),
    (lambda p: os.chown(p, 65534, 65534), "owned by uid 65534"),
])
def test_a_planted_library_is_never_loaded(cache, spoil, why):
    lib = cbuild.build(SOURCE % 1)
    assert lib is not None and os.path.dirname(lib.path) == str(cache)
    sha = lib.path + ".sha256"
    # Someone else rewrites the library (keeping a matching checksum): the file's owner/mode give it away.
    spoil(lib.path)
    cbuild._loaded.clear()
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        again = cbuild.build(SOURCE % 1)
    assert len(_refusals(record)) == 1 and why in str(_refusals(record)[0].message)
    assert again is not None and os.path.dirname(again.path) != str(cache)
    assert again.function("tapeflow_trust_probe", 0, False)() == 42
    assert os.path.exists(sha)
