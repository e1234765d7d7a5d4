"""Checkpoints across world sizes: written by the chief of a 2-rank run and
restored by one process, and the other way round.

    [mpiexec -n N] python checkpoint_roundtrip.py DIR save|restore
save: train 4 steps (fit with a ModelCheckpoint, then a custom loop), write
tf.train.CheckpointManager and save_weights checkpoints; every rank stores its
values in DIR/<N>-rank<r>-save.npz.  restore: restore both into fresh objects
and store what they hold in DIR/<N>-rank<r>-restore.npz.
"""
import os
import sys

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

import tapeflow as tf  # noqa: E402


def build(strategy, seed):
    tf.keras.utils.set_random_seed(seed)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((5,)), tf.keras.layers.Dense(4, activation="tanh"),
                                     tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    return model


def values(model, step):
    out = {f"w{i}": w for i, w in enumerate(model.get_weights())}
    out.update({f"slot{i}": v.numpy() for i, v in enumerate(model.optimizer.variables)})
    out["step"] = step.numpy()
    return out


def main(directory, mode):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    n, rank = strategy.num_replicas_in_sync, strategy.cluster_resolver.task_id or 0
    model = build(strategy, 100 + rank + (7 if mode == "restore" else 0))
    step = tf.Variable(np.int64(0))
    ckpt = tf.train.Checkpoint(model=model, optimizer=model.optimizer, step=step)
    manager = tf.train.CheckpointManager(ckpt, os.path.join(directory, "managed"), max_to_keep=2)
    x = np.random.default_rng(3).normal(size=(64, 5)).astype(np.float32)
    y = x.sum(axis=1, keepdims=True) * 0.3
    if mode == "save":
        if manager.latest_checkpoint:  # the other world size's checkpoint: continue from it
            with strategy.scope():
                model.optimizer.build(model.trainable_variables)
            ckpt.restore(manager.latest_checkpoint).assert_consumed()
        cbs = [tf.keras.callbacks.ModelCheckpoint(os.path.join(directory, f"fit-{n}-{{epoch}}.weights.h5"),
                                                  save_weights_only=True, verbose=1),
               tf.keras.callbacks.CSVLogger(os.path.join(directory, f"log-{n}.csv"))]
        model.fit(x, y, batch_size=16, epochs=1, shuffle=False, verbose=1, callbacks=cbs)
        step.assign_add(4)
        path = manager.save()
        model.save_weights(os.path.join(directory, f"weights-{n}.weights.h5"))
        model.save(os.path.join(directory, f"model-{n}.keras"))
        np.savez(os.path.join(directory, f"{n}-rank{rank}-save.npz"), path=path, **values(model, step))
    else:
        source = sys.argv[3]  # the world size that saved
        with strategy.scope():
            model.optimizer.build(model.trainable_variables)  # slots to restore into
        ckpt.restore(manager.latest_checkpoint).assert_consumed()
        restored = values(model, step)
        other = build(strategy, 55)
        other(x[:1])
        other.load_weights(os.path.join(directory, f"weights-{source}.weights.h5"))
        restored.update({f"loaded{i}": w for i, w in enumerate(other.get_weights())})
        whole = tf.keras.models.load_model(os.path.join(directory, f"model-{source}.keras"))
        restored.update({f"model{i}": w for i, w in enumerate(whole.get_weights())})
        restored["latest"] = manager.latest_checkpoint
        np.savez(os.path.join(directory, f"{n}-rank{rank}-restore.npz"), **restored)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
