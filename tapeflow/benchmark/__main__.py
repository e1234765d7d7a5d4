"""python -m tapeflow.benchmark FILE.py:FUNCTION ... (see tapeflow/benchmark/cli.py)."""
import sys

from .cli import main

sys.exit(main())
