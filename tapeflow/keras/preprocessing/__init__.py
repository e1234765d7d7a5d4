"""keras.preprocessing: sequence padding (keras.preprocessing.sequence.pad_sequences)."""
from tapeflow.keras.preprocessing import sequence  # noqa: F401
