"""End to end: the three FinAuditing tasks on inspect (mockllm and the baselines)."""

from __future__ import annotations

import json

import pytest
from inspect_ai import eval as inspect_eval

from finprobe.benchmarks.finauditing.build import build_dataset
from finprobe.benchmarks.finauditing.task import BENCHMARK, finauditing, finmr, finre, finsm
from finprobe.runner import SampleRecord, mock_output
from finprobe.synth import make_report
from finprobe.xbrl.synth_export import export_report


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    root = tmp_path_factory.mktemp("fa")
    filing = export_report(make_report(seed=5), root / "filing")
    build_dataset([filing], root / "data", seed=0, run_checks_as_messages=False, finmr=2,
                  finre_per_label=1, finsm=1)  # fmt: skip
    return root / "data"


def _outputs(texts):
    return [mock_output(text) for text in texts]


def _records(log) -> list[SampleRecord]:
    return [SampleRecord(str(s.id), s.metadata, s.output.completion,
                         next(iter(s.scores.values())).value,
                         next(iter(s.scores.values())).metadata or {}) for s in log.samples]  # fmt: skip


def _rows(data, name):
    return [json.loads(line) for line in (data / f"{name}.jsonl").read_text().splitlines()]


def test_finre_mockllm_end_to_end(data, tmp_path):
    rows = _rows(data, "finre")
    # first sample: a reply with no label, then the right one after the re-ask
    replies = ["I am not sure.", json.dumps({"answer": rows[0]["answer"]})]
    replies += [json.dumps({"answer": "Reversal"})] * (len(rows) - 1)
    log = inspect_eval(finre(data=str(data)), model="mockllm/model", display="none",
                       log_dir=str(tmp_path), model_args={"custom_outputs": _outputs(replies)})[0]  # fmt: skip
    assert log.status == "success"
    records = _records(log)
    by_id = {r.id: r for r in records}
    assert by_id[rows[0]["id"]].score["correct"] == 1.0
    summary = BENCHMARK.summarize(records)
    assert set(summary["headline"]) >= {"accuracy", "macro_precision", "macro_recall", "macro_f1"}
    expected = sum(1 for i, r in enumerate(rows) if i == 0 or r["answer"] == "Reversal") / len(rows)
    assert summary["headline"]["accuracy"] == round(100 * expected, 2)


def test_finmr_mockllm_end_to_end(data, tmp_path):
    rows = _rows(data, "finmr")
    replies = [rows[0]["answer"]]
    for row in rows[1:]:  # right extraction, wrong calculation
        answer = json.loads(row["answer"])
        answer["calculated_value"] = str(int(float(answer["calculated_value"])) + 7)
        replies.append(json.dumps(answer))
    log = inspect_eval(finmr(data=str(data)), model="mockllm/model", display="none",
                       log_dir=str(tmp_path), model_args={"custom_outputs": _outputs(replies)})[0]  # fmt: skip
    summary = BENCHMARK.summarize(_records(log))
    n = len(rows)
    assert summary["headline"]["accuracy"] == round(100 / n, 2)
    assert summary["headline"]["calculation_error_rate"] == round(100 * (n - 1) / n, 2)


def test_finsm_mockllm_end_to_end(data, tmp_path):
    rows = _rows(data, "finsm")
    replies = [json.dumps(["us-gaap:Assets"] + r["answer"]) for r in rows]
    log = inspect_eval(finsm(data=str(data)), model="mockllm/model", display="none",
                       log_dir=str(tmp_path), model_args={"custom_outputs": _outputs(replies)})[0]  # fmt: skip
    summary = BENCHMARK.summarize(_records(log))
    assert summary["headline"]["HR@1"] == 0.0
    assert summary["headline"]["HR@5"] == 100.0 and summary["headline"]["R@20"] == 100.0


@pytest.mark.parametrize("subtask,baseline,key", [("finre", "finre-classifier", "accuracy"),
                                                   ("finmr", "finmr-solver", "accuracy"),
                                                   ("finsm", "finsm-retriever", "HR@20")])  # fmt: skip
def test_baselines_run_inside_the_task(data, tmp_path, subtask, baseline, key):
    log = inspect_eval(finauditing(subtask=subtask, data=str(data)), model=f"finprobe/{baseline}",
                       display="none", log_dir=str(tmp_path))[0]  # fmt: skip
    assert log.status == "success"
    summary = BENCHMARK.summarize(_records(log))
    assert summary["split"] == subtask
    assert summary["headline"][key] == 100.0


def test_progress_display_leads_with_the_headline_not_has_gold(data, tmp_path):
    """Every reply wrong: the value inspect shows first must be HR@5 = 0, not has_gold = 1."""
    rows = _rows(data, "finsm")
    log = inspect_eval(finsm(data=str(data)), model="mockllm/model", display="none",
                       log_dir=str(tmp_path),
                       model_args={"custom_outputs": _outputs([json.dumps(["us-gaap:NotAConcept"])] * len(rows))})[0]  # fmt: skip
    assert log.status == "success", log.error
    headline = log.results.headline
    assert (headline.scorer, headline.score) == ("finauditing_scorer", "hr@5")
    shown = {s.name: s.metrics["mean"].value for s in log.results.scores}
    assert shown["has_gold"] == 1.0 and shown["hr@5"] == 0.0
    for task, score in ((finre, "correct"), (finmr, "correct")):
        assert task(data=str(data)).headline_metric.score == score
