"""What the solver knows about one blank, candidates, and how labels fit the sentence."""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from finprobe.benchmarks.faith.cells import Cell, _near, same_period_length
from finprobe.benchmarks.faith.ranker import HAND_WEIGHTS
from finprobe.benchmarks.faith.sentence import (
    _ACRONYM,
    _CHANGE_PAIR_BEFORE,
    _CHANGE_WORD,
    _COLUMN_NOISE,
    _COMPARED_BEFORE,
    _INCREASE,
    _RATIO,
    _SHARE,
    _YEAR,
    _initials,
    _respectively_slot,
    _target_year,
    _tokens,
    change_direction,
    initials_run,
    mask_role,
    parallel_clauses,
    period_months,
    places,
    relative_period,
)
from finprobe.document import Table
from finprobe.numbers import find_numbers


@dataclass
class Candidate:
    value: Decimal
    percent: bool
    kind: str  # lookup | change | pct_change | ratio | share | sum
    scenario: str
    cells: list[Cell]
    formula: str
    score: float = 0.0
    notes: list[str] = field(default_factory=list)
    features: dict[str, float] = field(default_factory=dict)


@dataclass
class SolverAnswer:
    answer: str
    scenario: str
    metrics: list[str]
    tables: list[str]
    reasoning: str

    def to_completion(self) -> str:
        block = {
            "results": {
                "answer": self.answer,
                "scenario": self.scenario,
                "necessary_metrics": self.metrics,
                "reference": self.tables,
            }
        }
        return f"{self.reasoning}\n\n```json\n{json.dumps(block, indent=2)}\n```"


@dataclass
class Context:
    """What the sentence says about the masked value."""

    left: list[str]
    right: list[str]
    sentence: list[str]
    neighbours: list[str]
    years: list[str]
    anchors: list[Decimal]
    hint_units: frozenset[str]
    wants_percent: bool
    wants_money: bool
    wants_plain: bool
    direction: bool
    share_words: bool
    ratio_words: bool
    role: str  # "change" | "older" | "newer" | "level"
    physical_unit: bool  # the hint names a non-money unit (MMBOE, Bcf, ...)
    year_slot: str | None  # the period a "respectively" list assigns to the mask
    target_year: str | None = None  # the period the blank belongs to, when it can be told
    per_share_blank: bool = False  # "[MASK] per diluted share"
    paired: bool = False  # the blank is paired with an anchor: "from [MASK] to $X", "$X, or [MASK]"
    # "rose [MASK]" (+1), "declined [MASK]" (-1)
    moves: int | None = None
    # "[MASK] in the prior year": the blank's period against the report's (-1, 0)
    relative_year: int | None = None
    # the length of the period the sentence speaks of, in months; a sentence that names
    # none speaks of the report's own period: 12 in an annual report; in an interim one,
    # the quarter's or year-to-date length the sentence before names, else unknown (None),
    # as its MD&A speaks of both alike (``settle_period``)
    period_months: int | None = 12
    period_stated: bool = False  # the sentence itself names its period's length
    # label words the sentence names only through a synonym ("sales" for "revenue")
    synonyms: set[str] = field(default_factory=set)
    years_before: list[str] = field(default_factory=list)  # years named before the blank
    synonyms_near: set[str] = field(default_factory=set)
    # the sentence's only year is the side a change is compared with ("decreased [MASK] to
    # $1.21 billion, compared to $1.30 billion at December 31, 2022")
    compared_year: str | None = None


# the units a figure's own form writes (money, percent, per share, basis points); a hint
# unit outside them (barrels, square feet) is a physical quantity
FIGURE_UNITS = frozenset({"usd", "percent", "per_share", "bps"})


