"""TF tutorials' training programs, scaled down to tiny synthetic data and a few steps (our own
code): the custom training walkthrough, a DCGAN-style two-tape loop, RNN text generation with
seeded sampling, attention for translation, segmentation upsampling, time-series windows."""
import numpy as np

from _sweep import set_weights


def _iris_like(n=24, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.uniform(0, 1, (n, 4)).astype("float32")
    y = (np.argmax(x[:, :3] + x[:, 3:4] * 0.1, axis=1)).astype("int32")
    return x, y


def program_custom_training_walkthrough(tf):
    x, y = _iris_like()
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    model = tf.keras.Sequential([tf.keras.Input([4]), tf.keras.layers.Dense(6, activation="relu"),
                                 tf.keras.layers.Dense(3)])
    set_weights(model)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = tf.keras.optimizers.SGD(learning_rate=0.1)

    def grad(inputs, targets):
        with tf.GradientTape() as tape:
            loss_value = loss_object(targets, model(inputs, training=True))
        return loss_value, tape.gradient(loss_value, model.trainable_variables)
    losses, accs = [], []
    for epoch in range(3):
        epoch_loss = tf.keras.metrics.Mean()
        epoch_acc = tf.keras.metrics.SparseCategoricalAccuracy()
        for bx, by in ds:
            loss_value, grads = grad(bx, by)
            opt.apply_gradients(zip(grads, model.trainable_variables))
            epoch_loss.update_state(loss_value)
            epoch_acc.update_state(by, model(bx, training=True))
        losses.append(epoch_loss.result())
        accs.append(epoch_acc.result())
    logits = model(x[:5], training=False)
    pred = tf.argmax(logits, axis=1)
    probs = tf.nn.softmax(logits)
    return {"losses": losses, "accs": accs, "pred": pred, "probs": probs,
            "iters": opt.iterations}


def program_dcgan_two_tapes(tf):
    gen = tf.keras.Sequential([tf.keras.Input([4]), tf.keras.layers.Dense(2 * 2 * 3, use_bias=False),
                               tf.keras.layers.BatchNormalization(), tf.keras.layers.LeakyReLU(),
                               tf.keras.layers.Reshape((2, 2, 3)),
                               tf.keras.layers.Conv2DTranspose(2, 3, strides=2, padding="same", use_bias=False),
                               tf.keras.layers.BatchNormalization(), tf.keras.layers.LeakyReLU(),
                               tf.keras.layers.Conv2DTranspose(1, 3, strides=1, padding="same",
                                                               activation="tanh")])
    disc = tf.keras.Sequential([tf.keras.Input([4, 4, 1]),
                                tf.keras.layers.Conv2D(2, 3, strides=2, padding="same"),
                                tf.keras.layers.LeakyReLU(), tf.keras.layers.Dropout(0.0),
                                tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])
    set_weights(gen, 0.4)
    set_weights(disc, 0.3)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt, d_opt = tf.keras.optimizers.Adam(1e-2), tf.keras.optimizers.Adam(1e-2)
    real = tf.constant(np.sin(np.arange(3 * 16).reshape(3, 4, 4, 1) * 0.3).astype("float32"))
    noise = tf.constant(np.cos(np.arange(3 * 4).reshape(3, 4) * 0.7).astype("float32"))

    @tf.function
    def train_step(images, z):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake = gen(z, training=True)
            real_out = disc(images, training=True)
            fake_out = disc(fake, training=True)
            g_loss = bce(tf.ones_like(fake_out), fake_out)
            d_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
        g_opt.apply_gradients(zip(gen_tape.gradient(g_loss, gen.trainable_variables), gen.trainable_variables))
        d_opt.apply_gradients(zip(disc_tape.gradient(d_loss, disc.trainable_variables),
                                  disc.trainable_variables))
        return g_loss, d_loss
    hist = [train_step(real, noise) for _ in range(3)]
    return {"hist": hist, "sample": gen(noise[:1], training=False),
            "moving_mean": gen.layers[1].moving_mean}


def program_text_generation_stateful_gru(tf):
    text = "hello world, hello tensorflow. "
    vocab = sorted(set(text))
    ids_from_chars = tf.keras.layers.StringLookup(vocabulary=list(vocab), mask_token=None)
    chars_from_ids = tf.keras.layers.StringLookup(vocabulary=ids_from_chars.get_vocabulary(), invert=True,
                                                  mask_token=None)
    all_ids = ids_from_chars(tf.strings.unicode_split(text, "UTF-8"))
    seqs = tf.data.Dataset.from_tensor_slices(all_ids).batch(8, drop_remainder=True)

    def split_input_target(sequence):
        return sequence[:-1], sequence[1:]
    ds = seqs.map(split_input_target).batch(2, drop_remainder=True)
    V = len(ids_from_chars.get_vocabulary())

    class MyModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.embedding = tf.keras.layers.Embedding(V, 4)
            self.gru = tf.keras.layers.GRU(5, return_sequences=True, return_state=True)
            self.dense = tf.keras.layers.Dense(V)

        def call(self, inputs, states=None, return_state=False, training=False):
            x = self.embedding(inputs, training=training)
            if states is None:
                x, states = self.gru(x, training=training)
            else:
                x, states = self.gru(x, initial_state=states, training=training)
            x = self.dense(x, training=training)
            return (x, states) if return_state else x
    model = MyModel()
    for bx, by in ds.take(1):
        pred = model(bx)
    set_weights(model, 0.5)
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    h = model.fit(ds, epochs=2, verbose=0)
    states = None
    next_char = tf.constant(["h"])
    out = []
    for i in range(5):
        input_ids = ids_from_chars(tf.strings.unicode_split(next_char, "UTF-8")).to_tensor()
        logits, states = model(inputs=input_ids, states=states, return_state=True)
        logits = logits[:, -1, :] / 1.0
        predicted = tf.random.stateless_categorical(logits, num_samples=1, seed=[i, 7])
        next_char = chars_from_ids(tf.squeeze(predicted, axis=-1))
        out.append(next_char)
    return {"pred_shape": pred.shape, "loss": h.history["loss"], "chars": tf.strings.join(out),
            "vocab": ids_from_chars.get_vocabulary(), "states": states,
            "argmax": tf.argmax(logits, axis=-1)}


def program_nmt_attention_masking(tf):
    class Encoder(tf.keras.layers.Layer):
        def __init__(self, vocab, units):
            super().__init__()
            self.embedding = tf.keras.layers.Embedding(vocab, units, mask_zero=True)
            self.rnn = tf.keras.layers.Bidirectional(merge_mode="sum", layer=tf.keras.layers.GRU(
                units, return_sequences=True))

        def call(self, x):
            return self.rnn(self.embedding(x))

    class CrossAttention(tf.keras.layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.mha = tf.keras.layers.MultiHeadAttention(key_dim=units, num_heads=1)
            self.layernorm = tf.keras.layers.LayerNormalization()
            self.add = tf.keras.layers.Add()

        def call(self, x, context):
            attn_output, attn_scores = self.mha(query=x, value=context, return_attention_scores=True)
            self.last_attention_weights = tf.reduce_mean(attn_scores, axis=1)
            return self.layernorm(self.add([x, attn_output]))
    enc = Encoder(7, 3)
    att = CrossAttention(3)
    src = tf.constant([[1, 2, 3, 0], [4, 5, 0, 0]])
    tgt = tf.constant(np.linspace(-1, 1, 2 * 3 * 3).reshape(2, 3, 3).astype("float32"))
    ctx = enc(src)
    out = att(tgt, ctx)
    set_weights(enc, 0.4)
    set_weights(att, 0.3)
    opt = tf.keras.optimizers.Adam(0.01)

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32), tf.TensorSpec([None, 3, 3], tf.float32)])
    def train_step(s, t):
        with tf.GradientTape() as tape:
            y = att(t, enc(s))
            loss = tf.reduce_mean(tf.square(y - 0.5))
        variables = enc.trainable_variables + att.trainable_variables
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss
    losses = [train_step(src, tgt) for _ in range(3)]
    ctx = enc(src)
    mask = enc.embedding.compute_mask(src)
    return {"ctx": ctx, "out": att(tgt, ctx), "weights": att.last_attention_weights, "losses": losses,
            "mask": mask, "shape": out.shape, "traces": train_step.experimental_get_tracing_count()}


