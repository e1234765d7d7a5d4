"""tf.linalg's LinearOperator family: structured (batch) matrices that multiply, solve and
take determinants by their structure, built on tapeflow ops (so they trace and differentiate).

One module per kind of structure: base (the abstract operator and its dense defaults),
dense, diagonal (Diag, Identity, ScaledIdentity), triangular, wrappers (Adjoint, Inversion),
composition, block_diag, block_lower, kronecker, low_rank, fourier (Circulant 1-3D,
Toeplitz), tridiag, special (Zeros, Permutation, Householder)."""
from .base import LinearOperator  # noqa: F401 - the package's public names
from .block_diag import LinearOperatorBlockDiag  # noqa: F401
from .block_lower import LinearOperatorBlockLowerTriangular  # noqa: F401
from .composition import LinearOperatorComposition  # noqa: F401
from .dense import LinearOperatorFullMatrix  # noqa: F401
from .diagonal import LinearOperatorDiag, LinearOperatorIdentity, LinearOperatorScaledIdentity  # noqa: F401
from .fourier import (LinearOperatorCirculant, LinearOperatorCirculant2D,  # noqa: F401
                      LinearOperatorCirculant3D, LinearOperatorToeplitz)
from .kronecker import LinearOperatorKronecker  # noqa: F401
from .low_rank import LinearOperatorLowRankUpdate  # noqa: F401
from .special import LinearOperatorHouseholder, LinearOperatorPermutation, LinearOperatorZeros  # noqa: F401
from .triangular import LinearOperatorLowerTriangular  # noqa: F401
from .tridiag import LinearOperatorTridiag  # noqa: F401
from .wrappers import LinearOperatorAdjoint, LinearOperatorInversion  # noqa: F401
