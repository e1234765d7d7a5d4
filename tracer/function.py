"""tf.function: trace a Python function into a graph once per call signature, then run it.

Call path (keep it lean: a repeated signature must cost microseconds):
    key = signature key of the arguments (shape and dtype of tensors, value of
          hashable Python arguments, identity of other objects and variables)
    concrete = cache[key]  (trace on a miss)
    outputs = concrete.call_flat(flat tensor arrays)
Tracing runs the AutoGraph-converted function with a GraphBuilder installed as
the dispatch hook; tapes are paused meanwhile.  When tracing needs a concrete
value (`.numpy()`, `float(t)`, Python control flow on a symbolic tensor in code
that could not be converted), the function runs eagerly instead, with one
warning that says why (unless fallback=False).
"""
import functools
import inspect
import threading
import types
import warnings
import weakref

from tapeflow.runtime import nest
from tapeflow.runtime.errors import user_location, with_location
from tapeflow.runtime.graph_hook import graph_context
from tapeflow.runtime.registry import state
from tapeflow.runtime.tape import pause
from tapeflow.runtime.tensor import (OperatorNotAllowedInGraphError, SymbolicTensor, Tensor,
                                     convert_to_tensor)

from . import call_binding, concrete_signature, conversion, trace_builder
from .operators.calls import autograph_features
from .concrete import ConcreteFunction, rebind_variables
from .fast_call import MISS, make_guard
from .autograph_errors import StagingError
from .pyct.parser import ConversionError
from .rank_concrete import UnknownRankConcreteFunction, has_unknown_rank
from .signature import NUMBER, TensorSpec, spec_accepts, variable_arguments, arg_key, _generalize, _is_tensor_leaf, _leaves, flat_tensor_arrays

RETRACE_WARNING_AFTER = 5
_EAGER = object()  # cache entry: this signature runs eagerly (fallback)


class _Settings:
    run_functions_eagerly = False


def run_functions_eagerly(run_eagerly):
    """tf.config.run_functions_eagerly: every tf.function runs its Python code."""
    _Settings.run_functions_eagerly = bool(run_eagerly)


def functions_run_eagerly():
    return _Settings.run_functions_eagerly


