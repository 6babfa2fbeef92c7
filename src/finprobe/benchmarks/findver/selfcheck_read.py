"""The self-check's own reading of a report file (see ``selfcheck``).

It does not use ``finprobe.document``: it opens the report file again, takes the cited
context entry's pipe text line by line, reads each row's figures with its own small reader
(parentheses negative even when split across cells, dashes zero), maps them to the
header's years (by position when the header has other columns before, between or under
its years), and finds the table's scale in the entry and the text before it.
"""

from __future__ import annotations

import functools
import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

_INVISIBLE = re.compile(r"[\u200b\u200c\u200d\ufeff]")
_YEAR = re.compile(r"\b(?:19[89]\d|20[0-4]\d)\b")
_FIGURE = re.compile(
    r"\(\s*\$?\s*(?P<neg>[\d,]*\.?\d+)\s*\)\s*%?"  # (1,234)  ( 1,234 )  (12)%
    r"|(?P<minus>[-−–]\s*)?\$?\s*(?P<pos>\d[\d,]*(?:\.\d+)?)\s*%?"  # 1,234  -5  $ 3.2  12%
    r"|(?<![\w.])(?P<dash>[—–−-]{1,3})(?![\w.])"  # a dash alone: zero
)
_MARK = re.compile(r"(?:\s*(?:\((?:\d{1,2}|[a-z]|\*+)\)|\*+))+\s*$")  # footnotes after a label

_MONTH_DAY = re.compile(
    r"(?i)\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}\b"
)
_SCALE = re.compile(
    r"(?i)\bin\s+(?:u\.?s\.?\s+)?(?:\$\s*)?(thousands|millions|billions)\b|\(\s*\$?\s*(000s?|thousands|millions|billions)"
)
_SCALES = {
    "thousand": Decimal(10**3),
    "million": Decimal(10**6),
    "billion": Decimal(10**9),
    "000": Decimal(10**3),
}
_WORD_SCALE = {
    "": Decimal(1),
    "thousand": Decimal(10**3),
    "million": Decimal(10**6),
    "billion": Decimal(10**9),
}
_HEADER_WORD = re.compile(r"[A-Za-z]{3,}")


def _clean(text: str) -> str:
    return " ".join(_INVISIBLE.sub("", text).replace("\xa0", " ").split())


def _figures(text: str) -> list[Decimal]:
    """The figures in a row's value cells, left to right."""
    out = []
    for m in _FIGURE.finditer(text):
        if m.group().rstrip().endswith("%"):
            continue  # percentage columns ("% of total", "% change"): never a cited cell
        if m.group("dash"):
            out.append(Decimal(0))
            continue
        raw = m.group("neg") or m.group("pos")
        try:
            value = Decimal(raw.replace(",", ""))
        except InvalidOperation:
            continue
        out.append(-value if m.group("neg") or m.group("minus") else value)
    return out


@dataclass
class _RawTable:
    rows: list[tuple[str, list[Decimal]]]  # label, figures
    years: list[str]  # the header's years, left to right
    scale: Decimal
    shares_unscaled: bool = False  # "(in thousands, except share data)"
    scale_stated: bool = False  # found in the header or the text before the table
    # every pipe line, header included: (label, shows figures or "$"), and each row's line
    lines: list[tuple[str, bool]] = field(default_factory=list)
    row_lines: list[int] = field(default_factory=list)
    title: str = ""  # the caption lines just before the table (no prose) and its header lines
    header: str = ""  # the header lines alone
    prose: str = ""  # the entry's text before the table
    dollar_rows: list[bool] = field(default_factory=list)  # per row: its cells show "$"
    # per row: its value cells ("$" and a split ")" or "%" joined, see ``_value_cells``)
    cells: list[list[str]] = field(default_factory=list)
    # where each year's figure sits among a row's value cells, and how many cells a row has,
    # when other columns come before, between or under the years (``_layout``); "several"
    # when a year spans more than one figure column; None: the years lead
    layout: tuple[dict[str, int], int] | str | None = None


@functools.lru_cache(maxsize=8)
def _report_entries(path: str, mtime_ns: int, size: int) -> list[dict[str, Any]]:
    # One read per report file (a build checks claims report by report); the file's
    # stamp is in the key so an edited file is read again.
    raw = Path(path).read_bytes()
    data: Any = json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)
    return list(data.get("context") or [])


