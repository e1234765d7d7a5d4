"""tf.data.Options: accepted and kept with the dataset.  tapeflow's pipelines are
always deterministic and run without graph rewrites, so the options change
nothing about what a pipeline yields; unknown option names are errors, as in TF."""
import enum


class AutoShardPolicy(enum.IntEnum):
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.IntEnum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionGroup:
    """Attributes with defaults (None: not set); setting another name is an error."""

    _defaults = {}
    _aliases = {}  # old name -> current name

    def __init__(self):
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name):
        name = type(self)._aliases.get(name, name)
        defaults = type(self)._defaults
        if name not in defaults:
            raise AttributeError(f"{type(self).__name__} has no option {name!r}")
        values = self.__dict__["_values"]
        if name not in values and isinstance(defaults[name], type):  # a nested group, made on first use
            values[name] = defaults[name]()
        return values.get(name, None if isinstance(defaults[name], type) else defaults[name])

    def __setattr__(self, name, value):
        name = type(self)._aliases.get(name, name)
        if name not in type(self)._defaults:
            raise AttributeError(f"Cannot set the property {name!r} on {type(self).__name__}; "
                                 f"known: {sorted(type(self)._defaults)}")
        want = _option_type(type(self)._defaults[name], name)
        if value is not None and want is not None and not (
                isinstance(value, want) and (want is not int or not isinstance(value, bool))):
            raise TypeError(f"Property \"{name}\" must be of type {want.__name__}, got: {value!r} "
                            f"(type: {type(value).__name__}).")
        self._values[name] = value

    def __eq__(self, other):
        return type(self) is type(other) and self._values == other._values

    def merge(self, other):
        """A copy of self with every option that `other` sets taking `other`'s value."""
        out = type(self)()
        for name, value in list(self._values.items()) + list(other._values.items()):
            if isinstance(value, _OptionGroup) and isinstance(out._values.get(name), _OptionGroup):
                value = out._values[name].merge(value)
            out._values[name] = value
        return out


_INT_OPTIONS = frozenset(("cpu_budget", "ram_budget", "num_devices", "max_intra_op_parallelism",
                          "private_threadpool_size"))
_ENUM_OPTIONS = {"auto_shard_policy": AutoShardPolicy, "experimental_external_state_policy": ExternalStatePolicy}


def _option_type(default, name):
    """The type TF's option `name` takes: a nested group, an enum, int (the sizes), else bool.
    experimental_slack and friends are bools too; autotune_algorithm is left unchecked."""
    if isinstance(default, type):
        return default
    if name in _ENUM_OPTIONS:
        return _ENUM_OPTIONS[name]
    if name == "autotune_algorithm":
        return None
    return int if name in _INT_OPTIONS else bool


class AutotuneOptions(_OptionGroup):
    _defaults = {"enabled": None, "cpu_budget": None, "ram_budget": None, "autotune_algorithm": None}


class DistributeOptions(_OptionGroup):
    _defaults = {"auto_shard_policy": AutoShardPolicy.AUTO, "num_devices": None}


class OptimizationOptions(_OptionGroup):
    _defaults = {name: None for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization",
        "noop_elimination", "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion",
        "warm_start")}


class ThreadingOptions(_OptionGroup):
    _defaults = {"max_intra_op_parallelism": None, "private_threadpool_size": None}


class Options(_OptionGroup):
    _defaults = {
        "autotune": AutotuneOptions, "deterministic": None, "experimental_distribute": DistributeOptions,
        "experimental_external_state_policy": None, "experimental_optimization": OptimizationOptions,
        "experimental_slack": None, "experimental_symbolic_checkpoint": None,
        "experimental_warm_start": None, "threading": ThreadingOptions,
    }
    _aliases = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}
