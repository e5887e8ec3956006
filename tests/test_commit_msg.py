"""The commit-msg hook (scripts/check_commit_msg.py) accepts readable messages and names what is wrong."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "check_commit_msg.py"
_spec = importlib.util.spec_from_file_location("check_commit_msg", SCRIPT)
assert _spec is not None and _spec.loader is not None
check = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check)


@pytest.mark.parametrize(
    "message",
    [
        "Offer games only where an elimination match has more than one",
        "bench: the range of WAL syncs per push over four runs",
        "deploy.md: list TOPCUT_HSTS_MAX_AGE with the shared settings",
        "Split the ledger into the log, the player view and claims\n\nWhy: one job per module.\n",
        "Seed the bracket from heats\n",
        "Bring back the hall address",
        "Merge branch 'backend' into main with a subject git wrote for itself at great length",
        "fixup! Add the hook",
        "Add the hook\n# Please enter the commit message for your changes.\n# a comment line, not a body\n",
        "A" + "b" * 71,
    ],
)
def test_readable_messages_pass(message):
    assert check.problems(message) == []


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("A" + "b" * 72, "73 characters"),
        ("Add the hook.", "period"),
        ("add the hook", "capital letter"),
        ("Added the hook", '"Added"'),
        ("Fixing the ledger", '"Fixing"'),
        ("Adds the hook", '"Adds"'),
        ("bench: timed the pull", '"timed"'),
        ("Add the hook\nbecause the history is hard to read", "blank line"),
        ("", "empty"),
        ("# only a comment\n\n", "empty"),
        (" Add the hook", "blanks"),
    ],
)
def test_each_problem_is_named(message, words):
    found = check.problems(message)
    assert any(words in problem for problem in found), found


def test_the_hook_exits_1_with_the_problems_and_0_for_a_good_message(tmp_path):
    bad, good = tmp_path / "bad", tmp_path / "good"
    bad.write_text("Fixed things.\n", encoding="utf-8")
    good.write_text("Fix the claim codes of removed players\n\nThey kept working.\n", encoding="utf-8")
    run = [sys.executable, str(SCRIPT)]
    refused = subprocess.run([*run, str(bad)], capture_output=True, text=True)
    assert refused.returncode == 1
    assert "period" in refused.stderr and '"Fixed"' in refused.stderr
    assert subprocess.run([*run, str(good)], capture_output=True, text=True).returncode == 0


def test_pre_commit_runs_the_hook_at_the_commit_msg_stage():
    config = (ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "scripts/check_commit_msg.py" in config
    assert "commit-msg" in config
