"""Error injection: the planner that runs the rule injectors (one module per error level:
``inject_gke``, ``inject_fke``, ``inject_fre``) over the paper's fragments, plus an LLM
in-context injector that works from error seeds (the paper's method).

Every candidate, rule-made or LLM-made, passes the same gates: ``filter.check_injection``
(one sentence changes, numbers change only as the subtype allows) and
``review.review`` (clean text, no second error, review rule 3: inferable from the
context). What fails is dropped and counted by reason. Among the candidates that pass,
the planner prefers edits used least so far in the corpus, so no one edit becomes a
template. Everything is seeded: the same input and seed give the same benchmark.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from finprobe.benchmarks.fined.dataset import (
    AnnotatedError,
    FinEDDocument,
    detect_language,
    word_count,
)
from finprobe.benchmarks.fined.edits import Change, Injection, edit_family, edit_key
from finprobe.benchmarks.fined.filter import check_injection
from finprobe.benchmarks.fined.inject_fke import (
    inject_ambiguous_expression,
    inject_incorrect_legal_reference,
    inject_numerical_unit_error,
    inject_omitted_financial_element,
    inject_terminology_misuse,
)
from finprobe.benchmarks.fined.inject_fre import (
    clause_conflict_candidates,
    inject_calculation_error,
    inject_conflicting_expression,
    inject_time_contradiction,
    numerical_inconsistency_candidates,
)
from finprobe.benchmarks.fined.inject_gke import (
    inject_illegal_time,
    inject_non_numerical_value_missing,
    inject_numerical_missing,
    inject_redundant_statement,
    inject_value_format_error,
)
from finprobe.benchmarks.fined.review import inferable, review
from finprobe.benchmarks.fined.segment import (
    BlockSpan,
    SentenceSpan,
    calculation_segments,
    knowledge_segments,
    reasoning_segments,
    split_sentences,
)
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS, TAXONOMY

__all__ = ["Change", "Injection", "SourceText", "inject_rules", "llm_inject"]


@dataclass
class SourceText:
    """A document ready for injection: plain text plus the blocks it was made from."""

    id: str
    text: str
    blocks: list[BlockSpan]
    language: str
    scene: str | None = None
    title: str = ""
    metadata: dict[str, Any] = field(default_factory=dict)
    _sentence_cache: dict[str, list[SentenceSpan]] = field(default_factory=dict, repr=False)


# ----------------------------------------------------------------------------- assembling sources


def source_from_text(
    text: str, doc_id: str, scene: str | None = None, title: str = "", language: str | None = None
) -> SourceText:
    """Plain text (e.g. a Chinese announcement): paragraphs are its non-empty lines."""
    blocks = []
    pos = 0
    for i, line in enumerate(text.split("\n")):
        if line.strip():
            kind = "table" if line.lstrip().startswith("|") else "paragraph"
            blocks.append(BlockSpan(f"p{i}", kind, pos, pos + len(line)))
        pos += len(line) + 1
    return SourceText(doc_id, text, blocks, language or detect_language(text), scene, title)


def source_from_document(
    doc: Any, max_words: int = 4500, scene: str | None = "annual_report"
) -> SourceText:
    """A window of a FinancialDocument (MD&A first when present) as text with markdown tables."""
    from finprobe.document import Paragraph, mdna_blocks

    blocks = list(doc.blocks)
    mdna = mdna_blocks(doc)
    start = blocks.index(mdna[0]) if mdna and mdna[0] in blocks else len(blocks) // 3
    parts: list[str] = []
    spans: list[BlockSpan] = []
    pos = words = 0
    for b in blocks[start:] + blocks[:start]:
        if isinstance(b, Paragraph):
            body, kind = b.text.strip(), "paragraph"
        else:
            body, kind = b.to_markdown().strip(), "table"
        if not body:
            continue
        w = word_count(body)
        if parts and words + w > max_words:
            break
        spans.append(BlockSpan(b.id, kind, pos, pos + len(body), getattr(b, "section", None)))
        parts.append(body)
        pos += len(body) + 2
        words += w
    text = "\n\n".join(parts)
    meta = {k: v for k, v in doc.metadata.items() if isinstance(v, str | int | float)}
    title = f"{meta.get('company', doc.id)} {meta.get('report_type', '')} {meta.get('filing_date', '')}".strip()
    return SourceText(doc.id, text, spans, "en", scene, title, meta)


SentenceInjector = Callable[[str, str, random.Random, str], Change | None]

SENTENCE_INJECTORS: dict[str, SentenceInjector] = {
    "illegal_time": inject_illegal_time,
    "redundant_statement": inject_redundant_statement,
    "value_format_error": inject_value_format_error,
    "numerical_missing": inject_numerical_missing,
    "non_numerical_value_missing": inject_non_numerical_value_missing,
    "terminology_misuse": inject_terminology_misuse,
    "incorrect_legal_reference": inject_incorrect_legal_reference,
    "ambiguous_expression": inject_ambiguous_expression,
    "numerical_unit_error": inject_numerical_unit_error,
    "omitted_financial_element": inject_omitted_financial_element,
    "conflicting_expression": inject_conflicting_expression,
    "time_contradiction": inject_time_contradiction,
    "calculation_error": inject_calculation_error,
}
# Whole-document injectors: numerical_inconsistency, clause_conflict (inject_fre).
RULE_SUBTYPES: tuple[str, ...] = (*SENTENCE_INJECTORS, "numerical_inconsistency", "clause_conflict")

# Which fragments each subtype is injected into (the paper's segmentation).
SEGMENT_KIND = {s: "knowledge" for s in SUBTYPE_IDS}
SEGMENT_KIND.update(
    {
        "calculation_error": "calculation",
        "numerical_inconsistency": "reasoning",
        "time_contradiction": "reasoning",
        "clause_conflict": "reasoning",
        "conflicting_expression": "reasoning",
    }
)


def _block_sentences(src: SourceText, b: BlockSpan) -> list[SentenceSpan]:
    """A block's sentences, cut again at line breaks (a heading line is not part of a sentence)."""
    if b.id not in src._sentence_cache:
        out: list[SentenceSpan] = []
        for s in split_sentences(src.text[b.start : b.end]):
            pos = b.start + s.start
            for line in s.text.split("\n"):
                stripped = line.strip()
                if stripped:
                    lead = len(line) - len(line.lstrip())
                    out.append(SentenceSpan(pos + lead, pos + lead + len(stripped), stripped))
                pos += len(line) + 1
        src._sentence_cache[b.id] = out
    return src._sentence_cache[b.id]


