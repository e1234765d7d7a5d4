"""keras.utils.text_dataset_from_directory and image_dataset_from_directory: tf.data
Datasets of (content, label) batches from a folder with one subfolder per class, built as
Keras 3 builds them, so a seeded program sees Keras's order:
- the index: class folders sorted (hidden ones skipped), each walked recursively with roots
  and file names sorted; file list and labels shuffled by np.random.RandomState(seed);
- the split: the validation files are the LAST int(validation_split * n) (Keras's trap: a
  split that rounds to 0 leaves the training subset empty);
- the pipeline: paths (zipped with labels) -> shuffle(batch_size * 8, seed) -> map(load) ->
  batch -> prefetch; `class_names` and `file_paths` attributes on the result.
"""
import os

import numpy as np

from tapeflow.keras.config import print_msg

IMAGE_FORMATS = (".bmp", ".gif", ".jpeg", ".jpg", ".png")
_INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def _files(root, formats, follow_links):
    """Paths (relative to root's parent) of the matching files under root, in Keras's order;
    linked folders are walked only with follow_links."""
    name = os.path.basename(root)
    out = []
    for dirpath, _, filenames in sorted(os.walk(root, followlinks=follow_links), key=lambda entry: entry[0]):
        for fname in sorted(filenames):
            if fname.lower().endswith(formats):
                out.append(os.path.join(name, os.path.relpath(os.path.join(dirpath, fname), root)))
    return out


def index_directory(directory, labels, formats, class_names=None, shuffle=True, seed=None, verbose=True,
                    follow_links=False):
    """(file paths, labels or None, class names), as Keras's dataset_utils.index_directory."""
    if labels == "inferred":
        subdirs = [d for d in sorted(os.listdir(directory))
                   if os.path.isdir(os.path.join(directory, d)) and not d.startswith(".")]
        if class_names is not None:
            if not set(class_names).issubset(subdirs):
                raise ValueError(f"The `class_names` passed did not match the names of the subdirectories of the "
                                 f"target directory. Expected: {subdirs} (or a subset of it), but received: "
                                 f"class_names={class_names}")
            subdirs = list(class_names)
    else:
        if class_names is not None:
            raise ValueError("When `labels=None` (no labels), argument `class_names` cannot be specified."
                             if labels is None else
                             "When argument `labels` is specified, argument `class_names` cannot be specified "
                             "(the `class_names` will be the sorted list of labels).")
        subdirs = [""]
    filenames, found = [], []
    for index, subdir in enumerate(subdirs):
        part = _files(os.path.join(directory, subdir), formats, follow_links)
        filenames += part
        found += [index] * len(part)
    if labels == "inferred":
        labels, class_names = np.asarray(found, dtype="int32"), subdirs
    elif labels is None:
        class_names = None
    else:
        if len(labels) != len(filenames):
            raise ValueError(f"Expected the lengths of `labels` to match the number of files in the target "
                             f"directory. len(labels) is {len(labels)} while we found {len(filenames)} files in "
                             f"directory {directory}.")
        class_names = [str(label) for label in sorted(set(labels))]
    if verbose:
        print_msg(f"Found {len(filenames)} files." if labels is None else
              f"Found {len(filenames)} files belonging to {len(class_names)} classes.")
    paths = [os.path.join(directory, f) for f in filenames]
    if shuffle:
        seed = np.random.randint(int(1e6)) if seed is None else seed
        np.random.RandomState(seed).shuffle(paths)
        if labels is not None:
            labels = np.array(labels)
            np.random.RandomState(seed).shuffle(labels)
    return paths, labels, class_names


def _check_args(labels, label_mode, validation_split, subset, shuffle, seed):
    if labels not in ("inferred", None) and not isinstance(labels, (list, tuple)):
        raise ValueError("`labels` argument should be a list/tuple of integer labels, of the same size as the "
                         "number of files in the target directory, 'inferred' or None. "
                         f"Received: labels={labels}")
    if label_mode not in ("int", "categorical", "binary", None):
        raise ValueError(f'`label_mode` argument must be one of "int", "categorical", "binary", or None. '
                         f"Received: label_mode={label_mode}")
    if validation_split and not 0 < validation_split < 1:
        raise ValueError(f"`validation_split` must be between 0 and 1, received: {validation_split}")
    if (validation_split or subset) and not (validation_split and subset):
        raise ValueError("If `subset` is set, `validation_split` must be set, and inversely.")
    if subset not in ("training", "validation", "both", None):
        raise ValueError(f'`subset` must be either "training", "validation" or "both", received: {subset}')
    if validation_split and shuffle and seed is None:
        raise ValueError("If using `validation_split` and shuffling the data, you must provide a `seed` "
                         "argument, to make sure that there is no overlap between the training and "
                         "validation subset.")


def _split(paths, labels, validation_split, subset):
    if not validation_split:
        return paths, labels
    n_val = int(validation_split * len(paths))
    if subset == "training":
        print_msg(f"Using {len(paths) - n_val} files for training.")
        keep = slice(None, -n_val)
    else:
        print_msg(f"Using {n_val} files for validation.")
        keep = slice(-n_val, None)
    return paths[keep], None if labels is None else labels[keep]


