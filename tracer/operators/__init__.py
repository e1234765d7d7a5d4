"""The runtime operators converted code calls (`ag__.*`).  Each decides when it
runs: Python values get plain Python; symbolic tensors get staged graph control
flow.  This module object is what converted code sees as `ag__`."""
from ..undefined import Undefined, UndefinedReturnValue, is_undefined, load_composite  # noqa: F401
from .control_flow import for_stmt, if_exp, if_stmt, loop_options, while_stmt  # noqa: F401
from .logical import and_, not_, or_  # noqa: F401
from .data_structures import list_append, list_pop  # noqa: F401
from .exceptions import assert_stmt  # noqa: F401
from .calls import converted_call, retval  # noqa: F401
