"""Output for an 80-column terminal (and 120): names never cut, no line past the edge,
paths whole on their own line, FinED's run card in one vocabulary and one scale."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from finprobe.defaults import CATALOG
from finprobe.report import comparison_table, results_tables
from finprobe.results import published_split
from finprobe.terminal import fit_tables, print_path, print_tables

WIDTHS = (80, 120)
TINY = Path(__file__).parent / "data" / "faith_tiny.json"


def _render(tables: list[Table], width: int) -> str:
    console = Console(width=width, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    print_tables(console, tables)
    return console.export_text()


def _assert_fits(text: str, width: int, names: list[str]) -> None:
    assert "…" not in text and "..." not in text
    assert max(len(line) for line in text.splitlines()) <= width
    lines = text.splitlines()
    for name in names:  # whole, on one line
        assert any(name in line for line in lines), name


def _finsm_run() -> dict:
    _, table = published_split("finauditing", "finsm")
    columns = list(next(iter(table.values())))
    return {"benchmark": "finauditing", "split": "finsm", "model": "finprobe/finsm-retriever",
            "headline": {c: 91.67 for c in [*columns, "HR@1", "R@1", "MF1@1"]},
            "dataset": {"name": "finsm.jsonl", "fingerprint": "0"}, "samples": 12}  # fmt: skip


def _fined_run() -> dict:
    headline = {f"{c}.{m}": 37.5 for c in ("GKE", "FKE", "FRE", "overall")
                for m in ("precision", "recall", "f1")}  # fmt: skip
    row = {"precision": 1.0, "recall": 0.375, "f1": 0.5454, "tp": 6, "n_pred": 6, "n_gold": 16}
    return {
        "benchmark": "fined", "model": "openai-api/local/Qwen3-8B-Instruct-a-long-name",
        "headline": headline, "samples": 40, "scored_samples": 38, "errors": 2,
        "error_causes": {"timeout": 2}, "dataset": {"name": "fined_en.json", "fingerprint": "1"},
        "counts": {"documents": 40, "unparsed": 3, "errors": 120, "predictions": 80,
                   "error_free_documents": 0, "error_free_documents_flagged": 0},
        "breakdowns": {"subtype": {"non_numerical_value_missing": row, "illegal_time": row}},
    }  # fmt: skip


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize(("make", "split"), [(_finsm_run, "finsm"), (_fined_run, "zh")])
def test_compare_published_keeps_every_name_whole(make, split: str, width: int) -> None:
    run = make()
    tables = comparison_table([run], published=True, split=split)
    text = _render(tables, width)
    _, published = published_split(run["benchmark"], split)
    names = [run["model"], *(f"{m} (published)" for m in list(published)[:20])]
    _assert_fits(text, width, names)
    figures = run["headline"]
    # every figure is shown (its column split into another table, never dropped)
    for column in figures:
        short = column.split(".", 1)[-1]
        assert column in text or short in text, column
    if split == "zh" and width == 80:  # FinED: one table per category, headers unprefixed
        assert "· GKE" in text and "· overall" in text


@pytest.mark.parametrize("width", WIDTHS)
def test_fined_run_card_one_vocabulary_one_scale(width: int) -> None:
    text = _render(results_tables(_fined_run()), width)
    _assert_fits(text, width, ["non_numerical_value_missing",
                               "openai-api/local/Qwen3-8B-Instruct-a-long-name"])  # fmt: skip
    # samples that failed are "failed"; errors are the ones annotated in documents
    assert "samples failed" in text and "failed, by cause" in text
    assert "errors annotated in the documents" in text and "replies not parsed" in text
    assert "2 failed, not counted" in " ".join(text.split())
    # breakdowns in percent, like the headline: 0.375 is shown as 37.50
    assert "37.50" in text and " 0.38 " not in text and "100.00" in text


def test_a_table_too_narrow_for_two_columns_is_stacked_whole() -> None:
    table = Table("model", "a rather long figure name", "another long figure name")
    table.add_row("a-model-with-a-very-long-name-that-fills-the-line-nearly", "1.00", "2.00")
    out = fit_tables([table], 60)
    text = _render(out, 60)
    _assert_fits(text, 60, ["a-model-with-a-very-long-name-that-fills-the-line-nearly",
                            "a rather long figure name", "another long figure name"])  # fmt: skip


def test_a_path_prints_whole_on_its_own_line() -> None:
    path = "/tmp/" + "/".join(["a-rather-long-folder-name"] * 6) + "/run_x.results.json"
    console = Console(width=80, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    print_path(console, "results", path)
    assert console.export_text().splitlines() == ["results:", f"  {path}"]


def _cli(*args: str, width: int) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "finprobe.cli", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": str(width)})  # fmt: skip


@pytest.mark.parametrize("width", WIDTHS)
def test_list_never_cuts_a_name_to_type(width: int) -> None:
    done = _cli("list", width=width)
    assert done.returncode == 0
    names = [f"finprobe/{n}" for tasks in CATALOG.values() for t, bs in tasks for n in (t, *bs)]
    _assert_fits(done.stdout, width, names)


def test_eval_prints_its_paths_whole_at_80_columns(tmp_path: Path) -> None:
    runs = tmp_path / "a-runs-folder-with-a-long-name-so-that-the-path-passes-eighty-columns"
    done = _cli("eval", "faith", "--model", "finprobe/faith-solver", "--data", str(TINY),
                "--runs-dir", str(runs), "--display", "none", width=80)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    for label, suffix in (("log:", ".eval"), ("results:", ".results.json")):
        path = lines[lines.index(label) + 1].strip()
        assert path.endswith(suffix) and Path(path).is_file() and len(path) > 80
    _assert_fits("\n".join(lines[: lines.index("log:")]), 80, ["finprobe/faith-solver"])


def test_a_name_value_table_wraps_the_value_between_words() -> None:
    table = Table(show_header=False)
    table.add_column("field")
    table.add_column("value")
    value = "finre:finauditing-synth-finauditing-build-3-4-0 (18c0c335d11c3738) " * 2
    table.add_row("scorer_version", "finauditing-1.0")
    table.add_row("dataset", value.strip())
    text = _render([table], 80)
    assert len(fit_tables([table], 80)) == 1  # not stacked, not split
    _assert_fits(text, 80, ["scorer_version", "finre:finauditing-synth-finauditing-build-3-4-0"])
