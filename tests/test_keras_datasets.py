"""tf.keras.datasets from fake cached files in a temporary KERAS_HOME (never a
download), and tf.keras.mixed_precision policies."""
import gzip
import os
import pickle

import numpy as np
import pytest

import tapeflow as tf

DS = tf.keras.datasets


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    os.makedirs(tmp_path / "datasets")
    return tmp_path / "datasets"


def test_mnist_reads_cached_npz(keras_home):
    rng = np.random.default_rng(0)
    arrays = {"x_train": rng.integers(0, 255, (5, 28, 28), dtype=np.uint8), "y_train": np.arange(5, dtype=np.uint8),
              "x_test": rng.integers(0, 255, (2, 28, 28), dtype=np.uint8), "y_test": np.array([7, 8], np.uint8)}
    np.savez(keras_home / "mnist.npz", **arrays)
    (x_train, y_train), (x_test, y_test) = DS.mnist.load_data()
    np.testing.assert_array_equal(x_train, arrays["x_train"])
    np.testing.assert_array_equal(y_test, [7, 8])
    assert x_test.shape == (2, 28, 28) and y_train.dtype == np.uint8


def test_missing_file_names_the_expected_path(keras_home):
    with pytest.raises(FileNotFoundError, match=str(keras_home / "mnist.npz")):
        DS.mnist.load_data()
    with pytest.raises(FileNotFoundError, match="cifar-10-batches-py"):
        DS.cifar10.load_data()


def test_fashion_mnist_idx_files(keras_home):
    folder = keras_home / "fashion-mnist"
    os.makedirs(folder)
    images = np.arange(3 * 28 * 28, dtype=np.uint64).astype(np.uint8).reshape(3, 28, 28)
    for prefix, n in (("train", 3), ("t10k", 3)):
        with gzip.open(folder / f"{prefix}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(bytes(8) + bytes([1, 2, 3][:n]))
        with gzip.open(folder / f"{prefix}-images-idx3-ubyte.gz", "wb") as f:
            f.write(bytes(16) + images.tobytes())
    (x_train, y_train), (x_test, y_test) = DS.fashion_mnist.load_data()
    np.testing.assert_array_equal(x_train, images)
    np.testing.assert_array_equal(y_test, [1, 2, 3])


def test_boston_housing_split_is_seeded(keras_home):
    x = np.arange(20, dtype=np.float64).reshape(10, 2)
    y = np.arange(10, dtype=np.float64)
    np.savez(keras_home / "boston_housing.npz", x=x, y=y)
    (x_train, y_train), (x_test, y_test) = DS.boston_housing.load_data(test_split=0.2, seed=113)
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    np.testing.assert_array_equal(y_train, y[order[:8]])
    np.testing.assert_array_equal(x_test, x[order[8:]])


def test_imdb_object_arrays_and_preparation(keras_home):
    seqs = [[5, 6, 7], [8], [9, 10, 11, 12, 13]]
    x = np.empty(3, dtype=object)
    x[:] = seqs
    np.savez(keras_home / "imdb.npz", x_train=x, y_train=np.array([0, 1, 0]), x_test=x[:2],
             y_test=np.array([1, 1]))
    (x_train, y_train), (x_test, y_test) = DS.imdb.load_data(num_words=12, maxlen=6)
    rng = np.random.RandomState(113)
    order = np.arange(3)
    rng.shuffle(order)
    want = []
    for i in order:
        s = [1] + [w + 3 for w in seqs[i]]
        if len(s) < 6:
            want.append([w if w < 12 else 2 for w in s])
    assert [list(s) for s in x_train] == want and len(y_train) == len(want)
    assert len(x_test) == 2


def test_cifar10_batches_and_refusal_of_code(keras_home):
    folder = keras_home / "cifar-10-batches-py"
    os.makedirs(folder)
    rng = np.random.default_rng(1)
    batches = {}
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        data = rng.integers(0, 255, (2, 3072), dtype=np.uint8)
        batches[name] = data
        with open(folder / name, "wb") as f:
            pickle.dump({b"data": data, b"labels": [3, 4]}, f)
    (x_train, y_train), (x_test, y_test) = DS.cifar10.load_data()
    assert x_train.shape == (10, 32, 32, 3) and y_train.shape == (10, 1)
    np.testing.assert_array_equal(x_test[1], batches["test_batch"][1].reshape(3, 32, 32).transpose(1, 2, 0))
    with open(folder / "test_batch", "wb") as f:
        pickle.dump({b"data": os.system, b"labels": []}, f)  # a pickle that names a function
    with pytest.raises(pickle.UnpicklingError, match="refusing"):
        DS.cifar10.load_data()


def test_mixed_precision_policies():
    mp = tf.keras.mixed_precision
    assert mp.global_policy().name == "float32"
    p = mp.Policy("mixed_float16")
    assert (p.compute_dtype, p.variable_dtype) == ("float16", "float32")
    with pytest.raises(ValueError, match="Policy"):
        mp.Policy("float31")  # mixed policies themselves: tests/tf_parity/programs/kmx_mixed.py
    try:
        mp.set_global_policy("float64")
        layer = tf.keras.layers.Dense(2)
        out = layer(np.ones((1, 3), np.float32))
        assert out.dtype == tf.float64 and layer.kernel.dtype == tf.float64
        assert mp.global_policy() == mp.Policy("float64")
    finally:
        mp.set_global_policy("float32")
    assert tf.keras.layers.Dense(1)(np.ones((1, 2), np.float32)).dtype == tf.float32
