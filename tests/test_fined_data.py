"""FinED taxonomy, loaders, review sheet round trip, fine-tuning export and the CLI."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.benchmarks.fined.dataset import (
    AnnotatedError,
    FinEDDocument,
    load_dataset,
)
from finprobe.benchmarks.fined.export import finetuning_records, write_jsonl
from finprobe.benchmarks.fined.filter import apply_review, export_review_csv, read_review_csv
from finprobe.benchmarks.fined.taxonomy import (
    CATEGORY_IDS,
    PAPER_SCENE_IDS,
    TAXONOMY,
    guess_scene,
    normalize_subtype,
)
from finprobe.errors import InputError

FINED_DATA = SHARED / "data" / "fined"
REPORTS = SHARED / "data" / "findver" / "reports"


def test_taxonomy_shape() -> None:
    assert len(TAXONOMY.subtypes) == 15 and CATEGORY_IDS == ("GKE", "FKE", "FRE")
    assert [len(TAXONOMY.subtypes_of(c)) for c in CATEGORY_IDS] == [5, 5, 5]
    assert len(PAPER_SCENE_IDS) == 9
    abbrs = {s.abbr for s in TAXONOMY.subtypes}
    assert abbrs == {
        "IT",
        "RS",
        "VFE",
        "NM",
        "NVM",
        "TM",
        "ILR",
        "AE",
        "NUE",
        "OFE",
        "CE",
        "TC",
        "NI",
        "CaE",
        "CC",
    }
    for s in TAXONOMY.subtypes:
        assert (
            normalize_subtype(s.en) == normalize_subtype(s.zh) == normalize_subtype(s.abbr) == s.id
        )


def _released_instruction() -> str:
    path = FINED_DATA / "sft_data_w_errors.json"
    if not path.is_file():
        pytest.skip("shared FinED data not available")
    return json.loads(path.read_text(encoding="utf-8"))[0]["instruction"]


def test_chinese_names_are_those_of_the_released_data() -> None:
    names = re.findall(r"\(\d+\)(\S+?)是指", _released_instruction())
    assert len(names) == 10
    mapped = {n: normalize_subtype(n) for n in names}
    assert None not in mapped.values()
    assert {TAXONOMY.subtype(v).zh for v in mapped.values()} == set(names)
    released = {s.zh for s in TAXONOMY.subtypes if s.zh_source == "released"}
    assert released == set(names)


def test_scene_guess_from_titles() -> None:
    assert guess_scene("中华人民共和国商业银行法") == "legal_document"
    assert guess_scene("电子行业：2024Q1 PCB需求回暖") == "industry_research_report"
    assert guess_scene("西南管道公司2024年B型套筒物资采购项目") == "tender_announcement"
    assert guess_scene("平安产险附加特定药品费用医疗保险（B款）条款") == "insurance_contract"


def test_load_released_finetuning_sets() -> None:
    if not FINED_DATA.is_dir():
        pytest.skip("shared FinED data not available")
    with_err = load_dataset(FINED_DATA / "sft_data_w_errors.json")
    without = load_dataset(FINED_DATA / "sft_data_wo_errors.json")
    assert len(with_err) == 30 and len(without) == 30
    assert all(
        len(d.errors) == 1 and d.errors[0].subtype == "numerical_inconsistency" for d in with_err
    )
    assert all(d.errors[0].start is not None and d.language == "zh" for d in with_err)
    assert all(not d.errors for d in without)


def test_load_released_benchmark_layout(tmp_path: Path) -> None:
    rec = [
        {
            "title": "某公司招标公告",
            "content": "投标截止：5月23日。开标：5月22日。",
            "errors": [
                {
                    "error_text": "开标：5月22日。",
                    "error_type": "时间矛盾错误",
                    "origin_text": "开标：5月23日。",
                }
            ],
        }
    ]
    path = tmp_path / "bench.json"
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    [doc] = load_dataset(path)
    assert doc.scene == "tender_announcement" and doc.errors[0].subtype == "time_contradiction"
    assert doc.errors[0].start == doc.text.index("开标")


@pytest.mark.parametrize(
    ("content", "problem"),
    [("", "file is empty"), ("{not json", "not valid JSON"), ("[]", "non-empty list")],
)
def test_bad_input_is_one_line_input_error(tmp_path: Path, content: str, problem: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=problem):
        load_dataset(path)


def _doc() -> FinEDDocument:
    a = "On April 31, 2024, the Company repaid the loan."
    b = "Revenue increased 5% in 2023 compared to 2024."
    text = f"Intro sentence here. {a} Middle text. {b} End."
    return FinEDDocument(
        "d1",
        text,
        "annual_report",
        "en",
        [
            AnnotatedError(
                a, "illegal_time", "On April 30, 2024, the Company repaid the loan.", text.index(a)
            ),
            AnnotatedError(
                b,
                "time_contradiction",
                "Revenue increased 5% in 2023 compared to 2022.",
                text.index(b),
            ),
        ],
    )


def test_review_sheet_round_trip(tmp_path: Path) -> None:
    docs = [_doc()]
    sheet = export_review_csv(docs, tmp_path / "review.csv")
    rows = list(csv.DictReader(sheet.open(encoding="utf-8-sig")))
    assert [r["subtype"] for r in rows] == ["illegal_time", "time_contradiction"]
    rows[0]["decision"] = "reject"
    rows[1]["decision"] = "accept"
    with sheet.open("w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    reviewed, stats = apply_review(docs, read_review_csv(sheet))
    doc = reviewed[0]
    assert stats["rejected"] == 1 and stats["accepted"] == 1
    assert (
        "April 30, 2024" in doc.text and "April 31" not in doc.text
    )  # the rejected error is undone
    [kept] = doc.errors
    assert doc.text[kept.start : kept.start + len(kept.sentence)] == kept.sentence


def test_review_sheet_rejects_unknown_decisions(tmp_path: Path) -> None:
    sheet = tmp_path / "r.csv"
    sheet.write_text("doc_id,error_index,decision\nd1,0,maybe\n", encoding="utf-8")
    with pytest.raises(InputError, match="not accept/reject"):
        read_review_csv(sheet)


def test_finetuning_export_chat_format(tmp_path: Path) -> None:
    docs = [_doc()]
    docs[0].text += (
        "\n" + "A clean paragraph about operations and store openings in many regions. " * 4
    )
    records = finetuning_records(docs)
    path = write_jsonl(records, tmp_path / "sft.jsonl")
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    assert [m["role"] for m in lines[0]["messages"]] == ["system", "user", "assistant"]
    assert {r["error_type"] for r in lines} == {"illegal_time", "time_contradiction", None}
    for r in lines:
        if r["error_type"]:
            assert (
                r["span"] in r["messages"][1]["content"]
                and r["span"] in r["messages"][2]["content"]
            )
            assert r["reasoning"]
        else:
            assert r["messages"][2]["content"].endswith("[]")


def test_finetuning_export_of_released_samples() -> None:
    if not FINED_DATA.is_dir():
        pytest.skip("shared FinED data not available")
    recs = finetuning_records(load_dataset(FINED_DATA / "sft_data_w_errors.json"))
    recs += finetuning_records(load_dataset(FINED_DATA / "sft_data_wo_errors.json"))
    assert len(recs) == 60 and sum(r["error_type"] is None for r in recs) == 30
    assert all(r["reasoning"] for r in recs)
    assert "数值不一致错误" in recs[0]["messages"][2]["content"]


def test_cli_build_and_review_import(tmp_path: Path) -> None:
    files = sorted(REPORTS.glob("*.json.gz"))[:2] if REPORTS.is_dir() else []
    if not files:
        pytest.skip("shared FinDVer reports not available")
    from finprobe.cli import app

    runner = CliRunner()
    out, sheet = tmp_path / "en.json", tmp_path / "review.csv"
    args = ["build", "fined", "--out", str(out), "--review-csv", str(sheet), "--seed", "3"]
    for f in files:
        args += ["--reports", str(f)]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Errors injected per subtype" in res.output and "injected errors" in res.output
    docs = load_dataset(out)
    assert len(docs) == 2 and all(1 <= len(d.errors) <= 4 for d in docs)
    reviewed = tmp_path / "reviewed.json"
    res = runner.invoke(
        app,
        [
            "fined",
            "review-import",
            "--data",
            str(out),
            "--review-csv",
            str(sheet),
            "--out",
            str(reviewed),
            "--drop-undecided",
        ],
    )
    assert res.exit_code == 0, res.output
    assert all(not d.errors for d in load_dataset(reviewed))
    bad = runner.invoke(
        app, ["build", "fined", "--reports", str(tmp_path / "nope"), "--out", str(out)]
    )
    assert bad.exit_code == 2


_FILING = (
    "Revenue increased 12% to $45.2 million in 2023 from $40.4 million in 2022, driven by "
    "higher volumes.\n"
    "The Company entered into the Credit Agreement on March 3, 2021, which matures on "
    "March 3, 2026.\n"
    "Net cash provided by operating activities was $8.1 million in 2023.\n"
)


def test_build_drops_duplicate_filings_and_limit_counts_distinct(tmp_path: Path) -> None:
    from finprobe.benchmarks.fined.commands import build_dataset

    src = tmp_path / "in"
    src.mkdir()
    (src / "a.txt").write_text(_FILING, encoding="utf-8")
    (src / "b.txt").write_text(_FILING.replace("\n", "\n\n"), encoding="utf-8")  # same text
    (src / "c.txt").write_text(_FILING.replace("Revenue", "Net sales"), encoding="utf-8")
    out = tmp_path / "d.json"
    summary = build_dataset([src], out, limit=2, progress=False, probe=False)
    assert summary["duplicates_dropped"] == 1
    card = json.loads((tmp_path / "d.card.json").read_text(encoding="utf-8"))
    assert card["duplicates_dropped"] == 1
    assert card["duplicate_filings"] == [{"document": "b", "same_as": "a"}]
    # --limit 2 took two distinct filings (a and c), not a and its copy
    assert {d.id for d in load_dataset(out)} <= {"a", "c"}
    assert json.loads(out.read_text(encoding="utf-8"))["meta"]["sources"] == 2


def test_build_drops_the_same_10q_filed_under_two_tickers(tmp_path: Path) -> None:
    twins = [REPORTS / f"{t}-2024-04-30_10-Q.json.gz" for t in ("BAC-PO", "BML-PG")]
    if not all(p.is_file() for p in twins):
        pytest.skip("shared FinDVer reports not available")
    from finprobe.benchmarks.fined.commands import build_dataset

    src = tmp_path / "in"
    src.mkdir()
    for p in twins:  # the same Bank of America 10-Q (same URL), texts 99.9% identical
        (src / p.name).symlink_to(p)
    out = tmp_path / "d.json"
    summary = build_dataset([src], out, progress=False, probe=False)
    assert summary["duplicates_dropped"] == 1
    assert [d.id for d in load_dataset(out)] == ["BAC-PO-2024-04-30_10-Q"]


def test_self_check_reads_each_error_against_its_source_file(tmp_path: Path) -> None:
    """Errors hold against the file they were built from, and fail against another one."""
    from finprobe.benchmarks.fined.dataset import AnnotatedError, FinEDDocument
    from finprobe.benchmarks.fined.selfcheck import self_check

    original = "Revenue was $5.0 million in 2023, up from $4.0 million in 2022."
    edited = "Revenue was $5.0 million in 2023, up from $4.0 million in 2024."
    source = tmp_path / "a.txt"
    source.write_text("Overview.\u200b " + original + "\nOther text follows here.")
    other = tmp_path / "b.txt"
    other.write_text("A different company's report, with nothing in common.")
    text = "Overview. " + edited + " Other text follows here."
    error = AnnotatedError(edited, "time_contradiction", original, text.index(edited))
    doc = FinEDDocument("a", text, "annual_report", "en", [error])

    assert self_check([doc], {"a": source}) == {"checked": 1, "passed": 1, "failures": []}
    swapped = self_check([doc], {"a": other})  # the evidence swapped out
    assert swapped["passed"] == 0
    assert swapped["failures"][0]["why"] == "original sentence not in the source"
    # an "error" the filer had already written is not the builder's
    source.write_text(original + " " + edited)
    assert self_check([doc], {"a": source})["failures"][0]["why"] == (
        "erroneous sentence already in the source"
    )
    moved = AnnotatedError(edited, "time_contradiction", original, 0)
    bad_offset = FinEDDocument("a", text, "annual_report", "en", [moved])
    assert self_check([bad_offset], {"a": other})["failures"][0]["why"] == (
        "not at its offset in the document"
    )
