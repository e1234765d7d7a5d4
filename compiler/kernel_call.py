"""Calling a generated C kernel from Python in tens of nanoseconds, where a
ctypes call with `py_object` arguments costs about 0.7 us (most of a compiled
call of `x + 1`).

Each kernel library also holds a trampoline per kernel with one signature for
all, `int tf_entry_<name>(void *const *objs, const int64_t *ints)`, and a small
CPython extension (built once, cached like every kernel) defines `Caller`: a
vectorcall object holding a trampoline's address that passes the argument
vector through (arrays as the kernel's `void *`, trailing integers converted).
`Caller(*arrays, *ints)` returns the kernel's int as the ctypes function did,
releasing the GIL around large kernels as ctypes.CDLL did.  It checks only the
argument count and the integers: the generated Python guarantees the arrays,
as it did for ctypes.  Without Python's headers (or a compiler that fails on
them) `function` returns the ctypes function: same results, slower calls.
"""
import concurrent.futures
import ctypes
import os
import sysconfig

from . import cbuild

MAX_INTS = 8

_SOURCE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>

typedef int (*tf_trampoline)(void *const *objs, const int64_t *ints);

typedef struct {
  PyObject_HEAD
  vectorcallfunc vectorcall;
  tf_trampoline fn;
  Py_ssize_t n_obj, n_int;
  int release_gil;
} Caller;

static PyObject *caller_vectorcall(PyObject *op, PyObject *const *args, size_t nargsf, PyObject *kwnames) {
  Caller *self = (Caller *)op;
  Py_ssize_t n = PyVectorcall_NARGS(nargsf);
  if (kwnames != NULL || n != self->n_obj + self->n_int) {
    PyErr_Format(PyExc_TypeError, "tapeflow kernel: %zd positional arguments expected, got %zd",
                 self->n_obj + self->n_int, n);
    return NULL;
  }
  int64_t ints[@MAX_INTS@];
  for (Py_ssize_t i = 0; i < self->n_int; i++) {
    ints[i] = (int64_t)PyLong_AsLongLong(args[self->n_obj + i]);
    if (ints[i] == -1 && PyErr_Occurred()) return NULL;
  }
  int rc;
  if (!self->release_gil) return PyLong_FromLong(self->fn((void *const *)args, ints));
  Py_BEGIN_ALLOW_THREADS
  rc = self->fn((void *const *)args, ints);
  Py_END_ALLOW_THREADS
  return PyLong_FromLong(rc);
}

static PyObject *caller_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  unsigned long long address;
  Py_ssize_t n_obj, n_int;
  int release_gil;
  if (!PyArg_ParseTuple(args, "Knnp", &address, &n_obj, &n_int, &release_gil)) return NULL;
  if (address == 0 || n_obj < 0 || n_int < 0 || n_int > @MAX_INTS@) {
    PyErr_SetString(PyExc_ValueError, "Caller(address, n_obj, n_int, release_gil): bad arguments");
    return NULL;
  }
  Caller *self = (Caller *)type->tp_alloc(type, 0);
  if (self != NULL) {
    self->vectorcall = caller_vectorcall;
    self->fn = (tf_trampoline)(uintptr_t)address;
    self->n_obj = n_obj, self->n_int = n_int, self->release_gil = release_gil;
  }
  return (PyObject *)self;
}

static void caller_dealloc(PyObject *op) {
  PyTypeObject *type = Py_TYPE(op);
  type->tp_free(op);
  Py_DECREF(type);  /* a heap type: each instance holds a reference */
}

static PyMemberDef caller_members[] = {
  {"__vectorcalloffset__", T_PYSSIZET, offsetof(Caller, vectorcall), READONLY, NULL},
  {"n_obj", T_PYSSIZET, offsetof(Caller, n_obj), READONLY, NULL},
  {NULL}
};

