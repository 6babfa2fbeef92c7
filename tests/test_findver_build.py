"""`finprobe build findver`: claims from report tables, with evidence and explanations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from finprobe.benchmarks.findver.build import build_dataset
from finprobe.benchmarks.findver.dataset import load_claims, report_passages, report_path
from finprobe.benchmarks.findver.verifier import verify_claim
from finprobe.errors import InputError

SHARED = Path(__file__).resolve().parents[2] / "shared"


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("built") / "claims.json"
    summary = build_dataset([], out, synthetic=2, seed=3)
    return out, summary


def test_synthetic_build_has_both_labels_and_every_kind(synthetic: tuple[Path, dict]) -> None:
    out, summary = synthetic
    rows = json.loads(out.read_text())
    assert summary["claims"] == len(rows) > 10
    assert {r["entailment_label"] for r in rows} == {True, False}
    assert {r["kind"] for r in rows} >= {"lookup", "change", "pct_change"}
    assert all(r["perturbation"] is None for r in rows if r["entailment_label"])
    assert all(r["perturbation"] for r in rows if not r["entailment_label"])


def test_built_claims_load_and_cite_real_tables(synthetic: tuple[Path, dict]) -> None:
    out, _ = synthetic
    claims = load_claims(out)
    for claim in claims:
        passages = {
            p.id: p for p in report_passages(report_path(out.parent / "reports", claim.report))
        }
        [evidence] = claim.relevant_context
        assert passages[evidence].kind == "table"


def test_explanations_follow_the_template(synthetic: tuple[Path, dict]) -> None:
    out, _ = synthetic
    for row in json.loads(out.read_text()):
        text = row["explanation"]
        assert text.startswith("Extracted information:\n1. ")
        assert "\nReasoning:\nStep 1: " in text
        assert text.endswith("entailed" if row["entailment_label"] else "refuted")


def test_verifier_on_built_claims_with_their_evidence(synthetic: tuple[Path, dict]) -> None:
    out, _ = synthetic
    claims = load_claims(out)
    correct = 0
    for claim in claims:
        passages = report_passages(report_path(out.parent / "reports", claim.report))
        evidence = [p for p in passages if p.id in claim.relevant_context]
        correct += (verify_claim(claim.statement, evidence).label == "entailed") == claim.label
    # the table's figures decide every built claim: the verifier should get most right
    assert correct / len(claims) >= 0.8


def test_build_from_real_reports_via_cli(tmp_path: Path) -> None:
    reports = SHARED / "data" / "findver" / "reports"
    if not reports.is_dir():
        pytest.skip("shared FinDVer data not present")
    from finprobe.cli import app

    out = tmp_path / "claims.json"
    result = CliRunner().invoke(
        app, ["build", "findver", "--reports", str(reports), "--limit", "2", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    rows = json.loads(out.read_text())
    assert rows and all((tmp_path / "reports" / f"{r['report']}.gz").is_file() for r in rows)


def test_build_without_inputs_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no reports"):
        build_dataset([], tmp_path / "x.json")
