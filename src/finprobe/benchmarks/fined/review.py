"""The paper's review rules (Appendix C, Table 5) applied mechanically where they can be.

- Clean edits: an injected sentence reads as normal text apart from its one error (no
  doubled spaces, stray commas, empty parentheses left behind by the edit).
- Rule 2 (the error must not bring a second error): a changed figure must not break a
  total the sentence states, a unit swap must not contradict the same figure elsewhere.
- Rule 3 (the error must be inferable from the context): one check per subtype, run on
  the original sentence, the changed one and the document text only, so rule-made and
  LLM-made errors go through the same gate.

The matchers that decide "the same quantity" (numerical inconsistency) and "the same
stipulation" (clause conflict) are in matchers.py, shared with the injectors.
"""

from __future__ import annotations

import calendar
import re
from decimal import Decimal
from functools import lru_cache

from finprobe.benchmarks.fined.edits import EN_DATE, MONTHS, NON_FIGURE_KINDS, ZH_DATE, value_of
from finprobe.benchmarks.fined.matchers import (
    conflicting_stipulation,
    figure_mentions,
    period_at,
    same_quantity,
)
from finprobe.numbers import find_numbers

# ----------------------------------------------------------------------------- the change itself


def changed_span(original: str, modified: str) -> tuple[str, str]:
    """(old, new) text of the one region that differs (common prefix and suffix cut off)."""
    i = 0
    while i < min(len(original), len(modified)) and original[i] == modified[i]:
        i += 1
    j = 0
    while (
        j < min(len(original), len(modified)) - i
        and original[len(original) - 1 - j] == modified[len(modified) - 1 - j]
    ):
        j += 1
    return original[i : len(original) - j], modified[i : len(modified) - j]


def changed_words(original: str, modified: str) -> str:
    """The new text of the differing region widened to whole words ("is required to" ->
    "is expected to" gives "expected", not "expect")."""
    old, new = changed_span(original, modified)
    i = modified.find(new) if new else -1
    if i < 0:
        return new
    a, b = i, i + len(new)
    while a > 0 and modified[a - 1].isalnum():
        a -= 1
    while b < len(modified) and modified[b].isalnum():
        b += 1
    # and the word after it, for phrases like "expected to"
    m = re.match(r"\s+\w+", modified[b:])
    return modified[a : b + (m.end() if m else 0)]


_UNCLEAN = (
    (re.compile(r"\S {2,}\S"), "double space"),
    (re.compile(r" [,.;:)]"), "space before punctuation"),
    (re.compile(r",\s*[,.;]|;\s*[;,.]|\(\s*\)"), "empty list slot or parentheses"),
    (re.compile(r"\b(\w+) \1\b", re.I), "doubled word"),
    # a run of words said twice in a row (a heading fused with its sentence, copied along)
    (re.compile(r"\b(\w+(?: \w+){1,4}) \1\b", re.I), "words repeated back to back"),
    # a word echoed across a short gap: "is due in due course"
    (
        re.compile(r"\b(due|soon|amount|time) (?:in|at|an?|the) (?:\w+ )?\1\b", re.I),
        "a word echoed",
    ),
    (re.compile(r"\b(?:a|an|the) (?:and|or|of|to|,)\b"), "article without its noun"),
    # "an valuation allowance", "a accrued liability" (not "an hour", "an SEC filing", "a unit")
    (re.compile(r"\b[Aa]n (?![Hh]|[A-Z]{2})[b-df-hj-np-tv-z]|\b[Aa] [aeio]\w"), "wrong article"),
    (
        re.compile(r"\b(?:and|or|when|which is|is|was|were|are|to|of|by|than|with|from)\s*[,.;:]"),
        "a clause cut short",
    ),
)


