"""The solver's candidate score: a linear model over named features of a candidate.

Each table candidate (a cell, or a change/ratio/share/sum of cells) is described by
features of how it fits the sentence: label words near the blank, period, role
(change or level), unit, the sentence's other figures. Its score is a weighted sum.

Two weight sets exist:

- ``HAND_WEIGHTS``: the rule weights written while looking at pilot-dev's failures
  (the "tuned" solver; kept so its figure can be reproduced beside the others);
- a learned ranker (``faith_ranker.json``): a conditional-logit model (softmax over
  one blank's candidates, maximising the probability of the correct ones) fitted by
  ``fit_ranker``. ``perf/faith_solver_folds.py`` fits it with folds grouped by report,
  so the figure it reports is always on reports the weights never saw; the shipped
  weights are fitted on every report it has.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

FEATURES = (
    # label words: the row label against the sentence (rarity-weighted hits)
    "near_hits",  # words within 8 of the blank
    "synonym_hits",  # label words the sentence names by a synonym ("sales" / "revenue")
    "synonym_near",
    "phrase_sentence",  # a label of 2+ words written as one phrase in the sentence
    "phrase_near",  # ... within 8 words of the blank
    "sentence_hits",
    "neighbour_hits",  # the sentences before and after
    "coverage",  # share of the label's weight the text names
    "missing",  # weight of label words the text never names
    "heading_sentence",  # body heading above the row ("Total International")
    "heading_near",
    "table_words",  # the table's pre-text against the sentence
    # kind of candidate (a lookup is the base)
    "kind_change",
    "kind_pct_change",
    "kind_share",
    "kind_ratio",
    "kind_sum",
    # period
    "period_target_match",  # the blank's own period is the column's
    "period_target_miss",
    "period_no_years",  # a period is wanted, the column has none
    "period_first_year",  # the sentence's first year is the column's
    "period_other_year",
    "period_year_miss",
    "change_years_match",  # a change spans the sentence's two years
    "change_years_miss",
    "period_length_match",  # a quarter column for a quarter's figure, a year's for a year's
    "period_length_miss",
    # column words (segments, "Excl. exchange")
    "column_hits",
    "column_misses",
    "column_excluding_match",
    "column_excluding_miss",
    # role: "increased [MASK]" is a change
    "role_change_is_change",
    "role_change_not_change",
    "role_level_is_change",
    "direction_match",  # "rose [MASK]": the candidate's change is upward
    "direction_miss",
    # unit
    "percent_mismatch",
    "plain_fraction",  # a share written as a fraction ("0.62")
    "money_physical",
    "money_count",
    "physical_match",
    # the sentence's other figures
    "anchor_row",  # the row holds another figure of the sentence
    "anchor_row_paired",  # ... and the blank is paired with it ("from [MASK] to $X")
    "is_anchor",  # the candidate is one of the sentence's own figures
    "anchor_column",
    "same_measure",  # the anchor's own row and period: another line holds the blank
    "explained",  # the row a per-share anchor explains
    "per_share_other",  # a per-share row for a blank whose own clause is not per share
    "share_words_share",
    "share_words_amount",
    "ratio_words_ratio",
    # a derived candidate's companion is one of the sentence's other figures: a share's
    # other period ("[MASK] and 68% of our revenues ..., respectively"), a change's other
    # form ("increased [MASK], or 10%"; "decreased $77.0 million, or [MASK]")
    "companion",
    "zero_value",
    "listed_item",  # a parallel list's own item names the row
    "listed_other",
)

# The sign each feature's meaning fixes: evidence for the candidate (a hit, a match) can
# only raise its score, evidence against it (a miss, a mismatch) only lower it. A fit
# with ``signs=True`` keeps these; without them, a fit on too few reports of a kind
# learned, e.g., a period-length miss as a reason *for* a candidate (round 13). Kind
# offsets and features whose direction depends on the report stay free.
POSITIVE = frozenset({
    "near_hits", "synonym_hits", "synonym_near", "phrase_sentence", "phrase_near",
    "sentence_hits", "neighbour_hits", "coverage", "heading_sentence", "heading_near",
    "table_words", "period_target_match", "change_years_match", "period_length_match",
    "column_hits", "column_excluding_match", "role_change_is_change", "direction_match",
    "physical_match", "anchor_row", "anchor_row_paired", "anchor_column",
    "share_words_share", "ratio_words_ratio", "companion", "listed_item",
})  # fmt: skip
NEGATIVE = frozenset({
    "missing", "period_target_miss", "period_year_miss", "change_years_miss",
    "period_length_miss", "column_misses", "column_excluding_miss",
    "role_change_not_change", "role_level_is_change", "direction_miss", "percent_mismatch",
    "money_physical", "money_count", "is_anchor", "same_measure", "share_words_amount",
    "listed_other", "per_share_other",
})  # fmt: skip

# The rule weights of the tuned solver (FinProbe 0.x), as features.
HAND_WEIGHTS: dict[str, float] = {
    "near_hits": 0.6,
    "synonym_hits": 0.2,
    "synonym_near": 0.3,
    "phrase_sentence": 0.3,
    "phrase_near": 0.3,
    "sentence_hits": 0.35,
    "neighbour_hits": 0.1,
    "coverage": 3.0,
    "missing": -0.15,
    "heading_sentence": 0.5,
    "heading_near": 0.3,
    "table_words": 0.15,
    "kind_change": -1.6,
    "kind_pct_change": -1.4,
    "kind_share": -3.0,  # a pair's prior counts one and a half times
    "kind_ratio": -3.6,
    "kind_sum": -3.9,
    "period_target_match": 2.5,
    "period_target_miss": -1.5,
    "period_no_years": -0.5,
    "period_first_year": 2.0,
    "period_other_year": 1.0,
    "period_year_miss": -1.5,
    "change_years_match": 1.5,
    "change_years_miss": -1.0,
    "period_length_match": 0.5,
    "period_length_miss": -1.0,
    "column_hits": 1.5,
    "column_misses": -0.4,
    "column_excluding_match": 1.5,
    "column_excluding_miss": -1.0,
    "role_change_is_change": 3.0,
    "role_change_not_change": -2.5,
    "role_level_is_change": -3.0,
    "direction_match": 0.5,
    "direction_miss": -0.5,
    "percent_mismatch": -4.0,
    "plain_fraction": 3.0,
    "money_physical": -2.0,
    "money_count": -5.0,
    "physical_match": 1.0,
    "anchor_row": 1.0,
    "anchor_row_paired": 1.0,
    "is_anchor": -6.0,
    "anchor_column": 1.0,
    "same_measure": -4.0,
    "explained": -8.0,
    "per_share_other": 0.0,  # round 15: the hand solver stays as it was tuned
    "share_words_share": 2.5,
    "share_words_amount": -2.0,
    "ratio_words_ratio": 0.5,
    "companion": 2.0,  # set a priori (as strong as the first year's match), never tuned
    "zero_value": -1.0,
    "listed_item": 3.0,
    "listed_other": -3.0,
}


@dataclass(frozen=True)
class Ranker:
    """score = sum(weight[f] * value[f]); unknown features weigh nothing."""

    weights: dict[str, float]
    name: str = "hand"

    def score(self, features: dict[str, float]) -> float:
        w = self.weights
        return math.fsum(w.get(k, 0.0) * v for k, v in features.items() if v)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "weights": self.weights}


HAND_RANKER = Ranker(HAND_WEIGHTS, "hand")
_SHIPPED = "faith_ranker.json"


@lru_cache(maxsize=4)
def load_ranker(path: str | None = None) -> Ranker:
    """The learned ranker shipped with FinProbe (or one written by ``fit_ranker``)."""
    if path is None:
        text = resources.files("finprobe.data").joinpath(_SHIPPED).read_text(encoding="utf-8")
    else:
        text = Path(path).read_text(encoding="utf-8")
    data = json.loads(text)
    return Ranker({k: float(v) for k, v in data["weights"].items()}, data.get("name", "learned"))


def feature_matrix(features: Any) -> Any:
    """Candidates' features as a numpy matrix in ``FEATURES`` order (kept as is if it is one)."""
    import numpy as np

    if isinstance(features, np.ndarray):
        return features
    index = {n: i for i, n in enumerate(FEATURES)}
    out = np.zeros((len(features), len(FEATURES)))
    for r, row in enumerate(features):
        for k, v in row.items():
            if k in index:
                out[r, index[k]] = v
    return out