def read_context(metadata: dict[str, Any]) -> Context:
    masked = metadata["masked_sentence"]
    before, _, after = masked.partition("[MASK]")
    # "revenue rose [MASK], reflecting higher subscription renewals": the reason names
    # other lines, not the blank's
    reason = _REASON.search(after)
    because = after[reason.start() :] if reason else ""
    if reason:
        after = after[: reason.start()]
        masked = before + "[MASK]" + after
    # the words near the blank stay in its own clause of a parallel run ("construction
    # loans decreased 16.6%, commercial loans decreased [MASK], agricultural loans ...")
    # or of a list of bullets or of clauses split by semicolons
    own_before = re.split(r"[;•]", parallel_clauses(before)[-1])[-1]
    own_after = re.split(r"[;•]", parallel_clauses("[MASK]" + after)[0])[0].removeprefix("[MASK]")
    left = _tokens(own_before)[-8:]
    if re.search(r"\bof which\s*(?:approximately\s+|about\s+)?$", before, re.I):
        left = []  # "$1.9 billion, of which [MASK] was variable-rate": the part is named after
    # "income tax expense of [MASK], or 1.9% of the loss before income taxes": the words
    # after a companion figure name its base, not the blank's line
    own_after = _COMPANION_AFTER.split(own_after, maxsplit=1)[0]
    right = _tokens(re.split(r",?\s*of which\b", own_after, maxsplit=1, flags=re.I)[0])[:8]
    hint = metadata.get("hint", "")
    units: set[str] = set()
    if "percent" in hint or "%" in hint:
        units.add("percent")
    if "basis point" in hint:
        # a ratio's change in points, written in basis points (``_format_value``)
        units.update({"percent", "bps"})
    if "$" in hint or "dollar" in hint:
        units.add("usd")
    if "per-share" in hint:
        units.add("per_share")
    match = re.search(r"expressed in ([A-Z0-9 ]+)", hint)
    if match:
        units.add(match.group(1).strip().lower())
    anchors = figures(masked.replace("[MASK]", " "))
    near = before[-60:] + " " + after[:60]
    own_item, other_items = _own_bullet(masked)
    years = _YEAR.findall(masked)
    stated_months = period_months(masked)
    return Context(
        left=left,
        right=right,
        sentence=_tokens(own_item),
        neighbours=_tokens(
            metadata.get("pre_sentence", "")
            + " "
            + metadata.get("post_sentence", "")
            + because
            + " "
            + other_items
        ),
        years=years,
        years_before=_YEAR.findall(before),
        compared_year=compared_year(masked),
        anchors=anchors,
        hint_units=frozenset(units),
        wants_percent="percent" in units,
        wants_money="usd" in units or "per_share" in units,
        wants_plain="plain number" in hint,
        direction=bool(_INCREASE.search(near)),
        share_words=bool(_SHARE.search(after[:40])),
        ratio_words=bool(_RATIO.search(near)),
        role=_solver_role(before, after),
        physical_unit=bool(units - FIGURE_UNITS),
        year_slot=_respectively_slot(before, after, years),
        target_year=_target_year(before, after, mask_role(before, after)),
        relative_year=relative_period(before, after),
        moves=change_direction(before, after),
        period_months=stated_months or 12,
        period_stated=stated_months is not None,
        per_share_blank="per_share" in units or bool(re.match(r"\s*per\b", after)),
        paired=bool(
            _CHANGE_PAIR_BEFORE.search(before.rstrip())
            or re.match(r"\s*(?:to|,?\s*or)\s+\$?\d", after)
            or re.search(
                r"\b(?:from|to)\s+\$?[\d.,]+\s*(?:million|billion|thousand|%|percent)?\s*(?:to|from)?\s*$",
                before,
            )
        ),
    )


_UP_DOWN_BEFORE = re.compile(
    # "made up [MASK] of revenue", "paid down [MASK] of debt" are not changes
    r"(?<!made )(?<!make )(?<!makes )(?<!making )(?<!paid )(?<!pay )"
    r"\b(?:up|down)\s+(?:by\s+)?(?:approximately\s+|about\s+|nearly\s+)?\$?\s*$",
    re.I,
)
# "the decrease in product sales of [MASK]": the change's size
_CHANGE_IN_OF = re.compile(
    r"\b(?:increase|decrease|decline|growth|reduction|rise|improvement)s?\s+in\s+"
    r"(?:[\w'’,&-]+\s+){1,6}?(?:of|by|was|were)\s+(?:approximately\s+|about\s+)?\$?\s*$",
    re.I,
)
_OVER_PERIOD_AFTER = re.compile(
    r"\s*(?:%|percent)?\s*(?:year[- ]over[- ]year|from (?:the )?(?:prior|previous|last) year)\b",
    re.I,
)


