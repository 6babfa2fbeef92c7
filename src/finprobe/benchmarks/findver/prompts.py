"""FinDVer prompts (chain-of-thought and direct output) and label extraction.

The paper asks for a reasoning process then a label (CoT) or the label alone
(direct output), and maps each reply to entailed / refuted / none with an LLM.
Here the mapping is rule-based and deterministic: an explicit final-answer line
wins, then the last "the claim is ..." verdict or "Conclusion: ...", then the last
label word; "not
entailed" (and other negated entailment) reads as refuted, "not refuted" as
entailed; a phrase that lists both labels ("entailed or refuted") is ignored.
"""

from __future__ import annotations

import re

PROMPT_STYLES = ("cot", "direct")
LABELS = ("entailed", "refuted")

SYSTEM_PROMPT = (
    "You are a financial analyst who checks claims against a company's 10-K or 10-Q "
    "report. Judge only from the report text and tables you are given, plus standard "
    "financial knowledge."
)

_COT_INSTRUCTIONS = """Decide whether the claim is entailed or refuted by the report excerpts above. Tables have their cells separated by "|" and one row per line.

Work in this order:
1. Extracted information: list, as a numbered list, every fact from the report that bears on the claim (name the paragraph or table it comes from).
2. Reasoning: go step by step from those facts to a verdict, doing any calculation explicitly.
3. Finish with one last line, exactly "Answer: entailed" or "Answer: refuted".

A claim is entailed only if everything it states is supported by the report; if any part of it is contradicted, it is refuted."""

_DIRECT_INSTRUCTIONS = """Decide whether the claim is entailed or refuted by the report excerpts above. Tables have their cells separated by "|" and one row per line.

A claim is entailed only if everything it states is supported by the report; if any part of it is contradicted, it is refuted. Do not explain. Reply with one word: entailed or refuted."""


def verification_prompt(context: str, statement: str, style: str = "cot") -> str:
    """The user message: the report excerpts, the claim, then the instructions."""
    if style not in PROMPT_STYLES:
        raise ValueError(f"unknown prompt style {style!r}: use cot or direct")
    instructions = _COT_INSTRUCTIONS if style == "cot" else _DIRECT_INSTRUCTIONS
    return f"Report excerpts:\n\n{context}\n\nClaim: {statement}\n\n{instructions}"


# ----------------------------------------------------------------------------- extraction

_NEG = r"(?:not|n't|cannot|never|no\s+longer|non|un)"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # negated forms first: they overlap the plain words
    ("refuted", re.compile(rf"\b{_NEG}[\s-]*(?:\w+\s+){{0,2}}?(?:be\s+)?entail(?:ed|s|ment)?\b")),
    (
        "refuted",
        re.compile(
            rf"\b{_NEG}[\s-]*(?:\w+\s+){{0,2}}?(?:be\s+)?(?:supported|true|correct|accurate|valid)\b"
        ),
    ),
    (
        "entailed",
        re.compile(
            rf"\b{_NEG}[\s-]*(?:\w+\s+){{0,2}}?(?:be\s+)?(?:refuted|contradicted|false|incorrect|wrong)\b"
        ),
    ),
    (
        "refuted",
        re.compile(
            r"\b(?:refuted|refutes|refute|contradicted|contradicts|false|incorrect|inaccurate|unsupported|wrong)\b"
            # "the statement does not hold": a final verdict with no label word
            r"|\b(?:does|do|did)\s*(?:not|n't)\s+hold\b"
        ),
    ),
    (
        "entailed",
        re.compile(r"\b(?:entailed|entails|entailment|supported|true|correct|accurate)\b"),
    ),
]
# a phrase naming both labels is an echo of the question, or no verdict ("neither
# entailed nor refuted"), not a verdict
_BOTH = re.compile(
    r"\b(?:entail(?:ed|s)?|true|supported)\s*(?:or|/|and|nor)\s*(?:\w+\s+)?(?:refut(?:ed|es|e)|false)\b"
    r"|\b(?:refut(?:ed|es|e)|false)\s*(?:or|/|and|nor)\s*(?:\w+\s+)?(?:entail(?:ed|s)?|true|supported)\b"
)
# a question about the claim is not a verdict: "to verify whether the statement is
# entailment", "determine if the claim is true"
_QUESTION = re.compile(
    r"\b(?:whether|if)\s+(?:[\w'-]+\s+){0,3}?(?:claim|statement)(?:'s)?\s+(?:is|was|would\s+be|can\s+be)\b[^.,;\n]{0,40}"
    # the claim restated, not judged: "the statement claims that net income is true to ..."
    r"|\b(?:claim|statement)\s+(?:claims|states|says|asserts|argues|suggests)\b[^.,;\n]{0,80}"
)
_MARKER = re.compile(
    r"(?:final\s+answer|answer|final\s+label|entailment\s+label|label|verdict|classification)\s*(?:is)?\s*[:=\-]\s*(.{0,80})",
    re.IGNORECASE,
)
# "Conclusion:" is often a heading over prose: it counts like a verdict sentence, the
# last of them deciding, not like an answer line
_CONCLUSION = re.compile(r"conclusion\s*(?:is)?\s*[:=\-]\s*(.{0,80})", re.IGNORECASE)
_VERDICT = re.compile(
    r"\b(?:claim|statement)\s+(?:is|was|should\s+be|can\s+be|would\s+be)\s+([^.\n]{0,60})"
)


def _clean(text: str) -> str:
    text = text.replace("\u2019", "'").replace("n\u2019t", "n't")
    text = re.sub(r"[*_`#\"“”\[\]()]", " ", text.lower())
    return re.sub(r"\s+", " ", text)


def _mentions(text: str) -> list[tuple[int, str]]:
    """(position, label) of each label mention, negations resolved, echoes dropped."""
    masked = _BOTH.sub(lambda m: " " * len(m.group()), text)
    taken = [False] * len(masked)
    found: list[tuple[int, str]] = []
    for label, pattern in _PATTERNS:
        for match in pattern.finditer(masked):
            if any(taken[match.start() : match.end()]):
                continue
            for i in range(match.start(), match.end()):
                taken[i] = True
            found.append((match.start(), label))
    return sorted(found)


def extract_label(completion: str | None) -> str | None:
    """'entailed', 'refuted', or None when the reply gives no readable verdict."""
    if not completion or not completion.strip():
        return None
    text = _QUESTION.sub(lambda m: " " * len(m.group()), _clean(completion))
    markers = list(_MARKER.finditer(text))
    for marker in reversed(markers):
        mentions = _mentions(marker.group(1))
        if mentions:
            return mentions[0][1]
    verdicts = sorted(
        [*_VERDICT.finditer(text), *_CONCLUSION.finditer(text)], key=lambda m: m.start()
    )
    for verdict in reversed(verdicts):
        mentions = _mentions(verdict.group(1))
        if mentions:
            return mentions[0][1]
    mentions = _mentions(text)
    return mentions[-1][1] if mentions else None
