"""Saved models of tf.functions whose input_signature has an unknown rank (TensorSpec(None)):
saved without ever being called, loaded, and called at several ranks through the method and
the serving signature TensorFlow makes of the only signature-bearing function; trace counts
and the Python prints of tracing (TF traces once at save)."""
import contextlib
import io

from _sweep import tmp


def _module(tf, log):
    class Scaler(tf.Module):
        def __init__(self):
            self.w = tf.Variable(2.0)

        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32)])
        def f(self, x):
            log.append("traced")
            return {"sum": tf.reduce_sum(x * self.w), "rank": tf.rank(x), "scaled": x * self.w}
    return Scaler()


def program_unknown_rank_method_saved_uncalled(tf):
    log = []
    m = _module(tf, log)
    path = tmp()
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    calls = [loaded.f(tf.constant(3.0)), loaded.f(tf.constant([1.0, 2.0])), loaded.f(tf.ones([2, 3, 1]))]
    return {"sums": [c["sum"] for c in calls], "ranks": [c["rank"] for c in calls],
            "scaled": [c["scaled"] for c in calls], "traced_at_save": log[:1],
            "count": m.f.experimental_get_tracing_count() >= 1, "printed": out.getvalue()}


def program_unknown_rank_serving_signature(tf):
    m = _module(tf, [])
    path = tmp()
    tf.saved_model.save(m, path)
    loaded = tf.saved_model.load(path)
    sig = loaded.signatures["serving_default"]
    args, kwargs = sig.structured_input_signature
    r2 = sig(x=tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    r0 = sig(tf.constant(5.0))
    return {"keys": sorted(loaded.signatures.keys()), "spec_rank": kwargs["x"].shape.rank,
            "spec_dtype": kwargs["x"].dtype, "out_keys": sorted(r2), "sum2": r2["sum"], "scaled2": r2["scaled"],
            "sum0": r0["sum"], "rank0": r0["rank"], "out_sum_shape": sig.structured_outputs["sum"].shape,
            "out_scaled_rank": sig.structured_outputs["scaled"].shape.rank}


def program_unknown_rank_explicit_signature_after_calls(tf):
    log = []
    m = _module(tf, log)
    m.f(tf.constant([1.0]))
    m.f(tf.constant([[1.0]]))
    path = tmp()
    tf.saved_model.save(m, path, signatures={"serve": m.f})
    loaded = tf.saved_model.load(path)
    return {"keys": sorted(loaded.signatures.keys()),
            "serve1": loaded.signatures["serve"](tf.constant([1.0, 1.5]))["sum"],
            "serve3": loaded.signatures["serve"](tf.ones([1, 2, 2]))["rank"],
            "method": loaded.f(tf.constant([[4.0]]))["sum"], "traced": m.f.experimental_get_tracing_count() >= 1}


def program_unknown_rank_two_inputs(tf):
    class Pair(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec(None, tf.float32), tf.TensorSpec(None, tf.int32)])
        def f(self, x, n):
            return tf.reduce_sum(x) * tf.cast(tf.reduce_sum(n), tf.float32)
    path = tmp()
    tf.saved_model.save(Pair(), path)
    loaded = tf.saved_model.load(path)
    return {"a": loaded.f(tf.constant([1.0, 2.0]), tf.constant(3)),
            "b": loaded.f(tf.constant(2.0), tf.constant([[1, 2]])),
            "c": loaded.signatures["serving_default"](x=tf.ones([2, 2]), n=tf.constant([1, 1]))}