# what makes a "from" a comparison: a move before it ("increased $4.0 million to $17.1
# million in 2023 from", "up from", "improved 310 basis points from"), read in the whole text
# before "from" (it leans to keeping "older"), or a money or percent figure in its own clause
# ("Revenue climbed 10.6% from")
_TO_FIGURE = r"\bto\s+(?:approximately\s+|about\s+)?[$\d(]"
_MOVES = re.compile(
    _CHANGE_WORD + r"|\b(?:up|down)\b|" + _TO_FIGURE + r"|\bpoints?\b|\bbps\b",
    re.I,
)
_CLAUSE_FIGURE = re.compile(r"\$\s?\(?\d|\d\s*(?:%|percent\b)", re.I)
# "from [MASK] in 2022 to $3.1 million": the newer figure later in the blank's clause
_TO_FIGURE_AFTER = re.compile(r"^[^;,]*?" + _TO_FIGURE, re.I)


def _bare_from(before: str, after: str) -> bool:
    """The blank follows a "from" that no move leads to: "which resulted from net loss of
    [MASK]", "We recorded income from operations of [MASK]"; not "from [MASK] to"."""
    match = _COMPARED_BEFORE.search(before.rstrip())
    if match is None or match.group(1).lower() != "from" or _TO_FIGURE_AFTER.match(after):
        return False
    lead = before[: match.start()]
    own = re.split(r"[,;]", lead)[-1]
    return not (_MOVES.search(lead) or _CLAUSE_FIGURE.search(own))


_BULLET = re.compile(r"\s*[•▪●◦·■\uf0b7]\s*")


def _own_bullet(masked: str) -> tuple[str, str]:
    """A run of bullets ("•Total revenue was $527.1 million, a 24% decrease; •Digital revenue
    was [MASK], ...") is a list of statements: the blank's own item (with the lead-in before
    the first bullet) is its sentence, the other items are neighbours."""
    items = _BULLET.split(masked)
    if len(items) < 3:
        return masked, ""
    own = next(i for i, item in enumerate(items) if "[MASK]" in item)
    lead = items[0] if own else ""
    return f"{lead} {items[own]}", " ".join(x for i, x in enumerate(items) if i not in (0, own))


# the year a change is compared with: after "compared to" / "versus" in the same sentence,
# or right after "from" / "over"
_COMPARED_YEAR = re.compile(
    # "compared to / versus ... 2022" (within 60 characters; a decimal point does not end it)
    r"(?:\bcompared\s+(?:to|with)\b|\bversus\b|\bvs\.?(?=\s))(?:[^.;]|\.(?=\d)){0,60}?"
    r"\b((?:19|20)\d{2})\b"
    # "from 2022", "over fiscal 2022": only right before the year
    r"|\b(?:from|over)\s+(?:(?:the\s+)?(?:fiscal\s+)?(?:year\s+)?)\b((?:19|20)\d{2})\b"
    r"(?=\s*(?:[,.;:)]|$|\b(?:and|to|levels?|amounts?|period|year)\b))",  # not "2023 sales"
    re.I,
)


def compared_year(masked: str) -> str | None:
    """The sentence's one year when a comparison word leads to it: the older side of the
    change ("increased [MASK] compared to 2022" compares 2023 with 2022)."""
    years = set(_YEAR.findall(masked))
    if len(years) != 1:
        return None
    match = _COMPARED_YEAR.search(masked)
    return (match.group(1) or match.group(2)) if match else None


def figures(text: str) -> list[Any]:
    """The numbers a text states as figures: years, dates and ordinals dropped."""
    return [
        span.number
        for span in find_numbers(text)
        if getattr(span, "kind", "") not in ("year", "date", "ordinal")
    ]


def older_year(ctx: Context, current_year: str | None) -> str | None:
    """The year of a blank that is the earlier figure of a comparison ("ROAA was 1.57%,
    compared to [MASK] for 2022"), when the sentence gives it no slot of its own.

    A sentence that names years before the blank and not the report's latest speaks of
    them ("Interest expense for 2022 decreased to $X, compared to [MASK] in 2021"): the
    earliest it names, or the year before it when it names none after the blank.
    Otherwise the year before the report's latest.
    """
    if ctx.role != "older":
        return None
    if ctx.years_before and current_year not in ctx.years:
        if len(ctx.years_before) == len(ctx.years):
            # "In 2022, gross margin was 40.2%, compared to [MASK]": the year named is
            # the other figure's; the blank's is the year before it
            return str(int(min(ctx.years)) - 1)
        return min(ctx.years)
    return str(int(current_year) - 1) if current_year else None


