"""Primitives (each with its gradient right under it) and the composites on top."""
