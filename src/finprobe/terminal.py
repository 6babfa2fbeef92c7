"""Tables that fit the terminal: names are never cut, wide tables are split or stacked.

Rich shrinks a table wider than the terminal by wrapping its cells and, where a single
word does not fit, cutting it with an ellipsis: "finprobe/findver-ver…" or a column of
"HR…" headers over "91…" figures. ``fit_tables`` re-lays a table out instead:

- it fits: unchanged (every column may fold, never cut, as a last resort);
- a two-column table (name, value): the value wraps between its words;
- too wide: the first column (model, subtype, ...) is kept whole in each of several
  tables, each with as many of the other columns as fit ("title (1 of 3)");
- even the first column and one more do not fit: one small table per row, stacked
  (column name, value).
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.table import Table
from rich.text import Text


def _plain(cell: object) -> str:
    return cell.plain if isinstance(cell, Text) else str(cell)


def _width(texts: Iterable[str]) -> int:
    return max((len(line) for text in texts for line in text.splitlines() or [""]), default=0)


def _copy(
    table: Table,
    title: str | None,
    columns: list[int],
    label: int,
    strip: str = "",
    wrap_last: bool = False,
) -> Table:
    """A table with the same look, the given title and the columns at those indexes
    (their headers less the prefix ``strip``, which the title then names). The first
    column is ``label`` wide at least and wraps at spaces only if it must; the others
    never wrap (a figure is never cut), but the last one with ``wrap_last``."""
    out = Table(title=title, show_header=table.show_header, box=table.box,
                show_lines=table.show_lines, title_style=table.title_style)  # fmt: skip
    for i in columns:
        col = table.columns[i]
        header = _plain(col.header)
        header = header[len(strip) :] if i and strip and header.startswith(strip) else col.header
        width = label if i == 0 else _width([_plain(header), *map(_plain, col.cells)])
        wraps = i == 0 or (wrap_last and i == columns[-1])
        out.add_column(header, justify=col.justify, style=col.style,
                       header_style=col.header_style, min_width=None if wraps and i else width,
                       no_wrap=not wraps, overflow="fold")  # fmt: skip
    cells = [list(table.columns[i].cells) for i in columns]
    for r, row in enumerate(table.rows):
        out.add_row(*(c[r] for c in cells), style=row.style, end_section=row.end_section)
    return out


def _longest_word(table: Table) -> int:
    col = table.columns[0]
    texts = [_plain(col.header), *map(_plain, col.cells)]
    return max((len(word) for text in texts for word in text.split()), default=1)


def fit_tables(tables: Iterable[Table], width: int) -> list[Table]:
    """Each table as it is when it fits ``width``, else split by columns or stacked by row;
    a table's caption (its notes) goes under its last piece."""
    out: list[Table] = []
    for table in tables:
        pieces = _fit_table(table, width)
        if pieces and table.caption and pieces[-1] is not table:
            pieces[-1].caption = table.caption
            pieces[-1].caption_style = table.caption_style
        out += pieces
    return out


def _fit_table(table: Table, width: int) -> list[Table]:
    n = len(table.columns)
    if not n:
        return [table]
    widths = [_width([_plain(col.header), *map(_plain, col.cells)]) for col in table.columns]
    # a rich box: per column its width, one space each side and one rule; one more rule
    if sum(w + 3 for w in widths) + 1 <= width or n == 1:
        return [_copy(table, table.title, list(range(n)), widths[0])]
    if n == 2:  # a name and its value: the value wraps between its words
        return [_copy(table, table.title, [0, 1], widths[0], wrap_last=True)]
    # the first column whole if it leaves room, else wrapped between its words
    labels = (widths[0], _longest_word(table))
    for label in labels:
        grouped = _by_prefix(table, widths, width - 1 - (label + 3))
        if grouped:
            return [
                _copy(
                    table,
                    f"{table.title or ''} · {prefix}".strip(" ·"),
                    [0, *group],
                    label,
                    strip=f"{prefix}.",
                )  # fmt: skip
                for prefix, group in grouped
            ]
    label = labels[0] if labels[0] <= width // 2 else labels[1]
    room = width - 1 - (label + 3)
    if n > 2 and room >= min(w + 3 for w in widths[1:]):
        groups: list[list[int]] = [[]]
        used = 0
        for i in range(1, n):
            if groups[-1] and used + widths[i] + 3 > room:
                groups.append([])
                used = 0
            groups[-1].append(i)
            used += widths[i] + 3
        return [
            _copy(table, f"{table.title or ''} ({k} of {len(groups)})".strip(), [0, *group], label)
            for k, group in enumerate(groups, 1)
        ]
    return _stacked(table)


def _by_prefix(table: Table, widths: list[int], room: int) -> list[tuple[str, list[int]]]:
    """Columns named PREFIX.name (GKE.precision, GKE.recall, ...) grouped by prefix, one
    table each, when every group fits beside the first column; else no groups."""
    groups: dict[str, list[int]] = {}
    for i, col in enumerate(table.columns[1:], 1):
        head = _plain(col.header)
        if "." not in head:
            return []
        groups.setdefault(head.split(".", 1)[0], []).append(i)
    if len(groups) < 2:
        return []
    for prefix, group in groups.items():
        # the stripped header or the longest cell, whichever is wider
        cells = [_width(map(_plain, table.columns[i].cells)) for i in group]
        heads = [len(_plain(table.columns[i].header)) - len(prefix) - 1 for i in group]
        if sum(max(c, h) + 3 for c, h in zip(cells, heads, strict=True)) > room:
            return []
    return list(groups.items())


def _stacked(table: Table) -> list[Table]:
    """One two-column table per row: the first cell as title, then (column, value) pairs."""
    heads = [_plain(col.header) for col in table.columns]
    cells = [list(col.cells) for col in table.columns]
    out = []
    for r, row in enumerate(table.rows):
        title = f"{table.title}: {_plain(cells[0][r])}" if table.title else _plain(cells[0][r])
        one = Table(title=title, show_header=False, box=table.box, title_style=table.title_style)
        one.add_column(overflow="fold")
        one.add_column(overflow="fold", justify=table.columns[-1].justify)
        for head, column in zip(heads[1:], cells[1:], strict=True):
            one.add_row(head, column[r], style=row.style)
        out.append(one)
    return out


def print_tables(console: Console, tables: Iterable[Table]) -> None:
    """Print tables fitted to the console's width."""
    for table in fit_tables(tables, console.width):
        title = _plain(table.title) if table.title is not None else ""
        if len(title) > console.measure(table).maximum:
            # a title wider than its table would wrap inside a name: print it above, whole
            console.print(title, style="italic", soft_wrap=True, highlight=False, markup=False)
            table.title = None
        console.print(table)


def print_path(console: Console, label: str, path: object) -> None:
    """``label:`` on one line and the path alone on the next, never broken, for copying."""
    console.print(f"{label}:", highlight=False)
    console.print(f"  {path}", soft_wrap=True, highlight=False, markup=False)
