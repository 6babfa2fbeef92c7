"""How a built FinDVer claim names its row: the section heading it sits in, what the row
measures, whose figures the table holds (and whether another table shows its label with
another figure), and the name of a row shown negative throughout
("Net income (loss)" at a loss is "Net loss"). Split out of ``build``; ``table_facts`` (table reading)
and ``build`` (claim making) import these names from here.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from finprobe.benchmarks.findver.table_facts import Cell, Row, TableFacts


FOOTNOTE = re.compile(
    r"(?:\s*(?:\((?:\d{1,2}|[a-z]|\*+)\)|\*+))+\s*$"
)  # "Deposits (2)", "Aggregate carrying value (1) (2)": footnote marks


TOTAL = re.compile(r"(?i)^total\b|\btotal\s*$")


GENERIC_LABEL = re.compile(
    r"(?i)(?:total|totals|other|others|all other|other, net|subtotal|net|corporate|"
    r"eliminations?|adjustments?|balance)"
)


PROSE_SCALE = re.compile(r"(?i)\((?:amounts |dollars |\$ )?in (?:thousands|millions|billions)\b")


LOSS = re.compile(r"(?i)\bloss(?:es)?\b")


# measures that are signed by nature (a negative EBITDA or net change in cash is not a
# cost): shown negative throughout, their size is not what "increased" speaks of
SIGNED_MEASURE = re.compile(
    r"(?i)\b(?:income(?!\s+tax)|earnings|profit|ebitda|ebit|comprehensive|"
    r"net\s+(?:change|increase|decrease)|provided)\b"
)


EXPENSE = re.compile(r"(?i)\b(?:expenses?|costs?|charges?)\b")


def signed_label(label: str) -> bool:
    """The label's head metric (before a comma or parenthesis) is a signed measure, not a
    loss or an expense: "Interest expense, net of interest income" and "Profit sharing
    expense" are costs."""
    head = re.split(r"[,(]", label, maxsplit=1)[0]
    return bool(SIGNED_MEASURE.search(head) and not EXPENSE.search(head) and not LOSS.search(label))


# words that say what a figure measures; a label in capitals without one ("Brand
# Tripadvisor", "Variable Prepaid Forward", "Gaylord Texan") names a segment, a property
# or an instrument, and a claim on it must take its measure from a heading
MEASURE = re.compile(
    r"(?i)\b(?:revenues?|sales|income|expenses?|costs?|profits?|loss(?:es)?|gains?|assets?|"
    r"liabilit(?:y|ies)|cash|debt|equity|margins?|ebitda|oibda|ebit|fees?|tax(?:es)?|"
    r"payables?|receivables?|inventor(?:y|ies)|goodwill|depreciation|amorti[sz]ation|"
    r"compensation|interest|dividends?|capital|reserves?|allowances?|deficit|earnings|"
    r"balances?|values?|prices?|shares|stock|units|borrowings?|notes|loans?|deposits?|"
    r"investments?|property|properties|equipment|obligations?|payments?|proceeds|"
    r"expenditures?|charges?|benefits?|rent|royalt(?:y|ies)|premiums?|claims|contributions?|"
    r"distributions?|provisions?|wages|salaries|payroll|"
    r"advertising|marketing|research|development|insurance|leases?|commissions?|"
    r"impairments?|write-?\w+|purchases?|acquisitions?|repurchases?|bookings|backlog|"
    r"securities|contracts?|intangibles?|buildings?|land|improvements|furniture|"
    r"construction|fund(?:s|ing)?|spending|outlays?|eps|per\s+share|s?g&a|r&d|s&m|"
    r"administrative|due\s+(?:to|from)|credit|"
    r"net|total|comprehensive|financing|investing)\b"
)


DEFERRED_TAX = re.compile(r"(?i)\bdeferred\s+(?:income\s+)?tax")


# "Segment sales (a)"; "Total segment operating income" sums all segments: named
_SEGMENT_ROW = re.compile(r"(?i)^segments?\b")


