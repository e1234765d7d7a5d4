"""tf.train: checkpoints, the global step and the TensorFlow 1 optimizers."""
from tapeflow.train.checkpoint_format import (  # noqa: F401
    CheckpointError, CheckpointNotFoundError, list_variables, load_variable,
)
from tapeflow.train.checkpoint_classes import Checkpoint, CheckpointManager, Saver, latest_checkpoint  # noqa: F401
from tapeflow.train.optimizers import (  # noqa: F401
    AdagradOptimizer, AdamOptimizer, GradientDescentOptimizer, MomentumOptimizer, Optimizer,
    RMSPropOptimizer, exponential_decay, get_global_step,
    get_or_create_global_step,
)
from tapeflow.io.example_pb import (  # noqa: F401  (tf.train's protocol messages)
    BytesList, Example, Feature, FeatureList, FeatureLists, Features, FloatList, Int64List, SequenceExample,
)