class Function:
    """A callable that traces its Python function into graphs (tf.function)."""

    def __init__(self, python_function, input_signature=None, autograph=True, reduce_retracing=False,
                 jit_compile=None, fallback=True, name=None, autograph_options=None):
        self.python_function = python_function
        self.input_signature = None if input_signature is None else tuple(input_signature)
        call_binding.check_signature_arity(python_function, self.input_signature)
        self._autograph = autograph
        self._autograph_options = autograph_options  # experimental_autograph_options (Feature values)
        self._reduce_retracing, self._jit_compile = reduce_retracing, jit_compile
        self._fallback = fallback
        self.__name__ = name or getattr(python_function, "__name__", type(python_function).__name__)
        self._cache = {}
        self._last_call = None  # the guard of the last keyed call's entry (fast_call.py)
        self._lock = threading.RLock()
        self._tracing_count = 0
        self._traced_once = False
        self._variables_made = 0  # variables created by its traces (the first trace's rule)
        self._key_history = []
        self._warned = set()
        self._converted = None
        self._conversion_error = None
        self._bound = weakref.WeakKeyDictionary()
        try:
            functools.update_wrapper(self, python_function)
        except (AttributeError, TypeError):
            pass

    # -- descriptor: a method decorated with @function is bound per instance
    def __get__(self, instance, owner):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:  # instance not weak-referenceable / hashable
            bound = None
        if bound is None:
            bound = Function(types.MethodType(self.python_function, instance), self.input_signature,
                             self._autograph, self._reduce_retracing, self._jit_compile, self._fallback,
                             self.__name__, self._autograph_options)
            try:
                self._bound[instance] = bound
            except TypeError:
                pass
        return bound

    # -- calling
    def __call__(self, *args, **kwargs):
        # The shortcut (fast_call.py), where the keyed path below would be taken.
        guard = self._last_call
        if guard is not None and not kwargs and state.graph is None and not state.tapes \
                and not _Settings.run_functions_eagerly:
            out = guard(*args)
            if out is not MISS:
                return out
        if _Settings.run_functions_eagerly:
            return self.python_function(*args, **kwargs)
        if state.graph is not None:
            return self._inline(args, kwargs)
        if kwargs or state.tapes or self.input_signature is not None or self._reduce_retracing:
            return self._call_slow(args, kwargs)
        tail = call_binding.defaults_tail(self)
        if tail[2]:
            return self._call_slow(args, kwargs)
        if len(args) < tail[0]:
            # omitted arguments with defaults: keyed as if passed (TF binds the call first)
            args = args + tail[1][len(args) - tail[0]:]
        return self._call_tensors(args)

    def _call_tensors(self, args):
        """A call with no keywords, tape or signature: eager tensors and plain
        Python values are keyed here as `arg_key` keys them (so this finds the
        entries `_call_slow` made), and the entry's guard becomes the shortcut."""
        arrays = []
        key = []
        for a in args:
            t = type(a)
            if t is Tensor:
                v = a._value
                key.append((v.shape, v.dtype))
                arrays.append(v)
            elif t is int or t is float or t is bool:
                key.append((NUMBER, a))
            elif t is str or a is None:
                key.append((t, a))
            else:
                return self._call_slow(args, {})
        key = tuple(key)
        entry = self._cache.get(key)
        if entry is None or entry is _EAGER:
            return self._call_slow(args, {})
        out = entry.pack(entry.call_flat(arrays))
        if entry.fast_guard is None and entry._call is not None:  # (None: its C still compiling)
            n, defaults, _ = call_binding.defaults_tail(self)
            entry.fast_guard = make_guard(entry, key, defaults if len(key) == n else ())
        self._last_call = entry.fast_guard
        return out

    def _call_slow(self, args, kwargs):
        if self.input_signature is not None:
            args = call_binding.bind_input_signature(self, args, kwargs)
            kwargs = {}
        else:
            args, kwargs = call_binding.bind_arguments(self, args, kwargs)
        key = self._key(args, kwargs)
        entry = self._cache.get(key)
        if entry is not None and self._reduce_retracing and entry is not _EAGER:
            if not self._compatible(entry, args, kwargs):
                entry = None
        if entry is None and self.input_signature is None and not self._reduce_retracing:
            entry = self._supertype_entry(key)
        if entry is None:
            entry = self._trace_for(key, args, kwargs)
        if entry is _EAGER:
            return self.python_function(*args, **kwargs)
        if entry.argument_variables:
            entry = for_variables(entry, variable_arguments(args, kwargs))
        if state.tapes:
            return self._call_taped(entry, args, kwargs)
        return entry.pack(entry.call_flat(flat_tensor_arrays(args, kwargs)))

    def _call_taped(self, entry, args, kwargs):
        """A call some tape may watch: recorded as one tape entry whose gradient
        is the compiled backward graph (tracer.autodiff)."""
        inputs = [convert_to_tensor(a) for a in _leaves(args, kwargs) if _is_tensor_leaf(a)]
        return entry.pack_tensors(entry.call_with_tapes(inputs))

    def _key(self, args, kwargs):
        if self.input_signature is not None:
            return call_binding.signature_key(self.input_signature, args)
        key = tuple(arg_key(a) for a in args)
        if self._reduce_retracing:
            key = tuple(_generalize(k) for k in key)
        if kwargs:
            key = (key, tuple((k, arg_key(kwargs[k])) for k in sorted(kwargs)))
        return key

    def _compatible(self, entry, args, kwargs):
        arrays = flat_tensor_arrays(args, kwargs)
        return all(len(a.shape) == len(av.shape) and all(d is None or d == s for d, s in zip(av.shape, a.shape))
                   for a, av in zip(arrays, entry._input_avals))

    # -- tracing
    def _trace_for(self, key, args, kwargs):
        with self._lock:
            entry = self._cache.get(key)
            if entry is not None and not (self._reduce_retracing and entry is not _EAGER
                                          and not self._compatible(entry, args, kwargs)):
                return entry
            relax = self._relaxed_shapes(entry, args, kwargs) if entry is not None else None
            unranked = entry is None and self._reduce_retracing and any(
                call_binding.ranks_differ(k, key) for k in self._cache)
            if unranked:
                # TF generalizes a call whose ranks no trace has to unknown ranks; tapeflow's IR has
                # fixed ranks, so this trace keeps the rank with every dimension unknown.
                relax = [(None,) * len(a.shape) for a in flat_tensor_arrays(args, kwargs)]
            if key == "signature" or (isinstance(key, tuple) and key[:1] == ("signature",)):
                args = call_binding.signature_trace_args(self.input_signature, key, args)
            counted = self._tracing_count
            tracing = self.__dict__.setdefault("_tracing_keys", [])
            if key in tracing:
                raise StagingError(with_location(
                    f"tf.function {self.__name__} calls itself with the signature it is being traced for: a graph "
                    f"cannot hold that recursion; recurse on Python values, or loop with tf.while_loop"))
            tracing.append(key)
            try:
                first = not self._traced_once
                made = self._variables_made
                entry = self._trace(args, kwargs, relax)
                if first and self._variables_made != made:
                    # TensorFlow's rule: a first trace that created variables is traced
                    # again, and that trace must create none (a variable made on every
                    # call is the ValueError; one made once, `if self.v is None`, is fine).
                    entry = self._trace(args, kwargs, relax)
            except (OperatorNotAllowedInGraphError, ConversionError) as exc:
                if not self._fallback:
                    raise
                self._warn_once("fallback", f"tf.function {self.__name__} runs eagerly: {exc}")
                entry = _EAGER
            finally:
                tracing.remove(key)
            if (_rank_key(key) and any(_rank_key(k) for k in self._cache)) or (
                    unranked and any(getattr(e, "unranked", False) for e in self._cache.values())):
                # TF traces an unknown-rank signature once; tapeflow once per rank (fixed-rank
                # IR), and counts those as that one trace (experimental_get_tracing_count).
                self._tracing_count = counted
            if unranked and entry is not _EAGER:
                entry.unranked = True
            self._cache[key] = entry
            self._last_call = None  # the cache changed: no shortcut past it
            self._note_retrace(key, args)
            return entry

    def _supertype_entry(self, key):
        """TensorFlow's rule: a call no trace was made for runs the most specific cached trace whose
        TensorSpecs (a get_concrete_function's) accept its tensors, as that call's entry from then on."""
        found = [(spec_accepts(k, key), entry) for k, entry in list(self._cache.items()) if entry is not _EAGER
                 and isinstance(key, tuple) and isinstance(k, tuple) and len(k) == len(key)]
        found = [(known, entry) for known, entry in found if known is not None]
        if not found:
            return None
        entry = max(found, key=lambda f: f[0])[1]
        self._cache[key] = entry
        self._last_call = None
        return entry

    def _relaxed_shapes(self, entry, args, kwargs):
        arrays = flat_tensor_arrays(args, kwargs)
        return [tuple(d if d == s else None for d, s in zip(av.shape, a.shape))
                for a, av in zip(arrays, entry._input_avals)]

    def _python_to_trace(self):
        """The AutoGraph-converted function (or the original, when conversion is
        off or fails: tracing it may still succeed)."""
        if not self._autograph:
            return self.python_function
        if self._converted is None:
            fn = self.python_function
            target = fn.__call__ if not isinstance(fn, (types.FunctionType, types.MethodType)) else fn
            try:
                if isinstance(target, types.MethodType):
                    inner = target.__func__
                    conv = conversion.converted_function(inner) if conversion.is_user_function(inner) else inner
                    self._converted = types.MethodType(conv, target.__self__)
                elif isinstance(target, types.FunctionType) and conversion.is_user_function(target):
                    self._converted = conversion.converted_function(target)
                else:
                    self._converted = fn
            except ConversionError as exc:
                self._conversion_error = exc
                self._converted = fn
        return self._converted

    def _trace(self, args, kwargs, relax=None):
        if inspect.isgeneratorfunction(self.python_function):
            raise NotImplementedError(with_location(  # TensorFlow's refusal
                f"tf.function {self.__name__}: generators are not supported (the function yields); "
                f"return a value, or use tf.data.Dataset.from_generator"))
        fn = self._python_to_trace()
        builder = trace_builder.FunctionGraphBuilder(self.__name__, self)
        origin = user_location()
        with pause():
            with graph_context(builder):
                p_args, p_kwargs, avals = trace_builder.placeholder_args(builder, args, kwargs, relax,
                                                            trace_builder.positional_names(self.python_function))
                made_before = OperatorNotAllowedInGraphError.created
                try:
                    with autograph_features(self._autograph_options):
                        result = fn(*p_args, **p_kwargs)
                    swallowed = OperatorNotAllowedInGraphError.created != made_before
                    if self._conversion_error is not None and swallowed:
                        # The unconverted function hit a symbolic `if`/bool and its own
                        # try/except swallowed the error: the trace took a path the values
                        # may not take, so it must not be used.
                        raise OperatorNotAllowedInGraphError(
                            "a Python bool of a symbolic tensor was caught by the function's own try/except")
                except OperatorNotAllowedInGraphError as exc:
                    if self._conversion_error is not None:
                        raise OperatorNotAllowedInGraphError(
                            f"{exc}; AutoGraph could not convert it: {self._conversion_error}") from exc
                    raise
                except RecursionError as exc:  # TensorFlow's rule: Python's limit met while tracing
                    raise StagingError(f"tf.function {self.__name__} (traced at {origin}) recursed past Python's "
                                       f"limit while tracing ({exc}): recursion on tensors cannot be staged (loop "
                                       f"with tf.while_loop); on Python values it must end within the limit") from None
                structure, outputs = trace_builder.output_structure(builder, result)
                graph = builder.build(outputs)
        self._tracing_count += 1
        self._traced_once = True
        concrete = ConcreteFunction(self.__name__, graph, structure, avals, origin)
        concrete.argument_variables = variable_arguments(args, kwargs)
        # The arguments as traced: placeholders become TensorSpecs, Python values stay
        # (what a saved model needs to pick a graph for a call).
        concrete.input_structure = self._traced_structure(p_args, p_kwargs, args, kwargs)
        concrete.call_signature = concrete_signature.python_signature(self.python_function)
        return concrete

    def _traced_structure(self, p_args, p_kwargs, args, kwargs):
        """The arguments as traced: placeholders become TensorSpecs named as the input_signature's
        (else the traced call's) specs name them, Python values stay."""
        source = (tuple(self.input_signature) if self.input_signature is not None else tuple(args), kwargs)
        traced = (tuple(p_args), p_kwargs)
        if len(nest.flatten(source)) != len(nest.flatten(traced)):
            source = traced

        def spec(a, given):
            if not isinstance(a, SymbolicTensor):
                return a
            return TensorSpec(a.shape, a.dtype, given.name if isinstance(given, TensorSpec) else None)
        p_args, p_kwargs = nest.map_structure(spec, traced, source)
        return list(p_args), p_kwargs

    def _inline(self, args, kwargs):
        """Called while another function is being traced: its ops join that graph, traced (and
        cached) as a call of this function would be (call_binding.nested_call)."""
        return call_binding.nested_call(self, args, kwargs)

    # -- retracing
    def _note_retrace(self, key, args):
        self._key_history.append(key)
        if self._tracing_count > RETRACE_WARNING_AFTER and "retrace" not in self._warned:
            culprit = self._retrace_culprit()
            self._warn_once("retrace", (
                f"tf.function {self.__name__} has been traced {self._tracing_count} times; argument "
                f"{culprit} takes a new value or shape on each call. Tracing is expensive: pass tensors "
                f"instead of Python values, or use input_signature / reduce_retracing=True"))

    def _retrace_culprit(self):
        keys = [k[0] if isinstance(k, tuple) and len(k) == 2 and isinstance(k[1], tuple) and k[1]
                and isinstance(k[1][0], tuple) and isinstance(k[1][0][0], str) else k
                for k in self._key_history if isinstance(k, tuple)]
        names = _parameter_names(self.python_function)
        best, best_count = 0, -1
        width = max((len(k) for k in keys), default=0)
        for pos in range(width):
            distinct = {repr(k[pos]) for k in keys if pos < len(k)}
            if len(distinct) > best_count:
                best, best_count = pos, len(distinct)
        name = names[best] if best < len(names) else f"#{best}"
        return f"'{name}' (position {best})"

    def _warn_once(self, what, message):
        if what in self._warned:
            return
        self._warned.add(what)
        warnings.warn(with_location(message), RuntimeWarning, stacklevel=4)

    # -- introspection
    def get_concrete_function(self, *args, **kwargs):
        if not args and not kwargs and self.input_signature is not None:
            args = tuple(self.input_signature)
        if self.input_signature is None and has_unknown_rank(args, kwargs):
            return UnknownRankConcreteFunction(self, args, kwargs)
        if self.input_signature is not None and all(isinstance(a, TensorSpec) for a in nest.flatten(list(args))):
            if any(spec.shape.rank is None for spec in nest.flatten(list(args))):
                raise NotImplementedError(with_location(
                    f"{self.__name__}.get_concrete_function: the input_signature has an input of unknown rank "
                    f"(TensorSpec(shape=None)); tapeflow's graphs have fixed ranks, so one concrete function "
                    f"serves one rank: pass a spec with the rank (TensorSpec([None, None], ...)) or a tensor"))
            key = "signature"
        else:
            if self.input_signature is not None:
                args = call_binding.bind_input_signature(self, args, kwargs)
            else:
                args, kwargs = call_binding.bind_arguments(self, args, kwargs)
            key = self._key(args, kwargs)
        entry = self._cache.get(key)
        if entry is None and self.input_signature is None and not self._reduce_retracing:
            entry = self._supertype_entry(key)
        if entry is None:
            with self._lock:
                was = self._fallback
                self._fallback = False  # a concrete function must be a graph
                try:
                    entry = self._trace_for(key, args, kwargs)
                finally:
                    self._fallback = was
        if entry is _EAGER:
            raise OperatorNotAllowedInGraphError(f"tf.function {self.__name__} cannot be traced into a graph")
        return entry

    def experimental_get_tracing_count(self):
        return self._tracing_count

    def concrete_for_ranks(self, ranks):
        """The concrete function of an input_signature with unknown-rank specs traced for the
        given rank of each of them (in nest order), as a call at those ranks would trace it."""
        unknown = sum(spec.shape.rank is None for spec in nest.flatten(self.input_signature or []))
        if not unknown or len(ranks) != unknown:
            raise ValueError(f"{self.__name__}: {len(ranks)} ranks for {unknown} unknown-rank specs")
        entry = self._cache.get(("signature", tuple(ranks)))
        if entry is None:
            with self._lock:
                was, self._fallback = self._fallback, False  # a concrete function must be a graph
                try:
                    entry = self._trace_for(("signature", tuple(ranks)), tuple(self.input_signature), {})
                finally:
                    self._fallback = was
        return entry

    def pretty_printed_concrete_signatures(self, verbose=True):
        """One line per traced concrete function (the traces made so far)."""
        seen = []
        for entry in self._cache.values():
            if hasattr(entry, "pretty_printed_signature") and entry not in seen:
                seen.append(entry)
        return "\n\n".join(cf.pretty_printed_signature(verbose) for cf in seen)

    def __repr__(self):
        return f"<tapeflow.function {self.__name__}>"


