"""Loaders: FinDVer report JSON, FAITH records, HTML files and plain text / Markdown into
FinancialDocument, and a format sniffer."""

from __future__ import annotations

import gc
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from finprobe.document.blocks import Block, FinancialDocument, Paragraph, Table, pipe_text
from finprobe.document.cells import _normalize_grid, clean_text, normalize_cells
from finprobe.document.html import (
    _grid_from_table_element,
    _html_blocks,
    _html_parser,
    markup_is_marker_free,
)
from finprobe.document.pipes import (
    _compact_pipe_rows,
    _html_matches_pipe,
    _split_mixed,
    html_prefix_end,
    split_run_tables,
)
from finprobe.document.sections import _assign_sections
from finprobe.errors import InputError


def _read_source(path_or_text: str | Path, suffixes: tuple[str, ...]) -> tuple[str, Path | None]:
    """Text of a file, or the argument itself when it is already content."""
    if isinstance(path_or_text, Path) or (
        "\n" not in path_or_text
        and len(path_or_text) < 1024
        and (path_or_text.lower().endswith(suffixes) or Path(path_or_text).exists())
    ):
        path = Path(path_or_text)
        return _read_file_text(path), path
    return path_or_text, None


def _read_file_text(path: Path) -> str:
    from finprobe.files import read_bytes

    data = read_bytes(path)
    if b"\x00" in data[:4096]:
        raise InputError(path, "binary file, expected text, HTML or JSON")
    for enc in ("utf-8-sig", "cp1252"):
        try:
            return data.decode(enc)
        except UnicodeDecodeError:
            continue
    return data.decode("latin-1")


def load_html(path_or_text: str | Path) -> FinancialDocument:
    """EDGAR-style HTML: paragraphs (p/div/li text) and tables in reading order."""
    from lxml import etree
    from lxml import html as lhtml

    text, path = _read_source(path_or_text, (".htm", ".html", ".xhtml"))
    if text.lstrip().startswith("<?xml"):
        text = re.sub(
            r"^\s*<\?xml[^>]*\?>", "", text
        )  # lxml refuses str with an encoding declaration
    try:
        root = lhtml.document_fromstring(text, parser=_html_parser())
    except (etree.ParserError, ValueError) as exc:
        raise InputError(path or "<html>", f"cannot parse HTML ({exc})") from None
    body = root.find("body")
    blocks = _html_blocks(body if body is not None else root)
    if not blocks:
        raise InputError(path or "<html>", "HTML holds no text or tables")
    _assign_sections(blocks)
    title = root.findtext(".//title") or ""
    meta: dict[str, Any] = {"source": str(path) if path else None, "format": "html"}
    if title.strip():
        meta["title"] = clean_text(title)
    return FinancialDocument(id=path.stem if path else "html", blocks=blocks, metadata=meta)


# --------------------------------------------------------------------------
# plain text and Markdown

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def load_text(path_or_text: str | Path, markdown: bool = True) -> FinancialDocument:
    """Paragraphs split on blank lines; with markdown, pipe tables and "# headings"."""
    text, path = _read_source(path_or_text, (".txt", ".md", ".markdown", ".text"))
    blocks: list[Block] = []
    section: str | None = None
    n_p = n_t = 0
    for chunk in re.split(r"\n[ \t\u00a0\u200b]*\n", text.replace("\r\n", "\n")):
        if not clean_text(chunk):
            continue
        lines = chunk.split("\n")
        if markdown:
            rest: list[str] = []
            for line in lines:
                m = _MD_HEADING.match(line.strip())
                if m:
                    if rest:
                        for kind, payload in _split_mixed("\n".join(rest)):
                            if kind == "p":
                                blocks.append(
                                    Paragraph(id=f"p{n_p}", text=payload, section=section)
                                )
                                n_p += 1
                            else:
                                blocks.append(_markdown_table(payload, f"t{n_t}", blocks, section))
                                n_t += 1
                        rest = []
                    section = clean_text(m.group(2)) or section
                else:
                    rest.append(line)
            lines = rest
            parts = _split_mixed("\n".join(lines)) if lines else []
        else:
            parts = [("p", clean_text(chunk, keep_newlines=True))]
        for kind, payload in parts:
            if kind == "p":
                blocks.append(Paragraph(id=f"p{n_p}", text=payload, section=section))
                n_p += 1
            else:
                blocks.append(_markdown_table(payload, f"t{n_t}", blocks, section))
                n_t += 1
    if not blocks:
        raise InputError(path or "<text>", "no text found")
    fmt = "markdown" if markdown else "text"
    return FinancialDocument(
        id=path.stem if path else fmt,
        blocks=blocks,
        metadata={"source": str(path) if path else None, "format": fmt},
    )


