"""The differential corpus: functions run eagerly and as tf.function graphs must agree."""
