"""Source of a Python function as a gast tree whose line numbers are the
user's file lines (so compiled converted code reports them in tracebacks)."""
import inspect
import textwrap

import gast


class ConversionError(NotImplementedError):
    """The function cannot be converted (no source, unsupported syntax)."""


def parse_function(fn):
    """(FunctionDef node, filename) of a Python function; line numbers are
    shifted to the file's."""
    try:
        lines, first = inspect.getsourcelines(fn)
        filename = inspect.getsourcefile(fn) or fn.__code__.co_filename
    except (OSError, TypeError) as exc:
        raise ConversionError(f"the source code of {fn.__qualname__} is not available ({exc})") from None
    source = textwrap.dedent("".join(lines))
    try:
        module = gast.parse(source)
    except SyntaxError:
        # A lambda or a def inside a larger expression: no statement of its own.
        raise ConversionError(f"the source of {fn.__qualname__} cannot be parsed on its own") from None
    if fn.__name__ == "<lambda>":
        node = _find_lambda(module, fn)
    else:
        node = module.body[0] if module.body else None
        if not isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            raise ConversionError(f"the source of {fn.__qualname__} is not a def statement")
    if isinstance(node, gast.AsyncFunctionDef):
        raise ConversionError(f"async function {fn.__qualname__} cannot be converted")
    gast.increment_lineno(module, first - 1)
    return node, filename


def _find_lambda(module, fn):
    lambdas = [n for n in gast.walk(module) if isinstance(n, gast.Lambda)]
    nargs = fn.__code__.co_argcount
    matches = [n for n in lambdas if len(n.args.args) == nargs]
    if len(matches) != 1:
        raise ConversionError("the lambda cannot be isolated in its source line")
    return matches[0]


def parse_statements(source):
    return gast.parse(textwrap.dedent(source)).body


def parse_expression(source):
    return gast.parse(source.strip(), mode="eval").body


def unparse(node):
    """Readable Python source of a gast node."""
    import ast
    return ast.unparse(ast.fix_missing_locations(gast.gast_to_ast(node)))
