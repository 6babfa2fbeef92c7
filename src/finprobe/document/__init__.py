"""Financial documents as ordered blocks (paragraphs and tables), with loaders.

A :class:`FinancialDocument` is a list of :class:`Paragraph` and :class:`Table`
blocks in reading order. Loaders turn FinDVer report JSON, FAITH report records,
EDGAR-style HTML and plain text / Markdown into that one shape, so retrieval,
dataset builders and scorers never look at source formats.

Tables are normalised on construction: EDGAR splits "$", ")" and "%" into cells
of their own and pads with empty spacer columns; those fragments are merged into
the value cells and the spacers dropped (the original grid stays in
``raw_cells``). Header rows, label columns, the table scale ("in millions") and a
unit hint are then derived from the cells and the surrounding text.

The modules, by what they do:
- ``cells``: cleaning and classifying cell text, normalising a grid;
- ``blocks``: the model (Paragraph, Table, FinancialDocument);
- ``sections``: "Item N" sections and MD&A;
- ``pipes``: text with pipe tables (FinDVer context, Markdown);
- ``html``: HTML tables into grids, HTML pages into blocks;
- ``loaders``: one loader per source format, and the format sniffer.
"""

from __future__ import annotations

from finprobe.document.blocks import Block, FinancialDocument, Paragraph, Table
from finprobe.document.cells import clean_text, close_paren_spaces, normalize_cells
from finprobe.document.html import parse_html_table
from finprobe.document.loaders import (
    findver_report_parts,
    load_document,
    load_faith_report,
    load_findver_report,
    load_html,
    load_text,
)
from finprobe.document.sections import mdna_blocks

# the parser's modules: a cache of parsed documents is keyed by their code
# (finprobe.diskcache.code_version)
MODULES = tuple(
    f"finprobe.document.{name}"
    for name in ("cells", "blocks", "sections", "pipes", "html", "loaders")
)

__all__ = [
    "MODULES",
    "Block",
    "FinancialDocument",
    "Paragraph",
    "Table",
    "clean_text",
    "close_paren_spaces",
    "findver_report_parts",
    "load_document",
    "load_faith_report",
    "load_findver_report",
    "load_html",
    "load_text",
    "mdna_blocks",
    "normalize_cells",
    "parse_html_table",
]
