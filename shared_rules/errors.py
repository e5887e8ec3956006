"""The one error type a user may see from the rules engine."""

from __future__ import annotations

__all__ = ["RulesError", "DocumentError"]


class RulesError(ValueError):
    """A request the rules cannot satisfy; ``str()`` is one line for a user."""

    code = "rules"


class DocumentError(RulesError):
    """An event document that breaks the format, naming the field at fault.

    >>> str(DocumentError("rounds[2].matches[5].outcomes", "'draw' is not an outcome of pokemon-tcg"))
    "rounds[2].matches[5].outcomes: 'draw' is not an outcome of pokemon-tcg"
    """

    code = "invalid-document"

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}" if path else problem)
