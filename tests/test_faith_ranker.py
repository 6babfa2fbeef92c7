"""The FAITH solver's candidate ranker: hand weights, the learned fit, the shipped weights."""

from __future__ import annotations

import random

import pytest

from finprobe.benchmarks.faith.dataset import unit_hint
from finprobe.benchmarks.faith.ranker import (
    FEATURES,
    HAND_RANKER,
    HAND_WEIGHTS,
    NEGATIVE,
    POSITIVE,
    Ranker,
    fit_ranker,
    load_ranker,
    report_weights,
)
from finprobe.benchmarks.faith.solver import SolverOptions, rank_candidates, solve_from_tables
from finprobe.numbers import reference_scorer_match
from finprobe.synth import make_report, to_faith_record


def _synthetic_instances(seed: int) -> list[tuple[str, dict, str]]:
    """(kind, metadata as a model sees it, span) for each derived sentence of a report."""
    report = make_report(seed=seed)
    tables = [
        {"index": t["table_index"], "pre_text": t["pre_text"], "cells": t["cells"]}
        for t in to_faith_record(report)["tables"]
    ]
    out = []
    for sentence in report.sentences:
        if sentence.derivation is None:
            continue
        start, end = sentence.span
        metadata = {
            "tables": tables,
            "masked_sentence": sentence.text[:start] + "[MASK]" + sentence.text[end:],
            "pre_sentence": "",
            "post_sentence": "",
            "hint": unit_hint(sentence.span_text),
        }
        out.append((sentence.derivation.kind, metadata, sentence.span_text))
    return out


def test_every_weight_names_a_feature() -> None:
    assert set(HAND_WEIGHTS) <= set(FEATURES)
    assert set(load_ranker().weights) <= set(FEATURES)


def test_the_score_is_the_rankers_and_every_candidate_carries_its_features() -> None:
    _, metadata, _ = _synthetic_instances(0)[0]
    for options, ranker in [
        (SolverOptions(), load_ranker()),  # the default: the shipped learned weights
        (SolverOptions(ranker=HAND_RANKER), HAND_RANKER),
    ]:
        ranked = rank_candidates(metadata, options)
        table_kinds = [c for c in ranked if c.features]
        assert table_kinds, "table candidates carry their features"
        for cand in table_kinds[:50]:
            assert cand.score == pytest.approx(ranker.score(cand.features))


def _blank(rng: random.Random, right_feature: str) -> tuple[list[dict[str, float]], list[bool]]:
    """One blank: the correct candidate is the one whose label the sentence names."""
    feats, labels = [], []
    for i in range(20):
        correct = i == 0
        row = {
            right_feature: (1.0 if correct else 0.0) + rng.gauss(0, 0.15),
            "sentence_hits": rng.gauss(0, 1),  # noise the fit must learn to ignore
        }
        feats.append(row)
        labels.append(correct)
    order = list(range(len(feats)))
    rng.shuffle(order)  # the correct candidate's place tells nothing
    return [feats[i] for i in order], [labels[i] for i in order]


def test_the_fit_learns_which_feature_points_at_the_answer() -> None:
    rng = random.Random(7)
    ranker = fit_ranker([_blank(rng, "coverage") for _ in range(40)])
    assert ranker.weights["coverage"] > 1.0
    assert abs(ranker.weights["sentence_hits"]) < 0.5 * ranker.weights["coverage"]
    # and it ranks unseen blanks by it
    held_out = [_blank(rng, "coverage") for _ in range(20)]
    hits = 0
    for feats, labels in held_out:
        scores = [ranker.score(f) for f in feats]
        hits += labels[scores.index(max(scores))]
    assert hits >= 18


def test_report_weights_make_each_report_count_the_same() -> None:
    # one large report (30 blanks) where "coverage" points at the answer and "near_hits" at
    # a decoy, and three small ones (4 blanks each) the other way round: unweighted, the
    # large report decides; weighted by report, the three small ones outvote it
    rng = random.Random(11)

    def blank(right: str, decoy: str) -> tuple[list[dict[str, float]], list[bool]]:
        feats, labels = _blank(rng, right)
        wrong = labels.index(False)
        feats[wrong] = {**feats[wrong], decoy: 1.0 + rng.gauss(0, 0.15)}
        return feats, labels

    groups = [blank("coverage", "near_hits") for _ in range(30)]
    groups += [blank("near_hits", "coverage") for _ in range(12)]
    reports = ["big"] * 30 + ["s1"] * 4 + ["s2"] * 4 + ["s3"] * 4
    weights = report_weights(reports)
    assert weights[0] == pytest.approx(42 / 4 / 30) and weights[-1] == pytest.approx(42 / 4 / 4)
    assert sum(weights) == pytest.approx(len(reports))
    plain = fit_ranker(groups).weights
    balanced = fit_ranker(groups, sample_weights=weights).weights
    assert plain["coverage"] > plain["near_hits"]
    assert balanced["near_hits"] > balanced["coverage"]
    with pytest.raises(ValueError, match="2 sample weights for 42 blanks"):
        fit_ranker(groups, sample_weights=[1.0, 1.0])


def test_a_fit_with_signs_keeps_each_features_meaning() -> None:
    assert (POSITIVE | NEGATIVE).issubset(FEATURES)
    assert not POSITIVE & NEGATIVE
    # training blanks where a period-length miss and a missing synonym happen to mark the
    # answer (a few reports' quirk): a free fit learns them backwards, a fit with signs
    # may only leave them at zero, and still learns what points at the answer
    rng = random.Random(5)
    groups = []
    for _ in range(40):
        feats, labels = _blank(rng, "coverage")
        answer = labels.index(True)
        feats[answer] = {**feats[answer], "period_length_miss": 1.0}
        for row in feats[:answer] + feats[answer + 1 :]:
            row["synonym_hits"] = 1.0
        groups.append((feats, labels))
    free = fit_ranker(groups).weights
    signed = fit_ranker(groups, signs=True).weights
    assert free["period_length_miss"] > 0.5 and free["synonym_hits"] < -0.5
    assert signed["period_length_miss"] == 0.0 and signed["synonym_hits"] == 0.0
    assert signed["coverage"] > 1.0
    for name, weight in signed.items():
        assert weight >= 0 or name not in POSITIVE, name
        assert weight <= 0 or name not in NEGATIVE, name


def test_blanks_with_no_correct_candidate_teach_nothing() -> None:
    assert fit_ranker([([{"coverage": 1.0}], [False])]).weights == {}


@pytest.mark.parametrize("seed", [0, 1])
def test_the_learned_ranker_answers_synthetic_lookups(seed: int) -> None:
    learned = SolverOptions(ranker=load_ranker())
    cases = [c for c in _synthetic_instances(seed) if c[0] == "lookup"]
    assert cases
    for _, metadata, span_text in cases:
        answer = solve_from_tables(metadata, learned).answer
        assert reference_scorer_match(span_text, answer), metadata["masked_sentence"]


def test_a_ranker_with_no_weights_scores_zero() -> None:
    assert Ranker({}).score({"coverage": 1.0}) == 0.0