_SMALL_WORDS = {"and", "of", "the", "for", "from", "with", "in", "on", "to", "at", "by", "a"}


def proper_name(label: str) -> bool:
    """Every word capitalised ("Brand Tripadvisor", "$ 500 M Term Loan B"): a name."""
    words = [w for w in re.findall(r"[A-Za-z][\w’'&.-]*", label) if w.lower() not in _SMALL_WORDS]
    return bool(words) and all(w[0].isupper() for w in words)


def row_needs(label: str, caption: str, scope: str) -> str:
    """What the label leaves unsaid that the claim must say (see ``Row.needs``)."""
    plain = re.sub(r"(?i)^total\s+", "", label)
    if _SEGMENT_ROW.match(label) and not scope:
        return "segment"
    if DEFERRED_TAX.search(caption) and not re.search(r"(?i)\b(?:deferred|tax(?:es)?)\b", label):
        return "deferred tax"  # "Net operating loss carryforwards": the tax asset on them
    if not MEASURE.search(plain):
        # "Viator", "Other specialty" (net written premiums by line, the measure in the
        # lead-in and the header only), "Video services" (revenue by service)
        return "measure"
    if _OVER_A_SPAN.search(caption) and not MEASURE.search(_ASSET_CLASS.sub(" ", plain)):
        # "Other assets", "Operating lease assets" under "Asset Categories | Fiscal Years
        # Ended": an impairment (or additions) by asset class, said as if the balance
        return "asset class"
    return ""


_OVER_A_SPAN = re.compile(r"(?i)\b(?:years?|months|weeks|quarters?)\s+ended\b")
_ASSET_CLASS = re.compile(
    r"(?i)\b(?:assets?|equipment|improvements?|property|properties|land|buildings?|"
    r"furniture|fixtures|leasehold|software|vehicles|machinery|right-of-use|operating|leases?|"
    r"finance|intangibles?|goodwill|computer|office|construction|net|total|other)\b"
)


# a table introduced as one segment's or the parent company's figures ("The following table
# presents summary financial data for our B2B segment:", "Condensed Parent Only Cash Flows")
_SEGMENT_INTRO = re.compile(
    r"\b(?:for|of)\s+(?:our|the|its)\s+((?:[A-Z0-9][\w&.'’-]*\s+){1,4})segment\b"
    r"|^\s*((?:[A-Z0-9][\w&.'’-]*\s+){1,4})Segment Results\s*$",
    re.M,
)


_SEGMENT_TITLE = re.compile(r"\b([A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*)?)\s+Segment\b(?!s)")


# words that describe segments rather than name one: "Single Reportable Segment",
# "Business Segment Information", "Each Segment", "Geographic Segment Data"
_GENERIC_SEGMENT_WORDS = {
    "reportable", "operating", "business", "geographic", "geographical", "single", "each",
    "total", "one", "our", "other", "all", "information", "data", "reporting", "results",
    "the", "a", "an", "by", "per", "significant", "primary", "principal", "two", "three",
    "four", "multiple", "combined", "consolidated", "new", "sole", "selected", "summary",
    "summarized",
}  # fmt: skip
_SEGMENT_TOPIC = re.compile(r"(?i)^\s*(?:information|data|reporting|results|disclosures?)\b")


def generic_segment(name: str) -> bool:
    """Does a capitalised name before "Segment" describe segments ("Single Reportable",
    "Business", "Each") rather than name one ("Delta Group", "Americas RAC")?"""
    words = re.findall(r"[a-z]+", name.lower())
    return (
        not words
        or any(w in _GENERIC_SEGMENT_WORDS for w in words)
        or bool(GENERIC_LABEL.fullmatch(name))
    )


_PARENT_ONLY = re.compile(r"(?i)\bparent(?:\s+holding)?\s+(?:company\s+)?only\b")


