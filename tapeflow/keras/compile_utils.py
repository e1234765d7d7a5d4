"""compile(loss=, loss_weights=, metrics=) for models with several outputs.

Outputs are named by the layer that made them (or the keys of a dict of
outputs).  A loss or metric spec may be one value (used for every output), a
list aligned with the outputs, or a dict keyed by output name; targets likewise
come as a list aligned with the outputs or a dict by name.  The total loss is
the weighted sum of the per-output losses; with several outputs each one is
also logged as "<name>_loss", and metrics as "<name>_<metric>"."""
from tapeflow.keras import losses as losses_mod
from tapeflow.keras import metrics as metrics_mod
from tapeflow.runtime import nest
from tapeflow.runtime.errors import with_location


def output_names_of(model, y_pred):
    """Names of the model's outputs in flat order."""
    if isinstance(y_pred, dict):
        return sorted(y_pred, key=nest._sort_key)
    graph = getattr(model, "_functional", None)
    flat = nest.flatten(y_pred)
    if graph is not None and len(graph.output_names) == len(flat):
        return list(graph.output_names)
    if len(flat) == 1:
        return ["output"]
    return [f"output_{i + 1}" for i in range(len(flat))]


def per_output(spec, names, what):
    """Spread a spec over the outputs: one value each, or None where not given."""
    if isinstance(spec, dict):
        unknown = [k for k in spec if k not in names]
        if unknown:
            raise ValueError(with_location(
                f"compile: {what} names {unknown}, which are not outputs of the model {names}"))
        return [spec.get(n) for n in names]
    if isinstance(spec, (list, tuple)) and len(names) > 1 and what != "metrics":
        if len(spec) != len(names):
            raise ValueError(with_location(
                f"compile: {what} has {len(spec)} entries but the model has {len(names)} outputs {names}"))
        return list(spec)
    return [spec] * len(names)


def targets_for(y_true, names):
    """The targets matched to the outputs, in flat output order."""
    if isinstance(y_true, dict):
        missing = [n for n in names if n not in y_true]
        if missing:
            raise ValueError(with_location(f"fit: the targets lack outputs {missing} (outputs: {names})"))
        return [y_true[n] for n in names]
    flat = nest.flatten(y_true) if isinstance(y_true, (list, tuple)) else [y_true]
    if len(flat) != len(names):
        raise ValueError(with_location(
            f"fit: {len(flat)} target(s) given for {len(names)} output(s) {names}"))
    return flat


class MultiOutputLoss(losses_mod.Loss):
    """The weighted sum of one loss per output."""

    def __init__(self, loss, loss_weights, names):
        super().__init__(name="loss")
        self.names = names
        self.losses = [None if s is None else losses_mod.loss_object(s) for s in per_output(loss, names, "loss")]
        weights = per_output(loss_weights, names, "loss_weights") if loss_weights is not None \
            else [1.0] * len(names)
        self.weights = [1.0 if w is None else float(w) for w in weights]

    def per_output(self, y_true, y_pred, sample_weight=None):
        """[(name, loss value)] for each output that has a loss."""
        targets = targets_for(y_true, self.names)
        preds = [y_pred[n] for n in self.names] if isinstance(y_pred, dict) else nest.flatten(y_pred)
        out = []
        for name, fn, t, p in zip(self.names, self.losses, targets, preds):
            if fn is not None and t is not None:
                out.append((name, fn(t, p, sample_weight)))
        return out

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.per_output(y_true, y_pred, sample_weight)
        weights = dict(zip(self.names, self.weights))
        total = None
        for name, value in values:
            term = value * weights[name] if weights[name] != 1.0 else value
            total = term if total is None else total + term
        if total is None:
            raise ValueError(with_location("compile: no output has both a loss and a target"))
        return total


