"""An independent check of each built FinDVer claim against the cells it cites.

The builder reads tables through ``finprobe.document`` (merged columns, parsed
numbers). This module does not: it opens the report file again, takes the cited
context entry's pipe text line by line, finds the cited row by its label, reads
the row's figures with its own small reader (parentheses negative even when split
across cells, dashes zero), maps them to the header's years, finds the table's
scale in the entry and the text before it, and reads the claim's figure, scale
word and direction back out of the statement (whose subject must name the cited
row; a row negative throughout is read by its size only when the subject names
something that goes out, by this module's own word lists). It also reads the claim's
words against the report's lines: a bracketed section must be the one the row sits in
(ended by a total or a result line), the subject must name a measure (not a bare name in
capitals, not a deferred-tax component without "tax") and a segment by name, "N shares"
never of an amount, no percentage or narrowing to zero, no share of 100%, no period after
the filing or maturity column, and a change between balances at dates under a year
apart ("March 31, 2024 | December 31, 2023") names those dates as the header prints them; a report stating no scale gets one from its own per-share
figures or whole-dollar quotes, or its amounts and share counts fail. A claim's "for the
three months ended ..." must be the period its table's header (or caption line) states,
and a cited row whose label another table of the report shows with another figure for
the same year fails unless the claim names a scope its table states. Each period the claim
names must be its column as the report names it (a balance "at March 31, 2024", a fiscal
year ending early in the next year not by that year, "fiscal 2023" only where the prose ties
that name to the column's date); an outflow is never "negative"; a segment named in the
table's title is named in the claim; a classification table ("included in the balance
sheets as shown below") and a working-capital change line worded as the balance fail. An
entailed claim must hold on
those cells; a refuted one must fail. Anything it cannot read fails the check: a
claim that cannot be confirmed is dropped, never kept on trust.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from finprobe.benchmarks.findver.selfcheck_read import (
    _MARK,
    _WORD_SCALE,
    _captions,
    _cell,
    _clean,
    _dec,
    _prose,
    _RawTable,
    _read_entry,
    _report_entries,
    _row_values,
)
from finprobe.benchmarks.findver.selfcheck_wording import (
    _comparable,
    _dates_problem,
    _period_problem,
    _segment_name_problem,
    _span_problem,
    _table_lengths,
    _title_scope_problem,
)

_PER_SHARE_ROW = re.compile(r"(?i)\bper\b[^,;]{0,30}?\b(?:share|unit)s?\b|\bEPS\b")
_COUNT_ROW = re.compile(
    r"(?i)\bdenominator\b|\bweighted[- ]average\b[^,;]{0,40}\bshares\b|\bshares used\b"
)
# a price, value or cost per share is an amount, whatever shares the label also names
_PRICED_ROW = re.compile(r"(?i)\b(?:price|value|cost)s?\b[^|]*?\bper\b[^,;]{0,30}?\bshares?\b")
_NUM = r"([\d,]+(?:\.\d+)?)"
# a period as a claim names it: "2024", "fiscal 2023", "the fiscal year ended February 3,
# 2024", "March 31, 2024"
_WHEN = r"(?:fiscal |the fiscal year ended (?:[A-Z][a-z]+ \d{1,2}), )?"
_LOOKUP = re.compile(
    rf" was (negative |a loss of )?\$?{_NUM}(?: (thousand|million|billion))?(?: shares| per share)? (?:in {_WHEN}|at [A-Z][a-z]+ \d{{1,2}}, )(\d{{4}})(?:,| \(| for|\.$)"
)
_CHANGE = re.compile(
    rf" (increased|decreased|widened|narrowed) by \$?{_NUM}(%)?(?: (thousand|million|billion))?(?: shares| per share)? from {_WHEN}(?:(?P<day1>[A-Z][a-z]+ \d{{1,2}}), )?(?P<y1>\d{{4}}) to {_WHEN}(?:(?P<day2>[A-Z][a-z]+ \d{{1,2}}), )?(?P<y2>\d{{4}})(?:,| \(| for|\.$)"
)
_SHARE = re.compile(rf"(?: made up |\) was ){_NUM}%")


@dataclass(frozen=True)
class CheckResult:
    passed: bool
    reason: str  # "ok", or why it failed


# ----------------------------------------------------------------------------- the claim's words

_TOTAL_LINE = re.compile(r"(?i)^total\b|\btotal\s*$")
_RESULT_ROW = re.compile(
    r"(?i)^(?:total\s+)?(?:net\s+|operating\s+|comprehensive\s+)?(?:income|loss|earnings|profit)"
    r"(?:\s*[(/]\s*\(?(?:loss|income)\)?)?(?:\s+(?:from\s+operations|before\b[^|]{0,40}))?$"
    r"|^net\s+(?:\(?(?:increase|decrease|change)\)?[\s/]*){1,2}in\s+cash\b"
)  # "Net income (loss)", "Income before provision for income taxes", "Comprehensive loss"


def _section(table: _RawTable, row: int) -> str:
    """The label-only line above the row, lower-cased and without its colon, unless a total
    or an unlabelled line of figures or a result (net, operating or pre-tax income or loss)
    comes between (the section ended there) or is the row itself; "" if none."""
    label = _MARK.sub("", table.rows[row][0]).strip().lower()
    short = [ln for ln in table.title.splitlines() if len(ln.split()) <= 15]  # no prose
    if _RESULT_ROW.match(label) or (
        " " in label and label in " ".join(" ".join(short).lower().split())
    ):
        return ""  # a result, or the table's own title: its grand total
    for at in range(table.row_lines[row] - 1, -1, -1):
        label, shows = table.lines[at]
        label = _MARK.sub("", label).strip()
        if shows and (not label or _TOTAL_LINE.search(label) or _RESULT_ROW.match(label)):
            return ""
        if not shows and label:
            if _sums_all_above(table, row, at):
                return ""  # RHP's "Net lease cost" under "Finance lease cost:": the grand total
            return label.rstrip(":").strip().lower()
    return ""


def _sums_all_above(table: _RawTable, row: int, heading_line: int) -> bool:
    """Do the row's first figures add up every row above it, and not only those below the
    heading at `heading_line`? Then the row closes the table, not the heading's block."""
    own = table.rows[row][1]
    if not own:
        return False
    above = [i for i in range(row) if table.rows[i][1]]
    block = [i for i in above if table.row_lines[i] > heading_line]
    if not block:
        return False
    whole = sum(table.rows[i][1][0] for i in above)
    part = sum(table.rows[i][1][0] for i in block)
    close = max(Decimal(1), abs(own[0]) / 2000)  # the table's own rounding
    return abs(whole - own[0]) <= close and abs(part - own[0]) > close


