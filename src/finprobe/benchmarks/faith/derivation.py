"""The FAITH derivation finder: how a span's number follows from the report's tables.

A derivation is evidence, not arithmetic coincidence: the cells must round to the
span at the span's own precision, their row labels must name the span's metric, their
columns the blank's period, and the formula must fit the blank's role ("increased
[MASK]" is a change). Formulas stay within the paper's scenario templates (A lookup,
B one metric across periods, C two metrics, D a change of a ratio); the simplest
derivation that fits best is kept, with the reason.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from finprobe.benchmarks.faith.blank import (
    blank_period,
    change_amount,
    companion_figures,
    item_words,
    own_words,
    with_synonyms,
    written_exact,
)
from finprobe.benchmarks.faith.cells import Cell, per_share_cell, same_period_length
from finprobe.benchmarks.faith.derivation_index import (
    DerivationIndex,
    rounds_or_truncates,
    supports,
)
from finprobe.benchmarks.faith.evidence import (
    AVERAGES,
    GENERIC_WORDS,
    MIN_LABEL_COVERAGE,
    MIN_LOOKUP_COVERAGE,
    QUALIFIERS,
    TWO_METRIC_KINDS,
    amount_agrees,
    are_ends,
    average_column,
    distinct_rows,
    fits_named_ratio,
    implied_base,
    metric_tokens,
    naming,
    says_part,
    says_ratio,
    stated_ends,
    states_numerator,
    subset_qualifiers,
    tax_rate_numerator,
)
from finprobe.benchmarks.faith.sentence import (
    _YEAR,
    _initials,
    _tokens,
    acronym_words,
    period_months,
    stated_direction,
)
from finprobe.document import (
    Table,
)
from finprobe.numbers import (
    NumberSpan,
    ParsedNumber,
    find_numbers,
    parse_number,
)

SCENARIO_ORDER = ("A", "B", "C", "D")
_HUNDRED = Decimal(100)


# --------------------------------------------------------------------------
# derivation finder


@dataclass
class Derivation:
    """How a span's number follows from the tables."""

    kind: str  # lookup | change | pct_change | pp_change | ratio | share | sum | ratio_change
    scenario: str  # A lookup, B one metric, C two metrics, D two steps
    formula: str
    cells: list[dict[str, Any]]  # table_index, row, col, row_label, column_label, text
    value: Decimal  # exact; percent kinds in percent points, amounts in base units
    percent: bool
    text: str  # the value written out, e.g. "$817,880,000" or "62.194332%"
    score: float = 0.0
    reason: str = ""  # why this candidate and not another

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "scenario": self.scenario,
            "formula": self.formula,
            "value": self.text,
            "cells": self.cells,
            "score": self.score,
            "reason": self.reason,
        }


# Computed candidates (B-D) need this much label and period fit. Measured on the
# pilot with another report's tables: without it 19% of spans "derive" by
# coincidence (mostly shares of loosely named rows), with 0.4 5%; agreement
# with the unanimous labels drops only from 0.91 to 0.87.
MIN_COMPUTED_SCORE = 0.4
_SCENARIO_PRIOR = {"A": 0.0, "B": -0.5, "C": -0.8, "D": -1.1}

# the coarsest rounding a written percentage is read with (5 points)
_ROUND_PERCENT = Decimal("0.05")


def _significant_digits(number: ParsedNumber) -> int:
    value, precision = abs(number.as_fraction()), number.fraction_precision()
    if not value or not precision:
        return 0
    return max(0, int((value / precision).adjusted()) + 1)


def _format_amount(value: Decimal, money: bool) -> str:
    value = abs(value)
    if value == value.to_integral_value():
        text = f"{int(value):,}"
    else:
        text = f"{value.quantize(Decimal('0.0001'), rounding=ROUND_HALF_UP):,f}".rstrip("0").rstrip(
            "."
        )
    return f"${text}" if money else text


