"""HTML: a <table> resolved into a grid (colspan/rowspan), and EDGAR-style pages cut into
paragraphs and tables in reading order."""

from __future__ import annotations

import re
from functools import cache
from itertools import accumulate, chain, repeat
from typing import Any

from finprobe.document.blocks import Block, Paragraph, Table
from finprobe.document.cells import _ZERO_WIDTH_CHAR, clean_text, normalize_cells


def _html_parser():  # lxml is imported on demand: plain-text users need not pay for it
    from lxml import html as lhtml

    # no_network: never fetch; HTML parsing never expands external entities
    return lhtml.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, recover=True)


def _span(value: str | None) -> int:
    if value is None:  # most cells: no span attribute (and no exception to pay for)
        return 1
    try:
        return min(max(int(str(value).strip() or 1), 1), 200)
    except ValueError:
        return 1


def _table_rows(table_el) -> list:
    rows = []
    for child in table_el.iterchildren("tr", "thead", "tbody", "tfoot"):
        if child.tag == "tr":
            rows.append(child)
        else:
            rows.extend(child.iterchildren("tr"))
    return rows


# A table's rows and cells flattened into one string by libxslt (C speed) instead of
# visiting ~900k <td> elements from Python (FinDVer: 5,708 tables). Private-use
# characters mark the structure: ROW per row, CELL per cell, then, for a cell with a
# span attribute, SEP "rowspan,colspan" SEP, then the cell's string value (what
# ``text_content()`` returns). The stylesheet selects what ``_table_rows`` and
# ``iterchildren("td", "th")`` do, in the same (document) order. It starts with "!"
# when the table's text holds a marker character; a span attribute that is not plain
# digits fails _SPAN_PAIR: either way the table is read element by element instead,
# so the result is always the element walk's.
_ROW, _CELL, _SEP = "\ue000", "\ue001", "\ue002"
# a marker character in a span attribute becomes "x" (not a digit: element walk)
_NO_MARKS = "translate({0}, '{1}{2}{3}', 'xxx')"
_FLAT_TABLE = f"""<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
<xsl:output method="text" encoding="UTF-8"/>
<xsl:template match="/"><xsl:for-each select="*">
<xsl:if test="contains(., '{_ROW}') or contains(., '{_CELL}') or contains(., '{_SEP}')">!</xsl:if>
<xsl:for-each select="tr | thead/tr | tbody/tr | tfoot/tr">{_ROW}<xsl:for-each select="td|th"
 >{_CELL}<xsl:if test="@rowspan or @colspan">{_SEP}<xsl:value-of
 select="{_NO_MARKS.format("@rowspan", _ROW, _CELL, _SEP)}"/>,<xsl:value-of
 select="{_NO_MARKS.format("@colspan", _ROW, _CELL, _SEP)}"/>{_SEP}</xsl:if><xsl:value-of
 select="."/></xsl:for-each></xsl:for-each></xsl:for-each></xsl:template></xsl:stylesheet>"""
# The same stylesheet without the marker test, for a table whose markup is known to be
# free of markers (``markup_is_marker_free``): the test evaluates the table's whole text
# three times, a quarter of the pass.
_FLAT_TRUSTED_TABLE = re.sub(r"<xsl:if test=\"contains\(.*?</xsl:if>", "", _FLAT_TABLE, flags=re.S)
# A character reference that could stand for a marker (U+E000-U+E002), however written
# (leading zeros, no ";"); it also matches some that do not: those only cost the test.
_MARK_REFERENCE = re.compile(r"&#(?:[xX]0*[eE]00[0-2]|0*5734[4-6])")
_SPAN_PAIR = re.compile(r"([0-9]*),([0-9]*)")
_WHITESPACE = re.compile(r"\s+")  # \s is exactly str.isspace(): what str.split() splits on

Row = tuple[list[str], dict[int, tuple[int, int]]]  # cell texts; {cell index: (rowspan, colspan)}
_NO_SPANS: dict[int, tuple[int, int]] = {}
# "rowspan,colspan" as written -> (rowspan, colspan), None: not plain digits (bounded)
_SPAN_PAIRS: dict[str, tuple[int, int] | None] = {}


@cache
def _flattener(trusted: bool = False) -> Any:
    from lxml import etree

    return etree.XSLT(etree.XML((_FLAT_TRUSTED_TABLE if trusted else _FLAT_TABLE).encode("utf-8")))


def markup_is_marker_free(markup: str) -> bool:
    """Can no text parsed from this markup hold a marker character? Text comes from
    the markup's characters and its character references (no named HTML entity is a
    private-use character), so: no marker character and no reference to one."""
    return (
        _ROW not in markup
        and _CELL not in markup
        and _SEP not in markup
        and not _MARK_REFERENCE.search(markup)
    )


