"""Intervals over whole reports and accuracy re-weighted to another set's scenario mix
(the figures ``perf/faith_solver_folds.py`` prints beside each fold accuracy)."""

from __future__ import annotations

import pytest

from finprobe.likeness import bootstrap, clustered_bootstrap, mix_weighted


def _accuracy(sample: list[tuple[str, bool]]) -> float:
    return 100 * sum(ok for _, ok in sample) / len(sample)


def _reports(right: int, wrong: int, spans: int = 20) -> list[tuple[str, bool]]:
    """Reports whose spans are all right or all wrong: the correlation a report brings."""
    out = [(f"r{i}", True) for i in range(right) for _ in range(spans)]
    return out + [(f"w{i}", False) for i in range(wrong) for _ in range(spans)]


def test_an_interval_over_reports_is_wider_than_one_over_spans_when_reports_differ() -> None:
    records = _reports(6, 4)
    by_span = bootstrap(records, _accuracy)
    by_report = clustered_bootstrap(records, lambda r: r[0], _accuracy)
    assert by_span is not None and by_report is not None
    assert by_span[0] <= 60.0 <= by_span[1] and by_report[0] <= 60.0 <= by_report[1]
    # 200 spans but only 10 independent reports: the honest interval is several times wider
    assert by_report[1] - by_report[0] > 2.5 * (by_span[1] - by_span[0])


def test_reports_alike_inside_and_between_give_an_interval_of_no_width() -> None:
    # every report half right: any resample of reports is half right, whatever the spans
    records = [(f"r{i}", j % 2 == 0) for i in range(8) for j in range(10)]
    by_report = clustered_bootstrap(records, lambda r: r[0], _accuracy)
    assert by_report == (50.0, 50.0)


def test_a_clustered_interval_needs_two_reports_and_is_the_same_on_every_run() -> None:
    assert clustered_bootstrap(_reports(1, 0), lambda r: r[0], _accuracy) is None
    # reports of different accuracy (2 of 10 right up to 9 of 10): which report a draw
    # picks matters, so a cluster order that followed the records' order would show
    records = [(f"r{i}", j < i + 2) for i in range(8) for j in range(10)]
    first = clustered_bootstrap(records, lambda r: r[0], _accuracy, seed=7)
    again = clustered_bootstrap(list(reversed(records)), lambda r: r[0], _accuracy, seed=7)
    assert first == again  # cluster order is fixed, not the order records came in
    assert first is not None and first[0] < first[1]


def test_mix_weighting_averages_each_scenario_by_the_target_mix() -> None:
    records = [("A", True)] * 9 + [("A", False)] + [("B", True), ("B", False)]
    mix = {"A": 83, "B": 44}
    figure = mix_weighted(records, lambda r: r[0], lambda r: r[1], mix)
    assert figure == pytest.approx(100 * (83 * 0.9 + 44 * 0.5) / 127)
    # plain accuracy over these records is 10 / 12 = 83.3: the mix pulls it to B's share
    assert figure < 100 * 10 / 12


def test_a_scenario_the_mix_weighs_but_the_records_lack_gives_no_figure() -> None:
    records = [("A", True), ("B", False)]
    assert mix_weighted(records, lambda r: r[0], lambda r: r[1], {"A": 1, "B": 1, "C": 1}) is None
    # a zero weight asks nothing of the records
    assert mix_weighted(records, lambda r: r[0], lambda r: r[1], {"A": 1, "C": 0}) == 100.0
    assert mix_weighted(records, lambda r: r[0], lambda r: r[1], {}) is None


def test_resamples_without_a_weighted_scenario_are_counted_as_left_out() -> None:
    from finprobe.likeness import clustered_resamples

    # scenario D only in report r4: a resample of reports without r4 has no D figure
    records = [(f"r{i}", "A", i % 2 == 0) for i in range(5) for _ in range(4)]
    records += [("r4", "D", False)]

    def mixed(mix: dict[str, float]):  # noqa: ANN202
        return lambda sample: mix_weighted(sample, lambda r: r[1], lambda r: r[2], mix)

    resampled = clustered_resamples(records, lambda r: r[0], mixed({"A": 83, "D": 2}))
    dropped = sum(v is None for v in resampled)
    # (4/5)^5 of the resamples miss r4: about 66 of 200
    assert 40 < dropped < 95
    assert None not in clustered_resamples(records, lambda r: r[0], mixed({"A": 83}))
    # the interval is taken over the others only, so it still exists
    assert clustered_bootstrap(records, lambda r: r[0], mixed({"A": 83, "D": 2})) is not None


def test_a_paired_difference_counts_what_each_arm_wins_alone() -> None:
    from finprobe.likeness import paired_difference

    # (report, first arm right, second arm right): the second wins 3 blanks, loses 1
    records = [("a", True, True), ("a", False, True), ("a", False, True), ("b", True, False)]
    records += [("b", False, True), ("c", True, True), ("c", False, False), ("c", True, True)]
    d = paired_difference(records, lambda r: r[0], lambda r: r[1], lambda r: r[2])
    assert (d.n, d.gained, d.lost) == (8, 3, 1)
    assert d.first == 50.0 and d.second == 75.0 and d.difference == 25.0
    assert d.interval is not None and d.interval[0] <= 25.0 <= d.interval[1]


def test_a_paired_interval_is_narrower_than_either_arms_when_the_arms_share_difficulty() -> None:
    from finprobe.likeness import paired_difference

    # reports all right or all wrong in both arms, and one blank more right in the second
    # arm in each of two reports: the accuracies swing over resamples, the difference hardly
    records = [(r, ok, ok) for r, ok in _reports(5, 5, spans=10)]
    records[0] = ("r0", False, True)
    records[10] = ("r1", False, True)
    d = paired_difference(records, lambda r: r[0], lambda r: r[1], lambda r: r[2])
    first = clustered_bootstrap(
        records, lambda r: r[0], lambda s: _accuracy([(k, a) for k, a, _ in s])
    )
    assert d.interval is not None and first is not None
    assert d.interval[1] - d.interval[0] < (first[1] - first[0]) / 5
    assert d.interval[0] >= 0.0  # the second arm is never worse in any resample
    # an arm against itself differs by nothing, in every resample
    same = paired_difference(records, lambda r: r[0], lambda r: r[1], lambda r: r[1])
    assert (same.difference, same.interval, same.gained, same.lost) == (0.0, (0.0, 0.0), 0, 0)
    with pytest.raises(ValueError, match="no records"):
        paired_difference([], lambda r: r[0], lambda r: r[1], lambda r: r[2])
