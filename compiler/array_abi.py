"""Where a NumPy array object keeps its data pointer, for generated C.

Kernels take arrays as `PyObject *` (ctypes' cheapest argument) and read the
data pointer at a fixed offset inside the object (`TF_DATA` in the prelude).
That offset is NumPy's documented C layout: `PyArrayObject_fields` in
`numpy/ndarraytypes.h` (what `PyArray_DATA` reads) starts with `PyObject_HEAD`
and then `char *data`, so the offset is `sizeof(PyObject)`, which Python gives
as `object.__basicsize__`.  That answer is checked on live arrays; only if the
check fails is `offsetof(PyArrayObject_fields, data)` compiled from the headers
into a tiny library (cached like every kernel; the check again), and without
the headers the offset is found by probing the usual places and the same check.
(Compiling the helper first cost every cold start one more compiler run.)  If neither gives a checked answer, C kernels are switched off with
one warning naming why: every fused kernel then runs through NumPy.
"""
import ctypes
import sysconfig
import warnings

import numpy as np

from . import cbuild

_HELPER = """
#include <Python.h>
#include <numpy/ndarraytypes.h>
#include <stddef.h>
long tapeflow_array_data_offset(void) { return (long)offsetof(PyArrayObject_fields, data); }
"""


def _holds_data_at(offset):
    """Does every kind of array (fresh, view, scalar-shaped, empty) keep its
    data pointer at `offset`?"""
    base = np.arange(12.0).reshape(3, 4)
    for a in (np.zeros(3), base[:, 1:], base.T, np.array(1, np.float32), np.empty((0, 2))):
        if ctypes.c_void_p.from_address(id(a) + offset).value != a.ctypes.data:
            return False
    return True


def _from_headers():
    """(offset, None) from NumPy's C headers, or (None, why not)."""
    include = [sysconfig.get_paths().get("include"), np.get_include()]
    if not all(include):
        return None, "no Python or NumPy include directory"
    lib = cbuild.build(_HELPER, include_dirs=include)
    if lib is None:
        return None, "NumPy's headers did not compile"
    fn = lib.function("tapeflow_array_data_offset", 0, 0)
    fn.restype = ctypes.c_long
    return int(fn()), None


def _probed():
    for offset in (16, 24, 32):
        if _holds_data_at(offset):
            return offset
    return None


def data_offset():
    """The checked offset of the data pointer in an array object, or None (with a
    warning) when C kernels cannot locate array data safely."""
    if cbuild.find_cc() is None or cbuild.flags.is_on("no_c"):
        return None  # no C at all: cbuild warns about that itself
    if _holds_data_at(object.__basicsize__):
        return object.__basicsize__
    offset, why = _from_headers()
    if offset is not None:
        if _holds_data_at(offset):
            return offset
        why = f"NumPy's headers give offset {offset}, which live arrays do not match"
    probed = _probed()
    if probed is not None:
        return probed
    warnings.warn(f"tapeflow: C kernels are switched off ({why}; probing found no data pointer either): "
                  "compiled functions run their fused kernels through NumPy (slower)",
                  RuntimeWarning, stacklevel=2)
    return None
