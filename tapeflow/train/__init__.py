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

# --- names added by tf_api2 (one line per public name; to move into the table of issue #16) ---
from tapeflow.train.checkpoint_classes import get_checkpoint_state  # noqa: F401,E402
from tapeflow.train.checkpoint_reading import (  # noqa: F401,E402
    CheckpointOptions,
    checkpoints_iterator,
    load_checkpoint,
)
from tapeflow.train.moving_average import ExponentialMovingAverage  # noqa: F401,E402
