"""Lists in converted code.  A Python list stays a Python list (appends mutate
it, as Python does) until a tensor-dependent loop appends to it: that loop
carries it as a TensorList, a TensorArray that grows by one per append."""
from tapeflow.runtime.errors import with_location

from ..staging import as_tensor as staging_value
from ..tensor_array import TensorArray


class TensorList(TensorArray):
    """What a Python list becomes in a staged loop: append, index, len via ag__,
    and `tf.stack(lst)` (library calls receive its stacked tensor)."""

    def __init__(self, dtype=None):
        super().__init__(dtype or "float32", size=0, dynamic_size=True)
        self._dtype_known = dtype is not None

    @classmethod
    def from_list(cls, items):
        from tapeflow.runtime.tensor import convert_to_tensor
        items = [convert_to_tensor(staging_value(v)) for v in items]
        lst = cls(items[0].dtype if items else None)
        for item in items:
            lst = lst.append(item)
        return lst

    def _copy(self):
        ta = super()._copy()
        ta.__class__ = TensorList
        ta._dtype_known = self._dtype_known
        return ta

    def _materialized_like(self, buffer):
        if not self._dtype_known:
            self.dtype = buffer.dtype
        return super()._materialized_like(buffer)

    def append(self, value):
        from tapeflow.runtime.tensor import convert_to_tensor
        value = convert_to_tensor(value)
        if not self._dtype_known:
            self.dtype, self._dtype_known = value.dtype, True
        return self.write(self.size(), value)

    def __add__(self, other):
        """`lst = lst + [x, y]` in a staged loop appends, as `lst.append` does."""
        if not isinstance(other, (list, tuple)):
            raise TypeError(with_location(
                f"a list carried by a tensor loop can only be extended by a Python list, not a "
                f"{type(other).__name__}"))
        out = self
        for item in other:
            out = out.append(item)
        return out

    def __getitem__(self, index):
        if isinstance(index, int) and index < 0:
            index = self.size() + index
        return self.read(index)

    def __repr__(self):
        return f"<TensorList {self.dtype.name}>"


def list_append(target, element):
    if isinstance(target, TensorList):
        return target.append(element)
    if isinstance(target, TensorArray):
        return target.write(target.size(), element)
    if not hasattr(target, "append"):
        raise TypeError(with_location(f"cannot append to {type(target).__name__}"))
    target.append(element)
    return target


def list_pop(target, index=None):
    if isinstance(target, TensorArray):
        raise NotImplementedError(with_location("pop() from a list carried by a tensor loop"))
    return target, (target.pop() if index is None else target.pop(index))
