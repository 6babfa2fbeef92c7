"""Whether a run compares with a published table, and how sure its headline is.

A run stands beside the papers' rows only when it ran on that table's data: the
paper's released split (never data FinProbe built or generated) in the table's
language. Every run's headline carries its sample count and a 95% interval:
Wilson's score interval where the headline is a proportion of samples (accuracy,
hit rate), a percentile bootstrap over samples where it is not (FinED's micro F1).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

# Each benchmark's headline: the figure its table is ranked by (a published column).
HEADLINE = {
    "faith": "overall",
    "findver": "overall",
    "finsm": "HR@5",
    "finre": "accuracy",
    "finmr": "accuracy",
    "fined": "overall.f1",
}
# headlines that are a share of samples (a Wilson interval applies)
PROPORTIONS = {"faith", "findver", "finsm", "finre", "finmr"}
# the language of each published table (FinED's splits are named by theirs)
SPLIT_LANGUAGE = {"zh": "zh", "en": "en"}
BOOTSTRAP_RESAMPLES = 200


def table_key(run: dict) -> str:
    """'finsm' for a FinAuditing FinSM run, else the benchmark's name."""
    benchmark = str(run.get("benchmark", "?"))
    return str(run.get("split") or benchmark) if benchmark == "finauditing" else benchmark


def headline_key(run: dict) -> str | None:
    key = HEADLINE.get(table_key(run))
    headline = run.get("headline") or {}
    if key in headline:
        return key
    return next(iter(headline), None)


def lower_is_better(metric: str) -> bool:
    """Error and refusal rates: a smaller number is a better model."""
    name = metric.lower()
    return "error" in name or name.endswith("_rate")


# ----------------------------------------------------------------------------- data


def data_identity(records: Sequence[Any]) -> dict[str, Any]:
    """What data a run's samples are: split and language (when all samples agree) and
    whether FinProbe built it (FAITH ``builder``, FinDVer split ``built``, FinAuditing
    injected rows' ``method``, FinED errors injected rather than ``released``)."""
    splits = Counter(str(r.metadata.get("split") or "") for r in records)
    languages = Counter(str(r.metadata.get("language") or "") for r in records)
    built = 0
    for record in records:
        meta = record.metadata
        errors = meta.get("errors") if isinstance(meta.get("errors"), list) else []
        injected = any(
            isinstance(e, dict) and e.get("source") not in (None, "", "released") for e in errors
        )
        if meta.get("builder") or meta.get("method") or meta.get("split") == "built" or injected:
            built += 1
    return {
        "split": _single(splits),
        "language": _single(languages),
        "built_samples": built,
        "samples": len(records),
    }


def _single(counts: Counter) -> str | None:
    values = [v for v in counts if v]
    return values[0] if len(values) == 1 and "" not in counts else None


def placement(
    run: dict, splits: Sequence[str], requested: str | None = None
) -> tuple[str | None, str]:
    """(the published split the run stands beside, or None; why, in words)."""
    if not splits:
        return None, "no published table"
    data = run.get("data")
    name = (run.get("dataset") or {}).get("name") or "?"
    if not isinstance(data, dict):
        return None, f"{name}: the results file does not say what data it is (re-run to add it)"
    if data.get("built_samples"):
        return None, f"{name}: built by FinProbe, not the paper's data"
    key = table_key(run)
    if key in splits:  # FinAuditing: one table per subtask
        return key, f"{name}: the paper's {key} data"
    language = data.get("language")
    if set(splits) <= set(SPLIT_LANGUAGE):  # FinED: tables by language
        if language in splits:
            return language, f"{name}: {language} documents"
        return None, f"{name}: documents in {language or 'mixed languages'}"
    if language not in (None, "en"):
        return None, f"{name}: {language} text; the published tables are English"
    split = data.get("split")
    if split:
        if split in splits:
            return split, f"{name}: the paper's {split} split"
        return None, f"{name}: split {split!r}, not a published one"
    chosen = requested if requested in splits else splits[0]
    return chosen, f"{name}: the paper's data (split {chosen}, as named)"


# ----------------------------------------------------------------------------- intervals


