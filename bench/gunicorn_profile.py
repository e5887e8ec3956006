"""A gunicorn config for profiling the app inside real workers (bench only, never deployed).

    GUNICORN_CMD_ARGS="-c bench/gunicorn_profile.py" BENCH_PROFILE_DIR=/tmp/prof \\
        .venv/bin/python -m bench.sync --cpu --sizes 2000x2 --skip-postgres

It keeps the checkout's own settings (``gunicorn.conf.py``), starts cProfile on CPU time (``time.process_time``)
in each worker after the fork, and writes ``w-<pid>.prof`` to ``BENCH_PROFILE_DIR`` when the worker exits (read
them together with ``pstats.Stats(*files)``). The profiler's own cost inflates the figures, Python-heavy parts
most: read shares, not milliseconds.
"""

from __future__ import annotations

import cProfile
import os
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parent.parent
exec((_ROOT / "gunicorn.conf.py").read_text())  # the checkout's settings, as gunicorn would read them

_profiles: dict[str, cProfile.Profile] = {}


def post_fork(server: Any, worker: Any) -> None:
    """Start profiling this worker in CPU time."""
    profile = cProfile.Profile(time.process_time)
    _profiles["worker"] = profile
    profile.enable()


def worker_exit(server: Any, worker: Any) -> None:
    """Write this worker's profile."""
    profile = _profiles.pop("worker", None)
    if profile is not None:
        profile.disable()
        folder = Path(os.environ.get("BENCH_PROFILE_DIR", "/tmp"))
        profile.dump_stats(str(folder / f"w-{os.getpid()}.prof"))
