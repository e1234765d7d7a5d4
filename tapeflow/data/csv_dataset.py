"""tf.data.experimental.CsvDataset and make_csv_dataset.

Records are lines of the file (CRLF and LF ends alike), except that a quoted field may
hold newlines: a line with an open quote continues on the next one.  An empty line is a
record of one empty field, as in TensorFlow.  Fields follow tapeflow.io.csv_fields (the
decode_csv rules); column types are given by record_defaults (a dtype = a required
column, a value = its default).  make_csv_dataset infers types from the first
num_rows_for_inference rows like TensorFlow: int32, then int64, float32, string.
"""
import collections

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import UNKNOWN, Dataset
from tapeflow.data.readers import _lines, file_names, interleaved
from tapeflow.io import csv_fields
from tapeflow.io import record_format as rf
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import InvalidArgumentError, with_location
from tapeflow.runtime.tensor import TensorBase, convert_to_tensor


def csv_records(path, compression_type, use_quote_delim):
    """The records of one CSV file (quoted newlines kept inside their record)."""
    pending = None
    for line in _lines(path, compression_type):
        if pending is not None:
            line = pending + b"\n" + line
            pending = None
        if use_quote_delim and line.count(b'"') % 2:
            pending = line
            continue
        yield line
    if pending is not None:
        yield pending                          # an unterminated quote: the field rules report it


def _column_spec(d, i):
    """(default value or None, dtype name) of one record_defaults entry."""
    if isinstance(d, dtypes.DType) or (isinstance(d, type) and not isinstance(d, TensorBase)):
        name = dtypes.as_dtype(d).name
        value = None
    else:
        t = d if isinstance(d, TensorBase) else convert_to_tensor(d)
        name = t.dtype.name
        vals = np.asarray(t.numpy()).reshape(-1)
        if vals.size > 1:
            raise InvalidArgumentError(with_location(f"CsvDataset: record_defaults[{i}] has {vals.size} values; "
                                                     f"give one default (or a dtype) per column"))
        value = None if vals.size == 0 else (vals[0] if vals.dtype == object else vals[0].item())
    if name not in csv_fields.CSV_DTYPES:
        raise TypeError(with_location(f"CsvDataset: record_defaults[{i}] has dtype {name}; allowed are float32, "
                                      f"float64, int32, int64, string"))
    return value, name


def _scalar(value, name):
    out = np.empty((), dtype=csv_fields.CSV_DTYPES[name])
    out[()] = value
    return out


