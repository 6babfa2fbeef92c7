"""What-if sentences ("a 10 percent decrease in prices would have reduced revenue by
[MASK]") and parallel lists ("$X, [MASK] and $Z, respectively")."""

from __future__ import annotations

import re
from decimal import Decimal

from finprobe.benchmarks.faith.cells import _PER_SHARE_ROW, Cell, _near
from finprobe.benchmarks.faith.context import _SYNONYM_GROUPS, Candidate, Context
from finprobe.benchmarks.faith.sentence import _YEAR, _tokens

_SHOCK_SIZE = r"(\d+(?:\.\d+)?|one|two|three|five|ten|\[MASK\])"
_SHOCK = re.compile(
    r"\b(?:a|an)\s+(?:hypothetical\s+|immediate\s+)?" + _SHOCK_SIZE + r"(?:\s*|-)"
    r"(percent(?:age)?(?:[- ]points?)?|%|basis[- ]points?|bps?|(?<=\[MASK\]))\s+(?:\w+\s+)?"
    r"(?:increase|decrease|change|decline|rise|drop|reduction|movement|fluctuation)",
    re.I,
)
_DEBT_ROW = re.compile(r"\b(?:debt|borrowings?|loans?|notes|credit facility|indebtedness)\b", re.I)
_PRETAX_ROW = re.compile(
    r"(?:income|earnings|loss) before (?:provision for )?(?:income )?tax|pre-?tax (?:income|earn)",
    re.I,
)


_VALUE_ITEM = re.compile(
    r"\$?\d[\d,.]*(?:\s*(?:million|billion|thousand|percent|%))?|\[MASK\]", re.I
)


# "oil, gas, and NGL": the first item's last word, the second item, the third's first word
_THREE_ITEMS = re.compile(r"\b([a-z][\w-]*),\s+([\w-]+),?\s+and\s+([\w-]+)", re.I)
# ... with a second item of two or three words ("Europe, South America and Asia Pacific"):
# read only when "respectively" pairs the list with the three figures after it; figures
# gathered from before such a list matched unrelated runs of words
_THREE_ITEMS_LONG = re.compile(
    r"\b([a-z][\w-]*),\s+([a-z][\w-]*(?:\s+[a-z][\w-]*){1,2}?),?\s+and\s+([\w-]+)", re.I
)


def _listed_items(masked: str) -> tuple[int, list[str]] | None:
    """Parallel lists: "oil, gas, and NGL revenues by $181.4 million, [MASK], and $22.2
    million, respectively" or "31.8%, [MASK] and 26.0% of rents in the New York,
    Southeast, and Northeast regions": the blank's slot (1) and the items' last words (a
    middle item of several words whole, the third item's first word)."""
    lists = list(_THREE_ITEMS.finditer(masked))
    for listed in reversed(lists):
        names = [n.lower() for n in listed.groups()]
        if len(set(names)) < 3 or any(_YEAR.fullmatch(n) or n[0].isdigit() for n in names):
            continue
        after = masked[listed.end() :].split("respectively")[0]
        before = masked[: listed.start()]
        for values in (
            _VALUE_ITEM.findall(after) if "respectively" in masked else [],
            _VALUE_ITEM.findall(re.split(r"\.\s", before)[-1])[-3:],
        ):
            slot = _mask_slot(values)
            if slot is not None:
                return slot, names
    for listed in reversed(
        list(_THREE_ITEMS_LONG.finditer(masked)) if "respectively" in masked else []
    ):
        names = [n.lower() for n in listed.groups()]
        slot = _mask_slot(_VALUE_ITEM.findall(masked[listed.end() :].split("respectively")[0]))
        if len(set(names)) == 3 and slot is not None:
            return slot, names
    return _pair_items(masked)


def _mask_slot(values: list[str]) -> int | None:
    """The blank's place among a list's three figures, or None. A year is no figure,
    whatever punctuation follows it ("December 31, 2023, compared with 2022,")."""
    values = [v for v in values if not _YEAR.fullmatch(v.strip().rstrip(",.;"))]
    return values.index("[MASK]") if len(values) == 3 and "[MASK]" in values else None


