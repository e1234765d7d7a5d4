"""AutoGraph conversion of a Python function: parse, run the converters in
order, compile, and rebuild the function around the user's own globals,
defaults and closure cells.

The converted code is compiled with the user's file name and line numbers, so
tracebacks and `with_location` messages point at the original source.  It is
compiled inside a factory whose parameters are `ag__` and the function's free
variables; the inner code object is then bound to the original closure cells
(so `nonlocal` writes and later rebinding of closed-over names behave as in
the original function).
"""
import enum
import functools
import sys
import sysconfig
import threading
import types
import weakref

import gast

from . import conversion_cache
from .converters import (asserts, break_statements, call_trees, conditional_expressions,
                         continue_statements, control_flow, directives, lists, logical_expressions,
                         return_statements, unsupported)
from .converters.base import Context
from .pyct import parser, templates
from .pyct.naming import Namer
from .pyct.parser import ConversionError

# Order matters: unsupported constructs are rejected first; calls are wrapped
# before later converters add ag__ calls of their own; control flow sees no
# jumps (return/break/continue have become flags).
PIPELINE = (
    unsupported, directives, lists, asserts, call_trees, logical_expressions,
    conditional_expressions, return_statements, break_statements, continue_statements,
    control_flow,
)

_NOT_CONVERTED_PACKAGES = {"tapeflow", "numpy", "gast", "astunparse", "pytest", "_pytest", "hypothesis",
                           "builtins", "cupy", "cupyx", "scipy", "six", "typing"}
_LIBRARY_DIRS = tuple({p for p in (sysconfig.get_paths().get("purelib"), sysconfig.get_paths().get("platlib"),
                                   sysconfig.get_paths().get("stdlib")) if p})


class _Converted:
    """The result of converting one code object: what to instantiate, and the
    generated source for to_code."""

    __slots__ = ("code", "source", "name")

    def __init__(self, code, source, name):
        self.code = code
        self.source = source
        self.name = name


_by_code = {}  # code object -> _Converted or ConversionError
_instances = weakref.WeakKeyDictionary()  # function -> converted function or None
_lock = threading.RLock()


def convert_source(fn):
    """Convert `fn`'s code once (cached by code object); raises ConversionError."""
    code = fn.__code__
    done = _by_code.get(code)
    if done is None:
        with _lock:
            done = _by_code.get(code)
            if done is None:
                try:
                    done = _cached_or_convert(fn)
                except ConversionError as exc:
                    done = exc
                except SyntaxError as exc:  # generated code that does not compile: a converter bug
                    done = ConversionError(f"conversion of {fn.__qualname__} produced invalid code: {exc}")
                _by_code[code] = done
    if isinstance(done, Exception):
        raise done
    return done


def _cached_or_convert(fn):
    stored = conversion_cache.load(fn)
    if stored is not None:
        return _Converted(*stored)
    done = _convert(fn)
    conversion_cache.store(fn, done.code, done.source, done.name)
    return done


def _convert(fn):
    node, filename = parser.parse_function(fn)
    if isinstance(node, gast.Lambda):
        node = _lambda_as_def(node)
    node.decorator_list = []
    node.returns = None
    ctx = Context(Namer(node), filename)
    for converter in PIPELINE:
        node = converter.transform(node, ctx)
    source = parser.unparse(node)
    code = getattr(fn, "__code__", None)
    if code is not None and node.name not in code.co_freevars and node.name not in code.co_varnames:
        # The def sits inside a factory below, where its own name is the factory's local: a
        # recursive call would close over the converted function; `global` keeps it the user's
        # (compiled only: to_code shows the source without it).
        node.body.insert(0, gast.Global(names=[node.name]))
    freevars = list(fn.__code__.co_freevars)
    factory_name = ctx.namer.new("tapeflow_factory")
    module = gast.Module(body=templates.replace(
        """
        def factory(ag__, freevars):
            fn_def
            return fn_name
        """, factory=factory_name, freevars=freevars, fn_def=[node], fn_name=node.name), type_ignores=[])
    templates.fill_locations(module, node.lineno)
    tree = gast.gast_to_ast(module)
    import ast
    ast.fix_missing_locations(tree)
    compiled = compile(tree, filename, "exec")
    factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts if isinstance(c, types.CodeType) and c.co_name == node.name)
    return _Converted(inner, source, node.name)


def _lambda_as_def(node):
    fn_def = templates.replace("def lambda__(args_):\n    return body", body=node.body)[0]
    fn_def.args = node.args
    templates.with_origin([fn_def], node)
    return fn_def


def instantiate(fn, converted):
    """The converted function bound to `fn`'s globals, defaults and closure."""
    from . import operators
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = []
    for name in converted.code.co_freevars:
        if name == "ag__":
            closure.append(types.CellType(operators))
        elif name in cells:
            closure.append(cells[name])
        else:
            raise ConversionError(f"converted {fn.__qualname__} refers to an unknown free variable {name!r}")
    new = types.FunctionType(converted.code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(closure))
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__dict__.update(fn.__dict__)
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__tapeflow_converted__ = True
    return new


def converted_function(fn):
    """Converted version of a plain function (cached); raises ConversionError."""
    try:
        return _instances[fn]
    except KeyError:
        pass
    new = instantiate(fn, convert_source(fn))
    _instances[fn] = new
    return new


# ------------------------------------------------------------------ what to convert

def is_user_function(fn):
    """User code is converted; tapeflow, NumPy, the standard library and
    installed packages are called as they are."""
    if getattr(fn, "__tapeflow_do_not_convert__", False) or getattr(fn, "__tapeflow_converted__", False):
        return False
    module = getattr(fn, "__module__", None) or ""
    top = module.split(".")[0]
    if top in _NOT_CONVERTED_PACKAGES or top in sys.stdlib_module_names:
        return False
    filename = fn.__code__.co_filename
    if filename.startswith("<") or (_LIBRARY_DIRS and filename.startswith(_LIBRARY_DIRS)):
        return False
    return True


def callable_to_convert(f):
    """For `converted_call`: the converted callable to use instead of `f`, or
    None to call `f` as it is (not user code, or it cannot be converted)."""
    if isinstance(f, types.FunctionType):
        if not is_user_function(f):
            return None
        try:
            return converted_function(f)
        except ConversionError:
            return None
    if isinstance(f, types.MethodType):
        inner = callable_to_convert(f.__func__)
        return None if inner is None else types.MethodType(inner, f.__self__)
    if isinstance(f, functools.partial):
        inner = callable_to_convert(f.func)
        return None if inner is None else functools.partial(inner, *f.args, **f.keywords)
    return None


class Feature(enum.Enum):
    """tf.autograph.experimental.Feature: the optional AutoGraph features a
    tf.function may name in `experimental_autograph_options`.  tapeflow always
    converts lists, builtins and equality; the names are accepted as TensorFlow's."""
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


def do_not_convert(func=None):
    """Decorator: call `func` as it is from converted code."""
    if func is None:
        return do_not_convert
    func.__tapeflow_do_not_convert__ = True
    return func


def to_code(fn):
    """The converted source of `fn` (a function, method or tf.function)."""
    fn = getattr(fn, "python_function", fn)
    if isinstance(fn, types.MethodType):
        fn = fn.__func__
    return convert_source(fn).source