def _read_entry(report: Path, evidence_id: str) -> _RawTable | None:
    stat = report.stat()
    entries = _report_entries(str(report), stat.st_mtime_ns, stat.st_size)
    at = next((i for i, e in enumerate(entries) if str(e.get("id")) == evidence_id), None)
    if at is None:
        return None
    text = str(entries[at]["context"])
    lines = [line for line in text.splitlines() if line.strip().startswith("|")]
    # the scale sits in the header, in prose just before the table (same entry), or in
    # the entry before
    first_pipe = text.find("\n|") + 1 if not text.lstrip().startswith("|") else 0
    prose = text[:first_pipe][-400:]
    before = str(entries[at - 1]["context"])[-400:] if at else ""
    header_text = " ".join(lines[:6])
    found = _SCALE.search(header_text) or _SCALE.search(prose) or _SCALE.search(before)
    scale = Decimal(1)
    # the clause around the scale: does it except share counts ("except share and per
    # share data"; "except per share data" does not)?
    clause = found.string[found.start() :][:120].split(")")[0] if found else ""
    unscaled = bool(re.search(r"(?i)\bexcept\b(?:(?!\bper\b).)*?\bshares?\b", clause))
    if found:
        word = (found.group(1) or found.group(2)).lower().rstrip("s")
        scale = _SCALES.get(word, Decimal(1))
    rows: list[tuple[str, list[Decimal]]] = []
    years: list[str] = []
    body = False
    seen: list[tuple[str, bool]] = []
    row_lines: list[int] = []
    dollar_rows: list[bool] = []
    header_cells: list[list[str]] = []
    row_cells: list[list[str]] = []
    for line in lines:
        cells = [_clean(c) for c in line.strip().strip("|").split("|")]
        label, rest = cells[0], " ".join(c for c in cells[1:] if c)
        line_years = _YEAR.findall(" ".join(cells))  # a header's first cell may hold a year
        # cell by cell: a dash cell before "8,297" is a zero, not a minus sign
        figures = [f for cell in _value_cells(cells[1:]) for f in _figures(cell)]
        no_figures = not _figures(_YEAR.sub(" ", _MONTH_DAY.sub(" ", rest)))
        if not body and no_figures:
            if len(line_years) > len(years):
                years = line_years
            seen.append((label, "$" in rest))
            header_cells.append(cells)
            continue
        if body and no_figures and len(_YEAR.findall(rest)) >= 2:
            break  # another table's header in the same entry: its rows are not under ours
        if body and no_figures and any(_HEADER_WORD.search(c) for c in cells[1:]):
            break  # ... also one without years ("Obligations | Instruments | Total")
        if figures:
            body = True
        row_lines.append(len(seen))
        seen.append((label, bool(figures) or "$" in rest))
        rows.append((label, figures))
        dollar_rows.append("$" in rest)
        row_cells.append(_value_cells(cells[1:]))
    header = " ".join(lines[: len(seen) - len(rows)])
    title = "\n".join(_captions(text[:first_pipe]) + [header])
    layout = _layout(
        header_cells, [c for c, (_, f) in zip(row_cells, rows, strict=True) if f], years
    )
    return _RawTable(
        rows, years, scale, unscaled, found is not None, seen, row_lines, title, header,
        text[:first_pipe], dollar_rows, row_cells, layout,
    )  # fmt: skip


def _value_cells(cells: list[str]) -> list[str]:
    """A row's value cells: a "$" joined to the figure after it, a closing ")" or "%" to
    the figure before it ("$ | (30,135 | ) | (6.0 | )%" is two cells)."""
    out: list[str] = []
    pending = ""
    for c in cells:
        if not c:
            continue
        if c == "$":
            pending += c
        elif out and re.fullmatch(r"\)?\s*%?\s*\)?", c):
            out[-1] += c
        else:
            out.append(pending + c)
            pending = ""
    return out


_STUB = re.compile(r"(?i)^\(|\bin\s+(?:thousands|millions|billions)\b|\bdollars\b")
_NOT_A_FIGURE_HEAD = re.compile(r"(?i)%|\bpercent|\bchange\b|\bvariance\b")


