"""FAITH solver accuracy on reports its weights never saw: folds grouped by report.

    python perf/faith_solver_folds.py [--write] [--fit NAME] [--bag N] [--seed S] [--spread K]
        [--l2 X] [--free] [--holdout FILE] [--mix A,B,C,D] [--verdicts OUT.json]
        PILOT.json [BUILT.json ...]
        [--train MORE.json ...]

The solver scores each candidate with a linear ranker (``faith/ranker.py``), among the
candidates its hard rules admit (``faith/rules.py``: the cache holds only those). This
script reports, in the released scorer's ``reference`` mode:

- ``hand``: the rule weights written while looking at pilot-dev (a tuned figure;
  ``finprobe/faith-solver-hand``);
- ``shipped``: the weights in ``finprobe/data/faith_ranker.json``, the default
  ``finprobe/faith-solver`` (fitted on every file given here, so also a tuned figure
  on them);
- ``folds``: leave one report out. For each report of every file, the ranker is
  fitted on all the *other* reports (of every file given) and scores that report;
  this is the figure to quote;
- ``cross``: fitted only on the other files (e.g. built 10-K instances) and scored
  on this one: weights that never saw this file's source at all.

``--holdout FILE`` (round 13): FILE is scored but never enters any fit (folds, cross,
``--write``), so weights written that way never saw it: its ``folds`` and ``cross`` are
figures the fit did not tune, and so is ``shipped`` when ``--write`` runs in the same call
(otherwise ``shipped`` is whatever weights are installed).

By report, by scenario (A/B/C/D; built files: the derivation finder's scenario). Under
each file's overall row, ``95% CI``: a percentile bootstrap over whole reports (spans of
one report are not independent draws, so an interval over spans would be too narrow).
``--mix A,B,C,D`` (e.g. the held-out pilot set's ``83,44,11,2``) adds ``mix``: each
figure re-weighted to that mix of scenarios, with its interval over reports (a resample
that lacks a weighted scenario is left out, and the script says how many were; a file
without one gives ``-``).
``--verdicts OUT.json`` writes each scored blank's verdicts, so that two arms (say, with and
without a feature) can be compared blank by blank: ``perf/faith_compare_arms.py``.
``--write`` refits on everything given and writes the shipped weights. Files after
``--train`` only add training blanks (to every fit), and are not scored.

How each ranker is fitted (``--fit``, ``FITS``): ``plain`` (every blank counts 1, rounds
7-8), ``balanced`` (every report counts the same), ``bag`` / ``balbag`` (the mean of 4
fits on bootstrap resamples of the training reports). Every fit keeps the signs each
feature's meaning fixes (``ranker.POSITIVE`` / ``NEGATIVE``; ``--free``: no bounds, as
before round 13). ``--bag N``: that many resampled fits in the bag's mean instead of 4
(round 17: how much of the folds' spread over seeds is the small bag's). ``--seed S`` seeds
the resamples;
``--spread K`` prints only the folds and cross figures of each file for bootstrap seeds
1..K (one resampled fit per fold, or the bag's mean), to show how much they move with the
training set.

Read with care: the features (and the measure/sensitivity rule families) were
written while looking at pilot-dev's failures, so folds on pilot-dev are still
optimistic; a held-out set of other reports is the real test.
"""

from __future__ import annotations

import hashlib
import inspect
import json
import pickle
import random
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from finprobe.benchmarks.faith.context import read_context
from finprobe.benchmarks.faith.dataset import (
    HIDDEN_FROM_BASELINES,
    instance_metadata,
    iter_instances,
    load_faith_reports,
)
from finprobe.benchmarks.faith.ranker import (
    FEATURES,
    HAND_RANKER,
    Ranker,
    feature_matrix,
    fit_ranker,
    load_ranker,
    report_weights,
)
from finprobe.benchmarks.faith.rules import TABLE_KINDS
from finprobe.benchmarks.faith.scorer import parse_answer, score_answer
from finprobe.benchmarks.faith.solver import (
    SolverOptions,
    _format_value,
    rank_candidates,
    solve_from_tables,
)
from finprobe.files import write_text_atomic
from finprobe.likeness import (
    BOOTSTRAP_RESAMPLES,
    clustered_bootstrap,
    clustered_resamples,
    mix_weighted,
    percentile_interval,
)

SHIPPED = Path(__file__).resolve().parents[1] / "src/finprobe/data/faith_ranker.json"
# Feature extraction is the slow part (minutes per 1,000 blanks); its result is kept
# here, keyed by the data file's content and the FAITH code's content, so a changed
# file or a changed feature never reads a stale cache.
CACHE = Path("/tmp/finprobe-faith-folds-cache")


