"""keras.utils.text_dataset_from_directory: a tf.data Dataset of (text, label) batches
from a folder with one subfolder per class, as Keras indexes it (classes and files in
sorted order, a seeded shuffle of the file list, the validation split taken from the end).
image_dataset_from_directory is not offered: tapeflow has no image codec."""
import os

import numpy as np


def _index(directory, labels, class_names, extensions, follow_links):
    if labels == "inferred":
        found = sorted(d for d in os.listdir(directory) if os.path.isdir(os.path.join(directory, d)))
        if class_names is not None and sorted(class_names) != sorted(found):
            raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the "
                             f"target directory. Expected: {found} (or a subset of it), but received: "
                             f"class_names={class_names}")
        class_names = list(class_names or found)
        roots = [(os.path.join(directory, c), i) for i, c in enumerate(class_names)]
    else:
        class_names, roots = [], [(directory, None)]
    paths, found_labels = [], []
    for root, label in roots:
        for dirpath, dirnames, filenames in os.walk(root, followlinks=follow_links):
            dirnames.sort()
            for name in sorted(filenames):
                if name.lower().endswith(extensions):
                    paths.append(os.path.join(dirpath, name))
                    found_labels.append(label)
    if labels not in ("inferred", None):
        if len(labels) != len(paths):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(paths)} files in "
                             f"directory {directory}.")
        found_labels = list(labels)
    return paths, found_labels, class_names


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                batch_size=32, max_length=None, shuffle=True, seed=None, validation_split=None,
                                subset=None, follow_links=False, verbose=True, encoding="utf-8"):
    from tapeflow.data import Dataset
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    if validation_split is not None and subset not in ("training", "validation", "both"):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    paths, file_labels, class_names = _index(directory, labels, class_names, (".txt",), follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={class_names}")
    if shuffle:
        seed = np.random.randint(int(1e6)) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        np.random.RandomState(seed).shuffle(file_labels)
    if verbose:
        print(f"Found {len(paths)} files" + (f" belonging to {len(class_names)} classes." if class_names else "."))

    def build(part_paths, part_labels):
        texts = []
        for p in part_paths:
            with open(p, encoding=encoding) as f:
                text = f.read()
            texts.append(text[:max_length] if max_length is not None else text)
        ds = Dataset.from_tensor_slices(np.array(texts, dtype=object) if texts else np.zeros((0,), object))
        if label_mode is not None:
            ids = np.asarray(part_labels, dtype="int32")
            if label_mode == "categorical":
                y = np.eye(len(class_names), dtype="float32")[ids]
            elif label_mode == "binary":
                y = ids.astype("float32").reshape(-1, 1)
            else:
                y = ids
            ds = Dataset.zip((ds, Dataset.from_tensor_slices(y)))
        ds = ds.batch(batch_size) if batch_size is not None else ds
        ds.class_names = class_names
        return ds

    if validation_split is None:
        return build(paths, file_labels)
    n_val = int(validation_split * len(paths))
    train = build(paths[:len(paths) - n_val], file_labels[:len(paths) - n_val])
    val = build(paths[len(paths) - n_val:], file_labels[len(paths) - n_val:])
    return {"training": train, "validation": val, "both": [train, val]}[subset]
