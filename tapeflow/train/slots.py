"""Per-variable optimizer state ("slots": momentum, Adam's moments) that
checkpoints save next to the variable they belong to."""
import numpy as np

from tapeflow.runtime.variables import Variable
from tapeflow.train.trackable import Trackable, check_compatible


class SlotOwner(Trackable):
    """Holds slot variables keyed by (variable, slot name).  A checkpoint may
    restore a slot before it exists; the value waits until `get_slot_or_create`."""

    def _slot_table(self):
        table = self.__dict__.get("_slots")
        if table is None:
            table = {}
            self.__dict__["_slots"] = table
            self.__dict__["_slot_order"] = []
            self.__dict__["_parked_slots"] = {}
        return table

    def get_slot_or_create(self, var, slot_name, initial=0.0, shape=None):
        """`shape`: the slot's own, where it is not the variable's (Adafactor's factored moments)."""
        table = self._slot_table()
        key = (id(var), slot_name)
        slot = table.get(key)
        if slot is None:
            base = var.numpy()
            slot = self._new_slot(var, slot_name, np.full(base.shape if shape is None else shape, initial,
                                                          dtype=base.dtype))
            table[key] = slot
            self.__dict__["_slot_order"].append((var, slot_name, slot))
            parked = self.__dict__["_parked_slots"].pop(key, None)
            if parked is not None:
                value, source = parked
                check_compatible(source, value.shape, value.dtype, slot)
                slot.assign(value)
        return slot

    def _new_slot(self, var, slot_name, init):
        return Variable(init, trainable=False, name=f"{var.name[:-2]}/{slot_name}")

    def get_slot(self, var, name):
        return self._slot_table().get((id(var), name))

    def get_slot_names(self):
        self._slot_table()
        return sorted({name for _, name, _ in self.__dict__["_slot_order"]})

    def _slot_variables(self):
        """(variable, slot name, slot variable) in creation order."""
        self._slot_table()
        return list(self.__dict__["_slot_order"])

    def _restore_slot(self, var, slot_name, value, source):
        slot = self.get_slot(var, slot_name)
        if slot is not None:
            check_compatible(source, value.shape, value.dtype, slot)
            slot.assign(value)
        else:
            self._slot_table()
            # Keep the variable alive with its parked value so the id stays valid.
            self.__dict__["_parked_slots"][(id(var), slot_name)] = (value, source)
            self.__dict__.setdefault("_parked_vars", []).append(var)