def _change_line_unnamed(statement: str, claim: dict[str, Any], table: _RawTable) -> bool:
    """A row in a "Changes in operating assets and liabilities" section is a change of the
    balance, not the balance: a claim on it must say so ("change", "increase", "decrease"
    in its subject)."""
    subject = re.split(r" was | (?:increased|decreased|widened|narrowed) by | made up ", statement)[
        0
    ]
    if re.search(r"(?i)\bchanges?\b|\bincrease\b|\bdecrease\b", subject):
        return False
    for c in claim.get("cells") or []:
        want = _clean(c["row"]).lower()
        if re.match(r"(?:total\b|(?:net\s+)?cash\b)", want):
            continue  # "Net cash used in operating activities": the section's result, not a change line
        for i, (lb, _) in enumerate(table.rows):
            if _MARK.sub("", lb).lower() == want and re.match(
                r"(?:net\s+)?(?:changes?\s+in|\(?increase\)?|\(?decrease\)?)\b", _section(table, i)
            ):
                return True
    return False


def _groups(text: str) -> list[str]:
    """The text inside each pair of parentheses, nested ones too."""
    out, opened = [], []
    for i, ch in enumerate(text):
        if ch == "(":
            opened.append(i)
        elif ch == ")" and opened:
            out.append(text[opened.pop() + 1 : i])
    return out


def _sections_hold(statement: str, claim: dict[str, Any], table: _RawTable) -> bool:
    """Every bracketed name in the claim that is not part of a cited label ("Intangible
    assets, net (Current assets)") is the section its cited row sits in."""
    labels = [_clean(c["row"]).lower() for c in claim.get("cells") or []]
    sections = set()
    for c in claim.get("cells") or []:
        want = _clean(c["row"]).lower()
        at = [i for i, (lb, _) in enumerate(table.rows) if _MARK.sub("", lb).lower() == want]
        sections |= {_section(table, i) for i in at}
    for group in _groups(statement):
        said = group.strip().lower()
        if any(f"({said})" in text for text in labels + list(sections)) or " over " in said:
            continue  # "Net income (loss)", "Net cash provided by (used in)"; a margin's "(part over whole)"
        if said not in sections - {""}:
            return False
    return True


