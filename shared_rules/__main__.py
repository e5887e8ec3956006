"""``python -m shared_rules``: see :mod:`shared_rules.cli`."""

import os
import sys

from .cli import main

status = main()
if sys.platform == "emscripten":  # Pyodide runs the module inside a page (or Node) that goes on living
    sys.exit(status)
# The process ends here: leave without tearing the interpreter down object by object (a 4,096-player
# event is some 100,000 objects to free one at a time, issue #27). Nothing is left to run at exit:
# the command registers no exit handler and has written its answer; only the streams need a flush.
for stream in (sys.stdout, sys.stderr):
    try:
        stream.flush()
    except (OSError, ValueError):  # a closed pipe (e.g. into `head`): the answer was cut short anyway
        pass
os._exit(status)