def program_segmentation_upsample(tf):
    def upsample(filters, size):
        return tf.keras.Sequential([
            tf.keras.layers.Conv2DTranspose(filters, size, strides=2, padding="same", use_bias=False),
            tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU()])
    inputs = tf.keras.Input([8, 8, 2])
    down1 = tf.keras.layers.Conv2D(3, 3, strides=2, padding="same", activation="relu")(inputs)
    down2 = tf.keras.layers.Conv2D(4, 3, strides=2, padding="same", activation="relu")(down1)
    up1 = upsample(3, 3)(down2)
    x = tf.keras.layers.Concatenate()([up1, down1])
    x = tf.keras.layers.Conv2DTranspose(3, 3, strides=2, padding="same")(x)
    model = tf.keras.Model(inputs, x)
    set_weights(model, 0.2)
    img = tf.constant(np.sin(np.arange(2 * 8 * 8 * 2) * 0.05).reshape(2, 8, 8, 2).astype("float32"))
    mask = tf.constant((np.arange(2 * 8 * 8) % 3).reshape(2, 8, 8, 1).astype("int32"))
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                  metrics=["accuracy"])
    h = model.fit(img, mask, epochs=2, batch_size=2, verbose=0)
    pred = model.predict(img, verbose=0)
    pred_mask = tf.argmax(pred, axis=-1)[..., tf.newaxis]
    resized = tf.image.resize(img, (4, 4), method="nearest")
    flipped = tf.image.flip_left_right(img)
    return {"loss": h.history["loss"], "acc": h.history["accuracy"], "pred_mask": pred_mask,
            "shape": model.output_shape, "resized": resized, "flipped": flipped[0, 0]}