def for_variables(entry, variables):
    """The concrete function traced for `entry.argument_variables`, re-bound to
    other variables of the same shapes and dtypes (no retrace: the graph is the
    same with other variable handles, as TensorFlow passes them as inputs)."""
    traced = entry.argument_variables
    if all(a is b for a, b in zip(traced, variables)):
        return entry
    key = tuple(id(v) for v in variables)
    derived = entry.__dict__.setdefault("_rebound", {})
    hit = derived.get(key)
    if hit is not None and all(a is b for a, b in zip(hit.argument_variables, variables)):
        return hit
    mapping = {id(a): b for a, b in zip(traced, variables) if a is not b}
    graph = rebind_variables(entry.graph, mapping)
    hit = ConcreteFunction(entry.name, graph, entry._structure, entry._input_avals, entry._origin)
    hit.input_structure = entry.input_structure
    hit.argument_variables = list(variables)
    derived[key] = hit
    return hit


def _parameter_names(fn):
    import inspect
    try:
        return list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        return []


def function(func=None, input_signature=None, autograph=True, jit_compile=None, reduce_retracing=False,
             experimental_relax_shapes=None, fallback=True, name=None, **unused):
    """tf.function as a decorator (`@function`, `@function(...)`) or a call."""
    if experimental_relax_shapes:
        reduce_retracing = True

    def wrap(f):
        return Function(f, input_signature, autograph, reduce_retracing, jit_compile, fallback, name,
                        unused.get("experimental_autograph_options"))

    return wrap if func is None else wrap(func)


def _rank_key(key):
    """Whether `key` is one rank's trace of an input_signature with unknown-rank inputs."""
    return isinstance(key, tuple) and len(key) == 2 and key[0] == "signature"
