"""Build FAITH instances from a 10-K: masked numeric spans in MD&A sentences.

The pipeline follows the FAITH paper (sections 3-4.1):

1. Locate Item 7 (MD&A) with ``finprobe.document.mdna_blocks``.
2. Take every MD&A table with numbers; the sentence just before it becomes its
   pre-text and leaves the sentence corpus (context and sentences never overlap).
   Tables without numbers (bullet lists converted to grids) are read as prose.
3. Split the remaining prose into sentences (``finprobe.text.split_sentences``
   merges conversion fragments) and find numeric spans that carry a unit or a
   verbal scale (rules by default; spaCy NER when asked and installed).
4. Each span becomes one instance with the neighbouring sentences as context.
5. Answerability: a deterministic derivation finder (lookup, change, percentage
   change, ratio, share, sum, change of a ratio) checked with the
   precision-relaxed rule, and/or a panel of LLMs with the unanimity rule.

The output is the released FAITH JSON format plus ``span_text``,
``derivation`` and ``answerable_by`` per instance.
"""

from __future__ import annotations

import asyncio
import bisect
import random
import re
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, localcontext
from pathlib import Path
from typing import Any

from finprobe.benchmarks.faith.cells import Cell, numeric_cells
from finprobe.benchmarks.faith.dataset import RELEASED_LABEL_FIELDS
from finprobe.benchmarks.faith.sentence import (
    _ACRONYM,
    _INCREASE,
    _initials,
    _respectively_slot,
    _target_year,
    _tokens,
    mask_role,
)
from finprobe.document import (
    FinancialDocument,
    Paragraph,
    Table,
    load_document,
    load_faith_report,
    mdna_blocks,
)
from finprobe.errors import InputError
from finprobe.files import read_json
from finprobe.numbers import (
    NumberSpan,
    ParsedNumber,
    find_numbers,
    parse_number,
    released_value_and_resolution,
)
from finprobe.numbers import precision_relaxed_match as _prm
from finprobe.text import split_sentences

__all__ = [
    "Derivation",
    "DerivationIndex",
    "agreement_with_pilot",
    "build_from_paths",
    "build_instances",
    "find_derivation",
    "span_ground_truth",
    "supports",
    "mask_spans",
    "mdna_corpus",
    "panel_answerability",
    "synthetic_dataset",
]

BUILDER_VERSION = "1"
SCENARIO_ORDER = ("A", "B", "C", "D")
_UID_NAMESPACE = uuid.UUID("6f1c1f0e-3d1a-5b7e-9a43-f1a17b0e4d2c")
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
_PHONE = re.compile(r"\(?\b\d{3}\)?[\s.-]\d{3}[\s.-]\d{4}\b")
_TIME_UNITS = frozenset({"years", "months", "days"})
_HUNDRED = Decimal(100)


# --------------------------------------------------------------------------
# MD&A corpus: tables with pre-texts, and the remaining sentences


@dataclass
class MdnaCorpus:
    tables: list[Table]  # rebuilt from the MD&A grids with the FAITH pre-text
    sentences: list[str]


def _clean_sentence(text: str) -> str:
    return " ".join(text.split())


def _numeric_body(table: Table) -> bool:
    return any(
        table.number(r, c) is not None
        for r in range(table.header_rows, table.n_rows)
        for c in range(table.header_cols, table.n_cols)
    )


def _prose_of(table: Table) -> str:
    """A grid with no numbers (a converted bullet list) read as prose, one row a line."""
    lines = [" ".join(dict.fromkeys(c for c in row if c.strip("●•▪◦-– "))) for row in table.cells]
    return "\n\n".join(line for line in lines if line)


def _keep_sentence(text: str) -> bool:
    # page numbers, headings reduced to nothing, or whole pages glued together
    return 15 <= len(text) <= 2000 and sum(ch.islower() for ch in text) >= 8


def mdna_corpus(doc: FinancialDocument) -> MdnaCorpus | None:
    """MD&A tables (with the sentence before each as pre-text) and the other sentences.

    None when the document has no recognisable MD&A.
    """
    blocks = mdna_blocks(doc)
    if not blocks:
        return None
    tables: list[Table] = []
    sentences: list[str] = []
    previous_prose = False
    for block in blocks:
        if isinstance(block, Table) and _numeric_body(block):
            pre = sentences.pop() if previous_prose and sentences else ""
            tables.append(_faith_table(block, pre, len(tables)))
            previous_prose = False
            continue
        text = block.text if isinstance(block, Paragraph) else _prose_of(block)
        found = False
        for piece in split_sentences(text):
            sentence = _clean_sentence(piece.text)
            if _keep_sentence(sentence):
                sentences.append(sentence)
                found = True
        previous_prose = previous_prose or found if isinstance(block, Paragraph) else found
    return MdnaCorpus(tables=tables, sentences=sentences)


def _faith_table(block: Table, pre_text: str, index: int) -> Table:
    """The table as FAITH stores it; keep the scale hint the shorter pre-text may lose."""
    table = Table(id=f"t{index}", cells=block.cells, pre_text=pre_text, normalize=False)
    if table.scale != block.scale and block.scale_hint:
        hint = _clean_sentence(block.scale_hint)
        table = Table(
            id=f"t{index}",
            cells=block.cells,
            pre_text=f"{pre_text} {hint}".strip(),
            normalize=False,
        )
    table.source_id = block.id
    return table


# --------------------------------------------------------------------------
# numeric spans


