"""tf.experimental.numpy (tnp): NumPy's API on tapeflow tensors, built from tapeflow ops, so
it traces under tf.function and differentiates on the tape.  tnp.ndarray is tf.Tensor."""
import sys

from tapeflow.runtime.tensor import Tensor as ndarray  # noqa: F401 (TF: an alias of tf.Tensor)
from tapeflow.experimental_numpy import random  # noqa: F401
from tapeflow.experimental_numpy.dtypes import *  # noqa: F401,F403
from tapeflow.experimental_numpy.dtypes import asarray, result_type, promote_types, finfo, iinfo, issubdtype  # noqa: F401
from tapeflow.experimental_numpy.creation import *  # noqa: F401,F403
from tapeflow.experimental_numpy.math_ops import *  # noqa: F401,F403
from tapeflow.experimental_numpy.math_ops import abs, round, divmod  # noqa: F401,A004
from tapeflow.experimental_numpy.reductions import *  # noqa: F401,F403
from tapeflow.experimental_numpy.reductions import sum, max, min, all, any  # noqa: F401,A004
from tapeflow.experimental_numpy.shapes import *  # noqa: F401,F403
from tapeflow.experimental_numpy.indexing import *  # noqa: F401,F403
from tapeflow.experimental_numpy.linalg import *  # noqa: F401,F403
from tapeflow.experimental_numpy.numpy_behavior import experimental_enable_numpy_behavior  # noqa: F401
from tapeflow.experimental_numpy.math_ops import pi, e, inf  # noqa: F401

newaxis = None

# `import tapeflow.experimental.numpy` works too: tf.experimental is a built namespace module.
sys.modules.setdefault("tapeflow.experimental.numpy", sys.modules[__name__])

__all__ = sorted(n for n in """
abs absolute add all allclose amax amin angle any append arange arccos arccosh arcsin arcsinh arctan
arctan2 arctanh argmax argmin argsort around array array_equal asanyarray asarray ascontiguousarray
atleast_1d atleast_2d atleast_3d average bitwise_and bitwise_not bitwise_or bitwise_xor bool_
broadcast_arrays broadcast_to cbrt ceil clip complex128 complex64 complex_ compress concatenate conj
conjugate copy cos cosh count_nonzero cross cumprod cumsum deg2rad diag diag_indices diagflat diagonal
diff divide divmod dot dsplit dstack e einsum empty empty_like equal exp exp2 expand_dims
experimental_enable_numpy_behavior expm1 eye fabs finfo fix flatten flip fliplr flipud float16 float32
float64 float_ float_power floor floor_divide full full_like gcd geomspace greater greater_equal
heaviside hsplit hstack hypot identity iinfo imag inexact inf inner int16 int32 int64 int8 int_ isclose
iscomplex iscomplexobj isfinite isinf isnan isneginf isposinf isreal isrealobj isscalar issubdtype ix_
kron lcm less less_equal linspace log log10 log1p log2 logaddexp logaddexp2 logical_and logical_not
logical_or logical_xor logspace matmul max maximum mean meshgrid min minimum mod moveaxis multiply
nanmean nanprod nansum ndarray ndim negative newaxis nextafter nonzero not_equal object_ ones ones_like
outer pad pi polyval positive power prod promote_types ptp rad2deg random ravel real reciprocal
remainder repeat reshape result_type roll rot90 round select shape sign signbit sin sinc sinh size sort
split sqrt square squeeze stack std string_ subtract sum swapaxes take take_along_axis tan tanh
tensordot tile trace transpose tri tril triu true_divide uint16 uint32 uint64 uint8 unicode_ vander
var vdot vsplit vstack where zeros zeros_like""".split())

# The star imports also brought their modules' helpers (np, tf, promote, ...) and the submodules
# are attributes of the package: keep TF's names only (the submodules stay in sys.modules).
for _name in [n for n in list(globals()) if not n.startswith("_") and n not in __all__]:
    del globals()[_name]