# a figure's measure: a claim whose subject is a name in capitals ("Variable Prepaid
# Forward", "Brand Tripadvisor") with none of these says nothing of what was measured
_MEASURE_NOUN = re.compile(
    r"(?i)\b(?:revenues?|sales|income|expenses?|costs?|profits?|loss(?:es)?|gains?|assets?|"
    r"liabilit\w+|cash|debt|equity|margins?|ebitda|oibda|fees?|tax\w*|payables?|"
    r"receivables?|inventor\w+|goodwill|depreciation|amorti\w+|compensation|interest|"
    r"dividends?|capital|reserves?|allowances?|deficit|earnings|balances?|values?|stock|"
    r"shares|borrowings?|notes|loans?|deposits?|investments?|propert\w+|equipment|"
    r"obligations?|payments?|proceeds|expenditures?|charges?|benefits?|accru\w+|deferred|"
    r"leases?|purchases?|net|total|operating|financing|investing|eps|per\s+share|"
    r"s?g&a|r&d|s&m|administrative|due\s+(?:to|from)|credit|research|development|"
    r"advertising|marketing|insurance|rent|royalt\w+|wages|salaries|payroll|securities|"
    r"contracts?|land|buildings?|improvements|furniture|construction|funds?|funding|units|"
    r"prices?|bookings|backlog|acquisitions?|impairments?|write-?\w+|commissions?|premiums?|"
    r"claims|contributions?|distributions?|provisions?|spending|outlays?|intangibles?|"
    r"comprehensive|repurchases?|repayments?|redemptions?|withdrawals?|"
    r"used|paid|repaid|repurchased|issuances?)(?!\w)"
)


def _names_a_measure(subject: str) -> bool:
    """A measure noun in the subject (its label or a heading it quotes): "Other specialty"
    (net written premiums by line), "Video services" (revenue by service) name none."""
    return bool(_MEASURE_NOUN.search(subject.split("'s ", 1)[-1]))


# ----------------------------------------------------------------------------- report basis

_NET_ROW = re.compile(r"(?i)^net\s+(?:income|loss|earnings)(?:\s*\(\s*loss\s*\))?$")
_WEIGHTED_ROW = re.compile(r"(?i)\bweighted\b.*\bshares\b")
_DOLLARS_IN_PROSE = re.compile(
    r"\$\s?(\d{1,3}(?:,\d{3}){1,})(?![\d,]|\.\d)(?!\s*(?:thousand|million|billion))"
)


def _quoted(prose: str, dollars: Decimal) -> bool:
    """Does the prose quote this many dollars: to the dollar ("$93,712,000") or, from $10
    million, to a tenth of a million or billion ("$93.7 million", "$3.4 billion")?"""
    forms = [rf"\$\s?{dollars:,.0f}(?![\d,])(?!\s*(?:thousand|million|billion))"]
    if dollars >= 10**7:
        forms.append(rf"\$\s?{dollars / 10**6:,.1f}\s*million")
    if dollars >= 10**10:
        forms.append(rf"\$\s?{dollars / 10**9:,.1f}\s*billion")
    return any(re.search(form, prose) for form in forms)


def _prose_scale(path: str, values: list[Decimal], scale: Decimal) -> str | None:
    """A check apart from the report's basis: the claim reads the cited figures in
    ``scale`` (no scale stated in the table); if the prose quotes one of them in a larger
    scale ("$3.4 billion" of a "3,377,028" read as dollars) and never in this one, the
    reading is wrong. The larger scale's name, or None. Figures of under four
    significant digits are passed over ("5,000" meets "$5,000,000" by chance); a
    rounded quote may still meet another figure by chance, which drops a claim."""
    prose = _prose(path)
    for value in values:
        v = abs(value)
        if v != v.to_integral_value() or len(str(int(v)).rstrip("0")) < 4:
            continue  # "5,000" meets "$5,000,000" by chance; "19,171" does not
        if _quoted(prose, v * scale):
            continue
        for other, name in ((Decimal(1000), "thousands"), (Decimal(10**6), "millions")):
            if other > scale and _quoted(prose, v * other):
                return name
    return None


@functools.lru_cache(maxsize=8)
def _report_basis(path: str) -> Decimal | None:
    """The scale of a report that states none, by this module's own reading: net result,
    per-share figure and weighted shares of one table (EPS x shares = the net result in
    dollars); failing that, whole dollars when prose outside the tables quotes a figure of
    10,000 or more that a table shows; else None."""
    report = Path(path)
    stat = report.stat()
    entries = _report_entries(path, stat.st_mtime_ns, stat.st_size)
    ratios = []
    shown: set[str] = set()
    prose: list[str] = []
    for entry in entries:
        text = str(entry.get("context") or "")
        prose += [ln for ln in text.splitlines() if not ln.strip().startswith("|")]
        shown |= set(re.findall(r"\d{1,3}(?:,\d{3})+", " ".join(
            ln for ln in text.splitlines() if ln.strip().startswith("|")
        )))  # fmt: skip
        if "|" not in text:
            continue
        table = _read_entry(report, str(entry.get("id")))
        if table is None or table.scale_stated:
            continue
        found: dict[str, Decimal] = {}
        for label, figures in table.rows:
            label = _MARK.sub("", label)
            if not figures:
                continue
            if _NET_ROW.match(label):
                found.setdefault("net", abs(figures[0]))
            elif _PER_SHARE_ROW.search(label) and not _COUNT_ROW.search(label):
                found.setdefault("eps", abs(figures[0]))
            elif _WEIGHTED_ROW.search(label):
                found.setdefault("shares", abs(figures[0]))
        # shares under 100,000 may be in thousands themselves: no basis from them
        if len(found) == 3 and found["net"] and found["shares"] >= 100_000 and found["eps"] >= Decimal("0.01"):  # fmt: skip
            ratios.append(found["eps"] * found["shares"] / found["net"])
    # each ratio's scale, on a log scale within a decade (one share class's EPS x its shares
    # is a fraction of the net result); all must agree, else the prose decides
    placed = {min((1, 1000, 1_000_000), key=lambda s: abs((r / s).ln())) for r in ratios}
    if len(placed) == 1 and all(Decimal("0.1") < r / placed_one < 10 for r in ratios for placed_one in placed):  # fmt: skip
        return Decimal(placed.pop())
    quoted = {m.group(1) for m in _DOLLARS_IN_PROSE.finditer("\n".join(prose))}
    quoted = {q for q in quoted if int(q.replace(",", "")) >= 10_000}
    return Decimal(1) if quoted & shown else None


