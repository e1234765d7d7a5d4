"""Dataset sources that read from outside: Python generators and SQL queries."""
import math
import os
import sqlite3
import threading

import numpy as np

from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset, graph_being_traced
from tapeflow.data.elements import UNKNOWN
from tapeflow.runtime import dtypes
from tapeflow.runtime.shape import TensorShape
from tapeflow.runtime.tensor import OperatorNotAllowedInGraphError
from tapeflow.runtime.errors import InvalidArgumentError, with_location
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
    if dtype is not dtypes.string and isinstance(value, (list, tuple, int, float, bool)):
        # Python values convert at the declared dtype, as TF's generator op does
        # (np.asarray(value, dtype): [] is an empty int32 vector, 1.5 truncates to 1)
        try:
            arr = np.asarray(value, dtype=dtype.np)
        except (TypeError, ValueError, OverflowError) as exc:
            raise TypeError(with_location(f"{where}: {value!r} cannot be converted to {dtype.name}: {exc}")) from None
    else:
        arr = S.to_array(value)
    if arr.dtype != dtype.np:
        if np.can_cast(arr.dtype, dtype.np, "same_kind") or (arr.dtype.kind in "iub" and dtype.is_floating):
            arr = arr.astype(dtype.np)
        else:  # TF: the generator op's InvalidArgumentError, raised where the element is read
            raise InvalidArgumentError(with_location(f"{where}: expected dtype {dtype.name}, got {arr.dtype}"))
    if shape is not None and (arr.ndim != len(shape) or
                              any(d is not None and d != a for d, a in zip(shape, arr.shape))):
        raise InvalidArgumentError(with_location(f"{where}: expected shape {list(shape)}, got {list(arr.shape)}"))
    return arr


def _flatten_up_to(tmpl, element):
    """The components of a generated element, split only as far as the declared structure:
    a tuple (or list) where the signature has one TensorSpec is that component's value
    (TF converts `yield (i,)` under TensorSpec((1,)) to one [1] tensor)."""
    if tmpl is S.LEAF or not isinstance(element, (tuple, dict)):
        return [element]
    if isinstance(tmpl, dict):
        if not isinstance(element, dict):
            return S.flatten(element)  # the component count check below names the mismatch
        return [v for k in sorted(tmpl) for v in _flatten_up_to(tmpl[k], element.get(k))]
    if isinstance(element, dict) or len(element) != len(tmpl):
        return S.flatten(element) if isinstance(element, (tuple, dict)) else [element]
    return [v for t, e in zip(tmpl, element) for v in _flatten_up_to(t, e)]


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
        if graph_being_traced() is not None:
            # A Python loop over this data set while a tf.function is traced would run the
            # generator once, at trace time, and bake its elements into the graph: every
            # later call would see the first call's elements (TensorFlow runs the
            # generator on each call).  The function runs eagerly instead (its fallback).
            raise OperatorNotAllowedInGraphError(with_location(
                "Dataset.from_generator: iterating it inside a tf.function would run the Python "
                "generator only once, while tracing"))
        for i, element in enumerate(generator(*call_args)):
            values = _flatten_up_to(tmpl, element)
            if len(values) != len(specs):
                raise ValueError(with_location(
                    f"Dataset.from_generator: element {i} has {len(values)} components, "
                    f"the declared structure has {len(specs)}"))
            yield [_conform(v, dt, sh, f"Dataset.from_generator: element {i}, component {k}")
                   for k, (v, (dt, sh)) in enumerate(zip(values, specs))]

    shapes = [(sh, dt.np) for dt, sh in specs] if all(sh is not None for _, sh in specs) else None
    out = Dataset(produce, tmpl, UNKNOWN, shapes, python_source="from_generator")
    if shapes is None:  # TF's spec of a component declared without a shape: unknown rank
        out._static = lambda: [TensorShape(None) if sh is None else None for _, sh in specs]
    return out


_SQL_TYPES = {int: dtypes.int64, float: dtypes.float64, bool: dtypes.bool_}


