"""`finprobe score`: replies produced anywhere, scored by the benchmarks' own scorers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from finprobe.benchmarks.findver.scorer import random_guess, reply_label
from finprobe.errors import InputError
from finprobe.results import load_results
from finprobe.score import score_predictions

GOLDEN = Path(__file__).parent / "golden"
REPLIES = [
    json.loads(line)
    for line in (GOLDEN / "findver_released_replies.jsonl").read_text().splitlines()
]
SUBSET = {"ie": "ie", "numeric": "numeric", "knowledge": "knowledge"}


def processed_file(path: Path, model: str) -> tuple[Path, list[dict]]:
    """A file in the FinDVer authors' processed-output format, from released records."""
    rows = []
    for record in REPLIES:
        if record["model"] != model:
            continue
        gold = "entailed" if record["entailment_label"] else "refuted"
        rows.append(
            {
                "example_id": record["example_id"],
                "subset": SUBSET[record["example_id"].split("-")[0]],
                "split": "testmini",
                "statement": "",
                "entailment_label": record["entailment_label"],
                "output": [record["output"]],
                "extracted_label": record["extracted_label"],
                "result": record["extracted_label"] == gold,
            }
        )
    path.write_text(json.dumps(rows, indent=4))
    return path, rows


def jsonl(path: Path, *rows: dict) -> Path:
    path.write_text("\n".join(json.dumps(r) for r in rows))
    return path


def finprobe(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "finprobe.cli", *args], capture_output=True, text=True, timeout=300
    )


def _expected_reference(rows: list[dict]) -> float:
    right = 0
    for row in rows:
        label = reply_label(row["output"][0]) or random_guess(row["example_id"])
        right += label == ("entailed" if row["entailment_label"] else "refuted")
    return round(100 * right / len(rows), 2)


def test_processed_file_as_it_is(tmp_path: Path) -> None:
    path, rows = processed_file(
        tmp_path / "Ministral-8B-Instruct-2410.json", "Ministral-8B-Instruct-2410"
    )
    out = tmp_path / "out.results.json"
    run = finprobe("score", "findver", "--predictions", str(path), "--json", str(out))
    assert run.returncode == 0, run.stderr
    results = load_results(out)  # the same results schema as eval
    assert results["benchmark"] == "findver" and results["samples"] == len(rows)
    assert results["settings"]["labels"] == "labels from the predictions file"
    assert results["headline"]["overall"] == _expected_reference(rows)
    strict = results["metrics"]["protocols"]["strict"]["overall"]
    assert results["headline"]["overall_strict"] == strict
    released = results["metrics"]["released"]
    right = sum(1 for r in rows if r["result"])
    assert released["overall"] == round(100 * right / len(rows), 1)
    assert released["labels_compared"] == len(rows)
    assert 0 <= released["label_agreement"] <= 100
    assert results["metrics"]["guess_seed"] == 0


def test_direct_prompt_uses_the_released_rule(tmp_path: Path) -> None:
    rows = [
        {
            "example_id": "ie-1",
            "subset": "ie",
            "entailment_label": False,
            "output": ["Not entailed"],
        },
        {"example_id": "ie-2", "subset": "ie", "entailment_label": True, "output": ["Entailed."]},
    ]
    path = tmp_path / "do.json"
    path.write_text(json.dumps(rows))
    results = score_predictions("findver", path, prompt="direct")
    # the released rule reads "Not entailed" as entailed: wrong on ie-1
    assert results["headline"]["overall"] == 50.0
    # FinProbe's reader reads it as refuted: right on both
    assert results["headline"]["overall_strict"] == 100.0
    strict = score_predictions("findver", path, prompt="direct", protocol="strict")
    assert strict["headline"]["overall"] == 100.0 and strict["metrics"]["protocol"] == "strict"


