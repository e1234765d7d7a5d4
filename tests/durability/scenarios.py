"""The saves the durability tests interrupt, and what must hold afterwards.

Each scenario prepares a directory holding completed saves of generations 1 and
2 (in the test process), then `save_next()` (in a forked child, under a
FaultPlan) saves generation 3.  `check()` (in the test process, after the
child is gone) loads what a user would load next and returns the generation
it holds, after asserting that it is exactly one completed save's values.
"""
import json
import os

import numpy as np

import tapeflow as tf


def values(gen):
    return {"w": np.arange(12, dtype=np.float32).reshape(3, 4) * 0.5 + gen,
            "step": np.int64(100 * gen)}


def make_variables(gen):
    v = values(gen)
    return tf.Variable(v["w"], name="w"), tf.Variable(v["step"], name="step")


def generation(w, step):
    """The generation whose values (w, step) hold exactly; AssertionError if none."""
    gen = int(step.numpy()) // 100
    assert int(step.numpy()) == 100 * gen and gen >= 1, f"step {step.numpy()} is no saved generation"
    np.testing.assert_array_equal(w.numpy(), values(gen)["w"])
    return gen


class Module(tf.Module):
    def __init__(self, gen):
        super().__init__()
        self.w, self.step = make_variables(gen)

    @tf.function(input_signature=[tf.TensorSpec([3, 4], tf.float32)])
    def serve(self, x):
        return {"y": x * self.w + tf.cast(self.step, tf.float32)}


def _no_debris(directory):
    """After a save in the test process, no temporary or half-deleted entry is left."""
    debris = [n for n in os.listdir(directory) if ".tapeflow-tmp-" in n or ".tapeflow-del-" in n]
    assert not debris, f"temporaries left in {directory}: {debris}"


class ManagerScenario:
    def __init__(self, max_to_keep):
        self.max_to_keep = max_to_keep
        self.name = f"CheckpointManager(max_to_keep={max_to_keep})"

    def prepare(self, d):
        self.dir = str(d)
        for gen in (1, 2):
            w, step = make_variables(gen)
            tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), self.dir, self.max_to_keep) \
                .save(checkpoint_number=gen)

    def save_next(self, plan):
        w, step = make_variables(3)
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), self.dir, self.max_to_keep)
        with plan:
            try:
                manager.save(checkpoint_number=3)
            finally:
                listed = manager.checkpoints
        return listed

    def check(self, child_listed=None):
        with open(os.path.join(self.dir, "checkpoint")) as f:
            names = json.load(f)["all_model_checkpoint_paths"]
        assert 1 <= len(names) <= self.max_to_keep, names
        gens = []
        for name in names:  # every checkpoint the state file names is complete
            w, step = make_variables(9)
            tf.train.Checkpoint(w=w, step=step).restore(os.path.join(self.dir, name))
            gens.append(generation(w, step))
        for path in child_listed or []:  # and so is every one the child's manager still lists
            w, step = make_variables(9)
            tf.train.Checkpoint(w=w, step=step).restore(path)
            generation(w, step)
        latest = tf.train.latest_checkpoint(self.dir)
        assert latest is not None and os.path.basename(latest) == names[-1]
        w, step = make_variables(9)
        manager = tf.train.CheckpointManager(tf.train.Checkpoint(w=w, step=step), self.dir, self.max_to_keep)
        assert manager.restore_or_initialize() == latest
        gen = generation(w, step)
        assert gen == max(gens)
        # Training goes on: the next save works and leaves nothing behind.
        step.assign(400)
        w.assign(values(4)["w"])
        manager.save(checkpoint_number=4)
        _no_debris(self.dir)
        return gen


class SaveScenario:
    name = "Checkpoint.save"

    def prepare(self, d):
        self.dir = str(d)
        w, step = make_variables(1)
        ckpt = tf.train.Checkpoint(w=w, step=step)
        ckpt.save(os.path.join(self.dir, "ckpt"))
        w.assign(values(2)["w"])
        step.assign(values(2)["step"])
        ckpt.save(os.path.join(self.dir, "ckpt"))

    def save_next(self, plan):
        w, step = make_variables(3)
        ckpt = tf.train.Checkpoint(w=w, step=step)
        ckpt.save_counter.assign(2)
        with plan:
            ckpt.save(os.path.join(self.dir, "ckpt"))

    def check(self, child_listed=None):
        latest = tf.train.latest_checkpoint(self.dir)
        assert latest is not None
        w, step = make_variables(9)
        ckpt = tf.train.Checkpoint(w=w, step=step)
        ckpt.restore(latest)
        gen = generation(w, step)
        assert os.path.basename(latest) == f"ckpt-{gen}"
        ckpt.save(os.path.join(self.dir, "ckpt"))
        _no_debris(self.dir)
        return gen


class WriteScenario:
    name = "Checkpoint.write over an existing path"

    def prepare(self, d):
        self.dir = str(d)
        self.path = os.path.join(self.dir, "snapshot")
        for gen in (1, 2):
            w, step = make_variables(gen)
            tf.train.Checkpoint(w=w, step=step).write(self.path)

    def save_next(self, plan):
        w, step = make_variables(3)
        with plan:
            tf.train.Checkpoint(w=w, step=step).write(self.path)

    def check(self, child_listed=None):
        w, step = make_variables(9)
        ckpt = tf.train.Checkpoint(w=w, step=step)
        ckpt.read(self.path)
        gen = generation(w, step)
        ckpt.write(self.path)
        _no_debris(self.dir)
        assert sorted(os.listdir(self.dir)) == ["snapshot"]
        return gen


class SavedModelScenario:
    name = "saved_model.save over an existing path"

    def prepare(self, d):
        self.dir = str(d)
        self.path = os.path.join(self.dir, "model")
        for gen in (1, 2):
            tf.saved_model.save(Module(gen), self.path)

    def save_next(self, plan):
        module = Module(3)
        module.serve.get_concrete_function()  # traced before the faults start
        with plan:
            tf.saved_model.save(module, self.path)

    def check(self, child_listed=None):
        loaded = tf.saved_model.load(self.path)
        gen = generation(loaded.w, loaded.step)
        x = np.ones((3, 4), np.float32)
        out = loaded.signatures["serving_default"](x=x)["y"].numpy()
        np.testing.assert_array_equal(out, x * values(gen)["w"] + np.float32(100 * gen))
        tf.saved_model.save(Module(gen), self.path)
        _no_debris(self.dir)
        assert sorted(os.listdir(self.dir)) == ["model"]
        return gen


SCENARIOS = [ManagerScenario(1), ManagerScenario(3), SaveScenario(), WriteScenario(), SavedModelScenario()]
