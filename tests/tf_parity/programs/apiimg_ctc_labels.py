"""tf.nn.collapse_repeated, tf.nn.ctc_unique_labels and tf.nn.compute_accidental_hits as TF 2.21
computes them: runs, lengths shorter than the row, repeated candidates, dtypes, graphs, errors."""


def program_collapse_repeated(tf):
    labels = tf.constant([[1, 1, 2, 2, 2, 3], [4, 4, 4, 4, 5, 5], [7, 8, 7, 7, 0, 0]])
    traces = []

    @tf.function
    def graph(x, n):
        traces.append(1)
        return tf.nn.collapse_repeated(x, n)

    return {"full": tf.nn.collapse_repeated(labels, [6, 6, 6]),
            "short": tf.nn.collapse_repeated(labels, tf.constant([2, 5, 3], tf.int64)),
            "int64": tf.nn.collapse_repeated(tf.cast(labels, tf.int64), [3, 1, 6]),
            "graph": graph(labels, tf.constant([6, 4, 2])),
            "graph_again": graph(labels, tf.constant([1, 1, 1])),
            "traces": len(traces)}


def program_ctc_unique_labels(tf):
    labels = tf.constant([[3, 1, 3, 2, 1, 0], [5, 5, 5, 5, 5, 5], [0, 1, 2, 3, 4, 5]])
    return {"eager": tf.nn.ctc_unique_labels(labels),
            "int64": tf.nn.ctc_unique_labels(tf.cast(labels, tf.int64)),
            "graph": tf.function(tf.nn.ctc_unique_labels)(labels)}


def _catch(fn):
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the exception class is the recorded value
        return type(e).__name__


def program_compute_accidental_hits(tf):
    true = tf.constant([[1, 4], [2, 2], [7, 3]], tf.int64)
    sampled = tf.constant([3, 1, 2, 9, 1], tf.int64)
    hits = tf.nn.compute_accidental_hits
    res = hits(true, sampled, 2)
    return {"hits": res, "fields": list(res._fields),
            "none": hits(tf.constant([[5], [6]], tf.int64), sampled, 1),
            "graph": tf.function(lambda t, s: hits(t, s, 2))(true, sampled),
            "bad_num_true": _catch(lambda: hits(true, sampled, 3)),
            "int32": _catch(lambda: hits(tf.cast(true, tf.int32), sampled, 2))}
