"""Pieces of tensorflow.org's tutorials (audio spectrograms, time-series windows, DCGAN and CVAE
losses, transformer masks and positional encoding, CNN, structured-data preprocessing, text
generation lookups, MirroredStrategy), on small seeded synthetic data in place of downloads."""
import numpy as np

from _sweep import history, set_weights


def _floats(v):
    return np.asarray(v).astype("float64").round(5).tolist()


def program_audio_stft_spectrogram(tf):
    rng = np.random.RandomState(0)
    wave = tf.constant(rng.uniform(-1, 1, 1000).astype("float32"))
    padded = tf.concat([wave, tf.zeros([1200] - tf.shape(wave), dtype=tf.float32)], 0)
    spec = tf.abs(tf.signal.stft(padded, frame_length=255, frame_step=128))
    spec = spec[..., tf.newaxis]
    return {"shape": spec.shape.as_list(), "dtype": spec.dtype.name,
            "sum": float(tf.reduce_sum(spec)), "row": _floats(spec[2, :6, 0])}


def program_time_series_window_dataset(tf):
    series = np.arange(20, dtype="float32")
    ds = tf.data.Dataset.from_tensor_slices(series).window(5, shift=2, drop_remainder=True)
    ds = ds.flat_map(lambda w: w.batch(5)).map(lambda w: (w[:-1], w[-1:])).batch(3)
    out = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ds]
    ts = tf.keras.utils.timeseries_dataset_from_array(
        series[:-3], targets=series[3:], sequence_length=3, sequence_stride=2, batch_size=4)
    ts_out = [(x.numpy().tolist(), y.numpy().tolist()) for x, y in ts]
    return {"window": out, "timeseries": ts_out}


def program_time_series_split_window_tf_function(tf):
    data = np.arange(30, dtype="float32").reshape(10, 3)
    ds = tf.keras.utils.timeseries_dataset_from_array(data, targets=None, sequence_length=4,
                                                      sequence_stride=1, shuffle=False, batch_size=3)

    def split_window(features):
        inputs = features[:, slice(0, 3), :]
        labels = tf.stack([features[:, slice(3, None), :][:, :, 1]], axis=-1)
        inputs.set_shape([None, 3, None])
        labels.set_shape([None, 1, None])
        return inputs, labels

    ds = ds.map(split_window)
    got = [(i.numpy().tolist(), l.numpy().tolist()) for i, l in ds]
    return {"elements": got, "spec": str(ds.element_spec)}