def clean_edit(original: str, modified: str, subtype: str) -> str | None:
    """Why the edit leaves messy text behind (a defect the original did not have), or None."""
    if not original:
        original = ""
    for rx, why in _UNCLEAN:
        if len(rx.findall(modified)) > len(rx.findall(original)):
            # an emptied attribute value is the error itself: "Project name: ;", "(the “”)"
            if subtype == "non_numerical_value_missing" and why == "empty list slot or parentheses":
                continue
            return why
    if modified.count("(") - modified.count(")") != original.count("(") - original.count(")"):
        return "unbalanced parentheses"
    # the sentence must still end: a removal that takes its full stop runs it into the next
    if _SENTENCE_END.search(original) and not _SENTENCE_END.search(modified):
        return "sentence end lost"
    return None


_SENTENCE_END = re.compile(r"[.!?。！？][”\"’')]*\s*$")


# ----------------------------------------------------------------------------- rule 3 per subtype


def _impossible_time(text: str) -> bool:
    for m in EN_DATE.finditer(text):
        day, month, year = int(m.group(2)), MONTHS[m.group(1)], int(m.group(3))
        if not 1 <= day <= calendar.monthrange(year, month)[1]:
            return True
    for m in re.finditer(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b", text):
        mo, d, y = (int(g) for g in m.groups())
        if not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(y, mo)[1]:
            return True
    for m in ZH_DATE.finditer(text):
        y, mo, d = (int(g) for g in m.groups())
        if not 1 <= mo <= 12 or not 1 <= d <= calendar.monthrange(y, mo)[1]:
            return True
    for m in re.finditer(rf"\b({'|'.join(MONTHS)}) (\d{{1,2}})\b(?!,? \d{{4}})(?![\d.,]\d)", text):
        # without a year, February 29 may be right (a leap year)
        if not 1 <= int(m.group(2)) <= calendar.monthrange(2024, MONTHS[m.group(1)])[1]:
            return True
    return bool(re.search(r"\bfifth (?:fiscal )?quarter\b|\bQ[5-9]\b|\bthird half\b", text))


_BAD_FORMATS = (
    re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*,\d{1,2}(?!\d)(?:,\d{3})*(?![\d])"),  # a short group
    re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})*,\d{4,}(?![\d,])"),  # a long group
    re.compile(r"(?<![\d.,])\d{4,}(?:,\d{3})+(?![\d,])"),  # a dropped separator
    re.compile(r"(?<![\d.,])\d{1,3}(?:\.\d{3}){2,}(?![\d])"),  # periods as separators
    re.compile(r"\d\.\d+\.\d"),  # two decimal points
    re.compile(
        rf"\b(?:{'|'.join(MONTHS)}) \d{{1,2}}, (?:\d{{1,3}}|\d{{5,}})\b"
    ),  # year not 4 digits
    re.compile(r"\(\d{3}\) \d{3}-\d{1,3}(?!\d)"),  # phone short of digits
    re.compile(r"\b[A-Z]{2} \d{4}(?!\d)"),  # ZIP with four digits
    re.compile(r"\bwww\.[\w-]+(?![\w.-]*\.(?:com|gov|org|net|cn|edu|io|co)\b)(?![\w-])"),
    re.compile(r"(?:邮\s*编|邮政编码)[：:为]?\s*(?:\d{1,5}|\d{7,})(?!\d)"),
    re.compile(r"(?:电话|联系方式|手机)[：:]?\s*(?:\d{1,6}|\d{3,4}-\d{1,6})(?![\d-])"),
)


_NUMBER_WITH_SEPARATORS = re.compile(r"(?<![\w.,])\d[\d,.]*\d")
_VALID_GROUPING = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")


def _bad_numbers(text: str) -> int:
    """Numbers whose digit grouping or decimal point breaks the standard format."""
    return sum(
        1
        for m in _NUMBER_WITH_SEPARATORS.finditer(text)
        if not _VALID_GROUPING.fullmatch(m.group(0).rstrip(".,"))
    )