def _format_percent(fraction: Decimal) -> str:
    points = (abs(fraction) * _HUNDRED).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)
    text = f"{points:f}".rstrip("0").rstrip(".")
    return f"{text}%"


def _as_parsed(span: str | NumberSpan | ParsedNumber) -> tuple[str, ParsedNumber | None]:
    if isinstance(span, NumberSpan):
        return span.text, span.number
    if isinstance(span, ParsedNumber):
        return span.text, span
    return span, parse_number(span)


_BARE_YEAR = re.compile(r"(?:fy\s*|fiscal\s+)?(?:19|20)\d\d")


_COMPARED_YEARS = re.compile(
    r"\b((?:19|20)\d{2})\s*,?\s*(?:as\s+)?(?:compared\s+(?:to|with)|versus|vs\.?)\s+"
    r"(?:fiscal\s+(?:year\s+)?)?((?:19|20)\d{2})\b",
    re.I,
)


def find_derivation(
    span_number: str | NumberSpan | ParsedNumber,
    tables: Sequence[Table] | DerivationIndex,
    sentence_context: str,
    *,
    neighbours: str = "",
    mask: tuple[int, int] | None = None,
    min_score: float = MIN_COMPUTED_SCORE,
    twins: bool = True,
    items: bool = True,
    annual: bool | None = None,
) -> Derivation | None:
    """The most plausible way the tables give this span, or None.

    Candidates, in preference order A < B < C < D: a lookup of a scaled cell; a
    change, percentage change or percentage-point change of one row between two
    period columns; a ratio, share or sum of two cells of one column; a change
    of a ratio between two periods. A candidate matches when the span and the
    candidate's exact value agree under the precision-relaxed rule (percent
    spans against percent candidates, amounts against amounts). Among matches,
    the one whose row labels and periods fit the sentence best wins, with a
    prior for simpler scenarios. Computed candidates need a row label that the
    sentence (or its neighbours) names: coincidences are otherwise common. A cell is
    one figure's: when another figure of the sentence writes the same value and finds
    the same cells, the figure whose own words name the row better keeps them
    (``twins=False`` skips that check; ``items=False`` the list-item check).
    ``annual``: the sentence's report is a 10-K (default: as the index says); the
    swapped-tables negative searches one report's sentence in another's tables.
    """
    text, number = _as_parsed(span_number)
    if number is None:
        return None
    index = tables if isinstance(tables, DerivationIndex) else DerivationIndex(tables)
    percent = bool(number.units & {"percent", "bps"})
    pool = "pct" if percent else "amount"
    ref = abs(number.as_fraction())
    ref_p = number.fraction_precision()
    if ref == 0:
        return None  # "$0" and "nil" match every dash in the tables
    context = set(_tokens(sentence_context))
    # a column of averages answers only text that speaks of averages ("On a year-to-date
    # average basis, ..." may be the sentence before)
    speaks_of_averages = bool(AVERAGES.search(sentence_context) or AVERAGES.search(neighbours))
    near = set(_tokens(neighbours))
    # a span of one or two significant digits ("$0.6 million") equals many cells by chance
    digits = _significant_digits(number)
    years = set(_YEAR.findall(sentence_context))
    if mask is None and isinstance(span_number, NumberSpan):
        mask = (span_number.start, span_number.end)
    if mask is None and text in sentence_context:
        at = sentence_context.index(text)
        mask = (at, at + len(text))
    role, period, own_years = blank_period(sentence_context, mask)
    part = subset_qualifiers(sentence_context[: mask[0]]) if mask else set()
    # "a [MASK] increase in homes delivered": the way the sentence says the change goes
    direction = (
        stated_direction(sentence_context[: mask[0]], sentence_context[mask[1] :]) if mask else None
    )
    companions = companion_figures(sentence_context, mask, period, number.units) if mask else []
    amount = change_amount(sentence_context, mask) if mask and "percent" in number.units else None
    acronyms = acronym_words(sentence_context)
    context_metric = with_synonyms(context | acronyms)
    own_metric = with_synonyms(own_words(sentence_context, mask)) if mask else context_metric
    # one item of a list of figures names its own line: "... of $34, higher program launch
    # costs of [MASK], ..." is not the bridge's "Performance" row the sentence heads
    item = item_words(sentence_context, mask) if mask else None
    if mask and written_exact(number, sentence_context, mask):
        # "$20,000" is exact, not 2E4 +- 5E3 (the sentence writes "$21,688" and "$8,412" too)
        # (its significant digits stay as written: a round figure is still coincidence-prone)
        ref_p = Decimal(1)
    if "percent" in number.units and ref_p > _ROUND_PERCENT:
        # "20%" is prose for 17.5-22.5%, not for anything that rounds to it at the tens (16%),
        # and "100%" is not 54%: a round percentage admits at most 5 points of rounding
        ref_p = _ROUND_PERCENT
    # "$45 million in 2023 compared to $33 million in 2022, an increase of [MASK]": two
    # money levels of the blank's own part whose change is the span are the change's ends
    # (read with the span's precision as tightened above: "20%" is not 15-25%)
    levels, ends = stated_ends(sentence_context, mask, ref, ref_p, percent) if mask else ([], [])
    # the adding word is the blank's own ("X and Y together were [MASK]"), not a metric's
    # name elsewhere in the sentence ("0.6 points on the combined ratio")
    sum_cue = bool(mask) and any(
        m.start() < mask[1] + _SUM_CUE_AFTER and m.end() > mask[0] - _SUM_CUE_BEFORE
        for m in _SUM_CUE.finditer(sentence_context)
        if not re.match(r"\s+ratio", sentence_context[m.end() :])
    )

    def label_sets(cell: Cell) -> list[set[str]]:
        """The words naming a cell's metric: its row label, and the label with its heading."""
        label = cell.table.row_label(cell.row).strip()
        row = metric_tokens(cell) - GENERIC_WORDS
        if _BARE_YEAR.fullmatch(label.lower()):
            # a transposed table: the row is a year, the metric is the column's
            row = set(_tokens(cell.col_text)) - GENERIC_WORDS - {label.lower()}
        if not label:
            row = row | set(_tokens(cell.table.pre_text))  # an unlabelled one-row table
        initials = _initials(label).lower()
        if len(initials) >= 2 and initials in acronyms:
            row = row | {initials}  # "R&D" names "Research and development"
        return [row, row | (cell.heading_tokens - GENERIC_WORDS)]

    def _unnamed_qualifiers(cell: Cell, words: set[str]) -> set[str]:
        """Qualifier words of the row label that the text does not name."""
        return (cell.row_tokens & QUALIFIERS) - with_synonyms(words)

    def coverage(cell: Cell, words: set[str]) -> float:
        """Share of the label's words the text names (the better of row, row + heading).

        The row label itself must share a word: a heading alone ("Consolidated
        material cash requirements") names no row."""
        sets = label_sets(cell)
        if not sets[0] & words:
            return 0.0
        return max((len(t & words) / len(t) for t in sets if t), default=0.0)

    said_months = period_months(sentence_context) or period_months(neighbours)
    # a 10-K's sentence that names no period length ("losses of $162 million in 2023")
    # speaks of a year: a quarter's or nine months' column is not its figure
    speaks_of_a_year = (index.annual if annual is None else annual) and said_months is None
    # the two years the sentence compares, written as such ("in 2022 compared to 2021")
    compared = _COMPARED_YEARS.search(sentence_context)
    compared_pair = set(compared.group(1, 2)) if compared else set()
    per_share = bool(
        re.search(
            re.escape(text) + r"\s+per\s+(?:diluted\s+|basic\s+|common\s+)?share",
            sentence_context,
        )
        or "per_share" in number.units
    )

    def evidence(ids: tuple[int, ...], kind: str) -> bool:
        """The cells carry the span's metric and period, and the formula fits the blank's role."""
        cells = [index.cells[k] for k in ids]
        # an unlabelled row under a share's items is the column's total: its numerator names it
        total_base = kind == "share" and not cells[1].table.row_label(cells[1].row).strip()
        rows = {(c.table_index, c.row): c for c in (cells[:1] if total_base else cells)}.values()
        # metric: most of every row's label words are in the sentence (or, for a second
        # row, its neighbours), and one row is named by the sentence itself
        # computed values and one-digit spans match many cells by chance: most of each
        # label must be named; a lookup of a longer span needs one label word
        computed = kind not in ("lookup", "raw_lookup")
        # a share or ratio's base is the whole ("the segment's 54% of total net sales")
        said = cells[:1] if kind in ("share", "ratio") else cells
        if part and not all(says_part(c, part) for c in said):
            return False  # "our wholesale segment gross margin" is no consolidated margin
        if not speaks_of_averages and any(average_column(c) for c in cells):
            return False  # "at March 31, 2024 ... made up [MASK]" is no quarter's average balance
        if "multiple" in number.units and any("$" in c.text for c in cells):
            return False  # a covenant's "3.0x" is no "$3" of disposal proceeds
        if computed and any(not c.col_text.strip() for c in cells):
            # a header-less column has no period to check: two rows of it divide into a
            # share by chance (Bank of America's "51 percent" from 124 / 243)
            return False
        need = MIN_LABEL_COVERAGE if computed or digits < 2 else MIN_LOOKUP_COVERAGE
        if any(_unnamed_qualifiers(c, context_metric) for c in rows):
            return False  # "Interest expense" is not "rooms expense"
        named = [coverage(c, context_metric) >= need for c in rows]
        near_named = [coverage(c, context_metric | near) >= need for c in rows]
        if not any(named) or not all(near_named):
            return False
        if kind in TWO_METRIC_KINDS and not two_metrics_fit(ids, kind, need, total_base):
            return False
        if not any(coverage(c, own_metric) for c in rows):
            return False  # "the reserve totaled [MASK] and $141,000 in accrued interest"
        if (
            item
            and items
            and not computed
            and digits <= 2
            and not any(coverage(c, item) >= need for c in rows)
        ):
            # a driver's round figure is not the total the sentence heads with, nor a
            # bridge's net line: "higher program launch costs of [MASK]" is no "Performance"
            return False
        if kind == "sum" and not (all(named) and sum_cue):
            return False  # a sum only where the sentence adds two named items
        # a per-share figure as written is a per-share cell, never an amount of a table
        # "in millions" read unscaled ("special dividends of $12.00 per share" is no
        # "Special A&E charge | (12)")
        if kind == "raw_lookup" and per_share and not per_share_cell(cells[0]):
            return False
        if speaks_of_a_year and any((c.period_months or 12) < 12 for c in cells):
            return False
        if (
            kind in ("lookup", "raw_lookup")
            and role == "change"
            and cells[0].change_column
            and len(compared_pair) == 2
            and len(column_years := set(_YEAR.findall(cells[0].col_text))) == 2
            and column_years != compared_pair
        ):
            return False  # "8% in 2022 compared to 2021" is no "% Change 2023 - 2022" cell
        # period: the blank's year (else one the sentence names outside the comparison
        # that follows the blank) must be the (newer) column's
        wanted = {period} if period else own_years
        if wanted:
            if kind in _CHANGE_KINDS and len(cells) >= 2:
                latest = max(cells[0].years | cells[1].years, default=None)
                if latest is not None and latest not in wanted:
                    return False
            elif any(c.years and not c.years & wanted for c in cells):
                return False
        if kind in ("lookup", "raw_lookup") and not _companions_agree(index, ids[0], kind):
            return False
        if direction and kind in _CHANGE_KINDS and len(ids) == 2:
            newer, older = index.val[ids[0]], index.val[ids[1]]
            # by magnitude, as a loss, a tax benefit or an income line written as a
            # negative ("(802,183)") that "increased"; across zero nothing is said
            moves = 1 if abs(newer) > abs(older) else -1
            if (newer < 0) == (older < 0) and abs(newer) != abs(older) and moves != direction:
                return False  # a 5.5% fall in price is no "[MASK] increase in homes"
        if ends and kind in ("change", "pct_change") and not are_ends(index, ids, ends, levels):
            return False  # Specialty financial's ceded premiums are not its $45M and $33M
        if amount is not None and not amount_agrees(index, ids, kind, amount):
            return False  # "an increase of $10 million ([MASK])" is not a row that moved $113M
        # role: "increased [MASK]" is a change, "was [MASK]" a level
        is_change = kind in _CHANGE_KINDS or (
            kind in ("lookup", "raw_lookup") and cells[0].change_column
        )
        return is_change == (role == "change")

    def two_metrics_fit(ids: tuple[int, ...], kind: str, need: float, total_base: bool) -> bool:
        """A share, ratio or change of a ratio is the pair the sentence means: a labelled
        numerator, not the base's line again (an unlabelled base only as a share's column
        total); the blank's own words name the numerator (or it is the tax line of a stated
        tax rate); the sentence names the base (or a margin, tax rate or "percentage of"
        implies it); the ratio the text names before the blank is the pair's; a change of a
        ratio is told about a ratio; an amount written just before the blank is the
        numerator."""
        top, base = index.cells[ids[0]], index.cells[ids[1]]
        if not distinct_rows([top, base], total_base):
            return False  # "Net earnings / Net earnings" for a "1%" variation
        if coverage(top, own_metric) < need and not tax_rate_numerator(top, sentence_context):
            return False  # "Viator" revenue for "direct selling and marketing costs"
        if (
            not total_base
            and coverage(base, context_metric) < need
            and not implied_base(base, sentence_context)
        ):
            return False  # "of commercial and industrial loans" over real estate loans
        if kind == "ratio_change" and not says_ratio(sentence_context, mask):
            return False  # "metal spread decreased [MASK]" is no change of a ratio
        before = sentence_context[: mask[0]] if mask else ""
        if not fits_named_ratio(top, base, before):
            return False  # "return on average allocated capital" is not expense / capital
        # "$7.5 million, or [MASK] of net sales" is not a $100 million line's share
        return kind == "ratio_change" or states_numerator(index, ids, before)

    def _companions_agree(index: DerivationIndex, k: int, kind: str) -> bool:
        """The looked-up row also gives the sentence's other-period figure, where it has that
        period: "$5.9 million for 2023 compared to $12.3 million for 2022" is not a row
        reading 5,928 and 38,267. A row without that period's column is no counter-evidence.
        A comparison whose periods the sentence leaves unplaced ("losses were $5 million ...
        compared to losses of [MASK]") needs one of the other side's figures in one of the
        row's other periods."""
        cell = index.cells[k]

        def peers(period: str | None) -> list[int]:
            return [
                j
                for j in index.by_row[(cell.table_index, cell.row)]
                if j != k
                and index.cells[j].years
                and (
                    index.cells[j].years == {period}
                    if period
                    else not index.cells[j].years & cell.years
                )
                and not index.cells[j].change_column
                and index.category[j] == index.category[k]
                and index.percent[j] == index.percent[k]
            ]

        for other_period, others in companions:
            if other_period in cell.years or not cell.years and other_period is None:
                continue
            rows = peers(other_period)
            if rows and not any(
                rounds_or_truncates(other, index.exact(kind, (j,)))
                for j in rows
                for other in others
            ):
                return False
        return True

    def relevance(ids: tuple[int, ...]) -> float:
        best = 0.0
        for k in ids:
            tokens = metric_tokens(index.cells[k])
            if not tokens:
                continue
            hits = len(tokens & context) + 0.3 * len(tokens & near - context)
            best = max(best, hits / len(tokens) + 0.2 * hits)
        # a segment column the sentence names ("for the Funds")
        columns = set().union(*(set(index.category[k].split()) for k in ids)) - {"total", "change"}
        return best + 0.3 * len(columns & context) if best else best

    def year_fit(ids: tuple[int, ...]) -> float:
        if len(ids) == 1 and index.cells[ids[0]].change_column and years:
            return 0.4  # a change column answers "increased ... compared with 2022"
        cell_years = set().union(*(index.cells[k].years for k in ids))
        if not years or not cell_years:
            return 0.0
        return 0.4 if cell_years & years else -0.4

    def other_length(ids: tuple[int, ...]) -> bool:
        months = index.cells[ids[0]].period_months
        return said_months is not None and months is not None and months != said_months

    found: list[tuple[float, str, tuple[int, ...], Decimal]] = []
    # A: lookups, searched in the widest window that a coarser cell precision allows
    pools = [(pool, "lookup")]
    if not percent and (per_share or number.units - {"usd", "per_share"}):
        pools.append(("raw", "raw_lookup"))  # "$8.96 per share" in a table "in thousands"
    for lookup_pool, kind in pools:
        values, ids = index.lookups[lookup_pool]
        lo, hi = (
            bisect.bisect_left(values, float(ref) / 2.01),
            bisect.bisect_right(values, float(ref) * 2.01),
        )
        for k in ids[lo:hi]:
            value = index.exact(kind, (k,))
            if not supports(ref, ref_p, value):
                continue
            if not evidence((k,), kind):
                continue
            found.append((relevance((k,)) + year_fit((k,)), kind, (k,), value))
    # B and C: exact computed values inside the span's rounding window
    values, comps = index.computed[pool]
    half = float(ref_p) / 2 * 1.000001 + 1e-12
    lo, hi = (
        bisect.bisect_left(values, float(ref) - half),
        bisect.bisect_right(values, float(ref) + half),
    )
    if hi - lo <= 5000:  # a one-digit span ("5%") fits thousands of ratios: no evidence
        for comp in comps[lo:hi]:
            if not evidence(comp.cells, comp.kind):
                continue
            value = index.exact(comp.kind, comp.cells)
            if supports(ref, ref_p, value):
                found.append(
                    (
                        relevance(comp.cells)
                        + year_fit(comp.cells)
                        + _SCENARIO_PRIOR[comp.scenario],
                        comp.kind,
                        comp.cells,
                        value,
                    )
                )
    # D: change of a ratio between periods (margins, mix), only for rows the sentence names
    if percent and not any(kind == "lookup" for _, kind, _, _ in found):
        found.extend(_ratio_changes(index, ref, ref_p, context, relevance, year_fit, evidence))
    found = [f for f in found if f[1] in ("lookup", "raw_lookup") or f[0] >= min_score]
    if not found:
        return None
    # Best label and period fit first; among equals the period length the text names (a
    # three-month paragraph's change is the quarter's, though six months' columns round to
    # it too), then the simpler scenario, then fewer cells.
    found.sort(
        key=lambda t: (
            -t[0],
            other_length(t[2]),
            SCENARIO_ORDER.index(_KIND_SCENARIO[t[1]]),
            len(t[2]),
        )
    )
    score, kind, cell_ids, value = found[0]
    reason = _reason(found, role)
    derivation = _describe(index, kind, cell_ids, value, score, number, reason)
    if (
        mask
        and twins
        and _claimed_by_twin(cell_ids, number, index, sentence_context, mask, neighbours)
    ):
        return None
    return derivation


