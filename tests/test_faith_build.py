"""FAITH builder: MD&A corpus, span selection, derivation finder, panel, CLI."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
import typer
from shared_data import SHARED
from typer.testing import CliRunner

from finprobe.benchmarks.faith.build import (
    DerivationIndex,
    agreement_with_pilot,
    build_from_paths,
    build_instances,
    find_derivation,
    mask_spans,
    mdna_corpus,
    panel_answerability,
    span_ground_truth,
    supports,
    synthetic_dataset,
)
from finprobe.benchmarks.faith.commands import register
from finprobe.benchmarks.faith.dataset import load_faith_reports
from finprobe.document import FinancialDocument, Paragraph, Table, load_html
from finprobe.errors import InputError
from finprobe.numbers import parse_number, precision_relaxed_match

PILOT = SHARED / "data" / "faith" / "pilot-dev.json"
REPORTS = SHARED / "data" / "findver" / "reports"

RESULTS = Table(
    id="t0",
    cells=[
        ["", "2023", "2022"],
        ["Revenue", "817,880", "700,000"],
        ["Cost of revenue", "(500,000)", "(450,000)"],
        ["Gross profit", "317,880", "250,000"],
        ["Operating margin", "12.5%", "10.1%"],
    ],
    pre_text="The following table summarizes our results (in thousands):",
)

HTML_10K = """<html><body>
<p>Item 6. [Reserved]</p>
<p>Item 7. Management's Discussion and Analysis of Financial Condition and Results of Operations</p>
<p>Overview</p>
<p>We sell widgets in North America. Our results improved in 2023 as demand for widgets rose across
all regions and our pricing held steady through the year despite higher input costs.</p>
<p>The following table summarizes our results (in thousands):</p>
<table>
<tr><td></td><td>2023</td><td>2022</td></tr>
<tr><td>Revenue</td><td>817,880</td><td>700,000</td></tr>
<tr><td>Cost of revenue</td><td>(500,000)</td><td>(450,000)</td></tr>
<tr><td>Gross profit</td><td>317,880</td><td>250,000</td></tr>
</table>
<p>Revenue was $817.9 million in 2023, an increase of $117.9 million, or 16.8%, compared with 2022.
Gross profit was $317.9 million in 2023. We employed 1,200 employees at year end, and you can call
us at (800) 555-1234. Our headquarters lease runs for three years.</p>
<p>Item 7A. Quantitative and Qualitative Disclosures About Market Risk</p>
<p>We are exposed to interest rate risk on our borrowings and we manage it with swaps.</p>
</body></html>"""


def _doc() -> FinancialDocument:
    return load_html(HTML_10K)


# -- corpus and spans -------------------------------------------------------


def test_mdna_corpus_takes_sentence_before_table_as_pre_text():
    corpus = mdna_corpus(_doc())
    assert corpus is not None
    assert len(corpus.tables) == 1
    table = corpus.tables[0]
    assert table.pre_text.startswith("The following table summarizes our results")
    assert table.scale == Decimal(1000)
    # the pre-text left the sentence corpus; Item 7A text is not MD&A
    assert not any("following table" in s for s in corpus.sentences)
    assert not any("interest rate risk" in s for s in corpus.sentences)
    assert any(s.startswith("Revenue was $817.9 million") for s in corpus.sentences)


def test_mdna_corpus_none_without_item_7():
    doc = FinancialDocument(id="x", blocks=[Paragraph(id="p0", text="Item 1. Business. " * 40)])
    assert mdna_corpus(doc) is None


def test_mask_spans_keeps_amounts_and_skips_noise():
    sentence = (
        "In 2023 revenue rose $117.9 million, or 16.8%, to 55.5 MMBOE for Note 5 on "
        "December 31, 2023; call (800) 555-1234; we have 12 offices and three years left."
    )
    texts = [s.text for s in mask_spans(sentence)]
    assert texts == ["$117.9 million", "16.8%", "55.5 MMBOE"]


def test_a_parenthesised_figure_in_prose_is_an_aside_not_a_negative():
    sentence = "Revenue was $1.2 billion, an increase of $6 million (4%), and margin was (5)%."
    spans = mask_spans(sentence)
    assert [(s.text, span_ground_truth(s)) for s in spans] == [
        ("$1.2 billion", "$1,200,000,000"), ("$6 million", "$6,000,000"), ("4%", "4%"),
        ("(5)%", "-5%"),  # written negative inside the figure: kept as written
    ]  # fmt: skip
    four = spans[2]
    assert sentence[four.start - 1 : four.end + 1] == "(4%)"  # the parentheses stay outside


def test_mask_spans_spacy_without_model_is_input_error():
    try:
        import spacy  # noqa: F401

        pytest.skip("spaCy installed: the error path is not reachable")
    except ImportError:
        pass
    with pytest.raises(InputError, match="spaCy"):
        mask_spans("Revenue was $5.0 million.", "spacy")


# -- derivation finder ------------------------------------------------------


@pytest.mark.parametrize(
    ("span", "sentence", "kind", "scenario", "value"),
    [
        ("$817.9 million", "Revenue was $817.9 million in 2023.", "lookup", "A", "$817,880,000"),
        ("$117.9 million", "Revenue increased $117.9 million in 2023 compared with 2022.",
         "change", "B", "$117,880,000"),
        ("16.8%", "Revenue increased 16.8% in 2023 compared with 2022.", "pct_change", "B",
         "16.84%"),
        ("38.9%", "Gross profit was 38.9% of revenue in 2023.", "share", "C", "38.866337%"),
        ("2.4 percentage points", "Operating margin rose 2.4 percentage points in 2023.",
         "pp_change", "B", "2.4%"),
    ],
)  # fmt: skip
def test_find_derivation_kinds(span, sentence, kind, scenario, value):
    found = find_derivation(span, [RESULTS], sentence)
    assert found is not None
    assert (found.kind, found.scenario) == (kind, scenario)
    assert found.text == value
    assert precision_relaxed_match(span, found.text).numeric


def test_find_derivation_change_of_ratio_is_scenario_d():
    table = Table(
        id="t0",
        cells=[
            ["", "2023", "2022"],
            ["Revenue", "1,000", "800"],
            ["Operating income", "150", "100"],
        ],
        pre_text="(in millions)",
    )
    # 150/1000 - 100/800 = 15% - 12.5% = 2.5 points
    found = find_derivation(
        "2.5%", [table], "Operating income as a share of revenue rose 2.5% in 2023 from 2022."
    )
    assert found is not None and (found.kind, found.scenario) == ("ratio_change", "D")


def test_find_derivation_rejects_unrelated_and_wrong_unit():
    assert find_derivation("$999.9 million", [RESULTS], "Revenue was $999.9 million.") is None
    # 817,880 thousand is money; a percent span must not match it
    assert find_derivation("817.9%", [RESULTS], "Revenue was 817.9%.") is None
    assert find_derivation("$0", [RESULTS], "Other income was $0.") is None


def test_a_cell_supports_a_span_only_when_it_rounds_to_it():
    # the sentence rounds the table; an integer cell's trailing zeros are exact digits
    assert supports(Decimal("13E6"), Decimal("1E6"), Decimal("13_240_000"))
    assert not supports(Decimal("13E6"), Decimal("1E6"), Decimal("10_000_000"))
    assert not supports(Decimal("1453E6"), Decimal("1E6"), Decimal("1_500_000_000"))
    assert not supports(Decimal("0.454"), Decimal("0.001"), Decimal("0.50"))
    assert supports(Decimal("0.34"), Decimal("0.01"), Decimal("0.34291498"))
    table = Table(
        id="t0",
        cells=[["(in millions)", "2023", "2022"], ["Sale proceeds", "14", "10"]],
        pre_text="Cash flows (in millions).",
    )
    sentence = "Sale proceeds were $13 million in 2023."
    assert find_derivation("$13 million", [table], sentence) is None


def test_derivation_needs_the_metric_the_period_and_the_role():
    # the preferred-stock cell "102" is no evidence for "$102 million of sale proceeds"
    table = Table(
        id="t0",
        cells=[["(in millions)", "2023", "2022"], ["Preferred stock", "102", "98"]],
        pre_text="Equity (in millions).",
    )
    assert (
        find_derivation("$102 million", [table], "We received $102 million of sale proceeds.")
        is None
    )
    named = "Preferred stock was $102 million in 2023."
    assert find_derivation("$102 million", [table], named).kind == "lookup"
    # the wrong period: the 2023 cell does not support a 2022 figure
    assert (
        find_derivation("$102 million", [table], "Preferred stock was $102 million in 2022.")
        is None
    )
    # "increased [MASK]" is a change, never a level that happens to equal it
    rose = "Preferred stock increased $4 million in 2023 compared with 2022."
    assert find_derivation("$4 million", [table], rose).kind == "change"
    level = "Preferred stock of $4 million was issued to employees."
    assert find_derivation("$4 million", [table], level) is None


def test_derivation_index_is_reused_and_bounded():
    big = Table(
        id="t1",
        cells=[["", "2023", "2022"]]
        + [[f"Item {i}", str(1000 + i), str(900 + i)] for i in range(200)],
    )
    index = DerivationIndex([RESULTS, big], max_pairs_per_column=60)
    # column pairs are capped: 60*59/2 sums and 60*59 ratios per column at most
    assert len(index) < 20_000
    assert find_derivation("$817.9 million", index, "Revenue was $817.9 million.").kind == "lookup"


# -- instances --------------------------------------------------------------


def test_build_instances_writes_faith_records():
    record = build_instances(_doc(), report_id="acme-2023", filing_date="2024-02-01")
    assert record["metadata"]["filing_date"] == "2024-02-01"
    assert len(record["tables"]) == 1
    by_span = {i["span_text"]: i for i in record["instances"]}
    assert set(by_span) >= {"$817.9 million", "$117.9 million", "16.8%", "$317.9 million"}
    assert "(800) 555-1234" not in " ".join(by_span) and "three years" not in by_span
    revenue = by_span["$817.9 million"]
    # the sentence's span, scaled: never the table's 817,880 (thousands)
    assert revenue["ground_truth"] == "$817,900,000"
    assert revenue["derivation"]["cells"][0]["text"] in ("817,880", "$817,880", "$ 817,880")
    assert revenue["mask_type"] == "A" and revenue["answerable_by"] == {"derivation": True}
    s, e = revenue["mask_span"]
    assert revenue["sentence"][s:e] == "$817.9 million"
    assert (
        revenue["masked_sentence"] == revenue["sentence"][:s] + "[MASK]" + revenue["sentence"][e:]
    )
    assert by_span["16.8%"]["mask_type"] == "B" and by_span["16.8%"]["ground_truth"] == "16.8%"
    employees = by_span["1,200 employees"]
    assert employees["mask_type"] is None and employees["answerable_by"]["derivation"] is False
    # deterministic uids
    again = build_instances(_doc(), report_id="acme-2023")
    assert [i["uid"] for i in again["instances"]] == [i["uid"] for i in record["instances"]]
    assert len({i["uid"] for i in record["instances"]}) == len(record["instances"])


def test_build_instances_max_sentences_and_errors():
    record = build_instances(_doc(), report_id="acme", max_sentences=1, answerability="none")
    assert len({i["sentence"] for i in record["instances"]}) == 1
    assert all(i["mask_type"] is None and i["answerable_by"] == {} for i in record["instances"])
    with pytest.raises(InputError):
        build_instances(_doc(), report_id="acme", answerability="panel")


# -- panel ------------------------------------------------------------------


def _mock(replies: list[str]):
    from inspect_ai.model import get_model

    from finprobe.runner import mock_output

    return get_model("mockllm/model", custom_outputs=[mock_output(reply) for reply in replies])


def test_panel_answerability_unanimity():
    record = build_instances(_doc(), report_id="acme", answerability="none")
    record["instances"] = [i for i in record["instances"] if i["span_text"] == "$317.9 million"]
    assert len(record["instances"]) == 1
    yes = '```json\n{"reasoning": "lookup", "spans": {"$317.9 million": "answerable"}}\n```'
    no = '{"reasoning": "none", "spans": {"$317.9 million": "unanswerable"}}'
    labels = panel_answerability(record, [_mock([yes]), _mock([no])])
    uid = record["instances"][0]["uid"]
    assert sorted(labels[uid].values()) == ["answerable", "unanswerable"]
    labels = panel_answerability(record, [_mock([yes]), _mock(["no json here"])])
    assert None in labels[uid].values()


# -- files and CLI ----------------------------------------------------------


def test_build_from_paths_and_cli(tmp_path):
    src = tmp_path / "acme-10-K.html"
    src.write_text(HTML_10K)
    (tmp_path / "acme-10-Q.html").write_text(HTML_10K.replace("Item 7.", "Item 2."))
    out = tmp_path / "faith.json"
    summary = build_from_paths([tmp_path], out, progress=False)
    assert summary["reports"] == 1 and summary["skipped_10q"] == ["acme-10-Q.html"]
    # by default only answerable spans are written
    assert summary["instances"] == summary["answerable"]["derivation"] >= 4
    reports = load_faith_reports(out)  # the lead's loader reads what we wrote
    assert reports[0].instances[0].ground_truth
    assert {i.answerability() for i in reports[0].instances} == {"answerable"}
    kept = tmp_path / "kept.json"
    summary = build_from_paths([src], kept, keep_unanswerable=True, progress=False)
    marked = {i.answerability() for i in load_faith_reports(kept)[0].instances}
    assert marked == {"answerable", "unanswerable"}  # "1,200 employees" has no derivation
    with pytest.raises(InputError, match="keep-unanswerable"):
        build_from_paths([src], kept, answerability="none", progress=False)
    build_from_paths([src], kept, answerability="none", keep_unanswerable=True, progress=False)
    assert {i.answerability() for i in load_faith_reports(kept)[0].instances} == {"unlabelled"}

    app, build = typer.Typer(), typer.Typer()
    app.add_typer(build, name="build")
    register(build, app)
    runner = CliRunner()
    cli_out = tmp_path / "cli.json"
    result = runner.invoke(app, ["build", "faith", str(src), "--out", str(cli_out)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(cli_out.read_text())[0]["instances"]) == 4  # answerable only
    bad = runner.invoke(app, ["build", "faith", str(tmp_path / "missing"), "--out", str(cli_out)])
    assert bad.exit_code == 2
    bad = runner.invoke(app, ["build", "faith", str(src), "--out", str(cli_out), "--spans", "x"])
    assert bad.exit_code == 2


def test_the_same_filing_under_two_names_is_built_once(tmp_path):
    src = tmp_path / "in"
    src.mkdir()
    (src / "acme-10-K.html").write_text(HTML_10K)
    # a copy under another ticker, its lines wrapped differently
    (src / "acmew-10-K.html").write_text(HTML_10K.replace(" ", "\n  ", 3))
    (src / "other-10-K.html").write_text(HTML_10K.replace("widgets", "gadgets"))
    out = tmp_path / "faith.json"
    summary = build_from_paths([src], out, progress=False)
    assert summary["skipped_duplicates"] == [("acmew-10-K.html", "acme-10-K.html")]
    assert summary["reports"] == 2
    ids = [r["metadata"]["report_id"] for r in json.loads(out.read_text())]
    assert ids == ["acme-10-K", "other-10-K"]
    # --limit counts filings built: the copy in between does not use up one of the two
    summary = build_from_paths([src], out, limit=2, progress=False)
    assert summary["reports"] == 2 and len(summary["skipped_duplicates"]) == 1
    assert build_from_paths([src], out, limit=1, progress=False)["skipped_duplicates"] == []

    app, build = typer.Typer(), typer.Typer()
    app.add_typer(build, name="build")
    register(build, app)
    result = CliRunner().invoke(app, ["build", "faith", str(src), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert (
        "skipped acmew-10-K.html: the same filing (URL or text) as acme-10-K.html" in result.output
    )


def test_synthetic_dataset(tmp_path, monkeypatch):
    monkeypatch.setenv("FINPROBE_HOME", str(tmp_path))
    path = synthetic_dataset(n_reports=2, seed=1)
    assert path == tmp_path / "faith-synthetic-1-n2.json"
    reports = load_faith_reports(path)
    assert len(reports) == 2
    for report in reports:
        assert report.instances
        for inst in report.instances:
            assert inst.mask_type in {"A", "B", "C", "D"}
            assert precision_relaxed_match(inst.ground_truth, inst.span_text).numeric
            # the span itself, scaled ("$25.8 million" -> "$25,800,000"), never the table cell
            assert parse_number(inst.ground_truth).value == parse_number(inst.span_text).value


# -- real data --------------------------------------------------------------


@pytest.mark.skipif(not PILOT.exists(), reason="shared data absent")
def test_agreement_with_pilot_and_swapped_tables_negative():
    result = agreement_with_pilot(PILOT)
    assert result["instances"] == 160 and result["unanimous"] == 148
    assert result["agreement_rate"] >= 0.85
    assert result["value_match_rate"] > 0.95
    assert result["scenario_confusion"].get("A|A", 0) > 100
    # report i with report i+1's tables: a derivation found there is a coincidence
    assert result["swapped_found_rate"] <= 0.01


@pytest.mark.skipif(not REPORTS.exists(), reason="shared data absent")
def test_build_on_a_real_findver_10k(tmp_path):
    from finprobe.document import load_findver_report

    doc = load_findver_report(REPORTS / "ACRS-2024-02-27_10-K.json.gz")
    record = build_instances(doc, report_id="ACRS")
    assert record["metadata"]["has_mdna"] and record["tables"]
    assert record["instances"]
    for inst in record["instances"]:
        s, e = inst["mask_span"]
        assert inst["sentence"][s:e] == inst["span_text"]
        assert precision_relaxed_match(inst["ground_truth"], inst["span_text"]).numeric


def test_build_writes_a_data_card_and_show_prints_the_derivation(tmp_path):
    from finprobe.benchmarks.faith.card import data_card, self_check

    src = tmp_path / "acme-10-K.html"
    src.write_text(HTML_10K)
    out = tmp_path / "faith.json"
    summary = build_from_paths([src], out, progress=False)
    card = json.loads(Path(summary["card"]).read_text())
    assert card["instances"] == summary["instances"] >= 4
    assert card["self_check"]["cells_from_source"] is True
    assert card["self_check"]["passed"] == card["instances"] and not card["self_check"]["failed"]
    assert card["by_scenario"]["A"] >= 2 and "lookup" in card["by_kind"]
    assert 0 <= card["sentence_only_probe"]["rate"] <= 1
    # the self-check is not a rubber stamp: a tampered cell or ground truth fails it
    records = json.loads(out.read_text())
    inst = next(i for i in records[0]["instances"] if i["span_text"] == "$817.9 million")
    tables = {t["table_index"]: t for t in records[0]["tables"]}
    assert self_check(inst, tables) is None
    cell = inst["derivation"]["cells"][0]
    tables[cell["table_index"]]["cells"][cell["row"]][cell["col"]] = "717,880"
    assert "reads '717,880'" in self_check(inst, tables)
    wrong = dict(inst, ground_truth="$817,880,000")  # a table value is not the span
    assert "is not the span" in self_check(
        wrong, {t["table_index"]: t for t in records[0]["tables"]}
    )
    fresh = json.loads(out.read_text())
    assert data_card(fresh)["self_check"]["passed"] == card["instances"]
    assert data_card(records)["self_check"]["failed"]  # the tampered cell is caught

    app, build = typer.Typer(), typer.Typer()
    app.add_typer(build, name="build")
    register(build, app)
    shown = CliRunner().invoke(app, ["faith", "show", str(out), inst["uid"][:12]])
    assert shown.exit_code == 0, shown.output
    assert "[[$817.9 million]]" in shown.output and "Revenue was [MASK]" in shown.output
    assert "lookup" in shown.output and "row 'Revenue'" in shown.output
    missing = CliRunner().invoke(app, ["faith", "show", str(out), "no-such-uid"])
    assert missing.exit_code == 2


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Revenue was $817.9 million.", "$817,900,000"),
        ("Sales rose 34 percent.", "34%"),
        ("A loss of $(5.2) million.", "-$5,200,000"),
        ("Proved reserves were 55.5 MMBOE.", "55.5 MMBOE"),
        ("Costs were $13.0 million.", "$13,000,000"),
        (
            "We sold 12.5 million barrels.",
            "12,500,000",
        ),  # the released scorer cannot read "barrels"
    ],
)
def test_ground_truth_is_the_span_scaled(sentence, expected):
    from finprobe.benchmarks.faith.build import span_ground_truth

    (span,) = mask_spans(sentence)
    assert span_ground_truth(span) == expected


@pytest.mark.skipif(not PILOT.exists(), reason="shared data absent")
def test_agreement_cli_prints_the_swapped_tables_rate():
    app, build = typer.Typer(), typer.Typer()
    app.add_typer(build, name="build")
    register(build, app)
    result = CliRunner().invoke(app, ["faith", "agreement", str(PILOT), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["swapped_found_rate"] <= 0.01 and figures["agreement_rate"] >= 0.85
    table = CliRunner().invoke(app, ["faith", "agreement", str(PILOT)])
    assert "swapped found rate" in table.output


# Audited cases (issue-10 audit): a lookup's row must also give the other period's figure
# the sentence pairs with the blank.
_CASH = Table(
    id="t0",
    cells=[
        ["", "Years ended December 31, 2023", "Years ended December 31, 2022"],
        ["Net cash provided by financing activities", "5,928", "38,267"],
    ],
    pre_text="Consolidated cash flows by type of activity are noted below (in thousands):",
)
_HOTEL = Table(
    id="t0",
    cells=[
        [
            "",
            "Year Ended December 31, 2023",
            "Year Ended December 31, 2022",
            "Year Ended December 31, 2021",
        ],
        ["Interest expense", "17,588,091", "19,772,802", "22,686,694"],
        ["Depreciation and amortization - real estate", "18,735,804", "18,593,359", "19,838,017"],
    ],
    pre_text="The following is a reconciliation of net loss to Hotel EBITDA.",
)


def test_a_lookup_row_must_give_the_companion_figure_too():
    # FTK: financing cash 2023 = 5,928 "is" $5.9 million, but 2022 = 38,267 is not $12.3 million
    ftk = (
        "As of December 31, 2023, the Company had unrestricted cash and cash equivalents of "
        "$5.9 million, as compared to $12.3 million at December 31, 2022."
    )
    assert find_derivation("$5.9 million", [_CASH], ftk) is None
    # the same row with the right companion is kept
    named = ftk.replace(
        "unrestricted cash and cash equivalents", "net cash provided by financing activities"
    ).replace("$12.3", "$38.3")
    assert find_derivation("$5.9 million", [_CASH], named).kind == "lookup"
    # "respectively": the blank's own group only (AESE: financing 2022 is (611), not $4.1M)
    flows = Table(
        id="t0",
        cells=[
            ["", "For the Years Ended December 31, 2023", "For the Years Ended December 31, 2022"],
            ["Financing activities", "$7,147", "$(611)"],
        ],
        pre_text="The table below summarizes cash flows (in thousands).",
    )
    aese = (
        "During the years ended December 31, 2023 and 2022, net losses were $3.6 million and "
        "$10.8 million, respectively, and approximately $7.1 million and $4.1 million, "
        "respectively, of cash was used in financing activities."
    )
    assert find_derivation("$7.1 million", [flows], aese) is None
    assert find_derivation("$7.1 million", [flows], aese.replace("$4.1", "$0.6")).kind == "lookup"
    # SOHOO: interest expense 2021 = 22,686,694 is not "rooms expense of $22.7 million" when
    # 2022's $25.8 million is not interest expense 2022 (19,772,802)
    rooms = (
        "Rooms expense for the year ended December 31, 2022 increased approximately $3.1 million, "
        "or 13.6%, to approximately $25.8 million compared to rooms expense of approximately "
        "$22.7 million for the year ended December 31, 2021."
    )
    mask = rooms.index("$22.7 million")
    found = find_derivation(
        "$22.7 million", [_HOTEL], rooms, mask=(mask, mask + len("$22.7 million"))
    )
    assert found is None
    # SOHOO: the "- real estate" sub-row gives $19.8 million for 2021, not the sentence's $19.9
    dna = (
        "Depreciation and amortization for the year ended December 31, 2022 decreased by "
        "approximately $1.3 million or 6.3%, to approximately $18.6 million, compared to "
        "depreciation and amortization expense of approximately $19.9 million for the year "
        "ended December 31, 2021."
    )
    mask = dna.index("$18.6 million")
    assert find_derivation("$18.6 million", [_HOTEL], dna, mask=(mask, mask + 13)) is None


def test_a_row_qualifier_the_sentence_does_not_name_rejects_a_lookup():
    # SOHOO: one shared word ("expense") is no evidence when the row is interest expense
    rooms = "Rooms expense was approximately $22.7 million for the year ended December 31, 2021."
    assert find_derivation("$22.7 million", [_HOTEL], rooms) is None
    interest = rooms.replace("Rooms expense", "Interest expense")
    assert find_derivation("$22.7 million", [_HOTEL], interest).kind == "lookup"
    # "cash used in operations" names operating activities, never the financing section
    flows = Table(
        id="t0",
        cells=[
            ["", "2023", "2022"],
            ["Net cash used in operating activities", "(8,112)", "(10,904)"],
            ["Net cash provided by financing activities", "7,147", "(611)"],
        ],
        pre_text="Cash flows (in thousands):",
    )
    used = "In 2023 we used cash in operations of $8.1 million."
    assert find_derivation("$8.1 million", [flows], used).kind == "lookup"
    funded = "In 2023, $7.1 million of cash was used to fund changes in operating assets."
    assert find_derivation("$7.1 million", [flows], funded) is None


def test_the_sign_flip_is_written_into_the_formula_and_self_checked():
    from finprobe.benchmarks.faith.card import self_check

    # FTK: "Loss from operations ... decreased by $2.0 million, or 11%": (-15,767 - -17,815)
    # / -17,815 is -11.5%; the sentence states the size, so the formula says it negates
    cells = [
        ["", "Years ended December 31, 2023", "Years ended December 31, 2022"],
        ["Loss from operations", "$(15,767)", "$(17,815)"],
    ]
    table = Table(id="t0", cells=cells, pre_text="Results (in thousands):")
    sentence = (
        "Loss from operations for the year ended December 31, 2023 decreased by $2.0 million, "
        "or 11%, compared to the same period of 2022."
    )
    found = find_derivation("11%", [table], sentence)
    assert found.kind == "pct_change" and found.formula.startswith("-(")
    assert "negation" in found.reason
    start = sentence.index("11%")
    instance = {
        "sentence": sentence,
        "mask_span": [start, start + 3],
        "masked_sentence": sentence[:start] + "[MASK]" + sentence[start + 3 :],
        "ground_truth": "11%",
        "answerable": True,
        "derivation": found.to_json(),
    }
    tables = {"0": {"cells": cells, "pre_text": "Results (in thousands):"}}
    assert self_check(instance, tables) is None
    unsigned = dict(instance, derivation=dict(found.to_json(), formula=found.formula[2:-1]))
    assert "negative" in self_check(unsigned, tables)


def test_a_change_after_the_comparison_runs_to_the_newest_year():
    # AESE: the change trails "compared to $0.8 million for 2022" but runs from 2022 to 2023
    table = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Interest income", "2,958", "790"]],
        pre_text="Other income (in thousands):",
    )
    sentence = (
        "Interest income was approximately $3.0 million for the twelve months ended December 31, "
        "2023 compared to approximately $0.8 million for the year ended December 31, 2022, "
        "representing an increase of interest income of approximately $2.2 million, or 274%."
    )
    assert find_derivation("$2.2 million", [table], sentence).kind == "change"
    assert find_derivation("274%", [table], sentence).kind == "pct_change"


def test_cash_used_in_operations_names_operating_activities():
    # AESE: "used cash in operations of $8.1 million and $10.9 million, respectively"
    table = Table(
        id="t0",
        cells=[
            ["", "For the Years Ended December 31, 2023", "For the Years Ended December 31, 2022"],
            ["Operating activities", "$(8,112)", "$(10,904)"],
            ["Financing activities", "$7,147", "$(611)"],
        ],
        pre_text="Cash flows (in thousands):",
    )
    sentence = (
        "For the years ended December 31, 2023 and 2022, we incurred net losses of approximately "
        "$3.7 million and $10.8 million, respectively, and used cash in operations of "
        "approximately $8.1 million and $10.9 million, respectively."
    )
    found = find_derivation("$8.1 million", [table], sentence)
    assert found.cells[0]["row_label"] == "Operating activities"
    assert found.cells[0]["column_label"].endswith("2023")


def test_a_zero_width_space_separates_sentences():
    # CNSL: "partnerships.\u200bDivestitures\u200bOn July 10" glued a heading and a sentence
    doc = _doc()
    glued = (
        "We received cash distributions of $43.0 million from these partnerships.\u200b"
        "Divestitures\u200bOn July 10, 2023, we agreed to sell our data business for $52.0 million."
    )
    at = next(i for i, b in enumerate(doc.blocks) if isinstance(b, Table))
    doc.blocks.insert(at + 2, Paragraph(id="p-zw", text=glued))
    corpus = mdna_corpus(doc)
    assert any(s.startswith("On July 10, 2023, we agreed") for s in corpus.sentences)
    assert not any("Divestitures" in s for s in corpus.sentences)


def test_the_reason_reads_as_english():
    sentence = "Revenue increased from $700.0 million in 2022 to $817.9 million in 2023."
    found = find_derivation("$700.0 million", [RESULTS], sentence)
    assert found.reason.startswith("the blank reads as an older;")


def test_a_companion_is_a_like_amount_and_may_be_cut_not_rounded():
    # SOHOO: the total D&A row gives 2022 = 18,650,336, which the sentence writes $18.6 million
    dna = Table(
        id="t0",
        cells=[
            [
                "",
                "Year Ended December 31, 2023",
                "Year Ended December 31, 2022",
                "Year Ended December 31, 2021",
            ],
            ["Depreciation and amortization", "18,788,748", "18,650,336", "19,909,226"],
        ],
        pre_text="Results of operations.",
    )
    sentence = (
        "Depreciation and amortization for the year ended December 31, 2022 decreased by "
        "approximately $1.3 million or 6.3%, to approximately $18.6 million, compared to "
        "depreciation and amortization expense of approximately $19.9 million for the year "
        "ended December 31, 2021."
    )
    assert find_derivation("$19.9 million", [dna], sentence).kind == "lookup"
    # AESE: "twelve months" and "December 31, 2021" are no companion figures
    income = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Interest income, net", "2,958", "790"]],
        pre_text="Other income (in thousands):",
    )
    aese = (
        "Interest income was approximately $3.0 million for the twelve months ended December 31, "
        "2023 compared to approximately $0.8 million for the year ended December 31, 2022."
    )
    assert find_derivation("$0.8 million", [income], aese).kind == "lookup"


def test_page_headers_and_glued_headings_are_cut_from_a_sentence() -> None:
    from finprobe.benchmarks.faith.build import _clean_sentence

    assert (
        _clean_sentence(
            "COLUMBIA SPORTSWEAR COMPANY | 2023 FORM 10-K | 26 U.S. U.S. operating income"
            " decreased $104.1 million."
        )
        == "U.S. operating income decreased $104.1 million."
    )
    assert (
        _clean_sentence("Gross Profit Gross profit increased by $17.3 million, or 20%.")
        == "Gross profit increased by $17.3 million, or 20%."
    )
    assert _clean_sentence("LAAP LAAP operating income increased.") == (
        "LAAP operating income increased."
    )
    assert _clean_sentence("56 The Specialty operations generated a profit of $212 million.") == (
        "The Specialty operations generated a profit of $212 million."
    )
    assert _clean_sentence(
        "Table of Contents Cost of Revenues Cost of revenues increased by $27.9 million."
    ) == ("Cost of revenues increased by $27.9 million.")
    # sentences that only mention the form, or repeat words later, are kept whole
    for kept in (
        "Our 2023 Form 10-K includes five items.",
        "Net sales were $5.0 million and net sales grew.",
        "Revenue  increased 5%\nin 2023.",
        "2023 was a record year for revenue.",
        "10 customers accounted for 35% of revenue.",
        # a count before a capitalised word is a figure, not a page number
        "15 New stores opened in 2023, bringing the total to 120.",
        "401 Plan contributions were $3.2 million.",
        "3 Months Ended figures show growth.",
    ):
        assert _clean_sentence(kept) == " ".join(kept.split())


# More40 audit (round 6): coincidences the derivation finder accepted.
_CATASTROPHE = Table(
    id="t0",
    cells=[
        [
            "",
            "Three months ended December 31, Amount 2023",
            "Three months ended December 31, Amount 2022",
        ],
        [
            "Current year catastrophe losses including the impact of net reinstatement premiums",
            "4",
            "7",
        ],
    ],
    pre_text="The components of losses are detailed below (dollars in millions):",
)


def test_an_unplaced_comparison_needs_the_other_sides_figure_in_the_row():
    # AFGC: the blank's side of "compared to" names no year the finder can place; the row's
    # other period (4) is not the other side's $5 million, so 7 is a coincidence
    afgc = (
        "Catastrophe losses for this group were $5 million (0.6 points on the combined ratio), "
        "including $2 million in net reinstatement premiums in the fourth quarter of 2023 "
        "compared to catastrophe losses of $7 million (1.0 points), including a $1 million "
        "favorable impact from lower than previously estimated net reinstatement premiums in "
        "the fourth quarter of 2022."
    )
    assert find_derivation("$7 million", [_CATASTROPHE], afgc) is None
    # the same sentence about this row ($4 million on the other side) is kept
    kept = afgc.replace("$5 million", "$4 million")
    assert find_derivation("$7 million", [_CATASTROPHE], kept).kind == "lookup"
    # a per-share blank pairs with the other side's per-share figure, not its net income
    eps = Table(
        id="t0",
        cells=[
            ["", "Year Ended December 31, 2023", "Year Ended December 31, 2022"],
            ["Diluted net income per common share", "6.86", "8.96"],
        ],
        pre_text="Per share data:",
    )
    sentence = (
        "Net income of $817.9 million, or $6.86 per diluted share, compared with net income of "
        "$1.1 billion, or $8.96 per diluted share for 2022."
    )
    assert find_derivation("$6.86", [eps], sentence).kind == "lookup"


def test_a_sum_needs_its_adding_word_beside_the_blank():
    table = Table(
        id="t0",
        cells=[
            ["", "2023", "2022"],
            ["Catastrophe losses", "3", "45"],
            ["Catastrophe losses, reinsurance", "4", "9"],
        ],
        pre_text="Losses (dollars in millions):",
    )
    # "combined ratio" is a metric's name, far from the blank: 3 + 4 is no sum the text states
    far = (
        "Catastrophe losses were $5 million (1.9 points on the combined ratio) in 2022, and "
        "the reinsurance catastrophe losses of $7 million in 2023 were lower."
    )
    assert find_derivation("$7 million", [table], far) is None
    near = (
        "Catastrophe losses and catastrophe losses, reinsurance, combined, were $7 million in 2023."
    )
    assert find_derivation("$7 million", [table], near).kind == "sum"


def test_a_lookup_label_is_named_before_the_next_figures_own_words():
    loans = Table(
        id="t0",
        cells=[["(In thousands)", ""], ["Capitalized Interest", "2,622"]],
        pre_text="The student loan portfolio with activity:",
    )
    # UBFO: "interest" belongs to the $141,000, not to the blank ("the reserve")
    ubfo = (
        "At December 31, 2022, the reserve totaled $2.6 million and $141,000 in accrued "
        "interest was reversed due to charge-offs of $1.3 million."
    )
    assert find_derivation("$2.6 million", [loans], ubfo) is None
    # the blank's own words name the row: kept
    own = (
        "At December 31, 2022, capitalized interest totaled $2.6 million and $141,000 was reversed."
    )
    assert find_derivation("$2.6 million", [loans], own).kind == "lookup"
    # a list of figures by year shares the words after it
    fees = Table(
        id="t0",
        cells=[
            ["", "2023", "2022", "2021"],
            ["Expenses associated with P&C fees", "57", "51", "47"],
        ],
        pre_text="Other expenses (in millions):",
    )
    listed = (
        "Management views this fee income, net of the $57 million in 2023, $51 million in 2022 "
        "and $47 million in 2021, in expenses associated with such fees, as a reduction in cost."
    )
    assert find_derivation("$51 million", [fees], listed).kind == "lookup"


def test_a_later_item_of_a_change_list_is_a_change():
    # FTK: "a decrease in gains on ... of $2.9 million and [MASK], respectively" is a change;
    # the 2022 level (584, with 2023 nil) is no lookup for it
    gains = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Gain on lease termination", "—", "(584)"]],
        pre_text="Consolidated Results of Operations (in thousands)",
    )
    ftk = (
        "SG&A expenses of $0.7 million and a decrease in gains on the sale of assets and lease "
        "termination of $2.9 million and $0.6 million, respectively."
    )
    assert find_derivation("$0.6 million", [gains], ftk) is None
    # the level reading stays where the list is of levels
    level = "Gains on the sale of assets and lease termination were $2.9 million and $0.6 million, respectively, in 2022."
    assert find_derivation("$0.6 million", [gains], level).kind == "lookup"


def test_a_blank_in_a_reason_clause_is_the_causes_figure():
    voice = Table(
        id="t0",
        cells=[["", "% Change 2022"], ["Voice services", "14.7"]],
        pre_text="Operating revenues:",
    )
    # CNSL: the row names the main clause's $12.3 million, not "access lines"
    cnsl = (
        "Voice services revenues decreased $12.3 million during 2022 compared to 2021 primarily "
        "due to a 15% decline in access lines in 2022 compared to 2021."
    )
    assert find_derivation("15%", [voice], cnsl) is None
    # a reason clause that names the row itself is kept
    named = (
        "Operating revenues decreased $12.3 million during 2022 compared to 2021 primarily "
        "due to a 15% decline in voice services in 2022 compared to 2021."
    )
    assert find_derivation("15%", [voice], named).kind == "lookup"


def test_a_row_labels_note_with_figures_names_nothing():
    # PSIX: "Net sales (from related parties $2,449 ... 2023 and 2022, respectively)" is net
    # sales; its note's words must not push the blank's 5% onto another row ("Transportation")
    sales = Table(
        id="t0",
        cells=[
            ["", "2023", "2022", "% Change"],
            [
                "Net sales (from related parties $2,449 and $2,749 for the year ended "
                "December 31, 2023 and 2022, respectively)",
                "$458,973",
                "$481,333",
                "(5)%",
            ],
            ["Transportation", "73,533", "77,173", ""],
        ],
        pre_text="Results of operations (in thousands):",
    )
    psix = (
        "Net sales decreased $22.4 million, or 5%, compared to 2022, as a result of sales "
        "decreases within the industrial and transportation end markets."
    )
    found = find_derivation("5%", [sales], psix)
    assert found.kind == "lookup" and found.cells[0]["row_label"].startswith("Net sales")


def test_a_year_row_label_names_no_metric():
    # a walk table: the years are rows, the metrics columns; "2023" in the sentence does
    # not make the 2023 row's margin the sentence's share of sales (DAN, rest24)
    table = Table(
        id="t0",
        cells=[
            ["", "", "", "Segment"],
            ["", "", "Segment", "EBITDA"],
            ["", "Sales", "EBITDA", "Margin"],
            ["2022", "$4,090", "$158", "3.9%"],
            ["Volume and mix", "(209)", "(16)", ""],
            ["2023", "$4,035", "$212", "5.3%"],
        ],
        pre_text="Segment Results of Operations (2023 versus 2022) (in millions)",
    )
    sentence = (
        "The euro zone countries and India accounted for 50% and 5% of our 2023 non-U.S. sales."
    )
    assert find_derivation("5%", [table], sentence) is None


def test_a_figure_in_parentheses_after_a_change_is_its_percentage_change():
    # AFGC (dev15): "an increase of $4 million ([MASK])" was read as a level, and shares of
    # unrelated lines (15% = realized gains / gain on retirement of debt) "supported" it
    from finprobe.benchmarks.faith.sentence import mask_role

    assert mask_role("Premiums were $31 million, an increase of $4 million (", ").") == "change"
    assert mask_role("Revenue was $27 million (", " of total).") == "level"
    table = Table(
        id="t0",
        cells=[
            ["", "2023", "2022", "% Change"],
            ["Realized gains on securities", "30", "27", "11%"],
            ["Gain on retirement of debt", "200", "180", "11%"],
            ["Net earned premiums", "31", "27", "15%"],
        ],
        pre_text="(in millions)",
    )
    sentence = "Net earned premiums were $31 million in 2023, an increase of $4 million (15%)."
    found = find_derivation("15%", [table], sentence)
    assert found is not None and found.kind in ("lookup", "pct_change"), found
    assert found.cells[0]["row_label"] == "Net earned premiums"


def test_a_percentage_changes_amount_picks_the_row_that_moved_by_it():
    # AFGC (audit 10): the quarter's table also shows 7%, but it moved $109 million, not $446
    quarter = Table(
        id="t0",
        cells=[
            ["", "Three months ended December 31, 2023", "Three months ended December 31, 2022", "% Change"],
            ["Net earned premiums", "1,620", "1,511", "7%"],
            ["Reinsurance premiums ceded", "500", "387", "29%"],
        ],
        pre_text="(in millions)",
    )  # fmt: skip
    year = Table(
        id="t1",
        cells=[
            ["", "Year ended December 31, 2023", "Year ended December 31, 2022", "% Change"],
            ["Net earned premiums", "6,530", "6,084", "7%"],
        ],
        pre_text="(in millions)",
    )  # fmt: skip
    sentence = (
        "Net earned premiums were $6.53 billion in 2023 compared to $6.09 billion in 2022, an"
        " increase of $446 million (7%)."
    )
    found = find_derivation("7%", [quarter, year], sentence)
    assert found is not None and found.cells[0]["table_index"] == "1", found
    # only the quarter's table: no row moved by $446 million, no derivation
    assert find_derivation("7%", [quarter], sentence) is None


def test_a_table_that_states_no_scale_still_moves_by_the_amount():
    # FTK (ten): "$7,502" and "$5,384" are thousands the table never states
    table = Table(
        id="t0",
        cells=[["", "2023", "2022"], ["Revenue from external customers", "$7,502", "$5,384"]],
    )
    sentence = (
        "External customer revenue for 2023 increased $2.1 million, or 39%, compared to 2022."
    )
    found = find_derivation("39%", [table], sentence)
    assert found is not None and found.kind == "pct_change", found


def test_self_check_reads_a_basis_point_cell_in_points():
    # HNI's 10-K: "Gross profit ... increased 360 basis points", the table's cell
    # "360bps" recorded in points (3.6). A basis point is 0.01 of a point, not a scale
    # the table declares; any other value for that cell is still caught.
    from finprobe.benchmarks.faith.card import self_check

    sentence = "Gross profit as a percentage of net sales increased 360 basis points in 2023."
    start = sentence.index("360")
    end = start + len("360 basis points")
    tables = {
        "1": {
            "table_index": "1",
            "pre_text": "",
            "cells": [
                ["As a Percentage of Net Sales:", "", "", ""],
                ["Gross profit", "39.0", "35.4", "360bps"],
            ],
        }
    }

    def instance(value: str) -> dict:
        return {
            "sentence": sentence,
            "mask_span": [start, end],
            "masked_sentence": sentence[:start] + "[MASK]" + sentence[end:],
            "ground_truth": "360 basis points",
            "answerable": True,
            "derivation": {
                "kind": "lookup",
                "formula": "Gross profit",
                "cells": [
                    {"table_index": "1", "row": 1, "col": 3, "text": "360bps", "value": value}
                ],
            },
        }

    assert self_check(instance("3.6"), tables) is None
    assert "not its number at a declared scale" in self_check(instance("0.36"), tables)
    assert "not its number at a declared scale" in self_check(instance("36"), tables)
    assert "does not round to the span" in self_check(instance("360"), tables)


def test_the_report_form_decides_whether_an_unnamed_period_is_a_year() -> None:
    from finprobe.benchmarks.faith.build import annual_report

    assert annual_report("10-K") and annual_report(None) and annual_report("10-K405")
    assert not annual_report("10-Q") and not annual_report("10-q/a")