def _format_broken(original: str, modified: str) -> bool:
    if _bad_numbers(modified) > _bad_numbers(original):
        return True
    if any(len(rx.findall(modified)) > len(rx.findall(original)) for rx in _BAD_FORMATS):
        return True
    old, new = changed_span(original, modified)
    return "@" in old and "@" not in new  # an e-mail address without its @


_ANNOUNCED_FIGURE = re.compile(
    r"(?:\$ ?|\b(?:of|was|were|to|by|is|are|approximately|totaled|totaling|from|and|at)\s+)(?:million|billion|thousand|%|percent|basis points|square feet|shares|months|years|days|employees)\b"
    r"|(?:^|\s)%|(?:为|达|约|共计|金额|价格为|[：:])\s*(?:万|亿)?元|(?:增长|下降|增加|减少)%"
)


def _direction_conflict(sentence: str) -> bool:
    """A direction word contradicted by the sentence's own from/to figures."""
    up = r"increased|rose|grew|climbed|improved|raised|increase|raise"
    down = r"decreased|fell|declined|dropped|reduced|lowered|decrease|decline|reduce|lower"
    num = r"\$?\d[\d,.]*(?: million| billion| thousand|%)?"

    def rising(m: re.Match) -> bool:
        return bool(re.fullmatch(up, m.group(1)))

    gap = r"(?:[^.;]|(?<=\d)\.(?=\d))"  # a clause, decimals included ("by $(1.5) million")
    for m in re.finditer(
        rf"\b({up}|{down})\b{gap}{{0,60}}?\bto ({num}){gap}{{0,40}}?\bfrom ({num})", sentence
    ):
        new, old = value_of(m.group(2)), value_of(m.group(3))
        if new is not None and old is not None and new != old and (new > old) != rising(m):
            return True
    for m in re.finditer(
        rf"\b({up}|{down})\b{gap}{{0,60}}?\bfrom ({num}){gap}{{0,40}}?\bto ({num})", sentence
    ):
        old, new = value_of(m.group(2)), value_of(m.group(3))
        if new is not None and old is not None and new != old and (new > old) != rising(m):
            return True
    # "were $116.9 million, an increase of $3.4 million from $113.5 million": the result
    # first, then the change and its base (both figures of one kind: money or percent)
    for m in re.finditer(
        rf"({num}),? (?:an? )?({up}|{down})\b(?: of)? {num}{gap}{{0,20}}?\bfrom ({num})",
        sentence,
    ):
        now, base = m.group(1), m.group(3)
        kind = ("$" in now, now.endswith("%"))
        if kind != ("$" in base, base.endswith("%")) or not any(kind):
            continue  # a bare number may be a year ("in 2023, a decrease of 5% from 2022")
        new, old = value_of(now), value_of(base)
        if (
            new is not None
            and old is not None
            and new != old
            and (new > old) != bool(re.fullmatch(up, m.group(2)))
        ):
            return True
    return False


def _anaphora_conflict(original: str, modified: str, document: str) -> bool:
    """The sentence names the change of the sentence before it ("The decrease was due to")
    with the word opposite to the one that sentence states and its figures confirm."""
    from finprobe.benchmarks.fined.inject_fre import _NOUN_DIRECTION, ANAPHORA, stated_direction

    was, now = ANAPHORA.match(original), ANAPHORA.match(modified)
    pos = document.find(original)
    if not (was and now) or pos <= 0:
        return False
    before = re.split(r"(?<=[.!?])\s+", document[:pos].strip())[-1]
    stated = stated_direction(before)
    old_dir = _NOUN_DIRECTION.get(was.group("noun").lower())
    new_dir = _NOUN_DIRECTION.get(now.group("noun").lower())
    return stated is not None and old_dir == stated and new_dir not in (None, stated)


def time_order_broken(sentence: str) -> bool:
    """A comparison whose baseline is not before the period it is compared with, or a range
    that ends before it starts."""
    from finprobe.benchmarks.fined.inject_fre import (
        _PERIOD_ANCHOR,
        LATER_BASE,
        comparison_times,
        date_ranges,
    )

    later = LATER_BASE.search(sentence)
    if later and _PERIOD_ANCHOR.search(sentence[: later.start()]):
        return True  # a reported period compared with one that comes after it
    for (cur, _), (base, _) in comparison_times(sentence):
        if base >= cur:
            return True
    return any(end < start for start, end in date_ranges(sentence))


