"""A small convnet on handwritten digits, trained eagerly and then with the
compiled train step, printing test accuracy and the speedup.

Data: scikit-learn's 8x8 digits (offline; `pip install scikit-learn`), or the
MNIST IDX files when a directory holding them is given:
    python examples/mnist.py                 # scikit-learn digits
    python examples/mnist.py --idx ~/mnist   # train-images-idx3-ubyte[.gz], ...
    python examples/mnist.py --epochs 3      # fewer epochs
"""
import argparse
import gzip
import os
import sys
import time

import numpy as np

import tapeflow as tf


def read_idx(path):
    """An IDX file (MNIST's format): magic, dims, then unsigned bytes."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        data = f.read()
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        raise ValueError(f"{path} is not an IDX file of unsigned bytes")
    ndim = data[3]
    dims = [int.from_bytes(data[4 + 4 * i:8 + 4 * i], "big") for i in range(ndim)]
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if body.size != int(np.prod(dims)):
        raise ValueError(f"{path}: {body.size} bytes of data for shape {dims}")
    return body.reshape(dims)


def find_idx(directory, stem):
    for name in (stem, stem + ".gz", stem.replace("-idx", ".idx"), stem.replace("-idx", ".idx") + ".gz"):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            return path
    raise FileNotFoundError(f"no {stem}[.gz] in {directory}")


def load(idx_dir):
    """(train_images, train_labels, test_images, test_labels), images NHWC in [0, 1]."""
    if idx_dir:
        parts = [read_idx(find_idx(idx_dir, s)) for s in (
            "train-images-idx3-ubyte", "train-labels-idx1-ubyte", "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte")]
        xs = [(p / 255.0).astype("float32")[..., None] for p in (parts[0], parts[2])]
        return xs[0], parts[1].astype("int64"), xs[1], parts[3].astype("int64")
    try:
        from sklearn.datasets import load_digits
    except ImportError:
        print("examples/mnist.py needs scikit-learn for the digits data (pip install scikit-learn), "
              "or --idx DIR with the MNIST IDX files")
        sys.exit(0)
    digits = load_digits()
    images = (digits.images / 16.0).astype("float32")[..., None]  # (1797, 8, 8, 1)
    labels = digits.target.astype("int64")
    order = np.random.default_rng(0).permutation(len(images))
    images, labels = images[order], labels[order]
    split = len(images) * 3 // 4
    return images[:split], labels[:split], images[split:], labels[split:]


def make_model(input_shape):
    tf.keras.utils.set_random_seed(0)
    L = tf.keras.layers
    model = tf.keras.Sequential([
        L.Conv2D(16, 3, padding="same", activation="relu", input_shape=input_shape),
        L.MaxPooling2D(),
        L.Conv2D(32, 3, padding="same", activation="relu"),
        L.MaxPooling2D(),
        L.Flatten(),
        L.Dropout(0.2),
        L.Dense(64, activation="relu"),
        L.Dense(10),
    ])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.003),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    return model


def train(x, y, x_test, y_test, epochs, run_eagerly):
    model = make_model(x.shape[1:])
    model.run_eagerly = run_eagerly
    data = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(len(x), seed=0).batch(32)
    start = time.perf_counter()
    model.fit(data, epochs=epochs, verbose=2)
    seconds = time.perf_counter() - start
    _, accuracy = model.evaluate(x_test, y_test, batch_size=256, verbose=0)
    return model, accuracy, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--idx", help="directory with the MNIST IDX files")
    parser.add_argument("--epochs", type=int, default=12)
    args = parser.parse_args()
    x, y, x_test, y_test = load(args.idx)
    print(f"{len(x)} training and {len(x_test)} test images of shape {x.shape[1:]}")

    print("-- eager training (run_eagerly=True)")
    _, eager_acc, eager_s = train(x, y, x_test, y_test, args.epochs, run_eagerly=True)
    print("-- compiled train step (tf.function)")
    model, graph_acc, graph_s = train(x, y, x_test, y_test, args.epochs, run_eagerly=False)
    model.summary()
    print(f"test accuracy: eager {eager_acc:.4f}, compiled {graph_acc:.4f}")
    print(f"training time: eager {eager_s:.2f} s, compiled {graph_s:.2f} s "
          f"(speedup {eager_s / graph_s:.2f}x)")
    assert graph_acc >= 0.97, graph_acc
    print("mnist: done")


if __name__ == "__main__":
    main()
