"""Dataset sources that read from outside: Python generators and SQL queries."""
import os
import sqlite3

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import UNKNOWN
from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import TensorBase


def _specs_from(output_types, output_shapes, output_signature):
    """(template, [(dtype, shape or None)]) from TF's two ways of declaring elements."""
    if output_signature is not None:
        tmpl = S.template(output_signature)
        specs = [(dtypes.as_dtype(s.dtype), None if s.shape is None else _shape_tuple(s.shape))
                 for s in S.flatten(output_signature)]
        return tmpl, specs
    if output_types is None:
        raise TypeError(with_location(
            "Dataset.from_generator: give output_signature (TensorSpecs) or output_types"))
    tmpl = S.template(output_types)
    types = [dtypes.as_dtype(t) for t in S.flatten(output_types)]
    if output_shapes is None:
        shapes = [None] * len(types)
    elif isinstance(output_types, (tuple, dict)):
        shapes = _flatten_shapes(output_shapes)
    else:
        shapes = [output_shapes]
    if len(shapes) != len(types):
        raise ValueError(with_location(
            f"Dataset.from_generator: {len(types)} output_types but {len(shapes)} output_shapes"))
    return tmpl, [(t, None if sh is None else _shape_tuple(sh)) for t, sh in zip(types, shapes)]


def _flatten_shapes(shapes):
    """Flatten a structure of shapes, where a shape is a list/TensorShape/tuple of ints."""
    if isinstance(shapes, dict):
        return [s for k in sorted(shapes) for s in _flatten_shapes(shapes[k])]
    if isinstance(shapes, tuple) and any(isinstance(s, (tuple, list, dict)) or hasattr(s, "dims")
                                         for s in shapes):
        return [s for part in shapes for s in _flatten_shapes(part)]
    return [shapes]


def _shape_tuple(shape):
    dims = shape.dims if hasattr(shape, "dims") else shape
    return None if dims is None else tuple(None if d is None else int(d) for d in dims)


def _conform(value, dtype, shape, where):
    arr = S.to_array(value)
    if arr.dtype != dtype.np:
        if np.can_cast(arr.dtype, dtype.np, "same_kind") or (arr.dtype.kind in "iub" and dtype.is_floating):
            arr = arr.astype(dtype.np)
        else:
            raise TypeError(with_location(f"{where}: expected dtype {dtype.name}, got {arr.dtype}"))
    if shape is not None and (arr.ndim != len(shape) or
                              any(d is not None and d != a for d, a in zip(shape, arr.shape))):
        raise ValueError(with_location(f"{where}: expected shape {list(shape)}, got {list(arr.shape)}"))
    return arr


def from_generator(generator, output_types=None, output_shapes=None, args=None, output_signature=None,
                   name=None):
    """Elements from `generator(*args)` (called anew for every pass), checked against
    the declared dtypes and shapes (None dims match any size)."""
    if not callable(generator):
        raise TypeError(with_location("Dataset.from_generator: `generator` must be a callable returning an iterator"))
    tmpl, specs = _specs_from(output_types, output_shapes, output_signature)
    # TF hands the generator its args as NumPy values, not tensors
    call_args = tuple(a.numpy() if isinstance(a, TensorBase) else a for a in args) if args is not None else ()

    def produce():
        for i, element in enumerate(generator(*call_args)):
            values = S.flatten(element) if isinstance(element, (tuple, dict)) else [element]
            if len(values) != len(specs):
                raise ValueError(with_location(
                    f"Dataset.from_generator: element {i} has {len(values)} components, "
                    f"the declared structure has {len(specs)}"))
            yield [_conform(v, dt, sh, f"Dataset.from_generator: element {i}, component {k}")
                   for k, (v, (dt, sh)) in enumerate(zip(values, specs))]

    shapes = [(sh, dt.np) for dt, sh in specs] if all(sh is not None for _, sh in specs) else None
    return Dataset(produce, tmpl, UNKNOWN, shapes)


_SQL_TYPES = {int: dtypes.int64, float: dtypes.float64, bool: dtypes.bool_}


def from_sql(connection_or_path, query, params=(), output_types=None, fetch_size=256, name=None):
    """Rows of an SQL query as tuples of scalars, streamed `fetch_size` rows at a time.

    `connection_or_path`: a path to an SQLite file (opened per pass, closed after)
    or any DB-API 2 connection (a new cursor per pass).  Column dtypes come from
    `output_types` or from the first row (int -> int64, float -> float64); a NULL,
    a string or a value that does not fit its column's dtype is an error naming the
    row and the column.
    """
    single = output_types is not None and not isinstance(output_types, (tuple, list))
    declared = None if output_types is None else \
        [dtypes.as_dtype(t) for t in ([output_types] if single else output_types)]

    def connect():
        if isinstance(connection_or_path, (str, os.PathLike)):
            if not os.path.exists(connection_or_path):
                raise FileNotFoundError(with_location(f"Dataset.from_sql: no database file {connection_or_path!r}"))
            return sqlite3.connect(os.fspath(connection_or_path)), True
        return connection_or_path, False

    def produce():
        conn, owned = connect()
        cursor = conn.cursor()
        try:
            cursor.execute(query, tuple(params))
            names = [d[0] for d in cursor.description or []]
            types = declared
            row_index = 0
            while True:
                rows = cursor.fetchmany(fetch_size)
                if not rows:
                    return
                for row in rows:
                    if types is None:
                        types = [_infer(v, names[k], row_index) for k, v in enumerate(row)]
                    if len(row) != len(types):
                        raise ValueError(with_location(
                            f"Dataset.from_sql: the query returns {len(row)} columns, "
                            f"output_types has {len(types)}"))
                    yield [_sql_value(v, types[k], names[k], row_index) for k, v in enumerate(row)]
                    row_index += 1
        finally:
            cursor.close()
            if owned:
                conn.close()

    if single:
        return Dataset(produce, S.LEAF, UNKNOWN, [((), declared[0].np)])
    if declared is not None:
        return Dataset(produce, tuple(S.LEAF for _ in declared), UNKNOWN, [((), t.np) for t in declared])

    def tmpl_fn():  # the number of columns is known once the query has run
        first = next(iter(produce()), None)
        if first is None:
            raise ValueError("Dataset.from_sql: the query returned no rows, so its columns are unknown; "
                             "pass output_types")
        return tuple(S.LEAF for _ in first)

    return Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=tmpl_fn)


def _infer(value, column, row):
    for py, dt in _SQL_TYPES.items():
        if type(value) is py:
            return dt
    what = "NULL" if value is None else type(value).__name__
    raise TypeError(with_location(
        f"Dataset.from_sql: column {column!r} of row {row} is {what}; only integer and real "
        f"columns are supported (cast in SQL, or pass output_types)"))


def _sql_value(value, dtype, column, row):
    if value is None:
        raise ValueError(with_location(f"Dataset.from_sql: column {column!r} of row {row} is NULL"))
    if isinstance(value, (str, bytes)):
        raise TypeError(with_location(
            f"Dataset.from_sql: column {column!r} of row {row} is text ({value!r}); expected {dtype.name}"))
    if dtype.is_integer and isinstance(value, float) and value != int(value):
        raise TypeError(with_location(
            f"Dataset.from_sql: column {column!r} of row {row} is {value!r}, not an integer ({dtype.name})"))
    return np.asarray(value, dtype=dtype.np)

