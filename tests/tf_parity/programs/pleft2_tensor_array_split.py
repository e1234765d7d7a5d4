"""TensorArray.split with unequal lengths (TF 2.21): each element is its own slice of the rows,
read() / concat() / size() work, stack() and a gather of different shapes are the Pack op's
InvalidArgumentError, element_shape is unknown, a write replaces one element.  Inside a
tf.function tapeflow's array is one buffer of same-shaped elements: unequal lengths there are
NotImplementedError (README: "Where tapeflow differs")."""
from parity import differs


def _error_of(fn):
    try:
        fn()
        return "ok"
    except Exception as exc:  # noqa: BLE001 - the class name is what is compared
        return type(exc).__name__


def _split(tf, **kwargs):
    return tf.TensorArray(tf.float32, size=3, **kwargs).split(tf.range(6.0), [1, 2, 3])


def program_split_unequal_lengths_eagerly(tf):
    # A fresh array per question: an eager read clears its element (clear_after_read).
    return {"reads": [_split(tf).read(i) for i in range(3)], "tensor_index": _split(tf).read(tf.constant(2)),
            "size": _split(tf).size(), "concat": _split(tf).concat(), "element_shape": _split(tf).element_shape,
            "loose_element_shape": _split(tf, infer_shape=False).element_shape,
            "stack": _error_of(_split(tf).stack), "gather_one": _split(tf).gather([0]),
            "gather_two": _error_of(lambda: _split(tf).gather([1, 2])), "read_past_end": _error_of(lambda: _split(tf).read(3))}


def program_split_unequal_rows_of_a_matrix(tf):
    def rows():
        return tf.TensorArray(tf.int32, size=2).split(tf.reshape(tf.range(6), [3, 2]), [1, 2])
    return {"first": rows().read(0), "second": rows().read(1), "concat": rows().concat(),
            "empty_first": tf.TensorArray(tf.int32, size=2).split(tf.range(3), [0, 3]).read(1)}


def program_write_after_unequal_split(tf):
    written = _split(tf).write(0, tf.constant([9.0, 9.0, 9.0, 9.0]))
    grown = tf.TensorArray(tf.float32, size=0, dynamic_size=True).split(tf.range(3.0), [1, 2]).write(2, [7.0])
    return {"concat": written.concat(), "size": written.size(), "grown": grown.concat()}


@differs("tapeflow's traced TensorArray holds elements of one shape: unequal split lengths in a tf.function "
         "raise NotImplementedError", {"refused": "NotImplementedError"})
def program_split_unequal_lengths_in_a_function(tf):
    @tf.function
    def f(x):
        ta = tf.TensorArray(tf.float32, size=3).split(x, [1, 2, 3])
        return ta.concat(), ta.read(2)
    try:
        return {"out": f(tf.range(6.0))}
    except NotImplementedError:
        return {"refused": "NotImplementedError"}
