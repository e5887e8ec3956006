"""The commit-msg hook: a subject of at most 72 characters in the imperative, the why in the body.

Run by pre-commit (``.pre-commit-config.yaml``, stage ``commit-msg``) with the path of the message
file; prints each problem and exits 1, or exits 0 for a good message. The rules:

* the subject (first line) is 1–72 characters, has no trailing period and no trailing blank;
* it starts with a capital letter, or with a lowercase area prefix such as ``bench: ``, ``deploy.md: ``;
* its first word is a command ("Add", "Fix"), not a report ("Added", "Fixing", "Adds");
* a body is separated from the subject by one blank line.

Lines starting with ``#`` are git's comments and are ignored; git's own messages (merges, reverts,
``fixup!``/``squash!``) are accepted as they come.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

MAX_SUBJECT = 72
_AREA = re.compile(r"^[a-z0-9][\w./-]*: (?=\S)")
_GIT_MADE = ("Merge ", "Revert ", "fixup! ", "squash! ", "amend! ")
# First words that report instead of command; "-ed" and "-ing" words are caught below except these.
_REPORTS = frozenset({"adds", "fixes", "updates", "removes", "changes", "makes", "moves", "renames", "refactors"})
_NOT_PAST = frozenset({"need", "embed", "feed", "seed", "shed", "speed", "proceed", "exceed", "succeed", "bed", "red"})
_NOT_GERUND = frozenset({"bring", "string", "ring", "sing", "spring", "swing", "thing"})


def _lines(message: str) -> list[str]:
    """The message as git keeps it: comment lines dropped, trailing blank lines removed."""
    lines = [line.rstrip("\n") for line in message.splitlines() if not line.startswith("#")]
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


def _first_word_problem(subject: str) -> str | None:
    """Why the subject's first word (after any area prefix) is not in the imperative, or None."""
    words = _AREA.sub("", subject, count=1).split()
    word = re.sub(r"[^a-z]", "", words[0].lower()) if words else ""
    reporting = (
        word in _REPORTS
        or (word.endswith("ed") and word not in _NOT_PAST)
        or (word.endswith("ing") and word not in _NOT_GERUND)
    )
    if reporting:
        return f'say what the commit does as a command ("Add", "Fix"), not "{words[0]}"'
    return None


def problems(message: str) -> list[str]:
    """Every problem with a commit message, in words; empty for a good one."""
    lines = _lines(message)
    if not lines or not lines[0].strip():
        return ["the subject (first line) is empty: say what the commit does in at most 72 characters"]
    subject = lines[0]
    if subject.startswith(_GIT_MADE):
        return []
    found = []
    if len(subject) > MAX_SUBJECT:
        found.append(
            f"the subject is {len(subject)} characters; keep it to {MAX_SUBJECT} and put the explanation in the body"
        )
    if subject != subject.strip():
        found.append("the subject starts or ends with blanks")
    if subject.rstrip().endswith("."):
        found.append("the subject ends with a period; drop it")
    if not (subject[:1].isupper() or _AREA.match(subject)):
        found.append('start the subject with a capital letter, or with a lowercase area such as "bench: "')
    word = _first_word_problem(subject)
    if word is not None:
        found.append(word)
    if len(lines) > 1 and lines[1].strip():
        found.append("leave one blank line between the subject and the body")
    return found


def main(argv: list[str]) -> int:
    """Check the message file named by the hook; 0 when it is good, 1 (with the problems) when not."""
    if len(argv) != 2:
        print("usage: check_commit_msg.py COMMIT_MSG_FILE", file=sys.stderr)
        return 2
    found = problems(Path(argv[1]).read_text(encoding="utf-8"))
    for problem in found:
        print(f"commit message: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