@dataclass
class Blank:
    source: str  # the file
    report: str
    scenario: str
    truth: str
    visible: dict[str, Any]
    features: list[dict[str, float]] = field(default_factory=list)
    correct: list[bool] = field(default_factory=list)
    verdicts: dict[str, bool] = field(default_factory=dict)
    # the top candidate came from a measure/sensitivity rule: its verdict (these rules
    # place themselves above the best table candidate, whatever the weights)
    override: bool | None = None
    matrix: Any = None  # features in ranker.FEATURES order


def _cache_key(path: str) -> str:
    """The data file's content, the content of every FinProbe module loaded (the
    solver's code: the builder's modules are not imported here and do not count) and
    the code of ``load``."""
    digest = hashlib.sha256(Path(path).read_bytes())
    sources = {
        m.__file__ for name, m in list(sys.modules.items())
        if name.startswith("finprobe") and getattr(m, "__file__", None)
    }  # fmt: skip
    for source in sorted(sources):
        digest.update(Path(source).name.encode() + Path(source).read_bytes())
    digest.update((inspect.getsource(Blank) + inspect.getsource(load)).encode())
    return digest.hexdigest()[:24]


def load_cached(path: str) -> list[Blank]:
    """``load(path)``, from the cache when the file and the FAITH code are unchanged."""
    cached = CACHE / f"{Path(path).stem}-{_cache_key(path)}.pkl"
    if cached.exists():
        with cached.open("rb") as handle:
            blanks = pickle.load(handle)
        # the key is the file's content: the same file may be named by another path (relative
        # against absolute), and each blank's file is the one given
        for blank in blanks:
            blank.source = path
        return blanks
    blanks = load(path)
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    with partial.open("wb") as handle:
        pickle.dump(blanks, handle)
    partial.replace(cached)
    return blanks


def load(path: str) -> list[Blank]:
    """Every answerable blank, with its table candidates' features and correctness."""
    blanks = []
    hand = SolverOptions(ranker=HAND_RANKER)
    for report, inst in iter_instances(load_faith_reports(path)):
        if inst.answerability() != "answerable":
            continue
        meta = instance_metadata(report, inst)
        visible = {k: v for k, v in meta.items() if k not in HIDDEN_FROM_BASELINES}
        blank = Blank(path, f"{Path(path).stem}:{report.id}", inst.mask_type or "none",
                      inst.ground_truth, visible)  # fmt: skip
        context = read_context(visible)
        for i, cand in enumerate(rank_candidates(visible, hand)):
            answer = _format_value(cand.value, cand.percent, context, cand.kind)
            correct = bool(score_answer(inst.ground_truth, answer)["correct"])
            if cand.kind not in TABLE_KINDS or not cand.features:
                if i == 0:
                    blank.override = correct
                continue
            blank.features.append(cand.features)
            blank.correct.append(correct)
        if blank.features:
            blank.matrix = feature_matrix(blank.features)
            blank.features = []
        blanks.append(blank)
    return blanks


def quick_verdict(blank: Blank, ranker: Ranker) -> bool:
    """The verdict of the candidate the ranker puts first.

    From the cached table candidates (their generation does not depend on the
    weights), except where a measure/what-if rule's candidate came first: such a
    rule may pick its base from the ranked list, so that blank is solved again with
    these weights.
    """
    if blank.override is not None:
        completion = solve_from_tables(blank.visible, SolverOptions(ranker=ranker))
        parsed = parse_answer(completion.to_completion())
        return bool(score_answer(blank.truth, parsed["answer"] if parsed else None)["correct"])
    if blank.matrix is None or not len(blank.correct):
        return False
    weights = np.array([ranker.weights.get(n, 0.0) for n in FEATURES])
    return bool(blank.correct[int(np.argmax(blank.matrix @ weights))])


# Training keeps, per blank, its correct candidates and the negatives the hand weights
# rank highest plus a seeded random draw of the rest: a thousand candidates a blank
# made one fit on ~60 reports take minutes; scoring always uses every candidate.
TRAIN_CAP = 150


