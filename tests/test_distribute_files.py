"""AutoShardPolicy.FILE / AUTO across workers (data/file_shard.py), for both
ranks of a 2-rank world in one process (iterating a distributed dataset needs
no collective).  Expected values measured on TensorFlow 2.21 with its
auto-shard rewrite for 2 workers (tf.data.experimental.ops.distribute.
_AutoShardDataset(ds, 2, index)): the same pipelines, files and lines."""
import types

import numpy as np
import pytest

import tapeflow as tf
from tapeflow.distribute.input import DistributedDataset

P = tf.data.experimental.AutoShardPolicy


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("shards")
    for i in range(5):
        (d / f"t{i}.txt").write_text("".join(f"f{i}-l{j}\n" for j in range(3)))
        with tf.io.TFRecordWriter(str(d / f"r{i}.tfrecord")) as w:
            for j in range(2):
                w.write(f"r{i}-{j}".encode())
    return d


def _lines(i, n=3):
    return [f"f{i}-l{j}" for j in range(n)]


PIPELINES = {
    "textline4": lambda d: tf.data.TextLineDataset([str(d / f"t{i}.txt") for i in range(4)]),
    "list_files_interleave": lambda d: tf.data.Dataset.list_files(str(d / "t[0-3].txt"), shuffle=False)
    .interleave(tf.data.TextLineDataset, cycle_length=1),
    "list_files_flat_map_map": lambda d: tf.data.Dataset.list_files(str(d / "r*.tfrecord"), shuffle=False)
    .flat_map(tf.data.TFRecordDataset).map(lambda x: x),
    "reader_of_list_files": lambda d: tf.data.TextLineDataset(
        tf.data.Dataset.list_files(str(d / "t[0-3].txt"), shuffle=False)),
}
EXPECTED = {  # rank -> elements, from TensorFlow
    "textline4": (_lines(0) + _lines(2), _lines(1) + _lines(3)),
    "list_files_interleave": (_lines(0) + _lines(2), _lines(1) + _lines(3)),
    "list_files_flat_map_map": (["r0-0", "r0-1", "r2-0", "r2-1", "r4-0", "r4-1"], ["r1-0", "r1-1", "r3-0", "r3-1"]),
    "reader_of_list_files": (_lines(0) + _lines(2), _lines(1) + _lines(3)),
}


def _with(ds, policy):
    opts = tf.data.Options()
    opts.experimental_distribute.auto_shard_policy = policy
    return ds.with_options(opts)


def _rank(ds, rank, size=2):
    return DistributedDataset(ds, types.SimpleNamespace(rank=rank, size=size))


def _flat(dist):
    return [v.decode() if isinstance(v, bytes) else v for b in dist for v in np.asarray(b).tolist()]


@pytest.mark.parametrize("policy", [P.FILE, P.AUTO])
@pytest.mark.parametrize("name", sorted(PIPELINES))
def test_files_split_across_workers(files, name, policy):
    for rank in (0, 1):
        ds = _with(PIPELINES[name](files).batch(2), policy)
        assert _flat(_rank(ds, rank)) == EXPECTED[name][rank]
        assert _flat(_rank(ds, rank)) == EXPECTED[name][rank]  # a second epoch: the same files


def test_file_sharding_rebatches_each_batch_per_replica(files):
    # TF: tfrecord files r0..r4 batched by 3 on 2 workers -> rank 0 [r0-0 r0-1 r2-0] [r2-1 r4-0 r4-1],
    # rank 1 [r1-0 r1-1 r3-0] [r3-1]; each batch then cut into this rank's per-replica batches
    # (tapeflow's rule, not measured on TF: sizes differing by at most one, empty parts dropped)
    ds = _with(tf.data.TFRecordDataset([str(files / f"r{i}.tfrecord") for i in range(5)]).batch(3), P.FILE)
    parts = [np.asarray(b).tolist() for b in _rank(ds, 0)]
    assert parts == [[b"r0-0", b"r0-1"], [b"r2-0"], [b"r2-1", b"r4-0"], [b"r4-1"]]
    assert [np.asarray(b).tolist() for b in _rank(ds, 1)] == [[b"r1-0", b"r1-1"], [b"r3-0"], [b"r3-1"]]


def test_repeat_keeps_reading_this_workers_files(files):
    ds = _with(PIPELINES["textline4"](files).repeat(2).batch(3), P.AUTO)
    assert _flat(_rank(ds, 1)) == (_lines(1) + _lines(3)) * 2


@pytest.mark.parametrize("policy", [P.FILE, P.AUTO])
def test_fewer_files_than_workers(files, policy):
    ds = _with(tf.data.TextLineDataset([str(files / "t0.txt")]).batch(2), policy)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"only has 1 file\(s\), which is not enough for "
                                                             r"the required 2 shards/workers"):
        list(_rank(ds, 0))
    assert list(_rank(ds, 1)) == []  # TF: the worker with no file reads nothing
    assert _flat(_rank(_with(PIPELINES["textline4"](files).batch(2), P.FILE), 4, size=5)) == []


def test_no_file_source():
    ds = tf.data.Dataset.range(8).batch(4)
    with pytest.raises(tf.errors.NotFoundError, match="unshardable source dataset"):
        list(_rank(_with(ds, P.FILE), 0))
    # AUTO falls back to DATA: each rank its slice of every global batch
    assert [b.numpy().tolist() for b in _rank(_with(ds, P.AUTO), 1)] == [[2, 3], [6, 7]]
    assert [b.numpy().tolist() for b in _rank(ds, 0)] == [[0, 1], [4, 5]]


def test_outside_a_distributed_iterator_nothing_is_sharded(files):
    assert len(list(PIPELINES["list_files_interleave"](files))) == 12
