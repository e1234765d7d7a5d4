"""tf.Module structure (submodules, variable order, name scopes) and saved-model signature
output naming: a single tensor (output_0), tuples, dicts, several signatures on one module,
a signature over a nested module's variables; CheckpointManager numbering and max_to_keep."""
import os

from _sweep import outcomes, tmp


def _tree(tf):
    class Leaf(tf.Module):
        def __init__(self, scale, name=None):
            super().__init__(name=name)
            self.scale = tf.Variable(scale, name="scale")
            self.frozen = tf.Variable(1.0, trainable=False, name="frozen")

        @tf.Module.with_name_scope
        def __call__(self, x):
            return x * self.scale

    class Root(tf.Module):
        def __init__(self):
            super().__init__(name="root")
            self.b = Leaf(2.0, name="b_leaf")
            self.a = Leaf(3.0, name="a_leaf")
            self.items = [Leaf(4.0, name="in_list")]
            self.bias = tf.Variable(0.5, name="bias")

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def single(self, x):
            return self.a(self.b(x)) + self.bias

        @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
        def pair(self, x):
            return x + 1.0, tf.reduce_sum(x)

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32, name="values")])
        def named(self, values):
            return {"doubled": values * 2.0, "first": values[0]}
    return Root()


def program_module_structure(tf):
    root = _tree(tf)
    return {"vars": [v.name for v in root.variables], "trainable": [v.name for v in root.trainable_variables],
            "non_trainable": len(root.non_trainable_variables),
            "submodules": [m.name for m in root.submodules], "name": root.name, "scope": root.name_scope.name,
            "leaf_scope": root.a.name_scope.name, "call": root.single(tf.constant([1.0, 2.0]))}


def program_signature_output_names(tf):
    root = _tree(tf)
    path = os.path.join(tmp(), "sigs")
    tf.saved_model.save(root, path, signatures={"single": root.single, "pair": root.pair, "named": root.named})
    loaded = tf.saved_model.load(path)
    x = tf.constant([1.0, 2.0])
    single = loaded.signatures["single"](x=x)
    pair = loaded.signatures["pair"](x=x)
    named = loaded.signatures["named"](values=x)
    return {"single_keys": sorted(single), "single": single["output_0"], "pair_keys": sorted(pair),
            "pair": [pair["output_0"], pair["output_1"]], "named_keys": sorted(named), "named": named["doubled"],
            "sig_names": sorted(loaded.signatures), "method": loaded.single(x),
            "structured_outputs": sorted(loaded.signatures["pair"].structured_outputs),
            "input_names": sorted(loaded.signatures["named"].structured_input_signature[1])}


def program_signature_over_nested_variables(tf):
    root = _tree(tf)
    path = os.path.join(tmp(), "nested")
    tf.saved_model.save(root, path)
    loaded = tf.saved_model.load(path)
    loaded.a.scale.assign(10.0)
    return {"after_assign": loaded.single(tf.constant([1.0])), "leaf_scale": loaded.b.scale,
            "list_leaf": loaded.items[0].scale, "no_sigs": sorted(loaded.signatures),
            "errors": outcomes({"missing_method": lambda: loaded.not_there,
                                "bad_input": lambda: loaded.single(tf.constant([[1.0]]))})}


def program_checkpoint_manager_numbering(tf):
    d = tmp()
    v = tf.Variable(0.0)
    step = tf.Variable(0, dtype=tf.int64)
    ck = tf.train.Checkpoint(v=v, step=step)
    manager = tf.train.CheckpointManager(ck, d, max_to_keep=2, checkpoint_name="model")
    paths = []
    for i in range(4):
        v.assign(float(i))
        step.assign_add(1)
        paths.append(os.path.basename(manager.save(checkpoint_number=step)))
    again = tf.train.CheckpointManager(ck, d, max_to_keep=2, checkpoint_name="model")
    v.assign(-1.0)
    ck.restore(again.latest_checkpoint)
    state = tf.train.get_checkpoint_state(d)
    return {"paths": paths, "kept": [os.path.basename(p) for p in manager.checkpoints],
            "again": [os.path.basename(p) for p in again.checkpoints], "v": v,
            "state_latest": os.path.basename(state.model_checkpoint_path),
            "state_all": [os.path.basename(p) for p in state.all_model_checkpoint_paths],
            "files_left": sorted(f.split(".")[0] for f in os.listdir(d) if f.startswith("model-")) and
            sorted({f.split(".")[0] for f in os.listdir(d) if f.startswith("model-")})}


def program_checkpoint_manager_errors(tf):
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    return outcomes({
        "zero_keep": lambda: tf.train.CheckpointManager(ck, tmp(), max_to_keep=0),
        "interval_without_counter": lambda: tf.train.CheckpointManager(ck, tmp(), 1, checkpoint_interval=5),
        "restore_or_init_empty": lambda: tf.train.CheckpointManager(ck, tmp(), 1).restore_or_initialize(),
        "latest_empty": lambda: tf.train.CheckpointManager(ck, tmp(), 1).latest_checkpoint,
    }, keep_values=True)