def _solver_role(before: str, after: str) -> str:
    """``mask_role``, and two plain ways to say a change: "up [MASK]" and "[MASK]
    year-over-year" (the finder keeps ``mask_role`` as it is)."""
    role = mask_role(before, after)
    if role == "older" and _bare_from(before, after):
        role = "level"
    if role != "level" or re.search(r"\bto\s+(?:approximately\s+|about\s+)?\$?\s*$", before):
        return role  # "grew to [MASK] year-over-year" is the new level
    if (
        _UP_DOWN_BEFORE.search(before.rstrip() + " ")
        or _OVER_PERIOD_AFTER.match(after)
        or _CHANGE_IN_OF.search(before)
    ):
        return "change"
    return role


# a column headed by a year alone ("2023", "Fiscal 2023"): a 10-K's way to head its years
_BARE_YEAR = re.compile(r"^\W*(?:fiscal\s+(?:year\s+)?)?(?:19|20)\d\d\W*$", re.I)
# a rolling measure ("Trailing Twelve Months Ended March 31, 2024"), not the report's period
_TRAILING = re.compile(r"\btrailing\b|\b[TL]TM\b", re.I)


def _interim_report(tables: list[Table]) -> bool:
    """An interim report (10-Q): more of its columns name a quarter, six or nine months
    than name a year ("Year Ended", or a year alone, as a 10-K heads its columns). A
    majority, because a 10-Q may show a year's roll-forward and a 10-K a table of quarters."""
    short = annual = 0
    for table in tables:
        for c in range(table.header_cols, table.n_cols):
            label = table.column_label(c)
            if _TRAILING.search(label):
                continue
            months = period_months(label)
            if months == 12 or (months is None and _BARE_YEAR.match(label)):
                annual += 1
            elif months is not None:
                short += 1
    return short > annual


def settle_period(context: Context, tables: list[Table], sentence_before: str = "") -> None:
    """A sentence that names no period speaks of the report's own: a year in an annual
    report; in an interim one, the length the sentence before names ("For the nine months
    ended December 31, 2023, net cash ... was $7.1 million. The $7.1 million ... consisted
    of net loss of [MASK]"), else no one length (the quarter and the year to date alike)."""
    if not context.period_stated and _interim_report(tables):
        # only an interim length: a 10-Q's passing mention of "the fiscal year ended" (its
        # annual report) is no period for its own figures
        before = period_months(sentence_before)
        context.period_months = before if before in (3, 6, 9) else None


def expand_context(context: Context, tables: list[Table], masked: str) -> None:
    """Let the sentence's words reach the tables' spelling: "R&D" names a row
    "Research and development", "excluding" a column "Excl. Exchange"."""
    # the words appended below extend ordered lists (a phrase is read in order there), so
    # every loop runs in the tables' order or sorted, never in a set's hash order
    labels: dict[str, None] = {}
    vocabulary: set[str] = set()
    for table in tables:
        for r in range(table.n_rows):
            label = table.row_label(r)
            labels[label] = None
            vocabulary.update(_tokens(label))
        for c in range(table.header_cols, table.n_cols):
            vocabulary.update(_tokens(table.column_label(c)))
    before, _, after = masked.partition("[MASK]")
    near_text = before[-80:] + " " + after[:80]
    # each acronym once, with the words written right beside it ("the Flotek PPP loan")
    beside: dict[str, set[str]] = {}
    for found in _ACRONYM.finditer(masked):
        left = re.findall(r"[A-Za-z]+", masked[max(0, found.start() - 30) : found.start()])
        right = re.findall(r"[A-Za-z]+", masked[found.end() : found.end() + 30])
        beside.setdefault(found.group(0), set()).update(w.lower() for w in left[-1:] + right[:1])
    for acronym, next_to in beside.items():
        letters = acronym.replace("&", "")
        if len(letters) < 2:
            continue
        for label in labels:
            words = re.findall(r"[A-Za-z]+", label)
            if _initials(label) == letters:
                # the whole label's initials ("R&D"), for a label not much longer than them
                whole = len(words) <= 2 * len(letters) + 2
                expansion = _tokens(label) if whole else []
            else:
                # "the Flotek PPP loan" names "Paycheck protection plan loan forgiveness"
                expansion = _tokens(" ".join(initials_run(label, letters, next_to)))
            if expansion:
                context.sentence.extend(expansion)
                if acronym in near_text:
                    context.left.extend(expansion)
    # "capital expenditures" is spelled "Purchases of property and equipment" in the tables
    lowered = masked.lower()
    for pattern, concept in _LINE_SYNONYMS:
        match = pattern.search(lowered)
        if not match:
            continue
        test = _MEASURE_ROWS[concept]
        for label in labels:
            if test(_label(label)):
                expansion = _tokens(label)
                context.sentence.extend(expansion)
                if match.group(0) in near_text.lower():
                    context.left.extend(expansion)
    # "Canadian" names a row or column "Canada", "domestic" one "U.S." (``places``)
    named = places(masked)
    near_places = places(near_text)
    texts = labels | dict.fromkeys(
        table.column_label(c) for table in tables for c in range(table.header_cols, table.n_cols)
    )
    for text in texts if named else ():
        for key, forms in places(text).items():
            if key in named:
                words = [w for form in forms for w in _tokens(form)]
                context.sentence.extend(words)
                if key in near_places:
                    context.left.extend(words)
    _add_synonyms(context, vocabulary)
    own = set(context.sentence)
    ordered = sorted(vocabulary)
    for token in sorted(own - vocabulary):
        if len(token) < 4:
            continue
        for word in ordered:
            if len(word) >= 4 and (word.startswith(token) or token.startswith(word)):
                context.sentence.append(word)
                if token in context.left or token in context.right:
                    context.left.append(word)


