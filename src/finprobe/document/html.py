"""HTML: a <table> resolved into a grid (colspan/rowspan), and EDGAR-style pages cut into
paragraphs and tables in reading order."""

from __future__ import annotations

from typing import Any

from finprobe.document.blocks import Block, Paragraph, Table
from finprobe.document.cells import clean_text, normalize_cells


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


def _grid_from_table_element(
    table_el,
) -> tuple[list[list[str]], list[list[Any]], list[tuple[int, int, int, int]]]:
    """Resolve colspan/rowspan into a grid; each grid cell knows its source cell."""
    grid: list[list[str | None]] = []
    origin: list[list[Any]] = []
    spans: list[tuple[int, int, int, int]] = []
    for r, tr in enumerate(_table_rows(table_el)):
        while len(grid) <= r:
            grid.append([])
            origin.append([])
        c = 0
        row, row_origin = grid[r], origin[r]
        for k, td in enumerate(tr.iterchildren("td", "th")):  # elements only, in order
            while c < len(row) and row[c] is not None:
                c += 1
            text = clean_text(td.text_content())
            rs, cs = _span(td.get("rowspan")), _span(td.get("colspan"))
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
