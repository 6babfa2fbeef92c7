"""Text with pipe tables (FinDVer context text, Markdown): prose and tables split apart,
ragged pipe rows aligned."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from finprobe.document.cells import (
    _DIGIT_MARKER,
    _FOOTNOTE,
    _PREFIX_FRAGMENTS,
    _SUFFIX_FRAGMENTS,
    _is_numeric,
    _join_cells,
    _values_dwarf_markers,
    clean_text,
)

# --------------------------------------------------------------------------
# pipe tables (FinDVer context text, Markdown)

_PIPE_CELL = re.compile(r"(?<!\\)\|")
_PIPE_SEP = re.compile(r"^\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?$")


def _pipe_row(line: str) -> list[str]:
    """The cells of a pipe row; ``line`` is already clean_text'ed (single plain spaces
    only), so cleaning a cell is stripping its edges."""
    s = line.strip()
    if s.startswith("|"):
        s = s[1:]
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    if "\\" not in s:  # no escaped "|": a plain split
        return [c.strip() for c in s.split("|")]
    return [c.replace("\\|", "|").strip() for c in _PIPE_CELL.split(s)]


def _glue_pipe_row(cells: Sequence[str]) -> list[tuple[int, str]]:
    """Non-empty cells after the label with "$"/")"/"%" fragments glued on.

    Each value keeps the raw column index of its first fragment.
    """
    vals: list[tuple[int, str]] = []
    for c, cell in enumerate(cells, start=1):
        if not cell:
            continue
        if vals and (vals[-1][1] in _PREFIX_FRAGMENTS or cell in _SUFFIX_FRAGMENTS):
            vals[-1] = (vals[-1][0], _join_cells(vals[-1][1], cell))
        else:
            vals.append((c, cell))
    return vals


def _digit_markers_are_footnotes(
    glued: list[tuple[list[str], list[tuple[int, str]]]],
) -> set[tuple[int, int]]:
    """Which "(n)" cells of pipe rows are footnote markers, as (row, position) pairs.

    ``glued`` holds each raw row with its values from _glue_pipe_row.

    A lone "(31)" is a negative value unless the context says otherwise:
    - the row: without its "(n)" cells it has the table's usual number of
      values, with them more than any other row ("Assets | 8,650 | (3) | 14,908");
    - the column: every cell in that raw pipe column is a marker and the
      table's other numbers dwarf them (a footnote column beside thousands).
    A row that already has the usual number of values keeps them all
    ("Other, net | (55) | (31) | (30)").
    """
    cands = {  # only whole pipe cells: "( 23" + ")" glued is a value
        r: [i for i, (c, v) in enumerate(vals) if _DIGIT_MARKER.match(v) and cells[c] == v]
        for r, (cells, vals) in enumerate(glued)
    }

    def size(vals: list[tuple[int, str]]) -> int:  # "(a)", "*" are never values
        return sum(not _FOOTNOTE.match(v) or bool(_DIGIT_MARKER.match(v)) for _, v in vals)

    counts = [size(vals) for r, (_, vals) in enumerate(glued) if vals and not cands[r]]
    usual = max(set(counts), key=lambda n: (counts.count(n), n)) if counts else None
    longest = max(counts, default=0)
    by_col: dict[int, list[str]] = {}
    before: dict[int, list[str]] = {}  # the values each column's markers follow
    for _, vals in glued:
        for i, (c, v) in enumerate(vals):
            by_col.setdefault(c, []).append(v)
            if i and _DIGIT_MARKER.match(v):
                before.setdefault(c, []).append(vals[i - 1][1])
    every = [v for _, vals in glued for _, v in vals]
    marker_cols = {
        c
        for c, col in by_col.items()
        if all(_FOOTNOTE.match(v) for v in col)
        and _values_dwarf_markers(every, col, before.get(c, ()))
    }
    out: set[tuple[int, int]] = set()
    for r, idx in cands.items():
        if not idx:
            continue
        n_keep = size(glued[r][1])
        n_drop = n_keep - len(idx)
        if usual is not None and n_keep == usual:
            continue
        if usual is not None and n_drop == usual and n_keep > longest:
            out.update((r, i) for i in idx)  # with its markers the row is too long
        else:
            out.update((r, i) for i in idx if glued[r][1][i][0] in marker_cols)
    return out


def _compact_pipe_rows(rows: list[list[str]]) -> list[list[str]]:
    """Align ragged pipe rows (colspans were lost when the text was made).

    Within each row fragments are glued ("$" + "3,035", "(1,360" + ")") and
    empty cells dropped, keeping the first cell as the row label. Footnote
    markers in cells of their own are dropped when they follow the label or a
    value ("(a)", "*"); a "(12)" only when its context marks it as a footnote
    (see _digit_markers_are_footnotes), else it is a negative value. Rows with
    fewer values are right-aligned (financial tables drop leading columns
    far more often than trailing ones); a single text value spans the row.
    Above the first row of figures, a row of column titles with no label (FinDVer
    drops a header row's empty first cell) moves right of the label column, spread
    over the value columns as ``_unlabelled_titles`` reads it ("U.S. Pension | Foreign
    Pension" over four columns, "2023 | 2022 | Change" over five).
    """
    glued = [(row, _glue_pipe_row(row[1:])) for row in rows]
    footnotes = _digit_markers_are_footnotes(glued)
    compact: list[list[str]] = []
    for r, (row, cells) in enumerate(glued):
        label = row[0] if row else ""
        vals: list[str] = []
        for i, (_, cell) in enumerate(cells):
            if (r, i) in footnotes:
                continue
            if (
                _FOOTNOTE.match(cell)
                and not _DIGIT_MARKER.match(cell)
                and (not vals or _is_numeric(vals[-1]))
                and (vals or any(_is_numeric(v) for _, v in cells))
            ):
                continue  # "(a)", "*": a footnote on the label or the value before it
            vals.append(cell)
        compact.append([label, *vals])
    width = max((len(r) for r in compact), default=0)
    first_body = next(
        (r for r, row in enumerate(compact) if any(map(_is_numeric, row[1:]))), len(compact)
    )
    # a table stacked by period ("December 31, 2023" over its rows, then "December 31,
    # 2022" over its own) has no title over all its columns
    stacked = any(
        len(row) == 1 and _PERIOD_TITLE.search(row[0]) for row in compact[first_body + 1 :]
    )
    out = []
    for r, row in enumerate(compact):
        label, vals = row[0], row[1:]
        k, n = len(vals), width - 1
        # only above a table's figures: a table of text has no header row to tell
        if (
            r < first_body < len(compact)
            and not (stacked and len(row) == 1)
            and (titles := _unlabelled_titles(row, n))
        ):
            out.append(["", *titles])
        elif k == n:
            out.append(row)
        elif k == 1 and not _is_value(vals[0]):
            out.append([label] + vals * n)
        elif k and sum(_is_value(v) for v in vals) * 2 >= k:
            out.append([label] + [""] * (n - k) + vals)
        else:
            out.append([label] + vals + [""] * (n - k))
    return out


_TITLE_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
_PERIOD_TITLE = re.compile(r"\b(?:ended|ending|months|weeks|quarters?|as of|(?:19|20)\d\d)\b", re.I)
# a change column's title ("Change", "Increase (Decrease)", "2023 vs. 2022"); FAITH's table
# reader builds on it
CHANGE_TITLE = re.compile(r"\b(?:change|increase|decrease|variance|vs\.?|v\.)", re.I)
_CAPTION = re.compile(r"^(?:table|exhibit|schedule)\s+[\dA-Z]+\.?$|^[a-z]\.$", re.I)
_LABEL_NOTE = re.compile(r"\b(?:thousands|millions|billions|dollars|except)\b|:\s*$", re.I)


def _unlabelled_titles(row: list[str], n: int) -> list[str] | None:
    """A header row without its label cell, spread over ``n`` value columns; None when
    the row has a label (or cannot be told)."""
    if not row[0] or any(map(_is_value, row)):
        return None
    if len(row) == 1:
        # "Years Ended December 31," alone above "| 2023 | 2022 | 2021": a period's title
        # over every value column ("Revenues:" is a section row, not a title)
        return row * n if _PERIOD_TITLE.search(row[0]) and not _LABEL_NOTE.search(row[0]) else None
    if _BULLET.match(row[0]) or _NOTE_MARK.match(row[0]) or _CAPTION.match(row[0]):
        return None  # a list item, a footnote, "Table 1 | Summary Income Statement"
    # "(dollars in thousands) | 2023 | 2022 | Change" has its label: a scale note, a
    # "Label:", or a first cell without the year its neighbours carry
    if _LABEL_NOTE.search(row[0]) or (
        any(_TITLE_YEAR.search(c) for c in row[1:]) and not _TITLE_YEAR.search(row[0])
    ):
        return None
    if len(row) == n:
        return row
    if len(row) < n and n % len(row) == 0:
        return [title for title in row for _ in range(n // len(row))]
    if len(row) < n and (row[0] in row[1:] or _TITLE_YEAR.search(row[0])):
        # fewer titles, and no label: a repeated title ("Ceded | % of GWP | Ceded | % of
        # GWP") or a year. Periods share the columns before the change titles at the end
        # ("2023 | 2022 | Change" over five columns: two, two, one); years alone sit over
        # the last columns (a text column comes first); repeated titles from the left
        changes = 0
        while changes < len(row) - 1 and CHANGE_TITLE.search(row[-1 - changes]):
            changes += 1
        periods, width = len(row) - changes, n - changes
        if changes and width % periods == 0:
            spread = [title for title in row[:periods] for _ in range(width // periods)]
            return spread + row[periods:]
        if changes and (n - periods) % changes == 0:
            # "December 31, 2023 | January 1, 2023 | Change" over four: the change's amount
            # and percentage
            return row[:periods] + [
                t for t in row[periods:] for _ in range((n - periods) // changes)
            ]
        if all(_TITLE_YEAR.fullmatch(t.strip()) for t in row):
            return [""] * (n - len(row)) + row
        if row[0] in row[1:]:
            return row + [""] * (n - len(row))
    return None


def _squash(s: str) -> str:
    r"""``s`` without whitespace and the characters $()%, (what ``re.sub(r"[\s$()%,]",
    "", s)`` gives: ``\s`` is exactly ``str.isspace()``, what ``split()`` splits on)."""
    return (
        "".join(s.split()).replace("$", "").replace("(", "").replace(")", "")
        .replace("%", "").replace(",", "")
    )  # fmt: skip


def _html_matches_pipe(html_grid: list[list[str]], pipe_rows: list[list[str]]) -> bool:
    """Same rows, same text per row (ignoring spacing and fragments)?"""
    pipe = [r for r in pipe_rows if any(r)]
    if not html_grid or len(html_grid) != len(pipe):
        return False
    same = 0
    for h, p in zip(html_grid, pipe, strict=True):
        hs, ps = _squash("".join(h)), _squash("".join(p))
        same += hs == ps
    return same >= 0.9 * len(pipe)


def _split_mixed(text: str) -> list[tuple[str, Any]]:
    """Split text into ("p", prose) and ("t", pipe rows) parts, in order."""
    parts: list[tuple[str, Any]] = []
    prose: list[str] = []
    rows: list[list[str]] = []

    def flush_prose() -> None:
        if not prose:  # nothing to clean (between two tables, at the start)
            return
        t = clean_text("\n".join(prose), keep_newlines=True)
        if t:
            parts.append(("p", t))
        prose.clear()

    def flush_rows() -> None:
        if rows:
            parts.append(("t", list(rows)))
        rows.clear()

    for line in text.split("\n"):
        # only a line with a "|" can be a pipe row (cleaning adds none): prose lines are
        # cleaned once, with their paragraph
        stripped = clean_text(line) if "|" in line else ""
        if stripped.startswith("|") and stripped.count("|") >= 2:
            flush_prose()
            if not _PIPE_SEP.match(stripped):
                rows.append(_pipe_row(stripped))
        else:
            flush_rows()
            prose.append(line)
    flush_prose()
    flush_rows()
    return parts


# --------------------------------------------------------------------------
# pipe blocks that hold several tables (FinDVer)
#
# FinDVer's context text runs adjacent tables together into one pipe block while
# ``html_tables`` keeps one HTML table per block: the first. Read as one table, the
# later tables' rows fall under the first one's column headers (a 2023 value read as
# 2022). So the block is cut where the HTML table ends, and the rest is cut again where
# a new header row follows a row of figures.


def html_prefix_end(html_rows: list[list[str]], pipe_rows: list[list[str]]) -> int | None:
    """The index in ``pipe_rows`` just past the HTML table, when the HTML table's rows
    (``_row_texts`` of its grid: two or more, or one footnote row, "(1) | Other, net
    includes ...", left over from the table before) open a longer pipe block; else None."""
    filled = [i for i, r in enumerate(pipe_rows) if any(r)]
    n = len(html_rows)
    if n == 0 or n >= len(filled):
        return None
    if n == 1 and not (
        _is_note_row(pipe_rows[filled[0]])
        and not all(_is_note_row(pipe_rows[i]) for i in filled[1:])
    ):
        return None  # one row is a cut only as the note the last table left behind, not
        # the first item of a numbered list (every row a note)
    same = sum(
        _squash("".join(h)) == _squash("".join(pipe_rows[i]))
        for h, i in zip(html_rows, filled, strict=False)
    )
    # the last HTML row must close the table exactly: a loose match could cut mid-table
    last_same = _squash("".join(html_rows[-1])) == _squash("".join(pipe_rows[filled[n - 1]]))
    if last_same and same >= 0.9 * n:
        return filled[n - 1] + 1
    return None


_FRAGMENTS = _PREFIX_FRAGMENTS | _SUFFIX_FRAGMENTS


# figures that _is_numeric does not read as one number: a range ("43.2 % - 44.5 %",
# "0.82 - 2.26"), a figure with a time unit ("5.3 years"), a date ("12/19/2028")
_FIGURE = re.compile(
    r"^[$€£]?\(?\s*[\d.,]+\s*%?\)?\s*(?:-|–|to)\s*[$€£]?\(?\s*[\d.,]+\s*%?\)?$"
    r"|^[\d.,]+\s*(?:years?|yrs?\.?|months?|days?)$"
    r"|^\d{1,2}/\d{1,2}/\d{2,4}$",
    re.I,
)
# "2023 - 2022" is a change column's title, not a range of figures
_YEAR_SPAN = re.compile(r"^(?:19|20)\d\d\s*(?:-|–|to|vs\.?|v\.)\s*(?:19|20)\d\d$", re.I)


def _is_plain_value(cell: str) -> bool:
    # raw pipe cells keep a value's pieces apart ("$", "( 57,439", ")")
    return _is_numeric(cell.replace("(", "").replace(")", "").replace("$", "").strip())


def _is_figure(cell: str) -> bool:
    s = cell.strip()
    return bool(_FIGURE.match(s)) and not _YEAR_SPAN.match(s)


def _is_value(cell: str) -> bool:
    """A number, a dash, or a figure written as a range, a duration or a date."""
    return _is_plain_value(cell) or _is_figure(cell)


def _holds_figure(row: list[str]) -> bool:
    """A body row: some cell after the label is a number or a dash; or a labelled row
    whose cells are all figures ("Expected volatility | 43.2 % - 44.5 %", "Expected life |
    6 years"): "| 30 Days | 60 Days | Current | Total" is a header."""
    cells = [c for c in row[1:] if c and c not in _FRAGMENTS]
    if any(map(_is_plain_value, cells)):
        return True
    return bool(row[0]) and bool(cells) and not _is_figure(row[0]) and all(map(_is_figure, cells))


def _is_header_row(row: list[str]) -> bool:
    """Two or more column titles (text, years, "December 31, 2023") and no value."""
    cells = [c for c in row if c and c not in _FRAGMENTS]
    return len(cells) >= 2 and not _holds_figure(row) and not any(map(_is_plain_value, cells))


_BULLET = re.compile(r"^[●•◦▪■○·➢➤✓]$")


def _is_bullet_row(row: list[str]) -> bool:
    """A list item FinDVer set as a one-row table: "● | $43 million cash outflows ..."."""
    first = next((c for c in row if c), "")
    return bool(_BULLET.match(first))


_NOTE_MARK = re.compile(r"^(?:\(?\d{1,2}\)?|\(?[a-zA-Z]\)|\([ivx]{1,4}\)|\*{1,3}|†|‡)$")


def _is_note_row(row: list[str]) -> bool:
    """A footnote under a table: a marker ("(1)", "1", "1)", "(a)", "(ii)", "*"), then its
    text (more than 20 characters: "1 | 2023" is a row, not a note)."""
    cells = [c for c in row if c]
    return len(cells) >= 2 and bool(_NOTE_MARK.match(cells[0])) and len(cells[1]) > 20


def split_run_tables(rows: list[list[str]]) -> list[list[list[str]]]:
    """Pipe rows of tables run together, one list of rows per table: a new table starts
    after a row of figures where a header row follows (any label-only rows between, such
    as "Year Ended", open the new table). Section rows inside a table ("Change in plan
    assets:") are one cell, so they never cut it. Footnote rows close the table above
    them, and notes that open the rows (the last table's, when its HTML twin stopped
    before them) are a piece of their own when a header row follows. A run of bullet
    rows is a piece of its own, never a table's first rows."""
    pieces: list[list[list[str]]] = []
    start = 0
    last_body: int | None = None
    notes_only = True  # only footnote rows since the piece began
    bullets = False
    for i, row in enumerate(rows):
        if not any(row):
            continue
        if _is_bullet_row(row) != bullets:
            pieces.append(rows[start:i])
            start, last_body, notes_only, bullets = i, None, True, not bullets
        if bullets:
            continue
        if _is_note_row(row) and (last_body is not None or notes_only):
            last_body = i  # a table's footnotes close it: "(1) | Other, net includes ..."
            continue
        notes_only = False
        if _holds_figure(row):
            last_body = i
        elif last_body is not None and _is_header_row(row):
            pieces.append(rows[start : last_body + 1])
            start, last_body = last_body + 1, None
    pieces.append(rows[start:])
    return [p for p in pieces if any(any(r) for r in p)]