def _layout(
    header: list[list[str]], body: list[list[str]], years: list[str]
) -> tuple[dict[str, int], int] | str | None:
    """Where each year's figure sits among a row's value cells when the header's column
    line (the last header line with as many cells as most rows have, less a stub) has
    other columns before or between its years ("Level | December 31, 2023 | December 31,
    2022"), or a year spans sub-columns ("Fiscal 2023" over "$ | %": the one that is not a
    percentage). "several": a year over more than one figure column ("2023" over "Pre-tax
    | Tax impact | Net of tax"), no reading is safe. None: the years lead, read in order."""
    counts = Counter(len(v) for v in body if v)
    if not counts or not years:
        return None
    n = counts.most_common(1)[0][0]
    at = next(
        (
            i
            for i in range(len(header) - 1, -1, -1)
            if len([c for c in header[i] if c]) in (n, n + 1)
        ),
        None,
    )
    if at is None:
        return None
    line = [c for c in header[at] if c]
    if len(line) == n and _STUB.search(line[0]) and not _YEAR.search(line[0]):
        return None  # "($ In millions) | 2024 | 2023" over rows with a third column: unsure
    # one cell more than a row's: a stub ("Description", "(in thousands)") before the columns,
    # unless that cell holds a year (then the extra cell is a column rows leave blank)
    line = line[:n] if _YEAR.search(line[0]) else line[-n:]
    positions: dict[str, int] = {}
    if any(_YEAR.search(c) for c in line):
        for k, cell in enumerate(line):
            found = set(_YEAR.findall(cell))
            if len(found) != 1 or _NOT_A_FIGURE_HEAD.search(cell):
                continue
            year = found.pop()
            if year in positions:
                return "several"
            positions[year] = k
    else:
        tops = next(
            (
                [c for c in header[j] if c]
                for j in range(at - 1, -1, -1)
                if len(_YEAR.findall(" ".join(header[j]))) >= 2
            ),
            None,
        )
        if not tops:
            return None
        if (
            n % len(tops)
            and len(tops) > 1
            and not n % (len(tops) - 1)
            and not _YEAR.search(tops[0])
        ):
            tops = tops[1:]  # a stub cell ("(in thousands)") before the years
        if n % len(tops):
            return None
        span = n // len(tops)
        # a sub-column whose cells show "%" in some row ("$290.8 | 26.2%") is a percentage
        rates = {
            j for j in range(n) for r in body if len(r) == n and r[j].rstrip(") ").endswith("%")
        }
        for k, top in enumerate(tops):
            found = set(_YEAR.findall(top))
            if len(found) != 1 or _NOT_A_FIGURE_HEAD.search(top):
                continue
            under = [
                j
                for j in range(k * span, (k + 1) * span)
                if not _NOT_A_FIGURE_HEAD.search(line[j]) and j not in rates
            ]
            year = found.pop()
            if len(under) != 1 or year in positions:
                return "several"
            positions[year] = under[0]
    order = [positions.get(y) for y in dict.fromkeys(years)]
    if order == list(range(len(order))):
        return None  # the years lead: the plain reading
    return positions, n


def _row_values(table: _RawTable, row: int) -> dict[str, Decimal] | str:
    """Year -> the row's figure, by the table's layout, or why the row cannot be read."""
    years = list(dict.fromkeys(table.years))
    if table.layout is None:
        figures = table.rows[row][1]
        if len(figures) < len(table.years):
            return "columns unreadable"
        aligned = figures[: len(table.years)]
        return {y: aligned[table.years.index(y)] for y in years}
    if isinstance(table.layout, str):
        return "columns unreadable"  # several figure columns under one year
    positions, n = table.layout
    cells = table.cells[row]
    lead = min(positions.values(), default=0)
    if len(cells) == n - lead and lead:
        # the columns before the years left blank ("Total | 3,833,275 | 3,385,895" under
        # "Useful Lives | February 3, 2024 | January 28, 2023")
        positions = {y: k - lead for y, k in positions.items()}
    elif len(cells) != n:
        return "columns unreadable"
    out = {}
    for y in years:
        if y not in positions:
            continue
        figures = _figures(cells[positions[y]])
        if len(figures) != 1:
            return "columns unreadable"  # a percentage, or two figures in one cell
        out[y] = figures[0]
    return out


def _captions(prose: str) -> list[str]:
    """The last two lines before the table that are a title (a few words) or a lead-in
    ending in a colon; a paragraph that mentions a quarter or a deferred tax is neither."""
    out = []
    for line in [_clean(ln) for ln in prose.splitlines() if ln.strip()][-2:]:
        n = len(line.split())
        if n <= 15 or (n <= 40 and line.endswith(":")):
            out.append(line)
    return out


def _dec(text: str) -> Decimal:
    return Decimal(text.replace(",", ""))


def _cell(table: _RawTable, label: str, period: str) -> tuple[Decimal, list[Decimal], int] | str:
    """(the cited figure, the row's period figures, row position) or why it cannot be read."""
    want = _clean(label).lower()
    hits = [i for i, (lb, _) in enumerate(table.rows) if _MARK.sub("", lb).lower() == want]
    if not hits:
        return "row not found"
    if len(hits) > 1:
        return "row label repeated"
    if period not in table.years:
        return "columns unreadable"
    values = _row_values(table, hits[0])
    if isinstance(values, str) or period not in values:
        return "columns unreadable"
    return values[period], list(values.values()), hits[0]


@functools.lru_cache(maxsize=8)
def _prose(path: str) -> str:
    report = Path(path)
    stat = report.stat()
    entries = _report_entries(path, stat.st_mtime_ns, stat.st_size)
    return _clean(" ".join(
        ln for e in entries for ln in str(e.get("context") or "").splitlines()
        if not ln.strip().startswith("|")
    ))  # fmt: skip