# another entity's summarised statements: "Following is summary financial information for
# ProGold LLC:" (an investee), "summarized balance sheet information for Alterola", "...
# summarized financial information ... for the non-wholly owned subsidiary", "VIE's
# Summarized Consolidated Balance Sheet"; keywords in any case, a name in capitals
_OTHER_ENTITY = re.compile(
    r"(?i:\bsummar(?:y|ized|ised)\s+(?:(?:consolidated|condensed|unaudited)\s+)*(?:financial\s+)?"
    r"(?:information|data|balance\s+sheets?(?:\s+information)?|statements?(?:\s+of\s+\w+)?|results)"
    r"(?:\s+[\w-]+){0,4}?\s+(?:for|of)\s+)"
    r"(?:(?P<sub>(?i:the\s+(?:[\w-]+\s+){0,3}?(?:subsidiar(?:y|ies)|joint\s+ventures?|investees?)))"
    r"|(?!(?:The\s+)?Company\b)(?P<name>[A-Z][\w&.'’-]*(?:\s+[A-Z][\w&.'’-]*){0,3}))"
    r"|\b(?:[Tt]he\s+)?(?P<vie>VIE)[’']s\s+summari[sz]ed"
)


# figures of part of the business left unnamed: "operations outside of its property and
# casualty insurance segment"
# ... or of investees the table does not name: "summarized statements of operations
# information for our unconsolidated investments in real estate ventures"
PART_OF_BUSINESS = re.compile(
    r"(?i)\boutside\s+(?:of\s+)?(?:its|our|the)\b[^.:]{0,80}\bsegments?\b"
    r"|\bsummar\w*\b[^.:]{0,80}\b(?:for|of)\s+(?:our|its|the)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:unconsolidated|equity[- ]method|joint\s+ventures?|investees?|affiliates?)\b"
)


# a table of where the titled item sits in the balance sheet ("Marketable equity securities
# ... are included in the accompanying condensed consolidated balance sheets as shown below";
# "... and related balance sheet classification of the Company's hedge contracts"): its rows
# ("Current assets | 5.0") are classifications, the measure is in the title only
CLASSIFIED = re.compile(
    r"(?i)\b(?:included|classified|recorded|reflected|presented)\s+(?:with)?in\s+(?:the\s+)?"
    r"(?:accompanying\s+)?(?:condensed\s+)?(?:consolidated\s+)?balance\s+sheets?\b"
    r"|\bbalance\s+sheet\s+(?:classification|location|line\s+items?)\b"
)


# a line only a parent company's own statements show: "Equity in undistributed income of
# subsidiaries", "Dividends received from subsidiaries", "Investment in bank subsidiary"
# (CASS's condensed statement of income, whose title does not say "parent")
PARENT_ROW = re.compile(
    r"(?i)^\W*(?:equity\s+in\s+(?:the\s+)?(?:undistributed\s+|net\s+)*(?:income|earnings|"
    r"loss(?:es)?|\(loss\)|income\s*\(loss\))[^|]{0,30}?\s+of\s+(?:the\s+)?(?:bank\s+)?subsidiar"
    r"|(?:cash\s+)?dividends?\s+(?:received\s+)?from\s+(?:the\s+)?(?:bank\s+)?subsidiar"
    r"|investments?\s+in\s+(?:the\s+)?(?:bank\s+)?subsidiar)"
)