# Reading a row shown negative throughout by its size ("increased" as it grows more
# negative, "was $850" of (850)) is right only when the claim's subject says what goes
# out: a loss, a cost, cash used, a payment. This is judged from the statement's own
# subject (the row's label and any heading it quotes), never from the builder's renaming.
_GOES_OUT = re.compile(
    r"(?i)(?<!-)\b(?:loss|losses|deficit|used|spent|paid(?!-)|repaid|repurchased|redeemed|payments?|"
    r"purchases?|acquisitions?|"
    r"expenses?|costs?|charges?|outflows?|decrease|depreciation|amortization|impairments?|"
    r"allowances?|dividends?|distributions?|repurchases?|repayments?|redemptions?|"
    r"withdrawals?|treasury|deductions?|write-?offs?|write-?downs?|expenditures?)\b"
)
# ... and says nothing that runs the other way or is signed by nature
_RUNS_BOTH_WAYS = re.compile(
    r"(?i)\b(?:(?:income|earnings|profits?)(?!(?:\s+[\w-]+)?\s+(?:tax|taxes|expenses?|costs?|charges?)\b)"
    r"|gains?|benefits?|provided|changes?|"
    r"increase|ebitda|ebit|receivables?|flows?|working\s+capital|proceeds|pre-?paid)\b"
    r"|\(\s*(?:loss|losses|used|expense|cost)\s*\)"
)


# what is owed or spent, named by the row or by a plain heading the claim quotes: a figure
# in parentheses there is the item's size in the table's convention, never "negative"
# ("Deferred tax liabilities, net | $(2,708,887)" is a net liability of $2,708,887)
_OWED = re.compile(r"(?i)\b(?:liability|liabilities|payable|payables)\b")
_SPENT = re.compile(r"(?i)\b(?:loss|losses|expense|expenses|cost|costs)\b")
# ... a side named with its opposite, or a change: no sign reading is safe
_BOTH_SIDES = re.compile(
    r"(?i)\b(?:asset|assets|receivable|receivables|benefit|benefits|income|earnings|gain|gains|"
    r"credit|credits|revenue|revenues|refund|refunds|changes?|increases?|decreases?|working\s+capital)\b"
)


def _owed_side(subject: str, label: str) -> tuple[bool, bool]:
    """(does the claim's subject name a liability, loss, expense or cost, may a negative
    figure on it be read as that item's size). The row's own label counts; a heading quoted
    in brackets after it counts for a liability or payable it names on its own."""
    quoted = subject.replace(label, " ", 1) if label in subject else ""
    owes = bool(_OWED.search(label) or _SPENT.search(label))
    by_heading = bool(_OWED.search(quoted)) and not _BOTH_SIDES.search(quoted)
    if not (owes or by_heading):
        return False, False
    return True, not _BOTH_SIDES.search(label) and not _BOTH_SIDES.search(quoted)


# its own reading of a cash-flow reconciliation: the rows between the net result and the
# operating cash total carry the adjustment's sign, and a block showing income in parentheses
# ("Other (income) expense") carries the expense's; a negative there is no negative item
_RECONCILED_FROM = re.compile(r"(?i)^net\s+\(?(?:income|loss|earnings|profit)\b")
_OPERATING_TOTAL = re.compile(r"(?i)^(?:net\s+)?cash\b.*\boperating\s+activities\b")
_PARENS_INCOME = re.compile(
    r"(?i)\((?:income|gains?|earnings)\)|\bexpenses?\s*\((?:income|gains?)\)"
)