def program_time_series_window_generator(tf):
    series = np.stack([np.sin(np.arange(40) * 0.3), np.cos(np.arange(40) * 0.2)], axis=1).astype("float32")
    columns = {"a": 0, "b": 1}

    class WindowGenerator:
        def __init__(self, input_width, label_width, shift, label_columns=None):
            self.label_columns = label_columns
            self.input_width, self.label_width, self.shift = input_width, label_width, shift
            self.total_window_size = input_width + shift
            self.input_slice = slice(0, input_width)
            self.label_start = self.total_window_size - self.label_width
            self.labels_slice = slice(self.label_start, None)

        def split_window(self, features):
            inputs = features[:, self.input_slice, :]
            labels = features[:, self.labels_slice, :]
            if self.label_columns is not None:
                labels = tf.stack([labels[:, :, columns[name]] for name in self.label_columns], axis=-1)
            inputs.set_shape([None, self.input_width, None])
            labels.set_shape([None, self.label_width, None])
            return inputs, labels

        def make_dataset(self, data):
            ds = tf.keras.utils.timeseries_dataset_from_array(
                data=np.array(data, dtype=np.float32), targets=None, sequence_length=self.total_window_size,
                sequence_stride=1, shuffle=False, batch_size=8)
            return ds.map(self.split_window)
    w = WindowGenerator(input_width=6, label_width=1, shift=1, label_columns=["a"])
    ds = w.make_dataset(series)
    inputs, labels = next(iter(ds))
    model = tf.keras.Sequential([tf.keras.layers.LSTM(4, return_sequences=False),
                                 tf.keras.layers.Dense(1), tf.keras.layers.Reshape([1, 1])])
    model(inputs)
    set_weights(model, 0.3)
    model.compile(loss=tf.keras.losses.MeanSquaredError(), optimizer=tf.keras.optimizers.Adam(0.01),
                  metrics=[tf.keras.metrics.MeanAbsoluteError()])
    h = model.fit(ds, epochs=2, verbose=0)
    ev = model.evaluate(ds, verbose=0, return_dict=True)
    conv_window = WindowGenerator(input_width=3, label_width=2, shift=2)
    ci, cl = next(iter(conv_window.make_dataset(series)))
    return {"in": inputs.shape, "lab": labels, "spec": ds.element_spec, "loss": h.history["loss"],
            "ev": ev, "n_batches": int(ds.cardinality()), "conv": [ci.shape, cl[0]]}


