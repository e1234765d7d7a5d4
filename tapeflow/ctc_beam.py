"""tf.nn.ctc_beam_search_decoder: TensorFlow's CTC prefix beam search (default scorer,
merge_repeated=False as in TF2), in the inputs' float type as the kernel.

Per step the scores are the logits' log-softmax (max + log sum exp(logit - max) subtracted).
Every beam in the previous step's beam (best first) updates its blank / non-blank scores; then
each beam, if it could still enter the beam, proposes one child per non-blank label, and a
child enters when the beam is not full or it beats the current worst (which is dropped).
log_probabilities are the final beams' totals.  A host primitive (its search is sequential)."""
import numpy as np

from tapeflow.runtime import dtypes
from tapeflow.runtime.errors import FailedPreconditionError, InvalidArgumentError, with_location
from tapeflow.runtime.registry import Aval, bind, defprim
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.sparse import SparseTensor

_ZERO = -np.inf


def _log_sum_exp(a, b, ft):
    if a == _ZERO:
        return b
    if b == _ZERO:
        return a
    hi, lo = (a, b) if a > b else (b, a)
    return ft(hi + np.log1p(np.exp(ft(lo - hi))))


class _Beam:
    __slots__ = ("label", "parent", "children", "old", "new")

    def __init__(self, label, parent):
        self.label, self.parent, self.children = label, parent, {}
        self.old = self.new = (_ZERO, _ZERO, _ZERO)        # (blank, label, total)

    def active(self):
        return self.new[2] != _ZERO

    def labels(self):
        out, node = [], self
        while node.parent is not None:
            out.append(node.label)
            node = node.parent
        return out[::-1]


def _ranked(beams):
    return sorted(beams, key=lambda b: -b.new[2])      # stable: equal totals keep their order


def _search(steps, width, blank):
    ft = steps.dtype.type                               # the kernel's T: float or double
    root = _Beam(-1, None)
    root.new = (ft(0), _ZERO, ft(0))
    leaves = [root]
    for raw in steps:
        top = raw.max()
        top = ft(top + np.log(np.sum(np.exp(raw - top), dtype=ft)))
        branches = _ranked(leaves)
        for b in branches:
            b.old = b.new
        leaves = []
        for b in branches:
            label = b.new[1]
            if b.parent is not None:
                if b.parent.active():
                    previous = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                    label = _log_sum_exp(label, previous, ft)
                label = ft(label + ft(raw[b.label] - top))
            blank_p = ft(b.old[2] + ft(raw[blank] - top))
            b.new = (blank_p, label, _log_sum_exp(blank_p, label, ft))
            leaves.append(b)

        def candidate(total):
            return total > _ZERO and (len(leaves) < width or total > min(x.new[2] for x in leaves))
        for b in branches:
            if not candidate(b.old[2]):
                continue
            for c_label in range(len(raw) - 1):
                child = b.children.get(c_label) or b.children.setdefault(c_label, _Beam(c_label, b))
                if child.active():
                    continue
                previous = b.old[0] if c_label == b.label else b.old[2]
                total = ft(ft(raw[c_label] - top) + previous)
                if candidate(total):
                    if len(leaves) == width:
                        worst = min(leaves, key=lambda x: x.new[2])
                        worst.new = (_ZERO, _ZERO, _ZERO)
                        leaves.remove(worst)
                    child.new = (_ZERO, total, total)
                    leaves.append(child)
                else:
                    child.old = child.new = (_ZERO, _ZERO, _ZERO)
    return _ranked(leaves)


def _decode_impl(xp, inputs, lengths, beam_width, top_paths):
    inputs, lengths = np.asarray(inputs), np.asarray(lengths).reshape(-1)
    batch = inputs.shape[1]
    if lengths.shape != (batch,):
        raise InvalidArgumentError(f"ctc_beam_search_decoder: sequence_length must be [batch={batch}], got "
                                   f"{list(lengths.shape)}")
    if (lengths > inputs.shape[0]).any():
        raise FailedPreconditionError(f"ctc_beam_search_decoder: sequence_length {lengths.tolist()} exceeds "
                                      f"max_time={inputs.shape[0]}")
    paths, scores = [[] for _ in range(top_paths)], np.zeros((batch, top_paths), inputs.dtype)
    for b in range(batch):
        final = _search(inputs[:int(lengths[b]), b], beam_width, inputs.shape[2] - 1)
        if top_paths > len(final):
            raise InvalidArgumentError("ctc_beam_search_decoder: Less leaves in the beam search than requested.")
        for p in range(top_paths):
            paths[p].append(final[p].labels())
            scores[b, p] = final[p].new[2]
    out = []
    for per_batch in paths:
        idx = [(b, t) for b, seq in enumerate(per_batch) for t in range(len(seq))]
        out += [np.asarray(idx, np.int64).reshape(-1, 2), np.asarray([v for s in per_batch for v in s], np.int64),
                np.asarray([batch, max([len(s) for s in per_batch] + [0])], np.int64)]
    return tuple(out) + (scores,)


def _decode_rule(inputs, lengths, beam_width, top_paths):
    per_path = (Aval((None, 2), dtypes.int64), Aval((None,), dtypes.int64), Aval((2,), dtypes.int64))
    return per_path * top_paths + (Aval((inputs.shape[1], top_paths), inputs.dtype),)


CTC_BEAM_SEARCH = defprim("ctc_beam_search", _decode_impl, _decode_rule, None, multiple_results=True)


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """inputs [max_time, batch, classes] logits (blank last) -> ([top_paths SparseTensors of
    int64 labels, [batch, longest]], log_probabilities [batch, top_paths])."""
    x = convert_to_tensor(inputs)
    if x.dtype not in (dtypes.float32, dtypes.float64) or x.shape.rank != 3:
        raise InvalidArgumentError(with_location(
            f"ctc_beam_search_decoder: inputs must be float [max_time, batch, classes], got {x.dtype.name}"
            f"{list(x.shape) if x.shape.rank is not None else ''}"))
    if int(top_paths) > int(beam_width) or int(top_paths) < 1:
        raise InvalidArgumentError(with_location(
            f"ctc_beam_search_decoder: top_paths ({top_paths}) must be in [1, beam_width={beam_width}]"))
    lengths = convert_to_tensor(sequence_length, dtypes.int32)
    out = bind(CTC_BEAM_SEARCH, (x, lengths), {"beam_width": int(beam_width), "top_paths": int(top_paths)})
    decoded = [SparseTensor(out[3 * p], out[3 * p + 1], out[3 * p + 2]) for p in range(int(top_paths))]
    return decoded, out[-1]