def _sign_is_not_the_items(table: _RawTable, at: int) -> bool:
    """Is the row's sign the adjustment's or the block's convention rather than its own?"""
    labels = [_MARK.sub("", label).strip() for label, _ in table.rows]
    if _PARENS_INCOME.search(labels[at]) or _PARENS_INCOME.search(_section(table, at)):
        return True
    starts = [i for i in range(at) if _RECONCILED_FROM.match(labels[i])]
    if not starts:
        return False
    return any(_OPERATING_TOTAL.match(lb) for lb in labels[at + 1 :])


def _size_reading_ok(subject: str) -> bool:
    """May the claim's subject be read by its size when its row is negative throughout?"""
    subject = subject.split("'s ", 1)[-1]  # the company's name says nothing of the row
    # "Cash flows used in investing activities": cash used, not a flow either way
    subject = re.sub(r"(?i)\bcash\s+flows?\s+(?=used\s+(?:in|for)\b)", "cash ", subject)
    subject = re.sub(r"(?i),\s*net\s+of\b[^(]*", " ", subject)  # "expense, net of interest income"
    return bool(_GOES_OUT.search(subject)) and not _RUNS_BOTH_WAYS.search(subject)


# words a claim may drop or replace when it names a signed row by its negative amount
# ("Net income (loss)" -> "net loss", "provided by (used in)" -> "used in")
_SIGN_WORDS = {
    "income", "earnings", "profit", "loss", "losses", "provided", "used", "by", "in", "for",
    "change", "increase", "decrease", "net", "the", "of", "and", "to", "from",
}  # fmt: skip


def _names_row(subject: str, label: str) -> bool:
    """Does the claim's subject name the cited row: every other word of its label?"""
    said = set(re.findall(r"[a-z0-9]+", _clean(subject).lower()))
    words = set(re.findall(r"[a-z0-9]+", _MARK.sub("", _clean(label)).lower())) - _SIGN_WORDS
    return words <= said


_MONEY_WORDS = re.compile(
    r"(?i)\b(?:income|loss|losses|earnings|dividends?|proceeds|payments?|value|costs?|"
    r"expenses?|attributable)\b"
)
_COUNTED_ROW = re.compile(r"(?i)\bnumber\s+of\b|\bweighted\b|\bdenominator\b|\bshares used\b")
_SEGMENT_WORD = re.compile(r"(?i)(?:(\S+)\s+)?\bsegments?\b")


def _unnamed_segment(subject: str) -> bool:
    """ "Segment sales": "segment" with no name before it ("Hospitality segment", "document
    conversion segment" and "total segment" are named or all segments together)."""
    for m in _SEGMENT_WORD.finditer(subject):
        before = (m.group(1) or "").lower()
        if before in ("", "the", "a", "an", "our", "its", "their", "of", "in", "per", "by"):
            return True
    return False


