"""Shared by the saved model tamper and fuzz tests: a small model with a loop,
a cond, variables, a file constant and a variable update, and helpers that edit
the JSON of a saved copy."""
import json
import os
import shutil

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.saved_model import SavedModelError

RNG = np.random.default_rng(7)
BIG = RNG.normal(size=(4, 5)).astype(np.float32)  # > 16 elements: written to constants/0.npy
X = RNG.normal(size=(2, 4)).astype(np.float32)


class Model:
    def __init__(self):
        self.w = tf.Variable(RNG.normal(size=(4, 5)).astype(np.float32), name="w")
        self.b = tf.Variable(np.zeros(5, np.float32), name="b")
        self.steps = tf.Variable(np.int64(0), trainable=False, name="steps")

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32, name="x")])
    def serve(self, x):
        h = tf.matmul(x, self.w * BIG) + self.b
        i = tf.constant(0)
        while i < 3:
            if tf.reduce_sum(h) > 0:
                h = h * 0.5
            else:
                h = h + 1.0
            i += 1
        self.steps.assign_add(tf.constant(1, tf.int64))
        return {"y": tf.transpose(h, [1, 0]), "n": tf.shape(x)[0]}


def save_model(path):
    """Save a Model with its serving signature at `path`; returns what it computes on X."""
    model = Model()
    tf.saved_model.save(model, path, signatures=model.serve)
    return model.serve(tf.constant(X))["y"].numpy()


def fresh(source, path):
    """`path` becomes a pristine copy of the saved model at `source`."""
    shutil.rmtree(path, ignore_errors=True)
    shutil.copytree(source, path)


def program_path(path):
    return os.path.join(path, "saved_model.json")


def edit(path, fn):
    with open(program_path(path)) as f:
        program = json.load(f)
    fn(program)
    with open(program_path(path), "w") as f:
        json.dump(program, f)


def graph(program):
    return program["functions"][program["signatures"]["serving_default"]["function"]]["graph"]


def node(program, op):
    return next(n for n in graph(program)["nodes"] if n["op"] == op)


def append(program, new_node):
    """Add a node at the end of the serving graph (the next free id)."""
    g = graph(program)
    g["nodes"].append(dict(new_node, id=g["nodes"][-1]["id"] + 1))


def load_fails(path, match):
    with pytest.raises(SavedModelError, match=match):
        tf.saved_model.load(path)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A saved model of Model, written once per test module."""
    path = str(tmp_path_factory.mktemp("sm") / "model")
    save_model(path)
    return path


@pytest.fixture
def copy(saved, tmp_path):
    """A fresh copy of `saved` for one test to tamper with."""
    dst = str(tmp_path / "copy")
    fresh(saved, dst)
    return dst