def from_sql(connection_or_path, query, params=(), output_types=None, fetch_size=256, name=None):
    """Rows of an SQL query as tuples of scalars, streamed `fetch_size` rows at a time.

    `connection_or_path`: a path to an SQLite file (opened per pass, closed after)
    or any DB-API 2 connection (a new cursor per pass).  Column dtypes come from
    `output_types` or from the first row (int -> int64, float -> float64); a NULL,
    a string or a value that does not fit its column's dtype (out of range, a
    fraction for an integer, anything but 0/1 for a bool) is an error naming the
    row and the column.  The query runs once per pass: without `output_types`, the
    cursor opened to learn the columns from the first row is the one the first
    pass reads (a pass that stops within the first 4096 rows leaves its cursor to
    the next pass, which reads those rows again and goes on).
    """
    single = output_types is not None and not isinstance(output_types, (tuple, list))
    declared = None if output_types is None else \
        [dtypes.as_dtype(t) for t in ([output_types] if single else output_types)]
    pending = []  # a cursor a pass stopped early left, with the rows it fetched, for the next pass
    learned = []  # the element structure, from the first row any pass or tmpl_fn read
    lock = threading.Lock()

    def connect():
        if isinstance(connection_or_path, (str, os.PathLike)):
            if not os.path.exists(connection_or_path):
                raise FileNotFoundError(with_location(f"Dataset.from_sql: no database file {connection_or_path!r}"))
            return sqlite3.connect(os.fspath(connection_or_path)), True
        return connection_or_path, False

    def open_cursor():
        with lock:
            if pending:
                return pending.pop()
        conn, owned = connect()
        cursor = conn.cursor()
        try:
            cursor.execute(query, tuple(params))
        except BaseException:
            _close(conn, owned, cursor)
            raise
        return conn, owned, cursor, []

    def park(opened):
        """Keep the cursor of a pass that stopped early for the next pass (one at most)."""
        with lock:
            if pending:
                return False
            pending.append(opened)
            return True

    def produce():
        conn, owned, cursor, rows = open_cursor()
        parked = False
        # Every row fetched in this pass while there are few: a pass that stops early
        # (element_spec, the structure, take(n), a first batch) parks the cursor with
        # them, and the next pass re-reads them and goes on instead of running the
        # query again.
        fetched = list(rows)
        try:
            names = [d[0] for d in cursor.description or []]
            types = declared
            row_index = 0
            while True:
                if not rows:
                    rows = cursor.fetchmany(fetch_size)
                    if not rows:
                        return
                    if fetched is not None:
                        keep = len(fetched) + len(rows) <= max(fetch_size, _PEEK_ROWS)
                        fetched = fetched + rows if keep else None
                for row in rows:
                    if types is None:
                        types = [_infer(v, names[k], row_index) for k, v in enumerate(row)]
                        if not learned:
                            learned.append(tuple(S.LEAF for _ in row))
                    if len(row) != len(types):
                        raise ValueError(with_location(
                            f"Dataset.from_sql: the query returns {len(row)} columns, "
                            f"output_types has {len(types)}"))
                    value = [_sql_value(v, types[k], names[k], row_index) for k, v in enumerate(row)]
                    try:
                        yield value
                    except GeneratorExit:
                        if fetched is not None:
                            parked = park((conn, owned, cursor, fetched))
                        raise
                    row_index += 1
                rows = []
        finally:
            if not parked:
                _close(conn, owned, cursor)

    if single:
        return Dataset(produce, S.LEAF, UNKNOWN, [((), declared[0].np)], python_source="from_sql")
    if declared is not None:
        return Dataset(produce, tuple(S.LEAF for _ in declared), UNKNOWN, [((), t.np) for t in declared],
                       python_source="from_sql")

    def tmpl_fn():  # the number of columns is known once the query has run (a peek: see produce)
        if not learned and next(iter(produce()), None) is None:
            raise ValueError("Dataset.from_sql: the query returned no rows, so its columns are unknown; "
                             "pass output_types")
        return learned[0]

    return Dataset(produce, cardinality=UNKNOWN, shapes=None, tmpl_fn=tmpl_fn, python_source="from_sql")


_PEEK_ROWS = 4096  # rows a stopped pass keeps for the next one (see produce)


def _close(conn, owned, cursor):
    try:
        cursor.close()
    finally:
        if owned:
            conn.close()


def _infer(value, column, row):
    for py, dt in _SQL_TYPES.items():
        if type(value) is py:
            return dt
    what = "NULL" if value is None else type(value).__name__
    raise TypeError(with_location(
        f"Dataset.from_sql: column {column!r} of row {row} is {what}; only integer and real "
        f"columns are supported (cast in SQL, or pass output_types)"))


def _sql_value(value, dtype, column, row):
    """`value` as a `dtype` scalar, exactly or not at all."""
    where = f"Dataset.from_sql: column {column!r} of row {row}"
    if value is None:
        raise ValueError(with_location(f"{where} is NULL"))
    if isinstance(value, (str, bytes)):
        raise TypeError(with_location(f"{where} is text ({value!r}); expected {dtype.name}"))
    if not isinstance(value, (bool, int, float, np.generic)):
        raise TypeError(with_location(f"{where} is a {type(value).__name__}; expected {dtype.name}"))
    if dtype.is_bool:
        if isinstance(value, (float, np.floating)) or value not in (0, 1):
            raise ValueError(with_location(f"{where} is {value!r}, not a bool (0 or 1)"))
        return np.asarray(bool(value))
    if dtype.is_integer:
        if isinstance(value, (float, np.floating)):
            if not math.isfinite(value) or value != int(value):
                raise TypeError(with_location(f"{where} is {value!r}, not an integer ({dtype.name})"))
            value = int(value)
        info = np.iinfo(dtype.np)
        if not info.min <= int(value) <= info.max:
            raise ValueError(with_location(
                f"{where} is {value!r}, out of range for {dtype.name} [{info.min}, {info.max}]"))
        return np.asarray(int(value), dtype=dtype.np)
    try:
        finite = math.isfinite(value)
        with np.errstate(over="ignore"):
            out = np.asarray(value, dtype=dtype.np)
    except OverflowError:  # an integer too big even for a float64
        finite, out = True, None
    if out is None or (finite and not np.isfinite(out)):
        raise ValueError(with_location(f"{where} is {value!r}, out of range for {dtype.name}"))
    return out

