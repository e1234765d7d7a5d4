"""tf.io.gfile on local paths, with TensorFlow 2.21's errors and line handling."""
import os

import pytest

from tapeflow.io import gfile as G
from tapeflow.runtime import errors


def test_directories_glob_listdir_walk(tmp_path):
    root = str(tmp_path / "g")
    G.makedirs(os.path.join(root, "a", "b"))
    G.makedirs(os.path.join(root, "a", "b"))      # existing: no error
    G.mkdir(os.path.join(root, "a", "b"))
    for name in ("x.txt", "y.txt", "z.csv"):
        with G.GFile(os.path.join(root, "a", name), "w") as f:
            f.write("data")
    assert sorted(G.listdir(os.path.join(root, "a"))) == ["b", "x.txt", "y.txt", "z.csv"]
    assert G.glob(os.path.join(root, "a", "*.txt")) == [os.path.join(root, "a", n) for n in ("x.txt", "y.txt")]
    assert G.glob(os.path.join(root, "zz*")) == []
    assert G.isdir(os.path.join(root, "a")) and not G.isdir(os.path.join(root, "a", "x.txt"))
    walked = [(os.path.relpath(r, root), sorted(d), sorted(f)) for r, d, f in G.walk(root)]
    assert walked == [(".", ["a"], []), ("a", ["b"], ["x.txt", "y.txt", "z.csv"]), (os.path.join("a", "b"), [], [])]
    G.rmtree(os.path.join(root, "a"))
    assert not G.exists(os.path.join(root, "a"))


def test_gfile_read_write_lines(tmp_path):
    path = str(tmp_path / "x.txt")
    with G.GFile(path, "w") as f:
        f.write("line1\nline2\r\nlast")
    assert G.GFile(path).read() == "line1\nline2\r\nlast"
    assert G.GFile(path, "rb").read() == b"line1\nline2\r\nlast"
    assert G.GFile(path).readlines() == ["line1\n", "line2\n", "last"]     # CR dropped, as TF
    assert list(G.GFile(path)) == ["line1\n", "line2\n", "last"]
    assert G.GFile(path).read(3) == "lin" and G.GFile(path).size() == 17
    f = G.GFile(path)
    assert (f.read(2), f.tell()) == ("li", 2)
    f.seek(0)
    assert f.readline() == "line1\n"
    with G.GFile(path, "a") as f:
        f.write("+")
    assert G.GFile(path, "rb").read().endswith(b"last+")
    assert G.stat(path).length == 18


# (action, error class, message)
ERRORS = [(lambda d: G.GFile(os.path.join(d, "nope")).read(), errors.NotFoundError, "No such file"),
          (lambda d: G.listdir(os.path.join(d, "nope")), errors.NotFoundError, "Could not find directory"),
          (lambda d: G.remove(os.path.join(d, "nope")), errors.NotFoundError, "nope"),
          (lambda d: G.rename(os.path.join(d, "a"), os.path.join(d, "b")), errors.AlreadyExistsError,
           "already exists"),
          (lambda d: G.copy(os.path.join(d, "a"), os.path.join(d, "b")), errors.AlreadyExistsError,
           "already exists"),
          (lambda d: G.stat(os.path.join(d, "nope")), errors.NotFoundError, "nope")]


@pytest.mark.parametrize("action, exc, message", ERRORS)
def test_errors(tmp_path, action, exc, message):
    for name in ("a", "b"):
        (tmp_path / name).write_text(name)
    with pytest.raises(exc, match=message):
        action(str(tmp_path))


def test_rename_copy_overwrite(tmp_path):
    a, b, c = (str(tmp_path / n) for n in "abc")
    open(a, "w").write("A")
    open(b, "w").write("B")
    G.copy(a, c)
    G.rename(a, b, overwrite=True)
    assert open(b).read() == "A" and open(c).read() == "A" and not G.exists(a)
    G.remove(c)
    assert not G.exists(c)
