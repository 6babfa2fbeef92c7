"""Rule-based sentence splitting for financial prose, with exact offsets.

``split_sentences(text)`` returns :class:`Sentence` spans whose ``text`` is
always ``text[start:end]`` of the input, so callers can map sentences back to
the document (FAITH spans, FinED error sentences).

Rules, in order:

1. Blank lines are hard breaks.
2. A sentence ends after ".", "!" or "?" (plus closing quotes or brackets)
   followed by whitespace and a capital letter, digit, opening quote/bracket,
   "$" or a bullet, or after a "." glued to a capitalised word ("States.Domestic",
   "$221.Cost": paragraphs whose break was lost; not after a list marker or inside
   a dotted name, "www.AdvanSix.com"). It does not end after an abbreviation
   ("Inc.", "U.S.", "No.", "approx.", "e.g.", "Jan." ...), after a single initial ("J."), or
   after "Item 7." / "Note 5." style numbering. Corporate suffixes and
   dotted acronyms ("Inc.", "U.S.") do end a sentence when the next word is
   a typical sentence opener ("The", "We", "In" ...).
3. A bullet ("•", "●", "▪", "◦", "–"/"-" at line start) starts a new sentence,
   except right after a lead-in ending with ":", which keeps its first bullet
   (FAITH's annotated sentences read that way).
4. A single newline is only a line wrap: it never ends a sentence by itself.
5. Fragments are merged: a piece with no letters (page numbers, a lone
   bullet) joins its neighbour (a bullet the next sentence, anything else
   the previous one); a heading-like piece - no end punctuation and at most
   12 words, such as "Overview" or "Results of Operations" - joins the next
   sentence; a piece of at most two words ending in "." ("Item 7.",
   "Overview.") also joins the next sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Sentence", "split_sentences"]


@dataclass(frozen=True)
class Sentence:
    start: int
    end: int
    text: str


# lower-cased, without the final dot
# Articles, prepositions and possessives: words with no content of their own, shared by the
# checks that compare what two sentences say.
FUNCTION_WORDS = frozenset(
    ["the", "a", "an", "of", "to", "in", "on", "for", "and", "or", "with", "by", "as", "at", "from"]
    + ["its", "our", "their"]
)

_ABBREVIATIONS = {
    "inc", "corp", "co", "ltd", "llc", "plc", "lp", "llp", "bros", "cos", "no", "nos", "vs", "v",
    "approx", "est", "etc", "e.g", "i.e", "cf", "al", "viz", "fig", "figs", "ref", "refs", "sec",
    "art", "para", "pp", "p", "vol", "ch", "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
    "u.s", "u.k", "u.n", "e.u", "n.a", "s.a", "n.v", "a.g", "l.p", "l.l.c", "p.c", "d.c",
    "dept", "div", "govt", "intl", "natl", "assn", "avg", "max", "min", "yr", "yrs",
    "mo", "mos", "qtr", "q", "pt", "pts", "bbl", "mmbtu", "mcf", "ft", "sq", "oz", "lb", "lbs",
}  # fmt: skip
# abbreviations that also end sentences ("... sold by Acme Inc. The ...")
_ENDING_ABBREVIATIONS = {
    "inc",
    "corp",
    "co",
    "ltd",
    "llc",
    "plc",
    "lp",
    "llp",
    "etc",
    "u.s",
    "u.k",
    "l.p",
    "l.l.c",
    "n.a",
}
_SENTENCE_OPENERS = {
    "the", "we", "our", "in", "this", "these", "those", "as", "for", "on", "at", "during", "it",
    "its", "there", "such", "a", "an", "if", "when", "while", "although", "however", "also",
    "additionally", "further", "furthermore", "moreover", "total", "net", "revenue", "revenues",
    "see", "refer", "each", "all", "no", "under", "following", "accordingly", "because", "since",
    "item", "they", "he", "she", "management",
}  # fmt: skip
# "Item 7." / "Note 5." / "Section 2." : numbering, not a sentence end
_NUMBERING = re.compile(
    r"(?i)\b(?:item|note|notes|part|section|article|schedule|exhibit|step|no|rule|chapter|level|tier)\s+\d+[a-z]?\.$"
)

_BULLETS = "•●▪◦‣○■□◆►➢✓"
# a stop, then space or the end; or a stop glued to the next sentence's first word, as in
# texts whose paragraphs lost their breaks ("... the United States.Domestic sales ...",
# "... of $221.Cost of goods sold", "... Form 10-K.Asset managers"): two lower-case
# letters, a digit, "%", ")" or a form name before it, a capital and a lower-case letter
# after it (not "U.S.Bancorp", "3.5", "Amazon.com", nor a list's "b.Operating margins")
_END = re.compile(
    r"[.!?…]+[\"”’')\]]*(?=\s|$)"
    r"|(?:(?<=[a-z]{2})|(?<=[0-9%)])|(?<=\d-[KQF]))\.(?=[A-Z][a-z])"
)
_BULLET_START = re.compile(rf"(?m)(?:(?<=\s)|^)[{_BULLETS}](?=\s|$)|^[ \t]*[-–](?=[ \t])")
_BLANK_LINE = re.compile(r"\n[ \t\u00a0\u200b]*\n")
# "10-K", "10-Q", "8-K", "20-F" right before the stop (searched in the last few characters)
_FORM_NAME = re.compile(r"\b\d{1,2}-[KQF]$")
# a glued stop that is no sentence's end: a list marker before it, a number starting a line
# or following a colon ("\n2.Financial Statement Schedules") or a bracketed one
# ("(a).Revenue"), not a reference's number ("see ... on page 8.Average loans ..."); or a
# dotted name around it ("www.AdvanSix.com", "Use.Design.Build"): a stop after two letters
# and before a letter in the word before or after (not an abbreviation's single letters:
# "... industries.Non-U.S. Commercial ...")
_GLUED_MARKER = re.compile(r"(?:(?:^|\n|:)[ \t]*\d{1,2}|(?:^|\s)\([0-9a-z]{1,2}\))$")
_DOTTED = re.compile(r"[A-Za-z]{2}\.[A-Za-z]")
_WORD_AFTER = re.compile(r"\S*")
_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z.&'’]*)$")
_LETTER = re.compile(r"[^\W\d_]")
_TERMINAL = re.compile(r"[.!?:;…][\"”’')\]]*$")


_NOT_SPACE = re.compile(r"\S")


def _is_boundary(text: str, dot: int, end: int) -> bool:
    """Does the punctuation run text[dot:end] end a sentence?"""
    # the next word, read in a window: copying the rest of the text at every stop was
    # quadratic in the segment's length
    after_space = _NOT_SPACE.search(text, end)
    rest = text[after_space.start() : after_space.start() + 40] if after_space else ""
    if not rest:
        return True
    nxt = rest[0]
    if not (nxt.isupper() or nxt.isdigit() or nxt in "\"“‘'([$" or nxt in _BULLETS):
        return False
    if text[dot] != ".":
        return True  # "!" and "?" have no abbreviation ambiguity
    if end < len(text) and not text[end].isspace():  # glued: "States.Domestic"
        # the words either side, read within a bounded window (no scan of the whole text)
        lo = max(0, dot - 80)
        start = max(text.rfind(" ", lo, dot), text.rfind("\n", lo, dot), lo - 1) + 1
        after = _WORD_AFTER.match(text, end, end + 80)
        if _GLUED_MARKER.search(text, max(0, dot - 8), dot) or _DOTTED.search(
            text[start:dot] + " " + (after.group(0) if after else "")
        ):
            return False
    before = text[max(0, dot - 40) : dot + 1]
    if _NUMBERING.search(before):
        return False
    m = _WORD_BEFORE.search(text[max(0, dot - 40) : dot])
    if not m:
        return True  # "... 12.5%." or a digit: a real end
    word = m.group(1).lower().rstrip(".")
    if _FORM_NAME.search(text, max(0, dot - 6), dot):
        return True  # "... on Form 10-K. Net income ...": a form's name, not an initial
    if len(word) == 1 and word.isalpha() and text[dot - 1].isupper() and nxt.isupper():
        return False  # an initial: "J. Smith"
    if word in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
        if word in _ENDING_ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)+[a-z]", word):
            opener = re.match(r"[A-Za-z]+", rest)
            return (
                bool(opener)
                and opener.group(0).lower() in _SENTENCE_OPENERS
                and opener.group(0)[0].isupper()
            )
        return False
    return True


def _raw_pieces(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """Split text[lo:hi] at sentence ends and bullets (no merging yet)."""
    cuts = {lo, hi}
    seg = text[lo:hi]
    for m in _END.finditer(seg):
        if _is_boundary(seg, m.start(), m.end()):
            cuts.add(lo + m.end())
    for m in _BULLET_START.finditer(seg):
        before = m.start()
        while before > 0 and seg[before - 1].isspace():  # not seg[:i].rstrip(): a copy a bullet
            before -= 1
        if before > 0 and seg[before - 1] == ":":
            continue  # a lead-in "... the following:" keeps its first bullet (as FAITH does)
        cuts.add(lo + m.start() + (len(m.group(0)) - len(m.group(0).lstrip())))
    bounds = sorted(cuts)
    pieces = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        s, e = a, b
        while s < e and text[s].isspace():
            s += 1
        while e > s and text[e - 1].isspace():
            e -= 1
        if s < e:
            pieces.append((s, e))
    return pieces


def _is_bullet_only(piece: str) -> bool:
    return piece.strip() in set(_BULLETS) | {"-", "–"}


def _merge(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    carry: int | None = None  # start of a piece waiting to join the next one
    for s, e in pieces:
        piece = text[s:e]
        if carry is not None:
            s, carry = carry, None
        if not _LETTER.search(piece):
            if _is_bullet_only(piece) or not out:
                carry = s
            else:
                out[-1][1] = e
            continue
        words = piece.split()
        if not _TERMINAL.search(piece) and len(words) <= 12:  # a heading
            carry = s
            continue
        out.append([s, e])
    if carry is not None:  # trailing fragment: its own piece, or the tail of the last one
        last_end = pieces[-1][1]
        if out and not _LETTER.search(text[carry:last_end]):
            out[-1][1] = last_end
        else:
            out.append([carry, last_end])
    return [(s, e) for s, e in out]


def split_sentences(text: str) -> list[Sentence]:
    """Sentences of ``text`` with exact offsets (see the module doc for the rules)."""
    if not text or not text.strip():
        return []
    pieces: list[tuple[int, int]] = []
    pos = 0
    for m in _BLANK_LINE.finditer(text):
        pieces += _raw_pieces(text, pos, m.start())
        pos = m.end()
    pieces += _raw_pieces(text, pos, len(text))
    return [Sentence(s, e, text[s:e]) for s, e in _merge(text, pieces)]