def wilson(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (0-1) over n samples."""
    if n <= 0:
        return 0.0, 1.0
    centre = (share + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _resampled(
    records: Sequence[Any], figure: Callable[[list[Any]], float | None], resamples: int, seed: int
) -> list[float | None]:
    """``figure`` of each sample drawn with replacement (the same draws for one seed)."""
    rng = random.Random(seed)
    return [
        figure([records[rng.randrange(len(records))] for _ in records]) for _ in range(resamples)
    ]


def percentile_interval(values: Sequence[float | None]) -> tuple[float, float] | None:
    """2.5th and 97.5th percentiles of resampled figures. A resample whose figure is None
    (it cannot be computed there) is left out, so the interval is conditional on the
    resamples that have one; None when none has."""
    kept = sorted(v for v in values if v is not None)
    if not kept:
        return None
    return kept[int(0.025 * (len(kept) - 1))], kept[int(math.ceil(0.975 * (len(kept) - 1)))]


def bootstrap(
    records: Sequence[Any],
    figure: Callable[[list[Any]], float | None],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float] | None:
    """``percentile_interval`` of ``figure`` over samples drawn with replacement."""
    if len(records) < 2:
        return None
    return percentile_interval(_resampled(records, figure, resamples, seed))


def clustered_resamples(
    records: Sequence[Any],
    cluster: Callable[[Any], Any],
    figure: Callable[[list[Any]], float | None],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> list[float | None]:
    """``figure`` of each resample of whole clusters (e.g. reports), drawn with replacement:
    spans of one report share its tables and its writer, so they are not independent draws,
    and resampling them one by one makes an interval too narrow. Clusters are drawn in a
    fixed order (the same figures on every run); none with fewer than two clusters."""
    groups: dict[Any, list[Any]] = {}
    for record in records:
        groups.setdefault(cluster(record), []).append(record)
    if len(groups) < 2:
        return []
    keys = sorted(groups, key=str)
    return _resampled(
        keys, lambda drawn: figure([r for key in drawn for r in groups[key]]), resamples, seed
    )


def clustered_bootstrap(
    records: Sequence[Any],
    cluster: Callable[[Any], Any],
    figure: Callable[[list[Any]], float | None],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> tuple[float, float] | None:
    """``percentile_interval`` of ``clustered_resamples``. Needs two clusters or more. With
    few clusters (five reports) a percentile interval is, if anything, too narrow."""
    return percentile_interval(clustered_resamples(records, cluster, figure, resamples, seed))


@dataclass(frozen=True)
class PairedDifference:
    """How a second arm scores against a first on the same samples, in points."""

    n: int
    first: float  # accuracy, 0-100
    second: float
    gained: int  # samples the second gets right and the first wrong
    lost: int
    interval: tuple[float, float] | None  # of second - first, over resampled clusters

    @property
    def difference(self) -> float:
        return self.second - self.first


def paired_difference(
    records: Sequence[Any],
    cluster: Callable[[Any], Any],
    first: Callable[[Any], bool],
    second: Callable[[Any], bool],
    resamples: int = BOOTSTRAP_RESAMPLES,
    seed: int = 0,
) -> PairedDifference:
    """Two arms (e.g. a ranker with and without a feature) scored on the same samples:
    their accuracies, the samples each wins alone, and a 95% interval of the difference
    over whole clusters (reports). Paired, because the arms share every sample's
    difficulty: the difference varies far less than either accuracy does. The interval
    covers which clusters were drawn, not the noise of whatever produced the verdicts
    (a refit with another seed)."""
    n = len(records)
    if not n:
        raise ValueError("paired_difference: no records to compare")

    def delta(sample: list[Any]) -> float:
        # a resample of two or more non-empty clusters is never empty
        return 100 * (sum(map(second, sample)) - sum(map(first, sample))) / len(sample)

    return PairedDifference(
        n=n,
        first=100 * sum(map(first, records)) / n,
        second=100 * sum(map(second, records)) / n,
        gained=sum(1 for r in records if second(r) and not first(r)),
        lost=sum(1 for r in records if first(r) and not second(r)),
        interval=clustered_bootstrap(records, cluster, delta, resamples, seed),
    )


def mix_weighted(
    records: Sequence[Any],
    stratum: Callable[[Any], str],
    correct: Callable[[Any], bool],
    mix: dict[str, float],
) -> float | None:
    """Accuracy (0-100) re-weighted to another set's mix of strata: the mean of each
    stratum's accuracy weighted by ``mix`` (FAITH's held-out set is 83 A, 44 B, 11 C, 2 D
    spans, where pilot-dev is mostly A). None when a stratum the mix weighs has no record
    here (its accuracy is unknown, not zero), or when no stratum has a positive weight.
    Records of strata outside the mix, and strata of zero or negative weight, count for
    nothing."""
    total = sum(w for w in mix.values() if w > 0)
    if total <= 0:
        return None
    figure = 0.0
    for name, weight in mix.items():
        if weight <= 0:
            continue
        group = [r for r in records if stratum(r) == name]
        if not group:
            return None
        figure += weight * sum(map(correct, group)) / len(group)
    return 100 * figure / total


def headline_interval_of_records(
    benchmark: str, records: Sequence[Any], summarize: Callable[[list[Any]], dict]
) -> dict[str, Any] | None:
    """The bootstrap interval of a headline that is not a proportion (FinED's F1)."""
    key = HEADLINE.get(benchmark)
    if key is None or benchmark in PROPORTIONS or not records:
        return None

    def figure(sample: list[Any]) -> float | None:
        value = (summarize(sample).get("headline") or {}).get(key)
        return float(value) if isinstance(value, int | float) else None

    bounds = bootstrap(list(records), figure)
    if bounds is None:
        return None
    return {
        "metric": key,
        "low": round(bounds[0], 2),
        "high": round(bounds[1], 2),
        "n": len(records),
        "method": f"bootstrap, {BOOTSTRAP_RESAMPLES} resamples of documents",
    }


def sample_count(run: dict) -> int:
    """The samples behind the headline (labelled ones where only those are scored)."""
    metrics = run.get("metrics") or {}
    for key in ("labelled", "n"):
        value = metrics.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return int(run.get("scored_samples") or run.get("samples") or 0)


def headline_interval(run: dict) -> tuple[float, float, str] | None:
    """(low, high, method) of the run's headline, in percent."""
    key = headline_key(run)
    value = (run.get("headline") or {}).get(key) if key else None
    if not isinstance(value, int | float):
        return None
    stored = run.get("interval")
    if isinstance(stored, dict) and stored.get("metric") == key:
        return float(stored["low"]), float(stored["high"]), str(stored.get("method"))
    if table_key(run) in PROPORTIONS:
        n = sample_count(run)
        if n <= 0:
            return None
        low, high = wilson(float(value) / 100, n)
        return 100 * low, 100 * high, "Wilson"
    return None
