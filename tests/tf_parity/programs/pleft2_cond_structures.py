"""Branches of different structures in a tf.function, as TF 2.21 reports them: tf.cond,
tf.case, tf.switch_case and a conditional expression count the flat outputs first (cond_v2's
AssertionError) and then compare the nesting (TypeError: list vs tuple, other nesting, dict
keys, namedtuple types); an AutoGraph `if` statement checks each variable's nesting
(TypeError).  A dtype mismatch is TypeError; None or a name set in one branch only stays
ValueError.  Eagerly tf.cond runs one branch and checks nothing."""
import collections

_Pair = collections.namedtuple("_Pair", "p q")
_Other = collections.namedtuple("_Other", "p q")


def _error_of(tf, fn):
    try:
        fn(tf.constant(1.0))
        return "ok"
    except (AssertionError, TypeError, ValueError) as exc:
        return type(exc).__name__



def _cases(tf):
    return {
        "cond_count": lambda x: tf.cond(x > 0, lambda: (x, x), lambda: x),
        "cond_count_tuples": lambda x: tf.cond(x > 0, lambda: (x, x), lambda: (x,)),
        "cond_nesting": lambda x: tf.cond(x > 0, lambda: (x, (x, x)), lambda: (x, x, x)),
        "cond_list_tuple": lambda x: tf.cond(x > 0, lambda: [x, x], lambda: (x, x)),
        "cond_leaf_list": lambda x: tf.cond(x > 0, lambda: x, lambda: [x]),
        "cond_dict_keys": lambda x: tf.cond(x > 0, lambda: {"a": x}, lambda: {"b": x}),
        "cond_namedtuples": lambda x: tf.cond(x > 0, lambda: _Pair(x, x), lambda: _Other(x, x)),
        "cond_dtype": lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32)),
        "cond_none": lambda x: tf.cond(x > 0, lambda: None, lambda: x),
        "case_count": lambda x: tf.case([(x > 0, lambda: (x, x))], default=lambda: x),
        "switch_count": lambda x: tf.switch_case(tf.cast(x, tf.int32), [lambda: (x, x), lambda: x]),
        "switch_nesting": lambda x: tf.switch_case(tf.cast(x, tf.int32), [lambda: (x, (x,)), lambda: (x, x)]),
    }


def program_cond_branch_structures_in_a_function(tf):
    return {name: _error_of(tf, tf.function(body)) for name, body in _cases(tf).items()}


def program_cond_same_structures_still_work(tf):
    f = tf.function(lambda x: tf.cond(x > 0, lambda: {"a": (x, [x])}, lambda: {"a": (-x, [x * 2])}))
    return {"pos": f(tf.constant(1.0)), "neg": f(tf.constant(-1.0))}


def program_cond_eagerly_checks_nothing(tf):
    return {"true": tf.cond(tf.constant(True), lambda: (1.0, 2.0), lambda: 1.0),
            "false": tf.cond(tf.constant(False), lambda: [1.0], lambda: {"a": 2.0})}


def program_if_statement_branch_structures(tf):
    def count(x):
        if x > 0:
            y = (x, x)
        else:
            y = x
        return y

    def list_tuple(x):
        if x > 0:
            y = [x]
        else:
            y = (x,)
        return y

    def nesting(x):
        if x > 0:
            y = (x, (x, x))
        else:
            y = (x, x, x)
        return y

    def dict_values(x):
        if x > 0:
            y = {"a": (x, x)}
        else:
            y = {"a": x}
        return y

    def ternary_count(x):
        return x if x > 0 else (x, x)

    def ternary_types(x):
        return (x,) if x > 0 else [x]

    def one_branch(x):
        if x > 0:
            y = x
        return y

    def dtypes(x):
        if x > 0:
            y = x
        else:
            y = tf.cast(x, tf.int32)
        return y
    return {f.__name__: _error_of(tf, tf.function(f)) for f in (count, list_tuple, nesting, dict_values, ternary_count,
                                                              ternary_types, one_branch, dtypes)}