def _markdown_table(
    rows: list[list[str]], table_id: str, blocks: list[Block], section: str | None
) -> Table:
    pre = next((b.text for b in reversed(blocks) if isinstance(b, Paragraph)), "")
    return Table(id=table_id, cells=rows, pre_text=pre, section=section)


# --------------------------------------------------------------------------
# FinDVer reports

_FINDVER_NAME = re.compile(
    r"^(?P<ticker>[A-Za-z0-9.\-]+?)-(?P<date>\d{4}-\d{2}-\d{2})_(?P<form>[\w\-/]+?)$"
)


def _load_json(path: Path) -> Any:
    text = _read_file_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(path, f"invalid JSON ({exc.msg} at line {exc.lineno})") from None


def _doc_stem(path: Path) -> str:
    name = path.name
    for suffix in (".gz", ".json"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    return name


def load_findver_report(path: str | Path) -> FinancialDocument:
    """A FinDVer report ({url, report_type, context, html_tables}) as blocks.

    Each context entry keeps its id as ``source_id``. A pure paragraph entry
    becomes block "c<id>"; an entry that mixes prose and pipe tables is cut
    into parts "c<id>.p0", "c<id>.t1", ... numbered in order. The i-th pipe
    table of the report is paired with the i-th ``html_tables`` entry; when
    both show the same rows the HTML grid (exact columns) becomes the cells,
    else the pipe text stays primary and the HTML grid is kept as html_cells.
    A pipe table that runs on past its HTML twin's rows holds more tables (or a
    bullet list): those are cut off as "c<id>.t1.1", "c<id>.t1.2", ... (pipe text,
    no twin), so that each reads its own column headers.
    """
    return _without_gc(_load_findver_report, Path(path))


def findver_report_parts(path: str | Path) -> list[tuple[str, str, bool, str]]:
    """Each block of ``load_findver_report(path)`` as (block id, source id, is a table,
    its passage text), without building the document: what retrieval passages read.

    A table's text is its final cells as pipe text (``Table.to_pipe_text``; FinDVer
    tables have no caption). Skipped, because passages never read them: header rows
    and columns, scale and unit, raw cells, pre-texts, sections, and the normalised HTML
    rendering of a table whose pipe text wins (tests/test_document_fast_paths.py checks
    the result against the document's blocks on every FinDVer report).
    """
    return _without_gc(_findver_report_parts, Path(path))


def _without_gc(load: Any, path: Path) -> Any:
    # a report allocates millions of objects and no reference cycles: pausing the
    # cyclic collector saves its repeated scans of the growing heap (a fifth of the
    # FinDVer preparation's CPU), as load_filing does
    if not gc.isenabled():
        return load(path)
    gc.disable()
    try:
        return load(path)
    finally:
        gc.enable()


def _findver_parts(path: Path, data: Any) -> Iterator[tuple[str, str, str, Any, Any]]:
    """Each block-to-be of a FinDVer report, in order: (block id, source id, "p" or "t",
    the prose or the pipe rows, the parsed HTML twin of a table (``_html_twin``) or None).
    One block is made of each part (an entry without an id is numbered by them).

    A pipe block that runs several tables together (its HTML twin is only the first)
    is cut into tables ("c<id>.t<k>", then "c<id>.t<k>.1", ...; ``split_run_tables``):
    the later ones have no HTML twin."""
    if not isinstance(data, dict) or not isinstance(data.get("context"), list):
        raise InputError(path, "not a FinDVer report: expected an object with a 'context' list")
    html_tables = data.get("html_tables") or []
    n_parts = 0
    pipe_index = 0
    for entry in data["context"]:
        if not isinstance(entry, dict) or "context" not in entry:
            raise InputError(path, "context entry without 'context' text")
        sid = str(entry.get("id", n_parts))
        parts = _split_mixed(str(entry["context"]))
        if not parts:
            continue
        single = len(parts) == 1 and parts[0][0] == "p"
        for k, (kind, payload) in enumerate(parts):
            bid = f"c{sid}" if single else f"c{sid}.{kind}{k}"
            n_parts += 1
            if kind == "p":
                yield bid, sid, kind, payload, None
                continue
            html = html_tables[pipe_index] if pipe_index < len(html_tables) else None
            pipe_index += 1
            twin = _html_twin(html)
            cut = html_prefix_end(_row_texts(twin[0], twin[1]), payload) if twin else None
            if cut is None:
                yield bid, sid, kind, payload, twin
                continue
            yield bid, sid, kind, payload[:cut], twin
            for j, rows in enumerate(split_run_tables(payload[cut:]), start=1):
                yield f"{bid}.{j}", sid, kind, rows, None


def _load_findver_report(path: Path) -> FinancialDocument:
    data = _load_json(path)
    blocks: list[Block] = []
    last_text = ""
    for bid, sid, kind, payload, twin in _findver_parts(path, data):
        if kind == "p":
            blocks.append(Paragraph(id=bid, text=payload, source_id=sid))
            last_text = payload
        else:
            blocks.append(_findver_table(bid, sid, payload, twin, last_text))
    if not blocks:
        raise InputError(path, "report has no text")
    _assign_sections(blocks)
    stem = _doc_stem(path)
    meta: dict[str, Any] = {
        "source": str(path),
        "format": "findver",
        "url": data.get("url"),
        "report_type": data.get("report_type"),
        "n_html_tables": len(data.get("html_tables") or []),
    }
    if m := _FINDVER_NAME.match(stem):
        meta.update(company=m["ticker"], ticker=m["ticker"], filing_date=m["date"])
        meta["report_type"] = meta["report_type"] or m["form"]
    if (url := data.get("url")) and (cik := re.search(r"/edgar/data/(\d+)/", str(url))):
        meta["cik"] = cik.group(1)
    return FinancialDocument(id=stem, blocks=blocks, metadata=meta)


def _findver_report_parts(path: Path) -> list[tuple[str, str, bool, str]]:
    out = [
        (bid, sid, False, payload)
        if kind == "p"
        else (bid, sid, True, pipe_text(_findver_table_cells(payload, twin)))
        for bid, sid, kind, payload, twin in _findver_parts(path, _load_json(path))
    ]
    if not out:
        raise InputError(path, "report has no text")
    return out


def _html_twin(html: Any) -> tuple[list[list[str]], list[list[Any]], list[Any]] | None:
    """(grid, origins, spans) of a pipe table's HTML twin; None: none, or unreadable."""
    if not (isinstance(html, str) and "<t" in html):
        return None
    try:
        from lxml import html as lhtml

        root = lhtml.fromstring(html, parser=_html_parser())
        el = root if root.tag == "table" else next(root.iter("table"), None)
        if el is None:
            return None
        return _grid_from_table_element(el, marker_free=markup_is_marker_free(html))
    except Exception:  # a broken HTML twin must not lose the pipe table
        return None


def _findver_table(bid: str, sid: str, rows: list[list[str]], twin: Any, pre_text: str) -> Table:
    if twin is not None:
        grid, origins, spans = twin
        # the grid's cells are clean_text'ed and its rows padded: no second pass
        html_cells = _normalize_grid(grid, origins)
        if _html_matches_pipe(_row_texts(grid, origins), rows):
            return Table(
                id=bid, cells=html_cells, raw_cells=grid, spans=spans, html_cells=html_cells,
                pre_text=pre_text, source_id=sid, normalize=False,
            )  # fmt: skip
    else:
        html_cells = None
    return Table(
        id=bid,
        cells=_compact_pipe_rows(rows),
        raw_cells=[list(r) for r in rows],
        pre_text=pre_text,
        source_id=sid,
        html_cells=html_cells,
    )


def _findver_table_cells(rows: list[list[str]], twin: Any) -> list[list[str]]:
    """The cells that ``_findver_table``'s Table ends with, and nothing else of it (the
    Table's ``__post_init__``: ``normalize_cells`` of the pipe rows, or, when the HTML
    grid wins, ``_rectangular`` of it, which leaves it as it is: its rows are equally
    long and its cells clean_text'ed (grid cells are; merged cells join two of them with
    "" or one space, a dropped footnote leaves a stripped prefix), so not called here)."""
    if twin is not None and _html_matches_pipe(_row_texts(twin[0], twin[1]), rows):
        return _normalize_grid(twin[0], twin[1])
    return normalize_cells(_compact_pipe_rows(rows))


def _row_texts(grid: list[list[str]], origins: list[list[Any]]) -> list[list[str]]:
    """Each non-empty HTML row as its source cells' texts (a span counted once)."""
    out = []
    for row, org in zip(grid, origins, strict=True):
        # one entry per source cell, at its first column; every grid cell of a source
        # cell holds its text (padding: None, "")
        texts = [text for text in dict(zip(org, row, strict=True)).values() if text]
        if texts:
            out.append(texts)
    return out


# --------------------------------------------------------------------------
# FAITH reports


def load_faith_report(record: dict, doc_id: str) -> FinancialDocument:
    """One entry of a FAITH json list: tables "t<table_index>" with their pre-texts.

    FAITH ships only the tables (the sentences live in ``instances``), so the
    document has one block per table, in the order given.
    """
    if not isinstance(record, dict) or not isinstance(record.get("tables"), list):
        raise InputError(
            doc_id, "not a FAITH report record: expected an object with a 'tables' list"
        )
    blocks: list[Block] = []
    for i, t in enumerate(record["tables"]):
        if not isinstance(t, dict) or not isinstance(t.get("cells"), list):
            raise InputError(doc_id, f"FAITH table {i} has no 'cells' grid")
        idx = t.get("table_index", i)
        blocks.append(
            Table(
                id=f"t{idx}",
                cells=t["cells"],
                pre_text=str(t.get("pre_text") or ""),
                source_id=str(idx),
            )
        )
    meta = dict(record.get("metadata") or {})
    meta.update(format="faith", n_instances=len(record.get("instances") or []))
    return FinancialDocument(id=doc_id, blocks=blocks, metadata=meta)


# --------------------------------------------------------------------------
# sniffing

_FORMATS = {"findver", "faith", "html", "htm", "md", "markdown", "txt", "text"}


def load_document(path: str | Path, format: str | None = None) -> FinancialDocument:
    """Load a document, the format taken from ``format`` or sniffed.

    Formats: findver (.json/.json.gz report), faith (a FAITH json file with one
    report, or one record), html/htm, md/markdown, txt/text.
    """
    path = Path(path)
    fmt = format.lower() if format else None
    if fmt is not None and fmt not in _FORMATS:
        raise InputError(
            path, f"unknown format {format!r} (expected one of {', '.join(sorted(_FORMATS))})"
        )
    if not path.exists():
        raise InputError(path, "file not found")
    if fmt is None:
        fmt = _sniff(path)
    if fmt == "findver":
        return load_findver_report(path)
    if fmt == "faith":
        data = _load_json(path)
        records = data if isinstance(data, list) else [data]
        if len(records) != 1:
            raise InputError(
                path, f"FAITH file holds {len(records)} reports: load one with load_faith_report"
            )
        return load_faith_report(records[0], _doc_stem(path))
    if fmt in ("html", "htm"):
        return load_html(path)
    return load_text(path, markdown=fmt in ("md", "markdown"))


def _sniff(path: Path) -> str:
    name = path.name.lower()
    inner = name[:-3] if name.endswith(".gz") else name
    if inner.endswith((".htm", ".html", ".xhtml")):
        return "html"
    if inner.endswith((".md", ".markdown")):
        return "md"
    if inner.endswith(".json"):
        return _sniff_json(path)
    text = _read_file_text(path)
    head = text.lstrip()[:2000].lower()
    if head.startswith(("{", "[")):
        return _sniff_json(path)
    if head.startswith(("<!doctype html", "<html", "<?xml")) or re.search(
        r"<(?:table|p|div|body)\b", head
    ):
        return "html"
    if inner.endswith((".txt", ".text")) or "\n" in text or len(text) < 100_000:
        return "md" if re.search(r"(?m)^\s*(?:#{1,6}\s|\|.*\|\s*$)", text) else "txt"
    raise InputError(path, "unrecognised document format")


def _sniff_json(path: Path) -> str:
    data = _load_json(path)
    if isinstance(data, dict) and isinstance(data.get("context"), list):
        return "findver"
    records = data if isinstance(data, list) else [data]
    if records and all(isinstance(r, dict) and "tables" in r for r in records):
        return "faith"
    raise InputError(path, "JSON is neither a FinDVer report nor a FAITH report")
