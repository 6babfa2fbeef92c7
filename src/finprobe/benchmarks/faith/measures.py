"""Measures a sentence defines in words (margins, shares, sums, growth), computed from
the statement lines they name."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from finprobe.benchmarks.faith.cells import Cell, _near, period_length_fits
from finprobe.benchmarks.faith.context import (
    _MEASURE_NAMES,
    _MEASURE_ROWS,
    Candidate,
    Context,
    Scorer,
    _label,
    older_year,
)
from finprobe.benchmarks.faith.sentence import (
    _CHANGE_WORD,
    AMOUNT,
    _initials,
    _tokens,
    stated_direction,
)
from finprobe.numbers import find_numbers

_SALES = {"sales", "revenue", "revenues"}  # one base, however a table words it


def _base_words(text: str) -> set[str]:
    words = set(re.findall(r"[a-z&]+", text.lower())) - {"of", "the", "our", "its", "total", "net"}
    return {"sales" if w in _SALES else w for w in words}


def _names_base(text: str, base: set[str]) -> bool | None:
    """Whether the base a header or label names ("% of Net Sales") is ``base``; None when
    it names none ("2023", "Operating profit %")."""
    match = re.search(r"\bof\b(.+)", text.lower())
    if match is None:
        return None
    return bool(base) and base <= _base_words(match.group(1))


def _bare_label(text: str) -> str:
    """A row label without footnote marks and a trailing "%" ("Gross margin (1) %")."""
    text = re.sub(r"\(\s*[\w%]{0,2}\s*\)|[*†‡%:]", " ", _label(text))
    return re.sub(r"\s+", " ", text).strip(" ,-")


@dataclass
class Measure:
    """A figure per period: one statement line, or a combination of lines."""

    name: str
    values: dict[str, Decimal]
    cells: dict[str, list[Cell]]
    unit: str = "money"  # money | percent | plain


def _first_cell(measure: Measure) -> Cell:
    return next(iter(measure.cells.values()))[0]


def _table_of(measure: Measure) -> str:
    return _first_cell(measure).table_index


def _row_measure(cells: list[Cell]) -> Measure | None:
    values: dict[str, Decimal] = {}
    used: dict[str, list[Cell]] = {}
    for cell in cells:
        if cell.percent or cell.change_column or len(cell.years) != 1:
            continue
        (year,) = cell.years
        if year not in values:
            values[year] = cell.value
            used[year] = [cell]
    if not values:
        return None
    first = cells[0]
    return Measure(first.table.row_label(first.row), values, used)


def _combine(name: str, parts: list[Measure], op: str, unit: str = "money") -> Measure | None:
    years = set.intersection(*(set(p.values) for p in parts))
    values: dict[str, Decimal] = {}
    used: dict[str, list[Cell]] = {}
    ordered = sorted(years)
    for i, year in enumerate(ordered):
        xs = [p.values[year] for p in parts]
        cells = [c for p in parts for c in p.cells[year]]
        if op == "sum":
            value = sum(xs, Decimal(0))
        elif op == "diff":
            value = xs[0] - sum(xs[1:], Decimal(0))
        elif op == "ratio":
            if not xs[1]:
                continue
            value = xs[0] / xs[1] * (100 if unit == "percent" else 1)
        elif op == "return_avg":  # x / average of y over this and the prior period
            if i == 0:
                continue
            prior = parts[1].values[ordered[i - 1]]
            if not xs[1] + prior:
                continue
            value = xs[0] / ((xs[1] + prior) / 2) * 100
            cells = cells + parts[1].cells[ordered[i - 1]]
        else:
            raise ValueError(op)
        values[year] = value
        used[year] = cells
    return Measure(name, values, used, unit) if values else None


# measures a sentence names: (phrase, operation, lines, unit)
_NAMED_MEASURES: list[tuple[re.Pattern[str], str, tuple[str | tuple[str, ...], ...], str]] = [
    (re.compile(p, re.I), op, lines, unit)
    for p, op, lines, unit in [
        (r"gross (?:profit )?margin", "ratio", ("gross_profit", "revenue"), "percent"),
        (r"operating (?:profit |income )?margin|operating income as a percent(?:age)? of",
         "ratio", ("operating_income", "revenue"), "percent"),
        (r"net (?:profit |income )?margin|(?<!gross )(?<!operating )profit margin"
         r"|net (?:income|earnings) as a percent(?:age)? of",
         "ratio", ("net_income", "revenue"), "percent"),
        (r"effective (?:income )?tax rate|\bETR\b", "ratio", ("income_tax", ("pretax_income", "pretax_loss")), "percent"),
        (r"current ratio", "ratio", ("current_assets", "current_liabilities"), "plain"),
        (r"debt[- ]to[- ]equity(?: ratio)?", "ratio", ("debt", "equity"), "plain"),
        (r"working capital", "diff", ("current_assets", "current_liabilities"), "money"),
        (r"free cash flow", "diff", ("operating_cash_flow", "capex"), "money"),
        (r"return on average (?:(?:stockholders|shareholders|shareowners)'?\s+|common |total )*equity",
         "return_avg", ("net_income", "equity"), "percent"),
        (r"return on (?:(?:stockholders|shareholders|shareowners)'?\s+|common |total )*equity",
         "ratio", ("net_income", "equity"), "percent"),
        (r"return on average (?:total )?assets", "return_avg", ("net_income", "total_assets"), "percent"),
        (r"return on (?:total )?assets", "ratio", ("net_income", "total_assets"), "percent"),
    ]
]  # fmt: skip

_DIFFERENCE = re.compile(
    r"\bdifference between (?:the |our |its )?([^,;]+?) and (?:the |our |its )?([^,;]+?)"
    r"\s*(?:was|were|is|of|amounted to|totaled)?\s*(?:approximately\s+|about\s+)?\$?\s*$",
    re.I,
)
_EXCEEDED = re.compile(
    r"([^;]+?)\s+exceeded\s+(?:the |our |its )?([^,;]+?)\s+by\s*(?:approximately\s+|about\s+)?"
    r"\$?\s*$",
    re.I,
)
_SUM_WORDS = re.compile(r"\b(?:together|combined|in total|in the aggregate|aggregate)\b", re.I)
_NUMBER_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "ten": 10}


# a measure named in a heading ("Cost of sales and gross margin — Cost of sales increased
# $262, or [MASK]") or in another ";"-clause is not the blank's; a pair of dashes is an
# aside ("Free cash flow — a non-GAAP measure — was [MASK]"), a dash between figures a
# range ("2022 – 2023"), and a clause that starts with a pronoun speaks of the measure
# ("gross margin was 28.0% in 2022; it improved to [MASK]")
_HEADING_DASH = re.compile(r"(?<!\d)\s[—–-]\s(?!\d)")
_PRONOUN_START = re.compile(r"\s*(?:it|this|that|which)\b", re.I)
# a segment's measure ("the gross margin of the Peripherals segment", "the segment's
# operating margin", "the gross margin of the Lift Truck business") is not the one the
# consolidated statement lines give; "the business" or "the Company and its
# subsidiaries" alone name no segment
_SEGMENT_AFTER = re.compile(
    r"\s+(?:of|for|in|at)\s+(?:the|our|its|each(?:\s+of\s+(?:the|our|its))?)\s+(?:"
    r"(?:[\w&'.-]+\s+){0,6}?(?:segments?|divisions?)"
    r"|(?-i:[A-Z][\w&'.-]*\s+){1,6}(?:business(?:es)?|subsidiar(?:y|ies)|brands?))\b",
    re.I,
)
# a measure's own figure right after its name: "gross margin of 54.4%", "margin was 12%"
_OWN_FIGURE = re.compile(
    r"\s*(?:percentage\s+)?(?:of|was|were|is|at|to|reached)\s+(?:approximately\s+|about\s+)?"
    r"[$(]?\s*(?!(?:19|20)\d\d\b)\d",
    re.I,
)
_MONEY_OR_BLANK = re.compile(
    rf"(?=[$€£]){AMOUNT},?\s+or\s+(?:approximately\s+|about\s+)?$",
    re.I,
)
_SEGMENT_BEFORE = re.compile(r"\b(?:segments?|divisions?)(?:'s?)?\s+$", re.I)


def _not_the_blanks(masked: str, match: re.Match[str], mask_at: int) -> bool:
    """The named measure belongs to a heading, another clause or a segment."""
    if match.end() <= mask_at:
        between = masked[match.end() : mask_at]
        if len(_HEADING_DASH.findall(between)) % 2 == 1:
            return True
        if ";" in between and not _PRONOUN_START.match(between.rsplit(";", 1)[1]):
            return True
    return bool(
        _SEGMENT_AFTER.match(masked[match.end() :])
        or _SEGMENT_BEFORE.search(masked[: match.start()])
    )


class MeasureReader:
    """Reads which statement lines a sentence combines, and how."""

    def __init__(self, by_row: dict[tuple[str, int], list[Cell]], scorer: Scorer) -> None:
        self.scorer = scorer
        self.rows: list[tuple[str, Measure]] = []
        # rows that state a rate themselves ("Return on average assets | 1.57% | 1.16%"):
        # each one's label and the headers of its rate cells ("% of Net Sales")
        self._rate_rows = {
            key: (_bare_label(group[0].table.row_label(group[0].row)),
                  [c.col_text for c in group if c.percent and not c.change_column])
            for key, group in by_row.items()
            if any(c.percent and not c.change_column for c in group)
        }  # fmt: skip
        self.rate_labels = {label for label, _ in self._rate_rows.values()}
        for group in by_row.values():
            measure = _row_measure(group)
            if measure is not None:
                self.rows.append((_label(measure.name), measure))

    def states_rate(self, measure: Measure) -> bool:
        """The line's own row also states it as a rate: a "% of net sales" column beside
        the amounts ("Operating income | $37.6 | 11.1%")."""
        cells = next(iter(measure.cells.values()))
        _, headers = self._rate_rows.get((cells[0].table_index, cells[0].row), ("", []))
        return any(_names_base(header, {"sales"}) for header in headers)

    def stated_rate(self, pattern: re.Pattern[str], before: str) -> bool:
        """A table row states the rate the sentence names: its label is the measure
        ("Gross margin %"), or the measure after the qualifier the sentence puts just
        before it (a row "Direct to Consumer gross margin" for "Direct to Consumer gross
        margin was [MASK]"; ``before``: the sentence's words before the measure)."""
        words = _bare_label(" ".join(before.split()[-8:]))
        for label in self.rate_labels:
            match = pattern.search(label)
            if match is None or match.end() != len(label):
                continue
            qualifier = label[: match.start()].strip()
            if not qualifier or re.search(r"(?:^|\s)" + re.escape(qualifier) + r"$", words):
                return True
        return False

    def states_share(self, part: str, base: str) -> bool:
        """A table row states "X as a percentage of Y" itself: a row "Operating profit %",
        "Operating profit as a percentage of net sales", or "Operating profit" with a "% of
        Net Sales" column, for the part "operating profit" and the base "net sales" (a "%"
        is dropped from rate labels). A base the row names must be Y."""
        bare = re.sub(r"^(?:the|our|its|total)\s+", "", _bare_label(part))
        if not bare:
            return False
        base_words = _base_words(base)
        follows = re.compile(
            re.escape(bare) + r"(?:\s+(?:as an?\s+)?(?:percent(?:age)?\s+)?of\b.*)?$"
        )
        for label, headers in self._rate_rows.values():
            if not follows.match(label):
                continue
            named = [_names_base(text, base_words) for text in [label, *headers]]
            if all(n is not False for n in named):
                return True
        return False

    def line(self, name: str, table: str | None = None) -> Measure | None:
        """The statement line; the one in ``table`` when it shows it, else the one with
        most periods when several tables show it."""
        test = _MEASURE_ROWS[name]
        found = [m for label, m in self.rows if test(label)]
        if not found:
            return None
        return max(found, key=lambda m: (_table_of(m) == table, len(m.values)))

    def phrase(
        self, text: str, exclude: tuple[Measure, ...] = (), table: str | None = None
    ) -> tuple[Measure, float] | None:
        """The line a short phrase names ("accounts receivable", "capital expenditures")."""
        text = re.sub(r"^(?:our|the|its|total|net|consolidated)\s+", "", text.strip().lower())
        for pattern, name in _MEASURE_NAMES:
            if pattern.search(text):
                line = self.line(name, table)
                if line is not None and line not in exclude:
                    return line, 1.0
        acronym = re.fullmatch(r"\s*([A-Za-z][A-Za-z&]{1,6})\s*(?:expenses?|costs?)?\s*", text)
        if acronym and "&" in acronym.group(1):
            # "SG&A", "R&D": the line whose initials they are
            initials = acronym.group(1).replace("&", "").upper()
            hits = [
                m for label, m in self.rows if m not in exclude and _initials(label) == initials
            ]
            if hits:
                return hits[0], 1.0
        words = set(_tokens(text)) - {"net"}
        if not words:
            return None
        best: tuple[Measure, float] | None = None
        for label, measure in self.rows:
            if measure in exclude:
                continue
            row = set(_tokens(label)) - {"net"}
            if not row:
                continue
            fit = len(words & row) / len(words | row)
            # "inventories" / "inventory"
            fit = max(fit, self._prefix_fit(words, row))
            # ties go to the plainer label: "Cash and cash equivalents" over "Net increase in cash and cash equivalents"
            raw_words, raw_row = set(re.findall(r"[a-z]+", text)), set(re.findall(r"[a-z]+", label))
            fit += 0.01 * len(raw_words & raw_row) / len(raw_words | raw_row)
            if table is not None and _table_of(measure) == table:
                fit += 0.05  # the other items' table: one statement, not a mix
            if best is None or fit > best[1] + 1e-9:
                best = (measure, fit)
        return best if best and best[1] >= 0.5 else None

    @staticmethod
    def _prefix_fit(words: set[str], row: set[str]) -> float:
        hits = sum(1 for w in words if any(r[:5] == w[:5] and len(w) >= 5 for r in row))
        return hits / max(len(words), len(row)) if hits == len(words) else 0.0

    def items(self, text: str) -> list[Measure]:
        """ "Cash and cash equivalents, accounts receivable and inventories": three lines."""
        pieces = [p for p in re.split(r",\s*(?:and\s+)?|\s+and\s+", text) if p.strip()]
        if len(pieces) < 2 or len(pieces) > 7:
            return []
        best: tuple[float, list[Measure]] = (0.0, [])
        # every way to glue neighbouring pieces back together ("cash" + "cash equivalents")
        for mask in range(1 << (len(pieces) - 1)):
            groups, current = [], [pieces[0]]
            for i, piece in enumerate(pieces[1:]):
                if mask >> i & 1:
                    current.append(piece)
                else:
                    groups.append(" and ".join(current))
                    current = [piece]
            groups.append(" and ".join(current))
            if len(groups) < 2:
                continue
            found: list[Measure] = []
            total = 0.0
            for group in groups:
                hit = self.phrase(group, tuple(found))
                if hit is None:
                    break
                found.append(hit[0])
                total += hit[1]
            else:
                home = Counter(_table_of(m) for m in found).most_common(1)[0][0]
                again = [self.phrase(group, (), home) for group in groups]
                if all(again) and len({id(h[0]) for h in again if h}) == len(groups):
                    found = [h[0] for h in again if h]
                score = total / len(groups) + 0.01 * len(groups)
                if score > best[0]:
                    best = (score, found)
        return best[1]


def _subject(before: str) -> str:
    """The noun phrase ahead of the blank's verb: "Cost of revenue and X together represented"."""
    text = re.sub(
        r"\s*(?:,\s*)?(?:together|combined|in total|in the aggregate)?\s*(?:totaled|totalled|total|"
        r"were|was|represented|amounted to|accounted for|comprised|of|equaled|reached)?"
        r"\s*(?:approximately|about|roughly|nearly)?\s*\$?\s*$",
        "",
        before,
        flags=re.I,
    )
    text = re.sub(
        r"^.*?\b(?:in|for|during|at|as of)\s+(?:fiscal\s+(?:year\s+)?)?(?:19|20)\d{2},\s*",
        "",
        text,
        flags=re.I,
    )
    text = re.sub(r"\s*(?:together|combined)$", "", text, flags=re.I)
    return text.strip(" ,")


# the base a share's blank names right after it: "[MASK] of our revenues", "[MASK] as a
# percentage of net sales" (group 2; group 1 a year that may lead it)
OF_BASE = re.compile(
    r"\s*(?:of|as a percent(?:age)? of)\s+(?:our\s+|the\s+|its\s+|total\s+|consolidated\s+)*"
    r"((?:19|20)\d{2}\s+)?([a-z][a-z &'-]*?)\s*(?=,|\.|;|$|\bin\b|\bfor\b|\bduring\b|\bcompared\b"
    r"|\bat\b|\bas of\b|\bfrom\b|\bversus\b|\bvs\b)",
    re.I,
)


def named_base(after: str) -> str | None:
    """The base a share's blank names right after it, read from the text after the blank:
    "[MASK] of total revenues" -> "revenues"; None when no "of X" follows."""
    match = OF_BASE.match(after)
    return match.group(2).strip() if match else None


def _first_line(reader: MeasureReader, name: str | tuple[str, ...]) -> Measure | None:
    """The statement line ``name``; for alternatives, the first one the tables show (the
    tax rate's base: "Loss before income tax" only when no income line before tax is)."""
    for one in (name,) if isinstance(name, str) else name:
        line = reader.line(one)
        if line is not None:
            return line
    return None


def measure_candidates(
    metadata: dict[str, Any],
    context: Context,
    reader: MeasureReader,
    current_year: str | None,
) -> list[Candidate]:
    """Candidates the sentence's own words define: "gross margin", "X, or [MASK] of revenue",
    "A, B and C together totaled [MASK]", "defined as A less B", "excluding S, revenue grew"."""
    masked = metadata["masked_sentence"].replace("’", "'")
    before, _, after = masked.partition("[MASK]")
    mask_at = len(before)
    found: list[tuple[Measure, str, float]] = []  # measure, how it was read, confidence

    # a measure the sentence names ("Operating margin was [MASK]"), nearest to the blank
    named: list[tuple[int, Measure]] = []
    for pattern, op, lines, unit in _NAMED_MEASURES:
        for match in pattern.finditer(masked):
            distance = (
                mask_at - match.end() if match.end() <= mask_at else match.start() - mask_at - 6
            )
            if distance > 90 or distance < -40 or _not_the_blanks(masked, match, mask_at):
                continue
            # "..., or [MASK], generating a gross margin of 54.4%": that measure has its figure
            if match.start() > mask_at and _OWN_FIGURE.match(masked, match.end()):
                continue
            # "decreased by $11.4 million, or [MASK]": the percent form of a money change, never
            # a rate's (a rate does not move in dollars)
            if unit == "percent" and context.role == "change" and _MONEY_OR_BLANK.search(before):
                continue
            # a table states the measure: its row is read, not recomputed
            if unit == "percent" and reader.stated_rate(pattern, masked[: match.start()]):
                continue
            parts = [_first_line(reader, name) for name in lines]
            if any(p is None for p in parts):
                continue
            if unit == "percent" and lines[1] == "revenue" and reader.states_rate(parts[0]):
                continue  # ... or the numerator's row has its "% of sales" column
            measure = _combine(match.group(0), parts, op, unit)  # type: ignore[arg-type]
            if measure is not None:
                named.append((abs(distance), measure))
    if named:
        named.sort(key=lambda t: t[0])
        found.append((named[0][1], named[0][1].name, 3.0))

    # "defined as A less B"
    definition = re.search(
        r"defined? as ([^,;]+?)\s+(less|minus|plus|net of)\s+([^,;.]+)", masked, re.I
    )
    if definition:
        a = reader.phrase(definition.group(1))
        b = reader.phrase(definition.group(3), (a[0],) if a else ())
        if a and b:
            op = "sum" if definition.group(2).lower() == "plus" else "diff"
            measure = _combine(definition.group(0), [a[0], b[0]], op)
            if measure is not None:
                found.append((measure, "definition", 3.5))

    # "the difference between A and B was [MASK]", "A exceeded B by [MASK]": two lines of
    # one period, the first less the second
    difference = _DIFFERENCE.search(before) or _EXCEEDED.search(before)
    if difference and context.wants_money:
        first = " ".join(re.split(r"[,;]", difference.group(1))[-1].split()[-6:])
        a = reader.phrase(first)
        b = reader.phrase(difference.group(2), (a[0],)) if a else None
        if a and b:
            measure = _combine(f"{a[0].name} less {b[0].name}", [a[0], b[0]], "diff")
            if measure is not None:
                found.append((measure, "difference", 3.5))

    subject = _subject(before)
    # "A, B and C together totaled [MASK]"
    listed = reader.items(subject) if subject else []
    whole = reader.phrase(subject) if listed else None
    if whole and whole[1] >= 0.8:
        listed = []  # "Cash and cash equivalents" is one line, not two
    if listed and (
        _SUM_WORDS.search(before[-60:] + after[:20]) or re.search(r"\btotal(?:ed|led)?\s*$", before)
    ):
        measure = _combine(subject, listed, "sum")
        if measure is not None:
            found.append((measure, "sum", 3.0))

    # "X, or [MASK] of revenue" / "X as a percentage of Y was [MASK]"
    of_total = named_base(after)
    as_pct = _percent_of(before)
    if as_pct and reader.states_share(_subject(as_pct[0]), as_pct[1]):
        as_pct = None  # a table states the share: its row is read, not recomputed
    if (context.wants_percent or context.wants_plain) and (of_total or as_pct):
        base_phrase = of_total if of_total else as_pct[1]  # type: ignore[index]
        base = reader.phrase(base_phrase)
        part: Measure | None = None
        if base is not None:
            if as_pct:
                # a part and its base are read from one table where it shows both ("CBI's
                # cost of goods sold as a percentage of net revenue": the segment's table)
                hit = reader.phrase(_subject(as_pct[0]), (base[0],), _table_of(base[0]))
                part = hit[0] if hit else None
                if part is not None and _table_of(part) != _table_of(base[0]):
                    same = reader.phrase(base_phrase, (part,), _table_of(part))
                    if same is not None and _table_of(same[0]) == _table_of(part):
                        base = same
            else:
                listed = reader.items(subject) if subject else []
                if listed and base[0] not in listed:
                    part = _combine(subject, listed, "sum")
                else:
                    part = _anchored_part(reader, context, before, base[0])
        if base is not None and part is not None:
            measure = _combine("share", [part, base[0]], "ratio", "percent")
            if measure is not None:
                found.append((measure, "share", 2.5 * base[1]))

    # "revenue grew at a compound annual rate of [MASK]": the growth of the line named
    if re.search(r"compound annual (?:growth )?rate|\bCAGR\b", masked, re.I) and not found:
        clause = re.split(r"[,;]", before)[-1]
        noun = re.split(_CHANGE_WORD + r"|\bgrowth\b", clause, flags=re.I)[0]
        hit = reader.phrase(" ".join(noun.split()[-4:])) if noun.strip() else None
        if hit:
            found.append((hit[0], "growth", 3.0))

    out: list[Candidate] = []
    for measure, how, confidence in found:
        out.extend(_measure_values(measure, how, confidence, context, current_year, masked))

    # "Excluding S, revenue grew [MASK]": the total without that line
    excluding = re.search(r"\bexcluding\s+(?:the\s+)?([^,]+),\s*(.*)$", before, re.I)
    if excluding and context.role == "change":
        left = reader.phrase(excluding.group(1))
        rest = re.sub(_CHANGE_WORD + r".*$", "", excluding.group(2), flags=re.I)
        total = reader.phrase(rest) if rest.strip() else None
        if left and total and left[1] >= 0.6 and left[0] is not total[0]:
            measure = _combine(
                f"{total[0].name} excluding {left[0].name}", [total[0], left[0]], "diff"
            )
            if measure is not None:
                out.extend(
                    _measure_values(measure, "excluding", 3.0, context, current_year, masked)
                )
    return out


# the verb that leads to the blank: "was", "increased to", "decreased by approximately"
_TO_BLANK = (
    r"\s+(?:was|were|is|are|increased|decreased|rose|fell|declined|improved|grew|dropped|"
    r"expanded|contracted|remained|totaled|represented)(?:\s+(?:by|to|at))?"
    r"(?:\s+(?:approximately|about|roughly|nearly))?\s*$"
)
_AS_PCT_BEFORE = re.compile(
    r"(.+?)\s+as an? (?:percent(?:age)?|%) of\s+(?:total\s+)?(.+?)" + _TO_BLANK, re.I
)
# "As a percentage of net revenue, SG&A increased to [MASK]": the base leads the clause
_AS_PCT_LEADING = re.compile(
    r"(?:^|[.;]\s+|,\s+)as an? (?:percent(?:age)?|%) of\s+(?:total\s+)?([^,]+?),\s*(.+?)"
    + _TO_BLANK,
    re.I,
)


# where the blank's clause starts ("Revenue grew 5%, and gross profit as a percent of
# sales was" keeps its last clause's noun below)
_PCT_CLAUSE = re.compile(
    r";|\.\s|,?\s+(?:while|whereas)\b|,\s+(?:and|but)\b|\b(?:as )?compared (?:with|to)\b|\bversus\b",
    re.I,
)


def named_base_cells(
    after: str, best: list[Cell], reader: MeasureReader, by_row: dict[tuple[str, int], list[Cell]]
) -> list[Cell]:
    """The cells of the row a share's blank names as its base ("which was [MASK] of our
    revenues"), in each table the best-fitting cells ``best`` come from: the base's own words
    may fit the sentence too little for its row to be among them."""
    base = named_base(after)
    if base is None:
        return []
    out: list[Cell] = []
    for table_index in dict.fromkeys(c.table_index for c in best):
        hit = reader.phrase(base, table=table_index)
        if hit is None or _table_of(hit[0]) != table_index:
            continue
        first = _first_cell(hit[0])
        out += by_row[(first.table_index, first.row)]
    return out


def _percent_of(before: str) -> tuple[str, str] | None:
    """ "X as a percentage of Y was / increased to / decreased [MASK]", and the same with the
    base first: "As a percentage of Y, X increased to [MASK]". Only in the blank's own
    clause: not "Cost as a percentage of revenue was 60.6%, while income was [MASK]"."""
    own = _PCT_CLAUSE.split(before)[-1].lstrip()
    leading = _AS_PCT_LEADING.search(own)
    if leading:
        return leading.group(2), leading.group(1)
    trailing = _AS_PCT_BEFORE.search(own)
    if trailing:
        # "Revenue grew 5%, and gross profit as a percent of sales": the last clause's noun
        part = re.split(r",\s+(?:and|while|but|whereas)\s+", trailing.group(1))[-1]
        return part, trailing.group(2)
    return None


def _anchored_part(
    reader: MeasureReader, context: Context, before: str, base: Measure
) -> Measure | None:
    """The part of "X were $3.2 billion, or [MASK] of revenue": the line the figure is read from,
    else the line the subject names. A rounded figure ("$0.5 million") fits several lines;
    the one the subject names ("income tax expense") is read first."""
    subject = _subject(re.split(r",\s*or\s*$", before.rstrip())[0])
    subject = re.sub(r"\s+(?:were|was|of|totaled|totalled)\s.*$", "", subject, flags=re.I)
    hit = reader.phrase(subject, (base,), _table_of(base)) if subject else None
    figures = [a for a in context.anchors if "percent" not in a.units]
    if hit and any(_near(v, a) for v in hit[0].values.values() for a in figures):
        return hit[0]
    for anchor in figures:
        for _, measure in reader.rows:
            if measure is base:
                continue
            if any(_near(v, anchor) for v in measure.values.values()):
                return measure
    return hit[0] if hit else None


def _measure_values(
    measure: Measure,
    how: str,
    confidence: float,
    context: Context,
    current_year: str | None,
    masked: str,
) -> list[Candidate]:
    """The measure's value for the blank: its level in the blank's period, its change, or its
    compound growth."""
    years = sorted(measure.values)
    if not years:
        return []
    target = (
        context.year_slot
        or context.target_year
        or older_year(context, current_year)
        or current_year
        or years[-1]
    )
    if target not in measure.values:
        target = (
            years[-1]
            if not context.years
            else next((y for y in context.years if y in measure.values), years[-1])
        )
    out: list[Candidate] = []
    value = measure.values[target]

    # the blank's own words ("increased [MASK]"), never "improved" (a cost or a loss may
    # improve either way), and only between two positive levels (a deficit's "decrease")
    moves = stated_direction(*masked.split("[MASK]", 1)) if context.role == "change" else None

    def make(
        v: Decimal,
        percent: bool,
        kind: str,
        formula: str,
        cells: list[Cell],
        way: int | None = None,
    ) -> None:
        # the checks a table's own candidates get: "in 2023" is not read from "Three Months
        # Ended" columns, and "increased [MASK]" is not a change that fell
        if period_length_fits(cells, context.period_months) is False:
            return
        if way and v and (v > 0) != (way > 0):
            return
        scenario = "D" if kind == "multi_step" or len(cells) > 2 else "C"
        out.append(Candidate(abs(v), percent, kind, scenario, cells, formula))

    growth = re.search(r"compound annual (?:growth )?rate|\bCAGR\b", masked, re.I)
    if growth and measure.unit == "money" and len(years) >= 2:
        span = re.search(r"\b(?:last|past|prior)\s+(\w+)\s+(?:fiscal\s+)?years\b", masked, re.I)
        n = _NUMBER_WORDS.get(span.group(1).lower(), 0) if span else 0
        start = str(int(target) - n) if n else years[0]
        if start in measure.values and measure.values[start] > 0 and int(target) > int(start):
            ratio = float(value / measure.values[start])
            rate = Decimal(str((ratio ** (1 / (int(target) - int(start))) - 1) * 100))
            make(rate, True, "multi_step", f"CAGR of {measure.name} {start}-{target}",
                 measure.cells[target] + measure.cells[start])  # fmt: skip
    if context.role == "change":
        older = [y for y in context.years if y in measure.values and y < target]
        prior = older[0] if older else max((y for y in years if y < target), default=None)
        if prior is not None:
            old = measure.values[prior]
            cells = measure.cells[target] + measure.cells[prior]
            kind = "multi_step"
            way = moves if value > 0 and old > 0 else None
            if measure.unit == "money":
                make(value - old, False, kind, f"change in {measure.name} {prior}-{target}", cells,
                     way)  # fmt: skip
                if old:
                    make((value - old) / abs(old) * 100, True, kind,
                         f"percentage change in {measure.name} {prior}-{target}", cells, way)  # fmt: skip
            else:  # a change of a ratio is in points
                make(value - old, measure.unit == "percent", kind,
                     f"change in {measure.name} {prior}-{target}", cells, way)  # fmt: skip
    else:
        kind = {"share": "share", "sum": "sum"}.get(
            how, "ratio" if measure.unit != "money" else "sum"
        )
        if len(measure.cells[target]) > 2 and kind != "share":
            kind = "multi_step" if measure.unit != "money" else "sum"
        make(
            value,
            measure.unit == "percent",
            kind,
            f"{measure.name} {target}",
            measure.cells[target],
        )
    for cand in out:
        cand.score = confidence
    return out


def _anchor_rows(
    masked: str,
    anchor: Any,
    hits: set[tuple[str, int]],
    by_row: dict[tuple[str, int], list[Cell]],
    scorer: Scorer,
) -> set[tuple[str, int]]:
    """The rows an anchor is the figure of, by the words around it in its own clause
    ("unamortized premium of $0.2 million", "$1,454.7 million ... was fixed")."""
    at = masked.find(anchor.text)
    if at < 0 or not hits:
        return set()
    end = at + len(anchor.text)
    after = masked[end : end + 60].split("[MASK]")[0]
    before = masked[max(0, at - 40) : at].split("[MASK]")[-1]
    named = set(_tokens(before + " " + after))
    fit = {k: scorer.weight(by_row[k][0].row_tokens & named) for k in hits}
    best = max(fit.values())
    top = {k for k, v in fit.items() if v == best}
    return top if best > 0 and len(top) <= 2 else set()


# "increased [MASK] from 17.1% in fiscal 2022 to 17.5% in fiscal 2023": the figures right
# after the blank, in its own clause
_FROM_TO = re.compile(
    r"^\s*,?\s*(?:approximately\s+|about\s+)?from\s+(?:approximately\s+)?"
    r"(?P<a>\(?-?\d[\d.,]*\)?\s*(?:%|percent))(?P<mid>[^,;%$]{0,40}?)\s+to\s+"
    r"(?:approximately\s+)?(?P<b>\(?-?\d[\d.,]*\)?\s*(?:%|percent))",
    re.I,
)


# the words before the blank, in its clause, name a rate
_OWN_CLAUSE = re.compile(r";|, (?:and|but|while|whereas) ", re.I)
_NAMES_A_RATE = re.compile(
    r"\b(?:margins?|rates?|ratios?|percentages?|percent of|yields?|(?<!per )share)\b", re.I
)


def stated_points_change(masked: str, context: Context) -> Candidate | None:
    """A change blank followed by "from A% ... to B%" is B - A in points (answered in basis
    points when the hint asks for them): the sentence states both rates, so no table pair
    can fit them better ("Compensation as a percentage of net sales increased approximately
    [MASK] from 17.1% in fiscal 2022 to 17.5% in fiscal 2023" is 40 basis points, not a
    change of the amounts). Money figures are left to the tables, which hold them unrounded."""
    if context.role != "change" or not (context.wants_percent or "bps" in context.hint_units):
        return None
    before, _, after = masked.partition("[MASK]")
    # the blank must be a rate's change: "Sales to our largest customer increased [MASK],
    # from 5.0% to 7.0% of net sales" asks for the amount's change, the rates are shares
    if not _NAMES_A_RATE.search(_OWN_CLAUSE.split(before)[-1]):
        return None
    match = _FROM_TO.match(after)
    if match is None:
        return None
    rates = [find_numbers(match.group(g)) for g in ("a", "b")]
    if not all(spans and "percent" in spans[0].number.units for spans in rates):
        return None
    a, b = (spans[0].number.value for spans in rates)
    return Candidate(
        abs(b - a), True, "multi_step", "D", [], f"stated rates: {b}% - {a}% (points)", score=3.0
    )


# "gross margin improved 360 basis points to 25.1% from [MASK]": the sentence states one
# rate and the change in points, so the blank rate is the other end. The pieces: a verb of
# movement, its size in points, "from"/"to" (or "compared to") and the stated rate; a
# period phrase ("in fiscal 2023") may stand after either rate.
_POINTS = r"(?P<n>\d[\d.,]*)\s*(?P<unit>basis[- ]points?|bps|percentage[- ]points?|points?)"
_MOVED = r"(?P<verb>[A-Za-z]+)\s+(?:by\s+)?(?:approximately\s+|about\s+|nearly\s+)?" + _POINTS
_RATE = r"(?P<x>\d[\d.,]*)\s*(?:%|percent)"
_WHEN = r"(?:\s+(?:in|for|during|at)\s+(?:[\w,]+\s+){0,4}?(?:\d{4}|year|quarter|period))?"
_OLDER_WORD = r"(?:from|compared\s+(?:to|with)|versus|vs\.?)"
_ENDPOINT_BEFORE = [
    # "... 360 basis points to 25.1% from [MASK]": the older rate
    ("older", re.compile(_MOVED + r",?\s+to\s+" + _RATE + _WHEN + r",?\s+" + _OLDER_WORD
                         + r"\s+(?:approximately\s+)?$", re.I)),
    # "... 360 basis points from 21.5% to [MASK]": the newer rate
    ("newer", re.compile(_MOVED + r",?\s+from\s+" + _RATE + _WHEN + r",?\s+to\s+$", re.I)),
]  # fmt: skip
_ENDPOINT_AROUND = [
    # "... by 360 basis points to [MASK] from 21.5%": the newer rate
    ("newer", re.compile(_MOVED + r",?\s+to\s+$", re.I),
     re.compile(r"^" + _WHEN + r",?\s+" + _OLDER_WORD + r"\s+(?:approximately\s+)?" + _RATE, re.I)),
    # "... by 360 basis points from [MASK] to 25.1%": the older rate
    ("older", re.compile(_MOVED + r",?\s+from\s+$", re.I),
     re.compile(r"^" + _WHEN + r",?\s+to\s+(?:approximately\s+)?" + _RATE, re.I)),
]  # fmt: skip
# "improved" says which way only for a rate that is better higher (a margin, a return)
# named just before the verb; an expense ratio that "improved" fell
_BETTER_HIGHER = re.compile(r"\b(?:margins?|returns?|yields?)\b", re.I)
_EXPENSE_WORDS = re.compile(r"\b(?:expenses?|costs?|sg&a|ratios?)\b", re.I)
_WORSE_WORDS = re.compile(r"^(?:deteriorat|erod|eros|compress|contract|narrow|declin|decreas"
                          r"|fell|fall|drop|lower|reduc|shr[iau]nk|down$)", re.I)  # fmt: skip
_BETTER_WORDS = re.compile(r"^(?:improv|expan|widen|increas|rose|rise|grew|grow|higher|up$)", re.I)


def _points_direction(verb: str, subject: str) -> int | None:
    """+1 / -1 for the way the verb moves the rate ``subject`` names; None if unsaid."""
    judged = verb.lower().startswith(("improv", "deteriorat", "erod", "eros"))
    if judged and (not _BETTER_HIGHER.search(subject) or _EXPENSE_WORDS.search(subject)):
        return None
    if _WORSE_WORDS.match(verb):
        return -1
    if _BETTER_WORDS.match(verb):
        return 1
    return None


def stated_rate_endpoint(masked: str, context: Context) -> Candidate | None:
    """A rate blank at one end of a stated move: the other end plus or minus the stated
    points ("gross margin improved 360 basis points to 25.1% from [MASK]" is 21.5%)."""
    if not context.wants_percent or "bps" in context.hint_units:
        return None
    before, _, after = masked.partition("[MASK]")
    clause = _OWN_CLAUSE.split(before)[-1]
    for end, pattern in _ENDPOINT_BEFORE:
        match = pattern.search(clause)
        if match:
            return _endpoint(end, match.group("verb"), match.group("n"), match.group("unit"),
                             match.group("x"), _rate_subject(clause[: match.start()]))  # fmt: skip
    for end, own, other in _ENDPOINT_AROUND:
        match, rest = own.search(clause), other.match(after)
        if match and rest:
            return _endpoint(end, match.group("verb"), match.group("n"), match.group("unit"),
                             rest.group("x"), _rate_subject(clause[: match.start()]))  # fmt: skip
    return None


def _rate_subject(before_verb: str) -> str:
    """The words that name the moved rate: after the last comma or "and" before the verb
    ("Gross margin expanded 100 bps and SG&A as a percentage of sales improved ...")."""
    return re.split(r",|\band\b", before_verb)[-1]


def _endpoint(end: str, verb: str, n: str, unit: str, x: str, subject: str) -> Candidate | None:
    direction = _points_direction(verb, subject)
    if direction is None:
        return None
    try:
        points = Decimal(n.replace(",", ""))
        rate = Decimal(x.replace(",", ""))
    except ArithmeticError:
        return None
    if unit.lower().startswith(("basis", "bps")):
        points = points / 100
    # the newer rate is the older moved by the points; the older one undoes the move
    value = rate + direction * points if end == "newer" else rate - direction * points
    if value < 0:
        return None
    sign = "+" if (direction > 0) == (end == "newer") else "-"
    return Candidate(
        value,
        True,
        "multi_step",
        "C",
        [],
        f"stated rate and move: {rate}% {sign} {points} points",
        score=3.0,
    )