def _claims(path: Path, n: int) -> Path:
    claims = [
        {
            "example_id": f"ie-{i}",
            "subset": "ie",
            "statement": "s",
            "report": "r.json",
            "entailment_label": i % 2 == 0,
        }  # fmt: skip
        for i in range(n)
    ]
    path.write_text(json.dumps(claims))
    return path


def test_jsonl_with_data_counts_missing_replies_apart(tmp_path: Path) -> None:
    data = _claims(tmp_path / "claims.json", 4)
    preds = jsonl(
        tmp_path / "preds.jsonl",
        {"uid": "ie-0", "output": "Answer: entailed"},
        {"id": "ie-1", "output": "The claim is refuted."},
        {"example_id": "ie-2", "output": "I cannot tell."},
    )
    results = score_predictions("findver", preds, data)
    assert results["samples"] == 4 and results["scored_samples"] == 3
    assert results["missing_replies"] == 1 and results["error_causes"] == {"missing_reply": 1}
    assert "ie-3" in results["error_examples"]["missing_reply"]
    assert results["headline"]["overall_strict"] == pytest.approx(66.67)
    assert results["headline"]["unparseable_rate"] == pytest.approx(33.33)


@pytest.mark.parametrize(
    ("rows", "problem"),
    [
        (
            [{"id": "ie-0", "output": "x"}, {"id": "ie-0", "output": "y"}],
            "two replies for id 'ie-0'",
        ),
        ([{"id": "ie-9", "output": "x"}], "1 replies for ids the data does not have"),
        ([{"id": "ie-0", "reply": "x"}], "has no 'output' field"),
        ([{"output": "x"}], "has no id"),
        ([{"id": "ie-0", "output": ["a", "b"]}], "a list of 2"),
    ],
)
def test_bad_predictions_are_one_line_errors(tmp_path: Path, rows: list, problem: str) -> None:
    data = _claims(tmp_path / "claims.json", 2)
    preds = tmp_path / "preds.jsonl"
    preds.write_text("\n".join(json.dumps(r) for r in rows))
    with pytest.raises(InputError, match=problem):
        score_predictions("findver", preds, data)


def test_cli_error_exit_2(tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"id": "x", "output": "entailed"}))
    run = finprobe("score", "findver", "--predictions", str(preds))
    assert run.returncode == 2 and "entailment_label" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_finauditing_finsm_reference_and_lenient(tmp_path: Path) -> None:
    data = tmp_path / "finsm.jsonl"
    data.write_text(
        "\n".join(
            json.dumps({"id": f"q{i}", "query": "q", "answer": gold})
            for i, gold in enumerate((["us-gaap:Cash"], ["us-gaap:Goodwill"]))
        )
    )
    preds = jsonl(
        tmp_path / "preds.jsonl",
        {"id": "q0", "output": '["us-gaap:Cash"]'},
        {"id": "q1", "output": "It is us-gaap:Goodwill."},
    )
    results = score_predictions("finauditing", preds, data, task="finsm")
    assert results["headline"]["HR@1"] == 50.0  # prose is no list for the notebook
    assert results["metrics"]["protocols"]["lenient"]["HR@1"] == 100.0
    lenient = score_predictions("finauditing", preds, data, task="finsm", protocol="lenient")
    assert lenient["headline"]["HR@1"] == 100.0
    with pytest.raises(InputError, match="--protocol 'strict'"):
        score_predictions("finauditing", preds, data, task="finsm", protocol="strict")


def test_finauditing_finmr_and_finre(tmp_path: Path) -> None:
    finmr = tmp_path / "finmr.jsonl"
    finmr.write_text(
        json.dumps({"id": "m0", "query": "q",
                    "answer": json.dumps({"extracted_value": "100", "calculated_value": "200"})})
    )  # fmt: skip
    preds = tmp_path / "m.jsonl"
    preds.write_text(
        json.dumps({"id": "m0", "output": '{"extracted_value": "1e2", "calculated_value": 200}'})
    )
    results = score_predictions("finauditing", preds, finmr, task="finmr")
    assert results["headline"]["accuracy"] == 100.0
    finre = tmp_path / "finre.jsonl"
    finre.write_text(
        json.dumps({"id": "r0", "query": "q", "choices": ["Reversal", "Inappropriateness",
                    "CombinationErr"], "gold": 0})
    )  # fmt: skip
    preds.write_text(json.dumps({"id": "r0", "output": "Answer: Reversal"}))
    results = score_predictions("finauditing", preds, finre, task="finre")
    assert results["headline"]["accuracy"] == 100.0
    with pytest.raises(InputError, match="--task"):
        score_predictions("finauditing", preds, finre)


