"""Dataset.scan: a running state threaded through the elements."""
from tapeflow.data import structure as S
from tapeflow.data.dataset import Dataset
from tapeflow.data.elements import element_error, learnt_tmpl
from tapeflow.runtime.errors import with_location


def scan(self, initial_state, scan_func, name=None):
    """scan_func(state, element) -> (new_state, output); the state keeps its structure
    and dtypes from one element to the next."""
    parent, source, store = self, self._produce, []
    state_tmpl, state0 = S.flat_arrays(initial_state)

    def produce():
        state = [a.copy() for a in state0]
        for i, flat in enumerate(source()):
            try:
                result = scan_func(S.to_tensors(state_tmpl, state), parent._element(flat))
            except Exception as exc:
                raise element_error("Dataset.scan", scan_func, i, exc) from exc
            if not (isinstance(result, tuple) and len(result) == 2):
                raise TypeError(with_location(
                    "Dataset.scan: scan_func must return a pair (new_state, output_element)"))
            new_tmpl, new_state = S.flat_arrays(result[0])
            if not S.same_structure(new_tmpl, state_tmpl) or \
                    [a.dtype for a in new_state] != [a.dtype for a in state]:
                raise TypeError(with_location(
                    f"Dataset.scan: the new state {S.describe(new_tmpl, new_state)} does not match the "
                    f"initial state {S.describe(state_tmpl, state)} (structure and dtypes)"))
            state = new_state
            out_tmpl, out_flat = S.flat_arrays(result[1])
            if not store:
                store.append(out_tmpl)
            yield out_flat

    return Dataset(produce, cardinality=self._card, shapes=None, tmpl_fn=learnt_tmpl(store, produce, "scan"),
                   parents=(self,))
