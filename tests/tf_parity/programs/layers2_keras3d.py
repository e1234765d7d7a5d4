"""keras.layers volumetric layers, Conv1DTranspose and the alias spellings, with
weights set from NumPy: outputs, shapes, gradients, and under tf.function."""
import numpy as np

from parity import tolerance


def _arr(shape, seed):
    return np.random.RandomState(seed).uniform(-1, 1, shape).astype(np.float32)


def _run(tf, layer, x, seed):
    layer.build(tf.TensorShape(x.shape))
    layer.set_weights([_arr(w.shape, seed + i) for i, w in enumerate(layer.get_weights())])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = layer(x)
        loss = tf.reduce_sum(y * y)
    return {"y": y, "dx": tape.gradient(loss, x),
            "shapes": [tuple(w.shape) for w in layer.get_weights()]}


@tolerance(rtol=1e-4, atol=1e-4)
def program_conv_layers(tf):
    L = tf.keras.layers
    x5 = tf.constant(_arr([2, 5, 6, 7, 3], 0))
    x3 = tf.constant(_arr([2, 6, 3], 1))
    cases = {
        "conv3d": L.Conv3D(4, 3, padding="same", activation="relu"),
        "conv3d_s2": L.Convolution3D(2, (2, 3, 2), strides=(2, 1, 2)),
        "conv3dt_same": L.Conv3DTranspose(2, 3, strides=2, padding="same"),
        "conv3dt_valid": L.Convolution3DTranspose(2, (2, 3, 3), strides=(1, 2, 3), use_bias=False),
        "conv1dt_same": L.Conv1DTranspose(4, 3, strides=2, padding="same"),
        "conv1dt_valid": L.Convolution1DTranspose(2, 4, strides=3),
        "conv2d_alias": L.Convolution2D(2, 2),
        "sep2d_alias": L.SeparableConvolution2D(2, 2, depth_multiplier=2),
    }
    out = {}
    for i, (name, layer) in enumerate(cases.items()):
        x = x3 if "conv1dt" in name else (x5[:, 0] if "2d" in name else x5)
        out[name] = _run(tf, layer, x, 10 * i)
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def program_pool_reshape_layers(tf):
    L = tf.keras.layers
    x = tf.constant(_arr([2, 5, 6, 7, 3], 2))
    cases = {
        "max": L.MaxPooling3D(), "max_same": L.MaxPool3D((3, 2, 2), strides=(2, 2, 3), padding="same"),
        "avg": L.AveragePooling3D((2, 3, 2)), "avg_same": L.AvgPool3D(3, 2, padding="same"),
        "gavg": L.GlobalAveragePooling3D(), "gavg_keep": L.GlobalAvgPool3D(keepdims=True),
        "gmax": L.GlobalMaxPooling3D(), "gmax_alias": L.GlobalMaxPool3D(),
        "up": L.UpSampling3D((1, 2, 3)), "up2": L.UpSampling3D(),
        "pad": L.ZeroPadding3D(), "pad2": L.ZeroPadding3D(((1, 0), (0, 2), (1, 1))),
        "crop": L.Cropping3D(), "crop2": L.Cropping3D(((0, 2), (1, 0), (2, 3))),
    }
    out = {}
    for name, layer in cases.items():
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = layer(x)
            loss = tf.reduce_sum(y * y * y)
        out[name] = y
        out[name + "_dx"] = tape.gradient(loss, x)
    return out


@tolerance(rtol=1e-4, atol=1e-4)
def program_volumetric_model(tf):
    tf.keras.utils.set_random_seed(3)
    L = tf.keras.layers
    inputs = tf.keras.Input((4, 8, 8, 1))
    h = L.Conv3D(2, 3, padding="same", activation="relu")(inputs)
    h = L.MaxPooling3D((1, 2, 2))(h)
    h = L.Conv3DTranspose(2, 2, strides=(1, 2, 2), padding="same")(h)
    h = L.GlobalAveragePooling3D()(h)
    model = tf.keras.Model(inputs, L.Dense(1)(h))
    model.set_weights([_arr(w.shape, 20 + i) for i, w in enumerate(model.get_weights())])
    out_shape = model.output_shape  # before a call: tapeflow's then holds the last call's batch
    x = tf.constant(_arr([3, 4, 8, 8, 1], 4))
    traces = []

    @tf.function
    def step(x):
        traces.append(1)
        with tf.GradientTape() as tape:
            y = model(x)
            loss = tf.reduce_mean(y * y)
        return y, tape.gradient(loss, model.trainable_variables)

    y, grads = step(x)
    step(x * 2.0)
    return {"y": y, "grads": grads, "out_shape": out_shape, "traces": len(traces)}


@tolerance(rtol=1e-4, atol=1e-4)
def program_conv1d_variants_rmsnorm(tf):
    L = tf.keras.layers
    x3 = tf.constant(_arr([2, 7, 3], 5))
    cases = {
        "dw1d": L.DepthwiseConv1D(3, depth_multiplier=2), "dw1d_same": L.DepthwiseConv1D(2, 2, padding="same"),
        "dw1d_dil": L.DepthwiseConv1D(3, dilation_rate=2),
        "sep1d": L.SeparableConv1D(4, 3, depth_multiplier=2, activation="tanh"),
        "sep1d_alias": L.SeparableConvolution1D(2, 2, strides=2, padding="same"),
        "rms": L.RMSNormalization(), "rms_eps": L.RMSNormalization(epsilon=0.5),
    }
    out = {name: _run(tf, layer, x3, 30 + 3 * i) for i, (name, layer) in enumerate(cases.items())}
    x4 = tf.constant(_arr([2, 3, 4, 5], 6))
    out["rms_axes"] = _run(tf, L.RMSNormalization(axis=[2, 3]), x4, 50)
    try:
        L.DepthwiseConv1D(3, padding="causal")(x3)
    except ValueError as e:
        out["causal"] = type(e).__name__
    out["rms_half"] = L.RMSNormalization()(tf.cast(x3, tf.float16))
    return out
