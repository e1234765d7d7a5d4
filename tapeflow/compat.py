"""tf.compat: `v2` is tapeflow itself; `v1` holds the TensorFlow 1 names that
eager programs use and falls back to tapeflow's (TF2) names for the rest.

TF1 graph mode (placeholders, sessions, disable_eager_execution) is not part of
tapeflow: those names raise an error that says to use tf.function instead.
"""
import logging as _logging
import sys
import types

import tapeflow
from tapeflow import compat_v1 as _c1
from tapeflow import compat_v1_image as _v1_image
from tapeflow import compat_v1_ops as _v1_ops
from tapeflow import compat_v1_eager as _v1_eager
from tapeflow import compat_v1_graph as _v1_graph
from tapeflow import compat_v1_variables as _v1_variables
from tapeflow.runtime.ops import random_ops as _random_ops
from tapeflow import train as _train
from tapeflow.train import optimizers as _optimizers
from tapeflow.train import v1_saver as _v1_saver
from tapeflow.summary import v1 as _v1_summary
from tapeflow.graph_api import GRAPH_MODE_ADVICE
from tapeflow.runtime.errors import with_location


def _graph_mode_only(name):
    def unsupported(*args, **kwargs):
        raise NotImplementedError(with_location(f"tf.compat.v1.{name}: {GRAPH_MODE_ADVICE}"))
    unsupported.__name__ = name
    return unsupported


def _set_verbosity(level):
    _logging.getLogger("tensorflow").setLevel(level)


def _get_verbosity():
    return _logging.getLogger("tensorflow").getEffectiveLevel()


_v1_logging = types.SimpleNamespace(
    DEBUG=_logging.DEBUG, INFO=_logging.INFO, WARN=_logging.WARN, WARNING=_logging.WARNING,
    ERROR=_logging.ERROR, FATAL=_logging.FATAL, set_verbosity=_set_verbosity, get_verbosity=_get_verbosity,
    debug=lambda msg, *a: _logging.getLogger("tensorflow").debug(msg, *a),
    info=lambda msg, *a: _logging.getLogger("tensorflow").info(msg, *a),
    warning=lambda msg, *a: _logging.getLogger("tensorflow").warning(msg, *a),
    warn=lambda msg, *a: _logging.getLogger("tensorflow").warning(msg, *a),
    error=lambda msg, *a: _logging.getLogger("tensorflow").error(msg, *a),
)


def _enable_v2_behavior():
    """TF2 behaviour is the only behaviour in tapeflow."""


def _set_random_seed(seed):
    tapeflow.random.set_seed(seed)


class _Keras3Layers(types.ModuleType):
    """tf.compat.v1.layers under Keras 3, as TensorFlow 2.21 has it: every name raises."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(f"`{name}` is not available with Keras 3.")


class _V1Module(types.ModuleType):
    """tf.compat.v1: its own TF1 names, else tapeflow's."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        for space in (tapeflow, tapeflow.math):  # TF1 kept the math ops at the top (tf.segment_sum, ...)
            try:
                return getattr(space, name)
            except AttributeError:
                pass
        raise AttributeError(f"tf.compat.v1.{name} is not provided by tapeflow") from None


def _tf1_files():
    """TF1's tf.io (with tf_record_iterator), tf.python_io and CamelCase tf.gfile."""
    from tapeflow import io as _io
    from tapeflow.io import gfile as g
    io_v1 = types.SimpleNamespace(**{n: getattr(_io, n) for n in _io.__all__},
                                  tf_record_iterator=_io.tf_record_iterator)
    python_io = types.SimpleNamespace(TFRecordWriter=_io.TFRecordWriter, TFRecordOptions=_io.TFRecordOptions,
                                      tf_record_iterator=_io.tf_record_iterator)
    gfile_v1 = types.SimpleNamespace(
        GFile=g.GFile, Open=g.GFile, FastGFile=g.GFile, Exists=g.exists, Glob=g.glob, MakeDirs=g.makedirs,
        MkDir=g.mkdir, ListDirectory=g.listdir, Remove=g.remove, Rename=g.rename, IsDirectory=g.isdir,
        Copy=g.copy, DeleteRecursively=g.rmtree, Walk=g.walk, Stat=g.stat)
    return {"io": io_v1, "python_io": python_io, "gfile": gfile_v1}


v1 = _V1Module("tapeflow.compat.v1", "tf.compat.v1: TensorFlow 1 names on tapeflow.")
v1.__dict__.update(
    enable_eager_execution=_c1.enable_eager_execution, executing_eagerly=_c1.executing_eagerly,
    enable_v2_behavior=_enable_v2_behavior, random_normal=_c1.random_normal, random_uniform=_c1.random_uniform,
    truncated_normal=_c1.truncated_normal, log=_c1.log, logging=_v1_logging,
    layers=_Keras3Layers("tapeflow.compat.v1.layers"), **_c1.v1_reductions(), **_v1_variables.NAMES,
    **_tf1_files(), set_random_seed=_set_random_seed, get_seed=_random_ops.get_seed, losses=_c1.losses_namespace("tapeflow.compat.v1.losses", tf1_mse=True),
    train=types.SimpleNamespace(
        GradientDescentOptimizer=_train.GradientDescentOptimizer, MomentumOptimizer=_train.MomentumOptimizer,
        AdamOptimizer=_train.AdamOptimizer, Optimizer=_train.Optimizer,
        RMSPropOptimizer=_train.RMSPropOptimizer, AdagradOptimizer=_train.AdagradOptimizer,
        AdadeltaOptimizer=_optimizers.AdadeltaOptimizer, FtrlOptimizer=_optimizers.FtrlOptimizer,
        ProximalGradientDescentOptimizer=_optimizers.ProximalGradientDescentOptimizer,
        ProximalAdagradOptimizer=_optimizers.ProximalAdagradOptimizer,
        exponential_decay=_train.exponential_decay, **_v1_ops.DECAYS, Saver=_v1_saver.Saver,
        get_or_create_global_step=_train.get_or_create_global_step, get_global_step=_train.get_global_step,
        Checkpoint=_train.Checkpoint, CheckpointManager=_train.CheckpointManager,
        latest_checkpoint=_train.latest_checkpoint),
    **{n: _graph_mode_only(n) for n in (
        "disable_eager_execution", "disable_v2_behavior")},
    get_default_graph=_v1_graph.get_default_graph, reset_default_graph=_v1_graph.reset_default_graph,
    **_v1_eager.NAMES,
)
v1.__dict__.update(_v1_ops.NAMES)
v1.image = _v1_image.namespace()
v1.summary = _v1_ops.FallbackNamespace("tapeflow.compat.v1.summary", tapeflow.summary, **_v1_summary.NAMES)
v1.nn.rnn_cell = _Keras3Layers("tapeflow.compat.v1.nn.rnn_cell")  # TF 2.21's v1 cells need Keras 2
sys.modules[v1.__name__] = v1

v2 = tapeflow
