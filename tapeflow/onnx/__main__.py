"""python -m tapeflow.onnx convert SAVED_MODEL_DIR OUT.onnx [--opset N]"""
import argparse
import sys


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m tapeflow.onnx",
                                     description="Export a tapeflow saved model to ONNX.")
    sub = parser.add_subparsers(dest="command", required=True)
    convert = sub.add_parser("convert", help="convert a saved model's serving_default signature")
    convert.add_argument("saved_model")
    convert.add_argument("output")
    from tapeflow.onnx import DEFAULT_OPSET, export
    convert.add_argument("--opset", type=int, default=DEFAULT_OPSET)
    args = parser.parse_args(argv)
    try:
        model = export(args.saved_model, args.output, opset=args.opset)
    except (ValueError, TypeError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    g = model.graph
    print(f"wrote {args.output}: {len(g.node)} nodes, {len(g.initializer)} initializers, "
          f"inputs {[i.name for i in g.input]}, outputs {[o.name for o in g.output]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
