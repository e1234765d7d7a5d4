"""Dataset.shard: every num_shards-th element."""
from tapeflow.data.elements import positive
from tapeflow.runtime.errors import InvalidArgumentError, with_location


def shard(self, num_shards, index, name=None):
    """Every num_shards-th element, starting with element `index`."""
    num_shards = positive(num_shards, "shard")
    index = int(index)
    if not 0 <= index < num_shards:
        raise InvalidArgumentError(with_location(f"Dataset.shard: index must be in [0, {num_shards}), got {index}"))
    source = self._produce

    def produce():
        for i, flat in enumerate(source()):
            if i % num_shards == index:
                yield flat

    card = self._card
    if card >= 0:
        card = card // num_shards + (1 if index < card % num_shards else 0)
    return self._derive(produce, card)
