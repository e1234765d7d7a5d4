"""tf.io.decode_csv, tf.data.experimental.CsvDataset and make_csv_dataset."""
import os
import tempfile


def _write(name, data):
    path = os.path.join(tempfile.mkdtemp(prefix="tfparity_csv_"), name)
    with open(path, "wb") as f:
        f.write(data)
    return path


def program_decode_csv_types_and_quotes(tf):
    out = tf.io.decode_csv(['1,2.5,"a,b",x', '3,,"q""uote",'], [[0], [7.5], [""], ["dflt"]])
    return {"cols": out, "dtypes": [c.dtype for c in out]}


def program_decode_csv_options(tf):
    return {"na": tf.io.decode_csv(["1,NA,3", "4,5,"], [[0], [-1], [9]], na_value="NA"),
            "select": tf.io.decode_csv(["1;2;3", "4;5;6"], [[0], [tf.constant(0, tf.int64)]], field_delim=";",
                                       select_cols=[0, 2]),
            "no_quote": tf.io.decode_csv(['"1",2'], [[""], [0]], use_quote_delim=False),
            "wide": tf.io.decode_csv(["3000000000,1e39,-1e-3"], [[tf.constant(0, tf.int64)], [0.0],
                                                                [tf.constant(0.0, tf.float64)]]),
            "matrix": tf.io.decode_csv([["1,2", "3,4"], ["5,6", "7,8"]], [[0], [0]]),
            "newline_in_quotes": tf.io.decode_csv(['"a\nb",1'], [[""], [0]])}


def _err(tf, records, defaults, **kw):
    try:
        tf.io.decode_csv(records, defaults, **kw)
        return "no error"
    except Exception as e:
        return type(e).__name__


def program_decode_csv_errors(tf):
    return {"required": _err(tf, [",2"], [tf.constant([], tf.int32), [1.0]]),
            "too_many": _err(tf, ["1,2,3"], [[0], [0]]),
            "too_few": _err(tf, ["1"], [[0], [0]]),
            "not_int": _err(tf, ["a,2"], [[0], [0]]),
            "float_for_int": _err(tf, ["1.5,2"], [[0], [0]]),
            "int32_range": _err(tf, ["2147483648"], [[0]]),
            "bad_quote": _err(tf, ['"ab"c,1'], [[""], [0]]),
            "quote_inside": _err(tf, ['a"b,1'], [[""], [0]]),
            "unterminated": _err(tf, ['"abc'], [[""]]),
            "cr": _err(tf, ["1,2\r"], [[0], [0]]),
            "empty_record": _err(tf, [""], [[0]]),
            "two_defaults": _err(tf, ["1,2"], [tf.constant([1, 2]), [0]]),
            "delim": _err(tf, ["1,2"], [[0], [0]], field_delim="ab"),
            "select_order": _err(tf, ["1,2,3"], [[0], [0]], select_cols=[2, 0]),
            "select_len": _err(tf, ["1,2"], [[0], [0]], select_cols=[1])}


def program_decode_csv_in_function(tf):
    @tf.function
    def f(lines):
        a, b = tf.io.decode_csv(lines, [[0.0], [0]])
        return a * 2, b + 1

    return {"out": f(tf.constant(["1.5,2", "3,4"])), "traces": f.experimental_get_tracing_count()}


def program_csv_dataset(tf):
    path = _write("c.csv", b'a,b,c\r\n1,"x,y",2.5\r\n3,"multi\nline",\n4,plain,1e3\n5,"",7')
    ds = tf.data.experimental.CsvDataset(path, [tf.int32, [""], [0.0]], header=True)
    sel = tf.data.experimental.CsvDataset(path, [[0], [0.0]], header=True, select_cols=[0, 2])
    return {"rows": list(ds.as_numpy_iterator()), "spec": ds.element_spec,
            "selected": list(sel.as_numpy_iterator())}


def program_csv_dataset_empty_line_is_a_record(tf):
    path = _write("c.csv", b"1,2\n\n3,4\n")
    return {"rows": list(tf.data.experimental.CsvDataset(path, [tf.int32, tf.int32]).as_numpy_iterator())}


def program_csv_dataset_defaults_fill_empty_line(tf):
    path = _write("c.csv", b"1,2\n\n3,4\n")
    return {"rows": list(tf.data.experimental.CsvDataset(path, [[0], [-1]], select_cols=[0, 1]).as_numpy_iterator())}


def program_make_csv_dataset(tf):
    path = _write("c.csv", b"id,name,score\n1,ann,0.5\n2,bob,\n3,,1.5\n")
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False, num_epochs=1)
    batches = [{k: v.numpy() for k, v in b.items()} for b in ds]
    lab = tf.data.experimental.make_csv_dataset(path, batch_size=2, shuffle=False, num_epochs=1,
                                                label_name="score", select_columns=["id", "score"],
                                                column_defaults=[0, 0.0])
    return {"batches": batches, "spec": dict(ds.element_spec), "labelled": [(dict(f), l) for f, l in lab],
            "names": dict(tf.data.experimental.make_csv_dataset(path, batch_size=3, shuffle=False, num_epochs=1,
                                                                column_names=["x", "y", "z"]).element_spec)}


def program_make_csv_dataset_epochs_and_shuffle(tf):
    path = _write("c.csv", b"k,v\n" + b"".join(b"%d,%d\n" % (i, i * i) for i in range(7)))
    ds = tf.data.experimental.make_csv_dataset(path, batch_size=3, shuffle=True, shuffle_seed=1, num_epochs=2)
    seen = sorted(int(k) for b in ds for k in b["k"].numpy())
    inferred = tf.data.experimental.make_csv_dataset(path, batch_size=7, shuffle=False, num_epochs=1)
    return {"seen": seen, "card": int(ds.cardinality()), "types": {k: s.dtype for k, s in
                                                                   inferred.element_spec.items()}}
