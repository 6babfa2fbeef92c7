"""What a sentence says about its blank, as the derivation finder reads it.

The blank's role and period, the words that name its metric (its own clause, or its
item in a list of figures), the other period's figures it is paired with, the change
amount written beside a percentage, and whether a unit-written figure is exact. The
finder (``derivation.py``) checks table cells against these; they hold no table logic.
"""

from __future__ import annotations

import re

from finprobe.benchmarks.faith.sentence import (
    _INCREASE,
    _YEAR,
    _respectively_slot,
    _target_year,
    _tokens,
    acronym_words,
    mask_role,
)
from finprobe.numbers import NumberSpan, ParsedNumber, find_numbers

_REASON_CUE = re.compile(
    r"\b(?:reflecting|due to|driven by|as a result of|led by|attributable to|resulting from|"
    r"because of)\b",
    re.I,
)


_LIST_GAP = re.compile(r"(?:[\s,;()]|\b(?:in|for|and|or|fiscal|year|(?:19|20)\d{2})\b)*", re.I)


def own_words(sentence: str, mask: tuple[int, int]) -> set[str]:
    """The words that can name the blank's metric: the sentence up to the next figure after
    the blank, whose own words follow it ("the reserve totaled [MASK] and $141,000 in accrued
    interest was reversed"). A figure in parentheses right after the blank ("[MASK] (41%)
    increase in ...") or a list of figures by year ("[MASK] in 2023, $51 million in 2022 and
    $47 million in 2021, in expenses ...") shares the blank's words; so does a
    "respectively" list: then the whole sentence counts."""
    cut = len(sentence)
    if "respectively" not in sentence[mask[1] :]:
        previous = mask[1]
        for span in find_numbers(sentence[mask[1] :]):
            number = span.number  # an amount or a rate, not a date's day ("December 31")
            if number is None or not (number.units or number.scale_word):
                continue
            start, end = mask[1] + span.start, mask[1] + span.end
            gap = sentence[previous:start]
            opened = gap.strip() == "(" or not gap.strip() and span.text.startswith("(")
            listed = _LIST_GAP.fullmatch(gap) and (opened or _YEAR.search(gap))
            if not listed:
                cut = start
                break
            previous = end
    start = 0
    # a blank in a reason clause after the main clause's own figure is the cause's figure:
    # "revenues decreased $12.3 million ... primarily due to a [MASK] decline in access lines"
    cues = [m for m in _REASON_CUE.finditer(sentence, 0, mask[0])]
    if cues and any(
        n.number is not None and (n.number.units or n.number.scale_word)
        for n in find_numbers(sentence[: cues[-1].start()])
    ):
        start = cues[-1].start()
    text = sentence[start:cut]
    return set(_tokens(text)) | acronym_words(text)


# Words that place, link or qualify a list item without naming its line.
_ITEM_NOISE = frozenset(
    _tokens(
        "increase increased increases decrease decreased decreases higher lower change changes "
        "primarily mainly largely partially partly offset offsetting due reflecting reflected "
        "reflective driven result resulting resulted attributable approximately about nearly "
        "respectively total totaling totaled year years period periods quarter fiscal month "
        "months twelve three six nine ended ending january february march april may june july "
        "august september october november december comparable "
        "same prior including included which this that these those was were is are be been "
        "million billion thousand percent other additional net also representing represented "
        "improvement reduction growth decline rise favorable unfavorable recorded recognized "
        "principally first second third fourth"
    )
)


# Nouns that say which way a figure goes but not what it is: "a gain of [MASK] for the
# PPP loan forgiveness" is named by the words after the blank.
_ITEM_GENERIC = frozenset(
    _tokens(
        "gain gains loss losses income expense expenses charge credit benefit cost costs "
        "amount impact effect item items earnings"
    )
)


