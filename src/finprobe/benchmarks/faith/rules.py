"""Hard rules on the solver's table candidates: what a blank can never be, whatever the weights.

The ranker (``ranker.py``) weighs how well a candidate fits; these rules say which
candidates may be ranked at all. Each rule keeps the candidates it allows, and only
when it allows at least one (a rule that would leave nothing says nothing). They hold
for any weights, hand-set or learned, so a refit cannot unlearn them:

- **unit kind**: a money blank is never a percentage, nor a row that says it counts
  (``Cell.counts``: number of shares, shares outstanding, weighted average shares, square
  feet, employees; "Dividends paid on common shares" is money); a per-share blank ("net
  income per diluted share was [MASK]", "[MASK] per share": the blank's own clause, never
  "as per our ...") is a per-share row;
- **the part of a whole**: "indebtedness was $1.9 billion, of which [MASK] was
  variable-rate": the blank's row carries the words that set the part apart from the
  whole ("variable", "rate"), not only the whole's ("indebtedness"); a place counts in any of
  its forms ("of which [MASK] related to our Canadian operations": the row "Canada");
- **a list's own item**: "[MASK] and $24.7 million of gross profit and net income,
  respectively", "oil, gas, and NGL revenues by $X, [MASK], and $Z", only when the list
  is read with confidence (``confident_list``): the blank's row is its own item ("Net
  sales" is "revenue", through the synonym table), failing that names its own item and no
  other; failing both, a row that names only another item is out;
- **named rows**: a row the blank's own clause names (its label or body heading, word for
  word, as a phrase, or through the synonym table: "revenue" names "Net sales") outranks
  every row it does not name; "net sales rose to [MASK], while royalty income rose to
  $20.0 million": royalty income is another clause's row. A clause that names no row
  ("..., while in 2022 it was [MASK]") leaves it to the rows the whole sentence names.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from functools import lru_cache

from finprobe.benchmarks.faith.cells import Cell, per_share_cell
from finprobe.benchmarks.faith.context import _REASON, Candidate, Context
from finprobe.benchmarks.faith.measures import named_base
from finprobe.benchmarks.faith.sensitivity import (
    confident_list,
    label_is_item,
    names_item,
    names_item_or_synonym,
)
from finprobe.benchmarks.faith.sentence import (
    NOT_A_NEW_SUBJECT,
    PARALLEL_CLAUSE_END,
    _tokens,
    places,
)
from finprobe.numbers import find_numbers

# the candidate kinds these rules judge (measure and what-if rules place themselves)
TABLE_KINDS = ("lookup", "change", "pct_change", "share", "ratio", "sum")
# features that say the sentence names a candidate's row (``Scorer.label_parts``)
NAMING_FEATURES = ("sentence_hits", "synonym_hits", "phrase_sentence", "heading_sentence")
_OF_WHICH = re.compile(r"\bof which\s*(?:approximately\s+|about\s+)?\$?\s*$", re.I)
_CLAUSE_END = re.compile(r"[;:]|,\s*(?:and|while|which|compared|as compared)\b|\.\s|\.$")
# words with no content: they set nothing apart
_FILLER = frozenset(
    _tokens(
        "the a an of to in on for and or with by as at from its our their was were is are be "
        "been had has have related relating attributable due under which this that these those"
    )
)


# a blank's clause that speaks of a rate, a margin or a share of a base
_SPEAKS_OF_A_RATE = re.compile(
    r"margin|percent(?:age)?\s+of|%\s+of|as\s+a\s+percent|basis\s+points?|\bbps\b|\brates?\b"
    r"|\bratios?\b|\bshare\b",
    re.I,
)
# a column of each row's share of a base: "% of Net Sales", "Percent of revenue"
_SHARE_OF_BASE_COLUMN = re.compile(r"%\s*of\b|percent(?:age)?\s+of\b|as\s+a\s+%", re.I)


def _share_of_base_move(c: Candidate) -> bool:
    """A move in points between two columns of shares of a base (a row's margin moving)."""
    return c.kind == "change" and all(
        cell.percent and _SHARE_OF_BASE_COLUMN.search(cell.col_text) for cell in c.cells
    )


# a figure of the sentence that states an amount or a rate ("$2.8 million", "10%"), not
# the "three" and "nine" of "three and nine months"
_FIGURE_UNITS = frozenset({"usd", "percent", "per_share"})


def _states_figure(c: Candidate, ctx: Context) -> bool:
    """The candidate is a money or percent figure the sentence states, to the digits it is
    written with ("10%" is 9.5 to 10.5, not 5 to 15; "$2.8 million" is 2.75 to 2.85 million)."""
    for anchor in ctx.anchors:
        if not anchor.units & _FIGURE_UNITS or ("percent" in anchor.units) != c.percent:
            continue
        decimals = re.search(r"\d[\d,]*(?:\.(\d+))?", anchor.text)
        if not decimals or not anchor.value:
            continue
        # half a unit of the last written digit, at the figure's scale ("million")
        half = anchor.scale * Decimal(1).scaleb(-len(decimals.group(1) or "")) / 2
        if abs(abs(c.value) - abs(anchor.value)) <= half:
            return True
    return False


def admissible(
    candidates: list[Candidate],
    ctx: Context,
    masked: str,
    listed: tuple[int, list[str]] | None = None,
    clause_rows: set[tuple[str, int]] | None = None,
) -> list[Candidate]:
    """The table candidates the hard rules allow (other kinds pass untouched).

    ``listed``: a parallel list's slot of the blank and its items (``_listed_items``).
    ``clause_rows``: the rows (table index, row) the blank's own clause names
    (``blank_clause``); None when the clause is the whole sentence.
    """
    rules: list[Callable[[Candidate], bool]] = []
    if ctx.wants_money:
        rules.append(lambda c: not c.percent and not any(cell.counts for cell in c.cells))
    elif ctx.wants_percent:
        # "as a percentage of net sales, it was [MASK]": a percentage is never a sum of money
        rules.append(lambda c: c.percent or not any(cell.amount for cell in c.cells))
    if "bps" in ctx.hint_units:
        # basis points measure a move between two rates (derived, or a change column's cell
        # in a rate row), never a rate's level nor a relative change of amounts: "gross
        # margin decreased [MASK]" is not sales' growth
        rules.append(
            lambda c: (
                all(cell.in_points for cell in c.cells)
                and (c.kind == "change" or c.kind == "lookup" and c.cells[0].change_column)
            )
        )
    elif not _SPEAKS_OF_A_RATE.search(blank_clause(masked) or masked):
        # "Operating income grew [MASK] to $37.6 million": the row's own growth, not the
        # move in points of its "% of Net Sales" column (its margin)
        rules.append(lambda c: not _share_of_base_move(c))
    if ctx.anchors and re.search(r"\brespectively\b", masked, re.I):
        # "[MASK] and $12.7 billion, respectively": each figure is its own slot's, so the
        # blank is never a figure the sentence states for another
        rules.append(lambda c: not _states_figure(c, ctx))
    if per_share_blank(ctx, masked):
        rules.append(lambda c: all(per_share_cell(cell) for cell in c.cells))
    elif ctx.wants_money and _PER_SHARE_TWIN.match(masked.partition("[MASK]")[2]):
        # "compared to [MASK], or $0.92 per diluted share": the amount, whose per-share
        # form the sentence writes beside it
        rules.append(lambda c: not any(per_share_cell(cell) for cell in c.cells))
    base = named_base(masked.partition("[MASK]")[2])
    if base and any(c.kind in ("share", "ratio") and _base_is(c, base) for c in candidates):
        # "[MASK] of total revenues": a share's base is the row the sentence names, not
        # "Cost of services / Services"
        rules.append(lambda c: c.kind not in ("share", "ratio") or _base_is(c, base))
    apart = part_words(masked)
    if apart:
        where = part_places(masked)  # "Canadian" is the row "Canada"
        rules.append(lambda c: all(_is_part(cell, apart, where) for cell in c.cells))
    if listed and confident_list(masked):
        slot, names = listed
        own, others = names[slot], [n for i, n in enumerate(names) if i != slot]

        def is_own(c: Candidate) -> bool:  # "Net sales" is the item "revenue"
            return all(
                label_is_item(label, own) and not any(label_is_item(label, n) for n in others)
                for label in _labels(c)
            )

        # synonyms widen only the own item: "profit" (a synonym of "income") does not
        # make "Gross profit (loss)" net income's row
        def names_own(c: Candidate) -> bool:
            return all(
                names_item_or_synonym(label, own) and not any(names_item(label, n) for n in others)
                for label in _labels(c)
            )

        def names_other_only(c: Candidate) -> bool:
            return any(
                not names_item_or_synonym(label, own) and any(names_item(label, n) for n in others)
                for label in _labels(c)
            )

        for binding in (is_own, names_own):
            if any(c.kind in TABLE_KINDS and binding(c) for c in candidates):
                rules.append(binding)
                break
        else:
            rules.append(lambda c: not names_other_only(c))
    governing = governing_label(masked, candidates)
    if governing:
        # "driven by a net loss of [MASK]": the row the words before the blank name
        # exactly, or a longer label that holds them, not "Operating activities"; unless
        # no such row has the blank's period (a discontinued operations table of earlier
        # years, a table of quarters): the name then is not enough
        def holds(c: Candidate) -> bool:
            # a share's base is another row: "cost of services was [MASK] of revenues"
            cells = c.cells[:1] if c.kind in ("share", "ratio") else c.cells
            return all(_holds_phrase(cell, governing) for cell in cells)

        if any(holds(c) and _fits_period(c) for c in candidates if c.kind in TABLE_KINDS):
            rules.append(holds)
    if not _NAMES_RATE_OR_VOLUME.search(masked):
        # "an increase in net interest income of [MASK]" is the net change, not the part
        # a rate/volume analysis puts down to volume or to rate
        rules.append(lambda c: not any(_rate_volume_part(cell) for cell in c.cells))
    activity = cash_flow_activity(masked)
    if activity:
        # "the increase in cash flows from financing activities": not the investing line
        rules.append(lambda c: all(_row_activity(cell) in ("", activity) for cell in c.cells))
    if clause_rows is not None:
        # a row named only in another clause is that clause's figure
        rules.append(lambda c: all((cell.table_index, cell.row) in clause_rows for cell in c.cells))
    rules.append(named_by_sentence)
    for allowed in rules:
        kept = [c for c in candidates if c.kind not in TABLE_KINDS or allowed(c)]
        if any(c.kind in TABLE_KINDS for c in kept):
            candidates = kept
    return candidates


def _base_is(c: Candidate, base: str) -> bool:
    """The share's denominator row is the named base: every word of its label is a word of
    the base or a synonym ("Total revenues", "Net sales" for "revenues"), so "Cost of
    revenues" and "Deferred revenue" are not. A table share is [part, base]
    (``context._pairwise``); the base is also read singular, as the synonyms are listed."""
    label = c.cells[-1].table.row_label(c.cells[-1].row)
    singular = re.sub(r"(?<=[a-z]{3})s$", "", base)
    return label_is_item(label, base) or label_is_item(label, singular)


# the words that lead straight to the blank: "a net loss of [MASK]", "interest expense,
# net was [MASK]", "net interest income totaled approximately [MASK]"
_LEADS_TO_BLANK = re.compile(
    r"((?:[\w&'’-]+[,\s]+){1,6}?)(?:of|was|were|totaled|totalled|amounted to)\s+"
    r"(?:approximately\s+|about\s+|roughly\s+|nearly\s+)?\[MASK\]",
    re.I,
)


# a word before which a noun phrase starts: "a net loss of", "in net interest income of";
# not "before" / "after" / "for" ("net interest income before provision for credit losses
# was [MASK]": "provision for credit losses" is part of a longer name) nor "and" (a list)
_PHRASE_STARTS_AFTER = frozenset({
    "a", "an", "the", "our", "its", "their", "of", "by", "in", "from", "with", "was", "were",
    "is", "are", "had", "has", "recorded", "reported", "recognized", "including", "included",
})  # fmt: skip


_PERIOD_MISSES = (
    "period_target_miss",
    "period_no_years",
    "period_length_miss",
    "change_years_miss",
)


def _fits_period(cand: Candidate) -> bool:
    return not any(cand.features.get(name, 0.0) > 0 for name in _PERIOD_MISSES)


@lru_cache(maxsize=8192)
def _label_forms(label: str, whole: bool = False) -> frozenset[tuple[str, ...]]:
    """A row label's tokens, and the forms it is also read as: "Net income (loss)" is "net
    income" and "net loss". ``whole``: also "Revenue, net" as "net revenue" (only as the
    whole label: "Loss on debt extinguishment, net" holds no "net loss")."""
    forms = {tuple(_tokens(label))}
    either = re.fullmatch(r"\s*(.+?)\s*\(([A-Za-z]+)\)\s*", label)
    if either:
        head, other = _tokens(either.group(1)), _tokens(either.group(2))
        forms.add(tuple(head))
        if head and other:
            forms.add((*head[:-1], *other))
    net_after = re.fullmatch(r"\s*(.+?),\s*net\s*", label, re.I)
    if whole and net_after:
        forms.add(("net", *_tokens(net_after.group(1))))
    return frozenset(forms)


def _holds_phrase(cell: Cell, phrase: tuple[str, ...]) -> bool:
    """The row's label (in any of its forms) has the phrase's words in a run ("Net loss
    attributable to ..." and "Net income (loss)" hold "net loss"; "Net interest income
    after provision for credit losses" does not), or is the phrase in a whole form."""
    label = cell.table.row_label(cell.row)
    n = len(phrase)
    return phrase in _label_forms(label, whole=True) or any(
        form[i : i + n] == phrase for form in _label_forms(label) for i in range(len(form) - n + 1)
    )


def governing_label(masked: str, candidates: list[Candidate]) -> tuple[str, ...] | None:
    """The words of a row label (two or more) that the text just before the blank ends
    with: the longest such ending that is some row's whole label and starts a noun phrase.
    None when there is none, or when the sentence is a "respectively" list (its last
    item leads to the figures, the blank may be another item's)."""
    match = _LEADS_TO_BLANK.search(masked)
    if not match or re.search(r"\brespectively\b", masked, re.I):
        return None
    labels = {
        form
        for c in candidates
        if c.kind in TABLE_KINDS
        for cell in c.cells
        for form in _label_forms(cell.table.row_label(cell.row), whole=True)
        if len(form) >= 2
    }
    words = match.group(1).split()
    lead = masked[: match.start(1)].rstrip()
    for k in range(len(words), 0, -1):
        if not _tokens(words[-k]):
            continue  # "by a net loss": the phrase starts at its first content word
        phrase = tuple(_tokens(" ".join(words[-k:])))
        if len(set(phrase)) < 2 or phrase not in labels:
            continue
        before = words[-k - 1] if k < len(words) else lead.split()[-1] if lead else ""
        if not before or before[-1] in ",;:•" or before.lower() in _PHRASE_STARTS_AFTER:
            return phrase
        return None  # the longest label ending is part of a longer name
    return None


# a rate/volume analysis (banks): "Increase (Decrease) Due to Change in: Volume | Rate |
# Net Change", "2023 compared to 2022: Volume | Rate | Total"; header cells run together
# in some filings ("AverageVolume")
_RATE_VOLUME_COLUMN = re.compile(
    r"(?:due\s*to|attributable|compared\s+(?:to|with)|\bvs\b|versus).*(?:volume|rate)\W*$",
    re.I | re.S,
)
# a sentence that gives a cause may mean its part: "higher average loan balances
# increased interest income by [MASK]", "higher oil production increased revenues by"
_NAMES_RATE_OR_VOLUME = re.compile(
    r"\b(?:volumes?|rates?|mix|yields?|prices?|pricing|production|shipments?|balances?|growth)\b",
    re.I,
)


def _rate_volume_part(cell: Cell) -> bool:
    return bool(_RATE_VOLUME_COLUMN.search(cell.table.column_label(cell.col)))


# the cash-flow activities a sentence or a row label names: "investing activities",
# "investing and financing activities", "operating, investing and financing activities"
_ACTIVITY = re.compile(
    r"\b((?:(?:operating|investing|financing)(?:,\s*|\s+)(?:and\s+|or\s+)?)+)activit", re.I
)
_ACTIVITY_WORD = re.compile(r"operating|investing|financing", re.I)


def cash_flow_activity(masked: str) -> str | None:
    """The one cash-flow activity the blank's own clause names ("net cash used in investing
    activities was [MASK]"), before any reason after the blank ("... due to proceeds from
    financing activities"); None when it names none or several."""
    text = blank_clause(masked) or masked
    reason = _REASON.search(text, text.find("[MASK]"))
    if reason:
        text = text[: reason.start()]
    return _one_activity(_ACTIVITY.finditer(text))


def _row_activity(cell: Cell) -> str:
    """The activity a row names ("Net cash used in investing activities"); "" for none or
    several."""
    match = _ACTIVITY.search(cell.table.row_label(cell.row))
    return _one_activity([match] if match else []) or ""


def _one_activity(matches: Iterable[re.Match[str]]) -> str | None:
    """The activity the ``_ACTIVITY`` matches name, if they name exactly one."""
    named = {w.lower() for m in matches for w in _ACTIVITY_WORD.findall(m.group(1))}
    return named.pop() if len(named) == 1 else None


def _labels(cand: Candidate) -> set[str]:
    return {cell.table.row_label(cell.row) for cell in cand.cells}


def named_by_sentence(cand: Candidate) -> bool:
    return any(cand.features.get(name, 0.0) > 0 for name in NAMING_FEATURES)


# where the blank's own clause ends for naming: another subject's clause ("..., while
# royalty income rose to $20.0 million") or a bulleted item. Not ", compared with" nor
# ", which" (their subject is the noun before them: "Revenues from software, which are
# reported in our Document segment, decreased by [MASK]"), nor a full stop ("U.S. sales").
_NAMING_CLAUSE_END = re.compile(
    r";|:|•|,\s*(?:and|but|while|whereas|although|though)\b|\s(?:while|whereas)\s",
    re.I,
)


def blank_clause(masked: str, listed: bool = False) -> str | None:
    """The blank's own clause ("[MASK]" kept), or None when it is the whole sentence or
    the sentence is a list (its items span clauses: "oil, gas, and NGL ... $X, [MASK],
    and $Z", "... respectively")."""
    if listed or re.search(r"\brespectively\b", masked, re.I):
        return None
    before, _, after = masked.partition("[MASK]")
    clause = _clause_pieces(before)[-1] + "[MASK]" + _clause_pieces(after)[0]
    return clause if len(clause.strip()) < len(masked.strip()) else None


# the last item of a noun list: "Oil, gas, and NGL revenue", "Selling, general, and
# administrative expenses" (a short item without a figure, after a comma)
_LIST_ITEM = re.compile(r",\s*[A-Za-z][\w&/-]*(?:\s+[\w&/-]+){0,2}\s*$")


# a list of items, each a noun phrase and its figure: "depreciation and amortization
# expense of [MASK], stock-based compensation expense of $51.2 million": a comma (or a plain
# "and") ends an item when another such item follows (``_item_ends``: only after the blank
# or a money or percent figure)
_PARALLEL_ITEM = re.compile(
    rf"(?:,\s+(?:and\s+)?|\s+and\s+)(?=(?!(?:{NOT_A_NEW_SUBJECT}|net|after|before|inclusive|"
    r"exclusive)\b)(?:[A-Za-z][\w&'/-]*\s+){1,7}of\s+(?:approximately\s+|about\s+)?"
    r"(?:\$\s?\(?\d|\d[\d,.]*\s*(?:%|percent|million|billion|thousand)))",
    re.I,
)
# the figure an item ends with: money or a percentage, never a year ("for 2023, net of")
_ITEM_FIGURE_END = re.compile(
    r"(?:\$\s?\(?[\d,.]*\d\)?(?:\s*(?:million|billion|thousand))?|\d\s*(?:%|percent))\s*$", re.I
)


def _item_ends(text: str) -> list[re.Match[str]]:
    """Where ``text`` moves on to another "item of $figure": after the blank (``text``
    starts right after it) or after a money or percent figure."""
    return [
        m
        for m in _PARALLEL_ITEM.finditer(text)
        if m.start() == 0 or _ITEM_FIGURE_END.search(text, 0, m.start())
    ]


def _clause_pieces(text: str) -> list[str]:
    """``text`` split at its clause ends; ", and" / ", but" after a list's item is the
    list's Oxford comma, not a clause end. A comma after a figure ends a clause when a
    parallel clause (a subject and its verb) follows."""
    ends = list(_NAMING_CLAUSE_END.finditer(text))
    ends += PARALLEL_CLAUSE_END.finditer(text)
    ends += _item_ends(text)
    pieces, start = [], 0
    for match in sorted(ends, key=lambda m: m.start()):
        if match.start() < start:
            continue
        if match.group(0).startswith(",") and _LIST_ITEM.search(text[start : match.start()]):
            continue
        pieces.append(text[start : match.start()])
        start = match.end()
    return pieces + [text[start:]]


def per_share_blank(ctx: Context, masked: str) -> bool:
    """The blank is a per-share (or per-unit) figure: the hint or "[MASK] per share" says
    so, or the blank's own clause does ("net income per diluted share was [MASK]", "EPS
    was [MASK]"). The clause starts after the last figure and the last comma before the
    blank: "$6.86 per diluted share, on revenue of [MASK]", "Following the increase in our
    dividend per share, total dividends paid were [MASK]" and "the numerator used in
    computing diluted earnings per share, was [MASK]" are not per-share blanks. "As per
    our program ... shares" and "per our policy ... shareholders" never are."""
    before, _, after = masked.partition("[MASK]")
    if "per_share" in ctx.hint_units or _PER_SHARE_CLAUSE.match(after.lstrip()):
        return True
    figures = [s for s in find_numbers(before) if s.kind not in ("year", "date", "ordinal")]
    own = before[figures[-1].end :] if figures else before
    own = _CLAUSE_END.split(own)[-1].split(",")[-1]
    return bool(_PER_SHARE_CLAUSE.search(own))


# the blank's per-share form written right after it: "[MASK], or $0.92 per diluted share"
_PER_SHARE_TWIN = re.compile(
    r"\s*,?\s*(?:or|\()\s*\$?\s*\(?[\d.]+\)?\s+per\s+(?:(?:diluted|basic)(?:\s+(?:and|or)\s+"
    r"(?:diluted|basic))?\s+)?(?:common\s+)?share",
    re.I,
)
# per-share wording in the blank's clause: "per (diluted|basic) (common) share", EPS,
# "per unit / BOE"; never "as per" nor "per our"
_PER_SHARE_CLAUSE = re.compile(
    r"(?<!\bas )\bper (?:(?:diluted|basic)(?: (?:and|or) (?:diluted|basic))? )?"
    r"(?:common |ordinary )?(?:share|unit|boe|bbl|mcf)\b|"
    r"\bEPS\b",
    re.I,
)


def _part_clause(masked: str) -> tuple[str, str] | None:
    """After "of which [MASK]": the part's own clause (up to its first figure) and the
    text before the blank (the whole's)."""
    before, _, after = masked.partition("[MASK]")
    if not _OF_WHICH.search(before):
        return None
    own = _CLAUSE_END.split(after)[0]
    figures = [s for s in find_numbers(own) if s.kind not in ("year", "date", "ordinal")]
    if figures:
        own = own[: figures[0].start]
    return own, before


def part_words(masked: str) -> set[str]:
    """ "X was $1.9 billion, of which [MASK] was variable-rate indebtedness": the words of
    the part's own clause that the whole's clause does not use ({"variable", "rate"})."""
    clause = _part_clause(masked)
    if clause is None:
        return set()
    own, before = clause
    whole = set(_tokens(before))
    return {w for w in _tokens(own) if w not in whole and w not in _FILLER and not w.isdigit()}


def part_places(masked: str) -> set[str]:
    """The places the part's own clause names and the whole's does not ("of which [MASK]
    related to our Canadian operations": {"canada"})."""
    clause = _part_clause(masked)
    if clause is None:
        return set()
    own, before = clause
    return set(places(own)) - set(places(before))


def _is_part(cell: Cell, apart: set[str], where: set[str]) -> bool:
    if cell.row_tokens & apart:
        return True
    return bool(where and where & set(places(f"{cell.table.row_label(cell.row)} {cell.heading}")))
