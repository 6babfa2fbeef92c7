"""Sections of a filing: "Item N" headings, and where MD&A starts and ends."""

from __future__ import annotations

import re

from finprobe.document.blocks import Block, FinancialDocument, Paragraph

# --------------------------------------------------------------------------
# sections and MD&A

_ITEM_HEADING = re.compile(
    r"(?im)^[ \t]*(?:part\s+i{1,2}\s*[,.\-–—:]?\s*)?item[ \t]*(\d{1,2}[a-c]?)\b[ \t]*[.:\-–—]?\s*(?-i:(?=[A-Z\[(“\"]))"
)
_MDNA_TITLE = re.compile(r"(?i)^management[’'`]?s?(?:\s+discussion\s+and\s+analysis|\s*$|\s*\n)")
# MD&A without its item heading usually opens with this sentence
_MDNA_INTRO = re.compile(
    r"(?im)^[ \t]*(?:the\s+following\s+)?(?:management[’'`]?s\s+)?discussion\s+and\s+analysis\s+of\s+"
    r"(?:our\s+|the\s+company[’']?s\s+)?(?:consolidated\s+)?(?:financial|results)"
)
# line-start titles that end MD&A when the item headings themselves are missing
_MDNA_END_TITLE = re.compile(
    r"(?im)^[ \t]*(?:quantitative\s+and\s+qualitative\s+disclosures?\s+about\s+market\s+risk|"
    r"financial\s+statements\s+and\s+supplementary\s+data|"
    r"report\s+of\s+independent\s+registered\s+public\s+accounting\s+firm)"
)
_BROKEN_WORD = re.compile(r"(?<=[A-Za-z])\n(?=[a-z])")


def _heading_view(text: str) -> str:
    """Text with words re-joined where conversion broke them ("It\nem 7. Mana\ngement")."""
    return _BROKEN_WORD.sub("", text) if "\n" in text else text


def _item_headings(text: str) -> list[tuple[int, str, str]]:
    """(offset, item token, following text) for each line-start "Item N." heading."""
    # "item" (any case) must be there, and its t, e, m only match ASCII letters: a
    # quick test before the full pattern (most paragraphs hold no "item")
    if "tem" not in text.lower():
        return []
    return [
        (m.start(), m.group(1).upper(), text[m.end() : m.end() + 120])
        for m in _ITEM_HEADING.finditer(text)
    ]


def _assign_sections(blocks: list[Block]) -> None:
    """Give blocks without a section the last "Item N" heading seen."""
    current: str | None = None
    for b in blocks:
        if isinstance(b, Paragraph):
            heads = _item_headings(_heading_view(b.text))
            if heads and b.section is None:
                # a heading at the very start names this block's section
                if heads[0][0] < 40:
                    current = f"Item {heads[0][1]}"
                b.section = current
                current = f"Item {heads[-1][1]}"
                continue
        if b.section is None:
            b.section = current


def _block_text(b: Block) -> str:
    return _heading_view(b.text) if isinstance(b, Paragraph) else b.to_pipe_text()


def mdna_blocks(doc: FinancialDocument) -> list[Block]:
    """MD&A blocks: from "Item 7. Management's Discussion..." to Item 7A/8.

    10-Q filings carry MD&A as Part I "Item 2"; that is found the same way.
    Every line-start heading "Item N. Management's Discussion" is a candidate
    start; its end is the next line-start heading of another item. Tables of
    contents list the items close together, so the candidate followed by the
    most text wins. Without any such heading, a line opening with "(The
    following) discussion and analysis of our financial condition ..." starts
    MD&A. Blocks are returned whole (the first and last may carry a little text
    from the neighbouring items). [] when no MD&A is found, or when it holds
    under 300 characters (a table-of-contents line, or "incorporated by
    reference").
    """
    texts = [_block_text(b) for b in doc.blocks]
    starts: list[tuple[int, int, str]] = []  # (block index, offset, item)
    for i, (b, t) in enumerate(zip(doc.blocks, texts, strict=True)):
        if isinstance(b, Paragraph):
            for off, item, rest in _item_headings(t):
                if _MDNA_TITLE.match(
                    " ".join(rest.split()) if not rest.startswith(("M", "m")) else rest
                ):
                    starts.append((i, off, item))
    if not starts:
        for i, (b, t) in enumerate(zip(doc.blocks, texts, strict=True)):
            if isinstance(b, Paragraph):
                starts.extend((i, m.start(), "") for m in _MDNA_INTRO.finditer(t))
    best: tuple[int, int, int] | None = None  # (content chars, first, last exclusive)
    for i, off, item in starts:
        content, j, pos = 0, i, off + 10
        end_block = len(doc.blocks)
        while j < len(doc.blocks):
            t = texts[j]
            stops = [o for o, tok, _ in _item_headings(t) if (j > i or o >= pos) and tok != item]
            stops += [m.start() for m in _MDNA_END_TITLE.finditer(t) if j > i or m.start() >= pos]
            stop = min(stops, default=None)
            if stop is not None:
                content += stop - (pos if j == i else 0)
                # a block that opens with the next item is not part of MD&A
                end_block = (j + 1 if stop > 40 else j) if j > i else i + 1
                break
            content += len(t) - (pos if j == i else 0)
            j += 1
        if best is None or content > best[0]:
            best = (content, i, end_block)
    if best is None or best[0] < 300:
        return []
    return doc.blocks[best[1] : best[2]]