static PyType_Slot caller_slots[] = {
  {Py_tp_new, caller_new},
  {Py_tp_dealloc, caller_dealloc},
  {Py_tp_call, PyVectorcall_Call},
  {Py_tp_members, caller_members},
  {Py_tp_doc, "A generated kernel called through its trampoline: Caller(address, n_obj, n_int, release_gil)"},
  {0, NULL}
};

static PyType_Spec caller_spec = {
  "tapeflow.compiler.kernel_call.Caller", sizeof(Caller), 0,
  Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL, caller_slots
};

static PyObject *caller_type = NULL;

/* A borrowed reference (ctypes' py_object result takes its own). */
PyObject *tapeflow_caller_type(void) {
  if (caller_type == NULL) caller_type = PyType_FromSpec(&caller_spec);
  return caller_type;
}
""".replace("@MAX_INTS@", str(MAX_INTS))

_state = {}  # "type": the Caller type (None: it cannot be built); "future": its build by `start`


def trampoline(name, n_obj, n_int):
    """C source of `tf_entry_<name>`, the one-signature entry point of kernel `name`
    (a name no kernel's `int k...`/`int loop...` definition can be mistaken for)."""
    args = [f"objs[{i}]" for i in range(n_obj)] + [f"ints[{i}]" for i in range(n_int)]
    return (f"int tf_entry_{name}(void *const *objs, const int64_t *ints) {{\n"
            f"  return {name}({', '.join(args)});\n}}")


def start():
    """Have the Caller type soon without waiting (a tiered start must not): loaded
    now when the disk cache holds it, else built on a compile worker; kernels
    bound before it is ready are ctypes functions."""
    if "type" in _state or "future" in _state:
        return
    include = _include()
    if include is None:
        _state["type"] = None
    elif (lib := cbuild.cached(_SOURCE, include_dirs=[include], python_extension=True)) is not None:
        _state["type"] = _type_of(lib)
    else:
        _state["future"] = cbuild.build_in_background(_SOURCE, include_dirs=[include], python_extension=True)


def wait():
    """Wait for a build `start` began (the Caller type is then ready, or None)."""
    future = _state.get("future")
    if future is not None:
        concurrent.futures.wait([future])


def caller_type():
    """The Caller type, or None (no Python headers, they did not compile, or a
    build `start` began is still running)."""
    if "type" not in _state:
        future = _state.get("future")
        if future is None:
            include = _include()
            lib = None if include is None else \
                cbuild.build(_SOURCE, include_dirs=[include], python_extension=True)
        elif future.done():
            try:
                lib, problem = future.result()
            except Exception as exc:  # the worker itself failed: as a failed compile
                lib, problem = None, f"tapeflow: the kernel Caller did not build ({type(exc).__name__}: {exc})"
            if problem:
                cbuild.warn_once(problem)
        else:
            return None
        _state["type"] = None if lib is None else _type_of(lib)
    return _state["type"]


def _include():
    include = sysconfig.get_paths().get("include")
    if not include or not os.path.exists(os.path.join(include, "Python.h")):
        return None  # no headers (a Python without its dev files): ctypes, quietly
    return include


def _type_of(lib):
    fn = lib._pydll.tapeflow_caller_type
    fn.argtypes, fn.restype = [], ctypes.py_object
    try:
        return fn()
    except Exception as exc:  # a NULL result: the type did not build (never seen; not fatal)
        cbuild.warn_once(f"tapeflow: kernels are called through ctypes (slower calls): the kernel Caller "
                         f"type did not build ({type(exc).__name__}: {exc})")
        return None


def function(library, name, n_obj, n_int, release_gil):
    """Kernel `name` of `library` (which holds its trampoline) as a fast callable,
    or as the ctypes function when Caller is not available."""
    kind = caller_type() if n_int <= MAX_INTS else None
    if kind is None:
        return library.function(name, n_obj, n_int, release_gil=release_gil)
    address = ctypes.cast(getattr(library._pydll, f"tf_entry_{name}"), ctypes.c_void_p).value
    return kind(address, n_obj, n_int, release_gil)
