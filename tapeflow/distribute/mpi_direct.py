"""MPI_Allreduce called from C, without mpi4py's Python layer on every call.

A 1 KB all-reduce over 2 ranks takes about 3 us inside MPI; mpi4py's
`comm.Allreduce(send, recv, op)` adds about 0.5 us of argument handling (buffer
specs, datatype lookup) and tapeflow's engine about as much again, so small
all-reduces reached only ~0.7 of raw mpi4py's speed.  This module builds (once,
cached like every kernel) a tiny CPython extension whose function
`allreduce(send, recv, op)` calls the MPI_Allreduce of the MPI library mpi4py
loaded, on mpi4py's own communicator, with the GIL released (the watchdog
thread must run while a rank waits).

Invariants and traps:
- The function pointer is looked up through the mpi4py extension's handle
  (dlsym searches its dependencies: the libmpi it linked), so it is the same
  MPI library and the same initialised state mpi4py uses.
- Handles are MPI's own values (`MPI._handleof`): ints for MPICH, pointers for
  Open MPI; the C type is chosen from `MPI._sizeof`.  The datatype is the one
  mpi4py would send the array's NumPy type as (a table by type number).
- The C side takes only aligned C-contiguous ndarrays of a type in that table
  (and, with no result buffer given, up to 64 KB); for anything else it returns
  None and the engine goes another way (a larger array: into a reused buffer;
  the rest: through mpi4py, which makes the same call or raises its error).  MPI's error codes are raised as mpi4py's `MPI.Exception`
  (COMM_WORLD returns errors under mpi4py's default error handler).
Without a compiler, Python's headers or a known handle size, `allreducer`
returns None and the engine keeps calling mpi4py: same results.
"""
import ctypes
import os
import sysconfig

import numpy as np

_SOURCE = r"""
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

typedef @HANDLE@ mpi_handle;  /* MPI_Datatype / MPI_Op / MPI_Comm of this MPI */
typedef int (*allreduce_fn)(const void *, void *, int, mpi_handle, mpi_handle, mpi_handle);

#define N_TYPES 64
#define SMALL_BYTES 65536  /* up to this a fresh result costs no page faults worth saving */
static allreduce_fn mpi_allreduce = NULL;
static mpi_handle comm_world;
static intptr_t datatypes[N_TYPES];  /* NumPy type number -> MPI datatype handle; 0: none */
static PyObject *mpi_exception = NULL;  /* mpi4py's MPI.Exception, raised with MPI's error code */
static long long calls = 0;  /* odd while a call is inside MPI: the watchdog reads it (GIL held) */

static int usable(PyObject *a) {
  return PyArray_Check(a) && PyArray_IS_C_CONTIGUOUS((PyArrayObject *)a) &&
         PyArray_ISALIGNED((PyArrayObject *)a) && PyArray_TYPE((PyArrayObject *)a) >= 0 &&
         PyArray_TYPE((PyArrayObject *)a) < N_TYPES && datatypes[PyArray_TYPE((PyArrayObject *)a)] != 0;
}

/* allreduce(send, recv, op) -> recv (a new array like send when recv is None), or None
   when this path cannot take send (not an aligned C-contiguous ndarray of a type MPI
   knows, or over SMALL_BYTES with no recv given): the caller goes another way. */
static PyObject *allreduce(PyObject *self, PyObject *const *args, Py_ssize_t n) {
  if (n != 3) {
    PyErr_SetString(PyExc_TypeError, "allreduce(send, recv, op)");
    return NULL;
  }
  PyObject *send = args[0], *out = args[1];
  if (!usable(send)) Py_RETURN_NONE;
  PyArrayObject *a = (PyArrayObject *)send;
  Py_ssize_t nbytes = PyArray_NBYTES(a), count = PyArray_SIZE(a);
  if (out == Py_None) {
    if (nbytes > SMALL_BYTES) Py_RETURN_NONE;
    out = PyArray_NewLikeArray(a, NPY_CORDER, NULL, 0);
    if (out == NULL) return NULL;
  } else if (!usable(out) || PyArray_NBYTES((PyArrayObject *)out) != nbytes ||
             PyArray_TYPE((PyArrayObject *)out) != PyArray_TYPE(a) ||
             !PyArray_ISWRITEABLE((PyArrayObject *)out)) {
    PyErr_SetString(PyExc_ValueError, "all-reduce: the result buffer does not match the sent array");
    return NULL;
  } else {
    Py_INCREF(out);
  }
  intptr_t op = (intptr_t)PyLong_AsSsize_t(args[2]);
  if (op == -1 && PyErr_Occurred()) {
    Py_DECREF(out);
    return NULL;
  }
  if (count > INT32_MAX) {
    Py_DECREF(out);
    Py_RETURN_NONE;  /* MPI's int count: mpi4py's large-count path */
  }
  mpi_handle datatype = (mpi_handle)datatypes[PyArray_TYPE(a)];
  void *sbuf = PyArray_DATA(a), *rbuf = PyArray_DATA((PyArrayObject *)out);
  int rc;
  calls++;
  Py_BEGIN_ALLOW_THREADS
  rc = mpi_allreduce(sbuf, rbuf, (int)count, datatype, (mpi_handle)op, comm_world);
  Py_END_ALLOW_THREADS
  calls++;
  if (rc != 0) {
    PyObject *error = PyObject_CallFunction(mpi_exception, "i", rc);
    if (error != NULL) {
      PyErr_SetObject(mpi_exception, error);
      Py_DECREF(error);
    }
    Py_DECREF(out);
    return NULL;
  }
  return out;
}

static PyObject *calls_made(PyObject *self, PyObject *unused) {
  return PyLong_FromLongLong(calls);
}

static PyMethodDef allreduce_def = {"allreduce", (PyCFunction)(void (*)(void))allreduce, METH_FASTCALL,
                                    "MPI_Allreduce on COMM_WORLD: allreduce(send, recv, op)"};
static PyMethodDef calls_def = {"calls", calls_made, METH_NOARGS, "twice the all-reduces made, +1 inside one"};

/* (allreduce, calls), once the library's address, the communicator, the datatype table
   and the exception type are set (NULL, with an exception, when NumPy's C API is missing). */
PyObject *tapeflow_mpi_allreducer(uintptr_t fn, intptr_t comm, PyObject *types, PyObject *exception) {
  if (PyArray_API == NULL && _import_array() < 0) return NULL;
  Py_ssize_t n = PySequence_Size(types);
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *pair = PySequence_GetItem(types, i);
    long num;
    Py_ssize_t handle;
    if (pair == NULL || !PyArg_ParseTuple(pair, "ln", &num, &handle)) {
      Py_XDECREF(pair);
      return NULL;
    }
    Py_DECREF(pair);
    if (num >= 0 && num < N_TYPES) datatypes[num] = (intptr_t)handle;
  }
  mpi_allreduce = (allreduce_fn)fn;
  comm_world = (mpi_handle)comm;
  Py_INCREF(exception);
  Py_XSETREF(mpi_exception, exception);
  return Py_BuildValue("(NN)", PyCFunction_New(&allreduce_def, NULL), PyCFunction_New(&calls_def, NULL));
}
"""


