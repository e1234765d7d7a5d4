"""tf.Module and tf.name_scope.

A Module finds its variables and submodules by walking its attributes when
asked (lists, tuples, dicts and nested modules included), as TensorFlow does:
nothing is registered at assignment time.  Keras layers are Modules that keep
their own, assignment-time tracking and override these properties."""
import functools
import re

from tapeflow.runtime import variables as variables_mod
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.variables import Variable
from tapeflow.train.trackable import Trackable

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.\-]*$")


class name_scope:  # noqa: N801 - TensorFlow's name
    """`with tf.name_scope("block"):` prefixes the names of variables created inside
    ("block/w:0"); scopes nest.  A name ending in "/" is used as the full scope."""

    def __init__(self, name, *unused):
        self._name = "" if name is None else str(name)
        self._pushed = False

    @property
    def name(self):
        return self._name

    def __enter__(self):
        stack = variables_mod.name_scopes()
        if self._name.endswith("/"):
            full = self._name[:-1]
            self._saved = list(stack)
            stack[:] = [full] if full else []
        else:
            self._saved = None
            if self._name:
                stack.append(self._name)
        self._pushed = True
        return "/".join(stack) + "/" if stack else ""

    def __exit__(self, *exc):
        stack = variables_mod.name_scopes()
        if self._saved is not None:
            stack[:] = self._saved
        elif self._name:
            stack.pop()
        return False


def _snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


# Attributes never walked: they hold references back up or bookkeeping.
_IGNORED = frozenset({"_self_unconditional_checkpoint_dependencies", "_deferred_restores",
                      "_deferred_slot_restores"})


def _leaves(value):
    """The variables and modules in an attribute's value: dicts by sorted key, sequences in order."""
    if isinstance(value, (Variable, Module)):
        yield value
    elif isinstance(value, dict):
        for k in sorted(value, key=str):
            yield from _leaves(value[k])
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)


class Module(Trackable):
    """Base class of objects that own variables and other modules."""

    # A checkpoint value whose variable or submodule does not exist yet waits on the
    # module until the attribute is set (as TensorFlow's deferred restoration).
    _defers_missing_children = True

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if self.__dict__.get("_deferred_restores") or self.__dict__.get("_deferred_slot_restores"):
            if isinstance(value, Variable):
                self._take_deferred(name, value)
            elif isinstance(value, Trackable):
                for path, (val, src) in self._pending_child_paths(name).items():
                    value._defer_restore(path, val, src)

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _NAME.match(name):
            raise ValueError(with_location(
                f"Module: {name!r} is not a valid module name; use letters, digits, '_', '.', '-', "
                f"starting with a letter or '_'"))
        self.__dict__["_name"] = name
        stack = variables_mod.name_scopes()
        self.__dict__["_scope_name"] = "/".join(stack + [name])

    @property
    def name(self):
        return self.__dict__.get("_name") or _snake(type(self).__name__)

    @property
    def name_scope(self):
        """A context manager entering this module's scope (its name, nested where it was made)."""
        return name_scope(self.__dict__.get("_scope_name", self.name) + "/")

    def _walk_attributes(self, predicate, seen, out, recurse_modules=True):
        """TensorFlow's order: this module's own leaves (attribute-name order), then each
        submodule's, in the order they were met."""
        submodules = []
        for key in sorted(vars(self)):
            if key in _IGNORED:
                continue
            for leaf in _leaves(vars(self)[key]):
                if id(leaf) in seen:
                    continue
                seen.add(id(leaf))
                if predicate(leaf):
                    out.append(leaf)
                if recurse_modules and isinstance(leaf, Module):
                    submodules.append(leaf)
        for module in submodules:
            module._walk_attributes(predicate, seen, out)

    def _flatten(self, predicate, recursive=True):
        seen, out = {id(self)}, []
        self._walk_attributes(predicate, seen, out, recursive)
        return tuple(out)

    @property
    def variables(self):
        """Every variable of this module and its submodules, each once (attribute-name order)."""
        return self._flatten(lambda v: isinstance(v, Variable))

    @property
    def trainable_variables(self):
        return self._flatten(lambda v: isinstance(v, Variable) and v.trainable)

    @property
    def non_trainable_variables(self):
        return self._flatten(lambda v: isinstance(v, Variable) and not v.trainable)

    @property
    def submodules(self):
        return self._flatten(lambda v: isinstance(v, Module))

    def _trackable_children(self):
        """Checkpoint children: attributes that hold variables or trackables (lists
        and dicts by index/key), so tf.train.Checkpoint can save a plain Module."""
        out = {}

        def add(path, value):
            if isinstance(value, (Variable, Trackable)):
                out[path] = value
            elif isinstance(value, dict):
                for k in sorted(value, key=str):
                    add(f"{path}/{k}", value[k])
            elif isinstance(value, (list, tuple)):
                for i, v in enumerate(value):
                    add(f"{path}/{i}", v)

        for key in sorted(vars(self)):
            if key not in _IGNORED:
                add(key, vars(self)[key])
        return out

    @classmethod
    def with_name_scope(cls, method):
        """Decorator: run `method` inside `self.name_scope`."""
        @functools.wraps(method)
        def wrapper(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapper

    def __repr__(self):
        return f"<{type(self).__module__}.{type(self).__name__} object name={self.name}>"