def test_faith_replies_scored_like_eval(tmp_path: Path) -> None:
    tiny = Path(__file__).parent / "data" / "faith_tiny.json"
    instances = json.loads(tiny.read_text())[0]["instances"]
    preds = tmp_path / "faith.jsonl"
    rows = [
        {"uid": inst["uid"], "output": json.dumps({"results": {"answer": inst["ground_truth"]}})}
        for inst in instances[:-1]
    ]
    preds.write_text("\n".join(json.dumps(r) for r in rows))
    results = score_predictions("faith", preds, tiny)
    assert results["scored_samples"] == len(instances) - 1 and results["missing_replies"] == 1
    assert results["metrics"]["reference"]["overall"] == 100.0


def test_fined_replies_scored_like_eval(tmp_path: Path) -> None:
    from test_fined_task import GOOD, _dataset

    data = _dataset(tmp_path)
    answer = json.dumps([{"error_type": "Illegal Time", "sentences": [GOOD]}])
    preds = tmp_path / "fined.jsonl"
    preds.write_text(
        "\n".join(
            json.dumps(r) for r in ({"id": "d1", "output": answer}, {"id": "d2", "output": "[]"})
        )
    )
    results = score_predictions("fined", preds, data)
    assert results["scored_samples"] == 2 and results["headline"]
    assert results["headline"]["overall.f1"] == 100.0


def test_compare_published_shows_the_note_on_released_outputs(tmp_path: Path) -> None:
    from finprobe.report import comparison_rows, comparison_table

    path, _ = processed_file(tmp_path / "DeepSeek-V2-Lite-Chat.json", "DeepSeek-V2-Lite-Chat")
    results = score_predictions("findver", path)
    _, _, rows = comparison_rows([results], "findver", True, None, top=20)
    labels = [label for label, _, _ in rows]
    assert "DeepSeek-V2-Lite (published, see note)" in labels
    (table,) = comparison_table([results], published=True)
    assert "IE 64.0 and Math 60.4" in str(table.caption)
    assert "not re-verified here" in str(table.caption)  # a check reported, not a fact


# ----------------------------------------------------------------------------- review of issue 16

DIRECT_ROWS = [
    {"example_id": "ie-1", "subset": "ie", "entailment_label": False, "output": ["Not entailed"]},
    {"example_id": "ie-2", "subset": "ie", "entailment_label": True, "output": ["Entailed."]},
    {"example_id": "ie-3", "subset": "ie", "entailment_label": False, "output": ["The claim is refuted"]},
]  # fmt: skip


def test_prompt_type_read_from_the_path_or_the_replies(tmp_path: Path) -> None:
    folder = tmp_path / "rag" / "processed_do_outputs"
    folder.mkdir(parents=True)
    (folder / "m.json").write_text(json.dumps(DIRECT_ROWS))
    results = score_predictions("findver", folder / "m.json")
    assert results["settings"]["prompt"] == "direct"
    assert "processed_do_outputs" in results["settings"]["prompt_from"]
    assert results["headline"] == score_predictions("findver", folder / "m.json", prompt="direct")["headline"]  # fmt: skip
    assert any(n.startswith("prompt: direct") for n in results["notes"])
    # no telling folder: replies of a few words are direct replies
    (tmp_path / "do.json").write_text(json.dumps(DIRECT_ROWS))
    by_replies = score_predictions("findver", tmp_path / "do.json")
    assert by_replies["settings"]["prompt"] == "direct"
    assert by_replies["settings"]["prompt_from"].startswith("read from the replies: 3 of 3")
    # chains of thought stay cot
    path, _ = processed_file(tmp_path / "cot.json", "Ministral-8B-Instruct-2410")
    assert score_predictions("findver", path)["settings"]["prompt"] == "cot"
    # a prompt given against the path: scored as given, with a loud warning
    forced = score_predictions("findver", folder / "m.json", prompt="cot")
    assert forced["settings"]["prompt"] == "cot"
    assert any(n.startswith("WARNING: --prompt cot given") for n in forced["notes"])