def _qualifies(span: NumberSpan, sentence: str) -> bool:
    """A span worth masking: an amount with a unit or a verbal scale."""
    if span.kind in ("year", "date", "ordinal", "other"):
        return False
    number = span.number
    if span.kind not in ("money", "percent") and not (number.units or number.scale_word):
        return False  # a bare count ("12") has no unit to make it unique
    if number.units and number.units <= _TIME_UNITS and "." not in span.text:
        return False  # "three years", "12 months": durations, not reported figures
    for m in _PHONE.finditer(sentence):
        if m.start() < span.end and span.start < m.end():
            return False
    return True


def mask_spans(sentence: str, method: str = "rules") -> list[NumberSpan]:
    """Numeric spans of a sentence to mask, left to right, non-overlapping."""
    candidates = [s for s in find_numbers(sentence) if _qualifies(s, sentence)]
    if method == "rules":
        return candidates
    if method == "spacy":
        return _spacy_spans(sentence, candidates)
    raise InputError(None, f"unknown span method {method!r} (expected rules or spacy)")


_SPACY_LABELS = frozenset({"MONEY", "PERCENT", "CARDINAL", "QUANTITY"})
_nlp: Any = None


def _spacy_model() -> Any:
    global _nlp
    if _nlp is None:
        try:
            import spacy
        except ImportError:
            raise InputError(
                None, "--spans spacy needs spaCy: pip install 'finprobe[spacy]'"
            ) from None
        models = sorted(spacy.util.get_installed_models())
        if not models:
            raise InputError(
                None,
                "--spans spacy needs a spaCy model, e.g. python -m spacy download en_core_web_sm",
            )
        preferred = [m for m in models if m.startswith("en_core_web")] or models
        _nlp = spacy.load(preferred[0], disable=["parser", "lemmatizer"])
    return _nlp


def _spacy_spans(sentence: str, rule_spans: list[NumberSpan]) -> list[NumberSpan]:
    """NER detection (as the paper), expanded to the rule span that covers its number."""
    doc = _spacy_model()(sentence)
    out: list[NumberSpan] = []
    for ent in doc.ents:
        if ent.label_ not in _SPACY_LABELS:
            continue
        # the rule spans carry the currency sign, scale and unit words NER leaves out
        for span in rule_spans:
            if span.start < ent.end_char and ent.start_char < span.end and span not in out:
                out.append(span)
    return sorted(out, key=lambda s: s.start)


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


@dataclass
class _Computed:
    kind: str
    scenario: str
    cells: tuple[int, ...]  # indexes into DerivationIndex.cells


def _cell_precision(cell: Cell) -> Decimal:
    """Place value of the cell's last written digit, on the cell's value footing."""
    number = cell.table.number(cell.row, cell.col)
    if number is None:
        return Decimal(1)
    # value / raw is the table (or section) scale that numeric_cells applied
    factor = cell.value / cell.raw if cell.raw else Decimal(1)
    return number.precision * factor


_PERCENT_HEADER = re.compile(r"%|\bpercent", re.I)
_CATEGORY_NOISE = re.compile(
    r"\b(?:19|20)\d{2}\b|year|years|ended|ending|month|months|three|six|nine|twelve|fiscal|"
    r"quarter|as of|for the|period|december|june|september|march|\d{1,2},|[,():$]",
    re.I,
)


def _category(column_label: str) -> str:
    """A column label without its period words: "Year Ended December 31, 2023 Funds" -> "funds"."""
    return " ".join(_CATEGORY_NOISE.sub(" ", column_label).lower().split())


def _percent_flags(cells: list[Cell]) -> list[bool]:
    """Percent cells, plus plain numbers in a percent column.

    A column is a percent column when its header says so, or when its first
    value carries "%" and no value carries "$" (tables often mark only the
    first row: "1.1%", then "9.8", "2"...).
    """
    columns: dict[tuple[str, int], list[Cell]] = {}
    for c in cells:
        columns.setdefault((c.table_index, c.col), []).append(c)
    percent_cols = set()
    for key, members in columns.items():
        first = min(members, key=lambda c: c.row)
        if _PERCENT_HEADER.search(first.col_text) or (
            "%" in first.text and not any("$" in c.text for c in members)
        ):
            percent_cols.add(key)
    return [
        c.percent or ((c.table_index, c.col) in percent_cols and "$" not in c.text) for c in cells
    ]


