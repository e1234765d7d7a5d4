"""Differential test of AutoGraph: random control-flow programs give in a graph
(tf.function) what they give eagerly, or raise a clear error; never a different
answer, never a hang.

Programs nest if / while / for / break / continue / return over Python and
tensor values, with a closure, an attribute, a dict item, a list, and lambdas made
inside loops (which read a name's last value, as Python gives).  Every loop is bounded
(its counter is advanced first), values stay small (`% 97`).  The number of
examples is TAPEFLOW_AUTOGRAPH_FUZZ_EXAMPLES (default 30: a few seconds); set
it higher for a longer run, e.g. 2000.
"""
import linecache
import os
import textwrap

import hypothesis.strategies as st
from hypothesis import HealthCheck, given, settings

import tapeflow as tf

EXAMPLES = int(os.environ.get("TAPEFLOW_AUTOGRAPH_FUZZ_EXAMPLES", "30"))
VARS = ("a", "b", "c")
# A graph may refuse a program that eager runs: with one of these, naming the
# construct; any other outcome must equal the eager one.
CLEAR_ERRORS = (ValueError, TypeError, NotImplementedError, tf.errors.InvalidArgumentError)


class Box:
    pass


# ------------------------------------------------------------------ programs

def _operand(draw):
    return draw(st.sampled_from(VARS + ("x", "n", "o.v", "g()", "1", "2", "3")))


@st.composite
def expressions(draw):
    left, right = _operand(draw), _operand(draw)
    op = draw(st.sampled_from(["+", "-", "*"]))
    return f"({left} {op} {right}) % 97"


@st.composite
def conditions(draw):
    kind = draw(st.sampled_from(["tensor", "tensor", "python", "mixed"]))
    k = draw(st.integers(0, 60))
    if kind == "python":
        return f"n > {k % 5}"
    if kind == "mixed":
        return f"({draw(st.sampled_from(VARS))} > {k}) {draw(st.sampled_from(['and', 'or']))} n > 2"
    return f"{draw(st.sampled_from(VARS + ('x', 'o.v')))} {draw(st.sampled_from(['>', '<', '==']))} {k}"


class _Namer:
    def __init__(self):
        self.k = 0

    def loop_counter(self):
        self.k += 1
        return f"i{self.k}"


@st.composite
def statements(draw, namer, depth, in_loop):
    kinds = ["assign", "assign", "attr", "augment", "append", "item"]
    if depth > 0:
        kinds += ["if", "if", "while", "for_tensor", "for_python"]
    if in_loop:
        kinds += ["break", "continue", "capture"]
    kinds += ["return"]
    kind = draw(st.sampled_from(kinds))
    target = draw(st.sampled_from(VARS))
    if kind == "assign":
        return [f"{target} = {draw(expressions())}"]
    if kind == "attr":
        return [f"o.v = {draw(expressions())}"]
    if kind == "augment":
        return [f"{target} += {draw(st.integers(1, 5))}", f"{target} = {target} % 97"]
    if kind == "append":
        return [f"lst.append({target})"]
    if kind == "item":
        return [f"d['k'] = {draw(expressions())}"]
    if kind == "capture":  # a closure made in a loop reads the name's last value, as Python gives
        return [f"fns.append(lambda: {target})"]
    if kind == "break":
        return [f"if {draw(conditions())}:", "    break"]
    if kind == "continue":
        return [f"if {draw(conditions())}:", "    continue"]
    if kind == "return":
        return [f"if {draw(conditions())}:", "    return (a, b, c, o.v, d['k'], sum(f() for f in fns) % 97)"]
    if kind == "if":
        out = [f"if {draw(conditions())}:"] + _indent(draw(blocks(namer, depth - 1, in_loop)))
        if draw(st.booleans()):
            out += ["else:"] + _indent(draw(blocks(namer, depth - 1, in_loop)))
        return out
    bound = draw(st.sampled_from(["x % 4 + 1", "n", "3", "a % 3"]))
    i = namer.loop_counter()
    if kind == "while":
        body = [f"{i} += 1"] + draw(blocks(namer, depth - 1, True))
        return [f"{i} = 0", f"while {i} < {bound}:"] + _indent(body)
    rng = "tf.range" if kind == "for_tensor" else "range"
    if rng == "range" and "x" in bound or "a" in bound:
        bound = "n"
    body = draw(blocks(namer, depth - 1, True))
    return [f"for {i} in {rng}({bound}):"] + _indent(body)


@st.composite
def blocks(draw, namer, depth, in_loop):
    out = []
    for _ in range(draw(st.integers(1, 3))):
        out += draw(statements(namer, depth, in_loop))
    return out


@st.composite
def programs(draw):
    body = draw(blocks(_Namer(), draw(st.integers(1, 3)), False))
    lines = ["def program(x, n):",
             "    a = x % 97", "    b = tf.constant(1)", "    c = 2",
             "    o = Box()", "    o.v = tf.constant(5)", "    lst = []", "    d = {'k': 0}", "    fns = []",
             "    g = lambda: (a * 2 + c) % 97"]
    lines += _indent(body)
    lines += ["    return (a, b, c, o.v, d['k'], sum(f() for f in fns) % 97)"]
    return "\n".join(lines) + "\n"


def _indent(lines):
    return ["    " + line for line in lines]


# ------------------------------------------------------------------ running

def _compile(source):
    name = f"/autograph_fuzz/program_{abs(hash(source))}.py"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    scope = {"__name__": "autograph_fuzz", "tf": tf, "Box": Box}
    exec(compile(source, name, "exec"), scope)
    return scope["program"]


def _outcome(fn, x, n):
    try:
        return "ok", [int(v) for v in fn(tf.constant(x), n)]
    except Exception as exc:  # the kind of failure is what is compared
        return "error", exc


@settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 30,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(source=programs(), x=st.integers(0, 40), n=st.integers(0, 4))
def test_random_control_flow_graph_equals_eager(source, x, n):
    eager_fn = _compile(source)
    eager = _outcome(eager_fn, x, n)
    graph = _outcome(tf.function(_compile(source), fallback=False), x, n)
    if eager[0] == "error":
        assert graph[0] == "error", f"eager raises {eager[1]!r}, the graph returns {graph[1]}\n{source}"
        return
    if graph[0] == "error":
        exc = graph[1]
        assert isinstance(exc, CLEAR_ERRORS) and str(exc), f"graph raises {exc!r}\n{source}"
        return
    assert graph[1] == eager[1], f"graph {graph[1]} != eager {eager[1]}\n{source}"


def test_the_generator_makes_programs_that_run():
    """The generator itself is sound: a fixed program runs and converts."""
    source = textwrap.dedent("""\
        def program(x, n):
            a = x % 97
            b = tf.constant(1)
            c = 2
            o = Box()
            o.v = tf.constant(5)
            lst = []
            d = {'k': 0}
            fns = []
            g = lambda: (a * 2 + c) % 97
            for i1 in tf.range(x % 4 + 1):
                a = (a + g()) % 97
                if a > 10:
                    break
                o.v = (o.v + 1) % 97
                d['k'] = (a + 1) % 97
            for i2 in range(n):
                fns.append(lambda: c)
                c += 1
            return (a, b, c, o.v, d['k'], sum(f() for f in fns) % 97)
        """)
    eager = _outcome(_compile(source), 7, 2)
    graph = _outcome(tf.function(_compile(source), fallback=False), 7, 2)
    assert eager == ("ok", [23, 1, 4, 5, 0, 8]) and graph == eager
