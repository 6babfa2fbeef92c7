"""Number formatting and rounding: how amounts, percentages and ratios are written."""

from __future__ import annotations

import random
from decimal import ROUND_HALF_UP, Decimal


def _fmt_int(v: int | Decimal) -> str:
    """Table cell: 1,234 / (1,234) / — for zero."""
    v = int(v)
    if v == 0:
        return "—"
    return f"({-v:,})" if v < 0 else f"{v:,}"


def _fmt_eps(v: Decimal) -> str:
    return f"({-v:.2f})" if v < 0 else f"{v:.2f}"


def _plain(v: Decimal) -> str:
    """Decimal without exponent or trailing zeros after the point."""
    s = format(v, "f")
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return s or "0"


def format_reference(value: Decimal, unit: str) -> str:
    """Exact value as ground-truth text: money with all digits, percents to 8 decimals."""
    neg = value < 0
    a = abs(value)
    if unit in ("usd", "usd_per_share"):
        q = a.quantize(Decimal("0.01")) if a != a.to_integral_value() else a.to_integral_value()
        body = f"${q:,}"
    elif unit == "percent":
        body = _plain(a.quantize(Decimal("1e-8"))) + "%"
    else:
        body = _plain(a.quantize(Decimal("1e-8")))
    return ("-" if neg else "") + body


def _round(v: Decimal, step: Decimal) -> Decimal:
    return (v / step).quantize(Decimal(1), rounding=ROUND_HALF_UP) * step


def _is_tie(v: Decimal, step: Decimal) -> bool:
    """v lies exactly half-way between two multiples of step: rounding rules differ there."""
    return (abs(v) / step) % 1 == Decimal("0.5")


def _implied_precision(rounded: Decimal, step: Decimal) -> Decimal:
    """Place of the last non-zero digit: readers of "$1,230,000" assume 10^4."""
    if rounded == 0:
        return step
    p = step
    while (rounded / (p * 10)) == (rounded / (p * 10)).to_integral_value():
        p *= 10
    return p


def _safe(v: Decimal, step: Decimal) -> bool:
    """Rounding v to step gives the same figure under half-up and half-even, and
    so does the coarser precision a reader infers from trailing zeros."""
    r = _round(v, step)
    if r == 0 or _is_tie(v, step):
        return False
    return not _is_tie(v, _implied_precision(r, step))


def money_text(value: Decimal, rng: random.Random) -> str:
    """Analyst-style money: "$817.9 million", "$1.24 billion", "$168,000"."""
    a = abs(value)
    options: list[tuple[str, Decimal, str]] = []  # (scale word, step, format)
    if a >= 10**9:
        options = [("billion", Decimal("1e8"), "{:.1f}"), ("billion", Decimal("1e7"), "{:.2f}")]
        if a < Decimal("5e9"):
            options.append(("million", Decimal("1e5"), "{:,.1f}"))
    elif a >= 10**8:
        options = [("million", Decimal("1e5"), "{:.1f}"), ("million", Decimal("1e6"), "{:.0f}")]
    elif a >= 10**6:
        options = [("million", Decimal("1e5"), "{:.1f}")]
        if a < 10**7:
            options.append(("million", Decimal("1e4"), "{:.2f}"))
    elif a >= 10**3:
        options = [("", Decimal("1e3"), "{:,.0f}")]
    rng.shuffle(options)
    # finer fall-backs when every analyst rounding sits on a tie
    options += [("million", Decimal("1e3"), "{:,.3f}"), ("", Decimal(1), "{:,.0f}")]
    div = {"billion": Decimal("1e9"), "million": Decimal("1e6"), "": Decimal(1)}
    for word, step, fmt in options:
        if word == "million" and step == Decimal("1e3") and a < 10**6:
            continue
        if not _safe(a, step):
            continue
        shown = _round(a, step) / div[word]
        return "$" + fmt.format(shown) + (f" {word}" if word else "")
    return "$" + f"{a:,}"


def pct_text(value: Decimal, rng: random.Random, words: bool | None = None) -> str:
    """Percent as analysts write it: "12.4%", "34 percent", "0.45%"."""
    a = abs(value)
    steps = [Decimal("0.1"), Decimal("0.1"), Decimal(1)] if a >= 1 else [Decimal("0.01")]
    rng.shuffle(steps)
    steps += [Decimal("0.01"), Decimal("0.001"), Decimal("0.0001")]
    if words is None:
        words = rng.random() < 0.3
    for step in steps:
        if not _safe(a, step):
            continue
        digits = max(0, -step.as_tuple().exponent)
        shown = f"{_round(a, step):.{digits}f}"
        return shown + (" percent" if words else "%")
    return _plain(a) + "%"


def ratio_text(value: Decimal) -> str:
    for step in (Decimal("0.01"), Decimal("0.001"), Decimal("0.0001")):
        if _safe(abs(value), step):
            digits = -step.as_tuple().exponent
            return f"{_round(abs(value), step):.{digits}f}"
    return _plain(abs(value))
