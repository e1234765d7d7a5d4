"""TensorFlow 1 names that TF 2.21 still answers while executing eagerly, answered the same way:
placeholders raise RuntimeError (placeholder_with_default is its default), a Session can be made
and closed but has no graph to run, and collections are plain named lists on the global
default graph (compat_v1_graph), which eager code never fills: GLOBAL_VARIABLES stays empty."""
from tapeflow.runtime.errors import with_location
from tapeflow.runtime.tensor import convert_to_tensor
from tapeflow.graph_api import GRAPH_MODE_ADVICE
from tapeflow.compat_v1_graph import get_default_graph

_EAGER_ADVICE = "tapeflow runs eagerly: put the computation in a @tf.function and call it with tensors"


def placeholder(dtype, shape=None, name=None):
    raise RuntimeError(with_location(f"tf.placeholder() is not compatible with eager execution ({_EAGER_ADVICE})"))


def sparse_placeholder(dtype, shape=None, name=None):
    raise RuntimeError(with_location(
        f"`sparse_placeholder` is not compatible with eager execution ({_EAGER_ADVICE})"))


def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TF's argument name
    """Eagerly nothing is fed, so the value is the default (checked against `shape`)."""
    t = convert_to_tensor(input)
    want = list(shape) if shape is not None else None
    if want is not None and (len(want) != len(t.shape) or any(
            w is not None and w != g for w, g in zip(want, t.shape.as_list()))):
        raise ValueError(with_location(
            f"tf.compat.v1.placeholder_with_default: the default has shape {t.shape.as_list()}, which is "
            f"not compatible with shape {want}"))
    return t


def executing_eagerly_outside_functions():
    """True: tapeflow has no TF1 graph mode, so the outermost context is always eager."""
    return True


class Session:
    """tf.compat.v1.Session made eagerly: TF gives it the (empty) global graph, so it can be
    entered and closed but every run() raises RuntimeError."""

    def __init__(self, target="", graph=None, config=None):
        if graph is not None:
            raise NotImplementedError(with_location(f"tf.compat.v1.Session(graph=...): {GRAPH_MODE_ADVICE}"))
        self._closed = False

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self._closed:
            raise RuntimeError(with_location("Attempted to use a closed Session."))
        raise RuntimeError(with_location(
            "The Session graph is empty. Add operations to the graph before calling run(). (tapeflow has "
            f"no TF1 graph mode; {_EAGER_ADVICE}, or read tensors with .numpy())"))

    def close(self):
        self._closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def as_default(self):
        return self


class InteractiveSession(Session):
    pass


# ---- collections: name -> list on the default graph (compat_v1_graph), as TF keeps them there
def add_to_collection(name, value):
    get_default_graph().add_to_collection(name, value)


def add_to_collections(names, value):
    get_default_graph().add_to_collections(names, value)


def get_collection_ref(key):
    """The stored list itself: appending to it adds to the collection."""
    return get_default_graph().get_collection_ref(key)


def get_collection(key, scope=None):
    """A copy of the collection; with `scope`, only items whose .name matches it (re.match)."""
    return get_default_graph().get_collection(key, scope)


NAMES = {f.__name__: f for f in (
    placeholder, sparse_placeholder, placeholder_with_default, executing_eagerly_outside_functions, Session,
    InteractiveSession, add_to_collection, add_to_collections, get_collection_ref, get_collection)}
