"""tf.py_function / tf.numpy_function outputs inside Dataset.map (issue #11): TF traces the map
function, so their outputs have an unknown shape in element_spec (or Tout's TensorSpec shape);
set_shape / ensure_shape in the map give the shape back; the values are the function's."""
import numpy as np


def _ds(tf):
    return tf.data.Dataset.range(4)


def program_map_py_function_spec(tf):
    def pair(x):
        return x * 2, tf.constant([1.0, 2.0])

    a = _ds(tf).map(lambda x: tf.py_function(pair, [x], [tf.int64, tf.float32]))
    b = _ds(tf).map(lambda x: tf.py_function(lambda v: v + 1, [x], tf.int64))
    d = _ds(tf).map(lambda x: {"k": tf.numpy_function(lambda v: np.stack([v, v]), [x], tf.int64)})
    spec = _ds(tf).map(lambda x: tf.py_function(lambda v: tf.fill([2], v), [x], Tout=tf.TensorSpec([2], tf.int64)))
    return {"a": a.element_spec, "b": b.element_spec, "d": d.element_spec, "spec": spec.element_spec,
            "values": list(a.as_numpy_iterator()), "d_values": [e["k"] for e in d.as_numpy_iterator()]}


def program_set_shape_fixup(tf):
    def fix(x):
        y = tf.py_function(lambda v: tf.fill([3], v), [x], tf.int64)
        y.set_shape([3])
        return y

    def partial(x):
        y = tf.py_function(lambda v: tf.reshape(tf.range(v + 1), [1, -1]), [x], tf.int64)
        y.set_shape([1, None])
        return y

    c = _ds(tf).map(fix)
    p = _ds(tf).map(partial)
    e = _ds(tf).map(lambda x: tf.ensure_shape(tf.py_function(lambda v: v + 1, [x], tf.int64), []))
    return {"c": c.element_spec, "c_batched": c.batch(2).element_spec, "p": p.element_spec,
            "p_padded": p.padded_batch(2).element_spec, "e": e.element_spec,
            "values": [v.tolist() for v in c.batch(2, drop_remainder=True).as_numpy_iterator()]}


def program_unknown_shape_downstream(tf):
    b = _ds(tf).map(lambda x: tf.py_function(lambda v: tf.fill([2], v), [x], tf.int64))
    return {"batch": b.batch(2).element_spec, "batch_drop": b.batch(2, drop_remainder=True).element_spec,
            "shuffled": b.shuffle(4, seed=1).take(2).element_spec, "unbatch": b.unbatch().element_spec,
            "batch_unbatch": b.batch(2).unbatch().element_spec,
            "values": [v.tolist() for v in b.batch(3).as_numpy_iterator()]}


def program_padded_batch_needs_shapes(tf):
    b = _ds(tf).map(lambda x: tf.py_function(lambda v: tf.fill([v], v), [x], tf.int64))
    return {"spec": b.padded_batch(2).element_spec}


def program_padded_batch_with_shapes(tf):
    b = _ds(tf).map(lambda x: tf.py_function(lambda v: tf.fill([v], v), [x], tf.int64))
    out = b.padded_batch(2, padded_shapes=[None])
    return {"spec": out.element_spec, "values": [v.tolist() for v in out.as_numpy_iterator()]}


def program_iterate_in_function(tf):
    b = _ds(tf).map(lambda x: tf.py_function(lambda v: tf.fill([2], v), [x], tf.int64))

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for v in ds:
            s += tf.reduce_sum(v)
        return s

    it = iter(b)

    @tf.function
    def step():
        return next(it)

    return {"total": total(b), "first": step(), "second": step()}


def program_set_shape_incompatible(tf):
    t = tf.constant([1, 2])
    t.set_shape([2])
    t.set_shape([None])
    t.set_shape([3])
    return {"t": t}