def table_scope(pre_text: str) -> str:
    """Whose figures the table holds, when its title or lead-in sentence (the last lines
    before it) says: "the B2B segment", "the parent company", "Alterola"; "" for the group's
    own or unstated (a segment named earlier in the prose says nothing of the table)."""
    lines = [line.strip() for line in pre_text.splitlines() if line.strip()]
    if _PARENT_ONLY.search("\n".join(lines[-4:])):
        return "the parent company"
    lead = "\n".join(lines[-2:])
    if m := _OTHER_ENTITY.search(lead):  # not the filer's figures
        if m.group("vie"):
            return "the VIE"
        return m.group("name").strip() if m.group("name") else m.group("sub").lower()
    # "RESULTS OF OPERATIONS ... BY SEGMENT" over "Americas RAC": that segment's table
    if (
        len(lines) >= 2
        and re.search(r"(?i)\bby\s+segments?\b", lines[-2])
        and 0 < len(lines[-1].split()) <= 4
        and proper_name(lines[-1])
    ):
        return f"the {lines[-1]} segment"
    # a title naming one segment throughout ("Reconciliation of ... Delta Group Segment Gross
    # Margin and Delta Group Segment Operating Income to ...")
    titled = {
        m.group(1)
        for ln in lines[-3:]
        for m in _SEGMENT_TITLE.finditer(ln)
        if not _SEGMENT_TOPIC.search(ln[m.end() :][:20])  # "Segment Information": a topic
    }
    if len(titled) == 1 and not generic_segment(name := titled.pop()):
        return f"the {name} segment"
    found = [(m.group(1) or m.group(2)).strip() for m in _SEGMENT_INTRO.finditer(lead)]
    mentions = re.findall(r"(?i)\bsegments?\b", lead)
    names = set(found)
    if len(names) == 1 and len(found) == len(mentions):  # every "segment" is that one segment
        name = names.pop()
        if not generic_segment(name):
            return f"the {name} segment"
    return ""


def result_line(label: str) -> bool:
    """ "Net income (loss)", "Income before income taxes", "Comprehensive income", "Net
    decrease in cash": a result of the lines above, not "Net income attributable to
    noncontrolling interests"."""
    plain = _OR_INCOME.sub("", _OR_LOSS.sub("", FOOTNOTE.sub("", label))).strip()
    return bool(_RESULT.match(plain) or _BEFORE.match(plain) or _CASH_CHANGE.match(plain))


_BEFORE = re.compile(r"(?i)^(?:income|earnings|profit|loss)\s+before\b")  # "... interest and taxes"


def repeats_title(label: str, title: str) -> bool:
    """Is the label (two words or more) the table's title or part of it?"""
    words = label.lower().split()
    return len(words) >= 2 and " ".join(words) in " ".join(title.lower().split())


def _is_heading(table: Any, r: int) -> bool:
    """A body row that only names what follows; a row that shows "$" beside empty figure
    cells ("Accounts Payable | $ | | $ |") is a row whose figures are missing, not a heading."""
    values = table.cells[r][table.header_cols :]
    return table.is_body_heading(r) and not any("$" in str(x) for x in values)


def section_heading(table: Any, r: int) -> str:
    """The body heading of the section row r sits in, without its colon; "" if none.

    A section ends at its total ("Current assets:" ... "Total current assets"), or at a
    subtotal without a label: the rows below it ("Intangible assets, net", "Net loss")
    are not in that section. A heading in capitals right under the header ("COMPREHENSIVE
    INCOME") is the table's title, which names no section. A result line ("Income before
    income taxes", "Net income", "Comprehensive income") is in no section and ends the one
    above it even without a total (TNET: "Other income (expense):" ... "Interest income",
    then "Income before provision for income taxes")."""
    if result_line(table.row_label(r)):
        return ""
    for i in range(r - 1, table.header_rows - 1, -1):
        if _is_heading(table, i):
            if _closes_more(table, r, i):
                return ""  # RHP: "Net lease cost" sums operating and finance lease cost
            text = FOOTNOTE.sub("", table.row_label(i)).strip().rstrip(":").strip()
            if PROSE_SCALE.search(text) or text.startswith("("):
                return ""  # "(in millions, except for percentages)": a caption, not a heading
            if i == table.header_rows and text.isupper():
                return ""
            return text  # as written: headings often start with a name ("Corsair Gaming, Inc. ...")
        label = FOOTNOTE.sub("", table.row_label(i)).strip(" \u200b")
        figures = any(re.search(r"\d", str(x)) for x in table.cells[i][table.header_cols :])
        if figures and (not label or TOTAL.search(label) or result_line(label)):
            return ""
    return ""