def _holds(claim: dict[str, Any], table: _RawTable, basis: Decimal | None = None) -> bool | str:
    statement: str = claim["statement"]
    kind = claim["kind"]
    rows = [c["row"] for c in claim.get("cells") or []]
    counted_claim = bool(re.search(r"\d(?: thousand| million| billion)? shares\b", statement))
    if counted_claim and any(_MONEY_WORDS.search(r) and not _COUNTED_ROW.search(r) for r in rows):
        return "share count for an amount"  # "Comprehensive loss attributable to ... shares"
    cited = []
    for c in claim.get("cells") or []:
        got = _cell(table, c["row"], c["period"])
        if isinstance(got, str):
            return got
        cited.append(got)
    if not cited:
        return "no cited cells"
    cash_flow = any(
        re.match(r"(?i)net\s+cash\b.*\bactivities\b", lb.strip()) for lb, _ in table.rows
    )
    if counted_claim and cash_flow and not any(_COUNTED_ROW.search(r) for r in rows):
        return (
            "share count for an amount"  # a cash-flow line: HHGCW "Redemption of ordinary shares"
        )
    if counted_claim and any(table.dollar_rows[at] for _, _, at in cited):
        return (
            "share count for an amount"  # the row's own cells show "$" (REBN's shares for service)
        )
    if "$" in statement and any(
        _section(table, at).startswith("denominator") for _, _, at in cited
    ):
        return "share count for an amount"  # IRDM's "Dilutive effect of stock options" under "Denominator:"
    if not _sections_hold(statement, claim, table):
        return "bracketed section is not the row's"
    if _change_line_unnamed(statement, claim, table):
        return "a working-capital change read as a balance"
    per_share = bool(re.search(r"\d\)? per share\b", statement))  # the figure's unit
    counted = bool(re.search(r"\d(?: thousand| million| billion)? shares\b", statement))
    # share counts under "(in thousands, except share data)" are not in thousands
    scale = Decimal(1) if counted and table.shares_unscaled else table.scale
    if not table.scale_stated and not per_share and kind in ("lookup", "change"):
        if basis is None:  # no scale stated, none shown by the report: neither an amount
            return "scale not established"  # nor a share count ("55,140" of RHP's thousands)
        scale = Decimal(1) if counted else basis
        if not counted and (
            other := _prose_scale(claim["report_path"], [v for v, _, _ in cited], scale)
        ):
            return f"prose quotes the figure in {other}"  # "$93.7 million" of a "93,712" read as dollars
    # a per-share row by its label, unless its cells are whole thousands: "Net loss used to
    # compute loss per share | (115,461)" is an amount
    whole_thousands = all(v == v.to_integral_value() and abs(v) >= 1000 for v, _, _ in cited)
    row_per_share = not whole_thousands and any(
        _PER_SHARE_ROW.search(c["row"])
        and (_PRICED_ROW.search(c["row"]) or not _COUNT_ROW.search(c["row"]))
        for c in claim.get("cells") or []
    )
    physical = re.compile(
        r"(?i)\b(?:lineal|linear|square|cubic|board)\s+f(?:ee|oo)t\b|\b(?:tons|barrels|gallons|ounces)\b"
    )
    if "$" in statement and any(physical.search(c["row"]) for c in claim.get("cells") or []):
        return "money figure for a physical measure"  # "I-joists (lineal feet) ... $90 thousand"
    if kind in ("lookup", "change") and row_per_share != per_share:
        return "per-share row and claim unit differ"  # a per-share amount never takes the scale
    if kind == "lookup":
        m = _LOOKUP.search(statement)
        if not m:
            return "statement unreadable"
        value, row, _ = cited[0]
        stated = _dec(m.group(2))
        if per_share:
            same_scale = m.group(3) is None
            size = abs(value)
        else:
            same_scale = _WORD_SCALE[m.group(3) or ""] == scale
            size = abs(value)
        if not same_scale:
            return "scale differs"
        said_negative = m.group(1) is not None
        # a negative shown as its size only on rows negative throughout (expenses, outflows),
        # never on a signed measure (a negative EBITDA is no cost)
        if not _names_row(statement[: m.start()], claim["cells"][0]["row"]):
            return "subject does not name the row"
        if problem := _subject_problem(statement[: m.start()], table):
            return problem
        subject = statement[: m.start()]
        owes, by_size = _owed_side(subject, claim["cells"][0]["row"])
        if value < 0 and owes and m.group(1) == "negative ":
            return "a liability or expense said negative"  # WSTRF "Deferred tax liabilities, net"
        if value < 0 and said_negative and _sign_is_not_the_items(table, cited[0][2]):
            return "a reconciling or income-in-parentheses line said negative"  # HHGCW's waiver
        throughout = value < 0 and not any(v > 0 for v in row)
        outflow = throughout and (_size_reading_ok(subject) or by_size)
        if outflow and m.group(1) == "negative ":
            return "an outflow said negative"  # "Payments on the Term Loan was negative $4,063"
        sign_ok = said_negative == (value < 0) or outflow
        return stated == size and sign_ok
    if kind in ("change", "pct_change"):
        m = _CHANGE.search(statement)
        if not m or len(cited) != 2:
            return "statement unreadable"
        (old, row, _), (new, _, _) = cited
        if any(v < 0 for v in row) and any(v > 0 for v in row):
            return "sign changes"
        if problem := _dates_problem(m, table):
            return problem
        subject = statement[: m.start()]
        if not _names_row(subject, claim["cells"][0]["row"]):
            return "subject does not name the row"
        if problem := _subject_problem(subject, table):
            return problem
        if new == 0 and (m.group(3) or m.group(1) in ("widened", "narrowed")):
            return "a change to zero by a percentage or a loss's size"  # "narrowed by 100.00%"
        if any(v < 0 for v in row) and not _size_reading_ok(subject):
            return "negative throughout, read by size"  # "EBITDA decreased" of (3,130) <- (4,044)
        if m.group(1) in ("widened", "narrowed") and not re.search(r"(?i)\bloss(?:es)?\b", subject):
            return "widened or narrowed, of no loss"
        if not per_share and m.group(3) is None and _WORD_SCALE[m.group(4) or ""] != scale:
            return "scale differs"
        grew = abs(new) > abs(old)
        said_grew = m.group(1) in ("increased", "widened")
        stated = _dec(m.group(2))
        if m.group(3) and not said_grew and stated > 100:
            return "a decrease of more than 100%"  # cannot be true: gives a refuted claim away
        if m.group(3):  # a percentage change, to two decimals
            if old == 0:
                return "no base"
            true = (abs(abs(new) - abs(old)) / abs(old) * 100).quantize(
                Decimal("0.01"), rounding=ROUND_HALF_UP
            )
        else:
            true = abs(abs(new) - abs(old))
        return stated == true and said_grew == grew and abs(new) != abs(old)
    if kind in ("share", "margin"):
        m = _SHARE.search(statement)
        if not m or len(cited) != 2:
            return "statement unreadable"
        (part, _, part_at), (whole, _, whole_at) = cited
        if part <= 0 or whole <= 0:
            return "not a share of a positive whole"
        if kind == "share" and part_at >= whole_at:
            return "the part is not above its total"
        true = (part / whole * 100).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
        if not Decimal(0) < true < 100:
            return "share outside (0, 100)"  # all of the whole: the other parts are zero
        return _dec(m.group(1)) == true
    return f"unknown kind {kind!r}"


