"""More tutorial pieces: text classification with TextVectorization, basic regression with a
Normalization layer, overfit/underfit (regularizers, EarlyStopping), save and load with
ModelCheckpoint, NMT encoder pieces (GRU states, AdditiveAttention), autoencoders, pix2pix
blocks, word2vec skip-gram windows and tf.data performance idioms, on seeded synthetic data."""
import os

import numpy as np

from _sweep import history, set_weights, tmp


def _floats(v):
    return np.asarray(v).astype("float64").round(5).tolist()


def program_text_classification_vectorize_and_fit(tf):
    texts = np.array(["a great movie", "a bad movie", "great acting great story", "bad bad plot",
                      "story was great", "plot was bad"])
    labels = np.array([1, 0, 1, 0, 1, 0], dtype="int64")
    raw_ds = tf.data.Dataset.from_tensor_slices((texts, labels)).batch(3)

    def custom_standardization(input_data):
        lowercase = tf.strings.lower(input_data)
        return tf.strings.regex_replace(lowercase, "<br />", " ")

    vectorize_layer = tf.keras.layers.TextVectorization(standardize=custom_standardization,
                                                        max_tokens=20, output_mode="int",
                                                        output_sequence_length=5)
    vectorize_layer.adapt(raw_ds.map(lambda x, y: x))

    def vectorize_text(text, label):
        text = tf.expand_dims(text, -1)
        return vectorize_layer(text), label

    train_ds = raw_ds.map(vectorize_text).cache().prefetch(buffer_size=tf.data.AUTOTUNE)
    model = tf.keras.Sequential([tf.keras.Input((5,), dtype="int64"), tf.keras.layers.Embedding(20, 4),
                                 tf.keras.layers.Dropout(0.0), tf.keras.layers.GlobalAveragePooling1D(),
                                 tf.keras.layers.Dense(1)])
    set_weights(model)
    model.compile(loss=tf.keras.losses.BinaryCrossentropy(from_logits=True), optimizer="adam",
                  metrics=[tf.keras.metrics.BinaryAccuracy(threshold=0.5)])
    h = model.fit(train_ds, epochs=2, verbose=0)
    export_model = tf.keras.Sequential([vectorize_layer, model, tf.keras.layers.Activation("sigmoid")])
    probs = export_model(tf.constant(["great plot", "bad story"]))
    return {"vocab": vectorize_layer.get_vocabulary(), "h": history(h), "probs": _floats(probs),
            "spec": str(train_ds.element_spec)}


def program_basic_regression_normalization(tf):
    rng = np.random.RandomState(7)
    train_features = rng.uniform(0, 10, (16, 3)).astype("float32")
    train_labels = (train_features @ np.array([1.0, -2.0, 0.5], "float32") + 3).astype("float32")
    normalizer = tf.keras.layers.Normalization(axis=-1)
    normalizer.adapt(np.array(train_features))
    model = tf.keras.Sequential([normalizer, tf.keras.layers.Dense(units=1)])
    model.build((None, 3))
    model.layers[1].set_weights([np.array([[0.1], [0.2], [-0.1]], "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=0.1), loss="mean_absolute_error")
    h = model.fit(train_features, train_labels, epochs=3, verbose=0, validation_split=0.25, shuffle=False)
    return {"mean": _floats(normalizer.mean), "var": _floats(normalizer.variance), "h": history(h),
            "pred": _floats(model.predict(train_features[:2], verbose=0))}


def program_overfit_regularizers_early_stopping(tf):
    rng = np.random.RandomState(8)
    x = rng.normal(size=(20, 4)).astype("float32")
    y = (x[:, :1] > 0).astype("float32")
    lr_schedule = tf.keras.optimizers.schedules.InverseTimeDecay(0.01, decay_steps=5, decay_rate=1,
                                                                 staircase=False)
    model = tf.keras.Sequential([
        tf.keras.Input((4,)),
        tf.keras.layers.Dense(8, activation="elu", kernel_regularizer=tf.keras.regularizers.l2(0.001)),
        tf.keras.layers.Dropout(0.0),
        tf.keras.layers.Dense(1)])
    set_weights(model)
    model.compile(optimizer=tf.keras.optimizers.Adam(lr_schedule),
                  loss=tf.keras.losses.BinaryCrossentropy(from_logits=True),
                  metrics=[tf.keras.metrics.BinaryCrossentropy(from_logits=True, name="binary_crossentropy"),
                           "accuracy"])
    stop = tf.keras.callbacks.EarlyStopping(monitor="val_binary_crossentropy", patience=1)
    h = model.fit(x, y, epochs=4, batch_size=5, validation_data=(x[:8], y[:8]), callbacks=[stop],
                  verbose=0, shuffle=False)
    return {"h": history(h), "lr": [float(lr_schedule(s)) for s in (0, 5, 10)],
            "reg_losses": _floats([float(l) for l in model.losses])}


def program_save_and_load_checkpoint_callback(tf):
    rng = np.random.RandomState(9)
    x = rng.normal(size=(10, 3)).astype("float32")
    y = (np.arange(10) % 2).astype("int64")

    def create_model():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                     tf.keras.layers.Dense(2)])
        model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=[tf.keras.metrics.SparseCategoricalAccuracy()])
        return model

    d = tmp()
    checkpoint_path = os.path.join(d, "cp.weights.h5")
    cp_callback = tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_path, save_weights_only=True,
                                                     verbose=0)
    model = set_weights(create_model())
    model.fit(x, y, epochs=2, batch_size=5, callbacks=[cp_callback], verbose=0, shuffle=False)
    fresh = create_model()
    loss0, _ = fresh.evaluate(x, y, verbose=0)
    fresh.load_weights(checkpoint_path)
    loss1, acc1 = fresh.evaluate(x, y, verbose=0)
    model.save(os.path.join(d, "my_model.keras"))
    new_model = tf.keras.models.load_model(os.path.join(d, "my_model.keras"))
    loss2, _ = new_model.evaluate(x, y, verbose=0)
    return {"same": bool(abs(loss1 - loss2) < 1e-6), "loss1": float(loss1), "acc1": float(acc1),
            "files": sorted(os.listdir(d)), "differs": bool(abs(loss0 - loss1) > 1e-6)}