def _trimmed(blank: Blank, cap: int = TRAIN_CAP) -> tuple[Any, list[bool]]:
    if cap <= 0 or len(blank.correct) <= cap:
        return blank.matrix, blank.correct
    correct = np.array(blank.correct, dtype=bool)
    hand = np.array([HAND_RANKER.weights.get(n, 0.0) for n in FEATURES])
    order = np.argsort(-(blank.matrix @ hand), kind="stable")
    negatives = [i for i in order if not correct[i]]
    top, rest = negatives[: cap * 2 // 3], negatives[cap * 2 // 3 :]
    rng = np.random.default_rng(len(blank.correct))
    drawn = list(rng.choice(rest, size=min(len(rest), cap - len(top)), replace=False))
    keep = sorted(set(np.flatnonzero(correct).tolist()) | set(top) | set(drawn))
    return blank.matrix[keep], [blank.correct[i] for i in keep]


@dataclass
class FitOptions:
    """How a ranker is fitted (round 9: the mean of 4 fits on bootstrap resamples of the
    training reports, chosen on train-only folds; see the FAITH README).

    ``balanced``: every report counts the same (``ranker.report_weights``; lost 3 spans on
    the train-only folds, so off). ``bag``: the mean of this many fits, each on a bootstrap
    resample of the training reports (0: one fit on all of them).
    ``seed``: the resamples' seed (``--seed``; ``--spread`` runs several).
    """

    balanced: bool = False
    bag: int = 4
    seed: int = 0
    # the fit's l2 penalty: 1 was never tuned; ``--l2 X`` only measures how much the
    # figures move with it (a sensitivity check, not a choice: --write keeps 1 unless told)
    l2: float = 1.0
    # keep the signs each feature's meaning fixes (``ranker.POSITIVE``/``NEGATIVE``; round
    # 13, chosen on fresh 10-Q spans: the free fit's weights flipped against their meaning
    # when a training set lacked a kind of report; ``--free`` turns it off)
    signs: bool = True


# ``--fit NAME``: the four ways compared on the train-only files (round 9)
FITS = {
    "plain": (False, 0),
    "balanced": (True, 0),
    "bag": (False, 4),
    "balbag": (True, 4),
}


FIT = FitOptions()
# files scored but never fitted on (``--holdout``)
HOLDOUT: set[str] = set()
_TRIMMED: dict[int, tuple[Any, list[bool]]] = {}


def _trimmed_once(blank: Blank) -> tuple[Any, list[bool]]:
    # the same blank is trimmed the same way in every fit: do it once
    key = id(blank)
    if key not in _TRIMMED:
        _TRIMMED[key] = _trimmed(blank)
    return _TRIMMED[key]


def _fit_once(blanks: list[Blank], times: dict[str, int] | None = None) -> Ranker:
    """One fit; ``times``: how often each report was drawn (a bootstrap resample)."""
    usable = [b for b in blanks if b.matrix is not None and (times is None or b.report in times)]
    reports = [b.report for b in usable]
    weights = report_weights(reports) if FIT.balanced else [1.0] * len(usable)
    if times is not None:
        weights = [w * times[r] for w, r in zip(weights, reports, strict=True)]
        total = sum(weights)
        weights = [w * len(weights) / total for w in weights]  # l2 keeps its strength
    return fit_ranker(
        [_trimmed_once(b) for b in usable], l2=FIT.l2, sample_weights=weights, signs=FIT.signs
    )


def fit(blanks: list[Blank], salt: int = 0) -> Ranker:
    blanks = [b for b in blanks if b.source not in HOLDOUT]
    if FIT.bag <= 0:
        return _fit_once(blanks)
    reports = sorted({b.report for b in blanks})
    rng = random.Random(FIT.seed * 1_000_003 + salt)
    fits = []
    for _ in range(FIT.bag):
        drawn = [rng.choice(reports) for _ in reports]
        fits.append(_fit_once(blanks, {r: drawn.count(r) for r in set(drawn)}).weights)
    mean = {n: round(sum(f.get(n, 0.0) for f in fits) / len(fits), 6) for n in FEATURES}
    return Ranker(mean, "learned")


def folds(reports: list[str], k: int = 5) -> list[list[str]]:
    """Reports in k groups (round robin over the sorted names): a fold holds whole reports."""
    return [reports[i::k] for i in range(min(k, len(reports)))]


def _pct(hits: int, n: int) -> str:
    return f"{100 * hits / n:6.2f} (n={n})" if n else "   -  "


# ``--mix A,B,C,D``: another set's spans by scenario; each figure is also given re-weighted
# to it (the held-out pilot set is 83,44,11,2: pilot-dev's own mix is mostly lookups)
MIX: dict[str, float] = {}


def _mixed(sample: list[Blank], setup: str) -> float | None:
    """A setup's accuracy re-weighted to ``MIX`` (None: a resample lacks a scenario)."""
    return mix_weighted(
        sample, lambda blank: blank.scenario, lambda blank: blank.verdicts[setup], MIX
    )


def _interval(bounds: tuple[float, float] | None) -> str:
    return f"[{bounds[0]:5.1f}, {bounds[1]:5.1f}]" if bounds else "-"


def table(blanks: list[Blank], setups: list[str]) -> None:
    print(f"    {'':10s}" + "".join(f"{s:>20s}" for s in setups))
    for sc in ("all", "A", "B", "C", "D", "none"):
        group = [b for b in blanks if sc == "all" or b.scenario == sc]
        if group:
            cells = [_pct(sum(b.verdicts[s] for b in group), len(group)) for s in setups]
            print(f"    {sc:10s}" + "".join(f"{c:>20s}" for c in cells))
        if sc == "all":
            # spans of one report are not independent draws: resample whole reports
            cells = [
                _interval(
                    clustered_bootstrap(
                        blanks,
                        lambda b: b.report,
                        lambda sample, s=s: 100 * sum(b.verdicts[s] for b in sample) / len(sample),
                    )
                )
                for s in setups
            ]
            print(f"    {'95% CI':10s}" + "".join(f"{c:>20s}" for c in cells))
            if MIX:
                cells = []
                lacking = 0
                for s in setups:
                    figure = _mixed(blanks, s)
                    resampled = clustered_resamples(
                        blanks, lambda blank: blank.report, lambda sample, s=s: _mixed(sample, s)
                    )
                    bounds = percentile_interval(resampled)
                    # a resample without a weighted scenario has no mixed figure (the same
                    # resamples for every setup): the interval is over the others only
                    lacking = sum(v is None for v in resampled)
                    if figure is None:
                        cells.append("-")
                    elif bounds is None:
                        cells.append(f"{figure:.2f}")
                    else:
                        cells.append(f"{figure:.2f} [{bounds[0]:.0f}-{bounds[1]:.0f}]")
                print(f"    {'mix':10s}" + "".join(f"{c:>20s}" for c in cells))
                if 0 < lacking < BOOTSTRAP_RESAMPLES:  # all: the row shows '-' already
                    print(
                        f"    {'':10s}(mix intervals: {lacking} of {BOOTSTRAP_RESAMPLES} "
                        "resamples of reports lack a weighted scenario and are left out)"
                    )
    reports = sorted({b.report for b in blanks})
    for rep in reports:
        group = [b for b in blanks if b.report == rep]
        cells = [_pct(sum(b.verdicts[s] for b in group), len(group)) for s in setups]
        print(f"    {rep.split(':')[-1][:10]:10s}" + "".join(f"{c:>20s}" for c in cells))


def _option(argv: list[str], name: str, default: str) -> tuple[str, list[str]]:
    if name not in argv:
        return default, argv
    at = argv.index(name)
    if at + 1 >= len(argv):
        raise SystemExit(f"{name} needs a value")
    return argv[at + 1], argv[:at] + argv[at + 2 :]


def fold_verdicts(blanks: list[Blank], paths: list[str]) -> None:
    """Folds grouped by report: each pilot report alone (leave one report out); the built
    files' reports in five groups. Each fold is scored by a ranker fitted on every blank of
    every *other* report."""
    for path in paths:
        reports = sorted({b.report for b in blanks if b.source == path})
        groups = [[r] for r in reports] if len(reports) <= 5 else folds(reports)
        for salt, group in enumerate(groups):
            ranker = fit([b for b in blanks if b.report not in group], salt)
            for b in blanks:
                if b.report in group:
                    b.verdicts["folds"] = quick_verdict(b, ranker)


def main(argv: list[str]) -> None:
    global FIT
    if "--help" in argv or "-h" in argv:
        print(__doc__)
        return
    write = "--write" in argv
    signs = "--free" not in argv
    argv = [a for a in argv if a not in ("--write", "--free")]
    name, argv = _option(argv, "--fit", "bag")
    if name not in FITS:
        raise SystemExit(f"--fit {name}: not one of {', '.join(FITS)}")
    l2, argv = _option(argv, "--l2", "1")
    seed, argv = _option(argv, "--seed", "0")
    spread, argv = _option(argv, "--spread", "0")
    holdout, argv = _option(argv, "--holdout", "")
    bag_size, argv = _option(argv, "--bag", "")
    mix, argv = _option(argv, "--mix", "")
    verdicts_out, argv = _option(argv, "--verdicts", "")
    if verdicts_out and spread != "0":
        raise SystemExit("--verdicts writes one run's verdicts: not with --spread")
    if mix:
        counts = mix.split(",")
        if len(counts) != 4 or not all(c.strip().isdigit() for c in counts):
            raise SystemExit(f"--mix {mix}: four span counts, A,B,C,D (e.g. 83,44,11,2)")
        MIX.update(zip("ABCD", map(float, counts), strict=True))
    balanced, bag = FITS[name]
    if bag_size:
        if not bag_size.isdigit() or int(bag_size) < 1:
            raise SystemExit(f"--bag {bag_size}: not a whole number of fits (1 or more)")
        bag = int(bag_size)
    FIT = FitOptions(balanced=balanced, bag=bag, seed=int(seed), l2=float(l2), signs=signs)
    cut = argv.index("--train") if "--train" in argv else len(argv)
    paths = argv[:cut] or ["../shared/data/faith/pilot-dev.json"]
    extra = argv[cut + 1 :]
    if holdout:
        # the same file may be written two ways ("./q45.json", "q45.json"): one spelling
        # scored, never a second copy in the fit
        same = [p for p in paths + extra if Path(p).resolve() == Path(holdout).resolve()]
        if any(p in extra for p in same):
            raise SystemExit(f"--holdout {holdout}: also given after --train")
        if same:
            holdout = same[0]
        else:
            paths.insert(0, holdout)
        HOLDOUT.add(holdout)
    seen = [Path(p).resolve() for p in paths + extra]
    if len(set(seen)) < len(seen):
        raise SystemExit("a data file is given twice (under two spellings?)")
    started = time.perf_counter()
    blanks: list[Blank] = []
    for path in paths + extra:
        blanks += load_cached(path)
    print(f"{len(blanks)} blanks from {len(paths) + len(extra)} files, "
          f"features in {time.perf_counter() - started:.0f} s; fit {name} {FIT}")  # fmt: skip
    if int(spread) > 0:
        # the folds figure's noise: each fold's fit on a bootstrap resample of its
        # training reports (one fit, or the bag's mean), for seeds 1..K
        single = FitOptions(balanced=balanced, bag=max(bag, 1), l2=float(l2), signs=signs)
        for k in range(1, int(spread) + 1):
            FIT = replace(single, seed=k)
            fold_verdicts(blanks, paths)
            cells = []
            for path in paths:
                mine = [b for b in blanks if b.source == path]
                cross = fit([b for b in blanks if b.source != path], 99)
                crossed = sum(quick_verdict(b, cross) for b in mine)
                folded = sum(b.verdicts["folds"] for b in mine)
                cells.append(
                    f"{Path(path).stem} folds {100 * folded / len(mine):.2f}"
                    f" cross {100 * crossed / len(mine):.2f}"
                )
            print(f"  seed {k}: " + ", ".join(cells), flush=True)
        return
    if write:
        ranker = fit(blanks)
        names = sorted({Path(p).name for p in paths + extra if p not in HOLDOUT})
        data = {
            **ranker.to_json(), "name": "learned", "fit": name, "fitted_on": names,
            "bag": FIT.bag, "seed": FIT.seed, "l2": FIT.l2, "signs_kept": FIT.signs,
        }  # fmt: skip
        write_text_atomic(SHIPPED, json.dumps(data, indent=1) + "\n")
        print(f"wrote {SHIPPED} (fitted on {', '.join(names)})")
    shipped = load_ranker(str(SHIPPED)) if SHIPPED.exists() else None
    fold_verdicts(blanks, paths)
    for path in paths:
        mine = [b for b in blanks if b.source == path]
        others = [b for b in blanks if b.source != path]  # the --train files too
        cross = fit(others, 99) if others else None
        for b in mine:
            b.verdicts["hand"] = quick_verdict(b, HAND_RANKER)
            if shipped:
                b.verdicts["shipped"] = quick_verdict(b, shipped)
            if cross:
                b.verdicts["cross"] = quick_verdict(b, cross)
        setups = ["hand", "shipped"] if shipped else ["hand"]
        setups += ["folds", "cross"] if cross else ["folds"]
        print(f"\n== {path}: {len(mine)} answerable blanks; accuracy % (reference mode)")
        table(mine, setups)
    if verdicts_out:
        write_verdicts(verdicts_out, [b for path in paths for b in blanks if b.source == path])
    print(f"\n{time.perf_counter() - started:.0f} s")


def write_verdicts(path: str, blanks: list[Blank]) -> None:
    """Each scored blank's verdicts, in the order the files were given, for
    ``perf/faith_compare_arms.py`` (two arms on the same files pair blank by blank)."""
    records = [
        {
            "file": Path(b.source).name, "report": b.report, "scenario": b.scenario,
            "truth": b.truth, "masked_sentence": b.visible.get("masked_sentence", ""),
            "verdicts": b.verdicts,
        }
        for b in blanks
    ]  # fmt: skip
    write_text_atomic(Path(path), json.dumps(records, indent=0) + "\n")
    print(f"wrote {len(records)} blanks' verdicts to {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