def build_metrics(specs, loss, names, y_true, y_pred):
    """[(output index or None, Metric)]: None means the single-output form."""
    if not specs:
        return []
    if len(names) == 1 and not isinstance(specs, dict):
        flat_t = None if y_true is None else nest.flatten(y_true)[0]
        t_shape = None if flat_t is None else tuple(flat_t.shape)
        p_shape = tuple(nest.flatten(y_pred)[0].shape)
        single_loss = loss.losses[0] if isinstance(loss, MultiOutputLoss) else loss
        return [(None, metrics_mod.get(s, single_loss, t_shape, p_shape)) for s in list(specs or [])]
    if isinstance(specs, (list, tuple)) and specs and all(isinstance(s, (list, tuple)) or s is None for s in specs):
        if len(specs) != len(names):
            raise ValueError(with_location(
                f"compile: metrics has {len(specs)} lists but the model has {len(names)} outputs {names}"))
        per = list(specs)
    else:
        per = per_output(specs, names, "metrics")
    targets = targets_for(y_true, names) if y_true is not None else [None] * len(names)
    preds = [y_pred[n] for n in names] if isinstance(y_pred, dict) else nest.flatten(y_pred)
    losses = loss.losses if isinstance(loss, MultiOutputLoss) else [loss] * len(names)
    out = []
    for i, (name, spec) in enumerate(zip(names, per)):
        if spec is None:
            continue
        for s in (spec if isinstance(spec, (list, tuple)) else [spec]):
            t_shape = None if targets[i] is None else tuple(targets[i].shape)
            out.append((i, metrics_mod.get(s, losses[i], t_shape, tuple(preds[i].shape))))
    return out


def update_metrics(metric_pairs, names, y_true, y_pred, sample_weight):
    if not metric_pairs:
        return
    if all(i is None for i, _ in metric_pairs):
        for _, m in metric_pairs:
            m.update_state(y_true, y_pred, sample_weight)
        return
    targets = targets_for(y_true, names)
    preds = [y_pred[n] for n in names] if isinstance(y_pred, dict) else nest.flatten(y_pred)
    for i, m in metric_pairs:
        m.update_state(targets[i], preds[i], sample_weight)


class CompileMetrics(metrics_mod.Metric):
    """Keras 3's one container of compile()'s metrics and weighted_metrics, listed in
    model.metrics as "compile_metrics": update_state(y, y_pred, sample_weight) updates each
    (the weights reach only the weighted ones) and result() is a dict by metric name, so the
    guide's `for m in self.metrics: m.update_state(y, y_pred)` loop works.  Filled from the
    first batch (the specs resolve by the outputs' shapes)."""

    def __init__(self):
        super().__init__(name="compile_metrics")
        self.plain, self.weighted, self.output_names = [], [], None

    def fill(self, plain, weighted, output_names):
        self.plain, self.weighted, self.output_names = plain, weighted, output_names

    @property
    def metrics(self):
        return [m for _, m in self.plain + self.weighted]

    @property
    def order_names(self):
        """Names evaluate's list follows first: the metrics' own names, as Keras 3 (a name twice
        gives its value twice; per-output metrics' logs, named with their output, come later)."""
        return [m.name for m in self.metrics]

    @property
    def variables(self):
        return [v for m in self.metrics for v in m.variables]

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_metrics(self.plain, self.output_names, y_true, y_pred, None)
        update_metrics(self.weighted, self.output_names, y_true, y_pred, sample_weight)

    def result(self):
        """By log name, as Keras 3: a per-output metric's name has its output's in front; a name
        taken again gets _1, _2, ... (a weighted metric first becomes weighted_<name>)."""
        results, counts = {}, {}
        for weighted, pairs in ((False, self.plain), (True, self.weighted)):
            for i, m in pairs:
                prefix = "" if i is None else f"{self.output_names[i]}_"
                name = prefix + m.name
                if name in counts and weighted:
                    name = f"{prefix}weighted_{m.name}"
                if name in counts:
                    counts[name] += 1
                    name = f"{name}_{counts[name] - 1}"
                else:
                    counts[name] = 1
                results[name] = m.result()
        return results

    def reset_state(self):
        for m in self.metrics:
            m.reset_state()

    def _trackable_children(self):
        return {}  # the metrics' states are not part of a model's weights
