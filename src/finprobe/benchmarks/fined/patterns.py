"""The phrase-and-unit pattern probe: does a fixed list of the injectors' own words find the
errors?

The learned surface probe (card.py) can miss a giveaway that a one-line regex catches: an
injector that always appends one of a few phrases, or always writes "hours" after a figure.
This probe takes every phrase, wrong unit and fixed marker out of the injectors' own tables
(read from the code, so it follows them when they change) and flags a sentence that
contains any of them. It reports, per subtype, the share of injected sentences it flags
beside the share of untouched sentences of the same reports it flags: a subtype whose
injected share is high while the untouched share is low is spotted by its vocabulary, not
by reading the document.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from finprobe.benchmarks.fined.card import untouched_lines
from finprobe.benchmarks.fined.dataset import FinEDDocument
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS


def _phrase(text: str) -> str:
    """A fixed phrase as a regex; a {placeholder} of a template matches a few words."""
    parts = re.split(r"\{[a-z]+\}", text.strip(" ,;"))
    return r"(?<!\w)" + r"[\w’'$%.,\- ]{1,80}?".join(re.escape(p) for p in parts) + r"(?!\w)"


@lru_cache(maxsize=1)
def injector_patterns() -> dict[str, tuple[re.Pattern[str], ...]]:
    """Per subtype, the regexes of what its rule injector writes: phrases, wrong units,
    templates and fixed markers. Subtypes that only remove words have none."""
    from finprobe.benchmarks.fined import inject_fke, inject_fre, inject_gke

    out: dict[str, list[str]] = {s: [] for s in SUBTYPE_IDS}
    # ambiguous expression: exceptions, softened obligations, vague deadlines and amounts,
    # indefinite counts and amounts
    out["ambiguous_expression"] += [_phrase(x) for x in inject_fke._EXCEPTIONS]
    out["ambiguous_expression"] += [_phrase(new) for _, soft in inject_fke._SOFTEN for new in soft]
    out["ambiguous_expression"] += [_phrase(x) for x in inject_fke.VAGUE_DEADLINES]
    out["ambiguous_expression"] += [_phrase(x) for x in inject_fke.VAGUE_AMOUNTS]
    out["ambiguous_expression"] += [
        rf"\b{re.escape(x)} (?:business |calendar )?(?:days|months)\b" for x in inject_fke._FEW
    ]
    out["ambiguous_expression"] += [r"\b(?:several|tens of|hundreds of) (?:million|billion)s? "]
    # unit error: a figure followed by one of the wrong units
    for _, _, wrong, _ in inject_fke.UNIT_SWAPS_EN:
        out["numerical_unit_error"] += [rf"\d\s?{re.escape(w)}\b" for w in wrong]
    # terminology and legal reference: the wrong replacements
    out["terminology_misuse"] += [
        _phrase(w) for _, wrong in inject_fke.TERMS.values() for w in wrong if w.isascii()
    ]
    out["incorrect_legal_reference"] += [
        _phrase(w) for _, wrong in inject_fke.CITATIONS.values() for w in wrong if w.isascii()
    ]
    # conflicting expression: the direction words it writes
    out["conflicting_expression"] += [
        r"\b(?:" + "|".join(inject_fre._UP + inject_fre._DOWN) + r")\b",
        r"\b(?:increase|decrease|decline|reduce|lower|raise|raised|reduced|lowered)\b",
        r"\b(?:" + "|".join(inject_fre._NOUN_DIRECTION) + r"|rise|rises)\b",
    ]
    # time contradiction and calculation error: the structures they edit
    out["time_contradiction"] += [
        inject_fre._COMPARE.pattern,
        inject_fre._RANGE.pattern,
        inject_fre.LATER_BASE.pattern,
    ]
    out["calculation_error"] += [inject_fre.CALC_CUE.pattern]
    # clause conflict: the restatement templates
    templates = [t for ts in inject_fre._RESTATE.values() for t in ts]
    templates += list(inject_fre.RESTATE_FORMS)
    out["clause_conflict"] += [_phrase(t.rstrip(".")) for t in templates]
    # redundant statement: the joiners that carry words
    out["redundant_statement"] += [
        _phrase(j)
        for j in inject_gke.RESTATE_JOINERS
        if re.search(r"[A-Za-z]{3,}", j.replace("and", ""))
    ]
    # general-knowledge markers: impossible days, empty quotes, a figure's slot left empty
    thirty = "|".join(inject_gke._THIRTY_DAY_MONTHS)
    out["illegal_time"] += [
        rf"\b(?:{thirty}) 31\b",
        r"\bFebruary (?:29|3[01])\b",
        r"\b(?:fifth|sixth) (?:fiscal )?quarter\b|\bthird half\b|\bQ[5-9]\b",
        r"\b[A-Z][a-z]+ 0\b",
    ]
    out["non_numerical_value_missing"] += [r"[“\"][”\"]"]
    out["numerical_missing"] += [r"\$ ?(?:million|billion|thousand)\b|(?<![\d.])%"]
    out["value_format_error"] += [
        r"(?<![\d,.])\d{1,3},\d{4}|(?<![\d,.])\d{1,3},\d{1,2}(?!\d)|\b20\d{3}\b"
    ]
    return {s: tuple(re.compile(p) for p in ps) for s, ps in out.items() if ps}


def flags(sentence: str, subtype: str | None = None) -> bool:
    """Does the sentence contain a pattern of ``subtype`` (of any subtype when None)?"""
    table = injector_patterns()
    subs = [subtype] if subtype else list(table)
    return any(rx.search(sentence) for s in subs for rx in table.get(s, ()))


def _untouched(docs: list[FinEDDocument]) -> list[str]:
    return [line for d in docs for line in untouched_lines(d)]


def pattern_probe(docs: list[FinEDDocument]) -> dict[str, Any]:
    """Per subtype: the share of its injected sentences the patterns flag (its own subtype's
    patterns, and all patterns together) and the share of untouched sentences they flag;
    and the one pattern that flags most of the subtype, with both shares."""
    untouched = _untouched(docs)
    table = injector_patterns()
    any_untouched = sum(flags(s) for s in untouched) / len(untouched) if untouched else 0.0
    by_sub: dict[str, list[str]] = {}
    for d in docs:
        for e in d.errors:
            by_sub.setdefault(e.subtype, []).append(e.sentence)
    out: dict[str, Any] = {
        "untouched_sentences": len(untouched),
        "untouched_flagged_any": any_untouched,
        "by_subtype": {},
    }
    total = hit = 0
    for sub in SUBTYPE_IDS:
        sents = by_sub.get(sub)
        if not sents:
            continue
        own = sum(flags(s, sub) for s in sents) if sub in table else 0
        anyp = sum(flags(s) for s in sents)
        total += len(sents)
        hit += own
        # the single pattern that finds most of the subtype: "no fixed pattern finds most
        # of them" is this share staying well under one half
        best = max(
            table.get(sub, ()), key=lambda rx: sum(bool(rx.search(s)) for s in sents), default=None
        )
        top = sum(bool(best.search(s)) for s in sents) / len(sents) if best else 0.0
        out["by_subtype"][sub] = {
            "errors": len(sents),
            "patterns": len(table.get(sub, ())),
            "top_pattern": best.pattern if best else "",
            "top_pattern_injected": top,
            "top_pattern_untouched": (
                sum(bool(best.search(s)) for s in untouched) / len(untouched)
                if best and untouched
                else 0.0
            ),
            "injected_flagged_own": own / len(sents),
            "injected_flagged_any": anyp / len(sents),
            "untouched_flagged_own": (
                sum(flags(s, sub) for s in untouched) / len(untouched)
                if untouched and sub in table
                else 0.0
            ),
        }
    out["injected_flagged_own"] = hit / total if total else 0.0
    return out
