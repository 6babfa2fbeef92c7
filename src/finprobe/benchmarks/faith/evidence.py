"""Evidence checks of the FAITH derivation finder: whether the cells a derivation reads are
the ones the sentence means. Row labels must name the metric (and any segment or subset the
blank's clause names), a change must run between the levels the sentence states, a change
column's row must have moved by the sentence's amount, a share, ratio or change of a ratio
must be the pair the sentence means, and a column of averages answers only text about
averages."""

from __future__ import annotations

import re
from decimal import Decimal

from finprobe.benchmarks.faith.blank import blank_period
from finprobe.benchmarks.faith.cells import Cell
from finprobe.benchmarks.faith.derivation_index import (
    DerivationIndex,
    rounds_or_truncates,
    supports,
)
from finprobe.benchmarks.faith.sentence import _YEAR, _tokens
from finprobe.numbers import ParsedNumber, find_numbers

_FIGURE_NOTE = re.compile(r"\([^()]*\d[^()]*\)")


def metric_tokens(cell: Cell) -> set[str]:
    """A row label's words without a parenthesised note holding figures: "Net sales (from
    related parties $2,449 and $2,749 for the year ended ...)" names net sales only."""
    label = cell.table.row_label(cell.row)
    if "(" not in label:
        return cell.row_tokens
    return set(_tokens(_FIGURE_NOTE.sub(" ", label)))


def naming(labels: set[frozenset[str]], words: set[str]) -> float:
    """How well the words name the best-named of the row labels (share of its words)."""
    return max((len(label & words) / len(label) for label in labels if label), default=0.0)


_PART_MARKS = ("•", "●", ";")


def stated_ends(
    sentence: str, mask: tuple[int, int], ref: Decimal, ref_p: Decimal, percent: bool
) -> tuple[list[ParsedNumber], list[tuple[ParsedNumber, ParsedNumber]]]:
    """The money levels the blank's own part of the sentence states, and the pairs of them
    whose change (for a percent span: whose percentage change over the second) is the
    span."""
    # levels only: "a $47.0 million improvement" and "increased $48.7 million" are changes
    # (a change made of two parts is no pair of ends); and only the blank's own bullet or
    # semicolon part: a run of bullets holds many figures, some pair moves by anything
    lo = max(sentence.rfind(mark, 0, mask[0]) for mark in _PART_MARKS) + 1
    his = [at for mark in _PART_MARKS if (at := sentence.find(mark, mask[1])) >= 0]
    hi = min(his, default=len(sentence))
    levels = [
        s.number
        for s in find_numbers(sentence)
        if s.number is not None
        and lo <= s.start
        and s.end <= hi
        and s.kind == "money"
        and not (s.start < mask[1] and s.end > mask[0])
        and not s.number.units & {"percent", "bps"}
        and blank_period(sentence, (s.start, s.end))[0] != "change"
    ]
    pairs = []
    for a in levels:
        for b in levels:
            if a is b:
                continue
            va, vb = abs(a.as_fraction()), abs(b.as_fraction())
            if percent:
                fits = vb != 0 and supports(ref, ref_p, abs(va - vb) / vb)
            else:
                fits = supports(ref, ref_p, abs(va - vb))
            if fits:
                pairs.append((a, b))
    return levels, pairs


def possible_scales(cell: Cell) -> tuple[Decimal, ...]:
    """The scales a cell's figures may be in: the table's own, or, for a table that states
    none, units, thousands or millions."""
    if cell.table.scale != 1:
        return (Decimal(1),)
    return (Decimal(1), Decimal(1000), Decimal(1_000_000))


def are_ends(
    index: DerivationIndex,
    ids: tuple[int, ...],
    ends: list[tuple[ParsedNumber, ParsedNumber]],
    levels: list[ParsedNumber],
) -> bool:
    """The change's two cells are one of the stated pairs (each rounds, or is cut, to its
    figure: "approximately $18.6 million" for 18,650,336), or one cell shows a stated level
    ("Gross profit increased $4.0 million to $44.0 million, on net sales of $110.0 million
    compared to $106.0 million": the pair is another line's, the $44.0 million is its own)."""
    scales = possible_scales(index.cells[ids[0]])  # "221" for "$221 million"

    def shows(k: int, figure: ParsedNumber, m: Decimal) -> bool:
        return rounds_or_truncates(figure, abs(index.val[k]) * m)

    if any(shows(k, level, m) for k in ids[:2] for level in levels for m in scales):
        return True
    return any(shows(ids[0], a, m) and shows(ids[1], b, m) for a, b in ends for m in scales)


