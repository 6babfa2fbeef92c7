"""Candidate fragments for error injection (the paper's Section 3.2.2).

- knowledge errors (GKE, FKE): the document cut by chapter/section
- calculation errors: paragraphs with more than three numbers
- other reasoning errors: pairs of paragraphs that share a number or a term,
  far-apart pairs first (the paper joins e.g. the first and last paragraphs)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import combinations

from finprobe.numbers import find_numbers

# Years, dates and ordinals are not the figures a calculation or inconsistency is about.
_NON_FIGURE_KINDS = frozenset({"year", "date", "ordinal"})


@dataclass(frozen=True)
class BlockSpan:
    id: str
    kind: str  # "paragraph" | "table"
    start: int
    end: int
    section: str | None = None


@dataclass(frozen=True)
class SentenceSpan:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Segment:
    kind: str  # "knowledge" | "calculation" | "reasoning"
    blocks: tuple[str, ...]  # block ids, in document order
    label: str = ""
    shared: tuple[str, ...] = field(default=())  # numbers/terms the blocks share (reasoning)


_FALLBACK_SPLIT = re.compile(r"(?<=[.!?。！？；;])[\"'”’)]?\s+|(?<=[。！？；])|\n+")


def split_sentences(text: str) -> list[SentenceSpan]:
    """Sentences with offsets; finprobe.text does the work when present, else a plain rule split."""
    try:
        from finprobe.text import split_sentences as shared_split
    except ImportError:  # the shared splitter lands separately; keep building meanwhile
        shared_split = None
    if shared_split is not None:
        return [SentenceSpan(s.start, s.end, s.text) for s in shared_split(text) if s.text.strip()]
    out: list[SentenceSpan] = []
    pos = 0
    for m in _FALLBACK_SPLIT.finditer(text + "\n"):
        chunk = text[pos : m.start()] if m.start() <= len(text) else text[pos:]
        stripped = chunk.strip()
        if stripped:
            lead = len(chunk) - len(chunk.lstrip())
            out.append(SentenceSpan(pos + lead, pos + lead + len(stripped), stripped))
        pos = m.end()
    return out


def figures(text: str) -> list[str]:
    """The numeric figures of a text (no years, dates, ordinals), as written."""
    return [n.text for n in find_numbers(text) if n.kind not in _NON_FIGURE_KINDS]


def knowledge_segments(blocks: list[BlockSpan], max_blocks: int = 6) -> list[Segment]:
    """Consecutive prose blocks of one section (at most ``max_blocks`` per fragment)."""
    segments: list[Segment] = []
    current: list[BlockSpan] = []
    for b in blocks:
        if b.kind != "paragraph":
            continue
        if current and (b.section != current[-1].section or len(current) >= max_blocks):
            segments.append(
                Segment("knowledge", tuple(x.id for x in current), current[0].section or "")
            )
            current = []
        current.append(b)
    if current:
        segments.append(
            Segment("knowledge", tuple(x.id for x in current), current[0].section or "")
        )
    return segments


def calculation_segments(text: str, blocks: list[BlockSpan], min_numbers: int = 4) -> list[Segment]:
    """Prose blocks with more than three figures."""
    return [
        Segment("calculation", (b.id,), b.section or "")
        for b in blocks
        if b.kind == "paragraph" and len(figures(text[b.start : b.end])) >= min_numbers
    ]


_TERM_RE = re.compile(r"\b(?:[A-Z][a-z]+(?:[- ][A-Z][a-z]+)+|[A-Z]{2,}[\w-]*)\b")
_ZH_TERM_RE = re.compile(r"[\u4e00-\u9fff]{4,8}(?:率|额|费|金|价|量|编号)")


def _terms(text: str) -> set[str]:
    return set(_TERM_RE.findall(text)) | set(_ZH_TERM_RE.findall(text))


def reasoning_segments(text: str, blocks: list[BlockSpan], max_segments: int = 50) -> list[Segment]:
    """Pairs of prose blocks sharing a figure or a term; farthest apart first."""
    prose = [b for b in blocks if b.kind == "paragraph"]
    feats = []
    for b in prose:
        body = text[b.start : b.end]
        nums = {f for f in figures(body) if sum(ch.isdigit() for ch in f) >= 2}
        feats.append((nums, _terms(body)))
    pairs = []
    for (i, a), (j, b) in combinations(enumerate(prose), 2):
        shared_nums = feats[i][0] & feats[j][0]
        shared_terms = feats[i][1] & feats[j][1]
        if shared_nums or shared_terms:
            # shared figures first (they carry numerical inconsistencies), then distance
            pairs.append(
                (bool(shared_nums), j - i, a, b, sorted(shared_nums) + sorted(shared_terms))
            )
    pairs.sort(key=lambda p: (p[0], p[1]), reverse=True)
    return [
        Segment("reasoning", (a.id, b.id), f"{a.id}+{b.id}", tuple(shared[:10]))
        for _, _, a, b, shared in pairs[:max_segments]
    ]
