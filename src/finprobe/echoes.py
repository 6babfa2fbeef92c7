"""Drop what a reply echoes before reading its verdict.

Small models often restate the instructions ('Finish with one last line, exactly
"Answer: entailed" or "Answer: refuted"') or the task's definitions ('A claim is
entailed only if everything it states is supported'); a label extractor that
reads those sentences takes the question for the answer. ``drop_echoes`` removes,
sentence by sentence:

- restated instructions: a sentence whose words are mostly those of one of the
  prompt's own instruction sentences (when the caller gives them), or that reads
  as an instruction (``answer with``, ``in the format``, ``I need to decide``...);
- conditional definitions: a label tied to a condition ('refuted only if ...',
  'if any part is contradicted it is refuted', 'a claim is entailed when ...');
- questions: a sentence (or the part of one) ending in "?", or opening with an
  auxiliary ('Is the claim true', 'Can the statement be entailed ...');
- instruction clauses: a sentence opening with an instruction verb or 'whether'
  ('Determine whether ...', 'The task: check that ...', 'To verify the
  statement's entailment, ...'), up to its first comma or colon.

A question asks, an instruction sets the task: neither carries a verdict, whatever
label words it holds.

A condition in its own clause before the verdict ('If we compare the two years,
the claim is refuted') is kept: the verdict follows the comma, outside the
condition. What is left goes to the benchmark's extractor unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

_SPLIT = re.compile(r"\n+|(?<=[.!?;])\s+(?=[A-Z\"'“*(\[])")
_WORD = re.compile(r"[a-z0-9']+")
_LABEL = r"(?:entailed|entails|refuted|refutes|supported|contradicted|true|false|correct|incorrect)"
_CONDITIONAL_DEFINITION = [
    # a label, then its condition: "refuted only if", "entailed when", "false unless"
    re.compile(
        rf"\b{_LABEL}\b[^.;:]{{0,30}}?\b(?:only\s+if|if\s+and\s+only\s+if|if|when|whenever|unless|provided\s+that)\b",
        re.I,
    ),
    # a label inside a condition clause (no comma before it): "if any part is contradicted it is refuted"
    re.compile(
        rf"\b(?:if|when|whenever|unless)\b[^,.;:]{{0,120}}\b(?:is|are|be)\s+{_LABEL}\b", re.I
    ),
    # a definition of the labels: "a claim is entailed ...", "claims are refuted ..."
    re.compile(rf"\b(?:a\s+claim|claims|a\s+statement|statements)\s+(?:is|are)\s+{_LABEL}\b", re.I),
]
_INSTRUCTION = [
    re.compile(r"\b(?:finish|end|conclude|reply|respond|answer)\s+with\b", re.I),
    re.compile(r"\bexactly\s*[\"'“`]", re.I),
    re.compile(r"\bin\s+the\s+(?:format|form)\b", re.I),
    re.compile(
        r"\b(?:must|should|have\s+to|need\s+to|am\s+asked\s+to|asked\s+to)\s+"
        r"(?:decide|determine|answer|respond|reply|output|end|finish|conclude|choose)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:the|my|this)\s+(?:task|instructions?|prompt|question)\s+(?:says|asks|is|requires|wants)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:either\s+)?[\"'“`]?(?:answer:\s*)?{_LABEL}[\"'”`]?\s+or\s+[\"'“`]?(?:answer:\s*)?{_LABEL}\b",
        re.I,
    ),
    re.compile(r"\bone\s+(?:word|of)\b[^.]{0,40}\bor\b", re.I),
]
# a heading before the sentence proper ("Question:", "The task:", "Step 1:") and
# list or emphasis marks
_LEAD = r"^[\s>*_#\-\d.)]*(?:(?:the\s+|my\s+|our\s+)?[a-z]+(?:\s+\d+)?\s*:\s*)?[\s*_]*"
# "Is the claim true", "Can the statement be entailed", "Does the report support ..."
# (with no "?", the question runs to its first colon or semicolon: "Is the claim
# supported: yes, ..." keeps its answer)
_INTERROGATIVE = re.compile(
    _LEAD + r"(?:is|are|was|were|can|could|does|do|did|would|should|will|has|have)\s+"
    r"(?:the|this|that|it|a|our|given|provided|following|there|each|all|every)\b[^:;\n]*[:;]?",
    re.I,
)
# "Determine whether ...", "To verify ...", "Let's check ...", "We need to check ...",
# "Whether the ...": the clause runs to its first comma, colon or semicolon. A subject
# with no "need to", "will"... is a statement, kept: "We determine that the claim is
# refuted" is a verdict.
_INSTRUCTION_CLAUSE = re.compile(
    _LEAD + r"(?:(?:to|let's|let\s+us)\s+|(?:we|i)\s+(?:need|have|want|must|should|will|shall"
    r"|are\s+going|am\s+going|are\s+asked|am\s+asked)\s+(?:to\s+)?)?"
    r"(?:determine|verify|check|assess|evaluate|decide|examine|judge|whether)\b[^,;:\n]*[,;:]?",
    re.I,
)
_QUESTION_PART = re.compile(r"^.*\?[\s\"'”)*_]*", re.S)
ECHO_OVERLAP = 0.7  # share of a sentence's words found in one instruction sentence
ECHO_COVER = 0.8  # share of that instruction sentence's words the sentence restates
MIN_ECHO_WORDS = 5


def sentences(text: str) -> list[str]:
    return [s for s in _SPLIT.split(text) if s and s.strip()]


def _words(text: str) -> list[str]:
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def is_instruction_echo(sentence: str, instruction_words: Iterable[set[str]]) -> bool:
    """Mostly the words of one instruction sentence, covering most of it: a restatement.
    ('The claim is refuted by the report excerpts above' shares words with 'Decide
    whether the claim is entailed or refuted by the report excerpts above' but does
    not cover it: a verdict, kept.)"""
    words = _words(sentence)
    if len(words) < MIN_ECHO_WORDS:
        return False
    own = set(words)
    for reference in instruction_words:
        shared = own & reference
        if len(shared) >= ECHO_OVERLAP * len(own) and len(shared) >= ECHO_COVER * len(reference):
            return True
    return False


def is_conditional_definition(sentence: str) -> bool:
    return any(p.search(sentence) for p in _CONDITIONAL_DEFINITION)


def is_instruction(sentence: str) -> bool:
    return any(p.search(sentence) for p in _INSTRUCTION)


def without_questions(sentence: str) -> str:
    """The sentence less what asks or instructs: the part up to its last "?", a
    sentence opening as a question, or an opening instruction clause ('Determine
    whether the statement is entailed'). What follows ('..., so the claim is wrong')
    is kept."""
    text = _QUESTION_PART.sub("", sentence)
    if text != sentence:
        return text
    text = _INTERROGATIVE.sub("", sentence, count=1)
    if text != sentence:
        return text
    return _INSTRUCTION_CLAUSE.sub("", sentence, count=1)


@lru_cache(maxsize=32)
def _references(instructions: tuple[str, ...]) -> list[set[str]]:
    """The instruction sentences' word sets, long enough to judge an echo (the same
    prompt texts come with every sample: computed once)."""
    references = [set(_words(s)) for text in instructions for s in sentences(text)]
    return [r for r in references if len(r) >= MIN_ECHO_WORDS]


def drop_echoes(reply: str | None, instructions: Iterable[str] = ()) -> str:
    """The reply without restated instructions and conditional definitions (one
    kept sentence per line). ``instructions``: the prompt's instruction texts."""
    if not reply:
        return ""
    references = _references(tuple(instructions))
    kept = [
        without_questions(s)
        for s in sentences(reply)
        if not (
            is_instruction_echo(s, references) or is_conditional_definition(s) or is_instruction(s)
        )
    ]
    return "\n".join(s for s in kept if s.strip())
