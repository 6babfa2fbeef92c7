"""Detection prompts under the paper's eight strategies (Appendix F, Table 6).

whole | chunk   the whole document in one prompt, or consecutive chunks one at a time
multi | single  all 15 subtypes at once, or one subtype per query
few   | zero    with or without one worked example per subtype
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from finprobe.benchmarks.fined.dataset import word_count
from finprobe.benchmarks.fined.taxonomy import TAXONOMY, Subtype
from finprobe.errors import InputError

CONTEXTS = ("whole", "chunk")
TYPE_MODES = ("multi", "single")
SHOTS = ("few", "zero")
DEFAULT_CHUNK_WORDS = 1500


@dataclass(frozen=True)
class Strategy:
    context: str = "whole"
    types: str = "multi"
    shots: str = "few"

    @property
    def name(self) -> str:
        return f"{self.context}-{self.types}-{self.shots}"

    @classmethod
    def parse(cls, text: str) -> Strategy:
        parts = text.strip().lower().split("-")
        if (
            len(parts) != 3
            or parts[0] not in CONTEXTS
            or parts[1] not in TYPE_MODES
            or parts[2] not in SHOTS
        ):
            raise InputError(
                None, f"strategy {text!r} is not <whole|chunk>-<multi|single>-<few|zero>"
            )
        return cls(*parts)


ALL_STRATEGIES = tuple(Strategy(c, t, s) for c in CONTEXTS for t in TYPE_MODES for s in SHOTS)


@dataclass(frozen=True)
class PromptJob:
    prompt: str
    subtypes: tuple[str, ...]  # the subtypes this query may report
    chunk_index: int


def chunk_text(text: str, max_words: int = DEFAULT_CHUNK_WORDS) -> list[str]:
    """Consecutive chunks of whole lines, each at most ``max_words`` words (a longer line stays whole)."""
    chunks: list[str] = []
    current: list[str] = []
    words = 0
    for line in text.splitlines(keepends=True):
        w = word_count(line)
        if current and words + w > max_words:
            chunks.append("".join(current))
            current, words = [], 0
        current.append(line)
        words += w
    if current:
        chunks.append("".join(current))
    return [c for c in chunks if c.strip()] or [text]


def _type_lines(subtypes: list[Subtype], zh: bool) -> str:
    lines = []
    for s in subtypes:
        name = s.zh if zh else s.en
        lines.append(f"- {name} ({s.abbr}): {s.definition}")
    return "\n".join(lines)


def _example_lines(subtypes: list[Subtype], zh: bool) -> str:
    lines = []
    for s in subtypes:
        name = s.zh if zh else s.en
        answer = json.dumps(
            [{"error_type": name, "sentences": [s.example_wrong]}], ensure_ascii=False
        )
        lines.append(
            f"Text: {s.example_wrong}\nCorrect version: {s.example_right}\nAnswer: {answer}"
        )
    return "\n\n".join(lines)


_INSTRUCTIONS = """You are reviewing a financial document for errors. The errors fall into these types:
{types}

Find every sentence of the document below that contains one of these errors. Copy each erroneous sentence exactly as it appears in the document (do not shorten or rephrase it) and name its error type using the type names above. A document has at most a few errors; report only real errors.

Answer with a JSON list, one object per error type found:
[{{"error_type": "<type name>", "sentences": ["<erroneous sentence copied from the document>", ...]}}]
Answer [] when there is no error. You may reason first, but end your reply with the JSON list."""

_ZH_NOTE = "\nThe document is in Chinese: use the Chinese type names (as listed) and copy sentences in Chinese."


def build_prompt(
    text: str, subtypes: list[Subtype], shots: str, language: str, part: str | None = None
) -> str:
    zh = language == "zh"
    prompt = _INSTRUCTIONS.format(types=_type_lines(subtypes, zh))
    if zh:
        prompt += _ZH_NOTE
    if shots == "few":
        prompt += "\n\nExamples (one per error type):\n\n" + _example_lines(subtypes, zh)
    header = f"Document ({part})" if part else "Document"
    return f"{prompt}\n\n=== {header} ===\n{text}\n=== End of document ==="


def build_jobs(
    text: str, language: str, strategy: Strategy, chunk_words: int = DEFAULT_CHUNK_WORDS
) -> list[PromptJob]:
    """Every query the strategy makes for one document, in order."""
    chunks = [text] if strategy.context == "whole" else chunk_text(text, chunk_words)
    groups = (
        [list(TAXONOMY.subtypes)] if strategy.types == "multi" else [[s] for s in TAXONOMY.subtypes]
    )
    jobs = []
    for ci, chunk in enumerate(chunks):
        part = f"part {ci + 1} of {len(chunks)}" if len(chunks) > 1 else None
        for group in groups:
            jobs.append(
                PromptJob(
                    prompt=build_prompt(chunk, group, strategy.shots, language, part),
                    subtypes=tuple(s.id for s in group),
                    chunk_index=ci,
                )
            )
    return jobs