_LINE_SYNONYMS = [
    (re.compile(p), concept)
    for p, concept in [
        (r"capital expenditures|\bcapex\b|capital spending", "capex"),
        (r"operating cash flows?|cash (?:flows? )?(?:provided by|from|generated (?:by|from)) operati",
         "operating_cash_flow"),
        (r"pre-?tax (?:income|earnings)", "pretax_income"),
        (r"tax provision|income tax expense|provision for income taxes", "income_tax"),
        (r"\bcost of (?:revenues?|sales|goods sold)", "cost_of_revenue"),
    ]
]  # fmt: skip
# words 10-K tables and MD&A text use for one another ("net sales" / "revenues")
_SYNONYM_GROUPS = [
    [_tokens(w)[0] for w in group.split()]
    for group in [
        "revenue sales turnover",
        "income earnings profit",
        "expense cost expenditure",
        "stockholders shareholders shareowners",
        "debt borrowings",
        "employees headcount",
        "compensation salaries wages payroll",
    ]
]


def _same_word(a: str, b: str) -> bool:
    return a == b or min(len(a), len(b)) >= 4 and (a.startswith(b) or b.startswith(a))


def _add_synonyms(context: Context, vocabulary: set[str]) -> None:
    """Label words the sentence names by a synonym: kept apart from its own words."""
    own = set(context.sentence)
    near = set(context.left) | set(context.right)
    for group in _SYNONYM_GROUPS:
        named = {m for m in group if any(_same_word(t, m) for t in own)}
        if not named:
            continue
        named_near = {m for m in group if any(_same_word(t, m) for t in near)}
        for word in vocabulary - own:
            for member in group:
                if member in named or not _same_word(word, member):
                    continue
                context.synonyms.add(word)
                if named_near:
                    context.synonyms_near.add(word)


_EXCLUDING = frozenset({"excl", "exclud", "excluding", "ex", "adjusted", "adjust"})