def amount_agrees(
    index: DerivationIndex, ids: tuple[int, ...], kind: str, amount: ParsedNumber
) -> bool:
    """The cells' row moved by the sentence's amount: a percentage change's two cells differ
    by it; a "% Change" column's row has two period levels that do (a row without two
    levels is no counter-evidence); a points change is never a money change's percentage."""
    cell = index.cells[ids[0]]
    scales = possible_scales(cell)  # "$7,502" in thousands, said nowhere

    def moved(a: int, b: int) -> bool:
        return any(
            rounds_or_truncates(amount, abs(index.val[a] - index.val[b]) * m) for m in scales
        )

    if kind == "pct_change":
        return moved(ids[0], ids[1])
    if kind in ("pp_change", "ratio_change"):
        return False
    if kind not in ("lookup", "raw_lookup") or not cell.change_column:
        return True
    levels = [
        j
        for j in index.by_row[(cell.table_index, cell.row)]
        if not index.cells[j].change_column and not index.percent[j] and index.cells[j].years
    ]
    if len(levels) < 2:
        return True
    return any(moved(a, b) for a in levels for b in levels if a < b)


# For computed candidates and one-digit spans, the share of a row label's words the
# sentence must name: "Interest income" is not named by "income tax expense ... [MASK]".
# A lookup of a longer span needs one label word: its digits are evidence already.
MIN_LABEL_COVERAGE = 0.6
# A lookup of a longer span: at least this share of its row label named (one word of
# "Net income (loss) attributable to redeemable noncontrolling interests" is not).
MIN_LOOKUP_COVERAGE = 0.25
# Label words that qualify a metric but never name one: sharing only these is no evidence.
GENERIC_WORDS = frozenset(
    _tokens(
        "average net other per day daily annual annually basic diluted adjusted related impact "
        "effect result consolidated prior current including excluding"
    )
)
# words of the blank's clause that make its figure a part of a line: a segment ("our
# wholesale segment gross margin"), same-store or organic figures. Cells that say none of
# them are the whole line's ("Consolidated gross margin"), not the part the sentence means.
# A segment is named as "the / our / its NAME segment" ("Segment earnings" or "pre-tax
# segment operating margin" name none).
_SEGMENT_NAME = re.compile(
    r"\b(?:[Tt]he|[Oo]ur|[Ii]ts)\s+((?:[\w&-]+\s+){0,4}?[\w&-]+)\s+[Ss]egment\b"
)
_SUBSET_WORDS = re.compile(
    r"\b(same[- ]store|comparable[- ]store|organic|constant[- ]currency|like[- ]for[- ]like)\b",
    re.I,
)
_NOT_A_SEGMENT = frozenset(
    ["the", "and", "of", "each", "this", "that", "its", "their", "all", "reportable", "operating",
     "business", "other", "same", "single", "pre-tax", "pretax", "total", "largest", "smallest",
     "respective", "reporting", "two", "three", "four", "five", "first", "second", "third",
     "fourth", "quarter", "year", "period", "fiscal", "new"]
)  # fmt: skip
# the blank's clause: after the last ";", ":", bullet, ", " or sentence end before it, or
# "while", "whereas", "but"
_CLAUSE_BREAK = r"[;:•]|(?<=[a-z)\d])\.(?=\s*[A-Z])|\b(?:while|whereas|but)\b"
_CLAUSE_START = re.compile(r",\s|" + _CLAUSE_BREAK)


def subset_qualifiers(before: str) -> set[str]:
    """The part-of-a-line words of the blank's clause before it, lowercased, "-" as " "."""
    # an aside in brackets ("increased 21% (11% on a constant currency basis) to [MASK]") is
    # about another figure
    clause = re.sub(r"\([^()]*\)", " ", _CLAUSE_START.split(before)[-1])
    words = [m.group(1) for m in _SUBSET_WORDS.finditer(clause)]
    # every word of the name: "our Latin America segment" is not "North America"
    words += [
        w
        for m in _SEGMENT_NAME.finditer(clause)
        for w in m.group(1).split()
        if w.lower() not in _NOT_A_SEGMENT
    ]
    return {w.lower().replace("-", " ") for w in words}


