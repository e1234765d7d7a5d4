"""tf.keras.datasets: load_data() from the files Keras caches in
$KERAS_HOME/datasets (default ~/.keras/datasets).  Nothing is ever downloaded:
a missing file is an error naming the path it was expected at.  Arrays are read
with allow_pickle=False; the formats that hold Python objects (imdb's lists,
cifar10's batches) go through an unpickler that admits only NumPy arrays and
plain containers, so a cached file cannot run code."""
import gzip
import io
import json
import os
import pickle
import types
import zipfile

import numpy as np


def cache_dir():
    base = os.environ.get("KERAS_HOME") or os.path.join(os.path.expanduser("~"), ".keras")
    return os.path.join(base, "datasets")


def _cached(name, dataset):
    path = name if os.path.isabs(name) else os.path.join(cache_dir(), name)
    if not os.path.exists(path):
        raise FileNotFoundError(
            f"keras.datasets.{dataset}.load_data: no cached file at {path}. tapeflow never downloads; "
            f"put the standard Keras file there (or set KERAS_HOME)")
    return path


class _ArraysOnly(pickle.Unpickler):
    _ALLOWED = {("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
                ("numpy", "ndarray"), ("numpy", "dtype"), ("numpy.core.multiarray", "scalar"),
                ("numpy._core.multiarray", "scalar"), ("builtins", "list"), ("builtins", "dict")}

    def find_class(self, module, name):
        if (module, name) not in self._ALLOWED:
            raise pickle.UnpicklingError(f"refusing to load {module}.{name} from a dataset file")
        return super().find_class(module, name)


def _safe_pickle(fileobj, **kwargs):
    return _ArraysOnly(fileobj, **kwargs).load()


def _load_npz(path):
    """{name: array} of an .npz; object arrays are unpickled with _ArraysOnly."""
    out = {}
    with zipfile.ZipFile(path) as z:
        for member in z.namelist():
            with z.open(member) as f:
                buf = io.BytesIO(f.read())
            version = np.lib.format.read_magic(buf)
            fmt = np.lib.format
            read_header = fmt.read_array_header_1_0 if version == (1, 0) else fmt.read_array_header_2_0
            shape, fortran, dtype = read_header(buf)
            if dtype.hasobject:
                out[member[:-4]] = _safe_pickle(buf, encoding="latin1")
            else:
                buf.seek(0)
                out[member[:-4]] = np.lib.format.read_array(buf, allow_pickle=False)
    return out


def _mnist_load_data(path="mnist.npz"):
    d = _load_npz(_cached(path, "mnist"))
    return (d["x_train"], d["y_train"]), (d["x_test"], d["y_test"])


def _idx(path, offset, shape=None):
    with gzip.open(path, "rb") as f:
        data = np.frombuffer(f.read(), np.uint8, offset=offset)
    return data.reshape(shape) if shape else data


def _fashion_load_data():
    folder = "fashion-mnist"
    y_train = _idx(_cached(os.path.join(folder, "train-labels-idx1-ubyte.gz"), "fashion_mnist"), 8)
    x_train = _idx(_cached(os.path.join(folder, "train-images-idx3-ubyte.gz"), "fashion_mnist"), 16,
                   (len(y_train), 28, 28))
    y_test = _idx(_cached(os.path.join(folder, "t10k-labels-idx1-ubyte.gz"), "fashion_mnist"), 8)
    x_test = _idx(_cached(os.path.join(folder, "t10k-images-idx3-ubyte.gz"), "fashion_mnist"), 16,
                  (len(y_test), 28, 28))
    return (x_train, y_train), (x_test, y_test)


def _cifar_batch(path):
    with open(path, "rb") as f:
        d = _safe_pickle(f, encoding="bytes")
    d = {k.decode("utf8") if isinstance(k, bytes) else k: v for k, v in d.items()}
    return np.asarray(d["data"], np.uint8).reshape(-1, 3, 32, 32), np.asarray(d["labels"], np.uint8)


def _cifar10_load_data():
    folder = "cifar-10-batches-py"
    parts = [_cifar_batch(_cached(os.path.join(folder, f"data_batch_{i}"), "cifar10")) for i in range(1, 6)]
    x_train = np.concatenate([p[0] for p in parts])
    y_train = np.concatenate([p[1] for p in parts])
    x_test, y_test = _cifar_batch(_cached(os.path.join(folder, "test_batch"), "cifar10"))
    # channels last (Keras' default image_data_format), labels as a column
    return (x_train.transpose(0, 2, 3, 1), y_train.reshape(-1, 1)), (x_test.transpose(0, 2, 3, 1),
                                                                   y_test.reshape(-1, 1))


def _boston_load_data(path="boston_housing.npz", test_split=0.2, seed=113):
    if not 0 <= test_split < 1:
        raise ValueError(f"boston_housing.load_data: test_split must be in [0, 1), got {test_split}")
    d = _load_npz(_cached(path, "boston_housing"))
    x, y = d["x"], d["y"]
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    n = int(len(x) * (1 - test_split))
    return (x[:n], y[:n]), (x[n:], y[n:])


def _imdb_load_data(path="imdb.npz", num_words=None, skip_top=0, maxlen=None, seed=113, start_char=1,
                    oov_char=2, index_from=3, **kwargs):
    """Keras' imdb preparation: shuffle train and test with one seeded RandomState,
    prepend start_char and shift word ids by index_from, drop sequences of maxlen or
    more, then map ids outside [skip_top, num_words) to oov_char (or drop them)."""
    d = _load_npz(_cached(path, "imdb"))
    rng = np.random.RandomState(seed)
    splits = []
    for xs, ys in ((d["x_train"], d["y_train"]), (d["x_test"], d["y_test"])):
        order = np.arange(len(xs))
        rng.shuffle(order)
        xs, ys = [list(xs[i]) for i in order], np.asarray(ys)[order]
        if start_char is not None:
            xs = [[start_char] + [w + index_from for w in x] for x in xs]
        elif index_from:
            xs = [[w + index_from for w in x] for x in xs]
        if maxlen:
            keep = [i for i, x in enumerate(xs) if len(x) < maxlen]
            xs, ys = [xs[i] for i in keep], ys[keep]
        splits.append((xs, ys))
    everything = splits[0][0] + splits[1][0]
    if not num_words:
        num_words = max(max(x) for x in everything if x)
    out = []
    for xs, ys in splits:
        if oov_char is not None:
            xs = [[w if skip_top <= w < num_words else oov_char for w in x] for x in xs]
        else:
            xs = [[w for w in x if skip_top <= w < num_words] for x in xs]
        arr = np.empty(len(xs), dtype=object)
        arr[:] = xs
        out.append((arr, ys))
    return tuple(out)


def _imdb_word_index(path="imdb_word_index.json"):
    with open(_cached(path, "imdb")) as f:
        return json.load(f)


mnist = types.SimpleNamespace(load_data=_mnist_load_data)
fashion_mnist = types.SimpleNamespace(load_data=_fashion_load_data)
cifar10 = types.SimpleNamespace(load_data=_cifar10_load_data)
boston_housing = types.SimpleNamespace(load_data=_boston_load_data)
imdb = types.SimpleNamespace(load_data=_imdb_load_data, get_word_index=_imdb_word_index)