def program_nmt_encoder_and_attention(tf):
    rng = np.random.RandomState(10)
    tokens = tf.constant(rng.randint(1, 9, (2, 5)).astype("int64"))
    tokens = tf.concat([tokens[:, :4], tf.zeros((2, 1), tf.int64)], axis=1)
    embedding = tf.keras.layers.Embedding(10, 4, mask_zero=True)
    rnn = tf.keras.layers.Bidirectional(merge_mode="sum", layer=tf.keras.layers.GRU(
        3, return_sequences=True, recurrent_initializer="glorot_uniform"))
    x = embedding(tokens)
    set_weights(embedding)
    x = embedding(tokens)
    rnn(x)
    set_weights(rnn)
    context = rnn(x)
    gru = tf.keras.layers.GRU(3, return_sequences=True, return_state=True)
    query = tf.constant(rng.normal(size=(2, 2, 3)).astype("float32"))
    seq, state = gru(query)
    set_weights(gru)
    seq, state = gru(query)
    attn = tf.keras.layers.AdditiveAttention()
    att_out, scores = attn([seq, context], return_attention_scores=True)
    set_weights(attn)
    att_out, scores = attn([seq, context], return_attention_scores=True)
    mha = tf.keras.layers.MultiHeadAttention(key_dim=3, num_heads=1)
    m_out, m_scores = mha(query=seq, value=context, return_attention_scores=True)
    return {"context": _floats(context), "state": _floats(state), "att": _floats(att_out),
            "scores": _floats(scores), "mha_shapes": [m_out.shape.as_list(), m_scores.shape.as_list()],
            "mask": embedding.compute_mask(tokens).numpy().tolist()}


def program_autoencoder_and_pix2pix_blocks(tf):
    class Autoencoder(tf.keras.Model):
        def __init__(self, latent_dim, shape):
            super().__init__()
            self.encoder = tf.keras.Sequential([tf.keras.layers.Flatten(),
                                                tf.keras.layers.Dense(latent_dim, activation="relu")])
            self.decoder = tf.keras.Sequential([tf.keras.layers.Dense(int(np.prod(shape)), activation="sigmoid"),
                                                tf.keras.layers.Reshape(shape)])

        def call(self, x):
            return self.decoder(self.encoder(x))

    def downsample(filters, size, apply_batchnorm=True):
        result = tf.keras.Sequential()
        result.add(tf.keras.layers.Conv2D(filters, size, strides=2, padding="same", use_bias=False))
        if apply_batchnorm:
            result.add(tf.keras.layers.BatchNormalization())
        result.add(tf.keras.layers.LeakyReLU())
        return result

    def upsample(filters, size, apply_dropout=False):
        result = tf.keras.Sequential()
        result.add(tf.keras.layers.Conv2DTranspose(filters, size, strides=2, padding="same", use_bias=False))
        result.add(tf.keras.layers.BatchNormalization())
        if apply_dropout:
            result.add(tf.keras.layers.Dropout(0.5))
        result.add(tf.keras.layers.ReLU())
        return result

    rng = np.random.RandomState(11)
    x = rng.uniform(0, 1, (4, 4, 4)).astype("float32")
    ae = Autoencoder(3, (4, 4))
    ae(x[:1])
    set_weights(ae)
    ae.compile(optimizer="adam", loss=tf.keras.losses.MeanSquaredError())
    h = ae.fit(x, x, epochs=2, batch_size=2, shuffle=False, validation_data=(x, x), verbose=0)
    img = tf.constant(rng.uniform(-1, 1, (1, 8, 8, 3)).astype("float32"))
    down = downsample(3, 4)
    d = down(img)
    set_weights(down)
    d = down(img, training=True)
    up = upsample(3, 4)
    u = up(d, training=False)
    set_weights(up)
    u = up(d, training=False)
    loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    gan_loss = loss_object(tf.ones_like(u), u)
    l1_loss = tf.reduce_mean(tf.abs(tf.image.resize(img, [8, 8]) - u))
    return {"h": history(h), "down": _floats(d), "up_shape": u.shape.as_list(),
            "gan_loss": float(gan_loss), "l1": float(l1_loss),
            "enc_shape": ae.encoder(x).shape.as_list()}