def _span_pair(text: str) -> tuple[int, int] | None:
    if text not in _SPAN_PAIRS:
        if len(_SPAN_PAIRS) > 4096:
            _SPAN_PAIRS.clear()
        m = _SPAN_PAIR.fullmatch(text)
        _SPAN_PAIRS[text] = (_span(m[1] or None), _span(m[2] or None)) if m else None
    return _SPAN_PAIRS[text]


def _rows_from_flat(flat: str) -> list[Row] | None:
    """The rows of ``_FLAT_TABLE``'s output, every cell ``clean_text``ed; None when a
    cell text held a marker character or a span attribute is not plain digits."""
    if flat.startswith("!"):
        return None
    # clean_text on every cell at once: zero-width characters dropped, then each run of
    # whitespace one space, none at a cell's edges (markers are not whitespace)
    if _ZERO_WIDTH_CHAR.search(flat):
        flat = _ZERO_WIDTH_CHAR.sub("", flat)
    flat = _WHITESPACE.sub(" ", flat).strip(" ")
    for mark in (_ROW, _CELL, _SEP):
        flat = flat.replace(" " + mark, mark).replace(mark + " ", mark)
    head, *rows_text = flat.split(_ROW)
    if head:
        return None
    rows: list[Row] = []
    for part in rows_text:
        texts = part.split(_CELL)[1:]
        if _SEP not in part:  # no span attributes in this row
            rows.append((texts, _NO_SPANS))
            continue
        spanned: dict[int, tuple[int, int]] = {}
        for k, text in enumerate(texts):
            if text.startswith(_SEP):  # SEP "rowspan,colspan" SEP text
                _, pair, texts[k] = text.split(_SEP, 2)
                if (spans := _span_pair(pair)) is None:
                    return None
                spanned[k] = spans
        rows.append((texts, spanned))
    return rows


def _rows_from_elements(table_el) -> list[Row]:
    rows: list[Row] = []
    for tr in _table_rows(table_el):
        texts, spanned = [], {}
        for k, td in enumerate(tr.iterchildren("td", "th")):  # elements only, in order
            texts.append(clean_text(td.text_content()))
            rowspan, colspan = td.get("rowspan"), td.get("colspan")
            if rowspan is not None or colspan is not None:
                spanned[k] = (_span(rowspan), _span(colspan))
        rows.append((texts, spanned))
    return rows


def _table_cells(table_el, marker_free: bool = False) -> list[Row]:
    """Each row's cell texts (clean_text'ed) and spans, flattened in C when possible.
    ``marker_free``: the caller knows the table's text holds no marker character."""
    try:
        rows = _rows_from_flat(str(_flattener(marker_free)(table_el)))
    except Exception:  # noqa: BLE001 - any XSLT failure: the element walk below is exact
        rows = None
    return rows if rows is not None else _rows_from_elements(table_el)


_WIDTHS: dict[tuple[tuple[tuple[int, tuple[int, int]], ...], int], Any] = {}


def _colspans_only(
    spanned: dict[int, tuple[int, int]], n: int
) -> tuple[list[int], list[tuple[int, int]]] | None:
    """For a row of n cells without rowspans: each cell's width in columns, and
    (first column, colspan) of each spanning cell; None when a cell spans rows."""
    key = (tuple(spanned.items()), n)
    if key not in _WIDTHS:
        if len(_WIDTHS) > 4096:
            _WIDTHS.clear()
        widths: list[int] = [1] * n
        for k, (_, cs) in spanned.items():
            widths[k] = cs
        if any(rs != 1 for rs, _ in spanned.values()):
            _WIDTHS[key] = None
        else:
            starts = [0, *accumulate(widths)]
            _WIDTHS[key] = (widths, [(starts[k], w) for k, w in enumerate(widths) if w > 1])
    return _WIDTHS[key]


