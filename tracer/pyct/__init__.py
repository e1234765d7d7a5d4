"""Generic source-to-source machinery (parsing, templates, fresh names, static
analysis), kept apart from the per-feature converters that use it."""
