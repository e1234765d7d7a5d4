"""TensorShape: a static shape whose dims may be unknown (None) while tracing."""


class TensorShape:
    __slots__ = ("dims",)

    def __init__(self, dims):
        self.dims = None if dims is None else tuple(None if d is None else int(d) for d in dims)

    @classmethod
    def of_array(cls, shape):
        """The shape of an array: `shape` is already a tuple of Python ints (no conversion)."""
        s = cls.__new__(cls)
        s.dims = shape
        return s

    @property
    def rank(self):
        return None if self.dims is None else len(self.dims)

    ndims = rank

    def as_list(self):
        if self.dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self.dims)

    def is_fully_defined(self):
        return self.dims is not None and None not in self.dims

    def num_elements(self):
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self.dims:
            n *= d
        return n

    def is_compatible_with(self, other):
        other = other if isinstance(other, TensorShape) else TensorShape(other)
        if self.dims is None or other.dims is None:
            return True
        return len(self.dims) == len(other.dims) and all(
            a is None or b is None or a == b for a, b in zip(self.dims, other.dims))

    def merge_with(self, other):
        """The shape with every dim known in either (ValueError where they disagree)."""
        other = as_shape(other)
        if self.dims is None:
            return other
        if other.dims is None:
            return self
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        return TensorShape([a if a is not None else b for a, b in zip(self.dims, other.dims)])

    def most_specific_compatible_shape(self, other):
        """The most specific shape compatible with both: dims where they agree."""
        other = as_shape(other)
        if self.dims is None or other.dims is None or len(self.dims) != len(other.dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self.dims, other.dims)])

    def concatenate(self, other):
        other = as_shape(other)
        if self.dims is None or other.dims is None:
            return TensorShape(None)
        return TensorShape(self.dims + other.dims)

    def __add__(self, other):
        return self.concatenate(other)

    def __radd__(self, other):
        return as_shape(other).concatenate(self)

    def with_rank(self, rank):
        """This shape merged with an unknown shape of `rank` (ValueError if the rank differs)."""
        try:
            return self.merge_with(TensorShape([None] * rank))
        except ValueError:
            raise ValueError(f"Shape {self} must have rank {rank}") from None

    def with_rank_at_least(self, rank):
        if self.dims is not None and len(self.dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank):
        if self.dims is not None and len(self.dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_is_compatible_with(self, other):
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {as_shape(other)} are incompatible")

    def assert_has_rank(self, rank):
        if self.dims is not None and len(self.dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other):
        other = as_shape(other)
        if self.dims is not None and other.dims is not None and len(self.dims) != len(other.dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self):
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    def __iter__(self):
        if self.dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self.dims)

    def __len__(self):
        if self.dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self.dims)

    def __getitem__(self, i):
        if self.dims is None:  # TF: any dim of an unknown shape is unknown
            return TensorShape(None) if isinstance(i, slice) else None
        if isinstance(i, slice):
            return TensorShape(self.dims[i])
        return self.dims[i]

    def __eq__(self, other):
        if isinstance(other, TensorShape):
            return self.dims == other.dims
        try:
            return self.dims == tuple(other)
        except TypeError:
            return False

    def __hash__(self):
        return hash(self.dims)

    def __repr__(self):
        return f"TensorShape({list(self.dims) if self.dims is not None else None})"

    def __str__(self):
        if self.dims is None:
            return "<unknown>"
        if len(self.dims) == 1:
            return f"({self.dims[0]},)"
        return "(" + ", ".join("None" if d is None else str(d) for d in self.dims) + ")"


def as_shape(shape):
    """A TensorShape from a TensorShape, a list of dims or None."""
    return shape if isinstance(shape, TensorShape) else TensorShape(shape)