_VALUE = r"(?:\$?\d[\d,.]*(?:\s*(?:million|billion|thousand|percent|%))?|\[MASK\])"
_ITEM = r"(?:the\s+|our\s+|its\s+)?([a-z][\w&' -]{1,40}?)"
# "[MASK] and $24.7 million of gross profit and net income, respectively"
_PAIR_VALUES_FIRST = re.compile(
    rf"({_VALUE})\s+and\s+({_VALUE})\s+(?:of|in|for|from)\s+{_ITEM}\s+and\s+{_ITEM},?\s+"
    r"respectively",
    re.I,
)
# "gross profit and net income were [MASK] and $24.7 million, respectively"
_PAIR_ITEMS_FIRST = re.compile(
    rf"{_ITEM}\s+and\s+{_ITEM}\s+(?:were|was|of|totaled|totalled|amounted to|increased|"
    rf"decreased|rose|fell|declined)\s+(?:by\s+|to\s+)?(?:approximately\s+)?({_VALUE})\s+and\s+"
    rf"({_VALUE}),?\s+respectively",
    re.I,
)


def _pair_items(masked: str) -> tuple[int, list[str]] | None:
    """Two metrics, two figures, "respectively": the blank's slot and the two items."""
    match = _PAIR_VALUES_FIRST.search(masked)
    if match:
        values, names = match.group(1, 2), match.group(3, 4)
    else:
        match = _PAIR_ITEMS_FIRST.search(masked)
        if not match:
            return None
        names, values = match.group(1, 2), match.group(3, 4)
    names = tuple(n.split(",")[-1].strip().lower() for n in names)
    if "[MASK]" not in values or values[0] == values[1] or names[0] == names[1]:
        return None
    if not all(_item_words(n) for n in names):
        return None
    # "we received oil and gas royalty and lease revenues of [MASK] and $635,363": nested
    # "and"s or a clause's subject make the items unclear; say nothing
    if any(set(n.split()) & _NOT_AN_ITEM for n in names):
        return None
    return values.index("[MASK]"), list(names)


_NOT_AN_ITEM = frozenset(["and", "we", "they", "it", "which", "that", "who"])
# words that name no particular line
_GENERIC = frozenset(["total", "net", "our", "the", "its", "and", "of", "in", "for"])


def _item_words(name: str) -> list[str]:
    return [w for w in re.findall(r"[a-z]+", name.lower()) if w not in _GENERIC and len(w) > 1]


def names_item(label: str, name: str) -> bool:
    """A label word that is the item's word or its prefix ("NGLs" ~ "NGL", "metropolitan"
    ~ "Metro")."""
    if " " in name.strip():  # "gross profit": every word of the item
        words = _item_words(name)
        return bool(words) and all(names_item(label, w) for w in words)
    name = name.lower().rstrip("s")
    return any(
        word.startswith(name) or len(word) >= 4 and name.startswith(word)
        for word in re.findall(r"[a-z]+", label.lower())
    )


def confident_list(masked: str) -> bool:
    """A list read with confidence, fit for a hard rule: "respectively" pairs the figures
    with the items, or the blank stands in one written run of three figures ("$X, [MASK],
    and $Z"). Figures gathered from across a clause are only a feature."""
    return "respectively" in masked or bool(_FIGURE_RUN.search(masked))


_FIGURE_RUN = re.compile(
    rf"(?:{_VALUE},\s+\[MASK\],?\s+and\s+{_VALUE}|{_VALUE},\s+{_VALUE},?\s+and\s+\[MASK\]|"
    rf"\[MASK\],\s+{_VALUE},?\s+and\s+{_VALUE})",
    re.I,
)


def names_item_or_synonym(label: str, name: str) -> bool:
    """``names_item`` where an item word may also be named by a synonym ("revenue" names
    "Net sales")."""
    words = _item_words(name) if " " in name.strip() else [name]
    return bool(words) and all(
        any(names_item(label, w) for w in _with_synonyms(word)) for word in words
    )


def label_is_item(label: str, name: str) -> bool:
    """Every content word of the label is the item's word or a synonym of it: "Net sales"
    is "revenue"; "Cost of revenue" is not (it only contains it)."""
    named = [w for word in _item_words(name) for w in _with_synonyms(word)]
    words = _item_words(label)
    return bool(words) and all(any(names_item(word, n) for n in named) for word in words)


def _with_synonyms(word: str) -> list[str]:
    stem = _tokens(word)[0] if _tokens(word) else word
    for group in _SYNONYM_GROUPS:
        if stem in group:
            return [word, *group]
    return [word]


def _above(base: Candidate, ranked: list[Candidate]) -> float:
    """A what-if effect outranks the table's figures: no cell holds a hypothetical."""
    return max(base.score + 4.0, ranked[0].score + 0.5)