def test_partial_file_is_said_and_marked_beside_the_paper(tmp_path: Path) -> None:
    from finprobe.report import comparison_rows, results_tables

    path, rows = processed_file(tmp_path / "Ministral-8B-Instruct-2410.json", "Ministral-8B-Instruct-2410")  # fmt: skip
    results = score_predictions("findver", path)
    n = len(rows)
    assert results["coverage"] == {
        "samples": n, "published_split": "testmini", "published_samples": 700, "partial": True,
        "note": f"PARTIAL: {n} claims from the file; the published figures cover 700 (testmini): "
        f"these figures are over the {n} only",
    }  # fmt: skip
    assert results["coverage"]["note"] in results["notes"]
    assert results["coverage"]["note"] in str(results_tables(results)[0].columns[1]._cells)
    _, _, compared = comparison_rows([results], "findver", True, None, top=20)
    ours = [label for label, is_ours, _ in compared if is_ours]
    assert ours == [f"{results['model']} (PARTIAL: {n} of 700 samples)"]


def test_released_figures_round_as_evaluation_py(tmp_path: Path) -> None:
    from finprobe.score import released_figures

    for right, n, expected in ((23, 80, 28.7), (147, 240, 61.3)):
        rows = [{"subset": "ie", "result": i < right} for i in range(n)]
        figures = released_figures(rows)
        assert figures is not None and figures["overall"] == expected == figures["IE"]


def test_reference_protocol_is_accepted_where_it_is_the_only_one(tmp_path: Path) -> None:
    tiny = Path(__file__).parent / "data" / "faith_tiny.json"
    instances = json.loads(tiny.read_text())[0]["instances"]
    preds = jsonl(tmp_path / "faith.jsonl", {"uid": instances[0]["uid"], "output": "{}"})
    plain = score_predictions("faith", preds, tiny)
    named = score_predictions("faith", preds, tiny, protocol="reference")
    assert named["headline"] == plain["headline"] and named["settings"]["protocol"] == "reference"
    finre = tmp_path / "finre.jsonl"
    finre.write_text(
        json.dumps({"id": "r0", "query": "q", "choices": ["Reversal", "Inappropriateness",
                    "CombinationErr"], "gold": 0})
    )  # fmt: skip
    preds = jsonl(tmp_path / "r.jsonl", {"id": "r0", "output": "Reversal"})
    results = score_predictions("finauditing", preds, finre, task="finre", protocol="reference")
    assert results["headline"]["accuracy"] == 100.0
    with pytest.raises(InputError, match="only its reference protocol"):
        score_predictions("finauditing", preds, finre, task="finre", protocol="strict")


def test_a_folder_of_predictions_is_a_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a folder"):
        score_predictions("findver", tmp_path)


def test_strict_headline_keeps_the_reference_beside_it(tmp_path: Path) -> None:
    from finprobe.report import _headline_title

    (tmp_path / "do.json").write_text(json.dumps(DIRECT_ROWS[:2]))
    strict = score_predictions("findver", tmp_path / "do.json", prompt="direct", protocol="strict")
    headline = strict["headline"]
    assert headline["overall"] == 100.0 and headline["overall_reference"] == 50.0
    assert "overall_strict" not in headline  # the plain name is the strict figure now
    assert "protocol strict, *_reference: the reference protocol" in _headline_title(strict)
