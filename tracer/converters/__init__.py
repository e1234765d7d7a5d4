"""One converter per Python feature.  Each module has `transform(node, ctx)`
that rewrites a function's gast tree with quoted code templates.  The order
they run in is fixed in tracer/conversion.py (later ones rely on earlier ones:
control flow sees no return/break/continue jumps)."""
