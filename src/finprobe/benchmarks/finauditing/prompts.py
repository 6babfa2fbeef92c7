"""FinAuditing prompts (our wording of the paper's task statements, section 3.1).

Each prompt gives the model the task, the statement-level XBRL sub-filing (as the
compact text the segmenter renders), the relevant US-GAAP taxonomy chunks when
there are any, and the exact answer format the scorer parses.
"""

from __future__ import annotations

from collections.abc import Sequence

from finprobe.benchmarks.finauditing.scorer import FINRE_LABELS

SYSTEM = (
    "You are an XBRL auditor reviewing a US-GAAP filing. Base every answer on the "
    "sub-filing and taxonomy excerpts given; do not invent facts."
)

_TAXONOMY_NONE = "(no taxonomy excerpts supplied: rely on your knowledge of US-GAAP)"


def _taxonomy_block(chunks: Sequence[str] | str | None) -> str:
    if not chunks:
        return _TAXONOMY_NONE
    if isinstance(chunks, str):
        return chunks.strip() or _TAXONOMY_NONE
    return "\n\n".join(c.strip() for c in chunks if c and c.strip()) or _TAXONOMY_NONE


def finsm_prompt(query: str, subfiling_text: str, taxonomy: Sequence[str] | str | None) -> str:
    return f"""{SYSTEM}

Task (financial semantic matching): some line items in the XBRL sub-filing below are
tagged with US-GAAP concepts whose meaning does not fit the financial term they
report (a near but inappropriate concept was chosen). Find those mismatched tags.

Query: {query}

=== XBRL sub-filing ===
{subfiling_text.strip()}

=== US-GAAP taxonomy excerpts ===
{_taxonomy_block(taxonomy)}

Answer with a JSON list of at most 20 concept names exactly as they appear in the
filing (for example "us-gaap:Cash"), the most likely mismatched tag first:
```json
["prefix:ConceptName", "..."]
```"""


FINRE_DEFINITIONS = {
    "Reversal": "the parent and child of a calculation relationship are swapped",
    "Inappropriateness": "a child element sits under a parent it is not a component of",
    "CombinationErr": "a member is used with an axis (dimension) that it does not belong to",
}


def finre_prompt(
    elements: Sequence[str],
    subfiling_text: str,
    taxonomy: Sequence[str] | str | None,
    choices: Sequence[str] = FINRE_LABELS,
) -> str:
    defs = "\n".join(f"- {c}: {FINRE_DEFINITIONS.get(c, c)}" for c in choices)
    first, second = (list(elements) + ["", ""])[:2]
    return f"""{SYSTEM}

Task (financial relationship extraction): the relationship between two elements of
the XBRL sub-filing below is erroneous. Classify the error as exactly one of:
{defs}

Element 1: {first}
Element 2: {second}

=== XBRL sub-filing ===
{subfiling_text.strip()}

=== US-GAAP taxonomy excerpts ===
{_taxonomy_block(taxonomy)}

Reply with JSON only, the label spelled exactly as above:
```json
{{"answer": "{choices[0]}"}}
```"""


def finmr_prompt(
    question_1: str, question_2: str, subfiling_text: str, taxonomy: Sequence[str] | str | None
) -> str:
    return f"""{SYSTEM}

Task (financial mathematical reasoning): answer both questions from the XBRL
sub-filing below.
Question 1 (extraction): {question_1}
Question 2 (calculation): {question_2}

=== XBRL sub-filing ===
{subfiling_text.strip()}

=== US-GAAP taxonomy excerpts ===
{_taxonomy_block(taxonomy)}

Give both values as plain numbers in the filing's base unit (no scale words, no
thousands separators), in this JSON:
```json
{{"extracted_value": 0, "calculated_value": 0}}
```"""


def finmr_questions(concept: str, label: str, period: str, dims: str = "") -> tuple[str, str]:
    """The question pair for one reported total (q1 extract, q2 compute)."""
    where = f" ({dims})" if dims and dims != "-" else ""
    q1 = f"What value does the filing report for {concept} ({label}) for {period}{where}?"
    q2 = (
        f"What should {concept} be for {period}{where}, computed as the weighted sum of its "
        "calculation children reported for the same period?"
    )
    return q1, q2