def _claimed_by_twin(
    cell_ids: tuple[int, ...],
    number: ParsedNumber,
    index: DerivationIndex,
    sentence: str,
    mask: tuple[int, int],
    neighbours: str,
) -> bool:
    """Another figure of the sentence writes the same value, finds the same rows and fits
    them at least as well: "net cash used in financing activities was $0.1 million,
    reflecting [MASK] cash paid for payroll tax ..." is the total's cell, not the blank's;
    "costs of $6, higher incentive compensation of [MASK]" cannot tell which $6 a cell is."""
    # by row: the rival may read the same line from another column ("a decrease in
    # non-interest income of $2.5 million" from the table's change column, the blank's
    # "provision ... of [MASK]" from its two years)
    rows = {(index.cells[k].table_index, index.cells[k].row) for k in cell_ids}
    labels = {frozenset(metric_tokens(index.cells[k]) - GENERIC_WORDS) for k in cell_ids}
    years = set().union(*(index.cells[k].years for k in cell_ids))

    def fit(at: tuple[int, int]) -> float:
        """How well the figure's words name the rows, and its own period the columns. A
        list item's words are its line's whole name: words the label lacks ("loan interest
        income" against "Total interest income") say it is another line."""
        period = blank_period(sentence, at)[1]
        item = item_words(sentence, at)
        if item is None:
            named = naming(labels, with_synonyms(own_words(sentence, at)))
        else:
            named = max(
                (len(label & item) ** 2 / (len(label) * len(item)) for label in labels if label),
                default=0.0,
            )
        return named + 0.5 * (period in years)

    mine: float | None = None  # the blank's own fit, read only once a twin claims its cells
    for span in find_numbers(sentence):
        other = span.number
        if span.end > mask[0] and span.start < mask[1] or other is None:
            continue
        if other.units != number.units or other.as_fraction() != number.as_fraction():
            continue
        if _YEAR.fullmatch(span.text.strip()) or not (other.units or other.scale_word):
            continue
        at = (span.start, span.end)
        # the rival's own round item may fail its item check and still name the row better
        rival = find_derivation(
            other, index, sentence, neighbours=neighbours, mask=at, twins=False, items=False
        )
        if rival is None or {(c["table_index"], c["row"]) for c in rival.cells} != rows:
            continue
        if mine is None:
            mine = fit(mask)
        if fit(at) >= mine:
            return True
    return False