class DerivationIndex:
    """Every table value and simple computation of one report, sorted for range search.

    Two pools keep percent and money apart: ``pct`` holds fractions (percent
    cells / 100, percentage changes, ratios, shares), ``amount`` holds base
    values (cells with the table scale applied, changes, sums). Lookups keep
    their written precision; computed values are exact. Column pairs are
    bounded by the table's size, so 30 tables stay in the hundreds of
    thousands of entries.
    """

    def __init__(self, tables: Sequence[Table], max_pairs_per_column: int = 60) -> None:
        self.tables = list(tables)
        self.cells: list[Cell] = []
        for i, table in enumerate(self.tables):
            index = str(table.id[1:] if re.fullmatch(r"t\d+", table.id) else i)
            self.cells.extend(numeric_cells(table, index))
        self.percent = _percent_flags(self.cells)
        self.precision = [
            self.raw_precision(k) if self.percent[k] else _cell_precision(c)
            for k, c in enumerate(self.cells)
        ]
        # signed values: a change from -$3.5 billion to $2.6 billion is $6.1 billion
        self.val: list[Decimal] = []
        for k, cell in enumerate(self.cells):
            number = cell.table.number(cell.row, cell.col)
            sign = -1 if number is not None and number.sign < 0 else 1
            value = cell.raw if self.percent[k] and not cell.percent else cell.value
            self.val.append(sign * value)
        self.category = [_category(c.col_text) for c in self.cells]
        self.lookups: dict[str, tuple[list[float], list[int]]] = {}
        self.computed: dict[str, tuple[list[float], list[_Computed]]] = {}
        self.by_row: dict[tuple[str, int], list[int]] = {}
        by_col: dict[tuple[str, int], list[int]] = {}
        for k, cell in enumerate(self.cells):
            self.by_row.setdefault((cell.table_index, cell.row), []).append(k)
            if not cell.change_column:
                by_col.setdefault((cell.table_index, cell.col), []).append(k)
        look: dict[str, list[tuple[float, int]]] = {"pct": [], "amount": [], "raw": []}
        comp: dict[str, list[tuple[float, _Computed]]] = {"pct": [], "amount": []}
        for k, cell in enumerate(self.cells):
            if self.percent[k]:
                look["pct"].append((float(abs(self.val[k]) / _HUNDRED), k))
                continue
            look["amount"].append((float(cell.value), k))
            if cell.raw != cell.value:  # per-share and physical amounts under a money scale
                look["raw"].append((float(cell.raw), k))
        # B: one metric across two periods of the same row and category
        for ids in self.by_row.values():
            dated = [k for k in ids if self.cells[k].years and not self.cells[k].change_column]
            for i, a in enumerate(dated):
                for b in dated[i + 1 :]:
                    ca, cb = self.cells[a], self.cells[b]
                    if ca.years == cb.years or self.percent[a] != self.percent[b]:
                        continue
                    if self.category[a] != self.category[b]:
                        continue  # "2023 Core" against "2022 Funds" is no change of one metric
                    new, old = (a, b) if max(ca.years) > max(cb.years) else (b, a)
                    vn, vo = self.val[new], self.val[old]
                    if self.percent[a]:  # percentage points between two percent cells
                        comp["pct"].append(
                            (float(abs(vn - vo) / 100), _Computed("pp_change", "B", (new, old)))
                        )
                        continue
                    comp["amount"].append(
                        (float(abs(vn - vo)), _Computed("change", "B", (new, old)))
                    )
                    if vo:
                        comp["pct"].append(
                            (float(abs((vn - vo) / vo)), _Computed("pct_change", "B", (new, old)))
                        )
        # C: two metrics of the same column (ratio, share of a total, sum)
        for ids in by_col.values():
            plain = [k for k in ids if not self.percent[k]][:max_pairs_per_column]
            for i, a in enumerate(plain):
                va = self.val[a]
                for b in plain[i + 1 :]:
                    vb = self.val[b]
                    comp["amount"].append((float(abs(va + vb)), _Computed("sum", "C", (a, b))))
                    for x, vx, y, vy in ((a, va, b, vb), (b, vb, a, va)):
                        if vy:
                            kind = "share" if abs(vx) < abs(vy) else "ratio"
                            comp["pct"].append((float(abs(vx / vy)), _Computed(kind, "C", (x, y))))
        for pool, items in look.items():
            items.sort(key=lambda t: t[0])
            self.lookups[pool] = ([v for v, _ in items], [k for _, k in items])
        for pool, entries in comp.items():
            entries.sort(key=lambda t: t[0])
            self.computed[pool] = ([v for v, _ in entries], [c for _, c in entries])

    def raw_precision(self, k: int) -> Decimal:
        cell = self.cells[k]
        number = cell.table.number(cell.row, cell.col)
        return number.precision if number is not None else Decimal(1)

    def __len__(self) -> int:
        return sum(len(v[0]) for v in self.lookups.values()) + sum(
            len(v[0]) for v in self.computed.values()
        )

    # -- exact values of candidates ----------------------------------------

    def exact(self, kind: str, ids: tuple[int, ...]) -> Decimal:
        """The candidate's exact value: fraction for the percent pool, base value otherwise."""
        v = [self.val[k] for k in ids]
        with localcontext() as ctx:
            ctx.prec = 40
            if kind == "lookup":
                return abs(v[0]) / _HUNDRED if self.percent[ids[0]] else abs(v[0])
            if kind == "raw_lookup":
                return self.cells[ids[0]].raw
            if kind == "change":
                return abs(v[0] - v[1])
            if kind == "pp_change":
                return abs(v[0] - v[1]) / _HUNDRED
            if kind == "pct_change":
                return abs((v[0] - v[1]) / v[1])
            if kind in ("ratio", "share"):
                return abs(v[0] / v[1])
            if kind == "sum":
                return abs(v[0] + v[1])
            if kind == "ratio_change":  # (a1 / b1) - (a2 / b2), in fraction points
                return abs(v[0] / v[1] - v[2] / v[3])
        raise ValueError(kind)


# Computed candidates (B-D) need this much label and period fit. Measured on the
# pilot with another report's tables: without it 19% of spans "derive" by
# coincidence (mostly shares of loosely named rows), with 0.4 5%; agreement
# with the unanimous labels drops only from 0.91 to 0.87.
MIN_COMPUTED_SCORE = 0.4
_SCENARIO_PRIOR = {"A": 0.0, "B": -0.5, "C": -0.8, "D": -1.1}


def _round_half_up(x: Decimal, step: Decimal) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 60
        return (x / step).quantize(Decimal(1), rounding=ROUND_HALF_UP)


def supports(span_value: Decimal, span_precision: Decimal, value: Decimal) -> bool:
    """A table value supports a span when, rounded to the span's own precision, it equals it.

    The sentence rounds the table, never the other way: a cell's digits are all
    exact, an integer cell's trailing zeros too ("10" in millions is not "$13
    million", "50%" is not "45.4%"). Magnitudes: the sentence's words carry the sign.
    """
    if span_precision <= 0:
        return abs(span_value) == abs(value)
    return _round_half_up(abs(value), span_precision) * span_precision == abs(span_value)


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