def _cue_present(table: dict, old: str, modified: str) -> bool:
    for term, (cue, _) in table.items():
        if term.lower() == old.lower().strip():
            return bool(re.search(cue, modified, re.I))
    return False


# a comparison still stated in an English sentence: a change with its size, a rate of change,
# a baseline
_COMPARISON_LEFT = re.compile(
    r"\b(?:increase|decrease|decline|improvement|reduction|growth|rise|drop)s? of \$?\d"
    r"|\b(?:increased|decreased|declined|rose|fell|grew|improved|dropped|was up|was down|up|down)"
    r" (?:by )?(?:approximately |about )?\$?\d"
    r"|\d(?:\.\d+)? ?(?:%|percent|basis points) (?:increase|decrease|decline|rise|drop|growth|higher|lower)"
    r"|\b(?:compared (?:to|with)|versus|relative to)\b"
    r"|\bfrom \$?\d[\d,.]*(?! ?(?:to|through)\b)"
    # a second, coordinated comparison left without its first: "..., and to $246.2 million"
    r"|,? and (?:to|with) (?:approximately |about )?\$?\d"
    r"|同比|环比|较上年|较去年"
)


def inferable(subtype: str, original: str, modified: str, document: str) -> tuple[bool, str]:
    """Rule 3: can a reader who sees the document (not the original) tell the sentence is wrong?

    ``document`` is the text the error will stand in, without the error.
    """
    from finprobe.benchmarks.fined.inject_fke import CITATIONS, TERMS, UNIT_SWAPS_EN, UNIT_SWAPS_ZH
    from finprobe.benchmarks.fined.inject_fre import find_calculation

    old, new = changed_span(original, modified)
    if subtype == "illegal_time":
        return _impossible_time(modified) and not _impossible_time(original), "no impossible date"
    if subtype == "redundant_statement":
        # the added words state again what the sentence or the text before it already says
        added = (
            new.strip(" ,;()")
            .removeprefix("and ")
            .removeprefix("in addition, ")
            .removeprefix("again, ")
        )
        added = re.sub(
            r"^(?:and|in addition|again|as noted),?\s+", "", added.strip(" ,;()."), flags=re.I
        )
        core = added.strip(" ,;().")
        if len(core) < 4:
            return False, "nothing restated"
        here = original.lower().count(core.lower()) >= 1 or core.lower() in document.lower()
        return here, "restated words not found in the text"
    if subtype == "value_format_error":
        return _format_broken(original, modified), "no broken format"
    if subtype == "numerical_missing":
        gone = len(find_numbers(original)) > len(find_numbers(modified))
        return gone and bool(_ANNOUNCED_FIGURE.search(modified)), "no figure slot left empty"
    if subtype == "non_numerical_value_missing":
        empty = re.search(r"[“\"][”\"]|[:：]\s*[;；。,，]|[:：]\s*$|、、", modified)
        return bool(empty) and not re.search(
            r"[“\"][”\"]|[:：]\s*[;；。]", original
        ), "no empty value slot"
    if subtype == "terminology_misuse":
        return _cue_present(TERMS, old, modified) or _term_in(
            TERMS, original, modified
        ), "no cue contradicts the new term"
    if subtype == "incorrect_legal_reference":
        return _term_in(
            CITATIONS, original, modified
        ), "the sentence does not name what the citation governs"
    if subtype == "ambiguous_expression":
        vague = re.search(
            r"\b(?:except|unless|where (?:appropriate|practicable)|as far as possible|generally|reasonable|in due course|at a later date|as soon as practicable|to be determined|appropriate amount|substantial amount|may be asked|as otherwise agreed|may decide|determines otherwise|considers it appropriate|should|expected to|several|a few|a number of|tens of|hundreds of)\b|特殊情况|原则上|视情况|另有约定",
            changed_words(original, modified),
        )
        definite = re.search(
            r"\b(?:shall|must|required|obligated|agreed|within|no later than|up to|not to exceed|at least|minimum|maximum|by [A-Z][a-z]+ \d)\b|应当|必须|不得|须",
            original,
        )
        return bool(vague and definite), "no definite term made vague"
    if subtype == "numerical_unit_error":
        swaps = UNIT_SWAPS_ZH if re.search(r"[\u4e00-\u9fff]", original) else UNIT_SWAPS_EN
        for _, pattern, wrong, subject in swaps:
            was_there = re.search(pattern, original)
            # a unit swapped inside a hyphenated compound ("364-seconds term loan") is no
            # English: a grammar slip, not a unit error
            wrong_unit = any(
                w in modified
                and w not in original
                and not re.search(rf"\d-{re.escape(w)}", modified)
                for w in wrong
            )
            if was_there and wrong_unit and re.search(subject, original, re.I):
                return True, ""
        return False, "the new unit is not one that cannot fit"
    if subtype == "omitted_financial_element":
        gone = old.strip(" ,")
        comparison = re.search(
            r"\b(?:compared|from|increase|decrease|decline|up|down|versus|prior)\b|%|同比|环比|较",
            gone,
        )
        still_reports = bool(find_numbers(modified)) and re.search(
            r"\b(?:increased|decreased|rose|fell|grew|declined|was|were|totaled)\b|增长|下降|价|金额|收入",
            modified,
        )
        if not (comparison and still_reports):
            return False, "the removed words were not a comparison"
        # only a comparative figure counts (a rate of change, a prior-period amount): taking
        # out a bare baseline year ("from 2022") leaves a complete sentence
        figures = [n for n in find_numbers(gone) if n.kind not in NON_FIGURE_KINDS]
        if not figures:
            return False, "no comparative figure removed"
        # the figure must be the comparison's own: "compared to aggregate RPU and the
        # contribution from the acquisition of $6.2 million" removes another item with it
        if re.search(r"\band\b", gone[comparison.end() : figures[0].start]):
            return False, "the removed figure is not the comparison's"
        # and nothing left may still carry the comparison ("increased by $4,277", "up 5%",
        # "compared to", a prior level "from $X"): then the sentence is still complete
        if _COMPARISON_LEFT.search(modified):
            return False, "a comparison remains in the sentence"
        return True, ""
    if subtype == "conflicting_expression":
        if _anaphora_conflict(original, modified, document):
            return True, ""
        return _direction_conflict(modified) and not _direction_conflict(
            original
        ), "words and figures agree"
    if subtype == "time_contradiction":
        return time_order_broken(modified) and not time_order_broken(
            original
        ), "no time order broken"
    if subtype == "calculation_error":
        return find_calculation(original) is not None and find_calculation(
            modified
        ) is None, "no stated relation broken"
    if subtype == "numerical_inconsistency":
        for s, e, text in figure_mentions(original):
            if text not in modified:  # the changed mention
                here = period_at(document, original)
                for other in _document_sentences(document, exclude=original):
                    for s2, e2, _ in figure_mentions(other):
                        # the same period too, where a sentence takes it from its section
                        if same_quantity(original, (s, e), other, (s2, e2)) and here == (
                            period_at(document, other)
                        ):
                            return True, ""
        return False, "no other mention of the same quantity"
    if subtype == "clause_conflict":
        from finprobe.benchmarks.fined.inject_fre import superseded

        others = _document_sentences(document, exclude=original)
        found = conflicting_stipulation(modified, others)
        if found is None:
            return False, "no stipulation it conflicts with"
        # an amended, extended or refinanced term: both values may have held, at different times
        if superseded(found[0].subject, document):
            return False, "the document says these terms were changed"
        return True, ""
    return False, f"no check for {subtype}"


