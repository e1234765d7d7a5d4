"""tf.data: input pipelines."""
from tapeflow.data import sources as _sources  # noqa: F401  (adds from_generator / from_sql)
from tapeflow.data.dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN


class experimental:  # noqa: N801 - tf.data.experimental namespace
    AUTOTUNE = AUTOTUNE
    INFINITE_CARDINALITY = INFINITE
    UNKNOWN_CARDINALITY = UNKNOWN

    @staticmethod
    def cardinality(dataset):
        return dataset.cardinality()
