"""make_csv_dataset with shuffle: TensorFlow's order for a seed (files shuffled, rows shuffled,
then repeated)."""
import os
import tempfile


def _files():
    root = tempfile.mkdtemp(prefix="tfparity_data3_csv_")
    for f in range(3):
        with open(os.path.join(root, f"part{f}.csv"), "w") as out:
            out.write("k,v\n" + "".join(f"{f * 10 + i},{i * 0.5}\n" for i in range(4)))
    return os.path.join(root, "part*.csv")


def program_seeded_shuffle_order(tf):
    tf.random.set_seed(None)
    ds = tf.data.experimental.make_csv_dataset(_files(), batch_size=5, shuffle=True, shuffle_seed=3,
                                               shuffle_buffer_size=4, num_epochs=2)
    return {"k": [b["k"].numpy().tolist() for b in ds], "card": ds.cardinality()}


def program_global_seed_endless(tf):
    tf.random.set_seed(21)
    ds = tf.data.experimental.make_csv_dataset(_files(), batch_size=4, label_name="v", shuffle_buffer_size=6)
    return {"k": [f["k"].numpy().tolist() for f, _ in ds.take(5)], "spec": [str(s) for s in ds.element_spec[1:]]}


def program_unshuffled_parallel_reads(tf):
    ds = tf.data.experimental.make_csv_dataset(_files(), batch_size=6, shuffle=False, num_epochs=1,
                                               num_parallel_reads=2)
    return {"k": [b["k"].numpy().tolist() for b in ds]}
