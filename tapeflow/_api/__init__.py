"""tapeflow's public API as one table: every public name is one line of a table in this package.

A line is `name  object  namespaces`:
    reduce_sum    runtime.ops.reduce_ops:reduce_sum    tf math
- `name` is the public name; `object` is `module:attr` (module relative to `tapeflow`, attr may
  be dotted) or a bare module path for a package (`keras`); `namespaces` are where the name
  appears: `tf` is the top level, `math` is tf.math, `config.experimental` is
  tf.config.experimental.
- To add a public name, add its line to the table of its namespace group (ops.py: the op
  functions of tf, tf.math, tf.linalg, tf.bitwise; nn_image.py: tf.nn and tf.image; core.py:
  tensors, dtypes, errors, nest, random; tracer.py: tf.function, control flow, debugging,
  autograph; library.py: packages, tf.config, TensorFlow 1 names). A new namespace also needs
  its one-line doc in that file's NAMESPACES.
- Nothing else: build.py creates the namespace modules (registered in sys.modules, so
  `import tapeflow.math` and `from tapeflow.nn import relu` work), sets the attributes, wraps
  the ops that have a ragged version (tapeflow.ragged_ops.dispatch_table) and derives every
  `__all__`. Packages backed by files (tf.keras, tf.data, tf.train, ...) own their names; a
  table line never adds a name to them.
"""