def _sentences_in(src: SourceText, block_ids: tuple[str, ...]) -> list[SentenceSpan]:
    by_id = {b.id: b for b in src.blocks}
    return [
        s
        for bid in block_ids
        if by_id[bid].kind == "paragraph"
        for s in _block_sentences(src, by_id[bid])
    ]


# no edit family above this share of its subtype's errors (checked once a subtype has this many)
FAMILY_CAP = 0.5
FAMILY_CAP_AFTER = 4

# alternative edits drawn per sentence (distinct ones become alternative candidates)
DRAWS_PER_SENTENCE = 3


def _usable(s: SentenceSpan, language: str = "en") -> bool:
    """Prose sentences of a reasonable length (Chinese packs a clause into fewer characters)."""
    shortest = 10 if language == "zh" else 25
    return shortest <= len(s.text) <= 700 and "|" not in s.text


def gate(src: SourceText, c: Injection) -> tuple[bool, str]:
    """Every gate an injected error must pass (rule-made or LLM-made): (keep, reason)."""
    ok, why = check_injection(
        c.subtype, c.original, c.modified, src.text, c.start, c.end, c.detail, c.insert
    )
    if not ok:
        return False, f"filter: {why}"
    return review(c.subtype, c.original, c.modified, src.text)


def rule_candidates(
    src: SourceText, rng: random.Random, per_subtype: int = 8, dropped: Counter | None = None
) -> dict[str, list[Injection]]:
    """Up to ``per_subtype`` checked candidate injections per subtype, from the right fragments.

    ``dropped`` (if given) counts the candidates the gates rejected, by subtype and reason.
    """
    knowledge = knowledge_segments(src.blocks)
    calculation = calculation_segments(src.text, src.blocks)
    reasoning = reasoning_segments(src.text, src.blocks)
    # far-apart pairs (reasoning segments) also give sentence-level reasoning injectors context
    fragments = {
        "knowledge": [s.blocks for s in knowledge],
        "calculation": [s.blocks for s in calculation],
        "reasoning": [s.blocks for s in reasoning] or [s.blocks for s in knowledge],
    }
    prose = [b for b in src.blocks if b.kind == "paragraph"]
    out: dict[str, list[Injection]] = {}
    for subtype in RULE_SUBTYPES:
        kind = SEGMENT_KIND[subtype]
        frags = list(fragments[kind])
        rng.shuffle(frags)
        if subtype == "clause_conflict":  # stipulations are sought over the whole document
            frags = [tuple(b.id for b in prose)]
        found: list[Injection] = []
        seen: set[int] = set()
        for blocks in frags:
            if len(seen) >= per_subtype:
                break
            if subtype == "numerical_inconsistency":
                if len(blocks) < 2:
                    continue
                cands = numerical_inconsistency_candidates(
                    _sentences_in(src, blocks[:1]),
                    _sentences_in(src, blocks[1:]),
                    rng,
                    blocks[0],
                    src.text,
                )
            elif subtype == "clause_conflict":
                # never right before a table (the sentence would sit between a lead-in and it)
                before_table = {
                    a.id
                    for a, b in zip(src.blocks, src.blocks[1:], strict=False)
                    if b.kind == "table"
                }
                paragraphs = [
                    (b.id, b.end, src.text[b.start : b.end])
                    for b in prose
                    if b.id not in before_table
                ]
                cands = clause_conflict_candidates(
                    _sentences_in(src, blocks), paragraphs, rng, src.text
                )
            else:
                cands = []
                sentences = _sentences_in(src, blocks)
                for k, s in enumerate(sentences):
                    if not _usable(s, src.language) or s.start in seen:
                        continue
                    context = " ".join(x.text for x in sentences[max(0, k - 1) : k])
                    # a few draws from the injector's family of edits: the planner then
                    # takes the edit used least so far
                    drawn: set[str] = set()
                    for _ in range(DRAWS_PER_SENTENCE):
                        change = SENTENCE_INJECTORS[subtype](s.text, src.language, rng, context)
                        if change is None or change.modified in drawn:
                            continue
                        drawn.add(change.modified)
                        cands.append(
                            Injection(
                                subtype,
                                s.text,
                                change.modified,
                                s.start,
                                s.end,
                                f"rule:{subtype}",
                                change.detail,
                            )
                        )
            for c in cands:
                if len(seen) >= per_subtype and c.start not in seen:
                    continue  # enough sentences: only alternatives for those already found
                ok, why = gate(src, c)
                if ok:
                    c.detail["edit"] = _edit_of(c)
                    seen.add(c.start)
                    found.append(c)
                elif dropped is not None:
                    dropped[(subtype, why)] += 1
        if found:
            out[subtype] = found
    return out


