"""WCAG AA for the app's text: every style rule that sets both a text colour and a background keeps a
contrast of at least 4.5:1 (badges, banners, warnings), computed from pwa/style.css itself."""

from __future__ import annotations

import re
from pathlib import Path

STYLE = Path(__file__).resolve().parent.parent / "pwa" / "style.css"
AA = 4.5


def _luminance(hex_colour: str) -> float:
    h = hex_colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    channels = [int(h[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio.

    >>> round(contrast("#000000", "#ffffff"), 1)
    21.0
    """
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _pairs() -> list[tuple[str, str, str]]:
    css = re.sub(r"/\*.*?\*/", "", STYLE.read_text(encoding="utf-8"), flags=re.S)
    variables = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-fA-F]{3,6})", css))

    def resolve(value: str) -> str | None:
        value = value.strip()
        var = re.fullmatch(r"var\(--([a-z-]+)\)", value)
        if var:
            return variables.get(var.group(1))
        return value if re.fullmatch(r"#[0-9a-fA-F]{3,6}", value) else None

    found = []
    for selector, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        declarations = dict((k.strip(), v) for k, v in re.findall(r"([a-z-]+)\s*:\s*([^;]+)", body))
        fg = resolve(declarations.get("color", ""))
        bg = resolve(declarations.get("background", declarations.get("background-color", "")))
        if fg and bg:
            found.append((selector.strip(), fg, bg))
    return found


def test_the_stylesheet_has_text_on_backgrounds_to_check():
    assert len(_pairs()) >= 5


def test_every_coloured_text_on_its_background_meets_wcag_aa():
    low = [(selector, fg, bg, round(contrast(fg, bg), 2)) for selector, fg, bg in _pairs() if contrast(fg, bg) < AA]
    assert low == []