def says_part(cell: Cell, words: set[str]) -> bool:
    """The cell's row, the headings just above it, the header of the block it stands in (a
    table of stacked segments repeats it: "DDS Segment | 2023 | 2022"), its column or the
    table's pre-text names every one of the part's words."""
    table = cell.table
    said = [table.row_label(cell.row)]
    headed = False
    for r in range(cell.row - 1, -1, -1):
        values = [v for v in table.cells[r][table.header_cols :] if v.strip()]
        if values and not all(_YEAR.fullmatch(v.strip()) for v in values):
            if headed:
                break  # the rows of figures above a heading are another block's
            continue  # a sibling line ("Wholesale net sales") says nothing of this one
        said.append(table.row_label(r))
        headed = True
        if values:
            break  # the block's own header row ("DDS Segment | 2023 | 2022")
    text = " ".join([*said, " ".join(cell.heading_tokens), cell.col_text, table.pre_text[-300:]])
    text = text.lower().replace("-", " ")
    return all(re.search(rf"\b{re.escape(w)}", text) for w in words)


# Words that set a line apart from its siblings (the three cash-flow sections, interest
# against other expenses, preferred against common): a row label carrying one names a
# different line unless the text names the qualifier too.
QUALIFIERS = frozenset(
    _tokens(
        "financing investing operating interest preferred discontinued deferred noncontrolling "
        "real estate"
    )
)


# --------------------------------------------------------------------------
# two metrics (a share, a ratio, a change of a ratio): a quotient of two table lines
# matches a written percentage by chance far more often than a single cell does (a
# hand read of the 85 such instances built from 134 reports in round 21 found 43 wrong),
# so the pair must be the one the sentence means

TWO_METRIC_KINDS = frozenset({"share", "ratio", "ratio_change"})
_TAX_RATE = re.compile(r"tax rate|\betr\b", re.I)
# a line of income taxes ("Provision (benefit) for income taxes", "Income tax benefit"),
# not payroll, deferred or other taxes
_TAX_LINE = re.compile(r"income tax|tax (?:expense|benefit|provision)|provision for taxes", re.I)
# pre-tax income ("Loss before income taxes", "Income before provision for income taxes"),
# not earnings before interest, taxes, depreciation and amortization
_PRE_TAX = re.compile(r"\bbefore (?!interest)(?:[\w()]+ ){0,4}?(?:income )?tax|pre-?tax", re.I)
# a ratio over revenue or sales: a margin, or "as a percentage of (net) revenue"
_OF_REVENUE = re.compile(
    r"\bmargins?\b|percent(?:age)? of (?:[\w']+ ){0,3}?(?:revenues?|sales)\b", re.I
)
_REVENUE_LINE = re.compile(r"revenue|sales", re.I)
# words that name a ratio (a "%" or "percent" is any percentage's unit, and "rates" or
# "points" are often other things: mortgage rates, points of sale)
_RATIO_WORDS = re.compile(
    r"\bmargins?\b|ratio|as a percent(?:age)? of|percentage of|percentage points?"
    r"|basis points|\bbps\b|share of (?!\$)|proportion",
    re.I,
)
# a ratio the blank's words name, and what each side of it must be
_NAMED_RATIO = re.compile(
    r"\bmargins?\b|tax rate|\betr\b|return on (?:average )?(?:[\w'’]+ ){0,3}?(?:capital|equity|assets)",
    re.I,
)
# the blank's clause for a named ratio: ``_CLAUSE_START`` without the comma ("Gross margin
# improved, while SG&A was [MASK] of sales" breaks at "while"; "The return on average
# allocated capital was 22 percent, up from [MASK]" does not break)
_RATIO_CLAUSE = re.compile(_CLAUSE_BREAK)
_PROFIT_LINE = re.compile(r"income|profit|earnings|margin|ebitda", re.I)
_COST_LINE = re.compile(r"cost|expense|marketing|selling", re.I)
_INCOME_LINE = re.compile(r"income|earnings", re.I)
_RATIO_LINE = re.compile(r"return|ratio|yield|margin", re.I)
# "$7.5 million, or [MASK] of net sales" / "$32.9 million in 2022, or [MASK]": the amount
# written just before the blank
_STATED_NUMERATOR = re.compile(
    r"(\$\s?[\d.,]+(?:\s+(?:million|billion|thousand))?)"
    r"(?:\s+(?:in|for|during)\s+[^$;]{0,40}?)?,?\s+(?:or|and)\s*$"
)