def program_dcgan_losses_and_tape_step(tf):
    cross_entropy = tf.keras.losses.BinaryCrossentropy(from_logits=True)

    def discriminator_loss(real_output, fake_output):
        real_loss = cross_entropy(tf.ones_like(real_output), real_output)
        fake_loss = cross_entropy(tf.zeros_like(fake_output), fake_output)
        return real_loss + fake_loss

    def generator_loss(fake_output):
        return cross_entropy(tf.ones_like(fake_output), fake_output)

    gen = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(8, use_bias=False),
                               tf.keras.layers.BatchNormalization(), tf.keras.layers.LeakyReLU(),
                               tf.keras.layers.Reshape((2, 2, 2)),
                               tf.keras.layers.Conv2DTranspose(3, (3, 3), strides=(2, 2),
                                                               padding="same", use_bias=False,
                                                               activation="tanh")])
    disc = tf.keras.Sequential([tf.keras.Input((4, 4, 3)),
                                tf.keras.layers.Conv2D(4, (3, 3), strides=(2, 2), padding="same"),
                                tf.keras.layers.LeakyReLU(), tf.keras.layers.Dropout(0.3),
                                tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    set_weights(gen)
    set_weights(disc)
    g_opt, d_opt = tf.keras.optimizers.Adam(1e-3), tf.keras.optimizers.Adam(1e-3)
    rng = np.random.RandomState(1)
    images = tf.constant(rng.uniform(-1, 1, (4, 4, 4, 3)).astype("float32"))
    noise = tf.constant(rng.normal(size=(4, 4)).astype("float32"))

    @tf.function
    def train_step(images):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            generated = gen(noise, training=True)
            real_output = disc(images, training=False)
            fake_output = disc(generated, training=False)
            gl = generator_loss(fake_output)
            dl = discriminator_loss(real_output, fake_output)
        g_opt.apply_gradients(zip(gen_tape.gradient(gl, gen.trainable_variables),
                                  gen.trainable_variables))
        d_opt.apply_gradients(zip(disc_tape.gradient(dl, disc.trainable_variables),
                                  disc.trainable_variables))
        return gl, dl

    losses = [[float(v) for v in train_step(images)] for _ in range(3)]
    return {"losses": losses, "gen_shape": gen(noise, training=False).shape.as_list()}


def program_cvae_log_normal_pdf_and_reparameterize(tf):
    def log_normal_pdf(sample, mean, logvar, raxis=1):
        log2pi = tf.math.log(2. * np.pi)
        return tf.reduce_sum(-.5 * ((sample - mean) ** 2. * tf.exp(-logvar) + logvar + log2pi),
                             axis=raxis)

    rng = np.random.RandomState(2)
    mean = tf.constant(rng.normal(size=(3, 2)).astype("float32"))
    logvar = tf.constant(rng.normal(size=(3, 2)).astype("float32") * 0.1)
    eps = tf.constant(rng.normal(size=(3, 2)).astype("float32"))
    z = eps * tf.exp(logvar * .5) + mean
    x_logit = tf.constant(rng.normal(size=(3, 4)).astype("float32"))
    x = tf.constant((rng.uniform(size=(3, 4)) > 0.5).astype("float32"))
    cross_ent = tf.nn.sigmoid_cross_entropy_with_logits(logits=x_logit, labels=x)
    logpx_z = -tf.reduce_sum(cross_ent, axis=[1])
    logpz = log_normal_pdf(z, 0., 0.)
    logqz_x = log_normal_pdf(z, mean, logvar)
    loss = -tf.reduce_mean(logpx_z + logpz - logqz_x)
    mu, lv = tf.split(tf.constant(np.arange(8, dtype="float32").reshape(2, 4)), num_or_size_splits=2,
                      axis=1)
    return {"loss": float(loss), "z": _floats(z), "split": [mu.numpy().tolist(), lv.numpy().tolist()]}


def program_transformer_positional_encoding_and_masks(tf):
    def positional_encoding(length, depth):
        depth = depth / 2
        positions = np.arange(length)[:, np.newaxis]
        depths = np.arange(depth)[np.newaxis, :] / depth
        angle_rads = positions * (1 / (10000 ** depths))
        pos = np.concatenate([np.sin(angle_rads), np.cos(angle_rads)], axis=-1)
        return tf.cast(pos, dtype=tf.float32)

    pe = positional_encoding(6, 4)
    emb = tf.keras.layers.Embedding(10, 4, mask_zero=True)
    emb.build((None,))
    set_weights(emb)
    tokens = tf.constant([[3, 5, 0, 0], [1, 2, 7, 0]])
    x = emb(tokens)
    x *= tf.math.sqrt(tf.cast(4, tf.float32))
    x = x + pe[tf.newaxis, :4, :]
    mask = emb.compute_mask(tokens)
    causal = 1 - tf.linalg.band_part(tf.ones((4, 4)), -1, 0)
    mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)
    out, scores = mha(query=x, value=x, key=x, use_causal_mask=True, return_attention_scores=True)
    return {"pe": _floats(pe), "mask": mask.numpy().tolist(), "causal": causal.numpy().tolist(),
            "out_shape": out.shape.as_list(), "scores_shape": scores.shape.as_list(),
            "scores_row_sums": _floats(tf.reduce_sum(scores, -1)),
            "scores_upper": float(tf.reduce_sum(scores * causal))}


def program_transformer_custom_schedule_and_masked_loss(tf):
    class CustomSchedule(tf.keras.optimizers.schedules.LearningRateSchedule):
        def __init__(self, d_model, warmup_steps=4000):
            super().__init__()
            self.d_model = tf.cast(d_model, tf.float32)
            self.warmup_steps = warmup_steps

        def __call__(self, step):
            step = tf.cast(step, dtype=tf.float32)
            arg1 = tf.math.rsqrt(step)
            arg2 = step * (self.warmup_steps ** -1.5)
            return tf.math.rsqrt(self.d_model) * tf.math.minimum(arg1, arg2)

    lr = CustomSchedule(128)
    rates = [float(lr(s)) for s in (1, 100, 4000, 8000)]

    def masked_loss(label, pred):
        mask = label != 0
        loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
        loss = loss_object(label, pred)
        mask = tf.cast(mask, dtype=loss.dtype)
        loss *= mask
        return tf.reduce_sum(loss) / tf.reduce_sum(mask)

    def masked_accuracy(label, pred):
        pred = tf.argmax(pred, axis=2)
        label = tf.cast(label, pred.dtype)
        match = label == pred
        mask = label != 0
        match = match & mask
        match = tf.cast(match, dtype=tf.float32)
        mask = tf.cast(mask, dtype=tf.float32)
        return tf.reduce_sum(match) / tf.reduce_sum(mask)

    rng = np.random.RandomState(3)
    pred = tf.constant(rng.normal(size=(2, 3, 5)).astype("float32"))
    label = tf.constant([[1, 4, 0], [2, 0, 0]])
    opt = tf.keras.optimizers.Adam(lr, beta_1=0.9, beta_2=0.98, epsilon=1e-9)
    return {"rates": rates, "loss": float(masked_loss(label, pred)),
            "acc": float(masked_accuracy(label, pred)),
            "opt_lr": float(opt.learning_rate)}


def program_cnn_fit_evaluate(tf):
    rng = np.random.RandomState(4)
    x = rng.uniform(0, 1, (8, 8, 8, 3)).astype("float32")
    y = (np.arange(8) % 3).astype("int64")
    model = tf.keras.models.Sequential()
    model.add(tf.keras.Input((8, 8, 3)))
    model.add(tf.keras.layers.Conv2D(4, (3, 3), activation="relu"))
    model.add(tf.keras.layers.MaxPooling2D((2, 2)))
    model.add(tf.keras.layers.Conv2D(4, (3, 3), activation="relu"))
    model.add(tf.keras.layers.Flatten())
    model.add(tf.keras.layers.Dense(3))
    set_weights(model, 0.2)
    model.compile(optimizer="adam",
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, validation_data=(x, y), verbose=0)
    loss, acc = model.evaluate(x, y, verbose=0)
    return {"h": history(h), "loss": float(loss), "acc": float(acc),
            "shapes": [list(l.output.shape) for l in model.layers]}


def program_structured_data_preprocessing_layers(tf):
    age = np.array([[20.], [35.], [50.], [65.]], dtype="float32")
    norm = tf.keras.layers.Normalization(axis=None)
    norm.adapt(tf.data.Dataset.from_tensor_slices(age).batch(2))
    animals = np.array([["cat"], ["dog"], ["cat"], ["bird"]])
    lookup = tf.keras.layers.StringLookup(max_tokens=5)
    lookup.adapt(animals)
    encoder = tf.keras.layers.CategoryEncoding(num_tokens=lookup.vocabulary_size())
    ints = tf.keras.layers.IntegerLookup(output_mode="one_hot")
    ints.adapt(np.array([[3], [1], [3], [7]]))
    return {"norm": _floats(norm(age)), "vocab": lookup.get_vocabulary(),
            "onehot": encoder(lookup(animals)).numpy().tolist(),
            "ints_vocab": [int(v) for v in ints.get_vocabulary()],
            "ints": ints(np.array([[3], [9]])).numpy().tolist()}


def program_text_generation_lookups_and_sequences(tf):
    text = "hello tapeflow hello"
    vocab = sorted(set(text))
    ids_from_chars = tf.keras.layers.StringLookup(vocabulary=list(vocab), mask_token=None)
    chars_from_ids = tf.keras.layers.StringLookup(vocabulary=ids_from_chars.get_vocabulary(),
                                                  invert=True, mask_token=None)
    chars = tf.strings.unicode_split(["abc", "xyz"], input_encoding="UTF-8")
    ids = ids_from_chars(chars)
    back = tf.strings.reduce_join(chars_from_ids(ids), axis=-1)
    all_ids = ids_from_chars(tf.strings.unicode_split(text, "UTF-8"))
    ds = tf.data.Dataset.from_tensor_slices(all_ids).batch(5, drop_remainder=True)
    ds = ds.map(lambda seq: (seq[:-1], seq[1:]))
    pairs = [(a.numpy().tolist(), b.numpy().tolist()) for a, b in ds]
    skip_ids = ids_from_chars(["[UNK]"])[:, None]
    sparse_mask = tf.SparseTensor(values=[-float("inf")] * len(skip_ids), indices=skip_ids,
                                  dense_shape=[len(ids_from_chars.get_vocabulary())])
    dense_mask = tf.sparse.to_dense(sparse_mask)
    return {"ids": ids.to_list(), "back": [b.decode() for b in back.numpy()], "pairs": pairs,
            "vocab": ids_from_chars.get_vocabulary(), "mask": dense_mask.numpy().tolist()}


def program_mirrored_strategy_fit_one_device(tf):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                     tf.keras.layers.Dense(2)])
        set_weights(model)
        model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      optimizer=tf.keras.optimizers.Adam(), metrics=["accuracy"])
    rng = np.random.RandomState(5)
    x = rng.uniform(-1, 1, (8, 3)).astype("float32")
    y = (x[:, 0] > 0).astype("int64")
    batch = 4 * strategy.num_replicas_in_sync
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(batch)
    h = model.fit(ds, epochs=2, verbose=0)
    return {"replicas": strategy.num_replicas_in_sync, "h": history(h)}