def _subject_problem(subject: str, table: _RawTable) -> str | None:
    """What the claim's subject fails to say of its row, or None."""
    plain = re.sub(r"\([^()]*(?:\([^()]*\))?[^()]*\)", " ", subject)  # brackets aside
    if _unnamed_segment(plain.split("'s ", 1)[-1]):
        return "segment not named"  # "Segment sales": whose?
    if not _names_a_measure(subject):
        return "subject names no measure"
    if re.search(r"(?i)\bdeferred\s+(?:income\s+)?tax", table.title) and not re.search(
        r"(?i)\b(?:deferred|tax\w*)\b", subject
    ):
        return "subject names no measure"  # "Net operating loss carryforwards" of a tax table
    return None


def _cited_values_problem(claim: dict[str, Any], table: _RawTable) -> str | None:
    """For either label, each cited cell's figure as the builder read it must be this
    module's own reading of that cell: a refuted claim built on a misread cell (a tax
    effect read as the pre-tax amount) is wrong however its label falls."""
    for c in claim.get("cells") or []:
        got = _cell(table, c["row"], c["period"])
        if isinstance(got, str):
            return got
        try:
            given = Decimal(str(c["value"]))
        except (KeyError, InvalidOperation):
            return "cited figure not given"
        if given != got[0]:
            return "cited figure is not the cell's"
    return None


def self_check(claim: dict[str, Any], report: Path) -> CheckResult:
    """Does the claim's label agree with the cited cells, read again from the report file?"""
    [evidence] = claim["relevant_context"]
    table = _read_entry(report, str(evidence))
    if table is None:
        return CheckResult(False, "evidence entry not found")
    # a maturity schedule ("Remainder of 2024 | 2025 | ... | Thereafter") or any year after
    # the filing's (from the report's file name) is no period the report reports on
    filed = re.search(r"-((?:19|20)\d\d)-\d\d-\d\d_", report.name)
    late = filed and any(c["period"] > filed.group(1) for c in claim.get("cells") or [])
    if late or re.search(r"(?i)\bthereafter\b|\bremainder of\b", _clean(table.header)):
        return CheckResult(False, "not a reporting period")
    if problem := _span_problem(claim["statement"], table):
        return CheckResult(False, problem)
    basis = None if table.scale_stated else _report_basis(str(report))
    holds = _holds({**claim, "report_path": str(report)}, table, basis)
    if isinstance(holds, str):
        return CheckResult(False, holds)
    if problem := _period_problem(claim, table, str(report)):
        return CheckResult(False, problem)
    if holds != claim["entailment_label"]:
        return CheckResult(
            False, "entailed claim does not hold" if holds is False else "refuted claim holds"
        )
    if problem := _title_scope_problem(claim["statement"], table):
        return CheckResult(False, problem)
    if problem := _segment_name_problem(claim["statement"], str(report)):
        return CheckResult(False, problem)
    parent_lines = re.compile(
        r"(?i)^\W*(?:equity in\b.*\bof (?:the )?(?:bank )?subsidiar|"
        r"(?:cash )?dividends? (?:received )?from (?:the )?(?:bank )?subsidiar|"
        r"investments? in (?:the )?(?:bank )?subsidiar)"
    )
    owner = re.match(r"(.{2,60}?)['’]s ", claim["statement"])
    named = (
        (owner and "parent" in owner.group(1).lower())
        or re.search(r" for the parent company\b", claim["statement"])
    )  # "The parent company's ...", "... made up 2.69% of total liabilities for the parent company."
    if any(parent_lines.match(_clean(lb)) for lb, _ in table.rows) and not named:
        return CheckResult(False, "a parent company's own statement not named")
    lead = " ".join(_clean(ln) for ln in table.prose.splitlines()[-3:])
    if re.search(r"(?i)\bbalance\s+sheets?\b", lead) and re.search(
        r"(?i)\b(?:included|classified|recorded|reflected|presented)\b|\bclassification\b|\blocation\b",
        lead,
    ):
        return CheckResult(False, "rows are where the titled item sits in the balance sheet")
    if re.search(
        r"(?i)\baverage\s+(?:daily\s+)?(?:balances?|outstanding)\b", table.header
    ) and not re.search(r"(?i)\baverage\b", claim["statement"]):
        return CheckResult(False, "an average stated as a balance")  # "Savings decreased by ..."
    if _told_otherwise(claim, table, report, str(evidence)):
        return CheckResult(False, "another table shows the row with another figure")
    if problem := _cited_values_problem(claim, table):
        return CheckResult(False, problem)  # last: a misread cell is counted apart
    return CheckResult(True, "ok")


