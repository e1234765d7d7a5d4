"""tf.config on a CPU-only machine (threading settings, visible and logical devices) and tf.nest
edge cases: namedtuples, dict key ordering, mixed containers, assert_same_structure's errors,
map_structure over several structures, pack_sequence_as, composites expanded."""
import collections

from _sweep import outcomes

Point = collections.namedtuple("Point", ["x", "y"])
Other = collections.namedtuple("Other", ["x", "y"])


def program_config_threading_and_devices(tf):
    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_visible_devices(cpus, "CPU")
    logical = tf.config.list_logical_devices("CPU")
    # (the thread counts are process state another test may have set: only their type is compared)
    return {"inter": type(tf.config.threading.get_inter_op_parallelism_threads()).__name__,
            "intra": type(tf.config.threading.get_intra_op_parallelism_threads()).__name__,
            "n_cpu": len(cpus), "cpu_type": cpus[0].device_type, "cpu_name": cpus[0].name,
            "logical": [d.name for d in logical], "logical_type": logical[0].device_type,
            "visible": [d.name for d in tf.config.get_visible_devices("CPU")],
            "gpus": tf.config.list_physical_devices("GPU"), "logical_gpus": tf.config.list_logical_devices("GPU"),
            "soft": tf.config.get_soft_device_placement()}


def program_config_errors(tf):
    return outcomes({
        "bad_type": lambda: tf.config.list_physical_devices("TPUX"),
        "visible_wrong_type": lambda: tf.config.set_visible_devices(tf.config.list_physical_devices("CPU"), "GPU"),
        "memory_growth_cpu": lambda: tf.config.experimental.set_memory_growth(
            tf.config.list_physical_devices("CPU")[0], True),
        "device_details": lambda: sorted(tf.config.experimental.get_device_details(
            tf.config.list_physical_devices("CPU")[0])),
    }, keep_values=True)


def program_nest_namedtuples(tf):
    p = Point(x=1, y=[2, 3])
    flat = tf.nest.flatten(p)
    mapped = tf.nest.map_structure(lambda v: v * 10, p)
    packed = tf.nest.pack_sequence_as(Point(0, [0, 0]), ["a", "b", "c"])
    return {"flat": flat, "mapped_type": type(mapped).__name__, "mapped": list(mapped),
            "packed_type": type(packed).__name__, "packed": [packed.x, packed.y],
            "same_vs_tuple": outcomes({"check": lambda: tf.nest.assert_same_structure(p, (1, [2, 3]))}),
            "same_vs_other": outcomes({"check": lambda: tf.nest.assert_same_structure(p, Other(1, [2, 3]))}),
            "no_types": outcomes({"check": lambda: tf.nest.assert_same_structure(p, (1, [2, 3]),
                                                                                check_types=False)}),
            "is_nested": [tf.nest.is_nested(p), tf.nest.is_nested(1), tf.nest.is_nested("ab")]}


def program_nest_dict_ordering(tf):
    d = {"b": 1, "a": 2, "c": {"z": 3, "y": 4}}
    od = collections.OrderedDict([("b", 1), ("a", 2)])
    packed = tf.nest.pack_sequence_as({"b": 0, "a": 0}, [10, 20])
    packed_od = tf.nest.pack_sequence_as(od, [10, 20])
    return {"flat": tf.nest.flatten(d), "flat_od": tf.nest.flatten(od),
            "packed": sorted(packed.items()), "packed_od": list(packed_od.items()),
            "packed_od_type": type(packed_od).__name__,
            "int_keys": tf.nest.flatten({2: "two", 1: "one", 3: "three"}),
            "mapped_keys": list(tf.nest.map_structure(lambda v: v, {"b": 1, "a": 2}).keys()),
            "mixed_keys": outcomes({"flatten": lambda: tf.nest.flatten({1: "a", "b": "c"})}, keep_values=True)}


def program_nest_assert_same_structure_errors(tf):
    return outcomes({
        "len": lambda: tf.nest.assert_same_structure([1, 2], [1, 2, 3]),
        "list_tuple": lambda: tf.nest.assert_same_structure([1, 2], (1, 2)),
        "list_tuple_no_types": lambda: tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False),
        "dict_keys": lambda: tf.nest.assert_same_structure({"a": 1}, {"b": 1}),
        "nested_vs_leaf": lambda: tf.nest.assert_same_structure([1, [2]], [1, 2]),
        "map_mismatch": lambda: tf.nest.map_structure(lambda a, b: a + b, [1, 2], [1]),
        "pack_short": lambda: tf.nest.pack_sequence_as([0, [0, 0]], [1, 2]),
        "pack_long": lambda: tf.nest.pack_sequence_as([0, 0], [1, 2, 3]),
        "none_leaf": lambda: tf.nest.flatten([None, (None,)]),
        "empty": lambda: tf.nest.flatten([(), [], {}]),
        "strings": lambda: tf.nest.assert_same_structure("ab", "c"),
    }, keep_values=True)


def program_nest_map_several_and_composites(tf):
    a = {"w": [1.0, 2.0], "b": (3.0,)}
    b = {"w": [10.0, 20.0], "b": (30.0,)}
    summed = tf.nest.map_structure(lambda x, y: x + y, a, b)
    rt = tf.ragged.constant([[1, 2], [3]])
    st = tf.sparse.SparseTensor([[0, 1]], [5.0], [2, 2])
    expanded = tf.nest.flatten({"r": rt, "s": st}, expand_composites=True)
    repacked = tf.nest.pack_sequence_as({"r": rt, "s": st}, expanded, expand_composites=True)
    return {"summed": summed, "n_expanded": len(expanded), "expanded_dtypes": [t.dtype for t in expanded],
            "repacked_r": repacked["r"], "repacked_s": tf.sparse.to_dense(repacked["s"]),
            "flat_plain": len(tf.nest.flatten({"r": rt, "s": st})),
            "tensor_leaf": tf.nest.flatten([tf.constant([1, 2]), (tf.constant(3),)])}