def _column_sum(table: Any, rows: range, c: int) -> Decimal:
    total = Decimal(0)
    for i in rows:
        got = table.number(i, c)
        if got is not None and not _is_heading(table, i):
            total += got.value
    return total


def _closes_more(table: Any, r: int, heading: int) -> bool:
    """Is row r the total of every row above it, not of the block under `heading`? Then it
    closes the whole table ("Operating lease cost", "Finance lease cost:", its two lines,
    then "Net lease cost"): the sub-block's header is not its name."""
    if heading + 1 >= r:
        return False
    for c in range(table.header_cols, len(table.cells[r])):
        own = table.number(r, c)
        if own is None:
            continue
        block = _column_sum(table, range(heading + 1, r), c)
        above = _column_sum(table, range(table.header_rows, r), c)
        near = max(Decimal(1), abs(own.value) * Decimal("0.0005"))  # rounding in the table
        return abs(above - own.value) <= near and abs(block - own.value) > near and above != block
    return False


# A row shown negative in both periods, named as an analyst names it: a result measure
# at a loss is that loss ("Net income (loss)" -> "Net loss", which narrows or widens), a
# cash flow "provided by (used in)" is cash used, a net change in cash is a decrease.
_OR_LOSS = re.compile(r"(?i)\s*(?:\(\s*loss(?:es)?\s*\)|/\s*\(?\s*loss\s*\)?)")


_OR_INCOME = re.compile(r"(?i)\s*\(\s*(?:income|earnings|profit)\s*\)")


_RESULT = re.compile(
    r"(?i)^(?:total\s+)?(?:net\s+)?(?:operating\s+)?(?:(?:other\s+)?comprehensive\s+)?"
    r"(?P<measure>income|earnings|profit|loss)"
    r"(?:\s+(?:from\s+(?:continuing\s+|discontinued\s+)?operations"
    r"|before\s+(?:provision\s+for\s+)?income\s+tax(?:es)?))?"
    r"(?:,?\s+net\s+of\s+(?:income\s+)?tax(?:es)?)?"
    r"(?:\s+attributable\s+to\s+(?:common\s+)?(?:stock|share)holders)?$"
)


_CASH_PROVIDED = re.compile(
    r"(?i)(?<=cash\s)\s*(?:provided\s+by\s*(?:\(\s*used\s+(?:in|for)\s*\)|/\s*\(?\s*used\s+(?:in|for)\s*\)?)?"
    r"|provided\s*\(\s*used\s*\)\s*(?:by|in)"  # "provided (used) by"
    r"|\(\s*used\s+(?:in|for)\s*\)\s*provided\s+by)(?=\s)"
)


# what a row shown negative in both periods may be named by its size: an expense, a cost,
# a loss or an outflow; anything else (a receivable's change, "Free cash flow", "Working
# capital", "Investing activities" under a signed heading) has no safe size reading
_OUTFLOW_NAME = re.compile(
    r"(?i)\b(?:loss(?:es)?|expenses?|costs?|charges?|used\s+(?:in|for)|(?:re)?paid|payments?|"
    r"repurchased|redeemed|"
    r"purchases?|acquisitions?|outflows?|deficit|impairments?|amorti[sz]ation|depreciation|"
    r"allowances?|dividends?|distributions?|repurchases?|repayments?|redemptions?|"
    r"withdrawals?|treasury|deductions?|write-?(?:offs?|downs?)|capital\s+expenditures?)\b"
)


# a label that names its own opposite or a signed quantity: "Income tax benefit (expense)",
# "Gain (loss)", "Change in fair value", "Free cash flow", "Cash flows from ..."
_NOT_A_SIZE = re.compile(
    r"(?i)\(\s*(?:expenses?|costs?|charges?|used)\s*\)|\bbenefits?\b|\bgains?\b|"
    r"\bchanges?\s+in\b|\bcash\s+flows?\b|\bworking\s+capital\b|\bprovided\b"
)