def _term_in(table: dict, original: str, modified: str) -> bool:
    """A listed term of the original replaced by one of its wrong alternatives, with its cue."""
    for term, (cue, wrong) in table.items():
        listed = re.search(re.escape(term), original, re.I) and re.search(cue, modified, re.I)
        if listed and any(
            w.lower() in modified.lower() and w.lower() not in original.lower() for w in wrong
        ):
            return True
    return False


def _document_sentences(document: str, exclude: str = "") -> list[str]:
    return [s for s in _prose_sentences(document) if s != exclude]


@lru_cache(maxsize=4)
def _prose_sentences(document: str) -> tuple[str, ...]:
    """The document's prose sentences (cached: every candidate of a document asks again)."""
    from finprobe.benchmarks.fined.segment import split_sentences

    out = []
    for s in split_sentences(document):
        for line in s.text.split("\n"):
            line = line.strip()
            if line and "|" not in line:
                out.append(line)
    return tuple(out)


# ----------------------------------------------------------------------------- rule 2


def stated_product(sentence: str) -> bool:
    """Three figures of the sentence with a x b = c ("20,000,000 units at $10.00 per unit,
    generating gross proceeds of $200,000,000")."""
    vals = [
        n.number.value
        for n in find_numbers(sentence)
        if n.kind not in NON_FIGURE_KINDS and n.number.value
    ][:8]
    for i, a in enumerate(vals):
        for j, b in enumerate(vals):
            if j <= i:
                continue
            for k, c in enumerate(vals):
                if k in (i, j) or abs(a) == 1 or abs(b) == 1:
                    continue
                if abs(a * b - c) <= abs(c) * Decimal("0.005"):
                    return True
    return False