def _build(load, paths, labels, label_mode, num_classes, shuffle, buffer_size, seed, batch_size):
    import tapeflow as tf
    ds = tf.data.Dataset.from_tensor_slices(np.array(paths, dtype=object) if paths else np.zeros((0,), object))
    if label_mode:
        label_ds = tf.data.Dataset.from_tensor_slices(np.asarray(labels, dtype="int32"))
        if label_mode == "binary":
            label_ds = label_ds.map(lambda y: tf.expand_dims(tf.cast(y, "float32"), axis=-1))
        elif label_mode == "categorical":
            label_ds = label_ds.map(lambda y: tf.one_hot(y, num_classes))
        ds = tf.data.Dataset.zip((ds, label_ds))
    if shuffle:
        ds = ds.shuffle(buffer_size=buffer_size, seed=seed)
    ds = ds.map((lambda x, y: (load(x), y)) if label_mode else load, num_parallel_calls=tf.data.AUTOTUNE)
    if batch_size is not None:
        ds = ds.batch(batch_size)
    return ds.prefetch(tf.data.AUTOTUNE)


def _from_directory(load, what, directory, labels, label_mode, class_names, batch_size, shuffle, seed,
                    validation_split, subset, verbose, formats, follow_links):
    if labels is None or label_mode is None:
        labels, label_mode = None, None
    _check_args(labels, label_mode, validation_split, subset, shuffle, seed)
    if seed is None:
        seed = np.random.randint(int(1e6))
    paths, found, class_names = index_directory(directory, labels, formats, class_names, shuffle, seed, verbose,
                                                follow_links)
    if label_mode == "binary" and len(class_names) != 2:
        raise ValueError(f'When passing `label_mode="binary"`, there must be exactly 2 class_names. '
                         f"Received: class_names={class_names}")
    buffer_size = batch_size * 8 if batch_size is not None else 1024
    parts = ["training", "validation"] if subset == "both" else [subset]
    out = []
    for part in parts:
        part_paths, part_labels = _split(paths, found, validation_split, part)
        if not part_paths:
            raise ValueError(f"No {'' if part is None else part + ' '}{what} found in directory {directory}."
                             + (f" Allowed formats: {formats}" if what == "images" else ""))
        ds = _build(load, part_paths, part_labels, label_mode, len(class_names) if class_names else 0,
                    shuffle and not (subset == "both" and part == "validation"), buffer_size, seed, batch_size)
        ds.class_names, ds.file_paths = class_names, part_paths
        out.append(ds)
    return out if subset == "both" else out[0]


def _check_format(format):  # noqa: A002 - Keras's name
    if format != "tf":
        raise ValueError(f'`format` should be "tf" (tapeflow has no grain). Received: format={format}')


def text_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                batch_size=32, max_length=None, shuffle=True, seed=None, validation_split=None,
                                subset=None, follow_links=False, format="tf", verbose=True):
    """Files ending in .txt as string tensors (their first max_length bytes), labelled by folder."""
    import tapeflow as tf
    _check_format(format)

    def load(path):
        text = tf.io.read_file(path)
        return text if max_length is None else tf.strings.substr(text, 0, max_length)

    return _from_directory(load, "text files", directory, labels, label_mode, class_names, batch_size, shuffle,
                           seed, validation_split, subset, verbose, (".txt",), follow_links)


def image_dataset_from_directory(directory, labels="inferred", label_mode="int", class_names=None,
                                 color_mode="rgb", batch_size=32, image_size=(256, 256), shuffle=True, seed=None,
                                 validation_split=None, subset=None, interpolation="bilinear", follow_links=False,
                                 crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, data_format=None,
                                 format="tf", verbose=True):
    """Images decoded (JPEG, PNG, GIF's first frame, BMP) to color_mode's channels and resized
    to image_size as Keras's loader does (tf.image.resize: float32, except nearest, which keeps
    uint8; Keras's smart_resize for crop_to_aspect_ratio, tf.image.resize_with_pad for pad)."""
    import tapeflow as tf
    from tapeflow.keras.layers.image_preprocessing import resize
    channels = {"rgb": 3, "rgba": 4, "grayscale": 1}.get(color_mode)
    if channels is None:
        raise ValueError(f'`color_mode` must be one of {{"rgb", "rgba", "grayscale"}}. Received: color_mode={color_mode}')
    if isinstance(image_size, int):
        image_size = (image_size, image_size)
    elif not isinstance(image_size, (list, tuple)) or len(image_size) != 2:
        raise ValueError(f"Invalid `image_size` value. Expected a tuple of 2 integers. Received: image_size={image_size}")
    interpolation = interpolation.lower()
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument `interpolation` should be one of {_INTERPOLATIONS}. "
                         f"Received: interpolation={interpolation}")
    _check_format(format)
    if crop_to_aspect_ratio and pad_to_aspect_ratio:
        raise ValueError("Only one of `pad_to_aspect_ratio`, `crop_to_aspect_ratio` can be set to `True`.")
    from tapeflow.keras import backend
    data_format = data_format or backend.image_data_format()

    def load(path):
        image = tf.io.decode_image(tf.io.read_file(path), channels=channels, expand_animations=False)
        if crop_to_aspect_ratio:  # Keras's smart_resize: a centred crop of the aspect ratio, then resize
            image = resize(image, image_size, interpolation, crop_to_aspect_ratio=True)
        elif pad_to_aspect_ratio:  # resized into the box keeping the aspect ratio, then padded
            image = tf.image.resize_with_pad(image, image_size[0], image_size[1], method=interpolation)
        else:
            image = tf.image.resize(image, image_size, method=interpolation)
        image = tf.ensure_shape(image, (image_size[0], image_size[1], channels))
        return tf.transpose(image, (2, 0, 1)) if data_format == "channels_first" else image

    return _from_directory(load, "images", directory, labels, label_mode, class_names, batch_size, shuffle,
                           seed, validation_split, subset, verbose, IMAGE_FORMATS, follow_links)
