"""keras.utils.Progbar: a text progress bar for custom training loops.  Values passed
to update/add are averaged over the steps since the start (weighted by the step
count), except `stateful_metrics`, which are shown as given."""
import sys
import time


class Progbar:
    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None, unit_name="step"):
        self.target, self.width, self.verbose, self.interval = target, width, verbose, interval
        self.stateful_metrics = set(stateful_metrics or ())
        self.unit_name = unit_name
        self._values = {}  # name -> [weighted sum, steps] (or [value, 1] for stateful metrics)
        self._seen_so_far = 0
        self._start = time.time()
        self._last_update = 0.0
        self.stream = sys.stdout

    def update(self, current, values=None, finalize=None):
        """Move the bar to step `current`, folding in `values` [(name, value), ...]."""
        finalize = (self.target is not None and current >= self.target) if finalize is None else finalize
        for name, value in values or ():
            value = float(value.numpy() if hasattr(value, "numpy") else value)
            if name in self.stateful_metrics:
                self._values[name] = [value, 1]
            else:
                steps = max(current - self._seen_so_far, 1)
                total, count = self._values.get(name, [0.0, 0])
                self._values[name] = [total + value * steps, count + steps]
        self._seen_so_far = current
        now = time.time()
        from tapeflow.keras import config
        if self.verbose and not config.is_interactive_logging_enabled():  # to `logging`, once per bar
            if finalize:
                config.print_msg(self._line(current))
        elif self.verbose == 1 and (finalize or now - self._last_update >= self.interval):
            self.stream.write("\r" + self._line(current) + ("\n" if finalize else ""))
            self.stream.flush()
            self._last_update = now
        elif self.verbose == 2 and finalize:
            self.stream.write(self._line(current) + "\n")
            self.stream.flush()

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)

    def value(self, name):
        """The average (or, for a stateful metric, the last value) shown for `name`."""
        total, count = self._values[name]
        return total / max(count, 1)

    def _line(self, current):
        if self.target is not None:
            done = int(self.width * current / self.target) if self.target else self.width
            bar = "=" * max(done - 1, 0) + (">" if done < self.width else "=") + "." * (self.width - done)
            head = f"{current}/{self.target} [{bar}]"
        else:
            head = f"{current}/Unknown"
        elapsed = time.time() - self._start
        parts = [head, f"{elapsed:.0f}s"] + [f"{name}: {self.value(name):.4f}" for name in self._values]
        return " - ".join(parts)