def _key(label: str) -> str:
    return " ".join(_MARK.sub("", _clean(label)).lower().split())


# entry, size, printed unit, lengths, whether its header says "average" (no rival then)
_Shown = tuple[str, Decimal, Decimal, frozenset[str], bool]


@functools.lru_cache(maxsize=8)
def _figures_by_row(path: str) -> dict[tuple[str, str], list[_Shown]]:
    """Every table row of the report, by this module's reader: (label, year) -> (entry id,
    size in the table's stated scale, the unit of its last printed digit, the header's
    period lengths)."""
    report = Path(path)
    stat = report.stat()
    out: dict[tuple[str, str], list[_Shown]] = {}
    for entry in _report_entries(path, stat.st_mtime_ns, stat.st_size):
        if "|" not in str(entry.get("context") or ""):
            continue
        table = _read_entry(report, str(entry.get("id")))
        if table is None or len(set(table.years)) != len(table.years):
            continue
        if re.search(
            r"(?i)%\s*of\b|\bpercent(?:age)?s?\s+of\b|\bas\s+a\s+(?:%|percent)", table.header
        ):
            continue  # "% of net sales | 2024 | 2023": 0.9 is no rival to $77,386 thousand
        lengths = _table_lengths(table)
        # "Average Balance | Interest | Yield": averages over the year, no rival to a balance
        average = bool(re.search(r"(?i)\baverage\b", table.header))
        if _PART.search(" ".join(_captions(table.prose)) + " " + table.header):
            continue  # a segment's, a pro forma or a subsidiary's figures: no rival to the group's
        for i, (label, figures) in enumerate(table.rows):
            if table.layout is None:
                pairs = list(zip(table.years, figures, strict=False))
            else:  # other columns among the years: by position, if the row can be read
                values = _row_values(table, i)
                pairs = [] if isinstance(values, str) else list(values.items())
            for year, value in pairs:
                digit = Decimal(1).scaleb(int(value.as_tuple().exponent)) * table.scale
                out.setdefault((_key(label), year), []).append(
                    (str(entry.get("id")), abs(value) * table.scale, digit, lengths, average)
                )
    return out


# a table that says it holds part of the group or another basis
_PART = re.compile(
    r"(?i)\bsegments?\b|\bpro\s+forma\b|(?<!and )(?<!its )\bsubsidiar(?:y|ies)\b|\binvestees?\b|"
    r"\bjoint\s+ventures?\b|\bsame\s+store\b|\bparent\b"
)


def _alike(a: tuple[Decimal, Decimal], b: tuple[Decimal, Decimal]) -> bool:
    """Two (size, printed unit) the same figure up to the coarser print's last digit, also
    across a scale a table lost ("93,712" and "93.7 million")."""
    for k in (Decimal(1), Decimal(10**3), Decimal(10**6), Decimal(10**9)):
        for (x, ux), (y, uy) in ((a, (b[0] * k, b[1] * k)), ((a[0] * k, a[1] * k), b)):
            if abs(x - y) <= max(ux, uy):
                return True
    return False


def _told_otherwise(claim: dict[str, Any], table: _RawTable, report: Path, evidence: str) -> bool:
    """Does another table of the report show a cited row's label for the same year and period
    length with another figure, while the claim names no scope its own table states (a
    subsidiary's or segment's "Net loss" said as the company's)?"""
    owner = re.match(r"(.{2,60}?)['’]s ", claim["statement"])
    if owner:
        words = set(re.findall(r"[a-z0-9]+", owner.group(1).lower())) - {
            "the", "segment", "company", "s",
        }  # fmt: skip
        said = " ".join((table.prose[-600:] + " " + table.header).lower().split())
        if words and all(w in said for w in words):
            return False  # "Alterola's", "the parent company's": its table says whose
    mine = _table_lengths(table)
    index = _figures_by_row(str(report))
    for c in claim.get("cells") or []:
        rows = index.get((_key(c["row"]), c["period"]), [])
        here = [(v, u) for e, v, u, _, _ in rows if e == evidence]
        for e, v, u, lengths, average in rows:
            # an unstated length ("| 2023 | 2022 |" in a 10-K) may be a year's; a dash (0)
            # is no figure to disagree with
            same = _comparable(lengths, mine) and not average
            if e != evidence and same and here and here[0][0] and v and not _alike(here[0], (v, u)):
                return True
    return False