def _reason(found: list[tuple[float, str, tuple[int, ...], Decimal]], role: str) -> str:
    """Why the first candidate was chosen, in words a reviewer can check."""
    score, kind, _, _ = found[0]
    article = "an" if role[0] in "aeiou" else "a"
    text = f"the blank reads as {article} {role}; {kind} with the best label and period fit ({score:.2f})"
    if len(found) > 1:
        runner = found[1]
        text += f"; next: {runner[1]} ({runner[0]:.2f}), {len(found) - 1} other candidate(s)"
    else:
        text += "; the only candidate"
    return text


_SUM_CUE = re.compile(r"\b(?:combined|together|aggregate|in total|total of|sum of|plus)\b", re.I)
_SUM_CUE_BEFORE, _SUM_CUE_AFTER = 80, 40  # characters around the blank
_CHANGE_KINDS = frozenset({"change", "pct_change", "pp_change", "ratio_change"})
_KIND_SCENARIO = {
    "lookup": "A",
    "raw_lookup": "A",
    "change": "B",
    "pct_change": "B",
    "pp_change": "B",
    "ratio": "C",
    "share": "C",
    "sum": "C",
    "ratio_change": "D",
}


def _ratio_changes(
    index: DerivationIndex,
    ref: Decimal,
    ref_p: Decimal,
    context: set[str],
    relevance: Callable[[tuple[int, ...]], float],
    year_fit: Callable[[tuple[int, ...]], float],
    evidence: Callable[[tuple[int, ...], str], bool],
) -> list[tuple[float, str, tuple[int, ...], Decimal]]:
    rows = [key for key, ids in index.by_row.items() if index.cells[ids[0]].row_tokens & context]
    out = []
    for ra in rows[:12]:
        for rb in rows[:12]:
            if ra == rb or ra[0] != rb[0]:
                continue
            a = {index.cells[k].col: k for k in index.by_row[ra] if not index.percent[k]}
            b = {index.cells[k].col: k for k in index.by_row[rb] if not index.percent[k]}
            cols = [
                c
                for c in a
                if c in b and index.cells[a[c]].years and not index.cells[a[c]].change_column
            ]
            for i, c1 in enumerate(cols):
                for c2 in cols[i + 1 :]:
                    if not index.cells[b[c1]].value or not index.cells[b[c2]].value:
                        continue
                    if not same_period_length(index.cells[a[c1]], index.cells[a[c2]]):
                        continue
                    ids = (a[c1], b[c1], a[c2], b[c2])
                    value = index.exact("ratio_change", ids)
                    if supports(ref, ref_p, value) and evidence(ids, "ratio_change"):
                        out.append(
                            (
                                relevance(ids) + year_fit(ids) + _SCENARIO_PRIOR["D"],
                                "ratio_change",
                                ids,
                                value,
                            )
                        )
    return out


