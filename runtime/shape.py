"""TensorShape: a static shape whose dims may be unknown (None) while tracing."""


class TensorShape:
    __slots__ = ("dims",)

    def __init__(self, dims):
        self.dims = None if dims is None else tuple(None if d is None else int(d) for d in dims)

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

    def __iter__(self):
        return iter(self.dims)

    def __len__(self):
        if self.dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self.dims)

    def __getitem__(self, i):
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
