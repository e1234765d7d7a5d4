"""Code templates: converters write the code they generate as quoted Python
and substitute names and nodes into it, instead of building AST by hand.

    replace('''
        def body_name(state_args):
            body
            return state
    ''', body_name="if_body", state_args=["x", "y"], body=node.body, state=tuple_of(["x", "y"]))

Substitution rules for a placeholder name `p`:
  str                 the name is renamed (variables, parameters, def names);
  list of str         spliced as several names / parameters;
  gast node           the node takes its place (its context set to the spot's);
  list of statements  spliced where `p` stands alone as a statement.
Nodes that come from the template carry no line numbers: the converter gives
the result the origin of the code it replaces (`with_origin`).
"""
import copy

import gast

from .parser import parse_expression, parse_statements

_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def replace(template, **repl):
    nodes = parse_statements(template)
    for n in nodes:
        for sub in gast.walk(n):
            for attr in _LOCATION:
                if hasattr(sub, attr):
                    setattr(sub, attr, None)
    out = []
    for n in nodes:
        res = _Replacer(repl).visit(n)
        out.extend(res if isinstance(res, list) else [res])
    return out


def replace_as_expression(template, **repl):
    stmts = replace(template, **repl)
    if len(stmts) != 1 or not isinstance(stmts[0], gast.Expr):
        raise ValueError("replace_as_expression: the template must be one expression")
    return stmts[0].value


def names_tuple(names, ctx="load"):
    """`(a, b,)` as an expression (an empty tuple for no names)."""
    node = parse_expression(f"({''.join(n + ', ' for n in names)})")
    if ctx == "store":
        _set_ctx(node, gast.Store())
    return node


def strings_tuple(names):
    return parse_expression(f"({''.join(repr(n) + ', ' for n in names)})")


def with_origin(nodes, origin):
    """Give generated nodes without a location the line of `origin`."""
    line = getattr(origin, "lineno", None)
    col = getattr(origin, "col_offset", 0) or 0

    def fill(node):
        # The user's own (located) code keeps its lines, inner generated parts included.
        if getattr(node, "lineno", None) is not None:
            return
        if "lineno" in getattr(node, "_attributes", ()):
            node.lineno, node.col_offset = line, col
            node.end_lineno, node.end_col_offset = line, col
        for child in gast.iter_child_nodes(node):
            fill(child)

    for n in nodes:
        fill(n)
    return nodes


def fill_locations(node, line=1, col=0):
    """Give every node without a line the line of its nearest located ancestor
    (templates leave their own nodes unlocated)."""
    if "lineno" in getattr(node, "_attributes", ()):
        if getattr(node, "lineno", None) is None:
            node.lineno, node.col_offset = line, col
            node.end_lineno, node.end_col_offset = line, col
        else:
            # a converter may give a node its line only (the exception name of an except clause)
            line, col = node.lineno, getattr(node, "col_offset", None) or 0
            node.col_offset = col
            if getattr(node, "end_lineno", None) is None:
                node.end_lineno, node.end_col_offset = line, col
    for child in gast.iter_child_nodes(node):
        fill_locations(child, line, col)
    return node


def _set_ctx(node, ctx):
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred)):
        node.ctx = ctx
    if isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = ctx
        for e in node.elts:
            _set_ctx(e, copy.copy(ctx))
    if isinstance(node, gast.Starred):
        _set_ctx(node.value, ctx)


class _Marked:
    """A user expression spliced into a list; not visited for placeholders."""

    def __init__(self, node):
        self.node = node


class _Replacer(gast.NodeTransformer):
    def __init__(self, repl):
        self.repl = repl

    def _value(self, key):
        v = self.repl[key]
        if isinstance(v, gast.AST):
            return copy.deepcopy(v)
        return v

    def visit_Expr(self, node):
        if isinstance(node.value, gast.Name) and node.value.id in self.repl:
            v = self.repl[node.value.id]
            if isinstance(v, list) and (not v or isinstance(v[0], gast.stmt)):
                return list(v)  # the user's statements, spliced (not copied)
        return self.generic_visit(node)

    def visit_FunctionDef(self, node):
        if node.name in self.repl:
            node.name = self.repl[node.name]
        return self.generic_visit(node)

    def visit_arguments(self, node):
        node.args = self._names_list(node.args, gast.Param())
        return self.generic_visit(node)

    def visit_Tuple(self, node):
        node.elts = self._names_list(node.elts, node.ctx)
        return self.generic_visit(node)

    def visit_Global(self, node):
        node.names = [n for name in node.names for n in self._expand(name)]
        return node

    visit_Nonlocal = visit_Global

    def _expand(self, name):
        v = self.repl.get(name, name)
        return v if isinstance(v, list) else [v]

    def _names_list(self, elts, ctx):
        out = []
        for e in elts:
            if isinstance(e, gast.Name) and isinstance(self.repl.get(e.id), list):
                for item in self.repl[e.id]:
                    if isinstance(item, str):
                        # Marked too: a user variable may share a placeholder's name
                        # (`state`), and must not be substituted again.
                        out.append(_Marked(gast.Name(id=item, ctx=copy.copy(ctx), annotation=None,
                                                     type_comment=None)))
                    else:  # expressions (call arguments), spliced as they are
                        out.append(_Marked(item))
            else:
                out.append(e)
        return out

    def generic_visit(self, node):
        # Spliced user expressions are not visited (their names are not placeholders).
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                new = []
                for v in old:
                    if isinstance(v, _Marked):
                        new.append(v.node)
                        continue
                    if isinstance(v, gast.AST):
                        v = self.visit(v)
                        if v is None:
                            continue
                        if isinstance(v, list):
                            new.extend(v)
                            continue
                    new.append(v)
                old[:] = new
            elif isinstance(old, gast.AST):
                v = self.visit(old)
                if v is None:
                    delattr(node, field)
                else:
                    setattr(node, field, v)
        return node

    def visit_Name(self, node):
        if node.id not in self.repl:
            return node
        v = self._value(node.id)
        if isinstance(v, str):
            node.id = v
            return node
        if isinstance(v, gast.AST):
            _set_ctx(v, copy.copy(node.ctx))
            return v
        raise ValueError(f"template: cannot put {type(v).__name__} in place of name {node.id}")
