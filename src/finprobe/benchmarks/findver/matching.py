"""Matching a claim's figures to evidence figures: directly, or by a derivation the
claim's wording asks for (change, sum, share, ratio), at the claim's written precision.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from finprobe.benchmarks.findver.figures import YEAR, Figure, written_precision
from finprobe.benchmarks.findver.wording import CHECKED_KINDS, SIZE_ROW, SIZE_WORD
from finprobe.numbers import NumberSpan, find_numbers

__all__ = [
    "ClaimNumber",
    "NumberMatch",
    "claim_numbers",
    "claim_terms_of",
    "label_named",
    "match_number",
    "normalise",
]

_APPROX = re.compile(
    r"\b(?:approximately|about|around|roughly|nearly|almost|some|over|more than|less than|under|at least|up to|exceed\w*)\s*$",
    re.I,
)
# approximations, not bounds: "approximately 49.88%" claims two decimals, "more than
# 49.5%" only a side of 49.5 (bounds keep the flat 2%, their inequality unchecked)
_ROUGHLY = re.compile(r"\b(?:approximately|about|around|roughly|nearly|almost)\s*$", re.I)
_SCALES = (Decimal(1), Decimal(1000), Decimal(1_000_000), Decimal(1_000_000_000))


@dataclass(frozen=True)
class ClaimNumber:
    span: NumberSpan
    tolerance: Decimal  # absolute, on the claim's value
    years: frozenset[str]
    percent: bool
    direction: int = 0  # +1 "increased by", -1 "decreased by", 0 unstated
    sized: bool = False  # "widened", "narrowed": the direction speaks of a size
    # derivations the claim's wording asks for: "change", "sum", "share", "ratio"
    operations: frozenset[str] = frozenset({"change", "sum", "share", "ratio"})
    # "approximately": half the last written digit, before the 2% widening
    exact: Decimal | None = None
    points: bool = False  # "percentage points", "% points": a difference of two rates


_OPERATION_CUES = {
    "change": re.compile(
        r"\b(?:increas|decreas|rose|risen|fell|fallen|grew|grow|declin|chang|differen|higher|"
        r"lower|drop|reduc|gain|rais|exceed|improv|widen|narrow|savings?\b|compared|versus)",
        re.I,
    ),
    "sum": re.compile(
        r"\b(?:total|combined|together|sum|aggregate|cumulative|altogether|plus)", re.I
    ),
    "share": re.compile(
        r"(?:%|\bpercent(?:age)?)\s+of\b|\b(?:share|proportion|portion|accounted|represent|"
        r"margin|as a percentage|rate|ratio|yield)",
        re.I,
    ),
    "ratio": re.compile(r"\b(?:times|ratio|multiple|per\b|coverage|turnover)", re.I),
}


def requested_operations(statement: str, start: int, end: int) -> frozenset[str]:
    """The derivations the wording around a claim number calls for.

    A figure that only a derivation nobody asked for can produce (a sum of two
    unrelated cells, a share of two percentages) is a coincidence, not support.
    """
    window = statement[max(0, start - 200) : end + 60]
    return frozenset(op for op, cue in _OPERATION_CUES.items() if cue.search(window))


_UP = re.compile(
    r"\b(?:increas\w*|rose|risen|grew|grown|growth|higher|up|gain\w*|improv\w*|widen\w*)\b[^.;,]{0,40}$",
    re.I,
)
_DOWN = re.compile(
    r"\b(?:decreas\w*|declin\w*|fell|fallen|drop\w*|lower|down|reduc\w*|narrow\w*)\b[^.;,]{0,40}$",
    re.I,
)


_DIGIT = re.compile(r"\d")
_PERIOD_UNITS = frozenset(
    {"months", "years", "weeks", "days", "quarters", "month", "year", "week", "day"}
)


def _approximate(
    claim: ClaimNumber,
    result: Decimal,
    a: Figure,
    b: Figure,
    quotient: bool,
    scale: Decimal = Decimal(1),
) -> Decimal:
    """The tolerance of an "approximately" claim figure against one derived from a and b:
    the rounding the operands' last digits carry into the result, not a flat 2%
    ("approximately 27.31%" is not the 27.29% that exact cells give; "approximately
    19.47%" may be $7.4 million over $37.8 million, which is 19.58% +- 0.16). A
    quotient's result is a / b (x100 for rates); a sum's or difference's, (a + b) or
    (a - b) times ``scale``, the table scale the claim reads them at. Never wider than the 2%: a "1" in a bullet row would carry any rate."""
    if claim.exact is None:
        return claim.tolerance
    if quotient:
        error = abs(result) * (a.unit / 2 / abs(a.value) + b.unit / 2 / abs(b.value))
    else:
        error = (a.unit + b.unit) / 2 * scale
    return min(claim.tolerance, max(claim.exact, error))


_POINTS = re.compile(r"\s*(?:percentage\s+points?|points|pts|pp)\b", re.I)


_NAMED_CHANGE = re.compile(
    r"\bpercent(?:age)?\s+(increase|decrease|decline|growth|rise|drop|reduction|gain)\b", re.I
)


_PERCENT_WORD = re.compile(r"%|\bpercent\b", re.I)


def claim_numbers(statement: str) -> list[ClaimNumber]:
    out = []
    years = frozenset(YEAR.findall(statement))
    for span in find_numbers(statement):
        if span.kind not in CHECKED_KINDS:
            continue
        value = span.number.value
        if span.kind in ("count", "other") and abs(value) < 10 and not span.number.units:
            continue  # "three segments", "Tier 1": counts and labels, rarely the point
        if (
            span.number.units & _PERIOD_UNITS
            and not span.number.units - _PERIOD_UNITS
            and abs(value) <= 12
        ):
            continue  # "three months ended", "twelve months": the period, not a figure
        half = written_precision(span) / 2
        approx = bool(_APPROX.search(statement[: span.start]))
        roughly = approx and bool(_ROUGHLY.search(statement[: span.start]))
        # exact figures: half the last written digit; "approximately": 2%, but only
        # against evidence as fine as the claim, and a derived figure only within the
        # rounding its operands carry (``_approximate``)
        relative = abs(value) * Decimal("0.02") if approx else Decimal(0)
        before = statement[max(0, span.start - 60) : span.start]
        up, down = bool(_UP.search(before)), bool(_DOWN.search(before))
        direction = 1 if up and not down else -1 if down and not up else 0
        if not direction:
            # "The percentage decrease in total liabilities from 2022 to 2023 is 27.31%":
            # the noun names the change's direction however far the figure
            # the noun names the first percentage after it only: "... was 10.00%, after a
            # 20.00% fall" says nothing of the 20.00%
            head = statement[: span.start].rsplit(". ", 1)[-1]
            named = [m.group(1) for m in _NAMED_CHANGE.finditer(head)]
            last = list(_NAMED_CHANGE.finditer(head))[-1:]
            if last and _PERCENT_WORD.search(head, last[0].end()):
                named = []
            kinds = {w.lower().startswith(("increas", "growth", "rise", "gain")) for w in named}
            if len(kinds) == 1 and "percent" in span.number.units:
                direction = 1 if kinds.pop() else -1
        sized = bool(SIZE_WORD.search(before))
        out.append(
            ClaimNumber(
                span,
                max(half, relative),
                years,
                "percent" in span.number.units,
                direction,
                sized=sized,
                operations=requested_operations(statement, span.start, span.end),
                exact=half if roughly else None,
                points=bool(_POINTS.match(statement, span.end) or _POINTS.search(span.text)),
            )
        )
    return out


def _scales(
    claim: ClaimNumber, figure: Figure, rules: frozenset[str] = frozenset()
) -> Sequence[Decimal]:
    """Table figures may be in thousands, millions or billions; prose writes its scale."""
    if claim.percent or figure.group.startswith("text:"):
        return (Decimal(1),)
    if "stated_scale" in rules and figure.scale is not None:
        return (Decimal(1), figure.scale)
    return _SCALES


def _close(target: Decimal, value: Decimal, tolerance: Decimal) -> bool:
    return abs(abs(target) - abs(value)) <= tolerance


def _years_ok(claim: ClaimNumber, figure_years: frozenset[str]) -> bool:
    return not claim.years or not figure_years or bool(claim.years & figure_years)


def _row_matches(figure: Figure, claim_terms: set[str] | None) -> bool:
    """A table figure counts only if its row label shares a word with the claim."""
    if claim_terms is None or not figure.label:
        return True
    from finprobe.retrieval import analyze

    terms = {t for t in analyze(figure.label, numbers=False)}
    return not terms or bool(terms & claim_terms)


_LABEL_ALTERNATE = re.compile(r"\([^)]*\)")  # "Net income (loss)", "(used in)"
_LABEL_GENERIC = {"total", "net"}  # "Total revenues" is the claim's "revenues"
# the share of a row label's words a claim must use for the row to enter a derivation
# (session 9; a direct cell needs one shared word, as before)
_BOUND_SHARE = 0.5


@functools.lru_cache(maxsize=8192)
def _label_terms(label: str) -> frozenset[str]:
    """A row label's own words: parenthesised alternates and "total" / "net" aside
    (cached: every member of every group is asked about for each claim number)."""
    from finprobe.retrieval import analyze

    return frozenset(analyze(_LABEL_ALTERNATE.sub(" ", label), numbers=False)) - _LABEL_GENERIC


def label_named(label: str, claim_terms: set[str]) -> int:
    """How many words the row label has, when every one of them is in the claim; else 0.

    Parenthesised alternates and "total" / "net" are not words the claim must repeat;
    plurals meet singulars through the analyzer's stemming."""
    terms = _label_terms(label)
    return len(terms) if terms and terms <= claim_terms else 0


# the line items analysts abbreviate: "SG&A expenses" names "Selling, general and
# administrative expenses" (the analyzer keeps "sg&a" as one term)
_ABBREVIATIONS = {
    "sg&a": "selling general administrative",
    "g&a": "general administrative",
    "s&m": "sales marketing",
    "r&d": "research development",
    "pp&e": "property plant equipment",
    "d&a": "depreciation amortization",
    "eps": "earnings per share",
    "cogs": "cost goods sold",
    "capex": "capital expenditures",
}
# a claim's own rise/fall words do not name a row: "Net cash provided by operating
# activities increased" does not name "Net increase (decrease) in cash"
_DIRECTION_TERMS = frozenset(
    {"increas", "decreas", "rise", "rose", "fell", "fall", "grew", "grow", "growth", "declin"}
    | {"drop", "dropp", "reduc", "reduction", "higher", "lower"}
)


def claim_terms_of(statement: str) -> set[str]:
    """The claim's words as the analyzer stems them, abbreviations also spelt out."""
    from finprobe.retrieval import analyze

    terms = set(analyze(statement, numbers=False))
    for short in terms & _ABBREVIATIONS.keys():
        terms |= set(analyze(_ABBREVIATIONS[short], numbers=False))
    return terms


def _label_share(label: str, claim_terms: set[str] | None) -> float:
    """The share of a row label's own words (alternates and "total"/"net" aside) the claim
    uses; the claim's rise/fall words name no row (they still count in the label's words)."""
    if not label or claim_terms is None:
        return 1.0
    terms = _label_terms(label)
    return len(terms & (claim_terms - _DIRECTION_TERMS)) / len(terms) if terms else 1.0


def _grew(claim: ClaimNumber, a: Figure, b: Figure, rose: bool) -> bool | None:
    """Did the row grow from b to a, as the claim's words mean it? None: either reading.

    Rows negative in both periods change in size when they hold costs, losses or
    outflows, or when the claim says "widened" / "narrowed"; other such rows (a net
    change in cash) are said to change both ways, so neither reading is refuted.
    """
    if a.value > 0 or b.value > 0:
        return rose
    if claim.sized or SIZE_ROW.search(a.label):
        return abs(a.value) > abs(b.value)
    return None


@dataclass(frozen=True)
class NumberMatch:
    """What gave a claim number: the figure (None: nothing did) and a note saying how.

    ``rate``: +1 / -1 when a rate of change gave it, in the direction the claim states,
    between two figures whose columns' years say which is the later (an undated pair
    read in the order that agrees with the claim confirms nothing); else 0."""

    figure: Figure | None
    note: str
    rate: int = 0


def match_number(
    claim: ClaimNumber,
    figures: Sequence[Figure],
    claim_terms: set[str] | None = None,
    rules: frozenset[str] = frozenset(),
) -> NumberMatch:
    """The evidence figure (or derivation) that gives the claim number, with a note."""
    # a table cell speaks for the claim (directly or in a derivation) only under a row it names
    figures = [f for f in figures if _row_matches(f, claim_terms)]
    found, other_row = _direct_match(claim, figures, claim_terms, rules)
    if found is None:
        found = _derived_match(claim, figures, claim_terms, rules)
    if found is not None:
        return found
    if other_row:
        return NumberMatch(None, other_row)
    return NumberMatch(
        None, f"no figure or simple derivation in the evidence gives {claim.span.text}"
    )


def _direct_match(
    claim: ClaimNumber,
    figures: Sequence[Figure],
    claim_terms: set[str] | None = None,
    rules: frozenset[str] = frozenset(),
) -> tuple[NumberMatch | None, str]:
    """A single evidence figure that gives the claim number (None: none does), and a note
    when one would but sits under another row than the one the claim names."""
    target = claim.span.number.value
    tol = claim.tolerance
    # the table rows the claim names (every word of the label but "(loss)", "total",
    # "net" is in the claim): in such a table, a cell of a row the claim does not name
    # is another line item. (Preferring the longest named label, "Total current assets"
    # over "Total assets", scored lower on the seed-0 built claims, whose errors were
    # read to write this rule: 86.0 vs 86.4; a design choice, not a held-out figure.)
    named_rows: dict[str, tuple[int, str]] = {}
    if claim_terms is not None:
        for figure in figures:
            size = label_named(figure.label, claim_terms) if figure.label else 0
            if size and figure.passage_id not in named_rows:
                named_rows[figure.passage_id] = (size, figure.label)
    direct: list[tuple[Figure, str]] = []
    other_row = ""
    for figure in figures:
        if figure.percent != claim.percent and claim.percent:
            continue
        size, named = named_rows.get(figure.passage_id, (0, ""))
        if size and figure.label and not label_named(figure.label, claim_terms or set()):
            if any(_close(target, figure.value * k, tol) for k in _scales(claim, figure, rules)):
                other_row = f"{figure.text} is under another row than the claim's '{named}'"
            continue
        if not figure.group.startswith("text:") and not _years_ok(claim, figure.years):
            continue  # a sentence's years often date another event; a column's do not
        for scale in _scales(claim, figure, rules):
            # "approximately" widens a figure only against evidence as fine as the claim:
            # "approximately 49.88%" is not given by a "50%"
            exact = claim.exact
            fine = figure.unit * scale  # one unit of the evidence figure's last digit
            coarser = exact is not None and exact > 0 and fine > 2 * exact
            limit = exact if coarser and exact is not None else tol
            if _close(target, figure.value * scale, limit):
                note = (
                    f"{figure.text} gives {claim.span.text}"
                    if scale == 1
                    else f"{figure.text} (x{scale:,}) gives {claim.span.text}"
                )
                direct.append((figure, note))
                break
    if direct:
        # a change column's sign says which way the row moved: "increased by 176" is
        # contradicted by a change of (176), unless another change column agrees. Rows
        # negative in both periods (costs in parentheses) are said to move either way.
        def against(figure: Figure) -> bool:
            return (
                figure.change
                and figure.signed
                and not figure.negative_row
                and (figure.value > 0) != (claim.direction > 0)
            )

        prose = [(f, n) for f, n in direct if f.group.startswith("text:")]
        changes = [(f, n) for f, n in direct if f.change and claim.direction]
        if changes and not prose and all(against(f) for f, _ in changes):
            figure = changes[0][0]
            return NumberMatch(None, f"{figure.text} is a change the other way"), other_row
        agreeing = [(f, n) for f, n in changes if not against(f)]
        return NumberMatch(*(agreeing or direct)[0]), other_row
    return None, other_row


def _derived_match(
    claim: ClaimNumber,
    figures: Sequence[Figure],
    claim_terms: set[str] | None = None,
    rules: frozenset[str] = frozenset(),
) -> NumberMatch | None:
    """A derivation of two or more figures that gives the claim number; a no-match whose
    note says the figures moved the other way; or None."""
    target = claim.span.number.value
    tol = claim.tolerance
    ops = claim.operations
    groups: dict[str, list[Figure]] = {}
    by_label: dict[str, list[Figure]] = {}
    for figure in figures:
        groups.setdefault(figure.group, []).append(figure)
        if figure.group.startswith("row:") and " = " in figure.text:
            label = normalise(figure.text.split(" = ")[0]).strip(" :")
            by_label.setdefault(f"row-label:{label}", []).append(figure)
    # one row label in two tables (a quarter's table and the year's): a change across them
    for key, members in by_label.items():
        if len({m.passage_id for m in members}) > 1:
            groups[key] = members
    hundred = Decimal(100)
    wrong_way: str | None = None

    def ordered(a: Figure, b: Figure) -> bool | None:
        """Is a the later period than b? None when the years do not tell."""
        if len(a.years) == 1 and len(b.years) == 1 and a.years != b.years:
            return max(a.years) > max(b.years)
        return None

    for key, all_members in groups.items():
        # money is not combined with percentages
        members = (
            [m for m in all_members if m.percent == all_members[0].percent]
            if not claim.percent
            else all_members
        )
        # a zero, or a figure within the rounding tolerance, adds nothing to a derivation
        members = [m for m in members if m.value != 0 and _DIGIT.search(m.text)]
        # a derived figure is the claim's only when its operands are the claim's line
        # items: a row label the claim names by at least half its own words ("Net cash
        # used in investing activities" is not "Net increase in cash and cash equivalents",
        # which shares only "cash"). A single cell is read under the looser one-word test.
        members = [m for m in members if _label_share(m.label, claim_terms) >= _BOUND_SHARE]
        if "like_with_like" in rules:  # a period's length is context, not an operand
            members = [m for m in members if not m.units & _PERIOD_UNITS]
        if len(members) < 2 or len(members) > 40:
            continue
        by_period = not key.startswith("col:")  # changes: across a row's periods or in prose
        for a, b in itertools.permutations(members, 2):
            if "like_with_like" in rules and a.units != b.units:
                continue  # "1,580 units plus 150 locations"
            if claim.percent:
                if a.percent and b.percent:
                    points = a.value - b.value
                    ptol = _approximate(claim, points, a, b, quotient=False)
                    if by_period and "change" in ops and _close(target, points, ptol):
                        return NumberMatch(
                            a, f"{a.text} minus {b.text} is {points:.2f} percentage points"
                        )
                    continue
                if a.percent or b.percent or claim.points:
                    continue  # "2.6 percentage points" is a difference of two rates
                if b.value != 0:
                    change = (a.value - b.value) / abs(b.value) * hundred
                    ctol = _approximate(claim, a.value / b.value * hundred, a, b, quotient=True)
                    if by_period and "change" in ops and _close(target, change, ctol):
                        later = ordered(a, b)
                        if claim.direction and later is False:
                            continue  # the same pair read the other way round
                        # a rate of change is not symmetric: "up 18.98%" cannot be the pair
                        # that fell by 18.98%, even when the columns' years are unknown.
                        grew = _grew(claim, a, b, change > 0)
                        if claim.direction and grew is not None and grew != (claim.direction > 0):
                            wrong_way = f"the change from {b.text} to {a.text} is {change:.2f}%, the other direction"
                            continue
                        # the claim's direction, confirmed only by a dated pair
                        confirmed = (
                            bool(claim.direction)
                            and later is True
                            and grew == (claim.direction > 0)
                        )
                        return NumberMatch(
                            a,
                            f"the change from {b.text} to {a.text} is {change:.2f}%",
                            claim.direction if confirmed else 0,
                        )
                    share = a.value / b.value * hundred
                    if "share" in ops and _close(
                        target, share, _approximate(claim, share, a, b, quotient=True)
                    ):
                        return NumberMatch(a, f"{a.text} is {share:.2f}% of {b.text}")
                continue
            for scale in _scales(claim, a, rules):
                if min(abs(a.value), abs(b.value)) * scale <= tol:
                    continue
                diff = (a.value - b.value) * scale
                stol = _approximate(claim, diff, a, b, quotient=False, scale=scale)
                if by_period and "change" in ops and _close(target, diff, stol):
                    later = ordered(a, b)
                    if claim.direction and later is False:
                        continue
                    grew = _grew(claim, a, b, diff > 0)
                    if (
                        claim.direction
                        and later
                        and grew is not None
                        and grew != (claim.direction > 0)
                    ):
                        wrong_way = f"{a.text} minus {b.text} is {diff:,}, the other direction"
                        continue
                    return NumberMatch(a, f"{a.text} minus {b.text} is {diff:,}")
                total = (a.value + b.value) * scale
                if "sum" in ops and not key.startswith("row:") and _close(target, total, stol):
                    return NumberMatch(a, f"{a.text} plus {b.text} is {total:,}")
            if "ratio" in ops and b.value != 0 and not claim.span.number.units - {"multiple"}:
                ratio = a.value / b.value
                if _close(target, ratio, _approximate(claim, ratio, a, b, quotient=True)):
                    return NumberMatch(a, f"{a.text} divided by {b.text} is {ratio:.2f}")
        # sums of a whole column or row segment
        if (
            "sum" in ops
            and not claim.percent
            and not key.startswith("row:")
            and 3 <= len(members) <= 12
        ):
            values = [m.value for m in members]
            for start in range(len(values)):
                running = Decimal(0)
                for end in range(start, len(values)):
                    running += values[end]
                    if end - start >= 2:
                        for scale in _SCALES:
                            if _close(target, running * scale, tol):
                                return NumberMatch(
                                    members[start],
                                    f"the sum of {end - start + 1} figures from {members[start].text} is {running * scale:,}",
                                )
    return NumberMatch(None, wrong_way) if wrong_way else None


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\u2019", "'")).lower()