def sensitivity_candidates(
    masked: str,
    ctx: Context,
    ranked: list[Candidate],
    by_row: dict[tuple[str, int], list[Cell]],
) -> list[Candidate]:
    """What-if figures: "a 10 percent decrease in realized prices would have reduced
    revenue by [MASK]" is 10% of revenue; a one-point change in the effective tax rate
    moves tax expense by 1% of pre-tax income (expense / rate); 100 basis points on
    variable-rate debt is 1% of that debt. With the shock itself blank ("a [MASK]
    decrease ... would have reduced revenue by $181.4 million") it is the stated effect
    over the base, when that is a round percentage."""
    if "would" not in masked.lower() and "hypothetical" not in masked.lower():
        return []
    match = _SHOCK.search(masked)
    if not match:
        return []
    size, unit = match.group(1), match.group(2).lower() or "percent"
    words = {"one": 1, "two": 2, "three": 3, "five": 5, "ten": 10}
    divisor = Decimal(10000) if unit.startswith(("basis", "bp")) else Decimal(100)
    shock_blank = size == "[MASK]"
    if not shock_blank and "[MASK]" in match.group(0):
        return []
    rate_text = masked[match.end() : match.end() + 60].lower()
    # bases: money levels the sentence names, best fit first
    bases = [
        c
        for c in ranked
        if c.kind == "lookup"
        and not c.percent
        and not c.cells[0].change_column
        and not c.cells[0].count_row
        and not c.cells[0].physical_unit
        and not _PER_SHARE_ROW.search(c.formula)
        and c.value > 0
    ]
    if re.search(r"interest rate|basis[- ]point|\bbps?\b", masked, re.I):
        debt = [c for c in bases if _DEBT_ROW.search(c.formula)]
        bases = debt or bases
    out: list[Candidate] = []
    if shock_blank:
        if ctx.wants_money:
            return []
        for rank, base in enumerate(bases[:60]):
            for anchor in ctx.anchors:
                if "usd" not in anchor.units:
                    continue
                points = abs(anchor.value) / base.value * divisor
                nearest = points.to_integral_value()
                if nearest in (1, 2, 5, 10, 15, 20, 25, 50, 100) and abs(points - nearest) <= max(
                    nearest / 200, anchor.precision / base.value * divisor
                ):
                    value = nearest / 100 if ctx.wants_plain and divisor == 100 else nearest
                    return [
                        Candidate(
                            value,
                            False,
                            "multi_step",
                            "C",
                            base.cells,
                            f"{anchor.text} / {base.formula} = {points:.2f} {unit}",
                            ranked[0].score + 1.0 - 0.01 * rank,
                        )
                    ]
        return []
    items = _listed_items(masked)
    if items:
        # "oil, gas, and NGL revenues by $X, [MASK], and $Z, respectively": the slot's item
        slot, names = items

        def named(c: Candidate, name: str) -> bool:
            return names_item(c.cells[0].table.row_label(c.cells[0].row), name)

        own = [
            c
            for c in bases
            if named(c, names[slot]) and not any(named(c, n) for n in names if n != names[slot])
        ]
        bases = own or bases
    if not ctx.wants_money:
        return []
    fraction = Decimal(words.get(size.lower(), 0) if size.isalpha() else size) / divisor
    if fraction <= 0:
        return []
    if "tax rate" in rate_text:
        # expense / rate is the pre-tax base the rate applies to
        rates = [
            c
            for c in ranked
            if c.kind == "lookup" and c.percent and "tax rate" in c.formula.lower() and c.value > 0
        ]
        pretax = [c for c in bases if _PRETAX_ROW.search(c.formula)]
        if rates:
            rate = rates[0]
            expense = [
                c
                for c in bases
                if c.cells[0].table_index == rate.cells[0].table_index
                and c.cells[0].col == rate.cells[0].col
            ]
            if expense:
                base_value = expense[0].value / (rate.value / 100)
                return [
                    Candidate(
                        base_value * fraction,
                        False,
                        "multi_step",
                        "C",
                        [expense[0].cells[0], rate.cells[0]],
                        f"{fraction} x {expense[0].formula} / {rate.formula}",
                        _above(expense[0], ranked),
                    )
                ]
        bases = pretax or bases
    # the sentence's other effects ("$32.8 million, and $22.2 million, respectively") are
    # the shock on sibling lines: those lines are not the blank's base
    siblings = {
        (c.cells[0].table_index, c.cells[0].row)
        for c in bases
        for a in ctx.anchors
        if "usd" in a.units and _near(c.value * fraction, a)
    }
    for base in bases[:6]:
        if (base.cells[0].table_index, base.cells[0].row) in siblings:
            continue
        out.append(
            Candidate(
                base.value * fraction,
                False,
                "multi_step",
                "C",
                base.cells,
                f"{fraction} x {base.formula}",
                _above(base, ranked),
            )
        )
        break
    return out
