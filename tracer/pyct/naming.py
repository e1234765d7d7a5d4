"""Fresh names for generated symbols, never clashing with the user's."""
import gast


class Namer:
    def __init__(self, tree):
        self.used = set()
        for n in gast.walk(tree):
            if isinstance(n, gast.Name):
                self.used.add(n.id)
            elif isinstance(n, (gast.FunctionDef, gast.ClassDef)):
                self.used.add(n.name)
            elif isinstance(n, gast.alias):
                self.used.add((n.asname or n.name).split(".")[0])

    def new(self, base):
        name, k = base, 0
        while name in self.used:
            k += 1
            name = f"{base}_{k}"
        self.used.add(name)
        return name