def choose_injections(
    candidates: dict[str, list[Injection]],
    rng: random.Random,
    max_errors: int = 4,
    global_counts: Counter | None = None,
    edit_counts: Counter | None = None,
    text: str = "",
) -> list[Injection]:
    """At most ``max_errors`` injections, rarest subtypes (so far in the corpus) first, no
    overlaps; within a subtype, the edit used least so far (``edit_counts``) first.
    ``text`` (the document) locates the other statement an anchored error relies on: no
    other error may rewrite it."""
    counts = global_counts if global_counts is not None else Counter()
    edits = edit_counts if edit_counts is not None else Counter()
    # a subtype that few documents offer so far (see ``scarce``) goes first wherever it
    # is offered: otherwise "rarest so far" lets the common subtypes fill a document's four
    # places before it is reached, and it stays rare
    edits[("offered", "*")] += 1
    for s in candidates:
        edits[("offered", s)] += 1
    docs = edits[("offered", "*")]
    # scarce: offered by fewer documents than twice its fair share of places (each document
    # holds max_errors of the subtypes), so random competition would starve it
    scarce = 2 * max_errors / len(RULE_SUBTYPES)
    order = sorted(
        candidates,
        key=lambda s: (edits[("offered", s)] / docs >= scarce, counts[s], rng.random()),
    )
    chosen: list[Injection] = []
    for subtype in order:
        if len(chosen) >= max_errors:
            break
        pool = rng.sample(candidates[subtype], len(candidates[subtype]))
        # least-used family first, then least-used edit within it
        pool.sort(
            key=lambda c: (
                edits[("family", subtype, edit_family(subtype, c.detail))],
                edits[(subtype, _edit_family(c))],
            )
        )
        total = edits[("total", subtype)]
        seen_families = {k[2] for k in edits if k[:2] == ("family", subtype) and edits[k] > 0}
        for c in pool:
            fam = edit_family(subtype, c.detail)
            # a family may not pass FAMILY_CAP of its subtype once the subtype is seen to have
            # other families (a one-family subtype is capped by its edits alone)
            over = (
                total >= FAMILY_CAP_AFTER
                and len(seen_families | {fam}) > 1
                and (edits[("family", subtype, fam)] + 1) / (total + 1) > FAMILY_CAP
            )
            if over:
                continue
            overlaps = any(
                c.start < o.end + 1
                and o.start < c.end + 1
                or c.modified in o.modified
                or o.modified in c.modified
                or _touches_anchor(c, o, text)
                or _touches_anchor(o, c, text)
                for o in chosen
            )
            if not overlaps:
                chosen.append(c)
                edits[(subtype, _edit_family(c))] += 1
                edits[("family", subtype, fam)] += 1
                edits[("total", subtype)] += 1
                break
    return chosen


