"""Public names of the tracer: tf.function, graph control flow, autograph."""
