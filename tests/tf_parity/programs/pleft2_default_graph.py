"""tf.compat.v1.get_default_graph() while executing eagerly (TF 2.21: an empty global tf.Graph
that eager ops never add to), its common uses (operations, name lookups, name scopes, unique
names, collections, finalize, reset_default_graph), and the default graph inside a
tf.function (the graph being traced).  Building a graph in it is TF1 graph mode: as_default()
is a README-listed difference (tapeflow/compat_v1_graph.py)."""
from parity import differs


def program_default_graph_is_an_empty_graph(tf):
    g = tf.compat.v1.get_default_graph()
    tf.constant(1.0) + 1.0  # eager ops add nothing to it
    return {"is_graph": isinstance(g, tf.Graph), "ops": g.get_operations(), "same": g is tf.compat.v1.get_default_graph(),
            "building_function": g.building_function, "finalized": g.finalized, "seed": g.seed,
            "graph_def_nodes": len(g.as_graph_def().node), "eager": tf.executing_eagerly()}


def program_default_graph_name_lookups_raise(tf):
    g = tf.compat.v1.get_default_graph()
    out = {}
    for label, lookup in (("op", lambda: g.get_operation_by_name("foo")),
                          ("tensor", lambda: g.get_tensor_by_name("foo:0")),
                          ("tensor_without_index", lambda: g.get_tensor_by_name("foo")),
                          ("element", lambda: g.as_graph_element("foo:0"))):
        try:
            lookup()
            out[label] = "found"
        except (KeyError, ValueError) as exc:
            out[label] = type(exc).__name__
    return out


def program_default_graph_name_scopes_and_unique_names(tf):
    tf.compat.v1.reset_default_graph()
    g = tf.compat.v1.get_default_graph()
    with g.name_scope("a") as s1:
        with g.name_scope("b") as s2:
            pass
        with g.name_scope("a") as s3:
            pass
    with g.name_scope("a") as s4:
        pass
    with g.name_scope(None) as s5:
        pass
    with g.name_scope("c/") as s6:
        pass
    names = [g.unique_name("foo"), g.unique_name("foo"), g.unique_name("foo", mark_as_used=False), g.unique_name("foo")]
    return {"scopes": [s1, s2, s3, s4, s5, s6], "names": names}


def program_default_graph_keeps_collections(tf):
    tf.compat.v1.reset_default_graph()
    g = tf.compat.v1.get_default_graph()
    g.add_to_collection("pleft2", 3)
    tf.compat.v1.add_to_collection("pleft2", 4)
    g.get_collection_ref("pleft2_ref").append(5)
    out = {"graph": g.get_collection("pleft2"), "tf": tf.compat.v1.get_collection("pleft2"),
           "ref": tf.compat.v1.get_collection("pleft2_ref"), "keys": sorted(g.get_all_collection_keys())}
    tf.compat.v1.reset_default_graph()
    g2 = tf.compat.v1.get_default_graph()
    out.update({"new_graph": g2 is not g, "after_reset": tf.compat.v1.get_collection("pleft2"),
                "old_graph_keeps": g.get_collection("pleft2")})
    return out


def program_default_graph_finalize_leaves_eager_ops(tf):
    tf.compat.v1.reset_default_graph()
    g = tf.compat.v1.get_default_graph()
    g.finalize()
    with g.device("/cpu:0"), g.control_dependencies([]):
        value = tf.constant(2.0) * 3.0
    out = {"finalized": g.finalized, "value": value}
    tf.compat.v1.reset_default_graph()
    out["fresh_finalized"] = tf.compat.v1.get_default_graph().finalized
    return out


def program_default_graph_inside_a_function(tf):
    seen = {}

    @tf.function
    def f(x):
        g = tf.compat.v1.get_default_graph()
        seen["building_function"] = g.building_function
        seen["is_graph"] = isinstance(g, tf.Graph)
        seen["same_within_trace"] = g is tf.compat.v1.get_default_graph()
        seen["not_the_global_one"] = g is not outer
        return x * 2.0

    outer = tf.compat.v1.get_default_graph()
    return {"y": f(tf.constant(1.0)), **seen}


def program_reset_default_graph_inside_a_function_raises(tf):
    @tf.function
    def f(x):
        tf.compat.v1.reset_default_graph()
        return x
    return {"y": f(tf.constant(1.0))}


@differs("no TF1 graph-building mode: get_default_graph().as_default() raises NotImplementedError",
         {"refused": "NotImplementedError"})
def program_default_graph_as_default_builds_a_graph(tf):
    g = tf.compat.v1.get_default_graph()
    try:
        with g.as_default():
            c = tf.constant(1.0)
            return {"kind": type(c).__name__, "eager": tf.executing_eagerly(), "ops": [op.type for op in g.get_operations()]}
    except NotImplementedError:
        return {"refused": "NotImplementedError"}
    finally:
        tf.compat.v1.reset_default_graph()
