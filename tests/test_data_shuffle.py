"""tf.data's random data sets beyond the recorded TF orders (tests/tf_parity/programs/data3_*.py):
flat memory, faults in the input, checkpoints of shuffled iterators, entropy without seeds."""
import numpy as np
import pytest

import tapeflow as tf
from tapeflow.runtime.ops import philox as P


def _counting(n, pulled, fail_at=None):
    def gen():
        for i in range(n):
            if i == fail_at:
                raise RuntimeError(f"input broke at {i}")
            pulled.append(i)
            yield i
    return tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.int64))


@pytest.mark.parametrize("buffer, take", [(1, 5), (4, 1), (4, 10), (50, 3)])
def test_shuffle_pulls_only_what_the_buffer_holds(buffer, take):
    pulled = []
    out = [int(v) for v in _counting(10 ** 6, pulled).shuffle(buffer, seed=1).take(take)]
    assert len(out) == take and len(set(out)) == take
    assert len(pulled) <= buffer + take          # streaming: never reads ahead of the buffer


def test_an_input_error_reaches_the_caller():
    pulled = []
    ds = _counting(20, pulled, fail_at=7).shuffle(3, seed=2)
    with pytest.raises(Exception, match="input broke at 7"):
        list(ds)


@pytest.mark.parametrize("reshuffle", [True, False])
def test_checkpointed_shuffle_iterator_continues_in_a_fresh_pipeline(tmp_path, reshuffle):
    make = lambda: tf.data.Dataset.range(12).shuffle(5, seed=3, reshuffle_each_iteration=reshuffle)
    it = iter(make())
    head = [int(next(it)) for _ in range(4)]
    path = tf.train.Checkpoint(it=it).save(str(tmp_path / "ckpt"))
    rest = [int(v) for v in it]
    again = iter(make())                         # as in a new process: a new data set, same seed
    tf.train.Checkpoint(it=again).restore(path)
    assert [int(v) for v in again] == rest and sorted(head + rest) == list(range(12))


def test_without_any_seed_each_data_set_draws_fresh_entropy():
    tf.random.set_seed(None)
    orders = {tuple(int(v) for v in tf.data.Dataset.range(30).shuffle(30)) for _ in range(3)}
    assert len(orders) == 3
    r = tf.data.Dataset.random().take(4)
    assert [int(v) for v in r] != [int(v) for v in tf.data.Dataset.random().take(4)]


def test_random_words_are_the_philox_stream():
    # Dataset.random(seed) without a global seed: PhiloxRandom(87654321, seed), word by word.
    tf.random.set_seed(None)
    want = P.words(*P.from_seeds(87654321, 5), 300).astype(np.int64)
    got = np.array([int(v) for v in tf.data.Dataset.random(seed=5).take(300)])
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("mode", [True, "batch"])
def test_fit_shuffle_orders_are_permutations_of_all_rows(mode):
    tf.keras.utils.set_random_seed(11)
    seen = []

    class Probe(tf.keras.Model):
        def train_step(self, data):
            seen.append(np.asarray(data[0]).reshape(-1).tolist())
            return {}

    x = np.arange(10, dtype="float32").reshape(10, 1)
    m = Probe()
    m.compile(run_eagerly=True)
    m.fit(x, x, batch_size=4, epochs=2, shuffle=mode, verbose=0)
    epochs = [sum(seen[:3], []), sum(seen[3:], [])]
    assert sorted(epochs[0]) == list(range(10)) and epochs[0] == epochs[1]   # Keras 3: same each epoch
    if mode == "batch":
        assert [sorted(b) for b in seen[:3]] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]


@pytest.mark.parametrize("look", [
    lambda ds: ds.element_spec,
    lambda ds: ds.interleave(lambda x: tf.data.Dataset.from_tensors(x)).element_spec,
    lambda ds: ds.map(lambda x: {"v": x}).element_spec,
])
def test_learning_the_structure_leaves_the_epochs_alone(look):
    make = lambda: tf.data.Dataset.range(8).shuffle(8, seed=1).map(lambda x: x * 2)
    want = [[int(v) for v in d] for d in [make()] for _ in range(2)]
    ds = make()
    look(ds)
    assert [[int(v) for v in ds] for _ in range(2)] == want
