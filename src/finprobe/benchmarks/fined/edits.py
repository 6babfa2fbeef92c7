"""What every injector shares: the Change record, date and number helpers, and the
edit key (the words an edit replaced, and by what) that the data card and the planner
use to keep any one edit from dominating a subtype."""

from __future__ import annotations

import calendar
import difflib
import random
import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from finprobe.numbers import find_numbers


@dataclass
class Change:
    modified: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass
class Injection:
    subtype: str
    original: str  # "" when a sentence is inserted
    modified: str
    start: int  # offset of the original sentence (insertion point when inserted)
    end: int
    injector: str
    detail: dict[str, Any] = field(default_factory=dict)
    insert: bool = False


MONTHS = {m: i for i, m in enumerate(calendar.month_name) if m}
MONTH_RE = "|".join(MONTHS)
EN_DATE = re.compile(rf"\b({MONTH_RE}) (\d{{1,2}}), (\d{{4}})\b")
ZH_DATE = re.compile(r"(\d{4})年(\d{1,2})月(\d{1,2})日")
# figure kinds that are amounts, not years, dates or ordinals
NON_FIGURE_KINDS = ("year", "date", "ordinal", "other")


def dec(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def value_of(text: str) -> Decimal | None:
    nums = find_numbers(text)
    return nums[0].number.value if nums else None


def bump_digit(token: str, rng: random.Random) -> str | None:
    """Change one significant digit of a written number (keeps its format and digit count)."""
    digits = [i for i, ch in enumerate(token) if ch.isdigit()]
    if len(digits) < 2:
        return None
    # the second significant digit: a visible but plausible change
    first_nonzero = next((k for k, i in enumerate(digits) if token[i] != "0"), 0)
    k = min(first_nonzero + 1, len(digits) - 1)
    i = digits[k]
    new = (int(token[i]) + rng.choice((2, 3, 4, 5, 6, 7))) % 10
    return token[:i] + str(new) + token[i + 1 :]


def cap(template: str, like: str) -> str:
    """``template`` in the case of ``like``: Title Case, Capitalized or as is."""
    words = like.split()
    if len(words) > 1 and all(w[:1].isupper() for w in words):
        return " ".join(w[:1].upper() + w[1:] for w in template.split())
    return template[:1].upper() + template[1:] if like[:1].isupper() else template


def splice(s: str, start: int, end: int, new: str) -> str:
    return s[:start] + new + s[end:]


def edit_key(original: str, modified: str) -> str:
    """The smallest run of words that changed, as 'old -> new' (lowercase): one key per kind of edit."""
    if not original:
        return "(inserted sentence)"
    a = [w.strip(",.;:") for w in original.split()]
    b = [w.strip(",.;:") for w in modified.split()]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    ops = [op for op in sm.get_opcodes() if op[0] != "equal"]
    if not ops:
        return "(punctuation)"
    i1, i2, j1, j2 = ops[0][1], ops[-1][2], ops[0][3], ops[-1][4]
    old = " ".join(a[i1:i2]).lower() or "∅"
    new = " ".join(b[j1:j2]).lower() or "∅"
    return f"{old} -> {new}"


def edit_family(subtype: str, detail: dict[str, Any]) -> str:
    """The family an edit belongs to (a kind of edit, wider than its 'old -> new' key): what
    the injector recorded, the unit kind of a unit error, the kind of a swapped citation."""
    if detail.get("family"):
        return str(detail["family"])
    if subtype == "numerical_unit_error" and detail.get("unit"):
        return f"unit: {detail['unit']}"
    if subtype == "incorrect_legal_reference":
        old = str(detail.get("old", ""))
        if "Form" in old:
            return "SEC form"
        if old.startswith("ASC"):
            return "ASC topic"
        if old.startswith("Section"):
            return "code section"
        return "act or law"
    return "one family"