def find_derivation(
    span_number: str | NumberSpan | ParsedNumber,
    tables: Sequence[Table] | DerivationIndex,
    sentence_context: str,
    *,
    neighbours: str = "",
    mask: tuple[int, int] | None = None,
    min_score: float = MIN_COMPUTED_SCORE,
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
    sentence (or its neighbours) names: coincidences are otherwise common.
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
    near = set(_tokens(neighbours))
    # a span of one or two significant digits ("$0.6 million") equals many cells by chance
    digits = _significant_digits(number)
    years = set(_YEAR.findall(sentence_context))
    if mask is None and isinstance(span_number, NumberSpan):
        mask = (span_number.start, span_number.end)
    if mask is None and text in sentence_context:
        at = sentence_context.index(text)
        mask = (at, at + len(text))
    before, after = (sentence_context[: mask[0]], sentence_context[mask[1] :]) if mask else ("", "")
    role = mask_role(before, after) if mask else "level"
    # The period of the blank's own clause ("[MASK] for 2022"); without a mask, any year named.
    # "in 2023 and 2022 were [MASK] and $14.72 billion, respectively": the blank's slot
    period = _respectively_slot(before, after, _YEAR.findall(sentence_context)) if mask else None
    if period is None and mask:
        period = _target_year(before, after, role)
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
    context_metric = context | {
        re.sub(r"[^a-z]", "", a.lower()) for a in _ACRONYM.findall(sentence_context)
    }
    acronyms = {re.sub(r"[^a-z]", "", a.lower()) for a in _ACRONYM.findall(sentence_context)}

    def label_sets(cell: Cell) -> list[set[str]]:
        """The words naming a cell's metric: its row label, and the label with its heading."""
        row = cell.row_tokens - _GENERIC_WORDS
        if not cell.table.row_label(cell.row).strip():
            row = row | set(_tokens(cell.table.pre_text))  # an unlabelled one-row table
        initials = _initials(cell.table.row_label(cell.row)).lower()
        if len(initials) >= 2 and initials in acronyms:
            row = row | {initials}  # "R&D" names "Research and development"
        return [row, row | (cell.heading_tokens - _GENERIC_WORDS)]

    def coverage(cell: Cell, words: set[str]) -> float:
        """Share of the label's words the text names (the better of row, row + heading)."""
        return max((len(t & words) / len(t) for t in label_sets(cell) if t), default=0.0)

    def evidence(ids: tuple[int, ...], kind: str) -> bool:
        """The cells carry the span's metric and period, and the formula fits the blank's role."""
        cells = [index.cells[k] for k in ids]
        named_cells = cells
        if kind == "share" and not cells[1].table.row_label(cells[1].row).strip():
            named_cells = cells[:1]  # an unlabelled row under the items is the column's total
        rows = {(c.table_index, c.row): c for c in named_cells}.values()
        # metric: most of every row's label words are in the sentence (or, for a second
        # row, its neighbours), and one row is named by the sentence itself
        # computed values and one-digit spans match many cells by chance: most of each
        # label must be named; a lookup of a longer span needs one label word
        computed = kind not in ("lookup", "raw_lookup")
        need = _MIN_LABEL_COVERAGE if computed or digits < 2 else 1e-9
        named = [coverage(c, context_metric) >= need for c in rows]
        near_named = [coverage(c, context_metric | near) >= need for c in rows]
        if not any(named) or not all(near_named):
            return False
        if kind == "sum" and not (all(named) and _SUM_CUE.search(sentence_context)):
            return False  # a sum only where the sentence adds two named items
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
        # role: "increased [MASK]" is a change, "was [MASK]" a level
        is_change = kind in _CHANGE_KINDS or (
            kind in ("lookup", "raw_lookup") and cells[0].change_column
        )
        return is_change == (role == "change")

    def relevance(ids: tuple[int, ...]) -> float:
        best = 0.0
        for k in ids:
            tokens = index.cells[k].row_tokens
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

    found: list[tuple[float, str, tuple[int, ...], Decimal]] = []
    # A: lookups, searched in the widest window that a coarser cell precision allows
    pools = [(pool, "lookup")]
    per_share = re.search(
        re.escape(text) + r"\s+per\s+(?:diluted\s+|basic\s+|common\s+)?share", sentence_context
    )
    if not percent and (
        per_share or number.units - {"usd", "per_share"} or "per_share" in number.units
    ):
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
    # Best label and period fit first; among equals the simpler scenario, then fewer cells.
    found.sort(key=lambda t: (-t[0], SCENARIO_ORDER.index(_KIND_SCENARIO[t[1]]), len(t[2])))
    score, kind, cell_ids, value = found[0]
    reason = _reason(found, role)
    return _describe(index, kind, cell_ids, value, score, number, reason)


def _reason(found: list[tuple[float, str, tuple[int, ...], Decimal]], role: str) -> str:
    """Why the first candidate was chosen, in words a reviewer can check."""
    score, kind, _, _ = found[0]
    text = f"the blank reads as a {role}; {kind} with the best label and period fit ({score:.2f})"
    if len(found) > 1:
        runner = found[1]
        text += f"; next: {runner[1]} ({runner[0]:.2f}), {len(found) - 1} other candidate(s)"
    else:
        text += "; the only candidate"
    return text


# For spans of one or two significant digits, the share of a row label's words the
# sentence must name: "Interest income" is not named by "income tax expense ... [MASK]".
# Longer spans need one label word: their digits are evidence already.
_MIN_LABEL_COVERAGE = 0.6
# Label words that qualify a metric but never name one: sharing only these is no evidence.
_GENERIC_WORDS = frozenset(
    _tokens(
        "average net other per day daily annual annually basic diluted adjusted related impact "
        "effect result consolidated prior current including excluding"
    )
)
_SUM_CUE = re.compile(r"\b(?:combined|together|aggregate|in total|total of|sum of|plus)\b", re.I)
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


# --------------------------------------------------------------------------
# instances


def _uid(report_id: str, sentence: str, start: int, end: int) -> str:
    return str(uuid.uuid5(_UID_NAMESPACE, f"{report_id}\x1f{sentence}\x1f{start}:{end}"))


def span_ground_truth(span: NumberSpan) -> str:
    """The sentence's own span as the ground truth, scaled as in the released format.

    "$817.9 million" -> "$817,900,000", "34 percent" -> "34%", "-$(5.2) million" ->
    "-$5,200,000"; other units keep the span as written when the released scorer
    reads it ("55.5 MMBOE"), else the scaled number. Never a table value: the
    sentence is what the model must reproduce, and it may round the table.
    """
    number = span.number
    sign = "-" if number.sign < 0 else ""
    units = number.units
    if "percent" in units:
        return f"{sign}{_plain_digits(abs(number.value))}%"
    if "usd" in units:
        return f"{sign}${_plain_digits(abs(number.value), grouped=True)}"
    if released_value_and_resolution(span.text) is not None:
        return span.text.strip()
    return f"{sign}{_plain_digits(abs(number.value), grouped=True)}"


def _plain_digits(value: Decimal, grouped: bool = False) -> str:
    """A Decimal written out without exponent, keeping its written decimals ("13.0")."""
    if value == value.to_integral_value():
        value = value.quantize(Decimal(1))  # "$13.0 million" -> 13000000, as released
    text = f"{value:f}"
    if not grouped:
        return text
    whole, _, frac = text.partition(".")
    return f"{int(whole):,}" + (f".{frac}" if frac else "")


def build_instances(
    doc: FinancialDocument,
    *,
    report_id: str,
    filing_date: str | None = None,
    spans: str = "rules",
    answerability: str = "derivation",
    panel_models: Sequence[Any] = (),
    max_sentences: int | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    """One FAITH report record (metadata, MD&A tables, masked instances).

    ``answerability``: "derivation" (deterministic finder), "panel" (the finder
    plus an LLM panel), or "none". ``max_sentences`` samples that many
    sentences with spans (seeded), as the paper does with ten per report.
    """
    if answerability not in ("derivation", "panel", "none"):
        raise InputError(
            None, f"unknown answerability {answerability!r} (derivation, panel or none)"
        )
    if answerability == "panel" and not panel_models:
        raise InputError(None, "answerability 'panel' needs at least one panel model")
    corpus = mdna_corpus(doc)
    metadata = {
        "report_id": report_id,
        "cik": doc.metadata.get("cik"),
        "company": doc.metadata.get("company"),
        "filing_date": filing_date or doc.metadata.get("filing_date"),
        "report_type": doc.metadata.get("report_type"),
        "source": doc.metadata.get("source"),
        "builder": f"finprobe-faith-build/{BUILDER_VERSION}",
        "spans": spans,
        "answerability": answerability,
        "has_mdna": corpus is not None,
    }
    record: dict[str, Any] = {"metadata": metadata, "tables": [], "instances": []}
    if corpus is None:
        return record
    record["tables"] = [
        {
            "table_index": t.id[1:],
            "pre_text": t.pre_text,
            "cells": [list(r) for r in t.cells],
            "source_block": t.source_id,
        }
        for t in corpus.tables
    ]
    found = [(i, mask_spans(s, spans)) for i, s in enumerate(corpus.sentences)]
    found = [(i, f) for i, f in found if f]
    if max_sentences is not None and len(found) > max_sentences:
        rng = random.Random(f"{report_id}:{seed}")
        found = sorted(rng.sample(found, max_sentences))
    index = DerivationIndex(corpus.tables) if answerability != "none" and corpus.tables else None
    sentences = corpus.sentences
    seen: set[str] = set()
    for i, span_list in found:
        sentence = sentences[i]
        pre = sentences[i - 1] if i > 0 else ""
        post = sentences[i + 1] if i + 1 < len(sentences) else ""
        for span in span_list:
            uid = _uid(report_id, sentence, span.start, span.end)
            if uid in seen:  # a sentence repeated in the report would be the same test item twice
                continue
            seen.add(uid)
            derivation = (
                find_derivation(span, index, sentence, neighbours=f"{pre} {post}")
                if index is not None
                else None
            )
            instance: dict[str, Any] = {
                "uid": uid,
                "sentence": sentence,
                "pre_sentence": pre,
                "post_sentence": post,
                "mask_type": derivation.scenario if derivation else None,
                "mask_span": [span.start, span.end],
                "masked_sentence": sentence[: span.start] + "[MASK]" + sentence[span.end :],
                "span_text": span.text,
                "ground_truth": span_ground_truth(span),
                "span_kind": span.kind,
                "derivation": derivation.to_json() if derivation else None,
                "answerable_by": {},
            }
            if answerability != "none":
                instance["answerable_by"]["derivation"] = derivation is not None
            record["instances"].append(instance)
    if answerability == "panel" and record["instances"]:
        labels = panel_answerability(record, panel_models)
        for instance in record["instances"]:
            instance["answerable_by"]["panel"] = labels.get(instance["uid"], {})
    for instance in record["instances"]:
        # None: nothing judged it (answerability "none"); scored apart as unlabelled
        instance["answerable"] = is_answerable(instance) if answerability != "none" else None
    return record


def is_answerable(instance: dict[str, Any]) -> bool:
    """Derivation found, or (when a panel ran) a unanimous "answerable" panel."""
    by = instance.get("answerable_by") or {}
    panel = by.get("panel")
    if panel is not None:
        return unanimous(panel) == "answerable"
    return bool(by.get("derivation"))


def unanimous(labels: dict[str, str | None]) -> str | None:
    values = list(labels.values())
    if values and all(v == values[0] for v in values) and values[0] is not None:
        return values[0]
    return None


# --------------------------------------------------------------------------
# LLM panel


def _normalise_label(value: Any) -> str | None:
    text = str(value).strip().lower()
    if text.startswith("unanswer") or text in ("no", "false"):
        return "unanswerable"
    if text.startswith("answer") or text in ("yes", "true"):
        return "answerable"
    return None


def _highlight(sentence: str, spans: list[tuple[int, int]]) -> str:
    out, pos = [], 0
    for start, end in sorted(spans):
        out += [sentence[pos:start], "<SPAN>", sentence[start:end], "</SPAN>"]
        pos = end
    return "".join(out) + sentence[pos:]


def _labels_from_reply(reply: str, span_texts: list[str]) -> dict[str, str | None]:
    from finprobe.jsonout import extract_json

    data = extract_json(reply)
    spans = data.get("spans") if isinstance(data, dict) else None
    if not isinstance(spans, dict):
        return dict.fromkeys(span_texts)
    lookup = {
        str(k).replace("<SPAN>", "").replace("</SPAN>", "").strip(): v for k, v in spans.items()
    }
    out: dict[str, str | None] = {}
    for text in span_texts:
        value = lookup.get(text.strip())
        if value is None and len(lookup) == 1 and len(span_texts) == 1:
            value = next(iter(lookup.values()))  # a single span named a little differently
        out[text] = _normalise_label(value) if value is not None else None
    return out


def panel_answerability(
    record: dict[str, Any],
    models: Sequence[Any],
    *,
    max_connections: int = 8,
) -> dict[str, dict[str, str | None]]:
    """Ask each panel model which spans are answerable: {uid: {model: label}}.

    One prompt per sentence with all its spans highlighted (the paper's A.1
    protocol); ``models`` are inspect model names or ``Model`` objects. A reply
    without a usable label gives None, which breaks unanimity.
    """
    from inspect_ai.model import GenerateConfig, Model, get_model

    from finprobe.benchmarks.faith.prompts import answerability_prompt

    resolved = [m if isinstance(m, Model) else get_model(str(m)) for m in models]
    names = [str(m) if not isinstance(m, Model) else m.name for m in models]
    if len(set(names)) != len(names):
        names = [f"{n}#{i}" for i, n in enumerate(names)]
    tables = [
        {"index": t["table_index"], "pre_text": t["pre_text"], "cells": t["cells"]}
        for t in record["tables"]
    ]
    groups: dict[str, list[dict[str, Any]]] = {}
    for instance in record["instances"]:
        groups.setdefault(instance["sentence"], []).append(instance)

    async def run() -> dict[str, dict[str, str | None]]:
        limit = asyncio.Semaphore(max_connections)
        result: dict[str, dict[str, str | None]] = {i["uid"]: {} for i in record["instances"]}

        async def ask(model: Any, name: str, members: list[dict[str, Any]]) -> None:
            first = members[0]
            metadata = {
                "tables": tables,
                "filing_date": record["metadata"].get("filing_date") or "",
                "pre_sentence": first["pre_sentence"],
                "post_sentence": first["post_sentence"],
            }
            spans = [tuple(m["mask_span"]) for m in members]
            prompt = answerability_prompt(metadata, _highlight(first["sentence"], spans))
            async with limit:
                output = await model.generate(prompt, config=GenerateConfig(temperature=0.0))
            labels = _labels_from_reply(output.completion, [m["span_text"] for m in members])
            for m in members:
                result[m["uid"]][name] = labels.get(m["span_text"])

        await asyncio.gather(
            *(ask(model, name, members) for model, name in zip(resolved, names, strict=True)
              for members in groups.values())
        )  # fmt: skip
        return result

    return asyncio.run(run())


# --------------------------------------------------------------------------
# files


_SUFFIXES = (".json", ".json.gz", ".htm", ".html", ".txt", ".md")


def collect_inputs(paths: Iterable[str | Path]) -> list[Path]:
    """Input files: given files, and report files inside given folders (sorted)."""
    out: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.exists():
            raise InputError(path, "no such file or folder")
        if path.is_dir():
            found = sorted(
                p for p in path.iterdir() if p.is_file() and p.name.lower().endswith(_SUFFIXES)
            )
            if not found:
                raise InputError(path, "folder holds no .json, .json.gz, .html or .txt reports")
            out.extend(found)
        else:
            out.append(path)
    return out


def _is_10q(path: Path, doc: FinancialDocument) -> bool:
    kind = str(doc.metadata.get("report_type") or "")
    if kind:
        return "10-Q" in kind.upper()
    if re.search(r"10-?Q", path.name, re.I):
        return True
    return bool(re.search(r"FORM\s+10-Q", doc.text()[:5000], re.I))


def build_from_paths(
    paths: Iterable[str | Path],
    out: str | Path,
    *,
    spans: str = "rules",
    answerability: str = "derivation",
    panel_models: Sequence[Any] = (),
    keep_unanswerable: bool = False,
    limit: int | None = None,
    max_sentences: int | None = None,
    include_10q: bool = False,
    seed: int = 0,
    progress: bool = True,
) -> dict[str, Any]:
    """Build a FAITH dataset JSON from report files and return a summary."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from finprobe.files import write_json_atomic

    if answerability == "none" and not keep_unanswerable:
        raise InputError(
            None,
            "--answerability none judges no span answerable: add --keep-unanswerable "
            "to write them all, marked unlabelled",
        )
    files = collect_inputs(paths)
    if limit is not None:
        files = files[:limit]
    started = time.perf_counter()
    records: list[dict[str, Any]] = []
    sources: list[Path] = []
    skipped_10q: list[str] = []
    no_mdna: list[str] = []
    with Progress(
        TextColumn("[bold]faith build[/]"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TextColumn("{task.description}"), disable=not progress,
    ) as bar:  # fmt: skip
        task = bar.add_task("", total=len(files))
        for path in files:
            bar.update(task, description=path.name)
            doc = load_document(path)
            if _is_10q(path, doc) and not include_10q:
                skipped_10q.append(path.name)
                bar.advance(task)
                continue
            record = build_instances(
                doc,
                report_id=doc.id,
                spans=spans,
                answerability=answerability,
                panel_models=panel_models,
                max_sentences=max_sentences,
                seed=seed,
            )
            if not record["metadata"]["has_mdna"]:
                no_mdna.append(path.name)
            record["metadata"]["kept_unanswerable"] = keep_unanswerable
            if not keep_unanswerable:
                record["instances"] = [i for i in record["instances"] if i["answerable"]]
            records.append(record)
            sources.append(path)
            bar.advance(task)
    write_json_atomic(Path(out), records)
    card = build_card(records, sources)
    card_path = Path(f"{out}.card.json")
    write_json_atomic(card_path, card)
    summary = summarize_dataset(records)
    summary["card"] = str(card_path)
    summary["self_check"] = {k: v for k, v in card["self_check"].items() if k != "failed"}
    summary["self_check"]["failed"] = len(card["self_check"]["failed"])
    summary["swapped_tables"] = card.get("swapped_tables")
    summary["sentence_only_probe"] = card["sentence_only_probe"]
    summary.update(
        out=str(out),
        files=len(files),
        skipped_10q=skipped_10q,
        reports_without_mdna=no_mdna,
        seconds=round(time.perf_counter() - started, 1),
    )
    return summary


def build_card(records: list[dict[str, Any]], sources: list[Path]) -> dict[str, Any]:
    """The data card of a build: self-check against the source files, swapped-tables negative."""
    from finprobe.benchmarks.faith.card import data_card

    readers = [
        _source_cell_reader(path, record) for path, record in zip(sources, records, strict=True)
    ]
    swapped: list[bool] = []
    with_tables = [n for n, r in enumerate(records) if r["tables"]]
    if len(with_tables) > 1:
        indexes = {
            n: DerivationIndex(load_faith_report(records[n], f"card-{n}").tables)
            for n in with_tables
        }
        for pos, n in enumerate(with_tables):
            other = indexes[with_tables[(pos + 1) % len(with_tables)]]
            for inst in records[n]["instances"]:
                if not inst.get("answerable"):
                    continue
                start, end = inst["mask_span"]
                found = find_derivation(
                    inst["sentence"][start:end],
                    other,
                    inst["sentence"],
                    neighbours=f"{inst['pre_sentence']} {inst['post_sentence']}",
                    mask=(start, end),
                )
                swapped.append(found is not None)
    return data_card(records, source_cells=readers, swapped=swapped)


def _source_cell_reader(
    path: Path, record: dict[str, Any]
) -> Callable[[str, int, int], str | None]:
    """Reads a cited cell from the source report, loaded again (not the builder's copy)."""
    doc = load_document(path)
    blocks = {b.id: b for b in doc.blocks if isinstance(b, Table)}
    source = {str(t["table_index"]): t.get("source_block") for t in record["tables"]}

    def read(table_index: str, row: int, col: int) -> str | None:
        block = blocks.get(source.get(table_index) or "")
        if block is None or row >= len(block.cells) or col >= len(block.cells[row]):
            return None
        return block.cells[row][col]

    return read


def summarize_dataset(records: list[dict[str, Any]]) -> dict[str, Any]:
    instances = [i for r in records for i in r["instances"]]
    scenario = Counter(i.get("mask_type") or "none" for i in instances)
    kinds = Counter(i.get("span_kind") or "?" for i in instances)
    panel = [i for i in instances if (i.get("answerable_by") or {}).get("panel") is not None]
    return {
        "reports": len(records),
        "reports_with_mdna": sum(bool(r["metadata"].get("has_mdna", True)) for r in records),
        "tables": sum(len(r["tables"]) for r in records),
        "instances": len(instances),
        "sentences": len(
            {
                (r["metadata"].get("report_id"), i["sentence"])
                for r in records
                for i in r["instances"]
            }
        ),
        "scenario_mix": {k: scenario.get(k, 0) for k in (*SCENARIO_ORDER, "none")},
        "span_kinds": dict(kinds.most_common()),
        "answerable": {
            "derivation": sum(
                bool((i.get("answerable_by") or {}).get("derivation")) for i in instances
            ),
            "panel_unanimous": sum(
                unanimous(i["answerable_by"]["panel"]) == "answerable" for i in panel
            ),
            "panel_labelled": len(panel),
        },
    }


# --------------------------------------------------------------------------
# synthetic default dataset


def _synthetic_records(n_reports: int, seed: int) -> list[dict[str, Any]]:
    from finprobe.synth import make_corpus, to_faith_record

    records = []
    for report in make_corpus(n_reports, seed=seed):
        record = to_faith_record(report)
        record["metadata"].update(
            report_id=f"synthetic-{report.seed}",
            company=report.company,
            builder=f"finprobe-faith-synthetic/{BUILDER_VERSION}",
        )
        report_id = record["metadata"]["report_id"]
        table_index = {t.id: str(i) for i, t in enumerate(report.document.tables)}
        paragraphs = {p.id: p.text for p in report.document.paragraphs}
        for s in report.sentences:
            if not s.answerable or s.derivation is None:
                continue
            pieces = [p for p in split_sentences(paragraphs.get(s.block_id, s.text))]
            at = next((k for k, p in enumerate(pieces) if p.start <= s.offset < p.end), None)
            pre = _clean_sentence(pieces[at - 1].text) if at else ""
            post = (
                _clean_sentence(pieces[at + 1].text)
                if at is not None and at + 1 < len(pieces)
                else ""
            )
            start, end = s.span
            d = s.derivation
            record["instances"].append(
                {
                    "uid": _uid(report_id, s.text, start, end),
                    "sentence": s.text,
                    "pre_sentence": pre,
                    "post_sentence": post,
                    "mask_type": d.scenario,
                    "mask_span": [start, end],
                    "masked_sentence": s.text[:start] + "[MASK]" + s.text[end:],
                    "span_text": s.span_text,
                    "ground_truth": d.reference,
                    "derivation": {
                        "kind": d.kind,
                        "scenario": d.scenario,
                        "formula": d.formula,
                        "value": d.reference,
                        "cells": [
                            {
                                "table_index": table_index.get(c.table_id, c.table_id),
                                "row": c.row,
                                "col": c.col,
                                "row_label": c.metric,
                                "column_label": c.period,
                                "text": str(c.value),
                            }
                            for c in d.inputs
                        ],
                    },
                    "answerable_by": {"synthetic": True},
                }
            )
        records.append(record)
    return records


def synthetic_dataset(path: Path | None = None, n_reports: int = 3, seed: int = 0) -> Path:
    """FAITH instances from synthetic reports (answerable sentences, their own derivations).

    Written to ``path``, else ``$FINPROBE_HOME/faith-synthetic-<seed>.json``, else
    a ``finprobe`` folder in the system temp dir. Rebuilt on every call (it takes
    well under a second), so a cached file never goes stale.
    """
    from finprobe.files import cache_dir, write_json_atomic

    if path is None:
        suffix = "" if n_reports == 3 else f"-n{n_reports}"
        path = cache_dir() / f"faith-synthetic-{seed}{suffix}.json"
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_json_atomic(path, _synthetic_records(n_reports, seed))
    return path


# --------------------------------------------------------------------------
# agreement with the pilot's LLM labels


def agreement_with_pilot(pilot_path: str | Path, *, swapped_tables: bool = True) -> dict[str, Any]:
    """Run the derivation finder on every pilot span and compare with the pilot's labels.

    The LLM label is the unanimous value of the three released ``*_label``
    fields (None when they disagree). Also compares the finder's scenario with
    the annotated ``mask_type``, and its value with the ``ground_truth`` (Algorithm
    1, numeric). With ``swapped_tables`` the finder also runs with each report's
    tables swapped for the next report's (report i gets report i+1's tables): a
    derivation found there is a coincidence, so ``swapped_found_rate`` measures them.
    """
    path = Path(pilot_path)
    data = read_json(path)
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not all(
        isinstance(r, dict) and "instances" in r for r in data
    ):
        raise InputError(path, "not a FAITH dataset (expected a list of reports with 'instances')")
    started = time.perf_counter()
    indexes = []
    for n, record in enumerate(data):
        doc = load_faith_report(record, f"{path.stem}-{n}")
        indexes.append(DerivationIndex(doc.tables))
    confusion: Counter[tuple[str, str]] = Counter()
    scenarios: Counter[tuple[str, str]] = Counter()
    value_match = found_total = swapped_found = total = 0
    for n, record in enumerate(data):
        for inst in record["instances"]:
            try:
                start, end = (int(x) for x in inst["mask_span"])
                sentence = inst["sentence"]
            except (KeyError, TypeError, ValueError) as exc:
                raise InputError(
                    path, f"report {n}: instance without sentence/mask_span ({exc})"
                ) from None
            span = sentence[start:end]
            neighbours = f"{inst.get('pre_sentence') or ''} {inst.get('post_sentence') or ''}"
            derivation = find_derivation(
                span, indexes[n], sentence, neighbours=neighbours, mask=(start, end)
            )
            labels = {k: inst.get(k) for k in RELEASED_LABEL_FIELDS}
            llm = unanimous(labels) if all(labels.values()) else None
            finder = "answerable" if derivation else "unanswerable"
            confusion[(llm or "split", finder)] += 1
            scenarios[
                (str(inst.get("mask_type")), derivation.scenario if derivation else "none")
            ] += 1
            total += 1
            if derivation:
                found_total += 1
                value_match += _prm(str(inst.get("ground_truth", "")), derivation.text).numeric
            if swapped_tables and len(data) > 1:
                other = indexes[(n + 1) % len(data)]
                swapped_found += (
                    find_derivation(span, other, sentence, neighbours=neighbours, mask=(start, end))
                    is not None
                )
    unanimous_rows = [(k, v) for k, v in confusion.items() if k[0] != "split"]
    agree = sum(v for (llm, finder), v in unanimous_rows if llm == finder)
    n_unanimous = sum(v for _, v in unanimous_rows)
    with_type = sum(v for (t, _), v in scenarios.items() if t in SCENARIO_ORDER)
    same_type = sum(v for (t, f), v in scenarios.items() if t == f)
    return {
        "pilot": str(path),
        "instances": total,
        "unanimous": n_unanimous,
        "agreement": agree,
        "agreement_rate": round(agree / n_unanimous, 4) if n_unanimous else None,
        "finder_found": found_total,
        "confusion": {f"{llm}|{finder}": v for (llm, finder), v in sorted(confusion.items())},
        "scenario_confusion": {f"{t}|{f}": v for (t, f), v in sorted(scenarios.items())},
        "scenario_agreement_rate": round(same_type / with_type, 4) if with_type else None,
        "value_match_rate": round(value_match / found_total, 4) if found_total else None,
        "swapped_found_rate": round(swapped_found / total, 4)
        if swapped_tables and total and len(data) > 1
        else None,
        "seconds": round(time.perf_counter() - started, 2),
    }