def _describe(
    index: DerivationIndex,
    kind: str,
    ids: tuple[int, ...],
    value: Decimal,
    score: float,
    number: ParsedNumber,
    reason: str = "",
) -> Derivation:
    cells = [index.cells[k] for k in ids]
    label = [f"{c.table.row_label(c.row)} [{c.col_text}]" for c in cells]
    formula = {
        "lookup": lambda: label[0],
        "raw_lookup": lambda: f"{label[0]} (as written, table scale not applied)",
        "change": lambda: f"{label[0]} - {label[1]}",
        "pp_change": lambda: f"{label[0]} - {label[1]}",
        "pct_change": lambda: f"({label[0]} - {label[1]}) / {label[1]}",
        "ratio": lambda: f"{label[0]} / {label[1]}",
        "share": lambda: f"{label[0]} / {label[1]}",
        "sum": lambda: f"{label[0]} + {label[1]}",
        "ratio_change": lambda: f"{label[0]} / {label[1]} - {label[2]} / {label[3]}",
    }[kind]()
    if index.signed(kind, ids) < 0:
        # the sentence states a size and its words carry the sign ("decreased $2.0
        # million", "a loss of"): the recorded value negates the formula, and says so
        formula = f"-({formula})"
        reason = (reason + "; " if reason else "") + (
            # the value records a size; a span written negative ("(0.1)%") agrees in sign
            "the formula is negative on the signed cells, as the span is; the value records its size"
            if number.sign < 0
            else "the formula is negative on the signed cells; the sentence states its size, so "
            "the value is its negation"
        )
    percent = kind in ("pct_change", "pp_change", "ratio", "share", "ratio_change") or (
        kind == "lookup" and index.percent[ids[0]]
    )
    if percent:
        text = _format_percent(value)
        if kind == "lookup":  # keep the cell's own digits ("12.5%")
            text = f"{_format_amount(index.val[ids[0]], False)}%"
    else:
        text = _format_amount(value, money="usd" in number.units)
    return Derivation(
        kind="lookup" if kind == "raw_lookup" else kind,
        scenario=_KIND_SCENARIO[kind],
        formula=formula,
        cells=[
            {
                "table_index": c.table_index,
                "row": c.row,
                "col": c.col,
                "row_label": c.table.row_label(c.row),
                "column_label": c.col_text,
                "text": c.text,
                # the value the formula used: signed, table scale applied unless the
                # formula says "as written"; percent cells in percent points
                "value": f"{(c.raw if kind == 'raw_lookup' else index.val[k]):f}",
                "percent": index.percent[k],
            }
            for k, c in zip(ids, cells, strict=True)
        ],
        value=value * _HUNDRED if percent else value,
        percent=percent,
        text=text,
        score=round(score, 3),
        reason=reason,
    )
