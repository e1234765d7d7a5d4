"""tf.linalg's LinearOperator family: structured (batch) matrices that multiply, solve and
take determinants by their structure, built on tapeflow ops (so they trace and differentiate).

One module per kind of structure: base (the abstract operator and its dense defaults),
dense, diagonal (Diag, Identity, ScaledIdentity), triangular, wrappers (Adjoint, Inversion),
composition, block_diag, kronecker, low_rank."""
from .base import LinearOperator
from .block_diag import LinearOperatorBlockDiag
from .composition import LinearOperatorComposition
from .dense import LinearOperatorFullMatrix
from .diagonal import LinearOperatorDiag, LinearOperatorIdentity, LinearOperatorScaledIdentity
from .kronecker import LinearOperatorKronecker
from .low_rank import LinearOperatorLowRankUpdate
from .triangular import LinearOperatorLowerTriangular
from .wrappers import LinearOperatorAdjoint, LinearOperatorInversion
