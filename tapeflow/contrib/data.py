"""tf.contrib.data: the TensorFlow 1.x names of tf.data readers that eager-era programs use."""
from tapeflow.data.dataset import Dataset
from tapeflow.runtime.errors import with_location

__all__ = ["SqlDataset", "Dataset"]


def SqlDataset(driver_name, data_source_name, query, output_types):  # noqa: N802  (TF 1.x class name)
    """TF 1.7's database reader: the rows of `query` over the SQLite file `data_source_name`,
    one tuple of scalars per row typed by `output_types`.  TensorFlow only ever accepted
    driver_name="sqlite"; so do we."""
    if driver_name != "sqlite":
        raise ValueError(with_location(
            f"tf.contrib.data.SqlDataset: driver_name {driver_name!r} is not supported; only 'sqlite'"))
    return Dataset.from_sql(data_source_name, query, output_types=output_types)
