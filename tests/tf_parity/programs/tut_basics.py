"""tensorflow.org tutorials "Customization basics: tensors and operations" and "Load NumPy data",
scaled down: small fixed arrays in place of MNIST, files in a fresh temporary directory."""
import os

import numpy as np

from _sweep import history, set_weights, tmp


def program_customization_tensors_and_numpy(tf):
    ndarray = np.ones([3, 3])
    tensor = tf.math.multiply(ndarray, 42)
    return {"add": tf.math.add(1, 2), "add_list": tf.math.add([1, 2], [3, 4]),
            "square": tf.math.square(5), "reduce_sum": tf.math.reduce_sum([1, 2, 3]),
            "overload": tf.math.square(2) + tf.math.square(3),
            "matmul": tf.linalg.matmul([[1]], [[2, 3]]), "matmul_shape": tf.linalg.matmul([[1]], [[2, 3]]).shape,
            "tensor": tensor, "np_add": np.add(tensor, 1), "numpy": tensor.numpy(),
            "dtype": str(tensor.dtype)}


def program_customization_datasets_from_text_file(tf):
    ds_tensors = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])
    filename = os.path.join(tmp(), "lines.txt")
    with open(filename, "w") as f:
        f.write("Line 1\nLine 2\nLine 3\n  ")
    ds_file = tf.data.TextLineDataset(filename)
    ds_tensors = ds_tensors.map(tf.math.square).batch(2)  # the tutorial shuffles; order kept here
    ds_file = ds_file.batch(2)
    return {"tensors": [x for x in ds_tensors], "file": [x for x in ds_file],
            "spec": str(ds_file.element_spec)}


def program_load_numpy_npz_fit(tf):
    rng = np.random.RandomState(3)
    path = os.path.join(tmp(), "mnist_small.npz")
    np.savez(path, x_train=rng.uniform(0, 1, (12, 4, 4)).astype("float32"), y_train=np.arange(12) % 3,
             x_test=rng.uniform(0, 1, (6, 4, 4)).astype("float32"), y_test=np.arange(6) % 3)
    with np.load(path) as data:
        train_examples, train_labels = data["x_train"], data["y_train"]
        test_examples, test_labels = data["x_test"], data["y_test"]
    train_dataset = tf.data.Dataset.from_tensor_slices((train_examples, train_labels))
    test_dataset = tf.data.Dataset.from_tensor_slices((test_examples, test_labels))
    train_dataset = train_dataset.batch(4)
    test_dataset = test_dataset.batch(4)
    model = tf.keras.Sequential([tf.keras.Input((4, 4)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(8, activation="relu"), tf.keras.layers.Dense(3)])
    set_weights(model)
    model.compile(optimizer=tf.keras.optimizers.RMSprop(),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["sparse_categorical_accuracy"])
    h = model.fit(train_dataset, epochs=2, verbose=0)
    return {"spec": str(train_dataset.element_spec), "h": history(h),
            "eval": [round(float(v), 5) for v in model.evaluate(test_dataset, verbose=0)]}