def program_text_generation_one_step_saved(tf):
    import os
    from _sweep import tmp
    vocab = sorted(set("hello world"))
    ids_from_chars = tf.keras.layers.StringLookup(vocabulary=list(vocab), mask_token=None)
    chars_from_ids = tf.keras.layers.StringLookup(vocabulary=ids_from_chars.get_vocabulary(), invert=True,
                                                  mask_token=None)
    V = len(ids_from_chars.get_vocabulary())

    class Model(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.e = tf.keras.layers.Embedding(V, 3)
            self.g = tf.keras.layers.GRU(4, return_sequences=True, return_state=True)
            self.d = tf.keras.layers.Dense(V)

        def call(self, inputs, states=None, return_state=False, training=False):
            x = self.e(inputs)
            if states is None:
                x, states = self.g(x, training=training)
            else:
                x, states = self.g(x, initial_state=states, training=training)
            x = self.d(x)
            return (x, states) if return_state else x
    model = Model()
    model(tf.constant([[1, 2, 3]]))
    set_weights(model, 0.5)

    class OneStep(tf.keras.Model):
        def __init__(self, model, temperature=1.0):
            super().__init__()
            self.temperature, self.model = temperature, model
            self.chars_from_ids, self.ids_from_chars = chars_from_ids, ids_from_chars
            skip_ids = self.ids_from_chars(["[UNK]"])[:, None]
            sparse_mask = tf.SparseTensor(values=[-float("inf")] * len(skip_ids), indices=skip_ids,
                                          dense_shape=[len(ids_from_chars.get_vocabulary())])
            self.prediction_mask = tf.sparse.to_dense(sparse_mask)

        @tf.function
        def generate_one_step(self, inputs, states=None):
            input_ids = self.ids_from_chars(tf.strings.unicode_split(inputs, "UTF-8")).to_tensor()
            logits, states = self.model(inputs=input_ids, states=states, return_state=True)
            logits = logits[:, -1, :] / self.temperature + self.prediction_mask
            return self.chars_from_ids(tf.argmax(logits, axis=-1)), states
    one = OneStep(model)

    def generate(step, n):
        states, next_char, out = None, tf.constant(["he", "wo"]), []
        for _ in range(n):
            next_char, states = step(next_char, states=states)
            out.append(next_char)
        return tf.strings.join(out), states
    text, states = generate(one.generate_one_step, 4)
    traces = one.generate_one_step.experimental_get_tracing_count()  # (saving retraces in TF)
    d = os.path.join(tmp(), "one_step")
    saved = tf.saved_model.save(one, d)
    loaded = tf.saved_model.load(d)
    loaded_text, loaded_states = generate(loaded.generate_one_step, 4)
    return {"mask": one.prediction_mask, "text": text, "states": states, "saved": saved,
            "loaded_text": loaded_text, "loaded_states": loaded_states,
            "traces": traces, "signatures": sorted(loaded.signatures.keys())}


def program_nmt_text_processing_ragged(tf):
    import os
    from _sweep import tmp

    def tf_lower_and_split_punct(text):
        text = tf.strings.lower(text)
        text = tf.strings.regex_replace(text, "[^ a-z.?!,¿]", "")
        text = tf.strings.regex_replace(text, "[.?!,¿]", r" \0 ")
        text = tf.strings.strip(text)
        return tf.strings.join(["[START]", text, "[END]"], separator=" ")
    spanish = ["¿Todavía está en casa?", "Hola, mundo!", "El mundo es grande."]
    english = ["Are you still home?", "Hello, world!", "The world is big."]
    ctx = tf.keras.layers.TextVectorization(standardize=tf_lower_and_split_punct, max_tokens=40, ragged=True)
    tgt = tf.keras.layers.TextVectorization(standardize=tf_lower_and_split_punct, max_tokens=40, ragged=True)
    ctx.adapt(spanish)
    tgt.adapt(english)

    def process_text(context, target):
        context = ctx(context).to_tensor()
        target = tgt(target)
        return (context, target[:, :-1].to_tensor()), target[:, 1:].to_tensor()
    ds = tf.data.Dataset.from_tensor_slices((spanish, english)).batch(2).map(process_text, tf.data.AUTOTUNE)

    class Export(tf.Module):
        def __init__(self):
            self.ctx = ctx
            self.vocab = tf.constant(tgt.get_vocabulary())
            self.emb = tf.Variable(np.sin(np.arange(40 * 3)).reshape(40, 3).astype("float32"))

        @tf.function(input_signature=[tf.TensorSpec(dtype=tf.string, shape=[None])])
        def translate(self, texts):
            ids = self.ctx(texts).to_tensor()
            best = tf.argmax(tf.reduce_sum(tf.gather(self.emb, ids), axis=1), axis=-1)
            return {"ids": ids, "text": tf.strings.reduce_join([tf.gather(self.vocab, best)] * 2, axis=0,
                                                               separator=" ")}
    export = Export()
    d = os.path.join(tmp(), "translator")
    tf.saved_model.save(export, d, signatures={"serving_default": export.translate})
    loaded = tf.saved_model.load(d)
    return {"standardized": tf_lower_and_split_punct(tf.constant(spanish)), "vocab": ctx.get_vocabulary(),
            "ragged": ctx(tf.constant(spanish)), "batches": list(ds.as_numpy_iterator()), "spec": ds.element_spec,
            "translate": export.translate(tf.constant(spanish)),
            "loaded": loaded.signatures["serving_default"](texts=tf.constant(["hola mundo"])),
            "loaded_method": loaded.translate(tf.constant(["El mundo"])),
            "regex": [tf.strings.regex_replace("año ¿qué? ñ", "[¿ñ]", "_"),
                      tf.strings.regex_replace("añb", "a.b", "X"), tf.strings.regex_full_match("ñ", "."),
                      tf.strings.regex_replace("é x", r"\w", "W"), tf.strings.regex_replace("añ", "[^a]", "<\\0>")],
            "config_ragged": ctx.get_config()["ragged"]}


def program_pix2pix_generator_discriminator(tf):
    init = tf.random_normal_initializer(0.0, 0.02, seed=1)

    def downsample(filters, size, apply_batchnorm=True):
        block = tf.keras.Sequential()
        block.add(tf.keras.layers.Conv2D(filters, size, strides=2, padding="same", kernel_initializer=init,
                                         use_bias=False))
        if apply_batchnorm:
            block.add(tf.keras.layers.BatchNormalization())
        block.add(tf.keras.layers.LeakyReLU())
        return block

    def upsample(filters, size):
        return tf.keras.Sequential([
            tf.keras.layers.Conv2DTranspose(filters, size, strides=2, padding="same", kernel_initializer=init,
                                            use_bias=False),
            tf.keras.layers.BatchNormalization(), tf.keras.layers.ReLU()])
    first_init = init([3])
    inputs = tf.keras.layers.Input(shape=[8, 8, 3])
    d1 = downsample(4, 4, apply_batchnorm=False)(inputs)
    d2 = downsample(8, 4)(d1)
    x = tf.keras.layers.Concatenate()([upsample(4, 4)(d2), d1])
    gen = tf.keras.Model(inputs, tf.keras.layers.Conv2DTranspose(3, 4, strides=2, padding="same",
                                                                 activation="tanh")(x))
    inp = tf.keras.layers.Input(shape=[8, 8, 3], name="input_image")
    tar = tf.keras.layers.Input(shape=[8, 8, 3], name="target_image")
    y = downsample(4, 4, False)(tf.keras.layers.concatenate([inp, tar]))
    disc = tf.keras.Model([inp, tar], tf.keras.layers.Conv2D(1, 3)(tf.keras.layers.ZeroPadding2D()(y)))
    set_weights(gen, 0.2)
    set_weights(disc, 0.3)
    bce = tf.keras.losses.BinaryCrossentropy(from_logits=True)
    g_opt, d_opt = tf.keras.optimizers.Adam(2e-4, beta_1=0.5), tf.keras.optimizers.Adam(2e-4, beta_1=0.5)
    a = tf.constant(np.sin(np.arange(2 * 8 * 8 * 3).reshape(2, 8, 8, 3) * 0.1).astype("float32"))
    b = tf.constant(np.cos(np.arange(2 * 8 * 8 * 3).reshape(2, 8, 8, 3) * 0.1).astype("float32"))

    @tf.function
    def train_step(input_image, target):
        with tf.GradientTape() as gen_tape, tf.GradientTape() as disc_tape:
            fake = gen(input_image, training=True)
            real_out = disc([input_image, target], training=True)
            fake_out = disc([input_image, fake], training=True)
            gen_loss = bce(tf.ones_like(fake_out), fake_out) + 100 * tf.reduce_mean(tf.abs(target - fake))
            disc_loss = bce(tf.ones_like(real_out), real_out) + bce(tf.zeros_like(fake_out), fake_out)
        g_opt.apply_gradients(zip(gen_tape.gradient(gen_loss, gen.trainable_variables), gen.trainable_variables))
        d_opt.apply_gradients(zip(disc_tape.gradient(disc_loss, disc.trainable_variables),
                                  disc.trainable_variables))
        return gen_loss, disc_loss
    losses = [train_step(a, b) for _ in range(3)]
    img = tf.constant(np.arange(6 * 6 * 3).reshape(6, 6, 3).astype("float32"))
    return {"init": first_init, "shapes": [gen.output_shape, disc.output_shape], "losses": losses,
            "out": gen(a[:1], training=True)[0, 0], "n_vars": [len(gen.trainable_variables),
                                                             len(disc.trainable_variables)],
            "crop": tf.image.stateless_random_crop(img, size=[4, 4, 3], seed=(1, 2))[:, 0, 0],
            "flip": tf.image.stateless_random_flip_left_right(img, seed=(3, 4))[0, :, 0],
            "resize": tf.image.resize(img[None], [4, 4], method="nearest")[0, :, 0, 0]}
