"""keras.layers: the layer classes and the merge functions."""
from tapeflow.keras.layers.base import Layer  # noqa: F401
from tapeflow.keras.input_spec import InputSpec  # noqa: F401
from tapeflow.keras.layers.augmentation import (  # noqa: F401
    RandomBrightness, RandomContrast, RandomCrop, RandomFlip,
)
from tapeflow.keras.layers.augmentation_affine import RandomRotation, RandomTranslation, RandomZoom  # noqa: F401
from tapeflow.keras.layers.augmentation_mixing import AutoContrast, CutMix, MixUp  # noqa: F401
from tapeflow.keras.layers.pipeline import Pipeline  # noqa: F401
from tapeflow.keras.layers.augmentation_color import (  # noqa: F401
    RandomColorDegeneration, RandomGrayscale, RandomHue, RandomInvert, RandomPosterization, RandomSaturation,
    RandomSharpness, Solarization,
)
from tapeflow.keras.layers.attention import AdditiveAttention, Attention, MultiHeadAttention  # noqa: F401
from tapeflow.keras.layers.einsum_dense import EinsumDense  # noqa: F401
from tapeflow.keras.layers.masking import Masking  # noqa: F401
from tapeflow.keras.layers.activation import ELU, LeakyReLU, PReLU, ReLU, Softmax  # noqa: F401
from tapeflow.keras.layers.conv import (  # noqa: F401
    AveragePooling2D, AvgPool2D, Conv2D, GlobalAveragePooling2D, GlobalAvgPool2D, MaxPool2D, MaxPooling2D,
)
from tapeflow.keras.layers.conv_variants import (  # noqa: F401
    Conv1D, Conv2DTranspose, Convolution1D, Convolution2DTranspose, DepthwiseConv2D, SeparableConv2D,
    DepthwiseConv1D, SeparableConv1D, SeparableConvolution1D,  # keras_layers2
)
from tapeflow.keras.layers.core import Activation, Dense, Dropout, Embedding, Flatten, Reshape  # noqa: F401
from tapeflow.keras.layers.input import Input, InputLayer  # noqa: F401
from tapeflow.keras.layers.lambda_layer import Identity, Lambda  # noqa: F401
from tapeflow.keras.layers.merge import (  # noqa: F401
    Add, Average, Concatenate, Dot, Maximum, Minimum, Multiply, Subtract, add, average, concatenate, dot,
    maximum, minimum, multiply, subtract,
)
from tapeflow.keras.layers.normalization import (  # noqa: F401
    BatchNormalization, GroupNormalization, LayerNormalization, RMSNormalization, UnitNormalization,
)
from tapeflow.keras.layers.pooling import (  # noqa: F401
    AveragePooling1D, AvgPool1D, GlobalAveragePooling1D, GlobalAvgPool1D, GlobalMaxPool1D, GlobalMaxPool2D,
    GlobalMaxPooling1D, GlobalMaxPooling2D, MaxPool1D, MaxPooling1D,
)
from tapeflow.keras.layers.image_preprocessing import CenterCrop, Resizing  # noqa: F401
from tapeflow.keras.layers.preprocessing import Normalization, Rescaling  # noqa: F401
from tapeflow.keras.layers.preprocessing_numeric import CategoryEncoding, Discretization  # noqa: F401
from tapeflow.keras.layers.text_lookup import IntegerLookup, StringLookup  # noqa: F401
from tapeflow.keras.layers.hashing import HashedCrossing, Hashing  # noqa: F401
from tapeflow.keras.layers.text_vectorization import TextVectorization  # noqa: F401
from tapeflow.keras.layers.recurrent import GRU, LSTM, SimpleRNN  # noqa: F401
from tapeflow.keras.layers.recurrent_cells import (  # noqa: F401
    RNN, GRUCell, LSTMCell, SimpleRNNCell, StackedRNNCells)
from tapeflow.keras.layers.regularization import (  # noqa: F401
    ActivityRegularization, AlphaDropout, GaussianDropout, GaussianNoise, SpatialDropout1D, SpatialDropout2D,
    SpatialDropout3D,
)
from tapeflow.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Permute, RepeatVector, UpSampling1D, UpSampling2D, ZeroPadding1D, ZeroPadding2D,
)
# ---- volumetric layers, Conv1DTranspose and Keras's other spellings (keras_layers2)
from tapeflow.keras.layers.volumetric import (  # noqa: F401
    AveragePooling3D, AvgPool3D, Conv1DTranspose, Conv3D, Conv3DTranspose, Convolution1DTranspose,
    Convolution2D, Convolution3D, Convolution3DTranspose, Cropping3D, GlobalAveragePooling3D, GlobalAvgPool3D,
    GlobalMaxPool3D, GlobalMaxPooling3D, MaxPool3D, MaxPooling3D, SeparableConvolution2D, UpSampling3D,
    ZeroPadding3D,
)
from tapeflow.keras.layers.wrappers import Bidirectional, TimeDistributed  # noqa: F401