# a comparison restates one metric for another period: "$27.2 million in 2023, compared
# to pretax income of [MASK] in 2022", "down from net income of [MASK]" is no list of
# drivers; "higher costs related to program launches of [MASK]" is one
_ITEM_COMPARED = re.compile(
    r"\b(?:compared|versus|vs\.?)\b"
    r"|\b(?:up|down|increased?|decreased?|rose|fell|declined?|grew|improved)\s+(?:from|to)\b"
    r"|\b(?:from|to)\s*(?:approximately\s+|about\s+)?$",
    re.I,
)


# the words after the blank are its item's when they start a noun phrase ("reflecting
# [MASK] cash paid for ..."), not a period, place or clause ("[MASK] in 2022", "[MASK], or")
_ITEM_AFTER_STOP = re.compile(
    r"(?:in|for|to|from|during|over|at|as|on|of|compared|versus|vs|and|or|respectively|which|"
    r"when|while|primarily|mainly|largely|partially|principally|due|driven|reflecting|is|was|"
    r"were|are|"
    r"has|had|have|per|each|a|an|the|this|that|year|years|million|billion|thousand|percent)\b",
    re.I,
)


_ITEM_AFTER_LINK = re.compile(r"(?:in|for|from|on|related to|associated with)\s+(?!\d)", re.I)


_MARGIN, _PROFIT = _tokens("margin profit")


_APPROXIMATE_BEFORE = re.compile(
    r"\b(?:approximately|about|nearly|roughly|almost|around|over|under|some|more than|"
    r"less than|up to|in excess of)\s*\$?\s*$",
    re.I,
)


def _figures_before(sentence: str, end: int) -> list[NumberSpan]:
    """The amounts and rates written before ``end`` (not years, dates or bare counts)."""
    return [
        span
        for span in find_numbers(sentence[:end])
        if span.number is not None
        and (span.number.units or span.number.scale_word)
        and not _YEAR.fullmatch(span.text.strip())
    ]


def item_words(sentence: str, mask: tuple[int, int]) -> set[str] | None:
    """The words of the list item the blank belongs to, or None when it is no list item.

    A blank is a list item when a figure precedes it with a separator between and no
    comparison ("of $34, higher program launch costs of [MASK]", "$0.1 million, reflecting
    [MASK] cash paid for ..."); its words are the noun phrase ending in "of" right before
    it and the noun phrase starting right after it. A gap that names nothing ("$5.0
    million, an increase of [MASK]", "$13 in 2023 and [MASK] in 2022") is no item: the
    blank shares its figure's line.
    """
    figures = _figures_before(sentence, mask[0])
    if not figures:
        return None
    gap = sentence[figures[-1].end : mask[0]]
    if not re.search(r"[,;\u2022]|\band\b", gap):
        return None
    last = re.split(r"[,;:\u2022]", gap)[-1]
    if _ITEM_COMPARED.search(last):
        return None
    words: set[str] = set()
    of_before = bool(re.search(r"\bof\s*$", _APPROXIMATE_BEFORE.sub("", last), re.I))
    if of_before:
        words |= set(_tokens(last)) - _ITEM_NOISE
    after = sentence[mask[1] :].lstrip()
    # "increases of [MASK] in loan interest income", "a non-cash charge of [MASK] from the
    # impairment of goodwill": after "of", a phrase the blank leads on names the item too
    if after[:1].isalpha() and (
        not _ITEM_AFTER_STOP.match(after) or of_before and _ITEM_AFTER_LINK.match(after)
    ):
        phrase = re.split(r"[,;:.(\u2022]|\$|\d", after, maxsplit=1)[0]
        words |= set(_tokens(phrase)) - _ITEM_NOISE
    words = {w for w in words if not w.isdigit()}
    if words <= _ITEM_GENERIC:
        return None  # "a loss of $9 in 2023 and earnings of [MASK] in 2022": no other line
    if _MARGIN in words:
        words.add(_PROFIT)  # "a gross margin of [MASK]" divides the gross profit
    return with_synonyms(words | acronym_words(last))