class Scorer:
    """Lexical fit between the sentence and a table location, rarity-weighted."""

    def __init__(self, tables: list[Table], context: Context) -> None:
        self.context = context
        counts: Counter[str] = Counter()
        documents = 0
        for table in tables:
            for r in range(table.n_rows):
                counts.update(set(_tokens(table.row_label(r))))
                documents += 1
        self.idf = {w: math.log((documents + 1) / (n + 0.5)) for w, n in counts.items()}
        self.default_idf = math.log(documents + 1)
        # the report's own period: the latest year its tables show most often
        latest: Counter[str] = Counter()
        for table in tables:
            years = _YEAR.findall(" ".join(table.column_label(c) for c in range(table.n_cols)))
            if years:
                latest[max(years)] += 1
        self.current_year = latest.most_common(1)[0][0] if latest else None

    def column_fit(self, cell: Cell) -> float:
        """Column headers naming a segment or category the sentence names ("for the Funds")."""
        parts = self.column_parts(cell)
        return (
            1.5 * parts["column_hits"]
            - 0.4 * parts["column_misses"]
            + 1.5 * parts["column_excluding_match"]
            - 1.0 * parts["column_excluding_miss"]
        )

    def column_parts(self, cell: Cell) -> dict[str, float]:
        tokens = set(_tokens(re.sub(_YEAR, " ", _column_words(cell)))) - _COLUMN_NOISE
        if not tokens:
            return {}
        hits = tokens & set(self.context.sentence)
        # constant-currency / adjusted figures: "excluding" names the "Excl." column
        sentence_excludes = bool(set(self.context.sentence) & _EXCLUDING)
        excluding = bool(tokens & _EXCLUDING)
        return {
            "column_hits": float(len(hits)),
            "column_misses": float(len(tokens - hits)),
            "column_excluding_match": float(excluding and sentence_excludes),
            "column_excluding_miss": float(excluding and not sentence_excludes),
        }

    def weight(self, tokens: set[str] | list[str]) -> float:
        # fsum: a set's order changes with the interpreter's hash seed, and a plain sum's
        # last bit with it, which broke ties between candidates differently run to run
        return math.fsum(self.idf.get(t, self.default_idf) for t in tokens)

    def label_fit(self, row_tokens: set[str], heading_tokens: set[str] = frozenset()) -> float:
        parts = self.label_parts(row_tokens, heading_tokens)
        return sum(HAND_WEIGHTS.get(k, 0.0) * v for k, v in parts.items())

    def label_parts(
        self,
        row_tokens: set[str],
        heading_tokens: set[str] = frozenset(),
        sequence: list[str] | None = None,
    ) -> dict[str, float]:
        """How a row label fits the text, as ranker features (``ranker.FEATURES``).

        ``sequence``: the label's words in order; a label of two or more words that the
        sentence writes as one phrase ("cost of sales", not "sales ... cost") fits better.
        """
        # dates in a label ("Balance as of December 31, 2023") say its period, which the
        # period features read; as label words they would match any dated sentence
        row_tokens = row_tokens - _PERIOD_WORDS
        sequence = [w for w in sequence or [] if w not in _PERIOD_WORDS]
        if not row_tokens or all(_YEAR.fullmatch(t) for t in row_tokens):
            return {}
        row_tokens = {t for t in row_tokens if not _YEAR.fullmatch(t)}
        sequence = [w for w in sequence if not _YEAR.fullmatch(w)]
        ctx = self.context
        phrase = {}
        if sequence and len(sequence) >= 2:
            phrase = {
                "phrase_sentence": float(_contains(ctx.sentence, sequence)),
                "phrase_near": float(
                    _contains(ctx.left, sequence) or _contains(ctx.right, sequence)
                ),
            }
        near = set(ctx.left) | set(ctx.right)
        sentence = set(ctx.sentence)
        total = self.weight(row_tokens)
        reached = row_tokens & ctx.synonyms - sentence - set(ctx.neighbours)
        return {
            "synonym_hits": self.weight(reached),
            "synonym_near": self.weight(row_tokens & ctx.synonyms_near - near),
            "near_hits": self.weight(row_tokens & near),
            "sentence_hits": self.weight(row_tokens & sentence),
            "neighbour_hits": self.weight(row_tokens & set(ctx.neighbours)),
            "coverage": self.weight(row_tokens & (sentence | set(ctx.neighbours))) / total,
            "missing": self.weight(row_tokens - sentence - set(ctx.neighbours) - reached),
            # a heading above the row ("Structural Heart", "Total International") counts half
            "heading_sentence": self.weight(heading_tokens & sentence),
            "heading_near": self.weight(heading_tokens & near),
            **phrase,
        }

    def table_fit(self, table: Table) -> float:
        return HAND_WEIGHTS["table_words"] * self.table_words(table)

    def table_words(self, table: Table) -> float:
        tokens = set(_tokens(table.pre_text[-300:]))
        return self.weight(tokens & set(self.context.sentence))

    def year_fit(self, years: set[str]) -> float:
        if not self.context.years or not years:
            return 0.0
        first = self.context.years[0]
        if first in years:
            return 2.0
        if years & set(self.context.years):
            return 1.0
        return -1.5


_PERIOD_WORDS = frozenset(
    _tokens("january february march april may june july august september october november december")
)


def _column_words(cell: Cell) -> str:
    """The column's header cells that name it: a footnote or a row of values the
    header reading swallowed ("December 31, 2023 $30,248,929", "(1) Includes ...
    of the Company's ...") names nothing."""
    table = cell.table
    parts: list[str] = []
    for row in table.cells[: table.header_rows]:
        text = row[cell.col] if cell.col < len(row) else ""
        if not text or text in parts:
            continue
        if len(text.split()) > 8 or re.search(r"\d[\d,]{4,}|\$\s*\d", text):
            continue
        parts.append(text)
    return " ".join(parts)


