"""`f.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)`: TensorFlow traces an
unknown rank once; tapeflow's IR knows ranks statically, so this stands for that concrete
function: it shows the specs as given and, called, runs the Function's concrete function for
the ranks of the call (one trace per rank, bound and checked as any concrete function)."""
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor

from . import concrete_signature
from .signature import TensorSpec


def has_unknown_rank(args, kwargs):
    """Some top-level argument is a TensorSpec of unknown rank."""
    return any(isinstance(a, TensorSpec) and a.shape.rank is None for a in (*args, *kwargs.values()))


class UnknownRankConcreteFunction:
    def __init__(self, function, args, kwargs):
        self._function = function
        self.name = function.__name__
        self.input_structure = (tuple(args), dict(kwargs))
        self._traced = False
        self.call_signature = concrete_signature.python_signature(function.python_function)
        if self.call_signature is None:
            raise NotImplementedError(with_location(f"{self.name}: an unknown-rank spec needs an inspectable signature"))
        self.for_ranks(args, kwargs)   # trace now, as TensorFlow does (rank 0 stands for the unknown ranks)

    @property
    def structured_input_signature(self):
        return concrete_signature.structured_input_signature(self)

    def _bound(self, args, kwargs):
        try:
            return self.call_signature.bind_partial(*args, **kwargs).arguments
        except TypeError as exc:   # arguments the Python signature cannot bind
            raise TypeError(with_location(f"{self.name}: {exc}")) from None

    def for_ranks(self, args, kwargs):
        """The concrete function for the ranks of the given call's arguments."""
        given = self._bound(args, kwargs)
        specs = dict(self._bound(*self.input_structure))
        for name, spec in specs.items():
            if isinstance(spec, TensorSpec) and spec.shape.rank is None and name in given:
                value = given[name]
                rank = (value.shape.rank or 0) if isinstance(value, TensorSpec) else len(convert_to_tensor(value).shape)
                specs[name] = TensorSpec([None] * rank, spec.dtype, spec.name)
        counted = self._function._tracing_count
        concrete = self._function.get_concrete_function(**specs)
        if self._traced:
            # TensorFlow traced this one concrete function once: a trace for another rank is not counted
            self._function._tracing_count = counted
        self._traced = True
        return concrete

    def __call__(self, *args, **kwargs):
        return self.for_ranks(args, kwargs)(*args, **kwargs)

    def __repr__(self):
        specs = ", ".join(f"{k}={v!r}" for k, v in self._bound(*self.input_structure).items())
        return f"<ConcreteFunction {self.name}({specs}) (traced per rank of its unknown-rank inputs)>"