def written_exact(number: ParsedNumber, sentence: str, mask: tuple[int, int]) -> bool:
    """A money figure written to the unit with thousands separators and no scale word
    ("$20,000") is exact when the sentence writes its other such figures to the unit
    ("$21,688", "$8,412"): its trailing zeros are then digits, not rounding. A sentence
    of round figures ("approximately $1,758,000 ... compared to $1,093,000") rounds."""
    if (
        number.scale_word is not None
        or number.units - {"usd"}
        or "," not in number.text
        or "." in number.text
        or number.precision <= 1
        or _APPROXIMATE_BEFORE.search(sentence[: mask[0]])
    ):
        return False
    return any(
        span.number is not None
        and span.number.scale_word is None
        and span.number.units == number.units
        and "," in span.text
        and span.number.precision <= 1
        for span in find_numbers(sentence)
        if span.end <= mask[0] or span.start >= mask[1]
    )


def blank_period(sentence: str, mask: tuple[int, int] | None) -> tuple[str, str | None, set[str]]:
    """The blank's role, its own period, and the years named outside a following comparison."""
    years = set(_YEAR.findall(sentence))
    if mask is None:
        return "level", None, set()
    before, after = sentence[: mask[0]], sentence[mask[1] :]
    role = mask_role(before, after)
    if role == "level" and _CHANGE_NOUN_OF.search(before):
        role = "change"  # "an increase of interest income of approximately [MASK]"
    # The period of the blank's own clause ("[MASK] for 2022");
    # "in 2023 and 2022 were [MASK] and $14.72 billion, respectively": the blank's slot
    period = _respectively_slot(before, after, _YEAR.findall(sentence))
    if period is None:
        period = _target_year(before, after, role)
    if role == "change" and period is not None:
        # "$3.0 million for 2023 compared to $0.8 million for 2022, an increase of [MASK]":
        # a change that trails the comparison's older figure runs to the newest year named
        opened = list(re.finditer(r"compared (?:with|to)|versus|\bvs\.?", before, re.I))
        named = _YEAR.findall(before[: opened[-1].start()]) if opened else []
        if named and max(named) > period:
            period = max(named)
    comparison = re.search(r"compared (?:with|to)|as compared|versus|\bvs\.?", after, re.I)
    own_years = set(_YEAR.findall(before + (after[: comparison.start()] if comparison else after)))
    if period is None and len(years) > 1:
        # "increased ... to [MASK]" is the later level, "from [MASK]" the earlier one
        if role == "older" or re.search(r"\bfrom\s+(?:approximately\s+|about\s+)?$", before):
            period = min(years)
        elif re.search(r"\bto\s+(?:approximately\s+|about\s+)?$", before) and _INCREASE.search(
            before
        ):
            period = max(years)
    return role, period, own_years


_COMPARED = re.compile(r"\b(?:as )?compared (?:with|to)\b|\bversus\b|\bvs\.?(?=\s)", re.I)


# "an increase of $4 million ([MASK])", "increased $446 million, or [MASK]": the change's
# amount, written just before its percentage
_CHANGE_AMOUNT_BEFORE = re.compile(
    r"(\$\s?[\d.,]+(?:\s*(?:million|billion|thousand))?)\s*(?:,\s*or|\()\s*"
    r"(?:approximately\s+|about\s+)?$",
    re.I,
)


def change_amount(sentence: str, mask: tuple[int, int]) -> ParsedNumber | None:
    """The money amount a percentage blank is the change of, if the sentence writes it."""
    match = _CHANGE_AMOUNT_BEFORE.search(sentence[: mask[0]])
    if not match:
        return None
    found = find_numbers(match.group(1))
    return found[0].number if len(found) == 1 and found[0].kind == "money" else None