class CsvDataset(Dataset):
    """Rows of CSV files as tuples of scalars, one per column."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None, header=False,
                 field_delim=",", use_quote_delim=True, na_value="", select_cols=None, exclude_cols=None,
                 name=None, *, _skip_bad_rows=False):
        ctype = rf.compression_of(compression_type, "CsvDataset")
        specs = [_column_spec(d, i) for i, d in enumerate(record_defaults)]
        if select_cols is not None and exclude_cols is not None:
            raise ValueError(with_location("CsvDataset: give select_cols or exclude_cols, not both"))
        from tapeflow.io.ops import check_select_cols
        cols = check_select_cols(select_cols, len(specs))
        delim = csv_fields.check_delim(field_delim)
        na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
        excluded = None if exclude_cols is None else sorted(int(c) for c in exclude_cols)
        source = filenames
        defaults = [v for v, _ in specs]
        names = [n for _, n in specs]

        def per_file(path):
            records = csv_records(path, ctype, use_quote_delim)
            if header:
                next(records, None)
            for index, record in enumerate(records):
                try:
                    yield row(record, index)
                except InvalidArgumentError:
                    if not _skip_bad_rows:        # make_csv_dataset(ignore_errors=True) drops the row
                        raise

        def row(record, index):
            fields = csv_fields.split_record(record, delim, use_quote_delim, index)
            if excluded is not None:
                fields = [f for c, f in enumerate(fields) if c not in excluded]
            fields = csv_fields.select(fields, cols, len(specs), index)
            return [_scalar(csv_fields.convert_column([f], defaults[c], names[c], c, na, index)[0], names[c])
                    for c, f in enumerate(fields)]

        def produce():
            return interleaved(per_file, file_names(source, "CsvDataset"), None)

        tmpl = tuple(S.LEAF for _ in specs)
        super().__init__(produce, tmpl, UNKNOWN, [((), np.dtype(csv_fields.CSV_DTYPES[n])) for n in names])


def _infer_type(values, na):
    """TensorFlow's order of preference for a column's type: int32, int64, float32, string."""
    present = [v for v in values if v and v != na]
    for name in ("int32", "int64", "float32"):
        try:
            for v in present:
                csv_fields.parse_number(v, name, 0, 0)
            return name
        except InvalidArgumentError:
            continue
    return "string"


def _zero(name):
    return b"" if name == "string" else 0


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None, label_name=None,
                     select_columns=None, field_delim=",", use_quote_delim=True, na_value="", header=True,
                     num_epochs=None, shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False, num_rows_for_inference=100,
                     compression_type=None, ignore_errors=False, encoding="utf-8"):
    """Batches of (features dict[, label]) from CSV files with a header row."""
    from tapeflow.data.readers import list_files
    names_ds = list_files(file_pattern, shuffle=False)
    files = [a[()].decode() for flat in names_ds._produce() for a in flat]
    ctype = rf.compression_of(compression_type, "make_csv_dataset")
    delim = csv_fields.check_delim(field_delim)
    na = na_value.encode() if isinstance(na_value, str) else bytes(na_value)
    first = csv_records(files[0], ctype, use_quote_delim)
    header_fields = [f.decode() for f in csv_fields.split_record(next(first, b""), delim, use_quote_delim)] \
        if header else None
    if column_names is None:
        if not header:
            raise ValueError(with_location("make_csv_dataset: give column_names when the files have no header"))
        column_names = header_fields
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError(with_location("make_csv_dataset: column names must be unique"))
    if select_columns is not None:
        picked = [column_names.index(c) if isinstance(c, str) else int(c) for c in select_columns]
        if any(isinstance(c, str) and c not in column_names for c in select_columns):
            raise ValueError(with_location(f"make_csv_dataset: select_columns {select_columns} are not all in "
                                           f"the columns {column_names}"))
        picked = sorted(picked)
    else:
        picked = list(range(len(column_names)))
    picked_names = [column_names[c] for c in picked]
    if label_name is not None and label_name not in picked_names:
        raise ValueError(with_location(f"make_csv_dataset: label_name {label_name!r} is not one of the columns "
                                       f"{picked_names}"))
    if column_defaults is None:
        sample = []
        records = csv_records(files[0], ctype, use_quote_delim)
        if header:
            next(records, None)
        for k, record in enumerate(records):
            if k >= num_rows_for_inference:
                break
            sample.append(csv_fields.split_record(record, delim, use_quote_delim, k))
        column_defaults = [convert_to_tensor([_zero(t)], dtypes.as_dtype(t)) for t in
                           (_infer_type([row[c] if c < len(row) else b"" for row in sample], na) for c in picked)]
    if len(column_defaults) != len(picked):
        raise ValueError(with_location(f"make_csv_dataset: {len(column_defaults)} column_defaults for "
                                       f"{len(picked)} columns"))
    def reader(names):
        return CsvDataset(names, column_defaults, compression_type=ctype, header=header, field_delim=field_delim,
                          use_quote_delim=use_quote_delim, na_value=na_value, select_cols=picked,
                          _skip_bad_rows=ignore_errors)

    # TensorFlow's pipeline, so a seeded shuffle gives its order: the file names shuffled,
    # their rows interleaved (num_parallel_reads files at a time), the rows shuffled, then
    # repeated, batched (whole batches only when endless).
    order = Dataset.from_tensor_slices(np.arange(len(files)))
    if shuffle:
        order = order.shuffle(len(files), seed=shuffle_seed)
    per_file = [_as_features(reader(f), picked_names, label_name) for f in files]
    ds = order.interleave(lambda i: per_file[int(i)], cycle_length=max(int(num_parallel_reads or 1), 1))
    if shuffle:
        ds = ds.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    if num_epochs != 1:
        ds = ds.repeat(num_epochs)
    return ds.batch(batch_size, drop_remainder=num_epochs is None)


def _as_features(rows, names, label_name):
    """Rows (tuples of columns) as {name: column} dicts, or ({...}, label) with a label column.
    Built on the flat arrays (no map), so the static shapes survive for element_spec."""
    index = collections.OrderedDict((n, i) for i, n in enumerate(names) if n != label_name)  # TF's, in column order
    structure = index if label_name is None else (index, names.index(label_name))
    order = S.flatten(structure)
    source = rows._produce

    def produce():
        for flat in source():
            yield [flat[i] for i in order]

    shapes = None if rows._shapes is None else [rows._shapes[i] for i in order]
    return Dataset(produce, S.template(structure), rows._card, shapes)