def second_error(subtype: str, original: str, modified: str, document: str) -> str | None:
    """Why the edit would also bring an error of another kind (review rule 2), or None."""
    from finprobe.benchmarks.fined.inject_fre import find_calculation

    if (
        subtype != "calculation_error"
        and find_calculation(original) is not None
        and find_calculation(modified) is None
    ):
        return "breaks a total the sentence states"
    if subtype != "calculation_error" and stated_product(original) and not stated_product(modified):
        return "breaks a product the sentence states"
    if (
        subtype != "conflicting_expression"
        and _direction_conflict(modified)
        and not _direction_conflict(original)
    ):
        return "figures now contradict the sentence's direction word"
    if subtype == "numerical_unit_error":
        old, _ = changed_span(original, modified)
        for _, _, text in figure_mentions(original):
            if old.strip() and old.strip() in text and document.count(text) > 1:
                return "the figure is stated elsewhere with its right unit"
    if subtype == "calculation_error" and _changed_figure_restated(original, modified, document):
        # the edited operand or result also contradicts the table or paragraph that
        # restates it: a numerical inconsistency besides the broken arithmetic
        return "the changed figure is stated elsewhere in the document"
    return None


def figure_forms(figure: str, value: Decimal, percent: bool) -> set[str]:
    """The ways a table or another paragraph may write the same figure: its digits as
    written, and its value in units, thousands or millions ("$1.5 million" is "1,500" in a
    table in thousands, "1,500,000" in one in dollars)."""
    m = re.search(r"\d[\d,]*(?:\.\d+)?", figure)
    forms = {m.group(0)} if m else set()
    if percent:
        return forms
    for scale in (1, 1000, 1000000):
        x = abs(value) / scale
        if x == x.to_integral_value() and x >= 10:
            forms.add(f"{int(x):,}")
    return forms