_CASH_CHANGE = re.compile(
    r"(?i)^net\s+(?P<word>change|increase\s*\(\s*decrease\s*\)|\(\s*decrease\s*\)\s*increase"
    r"|increase\s*/\s*\(?\s*decrease\s*\)?|decrease)(?=\s+in\s+cash\b)"
)


# a cash-flow row whose only direction word is an outflow: "Net cash used in financing
# activities", "Net cash (used in) investing activities", "Cash flows used in ..."; a
# two-way label ("provided by (used in)", "(used in) provided by") is not one
_CASH_USED = re.compile(r"(?i)^(?:net\s+)?cash(?:\s+flows?)?\s+\(?\s*used\s+(?:in|for)\b")
_INFLOW_WORD = re.compile(r"(?i)\b(?:provided|generated|received|inflows?|sources?)\b")
_USED_BRACKETS = re.compile(r"(?i)\(\s*(used\s+(?:in|for))\s*\)")


def cash_used_label(label: str) -> bool:
    """Does the label name cash going out, and only that? Then a negative figure on it is
    the size of the cash used, under the row's own word, whatever heading it sits under."""
    return bool(_CASH_USED.match(label)) and not _INFLOW_WORD.search(label)


def _same_case(word: str, like: str) -> str:
    return word.upper() if like.isupper() else word.capitalize() if like[0].isupper() else word


def negative_name(label: str) -> tuple[str, bool] | None:
    """(the row's name for its negative amount, whether that amount is a loss), for a row
    shown negative in both periods whose size an analyst speaks of; None if no such name.
    "Net income (loss)" -> ("Net loss", True); "Net cash provided by (used in) investing
    activities" -> ("Net cash used in investing activities", False); "Net change in cash"
    -> ("Net decrease in cash", False); "Cost of revenue" (no signed measure) -> itself."""
    if cash_used_label(label):  # "Net cash (used in) investing activities": used, by size
        return _USED_BRACKETS.sub(r"\1", label), False
    plain = _OR_INCOME.sub("", _OR_LOSS.sub("", label)).strip()
    if m := _RESULT.match(plain):
        head, tail = plain[: m.start("measure")], plain[m.end("measure") :]
        return head + _same_case("loss", m.group("measure")) + tail, True
    provided = _CASH_PROVIDED.search(label)
    if provided and re.match(r"(?i)(?:net\s+)?cash\b", label):
        used = _same_case("used in", provided.group().strip())
        return label[: provided.start()] + used + label[provided.end() :], False
    if m := _CASH_CHANGE.match(label):
        word = _same_case("decrease", m.group("word"))
        return label[: m.start("word")] + word + label[m.end("word") :], False
    if signed_label(label) or _OR_LOSS.search(label) or _OR_INCOME.search(label):
        return None  # a negative EBITDA, other income, "gains (losses)": no name for its size
    if _NOT_A_SIZE.search(label) or not _OUTFLOW_NAME.search(label):
        return None  # not named as a cost, loss or outflow: no safe size reading
    return label, False  # an expense, a cost or an outflow already named as one


def _signed_heading(heading: str) -> bool:
    """A body heading that carries a signed measure ("Net cash provided by (used in)",
    "Operating income (loss)", "Changes in operating assets and liabilities"): the rows
    under it are signed amounts, whatever their own short labels say."""
    return bool(
        SIGNED_MEASURE.search(heading)
        or _OR_LOSS.search(heading)
        or _OR_INCOME.search(heading)
        or _NOT_A_SIZE.search(heading)
    )