def _contains(words: list[str], phrase: list[str]) -> bool:
    n = len(phrase)
    return any(words[i : i + n] == phrase for i in range(len(words) - n + 1))


def _matches_anchor(cell_or_value: Cell | Decimal, anchors: list[Any], percent: bool) -> bool:
    for anchor in anchors:
        anchor_percent = "percent" in anchor.units
        if anchor_percent != percent:
            continue
        if isinstance(cell_or_value, Cell):
            if _near(cell_or_value.value, anchor) or _near(cell_or_value.raw, anchor):
                return True
        elif _near(cell_or_value, anchor):
            return True
    return False


def _derived(
    cells_by_row: dict[tuple[str, int], list[Cell]], rows: list[tuple[str, int]]
) -> list[Candidate]:
    out: list[Candidate] = []
    for key in rows:
        out += _point_changes([c for c in cells_by_row.get(key, []) if c.percent and c.years])
        # a change column's cell is already a change, never one end of a new one
        row_cells = [
            c
            for c in cells_by_row.get(key, [])
            if not c.percent and c.years and not c.change_column
        ]
        for i, a in enumerate(row_cells):
            for b in row_cells[i + 1 :]:
                if a.years == b.years or _unlike(a, b):
                    continue
                newer, older = (a, b) if max(a.years) > max(b.years) else (b, a)
                label = newer.table.row_label(newer.row)
                # a change is a magnitude; across zero ("(5.0)" to "3.0") it is 8.0
                delta = abs(newer.signed - older.signed)
                out.append(
                    Candidate(
                        delta,
                        False,
                        "change",
                        "B",
                        [newer, older],
                        f"{label}: {newer.col_text} - {older.col_text}",
                    )
                )
                if older.value:
                    out.append(
                        Candidate(
                            delta / older.value * 100,
                            True,
                            "pct_change",
                            "B",
                            [newer, older],
                            f"{label}: ({newer.col_text} - {older.col_text}) / {older.col_text}",
                        )
                    )
    return out


def _unlike(a: Cell, b: Cell) -> bool:
    """Two columns no change compares: periods of different lengths ("Three Months Ended
    February 29, 2024" and "Nine Months Ended February 28, 2023"), or columns that hold
    different things besides their periods ("Average Balance" and "2022 Interest";
    "Americas RAC" and "International RAC")."""
    if not same_period_length(a, b):
        return True
    # alike when one's words hold the other's: the first column's header may carry the
    # table's title, or a span's words only one of the two ("Total Company 2022")
    one, other = set(a.category.split()), set(b.category.split())
    return bool(one and other and not one <= other and not other <= one)


def _point_changes(row_cells: list[Cell]) -> list[Candidate]:
    """A row of rates ("Gross margin | 41.2% | 39.8%") changes by points: "margin
    improved [MASK]" is 1.4%, not a relative change of the rates."""
    out: list[Candidate] = []
    for i, a in enumerate(row_cells):
        for b in row_cells[i + 1 :]:
            if a.years == b.years or a.change_column or b.change_column or _unlike(a, b):
                continue
            newer, older = (a, b) if max(a.years) > max(b.years) else (b, a)
            label = newer.table.row_label(newer.row)
            out.append(
                Candidate(
                    abs(newer.value - older.value),
                    True,
                    "change",
                    "B",
                    [newer, older],
                    f"{label}: {newer.col_text} - {older.col_text} (points)",
                )
            )
    return out


def _pairwise(top: list[Cell]) -> list[Candidate]:
    """Ratios, shares and sums of the best-fitting cells of one column."""
    out: list[Candidate] = []
    for i, a in enumerate(top):
        for b in top:
            if a is b or a.table is not b.table or a.col != b.col or a.percent or b.percent:
                continue
            if b.value and a.value < b.value:
                out.append(
                    Candidate(
                        a.value / b.value * 100,
                        True,
                        "share",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} / {b.table.row_label(b.row)}",
                    )
                )
            elif b.value:
                out.append(
                    Candidate(
                        a.value / b.value * 100,
                        True,
                        "ratio",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} / {b.table.row_label(b.row)}",
                    )
                )
        for b in top[i + 1 :]:
            if a.table is b.table and a.col == b.col and not a.percent and not b.percent:
                out.append(
                    Candidate(
                        a.value + b.value,
                        False,
                        "sum",
                        "C",
                        [a, b],
                        f"{a.table.row_label(a.row)} + {b.table.row_label(b.row)}",
                    )
                )
    return out


