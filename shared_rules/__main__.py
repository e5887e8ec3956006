"""``python -m shared_rules``: see :mod:`shared_rules.cli`."""

import sys

from .cli import main

sys.exit(main())