def _touches_anchor(anchored: Injection, other: Injection, text: str) -> bool:
    """Does ``other`` edit the sentence ``anchored`` is checked against?"""
    for key in ("conflicts_with", "consistent_with"):
        anchor = anchored.detail.get(key)
        pos = text.find(anchor) if anchor and text else -1
        if pos >= 0 and other.start < pos + len(anchor) and pos < other.end + (not other.insert):
            return True
    return False


def _edit_family(c: Injection) -> str:
    return c.detail.get("edit") or _edit_of(c)


def _edit_of(c: Injection) -> str:
    """The edit's key: the words replaced and by what (for an inserted clause, the value it
    contradicts and the one it states)."""
    if c.insert and "old" in c.detail:
        return f"{c.detail['old']} -> {c.detail['new']}".lower()
    return edit_key(c.original, c.modified)


def apply_injections(
    src: SourceText, injections: list[Injection], doc_id: str | None = None
) -> FinEDDocument:
    """Write the injections into the text (right to left) and annotate each error at its final offset."""
    text = src.text
    for inj in sorted(injections, key=lambda i: (i.start, i.insert), reverse=True):
        if inj.insert:
            joiner = inj.detail.get("joiner", " ")
            text = text[: inj.start] + joiner + inj.modified + text[inj.start :]
        else:
            text = text[: inj.start] + inj.modified + text[inj.end :]
    errors = []
    cursor_shift = 0
    for inj in sorted(injections, key=lambda i: (i.start, not i.insert)):
        if inj.insert:
            start = inj.start + cursor_shift + len(inj.detail.get("joiner", " "))
            cursor_shift += len(inj.detail.get("joiner", " ")) + len(inj.modified)
        else:
            start = inj.start + cursor_shift
            cursor_shift += len(inj.modified) - (inj.end - inj.start)
        assert text[start : start + len(inj.modified)] == inj.modified
        errors.append(
            AnnotatedError(
                sentence=inj.modified,
                subtype=inj.subtype,
                original=inj.original,
                start=start,
                source=inj.injector,
                detail=inj.detail,
            )
        )
    return FinEDDocument(
        id=doc_id or src.id,
        text=text,
        scene=src.scene,
        language=src.language,
        errors=errors,
        title=src.title,
        metadata={**src.metadata, "words": word_count(text)},
    )


# errors whose check reads another statement of the document (the anchor), which another
# error of the same document may have rewritten
ANCHORED = ("clause_conflict", "numerical_inconsistency")


def still_inferable(
    src: SourceText,
    chosen: list[Injection],
    dropped: Counter | None = None,
    edit_counts: Counter | None = None,
) -> list[Injection]:
    """Re-run the inference check of every anchored error on the document's final text (all
    errors written in): an error whose anchor another error rewrote is dropped."""
    chosen = list(chosen)
    while True:
        final = apply_injections(src, chosen).text
        broken = next(
            (
                c
                for c in chosen
                if c.subtype in ANCHORED
                and (
                    not inferable(c.subtype, c.original, c.modified, final)[0]
                    or any(
                        c.detail.get(k) and c.detail[k] not in final
                        for k in ("conflicts_with", "consistent_with")
                    )
                )
            ),
            None,
        )
        if broken is None:
            return chosen
        chosen.remove(broken)
        if dropped is not None:
            dropped[(broken.subtype, "final text: its anchor no longer holds")] += 1
        if edit_counts is not None:
            edit_counts[(broken.subtype, _edit_family(broken))] -= 1
            edit_counts[("family", broken.subtype, edit_family(broken.subtype, broken.detail))] -= 1
            edit_counts[("total", broken.subtype)] -= 1


