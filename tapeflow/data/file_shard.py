"""File-level auto-sharding across workers (tf.distribute's AutoShardPolicy.FILE,
and AUTO on a pipeline that reads files), as TensorFlow shards them:

- worker r of N reads the files r, r + N, r + 2N, ... of the pipeline's file
  source: `Dataset.list_files` (its sorted matches, sharded before its shuffle)
  or a reader (TextLineDataset, TFRecordDataset, FixedLengthRecordDataset) given
  a list of file names at the top of the pipeline;
- fewer files than workers: InvalidArgumentError on the workers that would get
  a file, nothing on the others (TF's behaviour, measured);
- no file source: AUTO shards by DATA, FILE raises NotFoundError.

tapeflow's pipelines are closures, not graphs to rewrite, so the file source is
found while the distributed iterator starts: it opens a request, and the first
file source to list its names under the open request claims it (list_files
lists before the readers its interleave makes, whose names are one element
each and never claim).  The request closes to new claims once the first
element is out; the claimant keeps being sharded (on every repeat) until the
iterator ends.  Requests are process-wide, not per thread: prefetch threads
read them too.
"""
import contextlib
import threading

from tapeflow.runtime.errors import InvalidArgumentError, with_location

_lock = threading.Lock()
_requests = []  # the requests of distributed iterators now running


class Request:
    def __init__(self, num, index):
        self.num, self.index = num, index
        self.claimed = None  # the token of the file source sharded for this request
        self.open = True

    def close(self):
        with _lock:
            self.open = False


@contextlib.contextmanager
def sharding_files(num, index):
    request = Request(num, index)
    with _lock:
        _requests.append(request)
    try:
        yield request
    finally:
        with _lock:
            _requests.remove(request)


def shard_names(token, names):
    """This worker's share of a file source's `names` (all of them when no
    distributed iterator is starting, or when another source was claimed)."""
    with _lock:
        request = next((r for r in _requests if r.claimed is token), None)
        if request is None:
            request = next((r for r in reversed(_requests) if r.open and r.claimed is None), None)
            if request is None:
                return names
            request.claimed = token
    if len(names) < request.num:
        if request.index < len(names):
            raise InvalidArgumentError(with_location(
                f"Could not apply FILE based sharding: the dataset only has {len(names)} file(s), which is "
                f"not enough for the required {request.num} shards/workers. If you are using datasets with "
                f"distribution strategy, consider setting the auto sharding policy to either DATA or OFF "
                f"using the `experimental_distribute.auto_shard_policy` option of `tf.data.Options()`."))
        return []
    return names[request.index::request.num]