# a cash payment named as one ("Payments on the Term Loan", "Payment of deferred financing
# fees", "Long-term debt repaid or repurchased", "Dividends paid"): an outflow under a
# signed heading ("Cash flows from financing activities:") is still an outflow, said by its
# size, never "was negative $4,063 thousand"
_PAID_OUT = re.compile(
    r"(?i)^(?:(?:re)?payments?|purchases?|repurchases?|redemptions?|distributions?|"
    r"dividends?|acquisitions?|withdrawals?)\s+(?:of|on|for|to|under)\b"
    r"|(?<![-\w])(?:paid|repaid|repurchased|redeemed)\b(?!-)"
)  # not "Additional paid-in capital", "Pre-paid expenses"
_INFLOW = re.compile(r"(?i)^\W*proceeds\b")  # "Proceeds from notes repaid by customers": cash in


def row_negative_name(row: Row) -> tuple[str, bool] | None:
    """``negative_name`` of the row, read with its heading: under a signed heading only a
    label that itself names an expense or a loss keeps its size reading."""
    signed_heading = bool(row.heading) and _signed_heading(row.heading)
    own_word = (
        EXPENSE.search(row.label)
        or LOSS.search(row.label)
        or cash_used_label(row.label)
        or (_PAID_OUT.search(row.label) and not _INFLOW.match(row.label))
    )
    if signed_heading and not own_word:
        return None
    return negative_name(row.label)


# a row whose own label names what is owed or spent: a figure in parentheses on it is that
# item's size in the table's sign convention ("Deferred tax liabilities, net | (2,708,887)"
# is a net liability of 2,708,887), never "negative"
_OWED_OR_SPENT = re.compile(r"(?i)\b(?:liabilit(?:y|ies)|payables?|loss(?:es)?|expenses?|costs?)\b")
# ... unless the label also names the other side ("Net deferred tax assets (liabilities)",
# "Total other income (expense)", "Deferred expense (benefit)"): then neither reading is safe
_OTHER_SIDE = re.compile(
    r"(?i)\b(?:assets?|receivables?|benefits?|income|earnings|gains?|profits?|credits?|"
    r"revenues?|recover(?:y|ies)|refunds?)\b"
)


_OWED_HEADING = re.compile(r"(?i)\b(?:liabilit(?:y|ies)|payables?)\b")


def owed_sign(row: Row) -> str | None:
    """How a negative figure is said on a row whose own label names a liability, loss,
    expense, cost or payable: "size" when the label names only that side and the row is
    negative throughout under no signed heading; "none" (no claim) otherwise; None when the
    label names none of them."""
    signed_heading = bool(row.heading) and _signed_heading(row.heading)
    # a plain heading that names a liability names the row's side too: "Property and
    # equipment" under "Deferred tax liabilities:"; not "Adjustments to reconcile net loss"
    owed_heading = not signed_heading and bool(_OWED_HEADING.search(row.heading or ""))
    if not (_OWED_OR_SPENT.search(row.label) or owed_heading):
        return None
    named = f"{row.label} {row.heading}" if owed_heading else row.label
    if any(c.value > 0 for c in row.cells.values()) or _OTHER_SIDE.search(named):
        return "none"
    if signed_heading or signed_label(row.label) or _NOT_A_SIZE.search(row.label):
        return "none"  # "Accounts payable" under "Changes in operating assets and liabilities"
    if re.search(r"(?i)\b(?:increases?|decreases?)\b", row.label):
        return "none"  # "Increase (decrease) in accrued liabilities": a change, signed
    return "size"


# the cash-flow statement's reconciliation, from net income (loss) to the operating cash
# total: a line's sign there is the adjustment's direction, not the item's ("Waiver of amount
# due to a related party | (210,000)" is a $210,000 gain deducted, not a negative waiver)
_NET_RESULT = re.compile(r"(?i)^net\s+\(?(?:income|loss|earnings|profit)\b")
_OPERATING_CASH = re.compile(r"(?i)^(?:net\s+)?cash\b.*\boperating\s+activities\b")
# a block or row whose income shows in parentheses ("Other (income) expense"): a negative
# there is income, not a negative item
_INCOME_IN_PARENS = re.compile(
    r"(?i)\((?:income|gains?|earnings)\)|\bexpenses?\s*\((?:income|gains?)\)"
)


