"""``finprobe/faith-solver``: answer FAITH spans from the tables, without an LLM.

It sees only what a model sees (tables with pre-texts, the masked sentence, its
neighbours and the unit hint). It proposes candidates (every numeric cell, and
simple derivations: change, percentage change, ratio, share of total, sum) and
ranks them by how well they fit the sentence:

- words near the mask against the candidate's row label, column label and table
  pre-text (weighted by rarity across the document's labels);
- periods named in the sentence against the column headers;
- anchors: other numbers of the sentence found in the tables pull candidates from
  the same row or column, and an anchor's own value is not the answer;
- the hint's unit type (percent, money, plain number, physical unit);
- a prior that favours direct lookups, as real MD&A text does.

Measures the sentence defines in words are computed from the statement lines they
name and placed above the table candidates when the hint's unit fits: named ratios
("gross margin", "operating margin", "effective tax rate", "current ratio", "return
on average equity"), "X, or [MASK] of revenue" and "X as a percentage of Y", listed
items "together"/"combined" (a sum, or a sum's share of a base line), "defined as A
less B", "excluding S, revenue grew", compound annual growth, and the change of any of
these between periods (points for a ratio). A per-share anchor ("or $6.86 per diluted
share") explains its own row: the blank is the amount, not a per-share figure. Reason
clauses ("reflecting higher subscription renewals") do not name the blank's row, and
synonyms ("capital expenditures") reach the tables' spelling. What-if sentences ("a 10
percent decrease in prices would have reduced revenue by [MASK]", "a one percent change
in the effective tax rate", "a 100-basis-point increase" on variable-rate debt) are the
shock times its base (expense / rate for a tax rate; debt rows for interest rates), or,
with the shock blank, the stated effect over a base when that is a round percentage.
Parallel lists ("31.8%, [MASK] and 26.0% ... in the New York, Southeast, and Northeast
regions"; "oil, gas, and NGL revenues by $X, [MASK], and $Z, respectively") give the
blank its item's row. An anchor named by its own clause ("premium of $0.2 million") is
that row's figure for the blank's period, so the row's other periods are not the blank;
"[MASK], of which $X was variable-rate" names the part after "of which", not the blank.
A money blank is never a share count, area or headcount row. A blank asked in basis
points is a percentage answered in basis points (a ratio's change in points x 100). A rate
at one end of a stated move is the other end moved by the stated points ("improved 360
basis points to 25.1% from [MASK]" is 21.5%); a named rate that a table row states itself
is read from that row, not recomputed from the statement lines.

Table reading rules: per-share and per-unit rows are never scaled; a body heading
"Revenue (in millions):" scales the rows under it; a table with no stated scale
whose cells match the sentence's money figures only in thousands is read in
thousands; a row naming a rate whose cells are amounts ("Total Debt - Variable Rate |
$426,380") takes the table's money scale; a row label "2023 vs. 2022" gives its cells'
periods; a column whose first value has "%" is a percent column; year-less
columns belong to the table's latest period; acronyms ("R&D") and word prefixes
("excluding" / "Excl.") reach the tables' spelling.

Periods and changes: "[MASK] in the prior year" is the year before the sentence's
(or the report's) own; a quarter's figure ("three months ended", "fourth quarter")
reads quarter columns and any other a year's; a change compares the sentence's two
years, or its one year (or the report's latest) with the year before; "rose" /
"declined" around a change blank favours a change that moved that way; a change is
taken on the signed cells (across zero it adds up); a row of rates changes by points; a
change's one year named after "compared to" is its older side; a change column's cell is
never one end of a derived change. In a run of bullets the blank's own item is its sentence.
Label words: a small synonym map (revenue / sales, income / earnings, expense / cost,
...) counts apart from the sentence's own words; dates in a row label are period
words, not label words. An unscaled table takes the scale that the neighbouring
sentences' money figures fit when the blank's own sentence gives no evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from finprobe.benchmarks.faith.cells import (
    _PER_SHARE_ROW,
    Cell,
    implied_scale,
    numeric_cells,
    per_share_cell,
    period_length_fits,
)
from finprobe.benchmarks.faith.context import (
    FIGURE_UNITS,
    Candidate,
    Context,
    Scorer,
    SolverAnswer,
    _derived,
    _matches_anchor,
    _pairwise,
    expand_context,
    figures,
    older_year,
    read_context,
    settle_period,
)
from finprobe.benchmarks.faith.measures import (
    MeasureReader,
    _anchor_rows,
    measure_candidates,
    named_base_cells,
    stated_points_change,
    stated_rate_endpoint,
)
from finprobe.benchmarks.faith.ranker import Ranker, load_ranker
from finprobe.benchmarks.faith.rules import (
    NAMING_FEATURES,
    admissible,
    blank_clause,
    per_share_blank,
)
from finprobe.benchmarks.faith.sensitivity import _listed_items, names_item, sensitivity_candidates
from finprobe.benchmarks.faith.sentence import _YEAR, AMOUNT, _tokens, change_pair
from finprobe.document import Table
from finprobe.numbers import released_value_and_resolution


@dataclass(frozen=True)
class SolverOptions:
    """Rule families that can be switched off, so folds by report can choose among them.

    ``measures``: measures the sentence defines in words (margins, shares, sums);
    ``sensitivity``: what-if sentences and parallel lists; ``anchor_rules``: the
    sentence's other numbers demote their own cells and columns.
    """

    measures: bool = True
    sensitivity: bool = True
    anchor_rules: bool = True
    # the candidate score's weights (``ranker.py``): None is the shipped learned ranker
    # (``load_ranker()``, a conditional logit fitted on built 10-Ks and pilot-dev);
    # ``HAND_RANKER`` is the rule weights written while looking at pilot-dev
    ranker: Ranker | None = None


ALL_RULES = SolverOptions()


def rank_candidates(
    metadata: dict[str, Any], options: SolverOptions = ALL_RULES
) -> list[Candidate]:
    """Every candidate with its fit score, best first."""
    tables = [
        (
            str(t["index"]),
            Table(id=f"t{t['index']}", cells=t["cells"], pre_text=t.get("pre_text", "")),
        )
        for t in metadata.get("tables", [])
    ]
    context = read_context(metadata)
    masked = metadata["masked_sentence"]
    plain = [t for _, t in tables]
    expand_context(context, plain, masked)
    settle_period(context, plain, metadata.get("pre_sentence") or "")
    scorer = Scorer(plain, context)
    cells: list[Cell] = []
    # a table with no stated scale is read at the scale the nearby text's money figures
    # fit: the sentence's own, then its neighbours'
    nearby = _money_figures(
        metadata.get("pre_sentence", "") + " " + metadata.get("post_sentence", "")
    )
    for index, table in tables:
        cells.extend(numeric_cells(table, index, implied_scale(table, context.anchors, nearby)))
    if not cells:
        return []

    by_row: dict[tuple[str, int], list[Cell]] = {}
    for cell in cells:
        by_row.setdefault((cell.table_index, cell.row), []).append(cell)
    if not (context.wants_money or context.wants_percent):
        _unscale_written_rows(by_row, context.anchors, context.sentence)
    row_fit = {
        key: scorer.label_fit(group[0].row_tokens, group[0].heading_tokens)
        + scorer.table_fit(group[0].table)
        for key, group in by_row.items()
    }
    # an anchor that matches few cells is a precise pointer; "1%" matching dozens is noise
    anchor_rows: dict[tuple[str, int], float] = {}
    anchor_cols: dict[tuple[str, str], float] = {}
    explained: set[tuple[str, int]] = set()
    same_measure: set[tuple[str, int, str]] = set()
    for anchor in context.anchors:
        hits = {(c.table_index, c.row) for c in cells if _matches_anchor(c, [anchor], c.percent)}
        if "per_share" in anchor.units and not context.per_share_blank:
            # "Net income of [MASK], or $6.86 per diluted share": the anchor explains its
            # own per-share row; the blank is the amount it is per share of
            explained |= {key for key in by_row if _PER_SHARE_ROW.search(key_label(by_row, key))}
            continue
        for key in hits:
            anchor_rows[key] = anchor_rows.get(key, 0.0) + 6.0 / (1 + len(hits))
        # "premium of $0.2 million and loan costs of [MASK]" (one period): the anchor is
        # its row's figure for the blank's period, so the blank is another row; the
        # row's other periods in the anchor's column are not the blank either
        target = context.year_slot or context.target_year or scorer.current_year
        own = _anchor_rows(masked, anchor, hits, by_row, scorer)
        if options.anchor_rules and context.role == "level" and target and 0 < len(own) <= 2:
            for c in cells:
                if (
                    (c.table_index, c.row) in own
                    and target in c.years
                    and _matches_anchor(c, [anchor], c.percent)
                ):
                    same_measure.add((c.table_index, c.row, _column_key(c)))
        # "31.8%, [MASK] and 26.0%": listed figures sit in one column of one table
        if options.anchor_rules and 0 < len(hits) <= 3:
            for c in cells:
                if (c.table_index, c.row) in hits and _matches_anchor(c, [anchor], c.percent):
                    key = ("", _column_key(c))
                    anchor_cols[key] = anchor_cols.get(key, 0.0) + 1.5 / len(hits)

    candidates = [
        Candidate(
            c.raw if context.physical_unit and not context.wants_money else c.value,
            c.percent,
            "lookup",
            "A",
            [c],
            f"{c.table.row_label(c.row)}, {c.col_text}",
        )
        for c in cells
    ]
    ranked_rows = sorted(row_fit, key=row_fit.get, reverse=True)[:12]
    beside = _beside_blank(masked)
    ends = _change_ends(masked) if context.role == "change" else []
    moved_rows = _rows_moved_by(by_row, beside)
    if set(moved_rows) & {*anchor_rows, *ranked_rows}:
        moved_rows = []  # a row the sentence names moved by it: no need to look further
    candidates += _derived(by_row, list(dict.fromkeys([*anchor_rows, *ranked_rows, *moved_rows])))
    best_cells = sorted(
        cells,
        key=lambda c: row_fit[(c.table_index, c.row)] + scorer.year_fit(c.years),
        reverse=True,
    )[:10]
    # a share's part is often the sentence's own figure ("$768.1 million, or [MASK] of total")
    anchored = [
        c
        for c in cells
        if (c.table_index, c.row) in anchor_rows
        and c not in best_cells
        and _matches_anchor(c, context.anchors, c.percent)
    ]
    reader = MeasureReader(by_row, scorer)
    pool = best_cells + anchored[:6]
    if (context.wants_percent or context.wants_plain) and context.role != "change":
        # "[MASK] of our revenues": a share's base, as the measure reader reads it
        after = masked.partition("[MASK]")[2]
        pool += [c for c in named_base_cells(after, best_cells, reader, by_row) if c not in pool]
    candidates += _pairwise(pool)

    listed = _listed_items(masked) if options.sensitivity else None
    row_parts = {
        key: {
            **scorer.label_parts(
                group[0].row_tokens,
                group[0].heading_tokens,
                _tokens(group[0].table.row_label(group[0].row)),
            ),
            "table_words": scorer.table_words(group[0].table),
        }
        for key, group in by_row.items()
    }
    ranker = options.ranker or load_ranker()
    # "Net income, the numerator of diluted earnings per share, was [MASK]": per-share
    # words outside the blank's clause do not make it a per-share figure
    per_share = per_share_blank(context, masked)
    level_moves = _level_change_figures(masked) if context.role == "level" else []
    for cand in candidates:
        feats = _features(cand, context, scorer, row_parts, anchor_rows)
        if any((c.table_index, c.row) in explained for c in cand.cells):
            feats["explained"] = 1.0
        if not per_share and context.wants_money and all(map(per_share_cell, cand.cells)):
            feats["per_share_other"] = 1.0
        if _companion(cand, by_row, context.anchors, beside):
            feats["companion"] = 1.0
        if ends and cand.kind in ("change", "pct_change") and _ends_match(cand, ends):
            feats["companion"] = 1.0  # the change ends at the sentence's figure
        if cand.kind == "lookup" and _level_moved_by(
            cand.cells[0], by_row[(cand.cells[0].table_index, cand.cells[0].row)], level_moves
        ):
            feats["companion"] = 1.0  # the level's own change is the sentence's
        if cand.kind == "lookup":
            first = cand.cells[0]
            feats["anchor_column"] = anchor_cols.get(("", _column_key(first)), 0.0)
            if (first.table_index, first.row, _column_key(first)) in same_measure:
                feats["same_measure"] = 1.0
        elif any((c.table_index, c.row) == key[:2] for c in cand.cells for key in same_measure):
            feats["same_measure"] = 1.0
        if listed and cand.kind == "lookup":
            # the blank's item of a parallel list names its row; the other items do not
            slot, names = listed
            label = cand.cells[0].table.row_label(cand.cells[0].row)
            others = any(names_item(label, n) for n in names if n != names[slot])
            if names_item(label, names[slot]) and not others:
                feats["listed_item"] = 1.0
            elif others and not names_item(label, names[slot]):
                feats["listed_other"] = 1.0  # the other items' rows hold the other figures
        cand.features = feats
        cand.score = ranker.score(feats)
    candidates.sort(key=_rank_key, reverse=True)
    # the what-if rules read their bases (a tax rate for a money blank) from every cell
    everything = candidates
    # what the blank can never be, whatever the weights (``rules.py``)
    clause_rows = _clause_rows(metadata, [t for _, t in tables], by_row, bool(listed))
    candidates = admissible(candidates, context, masked, listed, clause_rows)
    top = candidates[0].score if candidates else 0.0
    measured = []
    for cand in (
        measure_candidates(metadata, context, reader, scorer.current_year)
        if options.measures
        else []
    ):
        if not _fits_hint(cand, context):
            continue
        cand.score = top + cand.score - 2.0
        measured.append(cand)
    if options.measures:
        # both rates (or one rate and the move) are the sentence's own
        for stated in (
            stated_points_change(masked, context),
            stated_rate_endpoint(masked, context),
        ):
            if stated is not None:
                stated.score = top + stated.score
                measured.append(stated)
    if options.sensitivity:
        measured += sensitivity_candidates(masked, context, everything, by_row)
    if measured:
        candidates = sorted(candidates + measured, key=_rank_key, reverse=True)
    return candidates


def _unscale_written_rows(
    by_row: dict[tuple[str, int], list[Cell]],
    anchors: list[Any],
    sentence: Iterable[str],
) -> None:
    """A row the sentence names (every word of its label) and quotes as its cells are
    written is read unscaled:
    "customers decreased from 4,464 ... to [MASK]" beside a table noted "(In thousands)"
    counts customers, not thousands of them (the note is for the table's money). Only a
    named row without "$": "Store count reached 400" says nothing of a "Gross profit" row
    that holds 400 (in millions)."""
    plain = {abs(a.value) for a in anchors if a.value and not a.units and a.scale == 1}
    if not plain:
        return
    words = set(sentence)
    for group in by_row.values():
        if not group[0].row_tokens <= words or any("$" in c.text for c in group):
            continue
        if any(c.raw in plain and c.value not in plain for c in group if not c.percent):
            for cell in group:
                if not cell.percent:
                    cell.value = cell.raw


def _rank_key(cand: Candidate) -> tuple[float, float, bool]:
    """The candidate's sort key: its score, then, for an exact tie of scores:

    - the row the sentence names more than its neighbours do (``sentence_hits`` less
      ``neighbour_hits``): ``coverage`` counts the neighbours' words too, so a row named next
      door ("Real estate construction loans decreased 16.6%") can tie the row the sentence
      names ("Total loans decreased [MASK]");
    - then the whole over its parts (``Cell.is_whole``): one label under the headings
      "Northern Region", "Southern Region" and "Total" ties on every feature when the
      sentence names no region ("our new contracts increased [MASK]"); a part the sentence
      names already scores higher.
    """
    feats = cand.features
    whole = bool(cand.cells) and all(cell.is_whole for cell in cand.cells)
    return cand.score, feats.get("sentence_hits", 0.0) - feats.get("neighbour_hits", 0.0), whole


# a pronoun points back to the other clause's row ("Operating income was $43.7 million,
# and as a percentage of net sales it was [MASK]": the ratio's numerator is named there),
# so such a clause leaves naming to the whole sentence. "this year" is no pronoun.
_PRONOUN_SUBJECT = re.compile(
    r"\b(?:it|its|they|their|(?:this|these|that)(?!\s+(?:year|quarter|period|fiscal|month)))\b",
    re.I,
)


def _clause_rows(
    metadata: dict[str, Any],
    tables: list[Table],
    by_row: dict[tuple[str, int], list[Cell]],
    listed: bool,
) -> set[tuple[str, int]] | None:
    """The rows the blank's own clause names (``rules.blank_clause``), read as the whole
    sentence is (acronyms, synonyms, phrases, headings); None for a one-clause sentence."""
    clause = blank_clause(metadata["masked_sentence"], listed)
    if clause is None or _PRONOUN_SUBJECT.search(clause):
        return None
    own = read_context({**metadata, "masked_sentence": clause, "pre_sentence": "",
                        "post_sentence": ""})  # fmt: skip
    expand_context(own, tables, clause)
    scorer = Scorer(tables, own)
    named = set()
    for key, group in by_row.items():
        parts = scorer.label_parts(
            group[0].row_tokens,
            group[0].heading_tokens,
            _tokens(group[0].table.row_label(group[0].row)),
        )
        if any(parts.get(name, 0.0) > 0 for name in NAMING_FEATURES):
            named.add(key)
    return named


# a change's other form stands right beside the blank: "[MASK], or 10%", "[MASK] (10%)",
# "$77.0 million, or [MASK]", "[MASK], or 7.7% and 9.4%, respectively"; a figure
# elsewhere ("as SG&A increased $18.2 million") is another row's
# (a comma before three digits is a thousands separator: "$107,467, or [MASK]")
_BESIDE_AFTER = re.compile(
    r"\[MASK\]\s*,?\s*(?:or|\()\s*((?:[^,;()]|,(?=\d{3}))*?)"
    r"(?:,(?!\d{3})|\)|;|$| in | during | for )",
    re.I,
)
_BESIDE_BEFORE = re.compile(r"([$\d](?:[^,;()]|,(?=\d{3}))*?)\s*,?\s*(?:or|\()\s*\[MASK\]", re.I)


# "decreased [MASK] to $2.7 billion", "fell [MASK], from $3.1 billion to $2.9 billion": the
# figures a change blank moves to or from
# one end: its word and its amount ("to $2.7 billion", "from approximately 3,152")
_END = (
    r"(to|from)\s+(?:approximately\s+|about\s+)?"
    rf"((?:{AMOUNT})(?:\s*percent\b|\s*%)?)"
)
# (only its first group, both ends, is read: _END's own groups repeat inside it)
_ENDS_AFTER = re.compile(r"\[MASK\]\s*,?\s*((?:" + _END + r"\s*(?:,\s*|and\s+)?){1,2})", re.I)
_END_WORD = re.compile(r"\b" + _END, re.I)


def _change_ends(masked: str) -> list[tuple[str, Any]]:
    """The ends a change blank moves between, each with its word ("to": the newer cell,
    "from": the older). Amounts only: rates a change moves between are the stated-rates
    rule's, or shares of another base ("income tax expense increased [MASK], from 21.0% to
    24.5% of pretax income": the amount's change is the blank)."""
    match = _ENDS_AFTER.search(masked)
    if not match:
        return []
    ends = []
    for end in _END_WORD.finditer(match.group(1)):
        numbers = [n for n in figures(end.group(2)) if "percent" not in n.units]
        if len(numbers) == 1:
            ends.append((end.group(1).lower(), numbers[0]))
    return ends


def _ends_match(cand: Candidate, ends: list[tuple[str, Any]]) -> bool:
    """Every stated end is the candidate's own cell at that end."""
    newer, older = cand.cells
    return all(
        _matches_anchor(newer if word == "to" else older, [number], False) for word, number in ends
    )


# "Interest expense was [MASK], up $2.2 million from the prior year", "revenue of [MASK],
# an increase of $5.2 million, or 3%, compared to 2022": the level's own change
_CHANGE_AFTER_LEVEL = re.compile(
    r"\[MASK\]\s*,?\s*(?:(?:an?\s+)?(?:increase|decrease|rise|decline|improvement)\s+of|up|down|"
    r"(?:which\s+)?(?:increased|decreased|rose|fell|declined)(?:\s+by)?)\s+"
    r"((?:approximately\s+|about\s+)?[$\d](?:[^,;()]|,(?=\d{3}))*?(?:,?\s*or\s+[$\d](?:[^,;()]|,(?=\d{3}))*?)?)"
    r"(?:,(?!\d{3})|;|\(|$|\s+(?:from|compared|over|versus|as compared|in|for)\b)",
    re.I,
)


def _level_change_figures(masked: str) -> list[Any]:
    """The figures a level blank's own change is written with, just after it."""
    match = _CHANGE_AFTER_LEVEL.search(masked)
    return figures(match.group(1)) if match else []


def _moved_by(newer: Cell, older: Cell, stated: list[Any]) -> bool:
    """The row moved from ``older`` to ``newer`` by a stated money figure, or by a stated
    percentage of ``older``."""
    delta = abs(newer.signed - older.signed)
    return (
        _matches_anchor(delta, stated, False)
        or bool(older.value)
        and _matches_anchor(delta / older.value * 100, stated, True)
    )


def _level_moved_by(cell: Cell, row: list[Cell], stated: list[Any]) -> bool:
    """The cell's row moved by one of ``stated`` from the period before the cell's."""
    if not stated or cell.percent or not cell.years:
        return False
    earlier = [c for c in row if not c.percent and c.years and max(c.years) < max(cell.years)]
    if not earlier:
        return False
    return _moved_by(cell, max(earlier, key=lambda c: max(c.years)), stated)


def _beside_blank(masked: str) -> list[Any]:
    """The figures joined to the blank by "or" or a parenthesis (years dropped)."""
    return figures(
        " ".join(
            m.group(1) for m in (_BESIDE_AFTER.search(masked), _BESIDE_BEFORE.search(masked)) if m
        )
    )


def _rows_moved_by(
    by_row: dict[tuple[str, int], list[Cell]], beside: list[Any]
) -> list[tuple[str, int]]:
    """Rows whose change between two periods is a figure beside the blank ("total deposits
    decreased [MASK], or 12.7%": the row that fell 12.7%), wherever their label ranks;
    none when more than three rows fit (a common figure points nowhere)."""
    if not beside:
        return []
    found = []
    for key, group in by_row.items():
        cells = [c for c in group if not c.percent and c.years]
        if any(
            a.years != b.years
            and (
                _moved_by(a, b, beside) if max(a.years) > max(b.years) else _moved_by(b, a, beside)
            )
            for i, a in enumerate(cells)
            for b in cells[i + 1 :]
        ):
            found.append(key)
    return found if len(found) <= 3 else []


def _companion(
    cand: Candidate,
    by_row: dict[tuple[str, int], list[Cell]],
    anchors: list[Any],
    beside: list[Any],
) -> bool:
    """The candidate's companion is one of the sentence's other figures, which no cell
    holds (a lookup's row holding one is ``anchor_row``):

    - a share or ratio: the same part and base in another period's column ("Product sales
      represented [MASK] and 68% of our revenues for 2023 and 2022, respectively", "...
      increased to [MASK] from 25.7%"), any figure of the sentence (``anchors``);
    - a change: its percentage change ("net sales increased [MASK], or 10%, in 2023"); a
      percentage change: its change ("deposits decreased by $77.0 million, or [MASK]"),
      only a figure beside the blank (``beside``, ``_beside_blank``).
    """
    if cand.kind == "change" and not cand.percent:
        newer, older = cand.cells
        return bool(older.value) and _matches_anchor(cand.value / older.value * 100, beside, True)
    if cand.kind == "pct_change":
        newer, older = cand.cells
        return _matches_anchor(abs(newer.signed - older.signed), beside, False)
    if cand.kind not in ("share", "ratio"):
        return False
    part, base = cand.cells
    bases = {c.col: c for c in by_row.get((base.table_index, base.row), []) if not c.percent}
    for other in by_row.get((part.table_index, part.row), []):
        if other.col == part.col or other.percent or not other.years or other.years == part.years:
            continue
        below = bases.get(other.col)
        if (
            below is not None
            and below.value
            and below.years == other.years
            and _matches_anchor(other.value / below.value * 100, anchors, True)
        ):
            return True
    return False


def _money_figures(text: str) -> list[Any]:
    return [n for n in figures(text) if "usd" in n.units]


def _fits_hint(cand: Candidate, ctx: Context) -> bool:
    """A measure's unit against the hint: percent, money, or a plain ratio."""
    if cand.percent:
        return ctx.wants_percent or ctx.wants_plain
    if ctx.wants_money:
        return cand.kind in ("sum", "multi_step") and cand.value >= 1
    return ctx.wants_plain and cand.kind in ("ratio", "multi_step")


def key_label(by_row: dict[tuple[str, int], list[Cell]], key: tuple[str, int]) -> str:
    cell = by_row[key][0]
    return cell.table.row_label(cell.row)


def _column_key(cell: Cell) -> str:
    """A column's label without its periods: the same measure across years."""
    return _YEAR.sub("", cell.col_text).strip() or str(cell.col)


def _features(
    cand: Candidate,
    ctx: Context,
    scorer: Scorer,
    row_parts: dict[tuple[str, int], dict[str, float]],
    anchor_rows: dict[tuple[str, int], float],
) -> dict[str, float]:
    """The candidate as ranker features (``ranker.FEATURES``)."""
    first = cand.cells[0]
    key = (first.table_index, first.row)
    feats: dict[str, float] = dict(row_parts[key])
    if cand.kind in ("ratio", "share", "sum"):
        # a pair of rows: the mean of their fits
        other = row_parts[(cand.cells[1].table_index, cand.cells[1].row)]
        for name in sorted(set(feats) | set(other)):  # sorted: the same order every run
            feats[name] = 0.5 * (feats.get(name, 0.0) + other.get(name, 0.0))
    if cand.kind != "lookup":
        feats[f"kind_{cand.kind}"] = 1.0

    # periods: the blank's period against the cell's column
    if cand.kind == "lookup":
        # a change column's cell is a change: its periods are the two years it compares
        # ("2024 vs. 2023"), as a derived change's are, not one level's year
        if first.change_column:
            feats.update(_change_years(first.years, ctx, scorer))
        else:
            feats.update(_period_parts(first, ctx, scorer))
        feats.update(scorer.column_parts(first))
    elif cand.kind in ("change", "pct_change"):
        feats.update(_change_years(set().union(*(c.years for c in cand.cells)), ctx, scorer))
    else:
        feats.update(_year_parts(first.years, ctx))
    # the period's length: "three months ended" against a year's column
    fits = period_length_fits(cand.cells, ctx.period_months)
    if fits is not None:
        feats["period_length_match" if fits else "period_length_miss"] = 1.0

    # what the blank is: a change, or a level of one period
    is_change = cand.kind in ("change", "pct_change") or (
        cand.kind == "lookup" and first.change_column
    )
    if ctx.role == "change":
        feats["role_change_is_change" if is_change else "role_change_not_change"] = 1.0
    elif is_change:
        feats["role_level_is_change"] = 1.0
    moves = _moves(cand) if is_change and ctx.moves else None
    if moves:
        feats["direction_match" if moves == ctx.moves else "direction_miss"] = 1.0
    elif is_change and ctx.moves and cand.value == 0:
        feats["direction_miss"] = 1.0  # "fell [MASK]" never reads a change of nothing

    # unit type from the hint
    if ctx.wants_percent != cand.percent:
        feats["percent_mismatch"] = 1.0
        if ctx.wants_plain and cand.kind in ("share", "ratio"):
            feats["plain_fraction"] = 1.0
    if ctx.wants_money and any(c.physical_unit for c in cand.cells):
        feats["money_physical"] = 1.0
    if ctx.wants_money and any(c.count_row for c in cand.cells):
        feats["money_count"] = 1.0  # a dollar figure is never a share count or an area
    if ctx.physical_unit and not ctx.wants_money and first.physical_unit:
        feats["physical_match"] = 1.0

    # anchors: the sentence's other numbers locate the row, but are not the answer;
    # "from [MASK] to $8.7 million" and "increased $1.95 billion, or [MASK]" name the
    # blank's own row twice as surely
    paired = ctx.role == "older" or ctx.role == "change" and ctx.paired
    if anchor_rows.get(key):
        feats["anchor_row"] = anchor_rows[key]
        if paired:
            feats["anchor_row_paired"] = anchor_rows[key]
    if (
        cand.kind == "lookup"
        and _matches_anchor(first, ctx.anchors, cand.percent)
        or cand.kind != "lookup"
        and _matches_anchor(cand.value, ctx.anchors, cand.percent)
    ):
        feats["is_anchor"] = 1.0
    if cand.kind == "share" and ctx.share_words:
        feats["share_words_share"] = 1.0
    elif ctx.share_words and cand.kind == "lookup" and not cand.percent:
        feats["share_words_amount"] = 1.0  # "[MASK] of our total": a part, not an amount
    if cand.kind == "ratio" and ctx.ratio_words:
        feats["ratio_words_ratio"] = 1.0
    if cand.value == 0:
        feats["zero_value"] = 1.0
    return feats


def _moves(cand: Candidate) -> int | None:
    """Which way a change candidate goes: up (+1) or down (-1), by magnitude (a smaller
    loss is a loss that "decreased"); None across zero or without a sign."""
    if cand.kind in ("change", "pct_change"):
        newer, older = cand.cells
        if newer.negative != older.negative or newer.value == older.value:
            return None
        return 1 if newer.value > older.value else -1
    if cand.kind == "lookup" and cand.value:
        return -1 if cand.cells[0].negative else 1  # a change column: "(3.3)" is down
    return None


def _period_parts(cell: Cell, ctx: Context, scorer: Scorer) -> dict[str, float]:
    """How well a level cell's period fits the blank's period."""
    target = ctx.year_slot or ctx.target_year
    if target is None and ctx.relative_year is not None:
        # "[MASK] in the prior year": a year before the sentence's (or the report's) own
        base = max(ctx.years) if ctx.years else scorer.current_year
        if base:
            target = str(int(base) + ctx.relative_year)
    if not cell.years:
        return {"period_no_years": 1.0} if target or ctx.years else {}
    # a sentence that names years before the blank speaks of them: the report's latest
    # year (or the one before it) is the blank's only when the sentence names it there or
    # names no year before the blank ("Interest expense for the year ended December 31,
    # 2022 decreased ... to [MASK], compared to ... 2021" in a 2023 report is 2022's
    # figure; "[MASK], compared to $9.1 million in 2022" stays the latest year's)
    elsewhere = bool(ctx.years_before) and scorer.current_year not in ctx.years
    if target is None:
        target = older_year(ctx, scorer.current_year)
    if target is None and ctx.role == "level" and not elsewhere:
        target = scorer.current_year
    if target is None:
        return _year_parts(cell.years, ctx)
    return {"period_target_match" if target in cell.years else "period_target_miss": 1.0}


def _change_years(years: set[str], ctx: Context, scorer: Scorer) -> dict[str, float]:
    """How a change's years fit the change the sentence speaks of: both years of a derived
    change or of "2024 vs. 2023" against the pair; a change column's lone year (a "$ Change"
    column takes the table's latest) against the pair's newer year, so "Change from 2022"
    reads as a miss."""
    pair = change_pair(ctx.years, scorer.current_year, ctx.compared_year)
    if not pair or not years:
        return {}
    fits = pair <= years if len(years) >= 2 else max(pair, key=int) in years
    return {"change_years_match" if fits else "change_years_miss": 1.0}


def _year_parts(years: set[str], ctx: Context) -> dict[str, float]:
    if not ctx.years or not years:
        return {}
    if ctx.years[0] in years:
        return {"period_first_year": 1.0}
    if years & set(ctx.years):
        return {"period_other_year": 1.0}
    return {"period_year_miss": 1.0}


def _format_value(value: Decimal, percent: bool, ctx: Context, kind: str) -> str:
    if percent and ctx.wants_plain:
        value = value / 100
        percent = False
        return _plain(value, 8)
    if percent and "bps" in ctx.hint_units:
        return f"{_plain(value * 100, 2)} basis points"  # 3.6 points is 360 basis points
    if percent:
        return f"{_plain(value, 4)}%"
    text = _plain(value, 2 if ctx.wants_money else 4)
    if ctx.wants_money:
        return f"${text}"
    extra = sorted(ctx.hint_units - FIGURE_UNITS)
    with_unit = f"{text} {extra[0].upper()}" if extra else text
    # the released scorer reads only its own unit aliases; any other word fails the answer
    return with_unit if released_value_and_resolution(with_unit) is not None else text


def _plain(value: Decimal, places: int) -> str:
    try:
        quantized = value.quantize(Decimal(1).scaleb(-places))
    except InvalidOperation:
        return str(value)
    if quantized == quantized.to_integral_value():
        return f"{int(quantized):,}"
    text = f"{quantized:,.{places}f}".rstrip("0").rstrip(".")
    return text


def solve_from_tables(metadata: dict[str, Any], options: SolverOptions = ALL_RULES) -> SolverAnswer:
    """The best candidate as a FAITH answer, with a short account of how it was found."""
    context = read_context(metadata)
    candidates = rank_candidates(metadata, options)
    if not candidates:
        return SolverAnswer(
            "0", "A", [], [], "No numeric table cell was found; no answer can be derived."
        )
    best = candidates[0]
    answer = _format_value(best.value, best.percent, context, best.kind)
    used = [
        f"Table {c.table_index}, row '{c.table.row_label(c.row)}', column '{c.col_text}' = {c.text}"
        for c in best.cells
    ]
    runner_up = candidates[1] if len(candidates) > 1 else None
    reasoning = (
        f"Best fit ({best.kind}, score {best.score:.2f}): {best.formula}.\n"
        + "\n".join(f"- {line}" for line in used)
        + (
            f"\nRunner-up ({runner_up.kind}, score {runner_up.score:.2f}): {runner_up.formula}."
            if runner_up
            else ""
        )
    )
    metrics = list(dict.fromkeys(c.table.row_label(c.row) for c in best.cells))
    tables = list(dict.fromkeys(f"Table {c.table_index}" for c in best.cells))
    return SolverAnswer(answer, best.scenario, metrics, tables, reasoning)