def program_custom_training_walkthrough(tf):
    rng = np.random.RandomState(6)
    features = rng.uniform(0, 5, (12, 4)).astype("float32")
    labels = (np.arange(12) % 3).astype("int32")

    def pack_features_vector(features, labels):
        features = tf.stack(list(features.values()), axis=1)
        return features, labels

    cols = {n: features[:, i] for i, n in enumerate(["a", "b", "c", "d"])}
    ds = tf.data.Dataset.from_tensor_slices((cols, labels)).batch(4).map(pack_features_vector)
    model = tf.keras.Sequential([tf.keras.layers.Dense(5, activation=tf.nn.relu, input_shape=(4,)),
                                 tf.keras.layers.Dense(3)])
    set_weights(model, 0.2)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    out = []
    for epoch in range(2):
        epoch_loss_avg = tf.keras.metrics.Mean()
        epoch_accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
        for x, y in ds:
            with tf.GradientTape() as tape:
                loss_value = loss_object(y_true=y, y_pred=model(x, training=True))
            grads = tape.gradient(loss_value, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            epoch_loss_avg.update_state(loss_value)
            epoch_accuracy.update_state(y, model(x, training=True))
        out.append([float(epoch_loss_avg.result()), float(epoch_accuracy.result())])
    pred = tf.argmax(tf.nn.softmax(model(features[:3])), axis=1)
    return {"epochs": out, "pred": pred.numpy().tolist(), "iters": int(optimizer.iterations)}
