"""tf.Variable: a mutable holder of a tensor value.  Reads go through `value()`,
which is where tapes (watch on access) and graphs (read nodes) hook in."""
import contextlib
import enum
import functools
import itertools
import sys
import threading
import weakref

import numpy as np

from . import dtypes, registry
from .errors import no_strings, with_location
from .registry import state
from .shape import TensorShape
from .public_conversion import refuse_numbers_as_bool
from .tensor import Tensor, TensorBase, convert_to_tensor, numpy_text
from . import tape as tape_mod
from .ops import array_ops

_NO_ATTRS = {}

_uid = itertools.count()
_scopes = threading.local()
# Functions called with every new variable, last pushed first (tf.distribute's
# strategies push one in scope() to mirror the initial value across processes).
creation_hooks = []
# Set by tapeflow.distribute: replica_write(variable, kind, value, read_value) is offered every
# write to a variable made with an aggregation (SUM / MEAN / ONLY_FIRST_REPLICA); inside the
# replicas of a MirroredStrategy.run it merges the replicas' writes into one and returns the
# write's result, elsewhere NotImplemented (the write goes on here).
replica_write = None


class VariableSynchronization(enum.Enum):
    """tf.VariableSynchronization: accepted by tf.Variable (one copy per variable here)."""
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


class VariableAggregation(enum.Enum):
    """tf.VariableAggregation: how replicas' updates combine (accepted by tf.Variable)."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3


def current_name_scope():
    """tf.get_current_name_scope: the active tf.name_scope names joined by '/'."""
    return "/".join(name_scopes())


def name_scopes():
    """This thread's stack of tf.name_scope names (tapeflow.module pushes them);
    a variable made inside is named "scope/inner/name:0"."""
    stack = getattr(_scopes, "stack", None)
    if stack is None:
        stack = _scopes.stack = []
    return stack


class Variable(TensorBase):
    __slots__ = ("_value", "_name", "trainable", "_uid", "_shape", "_dtype", "__weakref__", "__dict__")
    _auto_watch = property(lambda self: self.trainable)  # tapes watch a read variable when true (Keras: as made)

    def __new__(cls, *args, **kwargs):
        if CREATORS and cls is Variable:
            return _through_creators(args, kwargs)
        return super().__new__(cls)

    def __init__(self, initial_value=None, trainable=True, name=None, dtype=None, shape=None,
                 validate_shape=True, constraint=None, synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, **unused):
        if self.__dict__.get("_via_creators") and hasattr(self, "_value"):
            return  # made by the creators already: Python calls __init__ again after __new__
        if callable(initial_value):
            initial_value = initial_value()
        if initial_value is None:
            raise ValueError("Variable: initial_value is required")
        hook = state.graph
        if hook is not None:
            hook.on_variable_created(self)
        # The initial value is computed eagerly even while tracing (TensorFlow
        # lifts variable initializers out of the function graph).
        value = initial_value.read_value() if isinstance(initial_value, Variable) else initial_value
        refuse_numbers_as_bool(value, dtype)
        t = convert_to_tensor(value, dtype) if not isinstance(value, Tensor) else value
        if hook is not None and not isinstance(t, Tensor):
            t = hook.evaluate_constant(t, call_inputs=True)  # lifted out (may read the traced call's arguments)
        if dtype is not None and t.dtype != dtypes.as_dtype(dtype):
            if type(self) is Variable and isinstance(t, Tensor):  # TF converts, never casts (Keras casts)
                raise ValueError(with_location(f"Variable initial_value: a {t.dtype.name} tensor given for dtype "
                                               f"{dtypes.as_dtype(dtype).name}"))
            t = Tensor(t._value.astype(dtypes.as_dtype(dtype).np))
        if not isinstance(t, Tensor):
            raise TypeError(with_location(
                "Variable: the initial value must be computable eagerly (it may not depend on the "
                "arguments of a traced function)"))
        self._value = t
        self._dtype = t.dtype
        # The shape assignments must keep; `shape` reports it where it is not fully known
        # (shape=TensorShape(None), [None], validate_shape=False), as TF's does.
        declared = shape if isinstance(shape, TensorShape) or shape is None else TensorShape(shape)
        declared = TensorShape(None) if declared is None and not validate_shape else declared
        if declared is not None and not declared.is_compatible_with(t.shape):
            raise ValueError(with_location(
                f"Variable: the initial value has shape {list(t.shape)}, not compatible with shape={declared}"))
        self._shape = t.shape if declared is None else declared
        if declared is not None and not declared.is_fully_defined():
            self.__dict__["_declared_shape"] = declared
        self.__dict__["_sync_agg"] = (VariableSynchronization(synchronization), VariableAggregation(aggregation))
        self.trainable = bool(trainable)
        self.constraint = constraint  # applied by optimizers after each update, as in TF
        self._uid = next(_uid)
        stack = getattr(_scopes, "stack", None)
        self._name = "/".join((stack or []) + [name or "Variable"]) + ":0"
        for created in reversed(creation_hooks):
            created(self)

    # -- reading
    def value(self):
        g = state.graph
        t = self._value if g is None else g.read_variable(self)
        if state.tapes:
            t = record_read(self, t)
        return t

    read_value = value

    def numpy(self):
        return self._value.numpy()

    @property
    def shape(self):
        declared = self.__dict__.get("_declared_shape")
        return self._value.shape if declared is None else declared

    synchronization = property(lambda self: self.__dict__.get("_sync_agg", (VariableSynchronization.AUTO,))[0])
    aggregation = property(lambda self: self.__dict__.get("_sync_agg", (None, VariableAggregation.NONE))[1])

    @property
    def dtype(self):
        return self._dtype

    @property
    def name(self):
        return self._name

    @property
    def device(self):
        return self._value.device

    def get_shape(self):
        return self.shape

    # -- writing
    def _checked(self, value, op):
        if type(value) is Tensor:  # eager: the shape and dtype of the value it replaces pass both checks
            new, cur = value._value, self._value._value
            if new.shape == cur.shape and new.dtype == cur.dtype:
                return value
        refuse_numbers_as_bool(value, self._dtype)
        t = convert_to_tensor(value, self._dtype) if not isinstance(value, TensorBase) else convert_to_tensor(value)
        if t.dtype is not self._dtype:  # TensorFlow's ValueError ("Tensor conversion requested dtype")
            raise ValueError(with_location(
                f"{op}: variable {self._name} has dtype {self._dtype.name}, the value has {t.dtype.name}"))
        if self._shape is not None and not self._shape.is_compatible_with(t.shape):
            raise ValueError(with_location(
                f"{op}: variable {self._name} has shape {list(self._shape)}, the value has {list(t.shape)}"))
        return t

    def _merged_by_replicas(self, kind, value, read_value):
        agg = self.__dict__.get("_sync_agg")
        if replica_write is None or agg is None or agg[1] is VariableAggregation.NONE:
            return NotImplemented
        return replica_write(self, kind, value, read_value)

    def assign(self, value, use_locking=None, name=None, read_value=True):
        done = self._merged_by_replicas("assign", value, read_value)
        if done is not NotImplemented:
            return done
        t = self._checked(value, "assign")
        g = state.graph
        if g is not None:
            g.assign_variable(self, t)
        else:
            self._store(t)
        return self if read_value else None

    def _store(self, t):
        """The one place a new value is written into the variable, eagerly or by compiled
        code (an open undone_writes journal keeps the value it replaces)."""
        for journal in getattr(_journals, "open", ()):
            journal.setdefault(id(self), (self, self._value))
        self._value = t

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        done = self._merged_by_replicas("assign_add", delta, read_value)
        if done is not NotImplemented:
            return done
        if self._dtype is dtypes.string:  # `+` concatenates strings; TensorFlow has no such kernel
            raise no_strings("assign_add", self)
        t = self._checked(delta, "assign_add")
        if self._in_place(np.add, t):
            return self if read_value else None
        return self.assign(self.read_value() + t, read_value=read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        done = self._merged_by_replicas("assign_sub", delta, read_value)
        if done is not NotImplemented:
            return done
        t = self._checked(delta, "assign_sub")
        if self._in_place(np.subtract, t):
            return self if read_value else None
        return self.assign(self.read_value() - t, read_value=read_value)

    def _in_place(self, ufunc, t):
        """Eagerly `ufunc(value, t, out=value)` into the variable's own array when nothing
        else can see that array: the values of `value op t` without a new array (an
        optimizer's update of a large kernel allocates nothing).  Returns False, having done
        nothing, while tracing or recording (the read is taped), inside undone_writes, for
        another shape or dtype (broadcasting, promotion), or when anything else refers to
        the array: the variable's Tensor must be held only by the variable and the array
        only by that Tensor (a user's `v.read_value()` or np.asarray(v), a tape record, a journal,
        a view, a compiled constant all add a reference), so no tensor ever seen changes."""
        if state.graph is not None or state.tapes or getattr(_journals, "open", None) or type(t) is not Tensor:
            return False
        cur = self._value
        a, b = cur._value, t._value
        if type(a) is not np.ndarray or type(b) is not np.ndarray or a.base is not None \
                or a.shape != b.shape or a.dtype != b.dtype or a.dtype.kind not in "fc" or not a.flags.writeable:
            return False
        # Three references each: its owner's slot, this frame's name, getrefcount's argument.
        if sys.getrefcount(cur) != 3 or sys.getrefcount(a) != 3:
            return False
        ufunc(a, b, out=a)
        return True

    # -- scatters: rows of IndexedSlices (scatter_*) or nd indices (scatter_nd_*)
    def _scatter_nd(self, kind, indices, updates):
        from .ops import gather_ops
        return self.assign(getattr(gather_ops, f"tensor_scatter_nd_{kind}")(self.read_value(), indices, updates))

    def _scatter_rows(self, kind, sparse_delta):
        if not getattr(type(sparse_delta), "_is_indexed_slices", False):
            raise TypeError(with_location(
                f"{self.name}.scatter_{kind}: sparse_delta is not IndexedSlices: {sparse_delta!r}"))
        from .ops import array_ops
        indices = array_ops.expand_dims(sparse_delta.indices, -1)
        return self._scatter_nd(kind, indices, sparse_delta.values)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd("update", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd("add", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd("sub", indices, updates)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("update", sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("add", sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("sub", sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("max", sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter_rows("min", sparse_delta)

    def sparse_read(self, indices, name=None):
        from .ops import gather_ops
        return gather_ops.gather(self.read_value(), indices)

    def gather_nd(self, indices, name=None):
        from .ops import gather_ops
        return gather_ops.gather_nd(self.read_value(), indices)

    def __getitem__(self, key):
        """A read of a slice; like TensorFlow, the result also has `.assign(value)`,
        which writes the value into that slice of this variable."""
        from .ops import indexing
        out = indexing.getitem(self.read_value(), key)
        _slice_sources[id(out)] = (weakref.ref(out, lambda _, k=id(out): _slice_sources.pop(k, None)), self, key)
        return out

    # -- Python protocol (eager only)
    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.read_value(), dtype=dtype)

    def __bool__(self):
        return bool(self.read_value())

    def __float__(self):
        return float(self.read_value())

    def __int__(self):
        return int(self.read_value())

    def __index__(self):
        return self.read_value().__index__()

    def __format__(self, spec):
        return format(self.read_value(), spec)

    def __repr__(self):
        v = self._value
        return (f"<tf.Variable '{self._name}' shape={self.shape} dtype={self._dtype.name}, "
                f"numpy={numpy_text(v.numpy(), True)}>")

    def __hash__(self):  # as TF's: == is elementwise, so tables key a variable by .ref() or id()
        raise TypeError(f"Variable is unhashable. Instead, use variable.ref() as the key. (Variable: {self!r})")

    def __eq__(self, other):
        from .ops import math_ops
        return math_ops.equal(self, other)

    def __reduce__(self):
        raise TypeError("Variables are not picklable; use tf.train.Checkpoint")


# tf.variable_creator_scope's creators, outermost first.
CREATORS = []
# What TF passes a creator, with its defaults; the first nine are Variable's parameters, in order.
_CREATOR_KWARGS = {"initial_value": None, "trainable": None, "name": None, "dtype": None, "shape": None,
                   "validate_shape": True, "constraint": None, "synchronization": VariableSynchronization.AUTO,
                   "aggregation": VariableAggregation.NONE, "caching_device": None, "variable_def": None,
                   "import_scope": None, "experimental_enable_variable_lifting": True}
_INIT_KWARGS = list(_CREATOR_KWARGS)[:9]


@contextlib.contextmanager
def variable_creator_scope(variable_creator):
    """tf.Variable(...) calls variable_creator(next_creator, **kwargs) inside (the innermost scope's
    creator first; the last next_creator makes the variable)."""
    CREATORS.append(variable_creator)
    try:
        yield
    finally:
        del CREATORS[len(CREATORS) - 1 - CREATORS[::-1].index(variable_creator)]


def _through_creators(args, kwargs):
    given = dict(zip(_INIT_KWARGS, args))
    given.update(kwargs)
    full = {k: given.get(k, default) for k, default in _CREATOR_KWARGS.items()}

    def make(**kw):
        init = {k: kw[k] for k in _INIT_KWARGS if k in kw}
        if init.get("trainable") is None:
            init["trainable"] = kw.get("synchronization") is not VariableSynchronization.ON_READ
        v = object.__new__(Variable)
        Variable.__init__(v, **init)
        v.__dict__["_via_creators"] = True
        return v
    creator = make
    for c in CREATORS:
        creator = functools.partial(c, creator)
    return creator(**full)


def record_read(var, t):
    """A read while tapes are active: auto-watch trainable variables, and record
    an identity from the variable to a fresh tensor so gradients reach `var`."""
    hit = False
    for tape in state.tapes:
        if id(var) not in tape.watched and tape.watch_accessed_variables and var._auto_watch:
            tape.watch(var)
        if id(var) in tape.watched:
            hit = True
    if not hit:
        return t
    if type(t) is Tensor and registry.place is None:
        # eager, no GPU in use: identity's result is a fresh tensor of the same array
        out = Tensor(t._value)
    else:
        saved = list(state.tapes)
        state.tapes[:] = []  # the identity itself is recorded below, against the variable
        try:
            out = array_ops.identity(t)
        finally:
            state.tapes[:] = saved
    tape_mod.record(array_ops.IDENTITY, (var,), _NO_ATTRS, out)
    return out


# id(slice result) -> (weakref to it, variable, index): what `variable[index].assign` writes to.
_slice_sources = {}
_journals = threading.local()  # .open: this thread's undone_writes journals, innermost last


@contextlib.contextmanager
def undone_writes():
    """Within: every variable write is journaled and undone on exit, so a look-ahead (tf.data
    learning a mapped data set's structure from a first element it computes) leaves no trace
    in variables (a Keras layer's seed state, a tf.random.Generator, a counter).  Per thread:
    writes that other threads make meanwhile (a training step) are theirs and stay."""
    journal = {}
    if not hasattr(_journals, "open"):
        _journals.open = []
    _journals.open.append(journal)
    try:
        yield
    finally:
        _journals.open.remove(journal)
        for var, old in journal.values():
            var._value = old


def _assign_into_slice(var, key, value):
    """var[key] = value, for any index getitem accepts: index a tensor of flat positions
    with the same key, then scatter the (broadcast) value into those positions."""
    from .ops import array_ops, gather_ops, indexing
    shape = var._value.shape.as_list()  # the value's shape: a declared one may be unknown
    positions = indexing.getitem(array_ops.reshape(array_ops.range_(int(np.prod(shape))), shape), key)
    value = value if isinstance(value, TensorBase) else convert_to_tensor(value, var._dtype)
    if value.dtype is not var._dtype:
        raise ValueError(with_location(  # TF: "Tensor conversion requested dtype"
            f"assign to a slice of {var.name}: the variable has dtype {var._dtype.name}, the value has {value.dtype.name}"))
    value = array_ops.broadcast_to(value, array_ops.shape(positions))
    flat = gather_ops.tensor_scatter_nd_update(
        array_ops.reshape(var.read_value(), [-1]), array_ops.reshape(positions, [-1, 1]), array_ops.reshape(value, [-1]))
    return var.assign(array_ops.reshape(flat, shape))


def _slice_assign(t):
    entry = _slice_sources.get(id(t))
    if entry is None or entry[0]() is not t:
        raise AttributeError(f"'{type(t).__name__}' object has no attribute 'assign' "
                             "(only a slice of a tf.Variable, such as v[0], can be assigned)")
    _, var, key = entry
    return lambda value, use_locking=None, name=None, read_value=True: _assign_into_slice(var, key, value)


# A property, so hasattr(tensor, "assign") stays False for tensors that are not variable slices.
TensorBase.assign = property(_slice_assign)
