"""The API table (tapeflow/_api): the public surface it builds is the one recorded before the
table existed (tests/fixtures/api_surface_before.json, written by tests/api_surface.py from the
hand-assembled API), namespaces are importable modules, and a bad table line is a clear error."""
import json
import os
import re
import subprocess
import sys
import types

import pytest

import tapeflow as tf
from tapeflow._api import build as B

HERE = os.path.dirname(__file__)
# Names that were public before the table and are removed on purpose (internals that leaked).
REMOVED = {}


def _surface_now():
    out = subprocess.run([sys.executable, os.path.join(HERE, "api_surface.py")], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def _table_names():
    names = {}
    for row in B.rows()[0]:
        for path in row.namespaces:
            names.setdefault("" if path == "tf" else path, set()).add(row.name)
    for path in list(names):  # a namespace is a name of its parent (tf.experimental, tf.random.experimental)
        if path:
            parent, _, child = path.rpartition(".")
            names.setdefault(parent, set()).add(child)
    return names


def test_the_public_surface_is_the_one_before_the_table_plus_table_lines():
    with open(os.path.join(HERE, "fixtures", "api_surface_before.json")) as f:
        before = json.load(f)
    now, table = _surface_now(), _table_names()
    # A name added after the snapshot must come from a table line; nothing public is lost.
    for path in set(before["names"]) | set(now["names"]):
        want = set(before["names"].get(path, ())) - set(REMOVED.get(path, ())) | table.get(path, set())
        assert set(now["names"].get(path, ())) == want, path
    assert set(before["importable"]) <= set(now["importable"])
    # The tf.config, tf.debugging, tf.autograph, tf.types namespaces are importable modules now.
    assert {"config", "config.experimental", "debugging", "autograph.experimental"} <= set(now["importable"])


def test_all_and_every_namespace_all_come_from_the_table():
    table = _table_names()
    assert tf.__all__ == sorted(table[""] | {p.split(".")[0] for p in table if p})
    assert tf.math.__all__ == sorted(table["math"])
    assert tf.config.__all__ == sorted(table["config"] | {"experimental"})
    assert sys.modules["tapeflow.config.experimental"] is tf.config.experimental


def test_namespaces_import_and_share_one_object_per_name():
    from tapeflow.nn import relu
    from tapeflow.config.experimental import set_memory_growth
    import tapeflow.losses
    assert relu is tf.nn.relu and set_memory_growth is tf.config.experimental.set_memory_growth
    assert tapeflow.losses is tf.losses
    assert tf.add is tf.math.add and tf.nn.sigmoid is tf.math.sigmoid and tf.linalg.matmul is tf.matmul
    assert tf.train.Saver.__module__ == "tapeflow.train.checkpoint_classes"  # the package's own name
    with pytest.raises(NotImplementedError, match=r"tf.train.Saver: .*tf.train.Checkpoint.*test_api_table.py"):
        tf.train.Saver()


def _build(lines, docs=None):
    """Build a throwaway package `fakeflow` from table lines; its modules leave sys.modules after."""
    fake = types.ModuleType("fakeflow")
    fake.__file__ = tf.__file__
    table = [row for line in lines for row in B.parse_line(line, "test")]
    before = set(sys.modules)
    try:
        B.build(fake, table, {"math": "doc", "config": "doc", "config.experimental": "doc", **(docs or {})})
        return fake
    finally:
        for name in set(sys.modules) - before:
            del sys.modules[name]


def test_the_builder_makes_nested_namespaces_and_wraps_ragged_ops():
    fake = _build(["runtime.ops.math_ops | tf math | add", "misc_api | config.experimental | set_memory_growth"])
    assert fake.__all__ == ["add", "config", "math"] and fake.config.__all__ == ["experimental"]
    assert fake.config.experimental.__name__ == "fakeflow.config.experimental"
    assert fake.add is fake.math.add and fake.add._ragged_dispatch
    rt = tf.ragged.constant([[1.0], [2.0, 3.0]])
    assert fake.add(rt, 1.0).to_list() == [[2.0], [3.0, 4.0]]


@pytest.mark.parametrize("lines, message", [
    (["runtime.ops.math_ops | tf | add add=subtract"], "tf.add is in the API table twice"),
    (["runtime.ops.math_ops | mth | add"], "namespace 'mth', which tapeflow/_api NAMESPACES does not document"),
    (["runtime.ops.math_ops | tf | add=addd"], r"add -> runtime.ops.math_ops:addd"),
    (["runtime.no_such_module | tf | add"], r"add -> runtime.no_such_module:add"),
    ([". | tf | add=no_such_package"], r"add -> no_such_package"),
    (["runtime.ops.math_ops | tf | sparse=add"], "tf.sparse would be replaced by the module tapeflow/sparse"),
    (["runtime.ops.math_ops | tf | math=add", "runtime.ops.math_ops | math | add"], "tf.math is in the API table twice"),
])
def test_a_bad_table_line_is_a_clear_error(lines, message):
    with pytest.raises(B.APITableError, match=message):
        _build(lines)


@pytest.mark.parametrize("line", ["runtime.ops.math_ops | add", "runtime.ops.math_ops | tf |",
                                  "runtime.ops math_ops | tf | add", "| tf | add"])
def test_a_malformed_table_line_is_a_clear_error(line):
    with pytest.raises(B.APITableError, match=re.escape(f"{line.strip()!r} is not `module | namespaces | names`")):
        B.parse_line(line, "test")
