"""The data card of a FinED build: what was made, how varied it is, what the review rules
dropped, and whether a detector that sees only the edited sentence can find the errors.

The surface probe answers the question a benchmark of injected errors must answer: can a
model win by spotting the injector's templates instead of reading the document? It sees
each edited sentence alone (no original, no context) beside untouched sentences of the
same reports, and is scored with folds grouped by report, so it never trains and scores
on one report. Two probes:

- a learned one: character and word n-grams with logistic regression (scikit-learn, the
  ``probes`` extra); it finds whatever surface regularity the edits share;
- the rule detector's sentence checks, run on the sentence alone: how much of its score
  comes from patterns visible in one sentence.

Each probe runs on two samples, both 1:1 (chance F1 0.5):

- ``untouched``: each edited sentence beside an untouched sentence of the same report,
  what a model reading the benchmark could exploit (this also learns that errors sit in
  sentences with figures, which is how the paper's fragments are chosen too);
- ``matched``: the same, but the untouched sentence is the one of the report closest to
  the edited one in length and in carrying figures and dollar amounts, which takes the
  sentence selection out and leaves what the edit itself shows;
- ``originals``: each edited sentence beside its own original (another untouched
  sentence for an inserted one), kept in the same fold, so the probe can only learn the
  edit's own surface trace: the template test.

Near chance means the errors need context.
"""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from typing import Any

from finprobe.benchmarks.fined.dataset import FinEDDocument
from finprobe.benchmarks.fined.segment import split_sentences
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS


def _source_kind(source: str) -> str:
    return source.split(":", 1)[0] if source else "unknown"


def edit_concentration(docs: list[FinEDDocument]) -> dict[str, dict[str, Any]]:
    """Per subtype: errors, distinct edits, the most used (old -> new) edit with its share, and
    the edit families (kinds of edit) with the top family's share."""
    from finprobe.benchmarks.fined.edits import edit_family, edit_key

    by_sub: dict[str, Counter] = defaultdict(Counter)
    by_family: dict[str, Counter] = defaultdict(Counter)
    for d in docs:
        for e in d.errors:
            by_sub[e.subtype][e.detail.get("edit") or edit_key(e.original, e.sentence)] += 1
            by_family[e.subtype][edit_family(e.subtype, e.detail)] += 1
    out = {}
    for sub in SUBTYPE_IDS:
        c = by_sub.get(sub)
        if not c:
            continue
        key, n = c.most_common(1)[0]
        total = sum(c.values())
        out[sub] = {
            "errors": total,
            "distinct_edits": len(c),
            "top_edit": key,
            "top_share": n / total,
            "families": dict(by_family[sub].most_common()),
            "top_family": by_family[sub].most_common(1)[0][0],
            "top_family_share": by_family[sub].most_common(1)[0][1] / total,
        }
    return out


def untouched_lines(doc: FinEDDocument) -> list[str]:
    """The document's prose lines (25-700 characters, no table rows) that no injected error
    touches, in document order: the negatives of the surface and pattern probes."""
    edited = {e.sentence for e in doc.errors}
    out = []
    for s in split_sentences(doc.text):
        for line in s.text.split("\n"):
            line = line.strip()
            usable = 25 <= len(line) <= 700 and "|" not in line
            if usable and not any(x in line or line in x for x in edited):
                out.append(line)
    return out


def probe_sample(
    docs: list[FinEDDocument], seed: int = 0, negatives_from: str = "untouched"
) -> tuple[list[str], list[int], list[str], list[str]]:
    """(sentences, labels 1=edited, groups=report id, subtype or "") with one negative per
    edited sentence from the same report: an untouched sentence, or (``originals``) the
    sentence as it was before the edit."""
    rng = random.Random(seed)
    texts: list[str] = []
    labels: list[int] = []
    groups: list[str] = []
    subtypes: list[str] = []
    for d in docs:
        pool = untouched_lines(d)
        negatives = rng.sample(pool, min(len(pool), len(d.errors)))
        if negatives_from == "matched":
            negatives = _matched(d.errors, pool, rng)
        if negatives_from == "originals":
            spare = iter(negatives)
            negatives = [e.original or next(spare, "") for e in d.errors]
            negatives = [n for n in negatives if n]
        for e in d.errors:
            texts.append(e.sentence)
            labels.append(1)
            groups.append(d.id)
            subtypes.append(e.subtype)
        for n in negatives:
            texts.append(n)
            labels.append(0)
            groups.append(d.id)
            subtypes.append("")
    return texts, labels, groups, subtypes


def _profile(s: str) -> tuple[bool, bool, int]:
    return bool(re.search(r"\d", s)), "$" in s, len(s)


def _matched(errors: list[Any], pool: list[str], rng: random.Random) -> list[str]:
    """For each edited sentence, the closest untouched one (figures, dollars, length)."""
    left = rng.sample(pool, len(pool))
    out = []
    for e in errors:
        if not left:
            break
        digit, dollar, length = _profile(e.sentence)

        def distance(
            s: str, digit: bool = digit, dollar: bool = dollar, length: int = length
        ) -> float:
            d2, s2, n2 = _profile(s)
            return (d2 != digit) * 1000 + (s2 != dollar) * 1000 + abs(n2 - length)

        best = min(left, key=distance)
        left.remove(best)
        out.append(best)
    return out


