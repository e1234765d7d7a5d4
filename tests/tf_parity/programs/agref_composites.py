"""Items of dicts and lists (composite symbols) set inside tensor if/while/for, as
TensorFlow's AutoGraph reference tests use them: an item set in one branch only is
TensorFlow's ValueError naming x['b']; an item first set in a loop is carried, with
TensorFlow's run-time check that the loop ran."""


def _msg(tf, fn, *args):
    try:
        return {"value": fn(*args)}
    except KeyError as e:
        return {"type": "KeyError", "key": "'b'" in str(e)}
    except (ValueError, tf.errors.InvalidArgumentError) as e:
        text = str(e)
        return {"type": type(e).__name__,
                "else": "must also be initialized in the else" in text,
                "main": "must also be initialized in the main" in text,
                "item": "x['b']" in text or "x['a']['b']" in text,
                "loop": "loop must iterate at least once to initialize y[\\'a\\']" in text}


def program_if_item_set_in_one_branch(tf):
    def if_imbalanced(a):
        x = {"a": a}
        if x["a"] > 0:
            x["b"] = 1
        return x

    def else_imbalanced_nested(a):
        x = {"a": {"a": a}}
        if x["a"]["a"] > 0:
            pass
        else:
            x["a"]["b"] = 1
        return x
    return {"if_py": tf.function(if_imbalanced)(1), "if_tensor": _msg(tf, tf.function(if_imbalanced), tf.constant(0)),
            "else_nested_py": tf.function(else_imbalanced_nested)(0),
            "else_nested_tensor": _msg(tf, tf.function(else_imbalanced_nested), tf.constant(1))}


def program_if_items_both_branches(tf):
    @tf.function
    def f(a):
        x = {"a": a}
        l = [a, 0]
        if x["a"] > 0:
            x["b"] = 1
            l[1] = 1
        else:
            x["b"] = -1
            l[1] = -1
        return x, l
    return {"pos": f(tf.constant(3)), "neg": f(tf.constant(-3))}


def program_while_item_first_set_in_loop(tf):
    def while_imbalanced(b):
        y = {"b": b}
        while y["b"] <= 10:
            y["a"] = y["b"] + 1
            y["b"] *= 2
        return y
    return {"five": tf.function(while_imbalanced)(tf.constant(5)),
            "eleven": _msg(tf, tf.function(while_imbalanced), tf.constant(11))}


def program_for_item_first_set_in_loop(tf):
    def for_imbalanced(n, x):
        y = {}
        for i in range(n):
            x -= i
            y["a"] = x
        return y
    return {"two": tf.function(for_imbalanced)(tf.constant(2), 0),
            "zero": _msg(tf, tf.function(for_imbalanced), tf.constant(0), 0),
            "python": tf.function(for_imbalanced)(0, 0)}


def program_list_item_in_tensor_loop(tf):
    @tf.function
    def f(x, a, b):
        y = [a, b]
        while x > 0:
            x -= 1
            y[0] += 1
        return y
    return {"r": f(tf.constant(2), 3, 0)}


def program_buggy_item_key_error(tf):
    def if_buggy(a):
        x = {"a": {"a": a}}
        if x["a"]["a"] > 0:
            x["b"]["a"] = 1
        return x
    return {"py": _msg(tf, tf.function(if_buggy), 1), "tensor": _msg(tf, tf.function(if_buggy), tf.constant(0))}