def _changed_figure_restated(original: str, modified: str, document: str) -> bool:
    """The figure an edit changed appears again in the document, outside its own sentence,
    in any of its scale forms (digits not part of a longer number, not a % for an amount)."""
    at = next(
        (i for i in range(min(len(original), len(modified))) if original[i] != modified[i]),
        None,
    )
    if at is None:
        return False
    for n in find_numbers(original):
        if not n.start <= at < max(n.end, n.start + 1) or n.kind in NON_FIGURE_KINDS:
            continue
        percent = "percent" in n.number.units
        if not percent and _table_restates(n.number.value, n.number.precision, original, document):
            return True
        for form in figure_forms(n.text, n.number.value, percent):
            unit = r"\s?(?:%|percent)" if percent else r"(?!\s?(?:%|percent))"
            rx = re.compile(r"(?<![\d.,])" + re.escape(form) + r"(?!\d|[.,]\d)" + unit)
            if len(rx.findall(document)) > len(rx.findall(original)):
                return True
    return False


_TABLE_SCALE = re.compile(r"\bin\s+(thousands|millions|billions)\b", re.I)
_SCALE_OF = {"thousands": Decimal(1000), "millions": Decimal(10**6), "billions": Decimal(10**9)}
# words too common in row labels and sentences to tie one to the other
# fmt: off
_LABEL_STOP = frozenset(
    {
        "the", "and", "for", "from", "with", "our", "its", "was", "were", "are", "total", "other",
        "year", "years", "ended", "months", "three", "six", "nine", "twelve", "fiscal", "period",
        "compared", "increase", "decrease", "increased", "decreased", "net",
    }
)# fmt: on



def _label_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z]{3,}", text.lower()) if w not in _LABEL_STOP}


@lru_cache(maxsize=4)
def table_figures(document: str) -> tuple[tuple[str, Decimal, Decimal], ...]:
    """Every amount in the document's markdown tables as (row label, value, precision), with
    the table's scale applied: a cell "70,183" in a table "(In thousands)" is 70,183,000 to
    the nearest 1,000. The scale is read from the table's header rows, else from the text
    just above the table; a table that names none is taken in units."""
    out: list[tuple[str, Decimal, Decimal]] = []
    lines = document.split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].lstrip().startswith("|"):
            i += 1
            continue
        j = i
        while j < len(lines) and lines[j].lstrip().startswith("|"):
            j += 1
        above = "\n".join(lines[max(0, i - 4) : i])[-300:]
        found = _TABLE_SCALE.findall("\n".join(lines[i : min(j, i + 3)])) or (
            _TABLE_SCALE.findall(above)[-1:]
        )
        scale = _SCALE_OF[found[0].lower()] if found else Decimal(1)
        for row in lines[i:j]:
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if not cells or not re.search(r"[A-Za-z]", cells[0]):
                continue
            for cell in cells[1:]:
                for n in find_numbers(cell):
                    if n.kind in NON_FIGURE_KINDS or "percent" in n.number.units:
                        continue
                    own = n.number.scale_word is not None  # "$1.2 million" in a cell
                    k = Decimal(1) if own else scale
                    out.append((cells[0], abs(n.number.value) * k, n.number.precision * k))
        i = j
    return tuple(out)


def _table_restates(value: Decimal, precision: Decimal, sentence: str, document: str) -> bool:
    """A table row about the sentence's subject (its label shares a word with the sentence)
    holds the same amount, each side rounded as written: "$70.2 million" is the cell 70,183
    of a table in thousands, "$1.0 million" the cell 1,035."""
    words = _label_words(sentence)
    v = abs(value)
    if not v:
        return False
    for label, cell, cell_precision in table_figures(document):
        if not cell or not (_label_words(label) & words):
            continue
        if abs(cell - v) <= max(precision, cell_precision) / 2:
            return True
    return False


def review(subtype: str, original: str, modified: str, document: str) -> tuple[bool, str]:
    """All mechanical review rules for one injected error: (keep, reason if dropped)."""
    why = clean_edit(original, modified, subtype)
    if why:
        return False, f"unclean edit: {why}"
    why = second_error(subtype, original, modified, document)
    if why:
        return False, f"second error: {why}"
    ok, why = inferable(subtype, original, modified, document)
    if not ok:
        return False, f"not inferable: {why}"
    return True, ""
