"""Command line: inspect and run a saved model.

    python -m tapeflow.saved_model show PATH
    python -m tapeflow.saved_model run PATH [--signature NAME] --input x=FILE.npy ... [--output FILE.npy]

`run` reads each input with allow_pickle=False, prints every output (name,
dtype, shape, values) and, with --output, writes the single output to FILE.npy
or, with --output name=FILE.npy (repeatable), the named ones.
Exit status: 0 on success, 2 for bad arguments or a bad saved model (a
message, never a traceback).  Every name from the file is printed through
`_clean`: control characters, ANSI escape sequences and lone surrogates are
shown escaped, never sent to the terminal.
"""
import argparse
import os
import stat
import sys

import numpy as np

from .format import SavedModelError
from .loading import load
from .saving import SERVING


def _clean(text):
    """`text` with every non-printable character (controls, ESC, lone surrogates,
    other unprintables) written as a Python escape."""
    text = str(text)
    return "".join(c if c.isprintable() else ascii(c)[1:-1] for c in text)


def _aval_text(aval):
    dims = ", ".join("None" if d is None else str(d) for d in aval.shape)
    return f"{aval.dtype.name}[{dims}]"


def show(path, out):
    model = load(path)
    out.write(f"saved model {_clean(path)}\n")
    if not model.signatures:
        out.write("  no signatures\n")
    for name in sorted(model.signatures):
        sig = model.signatures[name]
        out.write(f"  signature {_clean(repr(name))}:\n")
        for n, aval in sig.inputs:
            out.write(f"    input  {_clean(n)}: {_aval_text(aval)}\n")
        for n, _, aval in sig.outputs:
            out.write(f"    output {_clean(n)}: {_aval_text(aval)}\n")
    methods = sorted(k for k, v in vars(model).items() if hasattr(v, "concrete_functions") and k[0] != "_")
    if model._call is not None:
        methods = ["__call__"] + methods
    for name in methods:
        fn = model._call if name == "__call__" else getattr(model, name)
        for concrete in fn.concrete_functions:
            out.write(f"  method {_clean(name)}: {_clean(concrete.pretty_printed_signature())}\n")
    n_values = sum(int(np.prod(v.shape.dims)) for v in model.variables)
    out.write(f"  variables: {len(model.variables)} ({n_values} values)\n")


def _pairs(items, what):
    pairs = {}
    for item in items:
        name, sep, file = item.partition("=")
        if not sep or not name or not file:
            raise SystemExit(f"error: {what} must be NAME=FILE.npy, got {item!r}")
        pairs[name] = file
    return pairs


def run(path, signature, inputs, outputs, out):
    model = load(path)
    if signature not in model.signatures:
        raise SystemExit(f"error: no signature {signature!r}; the model has {sorted(model.signatures)}")
    sig = model.signatures[signature]
    feeds = {}
    for name, file in _pairs(inputs, "--input").items():
        try:
            if not stat.S_ISREG(os.stat(file).st_mode):  # a FIFO or device would block np.load
                raise ValueError("not a regular file")
            feeds[name] = np.load(file, allow_pickle=False)
        except (OSError, ValueError) as exc:
            raise SystemExit(f"error: cannot read input {name!r} from {file!r}: {exc}") from None
    try:
        results = sig(**feeds)
    except (TypeError, ValueError) as exc:
        raise SystemExit(f"error: {exc}") from None
    with np.printoptions(threshold=200):
        for name, value in results.items():
            array = value.numpy()
            out.write(f"{_clean(name)}: {array.dtype.name}{list(array.shape)}\n{array}\n")
    if outputs:
        if len(outputs) == 1 and "=" not in outputs[0]:
            if len(results) != 1:
                raise SystemExit(f"error: the signature has {len(results)} outputs {sorted(results)}; "
                                 f"use --output NAME=FILE.npy")
            targets = {next(iter(results)): outputs[0]}
        else:
            targets = _pairs(outputs, "--output")
        for name, file in targets.items():
            if name not in results:
                raise SystemExit(f"error: no output {name!r}; the outputs are {sorted(results)}")
            np.save(file, results[name].numpy(), allow_pickle=False)


def main(argv=None, out=sys.stdout):
    parser = argparse.ArgumentParser(prog="python -m tapeflow.saved_model",
                                     description="Inspect or run a tapeflow saved model.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_show = sub.add_parser("show", help="list the signatures (inputs, outputs) and methods")
    p_show.add_argument("path")
    p_run = sub.add_parser("run", help="run one signature on .npy inputs")
    p_run.add_argument("path")
    p_run.add_argument("--signature", default=SERVING)
    p_run.add_argument("--input", action="append", default=[], metavar="NAME=FILE.npy")
    p_run.add_argument("--output", action="append", default=[], metavar="[NAME=]FILE.npy")
    args = parser.parse_args(argv)
    try:
        if args.command == "show":
            show(args.path, out)
        else:
            run(args.path, args.signature, args.input, args.output, out)
    except (SavedModelError, OSError) as exc:
        print(_clean(f"error: {exc}"), file=sys.stderr)
        return 2
    except SystemExit as exc:
        if isinstance(exc.code, str):
            print(_clean(exc.code), file=sys.stderr)
            return 2
        raise
    except Exception as exc:  # noqa: BLE001 - a command line tool reports, it does not dump a traceback
        print(_clean(f"error: {type(exc).__name__}: {exc}"), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