def inject_rules(
    src: SourceText,
    seed: int = 0,
    max_errors: int = 4,
    global_counts: Counter | None = None,
    dropped: Counter | None = None,
    edit_counts: Counter | None = None,
) -> FinEDDocument:
    """The rule pipeline for one document: segment, generate candidates, filter, choose, apply."""
    rng = random.Random(f"{seed}:{src.id}")
    cands = rule_candidates(src, rng, dropped=dropped)
    chosen = choose_injections(cands, rng, max_errors, global_counts, edit_counts, src.text)
    chosen = still_inferable(src, chosen, dropped, edit_counts)
    if global_counts is not None:
        global_counts.update(i.subtype for i in chosen)
    return apply_injections(src, chosen)


# ----------------------------------------------------------------------------- LLM in-context injection

LLM_INJECT_PROMPT = """You help build a benchmark of errors in financial documents by planting one realistic error.

Error type: {name} ({category})
Definition: {definition}
Seed examples of this error (wrong -> right):
{seeds}

Fragment:
{fragment}

Pick ONE sentence of the fragment and rewrite it so that it contains exactly one error of this type and no other error. Keep every other word and number unchanged. Copy the chosen sentence exactly as it appears in the fragment.
Reply with JSON only: {{"original": "<sentence copied from the fragment>", "modified": "<the sentence with the error>"}}"""


def llm_inject_prompt(
    fragment: str, subtype: str, seeds: list[tuple[str, str]] | None = None
) -> str:
    s = TAXONOMY.subtype(subtype)
    pairs = seeds or [(s.example_wrong, s.example_right)]
    seed_text = "\n".join(f"- {w} -> {r}" for w, r in pairs)
    return LLM_INJECT_PROMPT.format(
        name=s.en,
        category=TAXONOMY.category(s.category).en,
        definition=s.definition,
        seeds=seed_text,
        fragment=fragment,
    )


def parse_llm_injection(completion: str) -> tuple[str, str] | None:
    """(original, modified) from the injector model's JSON reply, or None."""
    text = re.sub(r"<think>.*?</think>", "", completion, flags=re.S)
    for m in reversed(list(re.finditer(r"\{[^{}]*\}", text, re.S))):
        try:
            data = json.loads(m.group(0))
        except json.JSONDecodeError:
            continue
        orig, mod = data.get("original"), data.get("modified")
        if isinstance(orig, str) and isinstance(mod, str) and orig.strip() and mod.strip():
            return orig.strip(), mod.strip()
    return None


async def llm_inject(
    model: Any,
    src: SourceText,
    subtype: str,
    block_ids: tuple[str, ...],
    seeds: list[tuple[str, str]] | None = None,
    dropped: Counter | None = None,
) -> Injection | None:
    """Ask a model (inspect Model or model name) to plant one error of ``subtype`` in a fragment."""
    from inspect_ai.model import get_model

    by_id = {b.id: b for b in src.blocks}
    fragment = "\n\n".join(src.text[by_id[b].start : by_id[b].end] for b in block_ids)
    m = get_model(model) if isinstance(model, str) else model
    out = await m.generate(llm_inject_prompt(fragment, subtype, seeds))
    parsed = parse_llm_injection(out.completion)
    if parsed is None:
        if dropped is not None:
            dropped[(subtype, "llm: no {original, modified} in the reply")] += 1
        return None
    original, modified = parsed
    for b in block_ids:
        blk = by_id[b]
        pos = src.text.find(original, blk.start, blk.end)
        if pos >= 0:
            inj = Injection(subtype, original, modified, pos, pos + len(original), f"llm:{m}", {})
            # a model's calculation error has no recorded formula: the review recomputes
            # the relation among the sentence's figures instead
            inj.detail["formula"] = None
            ok, why = check_injection(
                subtype, original, modified, src.text, inj.start, inj.end, inj.detail
            )
            if not ok and not (subtype == "calculation_error" and "formula" in why):
                why = f"filter: {why}"
            else:
                ok, why = review(subtype, original, modified, src.text)
            if ok:
                inj.detail["edit"] = _edit_of(inj)
                return inj
            if dropped is not None:
                dropped[(subtype, why)] += 1
            return None
    if dropped is not None:
        dropped[(subtype, "filter: original sentence not in the fragment")] += 1
    return None