def distinct_rows(cells: list[Cell], total_base: bool = False) -> bool:
    """A quotient's numerator is a labelled line, and not the base's line again ("Net
    earnings / Net earnings" in two tables is 100%). The base may be unlabelled only where
    it is a share's column total (``total_base``)."""
    top, base = (c.table.row_label(c.row).strip().lower() for c in cells[:2])
    return bool(top) and (bool(base) or total_base) and top != base


def tax_rate_numerator(cell: Cell, sentence: str) -> bool:
    """A tax line, where the sentence speaks of a tax rate: "reflecting effective tax rates
    of [MASK]" names the rate, not "Income tax benefit"."""
    label = cell.table.row_label(cell.row)
    return bool(
        _TAX_RATE.search(sentence) and _TAX_LINE.search(label) and not _PRE_TAX.search(label)
    )


def implied_base(cell: Cell, sentence: str) -> bool:
    """The base a named ratio implies though the sentence does not name it: pre-tax income
    under a tax rate, revenue or sales under a margin or "as a percentage of"."""
    label = cell.table.row_label(cell.row)
    if _TAX_RATE.search(sentence) and _PRE_TAX.search(label):
        return True
    return bool(_OF_REVENUE.search(sentence) and _REVENUE_LINE.search(label))


def says_ratio(sentence: str, mask: tuple[int, int] | None) -> bool:
    """A change of a ratio needs a sentence about a ratio (a margin, a rate, a percentage,
    points), in words outside the blank: "revenue from homes delivered increased [MASK]" is
    a change of one line."""
    if mask:
        sentence = sentence[: mask[0]] + " " + sentence[mask[1] :]
    return bool(_RATIO_WORDS.search(sentence))


def fits_named_ratio(numerator: Cell, base: Cell, before: str) -> bool:
    """The last ratio the text before the blank names is the pair's: a margin is a profit
    line over revenue or sales, a tax rate a tax line over pre-tax income, a return on
    capital (equity, assets) an income line over that. Text naming none passes."""
    named = list(_NAMED_RATIO.finditer(_RATIO_CLAUSE.split(before)[-1]))
    if not named:
        return True
    ratio = named[-1].group(0).lower()
    top = numerator.table.row_label(numerator.row).lower()
    bottom = base.table.row_label(base.row).lower()
    if "margin" in ratio:
        return bool(
            _PROFIT_LINE.search(top)
            and _REVENUE_LINE.search(bottom)
            and not _COST_LINE.search(bottom)
        )
    if ratio.startswith("return"):
        # over the capital line, not the row of the return itself
        return (
            bool(_INCOME_LINE.search(top))
            and ratio.split()[-1] in bottom
            and not _RATIO_LINE.search(bottom)
        )
    return bool(_TAX_LINE.search(top) and _PRE_TAX.search(bottom))


def states_numerator(index: DerivationIndex, ids: tuple[int, ...], before: str) -> bool:
    """An amount written just before the blank ("$7.5 million, or [MASK] of net sales") is
    the share's numerator: the first cell shows it (rounded or cut; an unscaled table in
    units, thousands or millions). Text without one passes."""
    stated = _STATED_NUMERATOR.search(before)
    if not stated:
        return True
    money = [
        s.number
        for s in find_numbers(stated.group(1))
        if s.number is not None and "usd" in s.number.units
    ]
    if not money:
        return True
    value = abs(index.val[ids[0]])
    return any(
        rounds_or_truncates(money[-1], value * m) for m in possible_scales(index.cells[ids[0]])
    )


# --------------------------------------------------------------------------
# basis: a column of averages ("Average Balance", "Average Market Risk VaR") is no
# period-end figure, and matches one only by chance (four of Bank of America's 10-Q
# instances: a quarter's average balances for "at March 31, 2024 ... made up [MASK]", a VaR
# average for a share of home equity loans)

AVERAGES = re.compile(r"averag", re.I)
_AVERAGE_COLUMN = re.compile(r"\baverage|\bavg\b", re.I)


def average_column(cell: Cell) -> bool:
    """The cell's column is one of averages."""
    return bool(_AVERAGE_COLUMN.search(cell.col_text))