def allreducer(mpi, comm):
    """(allreduce, calls), or None (then use mpi4py): `allreduce(send, recv,
    op_handle) -> recv` calls MPI_Allreduce on `comm` from C (recv None: a new
    array like send, for up to 64 KB), raising mpi4py's MPI.Exception on an MPI
    error, or returns None where the caller must go another way (see the C);
    `calls()` is twice the calls made, plus one while a call is inside MPI."""
    if os.environ.get("TAPEFLOW_MPI_DIRECT", "1") == "0":
        return None
    try:
        sizes = {mpi._sizeof(mpi.Comm), mpi._sizeof(mpi.Datatype), mpi._sizeof(mpi.Op)}
        handle = {4: "int32_t", ctypes.sizeof(ctypes.c_void_p): "void *"}.get(sizes.pop()) if len(sizes) == 1 else None
        include = sysconfig.get_paths().get("include")
        if handle is None or not include or not os.path.exists(os.path.join(include, "Python.h")):
            return None
        address = ctypes.cast(ctypes.CDLL(mpi.__file__).MPI_Allreduce, ctypes.c_void_p).value
    except (AttributeError, OSError, TypeError):
        return None
    from tapeflow.compiler import cbuild  # imported only when MPI is in use
    lib = cbuild.build(_SOURCE.replace("@HANDLE@", handle), include_dirs=[include, np.get_include()],
                       python_extension=True)
    if lib is None or not address:
        return None
    make = lib._pydll.tapeflow_mpi_allreducer
    make.argtypes = [ctypes.c_size_t, ctypes.c_ssize_t, ctypes.py_object, ctypes.py_object]
    make.restype = ctypes.py_object
    try:
        return make(address, mpi._handleof(comm), _datatype_handles(mpi), mpi.Exception)
    except Exception:  # NumPy's C API did not import (never seen): mpi4py it is
        return None


def _datatype_handles(mpi):
    """(NumPy type number, handle of the MPI datatype mpi4py sends it as) pairs."""
    pairs = []
    for char, kind in mpi._typedict.items():
        try:
            pairs.append((np.dtype(char).num, mpi._handleof(kind)))
        except TypeError:  # a type code NumPy does not know
            pass
    return pairs