def fit_ranker(
    groups: list[tuple[Any, list[bool]]],
    l2: float = 1.0,
    name: str = "learned",
    sample_weights: list[float] | None = None,
    signs: bool = False,
) -> Ranker:
    """Conditional logit over each blank's candidates (numpy + scipy, the dev extra).

    ``groups``: per blank, its candidates' features (dicts, or a ``feature_matrix``)
    and which candidates are correct. ``sample_weights``: per blank, how much its
    log-likelihood counts (default 1 each; ``report_weights`` makes each report count
    the same). ``signs``: keep the signs of ``POSITIVE`` and ``NEGATIVE`` features.
    Blanks with no correct candidate teach nothing and are skipped. Features are
    standardised for the fit; the weights returned act on raw features.
    """
    import numpy as np
    from scipy.optimize import minimize

    if sample_weights is None:
        sample_weights = [1.0] * len(groups)
    if len(sample_weights) != len(groups):
        raise ValueError(f"{len(sample_weights)} sample weights for {len(groups)} blanks")
    kept = [
        (g, w) for g, w in zip(groups, sample_weights, strict=True) if any(g[1]) and not all(g[1])
    ]
    usable = [g for g, w in kept if w > 0]
    if not usable:
        return Ranker({}, name)
    gw = np.array([w for _, w in kept if w > 0], dtype=float)
    names = list(FEATURES)
    x = np.vstack([feature_matrix(f) for f, _ in usable])
    y = np.array([v for _, labels in usable for v in labels], dtype=bool)
    sizes = np.array([len(f) for f, _ in usable])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    group = np.repeat(np.arange(len(usable)), sizes)
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    x = (x - mean) / scale

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        s = x @ w
        # log of the softmax mass on the correct candidates, per blank (log-sum-exp)
        top = np.maximum.reduceat(s, starts)
        top_correct = np.maximum.reduceat(np.where(y, s, -np.inf), starts)
        e = np.exp(s - top[group])
        ec = np.exp(np.where(y, s - top_correct[group], -np.inf))
        z = np.add.reduceat(e, starts)
        zc = np.add.reduceat(ec, starts)
        nll = -np.sum(gw * (top_correct + np.log(zc) - top - np.log(z)))
        a = gw[group] * (ec / zc[group] - e / z[group])
        return float(nll + 0.5 * l2 * w @ w), -(a @ x) + l2 * w

    bounds = None
    if signs:
        bounds = [
            (0.0, None) if n in POSITIVE else (None, 0.0) if n in NEGATIVE else (None, None)
            for n in names
        ]  # fmt: skip
    result = minimize(loss, np.zeros(len(names)), jac=True, method="L-BFGS-B", bounds=bounds)
    raw = result.x / scale
    return Ranker({n: round(float(v), 6) for n, v in zip(names, raw, strict=True)}, name)


def report_weights(reports: list[str]) -> list[float]:
    """Per blank, a weight that makes every report count the same in a fit (a report with
    354 blanks would otherwise outweigh a dozen reports of 20); they sum to the number of
    blanks, so the fit's l2 keeps its strength against the data."""
    counts: dict[str, int] = {}
    for report in reports:
        counts[report] = counts.get(report, 0) + 1
    if not counts:
        return []
    each = len(reports) / len(counts)
    return [each / counts[report] for report in reports]
