"""FAITH prompts (paper, Appendix A), in FinProbe's words with the same protocol.

Metric prediction: a value-type hint, step-by-step reasoning naming the table
cells and formulas used, a self-classified scenario (A-D), and a final JSON
block ``{"results": {"answer", "scenario", "necessary_metrics", "reference"}}``.
Answerability annotation: every highlighted <SPAN> labelled answerable or not.
"""

from __future__ import annotations

from typing import Any

from finprobe.benchmarks.faith.dataset import tables_from_metadata, tables_with_pretext

PREDICTION_TEMPLATE = """You are a financial analyst. Fill in the masked blank ([MASK]) in a sentence from a 10-K report, using the financial tables provided.
Hint: the masked content is a single positive value that fits the context {hint}.

How to work:
1. Understand the request: read the sentence and its neighbours, and find in the tables the information the blank needs.
2. Reason step by step before answering. When you extract a value, name the table and the cell. When you calculate, write the formula and the values that go into it.
3. Classify your reasoning into one scenario:
   A. Direct lookup: the value is read from a single table cell.
   B. Simple calculation, one metric: the result comes from a single metric across periods, categories or rows (for example a year-over-year change).
   C. Simple calculation, two metrics: the result combines two different metrics (for example a ratio).
   D. Complex calculation: more than two metrics or several steps.
4. End with the final answer as a JSON block in exactly this structure:
```json
{{
  "results": {{
    "answer": "<the value for the blank, formatted as a professional would write it, with rounding and units>",
    "scenario": "<A, B, C or D>",
    "necessary_metrics": ["<metric name>", "..."],
    "reference": ["<table identifier>", "..."]
  }}
}}
```

Tables:
{tables}

Filing date: {filing_date}
Sentence: {pre_sentence} {masked_sentence} {post_sentence}
"""

ANSWERABILITY_TEMPLATE = """You are given tables from a 10-K annual report.
{tables}

Filing date: {filing_date}
Sentence: {pre_sentence} {sentence} {post_sentence}

Each highlighted span in the sentence is marked <SPAN>like this</SPAN>. For every span decide:
- "unanswerable" when the span is not numeric financial data (a phone number, a postcode, other noise), or when it cannot be found in or derived from the tables by any method;
- "answerable" when the span can be read directly from a table, computed from table values (addition, subtraction, multiplication, division), or inferred by reasoning over several table entries.
Look carefully at every table and at the sentence, and explain briefly.
Reply with a JSON block:
```json
{{
  "reasoning": "<for each span: how it is found or derived, or why it cannot be>",
  "spans": {{"<span text>": "answerable" or "unanswerable"}}
}}
```
"""


def prediction_prompt(metadata: dict[str, Any]) -> str:
    return PREDICTION_TEMPLATE.format(
        hint=metadata["hint"],
        tables=tables_with_pretext(tables_from_metadata(metadata)),
        filing_date=metadata.get("filing_date", ""),
        pre_sentence=metadata.get("pre_sentence", ""),
        masked_sentence=metadata["masked_sentence"],
        post_sentence=metadata.get("post_sentence", ""),
    ).strip()


def answerability_prompt(metadata: dict[str, Any], highlighted_sentence: str) -> str:
    return ANSWERABILITY_TEMPLATE.format(
        tables=tables_with_pretext(tables_from_metadata(metadata)),
        filing_date=metadata.get("filing_date", ""),
        pre_sentence=metadata.get("pre_sentence", ""),
        sentence=highlighted_sentence,
        post_sentence=metadata.get("post_sentence", ""),
    ).strip()
