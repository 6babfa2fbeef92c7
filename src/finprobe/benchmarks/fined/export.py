"""Fine-tuning export: error-free and error-containing fragments as chat-format JSONL.

Each line is {"messages": [system, user, assistant], "error_type", "span", "reasoning",
"source"}: the "messages" list is what common fine-tuning tools (TRL SFTTrainer,
LLaMA-Factory's sharegpt/openai formats, OpenAI fine-tuning) read; the other keys
are kept for filtering and are ignored by those tools. The assistant turn is the
reasoning in <think></think> followed by the JSON answer, as in the released data.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from finprobe.benchmarks.fined.dataset import AnnotatedError, FinEDDocument
from finprobe.benchmarks.fined.prompts import build_prompt
from finprobe.benchmarks.fined.segment import split_sentences
from finprobe.benchmarks.fined.taxonomy import TAXONOMY
from finprobe.files import write_text_atomic

SYSTEM_PROMPT = "You are a meticulous reviewer of financial documents."

_THINK = re.compile(r"<think>(.*?)</think>", re.S)


def explain(error: AnnotatedError, language: str) -> str:
    """A short reasoning text for an injected error, from what the injector recorded."""
    s = TAXONOMY.subtype(error.subtype)
    d = error.detail or {}
    name = s.zh if language == "zh" else s.en
    if error.original and "old" in d and "new" in d:
        change = f'"{d["old"]}" reads "{d["new"]}" here'
    elif "removed" in d:
        change = f'"{d["removed"]}" is missing'
    elif "repeated" in d:
        change = f'"{d["repeated"]}" is stated twice'
    elif "conflicts_with" in d:
        change = f'it contradicts the clause "{d["conflicts_with"]}"'
    elif "hedge" in d:
        change = f'the qualifier "{d["hedge"].strip(", ，")}" makes the statement open to several readings'
    else:
        change = "the sentence contains the error"
    return f'The sentence "{error.sentence}" is a {name} error: {change}. {s.definition}'


def _answer(error_type: str | None, sentences: list[str]) -> str:
    if error_type is None:
        return "[]"
    return json.dumps([{"error_type": error_type, "sentences": sentences}], ensure_ascii=False)


def _record(
    fragment: str, language: str, error: AnnotatedError | None, reasoning: str, source: str
) -> dict[str, Any]:
    subtypes = list(TAXONOMY.subtypes)
    s = TAXONOMY.subtype(error.subtype) if error else None
    type_name = (s.zh if language == "zh" else s.en) if s else None
    answer = _answer(type_name, [error.sentence] if error else [])
    return {
        "messages": [
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": build_prompt(fragment, subtypes, "zero", language)},
            {"role": "assistant", "content": f"<think>\n{reasoning}\n</think>\n\n{answer}"},
        ],
        "error_type": error.subtype if error else None,
        "span": error.sentence if error else None,
        "reasoning": reasoning,
        "source": source,
    }


def _window(text: str, start: int, end: int, sentences_each_side: int = 2) -> tuple[int, int]:
    """The error's sentence with a few sentences of context, inside its paragraph."""
    para_start = text.rfind("\n", 0, start) + 1
    para_end = text.find("\n", end)
    para_end = len(text) if para_end < 0 else para_end
    sents = split_sentences(text[para_start:para_end])
    idx = [i for i, s in enumerate(sents) if para_start + s.start <= start < para_start + s.end + 1]
    if not idx:
        return para_start, para_end
    lo = max(0, idx[0] - sentences_each_side)
    hi_candidates = [i for i, s in enumerate(sents) if para_start + s.end >= end]
    hi = min(len(sents) - 1, (hi_candidates[0] if hi_candidates else idx[0]) + sentences_each_side)
    return para_start + sents[lo].start, para_start + sents[hi].end


def finetuning_records(
    docs: list[FinEDDocument], clean_per_document: int = 1
) -> list[dict[str, Any]]:
    """One error-containing fragment per error, plus error-free fragments from the same documents."""
    out: list[dict[str, Any]] = []
    for doc in docs:
        released = doc.metadata.get("reference_output")
        if released is not None:  # released fine-tuning records keep their own reasoning
            m = _THINK.search(released)
            reasoning = m.group(1).strip() if m else ""
            out.append(
                _record(
                    doc.text,
                    doc.language,
                    doc.errors[0] if doc.errors else None,
                    reasoning,
                    "released",
                )
            )
            continue
        spans = []
        for e in doc.errors:
            start = e.start if e.start is not None else doc.text.find(e.sentence)
            # a fragment holds exactly one error: narrow the context until it does
            for each_side in (2, 1, 0):
                lo, hi = _window(doc.text, start, start + len(e.sentence), each_side)
                fragment = doc.text[lo:hi]
                if sum(o.sentence in fragment for o in doc.errors) == 1:
                    break
            spans.append((lo, hi))
            if sum(o.sentence in fragment for o in doc.errors) != 1:
                continue
            out.append(
                _record(fragment, doc.language, e, explain(e, doc.language), f"{doc.id}:{e.source}")
            )
        clean = 0
        pos = 0
        for para in doc.text.split("\n"):
            p_start, pos = pos, pos + len(para) + 1
            if clean >= clean_per_document:
                break
            if len(para) < 200 or para.lstrip().startswith("|"):
                continue
            if any(lo < pos and p_start < hi for lo, hi in spans):
                continue
            reasoning = "Every sentence was checked against the error types; none applies."
            out.append(_record(para.strip(), doc.language, None, reasoning, f"{doc.id}:clean"))
            clean += 1
    return out


def write_jsonl(records: list[dict[str, Any]], path: str | Path) -> Path:
    return write_text_atomic(
        path, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)
    )
