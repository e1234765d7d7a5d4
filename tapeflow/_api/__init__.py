"""tapeflow's public API as one table: every public name is a name in one line of a table here.

A line is `module | namespaces | names`:
    runtime.ops.reduce_ops     | tf math      | reduce_sum reduce_mean add_n
- `module` is relative to `tapeflow` (`.`: each name is itself a module path, `keras`); each
  name is that module's attribute of the same name, or `public=attr` (attr may be dotted) where
  they differ; `namespaces` are where the names appear: `tf` is the top level, `math` is
  tf.math, `config.experimental` is tf.config.experimental.
- To add a public name, add it to the line of its module and namespaces in the table of its
  namespace group, or add a line: ops.py (the op functions of tf, tf.math, tf.linalg,
  tf.bitwise), nn_image.py (tf.nn, tf.image), core.py (tensors, dtypes, errors, nest, random),
  tracer.py (tf.function, control flow, debugging, autograph), library.py (packages, tf.config,
  TensorFlow 1 names). A new namespace also needs its one-line doc in NAMESPACES below.
- Nothing else: build.py creates the namespace modules (registered in sys.modules, so
  `import tapeflow.math` and `from tapeflow.nn import relu` work), sets the attributes, wraps
  the ops that have a ragged version (tapeflow.ragged_ops.dispatch_table) and derives every
  `__all__`. Packages backed by files (tf.keras, tf.data, tf.train, ...) own their names; a
  table line never adds a name to them.
"""

# The namespaces the table builds, each with its module docstring.
NAMESPACES = {
    "dtypes": "tf.dtypes: element types.",
    "dtypes.experimental": "tf.dtypes.experimental: float8, float4 and 2/4-bit integer types (ml_dtypes).",
    "errors": "tf.errors: exception types.",
    "nest": "tf.nest: nested structures (dicts flatten in sorted key order).",
    "random": "tf.random: seeded random tensors, generators and stateless ops.",
    "random.experimental": "tf.random.experimental: generators and seed splitting.",
    "math": "tf.math: elementwise math, reductions, comparisons.",
    "math.special": "tf.math.special: special functions (modified Bessel functions).",
    "linalg": "tf.linalg: matrix products, solves, decompositions and norms.",
    "linalg.experimental": "tf.linalg.experimental: conjugate gradients.",
    "bitwise": "tf.bitwise: integer bit operations.",
    "autodiff": "tf.autodiff: the gradient tape and forward-mode accumulator.",
    "signal": "tf.signal: FFTs, frames, windows, STFTs, DCTs and mel filter banks.",
    "nn": "tf.nn: activations, losses, convolution and pooling.",
    "nn.experimental": "tf.nn.experimental: stateless dropout.",
    "experimental": "tf.experimental: Optional values, DynamicRaggedShape and op determinism.",
    "audio": "tf.audio: 16-bit PCM WAV files.",
    "image": "tf.image: flips, resize, standardization, dtype conversion.",
    "debugging": "tf.debugging: assertions and numeric checks.",
    "autograph": "tf.autograph: the conversion of Python control flow.",
    "autograph.experimental": "tf.autograph.experimental: conversion options.",
    "types": "tf.types: public type protocols.",
    "types.experimental": "tf.types.experimental: TraceType and the function types.",
    "types.experimental.distributed": "tf.types.experimental.distributed: the per-replica value type.",
    "config": "tf.config: devices, placement and threading.",
    "config.experimental": "tf.config.experimental: memory growth and the TF 2.0 device names.",
    "config.optimizer": "tf.config.optimizer: the graph optimizer's switches (recorded).",
}
