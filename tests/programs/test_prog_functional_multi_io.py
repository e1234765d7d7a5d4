"""Functional API model with two inputs and two outputs (Keras guide style: ticket triage)."""
import numpy as np
import tapeflow as tf


def test_two_inputs_two_outputs():
    tf.keras.utils.set_random_seed(7)
    rng = np.random.default_rng(0)
    n = 400
    title = rng.normal(size=(n, 10)).astype("float32")
    tags = (rng.random(size=(n, 4)) > 0.5).astype("float32")
    priority = (title[:, :3].sum(axis=1, keepdims=True) + tags[:, :1]).astype("float32")
    department = (np.argmax(title[:, 3:6] + 0.5 * tags[:, 1:4], axis=1)).astype("int32")

    title_input = tf.keras.Input(shape=(10,), name="title")
    tags_input = tf.keras.Input(shape=(4,), name="tags")
    t = tf.keras.layers.Dense(32, activation="relu")(title_input)
    g = tf.keras.layers.Dense(8, activation="relu")(tags_input)
    x = tf.keras.layers.concatenate([t, g])
    x = tf.keras.layers.Dense(32, activation="relu")(x)
    priority_pred = tf.keras.layers.Dense(1, name="priority")(x)
    department_pred = tf.keras.layers.Dense(3, name="department")(x)
    model = tf.keras.Model(inputs=[title_input, tags_input], outputs=[priority_pred, department_pred])
    assert [i.name for i in model.inputs] == ["title", "tags"] or len(model.inputs) == 2
    model.compile(
        optimizer=tf.keras.optimizers.RMSprop(1e-2),
        loss={"priority": tf.keras.losses.MeanSquaredError(),
              "department": tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)},
        loss_weights={"priority": 1.0, "department": 0.5},
        metrics={"department": ["accuracy"]},
    )
    hist = model.fit({"title": title, "tags": tags}, {"priority": priority, "department": department},
                     epochs=15, batch_size=32, verbose=0)
    losses = hist.history["loss"]
    assert losses[-1] < 0.3 * losses[0], losses
    results = model.evaluate({"title": title, "tags": tags},
                             {"priority": priority, "department": department},
                             verbose=0, return_dict=True)
    assert results["department_accuracy"] > 0.85, results
    # total loss is the weighted sum of the per-output losses
    np.testing.assert_allclose(results["loss"],
                               results["priority_loss"] + 0.5 * results["department_loss"], rtol=1e-3)
    p, d = model.predict([title[:6], tags[:6]], verbose=0)
    assert p.shape == (6, 1) and d.shape == (6, 3)
    p2, d2 = model([title[:6], tags[:6]])
    np.testing.assert_allclose(p, p2.numpy(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(d, d2.numpy(), rtol=1e-5, atol=1e-6)