def reconciling_lines(labels: list[str]) -> range:
    """The table rows strictly between the first net income (loss) row and the operating
    cash total after it; an empty range where the table has no such pair."""
    start = next((i for i, lb in enumerate(labels) if _NET_RESULT.match(lb.strip())), None)
    if start is None:
        return range(0)
    for end in range(start + 1, len(labels)):
        if _OPERATING_CASH.match(labels[end].strip()):
            return range(start + 1, end)
    return range(0)


def income_in_parens(row: Row) -> bool:
    """Does the row's label or heading show income in parentheses ("Other (income) expense")?"""
    return bool(_INCOME_IN_PARENS.search(row.label) or _INCOME_IN_PARENS.search(row.heading))


def direction_word(loss: bool, grew: bool) -> str:
    if loss:
        return "widened" if grew else "narrowed"
    return "increased" if grew else "decreased"


OPPOSITE = {
    "increased": "decreased",
    "decreased": "increased",
    "widened": "narrowed",
    "narrowed": "widened",
}


def _same_figure(a: tuple[Decimal, Decimal], b: tuple[Decimal, Decimal]) -> bool:
    """Two (size, printed unit) pairs the same figure up to the coarser one's rounding, also
    across scales (93,712 thousand and 93.7 million) or a lost caption (93,712 and 93,712
    thousand): 10,512,157 and 10,418,840 are two figures."""
    for k in (Decimal(1), Decimal(1000), Decimal(1_000_000), Decimal(1_000_000_000)):
        for (x, ux), (y, uy) in (((a[0], a[1]), (b[0] * k, b[1] * k)), ((a[0] * k, a[1] * k), b)):
            if abs(x - y) <= max(ux, uy):  # a unit: COLM prints 333,163 thousand as 333.1 million
                return True
    return False


def mark_ambiguous(all_facts: list[TableFacts]) -> None:
    """A row whose label another table of the report shows with another figure for the same
    period and span (a subsidiary's "Net loss", a segment's "Total revenues" beside the
    group's) is ``ambiguous`` unless its own table names its scope: a claim on it cannot say
    whose figure it states. Tables with a named scope are no rival to the group's own."""

    def key(label: str) -> str:
        return " ".join(FOOTNOTE.sub("", label).lower().split())

    def span(f: TableFacts) -> str:  # its length: "ended December" and "December 30" alike
        if any(at.startswith("at ") for at in f.at.values()):
            return "balance"  # a balance is no rival to a year's flow (a working-capital change)
        return f.span.split(" ended")[0].replace("fiscal ", "").replace("quarter", "three months")

    def size(row: Row, cell: Cell) -> tuple[Decimal, Decimal]:
        return abs(cell.value) * row.scale, row.scale * Decimal(1).scaleb(-cell.decimals)

    shown: dict[tuple[str, str, str], list[tuple[str, tuple[Decimal, Decimal]]]] = {}
    for f in all_facts:
        if not f.scope and not f.average:  # averages over a year are no rival to a balance
            for row in f.rows.values():
                for period, cell in row.cells.items():
                    at = (key(row.label), period, span(f))
                    shown.setdefault(at, []).append((f.table_id, size(row, cell)))
    for f in all_facts:
        if f.scope:
            continue
        for row in f.rows.values():
            row.ambiguous = any(
                t != f.table_id and not _same_figure(size(row, cell), other)
                for period, cell in row.cells.items()
                for t, other in shown.get((key(row.label), period, span(f)), [])
            )


# "Changes in operating assets and liabilities:": the rows under it are changes, which a
# claim must say ("Accounts payable and accrued expenses increased by $125,194" reads as
# the balance sheet's)
CHANGES_HEADING = re.compile(r"(?i)^(?:net\s+)?(?:changes?\s+in|\(?increase\)?|\(?decrease\)?)\b")


CASH_TOTAL = re.compile(r"(?i)^(?:total\b|(?:net\s+)?cash\b)")  # a result, not a change line