def _binary_f1(pred: list[int], gold: list[int]) -> dict[str, float]:
    tp = sum(p and g for p, g in zip(pred, gold, strict=True))
    p = tp / sum(pred) if sum(pred) else 0.0
    r = tp / sum(gold) if sum(gold) else 0.0
    return {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0}


def _recall_by_subtype(pred: list[int], subtypes: list[str]) -> dict[str, float]:
    hit: Counter = Counter()
    tot: Counter = Counter()
    for p, s in zip(pred, subtypes, strict=True):
        if s:
            tot[s] += 1
            hit[s] += p
    return {s: hit[s] / tot[s] for s in SUBTYPE_IDS if tot[s]}


def learned_probe(
    texts: list[str], labels: list[int], groups: list[str], subtypes: list[str], folds: int = 5
) -> dict[str, Any]:
    """Out-of-fold F1 of an n-gram classifier on the sentences alone, folds grouped by report."""
    try:
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.linear_model import LogisticRegression
        from sklearn.model_selection import GroupKFold
        from sklearn.pipeline import make_pipeline, make_union
    except ImportError:
        return {
            "available": False,
            "why": "scikit-learn not installed (pip install finprobe[probes])",
        }
    n_groups = len(set(groups))
    if n_groups < 2 or len(set(labels)) < 2:
        return {"available": False, "why": "too few reports or one class only"}
    pred = [0] * len(texts)
    for train, test in GroupKFold(n_splits=min(folds, n_groups)).split(texts, labels, groups):
        model = make_pipeline(
            make_union(
                TfidfVectorizer(
                    analyzer="char_wb", ngram_range=(2, 5), min_df=2, sublinear_tf=True
                ),
                TfidfVectorizer(analyzer="word", ngram_range=(1, 2), min_df=2, sublinear_tf=True),
            ),
            LogisticRegression(max_iter=2000, C=1.0),
        )
        model.fit([texts[i] for i in train], [labels[i] for i in train])
        for i, p in zip(test, model.predict([texts[i] for i in test]), strict=True):
            pred[i] = int(p)
    return {
        "available": True,
        "folds": min(folds, n_groups),
        **_binary_f1(pred, labels),
        "recall_by_subtype": _recall_by_subtype(pred, subtypes),
    }


def rule_probe(texts: list[str], labels: list[int], subtypes: list[str]) -> dict[str, Any]:
    """The rule detector's sentence checks on each sentence alone (no document)."""
    from finprobe.benchmarks.fined.detector import CHECKS

    pred = [int(any(check(t) for _, check in CHECKS)) for t in texts]
    return {**_binary_f1(pred, labels), "recall_by_subtype": _recall_by_subtype(pred, subtypes)}


def surface_probe(docs: list[FinEDDocument], seed: int = 0) -> dict[str, Any]:
    out: dict[str, Any] = {"chance_f1": 0.5}
    for negatives in ("untouched", "matched", "originals"):
        texts, labels, groups, subtypes = probe_sample(docs, seed, negatives)
        out[negatives] = {
            "sentences": len(texts),
            "edited": sum(labels),
            "learned": learned_probe(texts, labels, groups, subtypes),
            "rule_sentence_checks": rule_probe(texts, labels, subtypes),
        }
    return out


def data_card(
    docs: list[FinEDDocument], dropped: Counter | None = None, seed: int = 0, probe: bool = True
) -> dict[str, Any]:
    """Counts by subtype and source, edit concentration, drops by reason, surface probe."""
    by_source: dict[str, Counter] = defaultdict(Counter)
    for d in docs:
        for e in d.errors:
            by_source[e.subtype][_source_kind(e.source)] += 1
    drops: dict[str, dict[str, int]] = defaultdict(dict)
    for (sub, why), n in sorted((dropped or Counter()).items()):
        drops[sub][why] = n
    conc = edit_concentration(docs)
    card: dict[str, Any] = {
        "documents": len(docs),
        "errors": sum(len(d.errors) for d in docs),
        "by_subtype_and_source": {s: dict(by_source[s]) for s in SUBTYPE_IDS if s in by_source},
        "subtypes_present": sum(1 for s in SUBTYPE_IDS if s in by_source),
        "edit_concentration": conc,
        "max_top_edit_share": max((c["top_share"] for c in conc.values()), default=0.0),
        "max_top_family_share_multi": max(
            (c["top_family_share"] for c in conc.values() if len(c["families"]) > 1),
            default=0.0,
        ),
        "dropped": dict(drops),
        "dropped_total": sum((dropped or Counter()).values()),
    }
    if probe:
        from finprobe.benchmarks.fined.patterns import pattern_probe

        card["surface_probe"] = surface_probe(docs, seed)
        card["pattern_probe"] = pattern_probe(docs)
    return card