def _grid_from_table_element(
    table_el, marker_free: bool = False
) -> tuple[list[list[str]], list[list[Any]], list[tuple[int, int, int, int]]]:
    """Resolve colspan/rowspan into a grid; each grid cell knows its source cell.
    ``marker_free``: see ``_table_cells``."""
    grid: list[list[str | None]] = []
    origin: list[list[Any]] = []
    spans: list[tuple[int, int, int, int]] = []
    for r, (texts, spanned) in enumerate(_table_cells(table_el, marker_free)):
        while len(grid) <= r:
            grid.append([])
            origin.append([])
        row, row_origin = grid[r], origin[r]
        if not row and not spanned:  # most rows: one cell a column, nothing from above
            row.extend(texts)
            row_origin.extend(zip(repeat(r), range(len(texts))))
            continue
        if not row and (widths := _colspans_only(spanned, len(texts))) is not None:
            # each cell repeated over its columns, built in C
            row.extend(chain.from_iterable(map(repeat, texts, widths[0])))
            row_origin.extend(
                chain.from_iterable(map(repeat, zip(repeat(r), range(len(texts))), widths[0]))
            )
            spans.extend([(r, c, 1, cs) for c, cs in widths[1]])
            continue
        c = 0
        for k, text in enumerate(texts):
            while c < len(row) and row[c] is not None:
                c += 1
            rs, cs = spanned.get(k, (1, 1))
            if rs == 1 and cs == 1 and c == len(row):  # most cells: append, no loops
                row.append(text)
                row_origin.append((r, k))
                c += 1
                continue
            if rs > 1 or cs > 1:
                spans.append((r, c, rs, cs))
            while len(grid) < r + rs:
                grid.append([])
                origin.append([])
            for rr in range(r, r + rs):  # the cs columns from c on, in each spanned row
                cells, cells_origin = grid[rr], origin[rr]
                if len(cells) < c + cs:
                    cells.extend([None] * (c + cs - len(cells)))
                    cells_origin.extend([None] * (c + cs - len(cells_origin)))
                cells[c : c + cs] = [text] * cs
                cells_origin[c : c + cs] = [(r, k)] * cs
            c += cs
    width = max((len(row) for row in grid), default=0)
    out = [[x or "" for x in row] + [""] * (width - len(row)) for row in grid]
    org = [row + [None] * (width - len(row)) for row in origin]
    return out, org, spans


def parse_html_table(html_or_element, table_id: str = "t0", **kwargs: Any) -> Table:
    """One <table> (markup or lxml element) as a normalised Table."""
    if isinstance(html_or_element, str):
        from lxml import html as lhtml

        root = lhtml.fromstring(html_or_element, parser=_html_parser())
        el = root if root.tag == "table" else next(root.iter("table"), None)
        if el is None:
            raise ValueError("no <table> element")
    else:
        el = html_or_element
    raw, origins, spans = _grid_from_table_element(el)
    cells = normalize_cells(raw, origins)
    cap = el.find("caption")
    kwargs.setdefault("caption", clean_text(cap.text_content()) if cap is not None else "")
    return Table(id=table_id, cells=cells, raw_cells=raw, spans=spans, **kwargs)


_BLOCK_TAGS = {
    "p", "div", "table", "li", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6",
    "section", "article", "blockquote", "pre", "body", "center", "dl", "dt", "dd", "hr", "form",
}  # fmt: skip
_SKIP_TAGS = {"script", "style", "head", "title", "noscript", "template", "ix:header"}


def _html_blocks(root) -> list[Block]:
    # elements with a block descendant are containers, the rest are inline runs
    has_block: set = set()
    for el in root.iter():
        if isinstance(el.tag, str) and el.tag.lower() in _BLOCK_TAGS:
            for anc in el.iterancestors():
                if anc in has_block:
                    break
                has_block.add(anc)
    blocks: list[Block] = []
    counters = {"p": 0, "t": 0}
    last_text = [""]

    def emit_paragraph(pieces: list[str]) -> None:
        text = clean_text("".join(pieces), keep_newlines=True)
        pieces.clear()
        if text:
            blocks.append(Paragraph(id=f"p{counters['p']}", text=text))
            counters["p"] += 1
            last_text[0] = text

    def walk(el) -> None:
        buf: list[str] = [el.text or ""]
        for child in el:
            tag = child.tag.lower() if isinstance(child.tag, str) else ""
            if not tag or tag in _SKIP_TAGS:
                pass
            elif tag == "table":
                emit_paragraph(buf)
                raw, origins, spans = _grid_from_table_element(child)
                cells = normalize_cells(raw, origins)
                if cells:
                    cap = child.find("caption")
                    blocks.append(
                        Table(
                            id=f"t{counters['t']}",
                            cells=cells,
                            raw_cells=raw,
                            spans=spans,
                            pre_text=last_text[0],
                            caption=clean_text(cap.text_content()) if cap is not None else "",
                        )
                    )
                    counters["t"] += 1
            elif tag == "br":
                buf.append("\n")
            elif tag in _BLOCK_TAGS or child in has_block:
                emit_paragraph(buf)
                walk(child)
            else:
                buf.append(child.text_content())
            buf.append(child.tail or "")
        emit_paragraph(buf)

    walk(root)
    return blocks
