"""Every shared_rules module's doctests, for both runners.

``unittest`` (CPython, and inside Pyodide) picks them up through the
``load_tests`` protocol, one test per docstring; pytest ignores that protocol,
so ``ModuleDoctestsTest`` runs the same doctests as one test for it.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import unittest

import shared_rules


def rules_modules() -> list[str]:
    """Names of every importable shared_rules module (``__main__`` excluded)."""
    names = ["shared_rules"]
    for info in pkgutil.walk_packages(shared_rules.__path__, "shared_rules."):
        if info.name.rsplit(".", 1)[-1] != "__main__":
            names.append(info.name)
    return sorted(names)


def doctest_suite() -> unittest.TestSuite:
    suite = unittest.TestSuite()
    for name in rules_modules():
        suite.addTests(doctest.DocTestSuite(importlib.import_module(name)))
    return suite


def load_tests(
    loader: unittest.TestLoader, standard_tests: unittest.TestSuite, pattern: str | None
) -> unittest.TestSuite:
    # Under unittest the doctests replace ModuleDoctestsTest, which would run them twice.
    return doctest_suite()


class ModuleDoctestsTest(unittest.TestCase):
    def test_every_module_doctest_passes(self) -> None:
        result = unittest.TestResult()
        suite = doctest_suite()
        suite.run(result)
        problems = [f"{test}\n{trace}" for test, trace in result.failures + result.errors]
        self.assertEqual([], problems, "\n".join(problems))
        self.assertGreater(suite.countTestCases(), 0, "shared_rules has no doctests at all")