def program_word2vec_skipgram_windows(tf):
    sentence = "the wide road shimmered in the hot sun"
    tokens = list(sentence.lower().split())
    vocab, index = {}, 1
    vocab["<pad>"] = 0
    for token in tokens:
        if token not in vocab:
            vocab[token] = index
            index += 1
    example_sequence = [vocab[word] for word in tokens]
    window = 2
    pairs = [(t, example_sequence[j]) for i, t in enumerate(example_sequence)
             for j in range(max(0, i - window), min(len(example_sequence), i + window + 1)) if j != i]
    target_word, context_word = pairs[0]
    context_class = tf.expand_dims(tf.constant([context_word], dtype="int64"), 1)
    negative = tf.constant([2, 5, 1, 4], dtype="int64")
    context = tf.concat([tf.squeeze(context_class, 1), negative], 0)
    label = tf.constant([1] + [0] * 4, dtype="int64")
    target_embedding = tf.keras.layers.Embedding(len(vocab), 4, name="w2v_embedding")
    context_embedding = tf.keras.layers.Embedding(len(vocab), 4)
    target_embedding.build((None,))
    context_embedding.build((None,))
    set_weights(target_embedding)
    set_weights(context_embedding, 0.2)
    word_emb = target_embedding(tf.constant([target_word, target_word]))
    context_emb = context_embedding(tf.stack([context, context]))
    dots = tf.einsum("be,bce->bc", word_emb, context_emb)
    loss = tf.keras.losses.CategoricalCrossentropy(from_logits=True)(tf.stack([label, label]), dots)
    ds = tf.data.Dataset.from_tensor_slices(((np.array([1, 2, 3]), np.arange(15).reshape(3, 5)),
                                             np.eye(3, 5))).shuffle(3, seed=1).batch(2, drop_remainder=True)
    return {"n_pairs": len(pairs), "pairs": pairs[:6], "dots": _floats(dots), "loss": float(loss),
            "spec": str(ds.element_spec), "vocab_size": len(vocab)}


def program_tf_data_performance_idioms(tf):
    class ArtificialDataset(tf.data.Dataset):
        def _generator(num_samples):
            for sample_idx in range(num_samples):
                yield (sample_idx,)

        def __new__(cls, num_samples=3):
            return tf.data.Dataset.from_generator(
                cls._generator, output_signature=tf.TensorSpec(shape=(1,), dtype=tf.int64),
                args=(num_samples,))

    ds = tf.data.Dataset.range(2).interleave(lambda _: ArtificialDataset(), num_parallel_calls=tf.data.AUTOTUNE)
    a = sorted(int(v[0]) for v in ds)  # TF autotunes the cycle length here: the order is TF's runtime's
    fast = tf.data.Dataset.range(10).batch(4).map(lambda x: x * x, num_parallel_calls=tf.data.AUTOTUNE)
    fast = fast.cache().prefetch(tf.data.AUTOTUNE)
    b = [v.numpy().tolist() for v in fast]
    unbatched = tf.data.Dataset.range(5).map(lambda x: tf.py_function(lambda v: v + 1, [x], tf.int64))
    c = [int(v) for v in unbatched]
    gen = tf.data.Dataset.from_generator(lambda: iter([(1, 2), (3, 4)]),
                                         output_signature=tf.TensorSpec((2,), tf.int32))
    pairs = tf.data.Dataset.from_generator(lambda: iter([((1,), 2.5)]), output_signature=(
        tf.TensorSpec((1,), tf.int64), tf.TensorSpec((), tf.float32)))
    return {"interleave": a, "gen": [v.numpy().tolist() for v in gen],
            "pairs": [(x.numpy().tolist(), float(y)) for x, y in pairs], "vectorized": b, "py": c, "fast_spec": str(fast.element_spec),
            "py_spec": str(unbatched.element_spec), "card": int(fast.cardinality())}
