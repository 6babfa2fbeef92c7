"""A baseline scored on the data it was developed on is marked as tuned, in its results
and wherever a report sets it beside published models."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.console import Console

from finprobe.development import developed_on, id_hash, is_tuned
from finprobe.report import comparison_table, results_tables, run_label
from finprobe.terminal import fit_tables, print_tables

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
PILOT = SHARED / "faith" / "pilot-dev.json"
FINDVER_DEV = SHARED / "findver" / "testmini-dev.json"


@pytest.mark.skipif(not PILOT.exists(), reason="needs ../shared/data/faith/pilot-dev.json")
def test_the_faith_solvers_were_developed_on_every_pilot_dev_span() -> None:
    from finprobe.benchmarks.faith.task import faith_samples

    ids = [str(s.id) for s in faith_samples(PILOT)]
    for name in ("faith-solver", "faith-solver-hand", "faith-solver-learned"):
        record = developed_on("faith", f"finprobe/{name}", ids)
        assert record is not None and record["share"] == 1.0 and record["samples"] == 160
        assert "pilot-dev" in record["data"]
    # an LLM, or another benchmark's baseline, is never "developed on" it
    assert developed_on("faith", "openai/gpt-4.1-mini", ids) is None
    assert developed_on("findver", "finprobe/findver-verifier", ids) is None
    # half the samples from elsewhere: the share says so
    mixed = developed_on("faith", "finprobe/faith-solver", ids[:80] + [f"x{i}" for i in range(80)])
    assert mixed is not None and mixed["share"] == 0.5


@pytest.mark.skipif(
    not FINDVER_DEV.exists(), reason="needs ../shared/data/findver/testmini-dev.json"
)
def test_the_findver_verifier_was_developed_on_the_dev_claims_not_on_other_ids() -> None:
    from finprobe.benchmarks.findver.dataset import load_claims

    ids = [c.example_id for c in load_claims(FINDVER_DEV)]
    record = developed_on("findver", "finprobe/findver-verifier", ids)
    assert record is not None and record["share"] == 1.0
    # the released validation claims that are not in the dev file (odd/even gaps) are unseen
    unseen = [f"ie-val-{n}" for n in range(1, 400)]
    unseen = [i for i in unseen if i not in set(ids)]
    assert developed_on("findver", "finprobe/findver-verifier", unseen) is None


def test_ids_are_hashed_per_benchmark() -> None:
    assert id_hash("faith", "a") != id_hash("findver", "a")
    assert len(id_hash("faith", "a")) == 12


def _faith_run(model: str, share: float | None) -> dict:
    run = {
        "benchmark": "faith", "model": model, "finished": True, "samples": 160,
        "dataset": {"name": "faith:pilot-dev.json", "fingerprint": "f"},
        "headline": {"overall": 78.12, "value": 78.12, "unit": 100.0, "A": 89.15, "B": 64.29,
                     "C": 9.09, "D": 0.0},
    }  # fmt: skip
    if share is not None:
        run["developed_on"] = {"data": "FAITH pilot-dev.json", "samples": 160, "share": share}
    return run


def test_a_tuned_baseline_is_labelled_wherever_it_is_ranked() -> None:
    tuned = _faith_run("finprobe/faith-solver", 1.0)
    assert is_tuned(tuned)
    assert run_label(tuned) == "finprobe/faith-solver (tuned on this data)"
    # a few shared ids are a coincidence of naming, not tuning
    assert not is_tuned(_faith_run("finprobe/faith-solver", 0.1))
    assert run_label(_faith_run("finprobe/faith-solver", 0.1)) == "finprobe/faith-solver"
    assert run_label(_faith_run("openai/gpt-4.1-mini", None)) == "openai/gpt-4.1-mini"

    console = Console(width=100, record=True, color_system=None)
    print_tables(console, comparison_table([tuned], published=True, split="pilot"))
    text = " ".join(console.export_text().split())
    assert "finprobe/faith-solver (tuned on this data)" in text
    assert "not a figure on unseen documents" in text


def test_a_split_table_keeps_its_caption_under_its_last_piece() -> None:
    from rich.table import Table

    table = Table(title="wide", caption="note: read me")
    table.add_column("model")
    for i in range(12):
        table.add_column(f"metric number {i}")
    table.add_row("m", *(f"{i}.00" for i in range(12)))
    pieces = fit_tables([table], 80)
    assert len(pieces) > 1
    assert [p.caption for p in pieces] == [None] * (len(pieces) - 1) + ["note: read me"]
    # a table that fits keeps its caption too
    small = Table(caption="small note")
    small.add_column("a")
    small.add_row("1")
    assert fit_tables([small], 80)[0].caption == "small note"


def test_the_results_of_a_tuned_run_say_what_it_was_developed_on() -> None:
    console = Console(width=120, record=True, color_system=None)
    print_tables(console, results_tables(_faith_run("finprobe/faith-solver", 1.0)))
    text = " ".join(console.export_text().split())
    assert "developed on" in text and "160 of these samples (100%; a tuned figure" in text
    console = Console(width=120, record=True, color_system=None)
    print_tables(console, results_tables(_faith_run("openai/gpt-4.1-mini", None)))
    assert "developed on" not in console.export_text()


REPORTS = SHARED / "findver" / "reports"


@pytest.mark.skipif(not REPORTS.exists(), reason="needs ../shared/data/findver/reports")
def test_a_faith_build_from_the_rankers_training_reports_is_marked_tuned(tmp_path: Path) -> None:
    # the learned ranker was also fitted on FAITH spans built from these 10-Ks
    from finprobe.benchmarks.faith.build import build_from_paths
    from finprobe.benchmarks.faith.task import faith_samples

    out = tmp_path / "faith.json"
    build_from_paths([REPORTS / "INOD-2024-03-04_10-K.json.gz"], out, progress=False)
    ids = [str(s.id) for s in faith_samples(out)]
    assert ids
    record = developed_on("faith", "finprobe/faith-solver", ids)
    assert record is not None and record["share"] >= 0.9
    assert is_tuned({"developed_on": record})
    # a report's spans stay marked when the builder reads it anew: CNSL's tables were cut
    # apart after the fit (round 20) and round 24 split glued sentences, so most of its spans
    # are not the ones the ranker was fitted on; the record keeps every build of the reports
    # the solver was developed on
    out = tmp_path / "cnsl.json"
    build_from_paths([REPORTS / "CNSL-2024-03-05_10-K.json.gz"], out, progress=False)
    cnsl = developed_on("faith", "finprobe/faith-solver", [str(s.id) for s in faith_samples(out)])
    assert cnsl is not None and is_tuned({"developed_on": cnsl})
    # reports outside the development data are not: FinProbe's synthetic 10-Ks
    from finprobe.benchmarks.faith.build import synthetic_dataset

    synthetic = synthetic_dataset(tmp_path / "synthetic.json", n_reports=2, seed=3)
    synthetic_ids = [str(s.id) for s in faith_samples(synthetic)]
    assert synthetic_ids
    assert developed_on("faith", "finprobe/faith-solver", synthetic_ids) is None
    # the same report's spans on another benchmark's baseline: nothing
    assert developed_on("findver", "finprobe/findver-verifier", ids) is None


def test_add_keeps_the_recorded_ids_and_adds_a_rebuilds(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    import json

    from finprobe import development
    from finprobe.benchmarks.faith.build import synthetic_dataset

    record = tmp_path / "record.json"
    monkeypatch.setattr(development, "record_path", lambda: record)
    first = synthetic_dataset(tmp_path / "a.json", n_reports=1, seed=1)
    second = synthetic_dataset(tmp_path / "b.json", n_reports=1, seed=2)
    development.main(["faith", "first build", str(first)])
    one = set(json.loads(record.read_text())["faith"]["ids"])
    development.main(["faith", "both builds", str(second), "--add"])
    entry = json.loads(record.read_text())["faith"]
    assert one < set(entry["ids"]) and entry["data"] == "both builds"
    # without --add the record holds only the files given
    development.main(["faith", "second only", str(second)])
    assert not one & set(json.loads(record.read_text())["faith"]["ids"])