# -- measures named in words: margins, rates, totals, definitions -------------------


def _label(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower().replace("’", "'")).strip(" :")


def _is_total_tax(label: str) -> bool:
    return (
        "income tax" in label
        and not re.search(r"before|deferred|payable|paid|receivable|net of|benefit plan", label)
        and not label.startswith("net income")
    )


# the standard statement lines, by the way 10-K tables spell them
_MEASURE_ROWS: dict[str, Any] = {
    "revenue": lambda s: bool(
        re.fullmatch(
            r"(?:total )?(?:net )?(?:operating )?(?:revenues?|sales)(?:, net)?(?: \([^)]*\))?",
            s,
        )
    ),
    "cost_of_revenue": lambda s: bool(
        re.match(r"(?:total )?costs? of (?:revenues?|sales|goods sold|products sold)", s)
    ),
    "gross_profit": lambda s: bool(re.fullmatch(r"gross (?:profit|margin)(?: \(loss\))?", s)),
    "operating_expenses": lambda s: bool(
        re.fullmatch(r"total (?:operating )?(?:costs and )?expenses", s)
    ),
    "operating_income": lambda s: bool(
        re.fullmatch(
            r"(?:total )?(?:operating (?:income|profit|earnings)(?: \(loss\))?"
            r"|(?:income|earnings)(?: \(loss\))? from operations)",
            s,
        )
    ),
    "pretax_income": lambda s: bool(
        re.search(r"(?:income|earnings)(?: \(loss\))?.* before (?:provision for )?income tax", s)
    ),
    # read only as a tax rate's base, when no income line before tax is there: as a line
    # the sentence's "pretax earnings" names, a loss is another line
    "pretax_loss": lambda s: bool(
        re.fullmatch(
            r"(?:net )?loss(?: from continuing operations)? before (?:provision for |benefit "
            r"from )?income tax(?:es)?(?: (?:benefit|expense|provision))?",
            s,
        )
    ),
    "income_tax": _is_total_tax,
    "net_income": lambda s: bool(
        re.fullmatch(r"net (?:income|earnings)(?: \(loss\))?(?: attributable to [\w .,']+)?", s)
    ),
    "current_assets": lambda s: s == "total current assets",
    "current_liabilities": lambda s: s == "total current liabilities",
    "total_assets": lambda s: s == "total assets",
    "equity": lambda s: bool(
        re.fullmatch(r"total (?:stockholders|shareholders|shareowners|share owners)'? equity", s)
    ),
    "operating_cash_flow": lambda s: s.startswith("net cash") and "operating activities" in s,
    "capex": lambda s: bool(
        re.match(
            r"(?:capital expenditures|(?:purchases?|additions|acquisitions?|payments for)"
            r" (?:of|to) (?:property|premises|fixed assets|capital assets))",
            s,
        )
    ),
    "cash": lambda s: s in ("cash and cash equivalents", "cash"),
    "debt": lambda s: bool(re.fullmatch(r"(?:total )?(?:long-term )?debt(?:, net)?", s)),
}
# words a sentence uses for those lines
_MEASURE_NAMES: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.I), name)
    for p, name in [
        (r"^(?:total |net |consolidated )*(?:revenues?|sales|net sales)$", "revenue"),
        (r"^costs? of (?:revenues?|sales|goods sold)$", "cost_of_revenue"),
        (r"^capital expenditures$|^capex$", "capex"),
        (r"^(?:net )?cash (?:provided by|from|generated by|generated from) operati\w+(?: activities)?$"
         r"|^operating cash flows?$", "operating_cash_flow"),
        (r"^current assets$", "current_assets"),
        (r"^current liabilities$", "current_liabilities"),
        (r"^(?:pre-?tax income|income before (?:income )?taxes)$", "pretax_income"),
    ]
]  # fmt: skip


_COMPANION_AFTER = re.compile(r",?\s*(?:or|\()\s*(?:approximately\s+|about\s+)?[$(]?\d", re.I)
_REASON = re.compile(
    r"\b(?:reflecting|due to|driven by|primarily|mainly|as a result of|led by|offset by|"
    r"attributable to|resulting from|because)\b",
    re.I,
)
