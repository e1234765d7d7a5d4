"""tf.io.read_file / write_file, tf.io.gfile, TextLineDataset and Dataset.list_files on local
files (each program writes its files into a fresh temporary directory)."""
import os
import tempfile


def _dir():
    return tempfile.mkdtemp(prefix="tfparity_io_")


def _write(d, name, data):
    path = os.path.join(d, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def program_read_write_file(tf):
    d = _dir()
    path = os.path.join(d, "sub", "new.txt")
    tf.io.write_file(path, tf.constant("h\u00e9llo\n"))
    back = tf.io.read_file(path)
    return {"back": back, "exists": tf.io.gfile.exists(path), "empty": tf.io.read_file(_write(d, "e", b""))}


def program_read_file_missing(tf):
    return {"x": tf.io.read_file(os.path.join(_dir(), "nope.txt"))}


def program_read_file_in_function(tf):
    d = _dir()
    path = _write(d, "a.txt", b"abc")

    @tf.function
    def f(p):
        return tf.io.read_file(p)

    first = f(tf.constant(path))
    _write(d, "a.txt", b"changed")
    return {"first": first, "second": f(tf.constant(path)), "traces": f.experimental_get_tracing_count()}


def program_gfile_roundtrip(tf):
    d = _dir()
    G = tf.io.gfile
    G.makedirs(os.path.join(d, "a", "b"))
    with G.GFile(os.path.join(d, "a", "x.txt"), "w") as f:
        f.write("line1\nline2\r\nlast")
    with G.GFile(os.path.join(d, "a", "y.txt"), "wb") as f:
        f.write(b"\x00\xff")
    rel = lambda ps: sorted(os.path.relpath(p, d) for p in ps)  # noqa: E731
    out = {"listdir": sorted(G.listdir(os.path.join(d, "a"))), "glob": rel(G.glob(os.path.join(d, "a", "*.txt"))),
           "read": G.GFile(os.path.join(d, "a", "x.txt")).read(),
           "readlines": G.GFile(os.path.join(d, "a", "x.txt")).readlines(),
           "binary": G.GFile(os.path.join(d, "a", "y.txt"), "rb").read(),
           "isdir": [G.isdir(os.path.join(d, "a")), G.isdir(os.path.join(d, "a", "x.txt"))]}
    G.rename(os.path.join(d, "a", "y.txt"), os.path.join(d, "a", "z.bin"))
    G.remove(os.path.join(d, "a", "x.txt"))
    out["after"] = sorted(G.listdir(os.path.join(d, "a")))
    return out


def program_gfile_errors(tf):
    d = _dir()
    G = tf.io.gfile
    _write(d, "a", b"1")
    _write(d, "b", b"2")
    out = {}
    for name, fn in [("read_missing", lambda: G.GFile(os.path.join(d, "nope")).read()),
                     ("listdir_missing", lambda: G.listdir(os.path.join(d, "nope"))),
                     ("rename_exists", lambda: G.rename(os.path.join(d, "a"), os.path.join(d, "b"))),
                     ("remove_missing", lambda: G.remove(os.path.join(d, "nope")))]:
        try:
            fn()
            out[name] = "no error"
        except Exception as e:  # the class is what TensorFlow decides
            out[name] = type(e).__name__
    return out


def program_text_line_dataset_edge_cases(tf):
    d = _dir()
    files = [_write(d, "crlf.txt", b"a,1\r\nb,2\r\n\r\nlast"), _write(d, "empty.txt", b""),
             _write(d, "nl.txt", b"\n\n"), _write(d, "utf8.txt", "\u00e9t\u00e9\nx".encode()),
             _write(d, "cr.txt", b"a\rb\r\n")]
    ds = tf.data.TextLineDataset(files)
    return {"lines": list(ds.as_numpy_iterator()), "spec": ds.element_spec.dtype,
            "shape": ds.element_spec.shape}


def program_text_line_dataset_compressed_and_parallel(tf):
    import gzip
    import zlib
    d = _dir()
    g = _write(d, "a.gz", gzip.compress(b"g1\ng2\ng3\n"))
    z = _write(d, "b.z", zlib.compress(b"z1\nz2"))
    p1, p2 = _write(d, "p1", b"a\nb\nc\n"), _write(d, "p2", b"x\ny\n")
    return {"gzip": list(tf.data.TextLineDataset(g, compression_type="GZIP").as_numpy_iterator()),
            "zlib": list(tf.data.TextLineDataset([z], compression_type="ZLIB").as_numpy_iterator()),
            "parallel": list(tf.data.TextLineDataset([p1, p2], num_parallel_reads=2).as_numpy_iterator()),
            "from_dataset": list(tf.data.TextLineDataset(tf.data.Dataset.from_tensor_slices([p2, p1]))
                                 .as_numpy_iterator())}


def program_text_lines_map_and_batch(tf):
    d = _dir()
    path = _write(d, "n.txt", b"1.5\n2\n-3\n4\n5")
    ds = tf.data.TextLineDataset(path).map(lambda s: tf.io.decode_csv(s, [[0.0]])[0] * 2).batch(2)
    return {"batches": [b.numpy() for b in ds]}


def program_text_line_missing_file(tf):
    return {"x": list(tf.data.TextLineDataset(os.path.join(_dir(), "nope.txt")).as_numpy_iterator())}


def program_list_files(tf):
    d = _dir()
    for n in ("b.csv", "a.csv", "c.txt", "d.csv"):
        _write(d, n, b"x")
    ds = tf.data.Dataset.list_files(os.path.join(d, "*.csv"), shuffle=False)
    names = [os.path.basename(p.decode()) for p in ds.as_numpy_iterator()]
    shuffled = tf.data.Dataset.list_files(os.path.join(d, "*.csv"), seed=3)
    epoch = sorted(os.path.basename(p.decode()) for p in shuffled.as_numpy_iterator())
    return {"names": names, "shuffled_sorted": epoch, "spec": ds.element_spec.dtype,
            "card": int(ds.cardinality())}


def program_list_files_no_match(tf):
    return {"x": tf.data.Dataset.list_files(os.path.join(_dir(), "*.none"))}