def companion_figures(
    sentence: str, mask: tuple[int, int], period: str | None, units: frozenset[str]
) -> list[tuple[str | None, list[ParsedNumber]]]:
    """The other period's figures the sentence pairs with the blank, with their period.

    "[MASK] for 2023 compared to $12.3 million for 2022", "[MASK] and $4.1 million,
    respectively": the nearest level figure of the same kind (percent or amount) in
    the blank's own "respectively" group whose period is known and differs from the
    blank's. A lookup's row must give that figure too in that period's column.
    When the blank's period is unknown but it stands on one side of "compared to"
    ("losses were $5 million ... compared to losses of [MASK]"), the same-kind level
    figures of the other side are its companions, period unplaced (``None``): the row
    must give one of them in another period.
    """
    for span in find_numbers(sentence):  # the blank as the sentence writes it ("per share")
        if span.start <= mask[0] < span.end and span.number is not None:
            units = span.number.units
            break
    if period is None:
        return _compared_side(sentence, mask, units)
    # the blank's group: between the "respectively" before it and the one after it
    lo = sentence.rfind("respectively", 0, mask[0])
    lo = 0 if lo < 0 else lo + len("respectively")
    hi = sentence.find("respectively", mask[1])
    hi = len(sentence) if hi < 0 else hi
    best: tuple[int, str, ParsedNumber] | None = None
    for span in _level_figures(sentence, lo, hi, mask, units):
        role, other, _ = blank_period(sentence, (span.start, span.end))
        if role == "change" or other is None or other == period:
            continue
        distance = span.start - mask[1] if span.start >= mask[1] else mask[0] - span.end
        if best is None or distance < best[0]:
            best = (distance, other, span.number)
    return [(best[1], [best[2]])] if best else []


def _level_figures(
    sentence: str, lo: int, hi: int, mask: tuple[int, int], units: frozenset[str]
) -> list[NumberSpan]:
    """Figures of the blank's kind between lo and hi, other than the blank and years."""
    out = []
    for span in find_numbers(sentence):
        if span.start < lo or span.end > hi or span.start < mask[1] and span.end > mask[0]:
            continue
        number = span.number
        if number is None or _YEAR.fullmatch(span.text.strip()) or not number.as_fraction():
            continue
        if number.units != units or number.scale_word is None and not number.units:
            continue  # "$3.0 million" pairs with "$0.8 million", not "twelve months" or a date
        out.append(span)
    return out


def _compared_side(
    sentence: str, mask: tuple[int, int], units: frozenset[str]
) -> list[tuple[str | None, list[ParsedNumber]]]:
    """The level figures across the one "compared to" that the blank stands beside."""
    marks = list(_COMPARED.finditer(sentence))
    if len(marks) != 1:
        return []
    mark = marks[0]
    if mask[0] >= mark.end():
        lo, hi = 0, mark.start()
        between = (mark.end(), mask[0])
    elif mask[1] <= mark.start():
        lo, hi = mark.end(), len(sentence)
        between = (mask[1], mark.start())
    else:
        return []
    if _level_figures(sentence, *between, mask, units) or re.search(
        r"[;.]\s", sentence[slice(*between)]
    ):
        return []  # the comparison is another figure's, or another clause's
    others = []
    for span in _level_figures(sentence, lo, hi, mask, units):
        role, _, _ = blank_period(sentence, (span.start, span.end))
        if role != "change" and span.number is not None:
            others.append(span.number)
    return [(None, others)] if others else []


# the same qualifier in other words: "cash used in operations" is operating activities
_SYNONYMS = {_tokens("operations")[0]: _tokens("operating")[0]}


def with_synonyms(words: set[str]) -> set[str]:
    return words | {_SYNONYMS[w] for w in words if w in _SYNONYMS}


_CHANGE_NOUN_OF = re.compile(
    r"\b(?:increase|decrease|growth|decline|reduction|rise)s?\s+(?:in|of)\s+"
    r"(?:[a-z][\w'-]*\s+){1,10}of\s*(?:approximately\s+|about\s+)?"
    r"(?:\$?\s?[\d.,]+\s*(?:%|percent|million|billion|thousand)?,?\s+or\s*)?"
    # "... of $2.9 million and [MASK], respectively": a later item of the same list
    r"(?:\$?\s?[\d.,]+\s*(?:million|billion|thousand)?,?\s+(?:and\s+)?)?$",
    re.I,
)
