"""finprobe.document: tables, FinDVer/FAITH/HTML/text loaders, MD&A detection."""

from __future__ import annotations

import gzip
import json
from decimal import Decimal
from pathlib import Path

import pytest
from shared_data import SHARED

from finprobe.document import (
    FinancialDocument,
    Paragraph,
    Table,
    load_document,
    load_faith_report,
    load_findver_report,
    load_html,
    load_text,
    mdna_blocks,
    parse_html_table,
)
from finprobe.errors import InputError

HERE = Path(__file__).resolve().parent
REPORTS = SHARED / "data" / "findver" / "reports"
FAITH = SHARED / "data" / "faith" / "pilot-dev.json"
ACRS = REPORTS / "ACRS-2024-02-27_10-K.json.gz"


def need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data absent: {path}")
    return path


@pytest.fixture(scope="module")
def acrs() -> FinancialDocument:
    return load_findver_report(need(ACRS))


# ---------------------------------------------------------------- Table


GOLDEN = json.loads((HERE / "golden" / "document_tables.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("case", GOLDEN, ids=[c["name"][:40] for c in GOLDEN])
def test_table_golden(case: dict) -> None:
    t = Table(id="t0", cells=case["cells"], pre_text=case["pre_text"])
    assert t.cells == case["expected_cells"]
    assert t.raw_cells == case["cells"]
    assert (t.header_rows, t.header_cols) == (case["header_rows"], case["header_cols"])
    assert t.scale == Decimal(case["scale"])
    assert t.unit_hint == case["unit_hint"]
    for key, want in case["scaled"].items():
        r, c = map(int, key.split(","))
        got = t.scaled_value(r, c)
        assert got == (None if want is None else Decimal(want)), key


def test_table_labels_and_rendering() -> None:
    t = Table(
        id="t1",
        cells=[
            ["", "Three Months Ended", "Three Months Ended"],
            ["", "March 31, 2024", "March 31, 2023"],
            ["Net sales", "1,000", "900"],
            ["Diluted earnings per share", "$1.25", "$1.10"],
        ],
        caption="(In millions, except per share data)",
    )
    assert t.header_rows == 2
    assert t.column_label(1) == "Three Months Ended March 31, 2024"  # colspan value not repeated
    assert t.row_label(3) == "Diluted earnings per share"
    assert t.scaled_value(2, 1) == Decimal("1000000000")
    assert t.scaled_value(3, 1) == Decimal("1.25")  # per-share rows are not scaled
    assert t.number(2, 2).value == Decimal(900)  # number() never applies the table scale
    assert t.to_pipe_text().splitlines()[2] == "Net sales | 1,000 | 900"
    md = t.to_markdown().splitlines()
    assert md[0] == "|  | Three Months Ended March 31, 2024 | Three Months Ended March 31, 2023 |"
    assert md[1] == "|---|---|---|" and md[2] == "| Net sales | 1,000 | 900 |"


def test_table_pads_short_rows_and_keeps_cells_without_normalize() -> None:
    t = Table(id="t", cells=[["a", "b", "c"], ["x"]], normalize=False)
    assert t.cells == [["a", "b", "c"], ["x", "", ""]]


# ---------------------------------------------------------------- FinDVer


def test_findver_metadata_and_ids(acrs: FinancialDocument) -> None:
    m = acrs.metadata
    assert (m["ticker"], m["filing_date"], m["report_type"], m["cik"]) == (
        "ACRS",
        "2024-02-27",
        "10-K",
        "1557746",
    )
    assert m["url"].endswith("acrs-20231231x10k.htm")
    ids = [b.id for b in acrs.blocks]
    assert len(ids) == len(set(ids))
    # one table per html_tables entry, and 17 more: pipe blocks that ran a table (or a
    # bullet list) on after their HTML twin's, cut off as "c<id>.t<k>.<j>"
    assert len([t for t in acrs.tables if t.id.count(".") == 1]) == 48
    assert len(acrs.tables) == 65
    assert acrs.block("c0").source_id == "0"
    # context 1 mixes prose and a pipe table: two parts, same source id
    assert [b.id for b in acrs.blocks_from_source(1)] == ["c1.p0", "c1.t1"]
    assert acrs.block("c0").text.startswith("Item 1. Business\nOverview\nWe are a clinical-stage")
    assert acrs.block("c0").section == "Item 1"
    text = acrs.text()
    assert "\u200b" not in text and "\u00a0" not in text


def test_findver_income_table(acrs: FinancialDocument) -> None:
    t = acrs.block("c73.t0")
    assert isinstance(t, Table)
    assert t.cells == t.html_cells  # aligned with its html_tables twin
    assert t.scale == Decimal(1000) and t.unit_hint == "usd"
    assert t.header_cols == 1 and t.header_rows == 2
    r = next(i for i in range(t.n_rows) if t.row_label(i) == "Contract research")
    assert t.cells[r] == ["Contract research", "$3,035", "$4,395", "$(1,360)"]
    assert t.column_label(1) == "Year Ended December 31, 2023"
    assert t.scaled_value(r, 1) == Decimal(3_035_000)
    assert t.scaled_value(r, 3) == Decimal(-1_360_000)
    other = next(i for i in range(t.n_rows) if t.row_label(i) == "Other")
    assert t.scaled_value(other, 1) == 0  # "—"


def test_findver_html_tables_align_with_pipe_text() -> None:
    doc = load_findver_report(need(REPORTS / "AFGC-2024-02-23_10-K.json.gz"))
    aligned = sum(t.html_cells is not None and t.cells == t.html_cells for t in doc.tables)
    assert aligned / len(doc.tables) > 0.8
    for t in doc.tables:  # every grid is rectangular
        assert len({len(r) for r in t.cells}) <= 1


def test_parse_real_edgar_html_table() -> None:
    data = json.loads(gzip.decompress(need(ACRS).read_bytes()))
    html = data["html_tables"][0]  # the pipeline table: a colspan=5 group row
    t = parse_html_table(html)
    # the source's last row has 5 cells beside 4 rowspans: it overflows into a
    # 6th column, as a browser lays it out
    assert t.n_cols == 6
    assert t.cells[0][:5] == [
        "Drug Candidate / Program",
        "Target",
        "Route of Administration",
        "Indication",
        "Development Phase",
    ]
    assert t.cells[1][:5] == ["Immuno-Inflammatory"] * 5  # colspan repeated across the grid
    assert t.cells[6] == [
        "Zunsemetinib",
        "MK2 inhibitor",
        "Oral",
        "",
        "Phase 1*",
        "Pancreatic cancer",
    ]  # rowspans filled down
    assert (1, 0, 1, 5) in t.spans and (5, 0, 2, 1) in t.spans


def test_findver_claim_evidence_ids_resolve() -> None:
    claims = json.loads(need(SHARED / "data" / "findver" / "testmini-dev.json").read_text())
    claim = next(c for c in claims if c["report"] == "ACRS-2024-02-27_10-K.json")
    doc = load_findver_report(ACRS)
    for cid in claim["relevant_context"]:
        assert doc.blocks_from_source(cid), cid


def test_plain_json_findver(tmp_path: Path) -> None:
    src = {
        "url": "u",
        "report_type": "10-Q",
        "context": [
            {"id": 0, "context": "Hello\u200b world.", "type": "paragraph"},
            {
                "id": 1,
                "context": "Intro line\n| a | 2023 |\n| Revenue | 5 |\nAfter.",
                "type": "table",
            },
        ],
        "html_tables": ["<table><tr><td>x</td></tr></table>"],
    }
    p = tmp_path / "ABC-2024-01-02_10-Q.json"
    p.write_text(json.dumps(src))
    doc = load_document(p)
    assert [b.id for b in doc.blocks] == ["c0", "c1.p0", "c1.t1", "c1.p2"]
    assert doc.block("c0").text == "Hello world."
    t = doc.block("c1.t1")
    assert t.cells == [["a", "2023"], ["Revenue", "5"]] and t.html_cells == [
        ["x"]
    ]  # not aligned: pipe wins
    assert t.pre_text == "Intro line"
    assert doc.metadata["filing_date"] == "2024-01-02"


def _findver_file(tmp_path: Path, pipe_rows: list[str]) -> Path:
    """A one-table FinDVer report whose HTML twin does not match (pipe text wins)."""
    src = {
        "url": "u",
        "report_type": "10-K",
        "context": [{"id": 0, "context": "\n".join(pipe_rows), "type": "table"}],
        "html_tables": ["<table><tr><td>x</td></tr></table>"],
    }
    path = tmp_path / "XYZ-2024-01-02_10-K.json"
    path.write_text(json.dumps(src))
    return path


def test_findver_pipe_keeps_small_parenthesised_values(tmp_path: Path) -> None:
    # regression: "(31)" alone in a cell was read as a footnote marker and dropped,
    # leaving ['', '', '(55)'] right-aligned under 2021
    doc = load_findver_report(
        _findver_file(
            tmp_path,
            [
                "| (in millions) | 2023 | 2022 | 2021 |",
                "| Revenue | $ | 1,234 | $ | 1,100 | $ | 990 |",
                "| Other, net | (55) | (31) | (30) |",
                "| Restructuring | ( 8 ) | — | (2) |",
            ],
        )
    )
    (t,) = doc.tables
    assert t.cells[2] == ["Other, net", "(55)", "(31)", "(30)"]
    assert t.cells[3] == ["Restructuring", "( 8 )", "—", "(2)"]
    assert [t.scaled_value(2, c) for c in (1, 2, 3)] == [
        Decimal(-55_000_000),
        -31_000_000,
        -30_000_000,
    ]


def test_findver_pipe_drops_footnote_markers_by_context(tmp_path: Path) -> None:
    doc = load_findver_report(
        _findver_file(
            tmp_path,
            [
                "| | Steel | Other | Consolidated |",
                "| Net sales | 11,603,139 | 1,164,942 | 16,967,684 |",
                # the row is one value too long with "(1)": a marker after the value
                "| Operating income | 1,881,600 | ( 394,577 ) | (1) | 3,151,181 |",
                # letter markers after the label or a value are never values
                "| Capital expenditures (2) | (a) | 453,955 | 28,264 | * | 1,657,905 |",
                "| Depreciation | 331,225 (3) | 26,072 | 437,804 |",
            ],
        )
    )
    (t,) = doc.tables
    assert t.cells[2] == ["Operating income", "1,881,600", "( 394,577 )", "3,151,181"]
    assert t.cells[3] == ["Capital expenditures (2)", "453,955", "28,264", "1,657,905"]
    assert t.cells[4] == ["Depreciation", "331,225", "26,072", "437,804"]  # same-cell marker


def test_findver_pipe_marker_column_among_large_values(tmp_path: Path) -> None:
    # every body row carries a "(n)": only the column tells, and its values are large
    big = load_findver_report(
        _findver_file(
            tmp_path,
            ["| Assets | $ | 8,650,450 | (3) |", "| Liabilities | $ | 3,248,822 | (4) |"],
        )
    ).tables[0]
    assert big.cells == [["Assets", "$8,650,450"], ["Liabilities", "$3,248,822"]]
    small = load_findver_report(
        _findver_file(tmp_path, ["| Other | $ | 744 | (3) |", "| Taxes | $ | 120 | (4) |"])
    ).tables[0]
    assert small.cells == [["Other", "$744", "(3)"], ["Taxes", "$120", "(4)"]]


def test_grid_merge_keeps_small_parenthesised_value_columns() -> None:
    # the HTML/Markdown path merges fragment columns; "(31)" is not a fragment
    # unless the table's values dwarf it
    t = Table(id="t", cells=[["Other, net", "(55)", "(31)", "(30)"]])
    assert t.cells == [["Other, net", "(55)", "(31)", "(30)"]]
    t = Table(
        id="t",
        cells=[
            ["", "2023", "", "2022"],
            ["Assets", "8,650,450", "(3)", "14,908,420"],
            ["Debt", "1,200,000", "", "1,100,000"],
        ],
    )
    assert t.cells[1] == ["Assets", "8,650,450", "14,908,420"]
    assert t.raw_cells[1][2] == "(3)"


def test_findver_real_pipe_table_negative_values_sum_to_total() -> None:
    doc = load_findver_report(need(REPORTS / "SCE-PL-2024-04-30_10-Q.json.gz"))
    # the block runs three tables together (cash-flow summary, a bullet, financing
    # lines); the financing table is the third piece
    t = doc.block("c19.t0.2")
    assert isinstance(t, Table)
    assert doc.block("c19.t0").cells[2] == [
        "Net cash used in operating activities",
        "$(43)",
        "$(70)",
    ]
    rows = {t.row_label(r): r for r in range(t.header_rows, t.n_rows)}
    assert t.cells[rows["Dividends paid to Edison International preferred shareholders"]][1:] == [
        "(44)",
        "(52)",
    ]
    assert t.cells[rows["Preferred stock repurchased"]][1:] == ["(19)", "—"]
    total = rows["Net cash provided by financing activities"]
    for c, want in ((1, 54), (2, 67)):
        parts = [t.scaled_value(r, c) for r in range(rows[next(iter(rows))], total)]
        assert sum(parts) == t.scaled_value(total, c) == Decimal(want * 10**6)


# ---------------------------------------------------------------- FAITH


def test_faith_report() -> None:
    record = json.loads(need(FAITH).read_text())[0]
    doc = load_faith_report(record, "sm-energy")
    assert doc.metadata["cik"] == "893538"
    assert len(doc.tables) == len(record["tables"])
    t = doc.block("t11")
    assert t.pre_text == "Exploration"
    assert t.scale == Decimal(10**6) and t.unit_hint == "usd"
    r = next(i for i in range(t.n_rows) if t.row_label(i).startswith("Geological"))
    assert t.scaled_value(r, 1) == Decimal("26400000")
    assert t.column_label(1).startswith("For the Years Ended December 31, 2023")
    with pytest.raises(InputError):
        load_faith_report({"metadata": {}}, "x")


@pytest.fixture(scope="module")
def sm_energy() -> FinancialDocument:
    return load_faith_report(json.loads(need(FAITH).read_text())[0], "sm-energy")


def _row(t: Table, label: str) -> int:
    return next(r for r in range(t.n_rows) if t.row_label(r) == label)


def test_body_heading_sets_row_scale(sm_energy: FinancialDocument) -> None:
    t = next(
        b for b in sm_energy.tables if "Total oil, gas, and NGL production revenue" in b.text()
    )
    assert t.scale == 1  # no table-wide hint: the scale lives in body headings
    total = _row(t, "Total oil, gas, and NGL production revenue")
    assert t.cells[total][1] == "$2363.9"
    assert t.row_scale(total) == Decimal(10**6)  # "... revenue (in millions): (1)" above
    assert t.scaled_value(total, 1) == Decimal(2_363_900_000)
    assert t.scaled_value(total, 4) == Decimal(-982_000_000)  # "$(982.0)" change column
    assert t.scaled_value(total, 6) == Decimal(-29)  # percent change: never scaled
    heading = total - 4
    assert t.is_body_heading(heading) and t.scaled_value(heading, 1) is None  # not "(1)" -> -1
    lease = _row(t, "Lease operating expense")  # first one: under "... expense (in millions)"
    assert t.scaled_value(lease, 1) == Decimal(284_800_000)
    # "Realized price:" ends the millions; the prices below are per-unit
    oil_price = _row(t, "Oil (per Bbl)")
    assert t.row_scale(oil_price) == 1 and t.scaled_value(oil_price, 1) == Decimal("76.28")
    # "(in thousands, except per share data)": share counts x 1000, per-share amounts as written
    basic = _row(t, "Basic weighted-average common shares outstanding")
    assert t.scaled_value(basic, 1) == Decimal(118_678_000)
    eps = _row(t, "Basic net income per common share")
    assert t.row_scale(eps) == 1000 and t.scaled_value(eps, 1) == Decimal("6.89")


def test_non_money_units_are_not_scaled(sm_energy: FinancialDocument) -> None:
    t = next(
        b for b in sm_energy.tables if "Total oil, gas, and NGL production revenue" in b.text()
    )
    oil = _row(t, "Oil (MMBbl)")
    assert t.cells[oil][1] == "23.8" and t.scaled_value(oil, 1) == Decimal("23.8")
    assert t.scaled_value(_row(t, "Equivalent (MBOE per day)"), 1) == Decimal(152)
    # a table in millions: the MMBOE row and the "(MBOE per day)" column stay as written
    quarterly = sm_energy.block("t5")
    assert quarterly.scale == Decimal(10**6)
    prod = _row(quarterly, "Production (MMBOE)")
    assert quarterly.scaled_value(prod, 1) == Decimal("14.1")
    rev = _row(quarterly, "Oil, gas, and NGL production revenue")
    assert quarterly.scaled_value(rev, 1) == Decimal(606_900_000)
    by_area = sm_energy.block("t8")
    assert by_area.column_label(1).endswith("(MBOE per day)")
    midland = _row(by_area, "Midland Basin")
    assert by_area.scaled_value(midland, 1) == Decimal(-6)
    assert by_area.scaled_value(midland, 2) == Decimal(-726_800_000)


def test_row_scale_headings_reset_and_nest() -> None:
    t = Table(
        id="t",
        cells=[
            ["", "2023"],
            ["Revenue (in millions):", ""],
            ["Product", "$1.5"],
            ["Volumes:", ""],
            ["Gas (Bcf)", "132.4"],
            ["Units", "7"],
            ["Costs (in thousands):", ""],
            ["Operating:", ""],  # a sub-heading keeps its parent's scale
            ["Labour", "250"],
            ["Headcount (in thousands)", "3"],  # a row's own scale phrase
        ],
        caption="(dollars in billions)",
    )
    assert t.scale == Decimal(10**9)
    assert [t.row_scale(r) for r in (2, 4, 5, 8, 9)] == [10**6, 10**9, 10**9, 1000, 1000]
    assert t.scaled_value(2, 1) == Decimal(1_500_000)
    assert t.scaled_value(4, 1) == Decimal("132.4")  # Bcf is not money
    assert t.scaled_value(5, 1) == Decimal(7 * 10**9)  # back to the table scale
    assert t.scaled_value(8, 1) == Decimal(250_000)
    assert t.scaled_value(9, 1) == Decimal(3000)


# ---------------------------------------------------------------- HTML

EDGAR_HTML = (
    """<html><head><title>ACME 10-K</title><script>var x = 1;</script></head><body>
<div><span>ITEM 6. [RESERVED]</span></div>
<p>Table of contents: Item 7. Management&#8217;s Discussion and Analysis 23</p>
<div style="x">Item 7. Management&#8217;s Discussion and Analysis of Financial Condition</div>
<p>Revenue increased to <b>$12.5 million</b> in 2023.<br>It grew 10%.</p>
<div>The table below shows results (in thousands):</div>
<table>
 <tr><td></td><td></td><td colspan="3">Year Ended December 31,</td></tr>
 <tr><td></td><td></td><td>2023</td><td></td><td>2022</td></tr>
 <tr><td rowspan="2">Revenue</td><td>&#160;</td><td>$&#160;12,500</td><td></td><td>$ 11,364</td></tr>
 <tr><td></td><td>(250</td><td>)</td><td>&#8212;</td></tr>
</table>
<div><div>Nested text block one with enough words to matter here in the discussion.</div></div>
<p>"""
    + ("Liquidity remained strong during the year. " * 12)
    + """</p>
<p>ITEM 7A. QUANTITATIVE AND QUALITATIVE DISCLOSURES ABOUT MARKET RISK</p>
<p>Not applicable.</p>
</body></html>"""
)


def test_load_html_blocks_tables_and_mdna(tmp_path: Path) -> None:
    p = tmp_path / "acme.htm"
    p.write_text(EDGAR_HTML, encoding="utf-8")
    doc = load_document(p)
    assert doc.metadata["title"] == "ACME 10-K"
    texts = [b.text for b in doc.paragraphs]
    assert "var x" not in doc.text()
    assert "Revenue increased to $12.5 million in 2023.\nIt grew 10%." in texts
    (t,) = doc.tables
    assert t.pre_text == "The table below shows results (in thousands):"
    assert t.raw_cells[3][0] == "Revenue"  # rowspan filled down in the raw grid
    assert (2, 0, 2, 1) in t.spans and (0, 2, 1, 3) in t.spans
    assert t.cells == [
        ["", "Year Ended December 31,", "Year Ended December 31,"],
        ["", "2023", "2022"],
        ["Revenue", "$ 12,500", "$ 11,364"],
        ["Revenue", "(250)", "—"],
    ]
    assert t.scale == 1000 and t.unit_hint == "usd"
    mdna = mdna_blocks(doc)
    assert mdna[0].text.startswith("Item 7. Management’s Discussion")  # the TOC line is skipped
    assert t in mdna
    assert all("ITEM 7A" not in getattr(b, "text", "") for b in mdna if isinstance(b, Paragraph))
    assert doc.paragraphs[-1].section == "Item 7A"


def test_load_html_from_string_and_errors(tmp_path: Path) -> None:
    doc = load_html("<p>One.</p><p>Two.</p>")
    assert [b.id for b in doc.blocks] == ["p0", "p1"]
    empty = tmp_path / "e.html"
    empty.write_text("<html><body>  </body></html>")
    with pytest.raises(InputError, match="no text"):
        load_html(empty)


# ---------------------------------------------------------------- text / markdown


def test_load_markdown(tmp_path: Path) -> None:
    p = tmp_path / "r.md"
    p.write_text(
        "# Results of Operations\n\nRevenue rose.\nIt rose a lot.\n\n"
        "| Item | 2023 | 2022 |\n|---|---|---|\n| Revenue ($ in millions) | 5.0 | 4.0 |\n\n## Liquidity\n\nCash fell.\n"
    )
    doc = load_document(p)
    assert [type(b).__name__ for b in doc.blocks] == ["Paragraph", "Table", "Paragraph"]
    assert (
        doc.blocks[0].text == "Revenue rose.\nIt rose a lot."
        and doc.blocks[0].section == "Results of Operations"
    )
    t = doc.tables[0]
    assert t.cells == [["Item", "2023", "2022"], ["Revenue ($ in millions)", "5.0", "4.0"]]
    assert t.scale == Decimal(10**6) and t.pre_text == "Revenue rose.\nIt rose a lot."
    assert doc.blocks[2].section == "Liquidity"


def test_load_plain_text_keeps_pipes_as_text() -> None:
    doc = load_text("a | b |\n\nSecond para.", markdown=False)
    assert [b.text for b in doc.blocks] == ["a | b |", "Second para."]


# ---------------------------------------------------------------- errors


def test_bad_inputs(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_document(tmp_path / "missing.json")
    (tmp_path / "empty.json").write_text("")
    with pytest.raises(InputError, match="empty"):
        load_document(tmp_path / "empty.json")
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(InputError, match="invalid JSON"):
        load_document(tmp_path / "bad.json")
    (tmp_path / "other.json").write_text('{"a": 1}')
    with pytest.raises(InputError, match="neither"):
        load_document(tmp_path / "other.json")
    (tmp_path / "bad.json.gz").write_bytes(b"not gzip at all")
    with pytest.raises(InputError, match="gzip"):
        load_document(tmp_path / "bad.json.gz")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    with pytest.raises(InputError, match="binary"):
        load_document(tmp_path / "blob.bin")
    (tmp_path / "x.txt").write_text("hi")
    with pytest.raises(InputError, match="unknown format"):
        load_document(tmp_path / "x.txt", format="pdf")


# ---------------------------------------------------------------- MD&A


def test_mdna_real_reports(acrs: FinancialDocument) -> None:
    blocks = mdna_blocks(acrs)
    assert blocks[0].id == "c61" and blocks[-1].id == "c80"  # c81 opens Item 7A
    assert any(isinstance(b, Table) for b in blocks)
    q = load_findver_report(need(REPORTS / "APOG-2024-01-03_10-Q.json.gz"))
    qb = mdna_blocks(q)  # 10-Q: Part I, Item 2
    assert qb and "Management’s Discussion" in qb[0].text


def test_mdna_absent() -> None:
    doc = load_text(
        "Item 1. Business\n\nWe sell things.\n\nItem 7. Management's Discussion and Analysis\n\nItem 7A. Market risk"
    )
    assert mdna_blocks(doc) == []  # only a heading: too little content


def test_parentheses_split_across_cells_read_negative() -> None:
    """EDGAR splits "(92,291)" into "( 92,291" and ")": the merged cell keeps a space."""
    table = Table(
        "t",
        [
            ["", "", "2023", "", "2022", ""],
            ["Net change in cash", "", "( 92,291", ")", "( 381,850", ")"],
            ["Cost of revenue", "$", "( 5.5 )", "", "—", ""],
            ["Growth", "", "(37 )%", "", "4", ""],
        ],
    )
    values = [[table.scaled_value(r, c) for c in (1, 2)] for r in (1, 2, 3)]
    assert values == [
        [Decimal(-92291), Decimal(-381850)],
        [Decimal("-5.5"), Decimal(0)],  # a dash is zero
        [Decimal(-37), Decimal(4)],
    ]


def test_real_split_parenthesis_is_negative() -> None:
    path = REPORTS / "KRNLW-2024-03-12_10-K.json.gz"
    if not path.is_file():
        pytest.skip("shared FinDVer data not present")
    table = load_findver_report(path).block("c210.t1")
    [r] = [r for r in range(table.n_rows) if table.row_label(r) == "Net Change in Cash"]
    assert [table.number(r, c).value for c in (1, 2)] == [Decimal(-92291), Decimal(-381850)]


# ------------------------------------------- FinDVer pipe blocks that run tables together


def _merged_block_file(tmp_path: Path) -> Path:
    """One pipe block holding two tables; its HTML twin is only the first (as FinDVer
    ships them)."""
    pipe = [
        "| | | December 31, | | December 31, |",
        "| (In thousands) | | 2023 | | 2022 |",
        "| Gross cost | $ | 5,094 | $ | 5,240 |",
        "| Other assets | $ | 3,859 | $ | 2,680 |",
        "| Year Ended |",
        "| 2023 | 2022 | 2021 |",
        "| Operating cash flows | $ | 974 | $ | 846 | $ | 924 |",
        "| U.S. Pension | Foreign Pension |",
        "| 2023 | 2022 | 2023 | 2022 |",
        "| Service cost | 37 | 51 | 304 | 286 |",
    ]
    html = (
        "<table><tr><td></td><td colspan=2>December 31,</td><td colspan=2>December 31,</td></tr>"
        "<tr><td>(In thousands)</td><td colspan=2>2023</td><td colspan=2>2022</td></tr>"
        "<tr><td>Gross cost</td><td>$</td><td>5,094</td><td>$</td><td>5,240</td></tr>"
        "<tr><td>Other assets</td><td>$</td><td>3,859</td><td>$</td><td>2,680</td></tr></table>"
    )
    src = {
        "url": "u",
        "report_type": "10-K",
        "context": [{"id": 7, "context": "Leases.\n" + "\n".join(pipe), "type": "table"}],
        "html_tables": [html],
    }
    path = tmp_path / "XYZ-2024-01-02_10-K.json"
    path.write_text(json.dumps(src))
    return path


def test_findver_block_of_run_together_tables_is_cut_into_tables(tmp_path: Path) -> None:
    doc = load_findver_report(_merged_block_file(tmp_path))
    first, second, third = doc.tables
    assert [t.id for t in doc.tables] == ["c7.t1", "c7.t1.1", "c7.t1.2"]
    assert first.spans  # the HTML twin wins for the rows it holds
    assert first.cells[-1] == ["Other assets", "$3,859", "$2,680"]
    # each later table has its own header, not the first table's
    assert second.cells[1:] == [
        ["", "2023", "2022", "2021"],
        ["Operating cash flows", "$974", "$846", "$924"],
    ]
    assert third.cells == [
        ["", "U.S. Pension", "U.S. Pension", "Foreign Pension", "Foreign Pension"],
        ["", "2023", "2022", "2023", "2022"],
        ["Service cost", "37", "51", "304", "286"],
    ]
    assert {t.pre_text for t in doc.tables} == {"Leases."}
    assert all(t.source_id == "7" for t in doc.tables)


def test_findver_block_whose_twin_matches_no_prefix_stays_whole(tmp_path: Path) -> None:
    # the twin's last row differs from the block's: no cut (a loose match could cut
    # a table in two)
    path = _merged_block_file(tmp_path)
    data = json.loads(path.read_text())
    data["html_tables"] = [data["html_tables"][0].replace("3,859", "3,860")]
    path.write_text(json.dumps(data))
    assert [t.id for t in load_findver_report(path).tables] == ["c7.t1"]


def test_findver_real_run_together_tables_read_their_own_headers() -> None:
    acrs = load_findver_report(need(ACRS))
    lease = acrs.block("c105.t0")
    # before the cut, the block's second table shifted this header one column left, so
    # 5,094 (2023) sat under "2022"
    assert lease.cells[1] == ["(In thousands)", "2023", "2022"]
    assert lease.cells[3] == ["Gross cost", "$5,094", "$5,240"]
    cash = acrs.block("c105.t0.1")
    assert cash.cells[2] == ["Supplemental Cash Flow Lease Information:", "2023", "2022", "2021"]
    ap = load_findver_report(need(REPORTS / "AP-2024-03-25_10-K.json.gz"))
    pbo = ap.block("c148.t0.1")
    assert pbo.cells[1] == ["", "2023", "2022", "2023", "2022", "2023", "2022"]
    assert pbo.cells[3][:3] == ["PBO at January 1", "$193,670", "$260,301"]


def test_findver_pipe_header_keeps_its_scale_note_label() -> None:
    # "(dollars in thousands) | 2023 | 2022 | Change" fills the four value columns but has
    # its label (the "% Change" column's title spans from the row above): not moved right
    bmtx = load_findver_report(need(REPORTS / "BMTX-2024-04-05_10-K.json.gz"))
    cash = bmtx.block("c147.t1")
    assert cash.cells[1] == ["(dollars in thousands)", "2023", "2022", "Change", ""]
    # the row above has no label and two titles: each spans two value columns
    assert cash.cells[0][1:] == ["Twelve Months EndedDecember 31,"] * 2 + ["%Change"] * 2


def test_html_negative_value_after_a_bare_dollar_cell_is_kept() -> None:
    # "$ | (43)" is -43, not "$" with a footnote marker "(43)" dropped; a marker after a
    # value still goes
    t = parse_html_table(
        "<table><tr><td></td><td colspan=2>2024</td><td colspan=2>2023</td></tr>"
        "<tr><td>Net cash used in operating activities</td><td>$</td><td>(43)</td>"
        "<td>$</td><td>(70)</td></tr>"
        "<tr><td>Net cash provided by financing activities</td><td></td><td>54</td>"
        "<td></td><td>67</td></tr></table>"
    )
    assert t.cells[1] == ["Net cash used in operating activities", "$(43)", "$(70)"]
    assert t.scaled_value(1, 1) == Decimal(-43)
    marked = parse_html_table(
        "<table><tr><td></td><td>2024</td><td></td></tr>"
        "<tr><td>Revenue</td><td>1,250,300</td><td>(1)</td></tr></table>"
    )
    assert marked.cells[1] == ["Revenue", "1,250,300"]


def test_findver_footnote_left_over_from_the_table_before_is_no_header(tmp_path: Path) -> None:
    # CNSL: a block opens with the previous table's footnote (its HTML twin is that one
    # row); read as one table, the note's text became every column's header
    note = "Other, net includes dividend income and certain other miscellaneous items."
    pipe = [
        f"| (1) | {note} |",
        "| | Years Ended December 31, | |",
        "| (In thousands) | 2023 | 2022 |",
        "| Operating activities | $ | 114,587 | $ | 194,545 |",
        "| Financing activities | (18,216) | (13,731) |",
        "| * | Includes discontinued operations of the sold business. |",
        "| | 2023 | 2022 |",
        "| Access lines | 344 | 376 |",
    ]
    src = {
        "url": "u",
        "report_type": "10-K",
        "context": [{"id": 54, "context": "\n".join(pipe), "type": "table"}],
        "html_tables": [f"<table><tr><td>(1)</td><td>{note}</td></tr></table>"],
    }
    path = tmp_path / "XYZ-2024-01-02_10-K.json"
    path.write_text(json.dumps(src))
    doc = load_findver_report(path)
    assert [t.id for t in doc.tables] == ["c54.t0", "c54.t0.1", "c54.t0.2"]
    flows = doc.block("c54.t0.1")
    assert flows.cells[0] == ["", "Years Ended December 31,", "Years Ended December 31,"]
    # the note under a table stays with it, and does not head the next one
    assert flows.cells[-1][0] == "*"
    assert doc.block("c54.t0.2").cells[0] == ["", "2023", "2022"]


def _blocks_file(tmp_path: Path, pipe: list[str], html: str) -> Path:
    src = {
        "url": "u",
        "report_type": "10-K",
        "context": [{"id": 3, "context": "\n".join(pipe), "type": "table"}],
        "html_tables": [html],
    }
    path = tmp_path / "XYZ-2024-01-02_10-K.json"
    path.write_text(json.dumps(src))
    return path


_TWIN = (
    "<table><tr><td></td><td>2023</td><td>2022</td></tr>"
    "<tr><td>Rooms</td><td>113,235</td><td>103,715</td></tr></table>"
)


def test_findver_notes_left_after_a_twin_are_no_next_tables_header(tmp_path: Path) -> None:
    # RHP: the twin stops before its table's footnote; the note closes that table's
    # rows and is cut off before the next table's header
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| (1) | Gaylord Palms operating expenses do not include the ground lease. |",
        "| | 2023 | 2022 |",
        "| Food and beverage | 145,919 | 122,515 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    first, note, second = doc.tables
    assert note.cells[0][0] == "(1)"
    assert second.cells == [["", "2023", "2022"], ["Food and beverage", "145,919", "122,515"]]


def test_findver_rows_of_ranges_and_durations_do_not_cut_a_table(tmp_path: Path) -> None:
    # CRSR, KIRK: "43.2 % - 44.5 %", "6 years" and dates are figures, not column titles
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| Years Ended December 31, |",
        "| | 2023 | 2022 |",
        "| Expected term (years) | 6.00 | 6.05 |",
        "| Expected volatility | 43.2 % - 44.5 % | 43.6 % - 48.1 % |",
        "| Expected life | 6 years | 7 years |",
        "| Grant date | 12/19/2028 | 3/1/2027 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert len(doc.tables) == 2
    terms = doc.tables[1]
    # the lone period title spans the value columns; the rows below it stay one table
    assert terms.cells[0] == ["", "Years Ended December 31,", "Years Ended December 31,"]
    assert terms.header_rows == 2
    assert [r[0] for r in terms.cells[2:]] == [
        "Expected term (years)", "Expected volatility", "Expected life", "Grant date",
    ]  # fmt: skip


def test_findver_bullet_run_then_tables_cut_where_a_header_follows(tmp_path: Path) -> None:
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| ● | Cash provided by operations fell on lower occupancy in the year. |",
        "| Net cash | 7 | 8 |",
        "| | 2021 | 2020 |",
        "| Net cash | 5 | 6 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert [len(t.cells) for t in doc.tables] == [2, 1, 1, 2]
    assert doc.tables[3].cells[0] == ["", "2021", "2020"]


def test_findver_label_rows_of_text_tables_stay_labels(tmp_path: Path) -> None:
    # a table without figures has no header row to tell: a signature row, a bullet or a
    # caption keeps its first cell where it is
    pipe = [
        "| Name | Title | Date |",
        "| Neal Walker | (Principal Executive Officer) |",
        "| ● | the performance of our products |",
        "| Table 1 | Summary Income Statement |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, "<table><tr><td>x</td></tr></table>"))
    cells = doc.tables[0].cells
    assert [r[0] for r in cells] == ["Name", "Neal Walker", "●", "Table 1"]


@pytest.mark.parametrize(
    "name",
    [
        "ACRS-2024-02-27_10-K",
        "AP-2024-03-25_10-K",
        "CNSL-2024-03-05_10-K",
        "SCE-PL-2024-04-30_10-Q",
    ],
)
def test_findver_cut_pieces_give_back_every_row_once(name: str) -> None:
    from finprobe.document.loaders import _findver_parts, _load_json
    from finprobe.document.pipes import _split_mixed

    path = need(REPORTS / f"{name}.json.gz")
    data = _load_json(path)
    parts = list(_findver_parts(path, data))
    ids = [bid for bid, *_ in parts]
    assert len(ids) == len(set(ids))
    pieces: dict[str, list[list[str]]] = {}
    for bid, _, kind, payload, _ in parts:
        if kind == "t":
            pieces.setdefault(".".join(bid.split(".")[:2]), []).extend(payload)
    n_cut = sum(bid.count(".") == 2 for bid in ids)
    assert n_cut > 0
    for entry in data["context"]:
        for k, (kind, payload) in enumerate(_split_mixed(str(entry["context"]))):
            if kind == "t":
                got = pieces[f"c{entry['id']}.t{k}"]
                assert [r for r in got if any(r)] == [r for r in payload if any(r)]


def test_findver_pipe_titles_over_periods_and_a_change_column(tmp_path: Path) -> None:
    # AFG: "2023 | 2022 | Change in % of GWP" over five value columns, and "Ceded | % of
    # GWP" twice; FinDVer dropped both rows' empty label cells
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| Three months ended December 31, |",
        "| 2023 | 2022 | Change in % of GWP |",
        "| Ceded | % of GWP | Ceded | % of GWP |",
        "| Specialty casualty | (369) | 35% | (352) | 35% | —% |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    ceded = doc.tables[1]
    assert ceded.header_rows == 3
    assert ceded.cells[1] == ["", "2023", "2023", "2022", "2022", "Change in % of GWP"]
    assert ceded.cells[2] == ["", "Ceded", "% of GWP", "Ceded", "% of GWP", ""]
    assert ceded.column_label(2).endswith("2023 % of GWP")
    # a label-column title that is not repeated and has no year stays a label
    pipe[4] = "| Segment | Ceded | % of GWP |"
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert doc.tables[1].cells[2][0] == "Segment"


def test_findver_pipe_change_title_spans_its_amount_and_percent(tmp_path: Path) -> None:
    # TTEK: "December 31,2023 | January 1,2023 | Change" over four value columns
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| Three Months Ended |",
        "| December 31,2023 | January 1,2023 | Change |",
        "| Revenue | $575,041 | $471,067 | $103,974 | 22.1% |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert doc.tables[1].cells[1] == ["", "December 31,2023", "January 1,2023", "Change", "Change"]


def test_findver_aging_titles_are_a_header_not_a_row_of_figures(tmp_path: Path) -> None:
    # CALB: "30 Days | 60 Days | Current | Total" titles a table; "2023 - 2022" titles a
    # change column; neither is a row of figures, so each starts a new table after a cut
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| (Dollars in thousands) | 30 Days | 60 Days | Current | Total |",
        "| Real estate - other | 1,824 | — | 90,000 | 91,824 |",
        "| | 2023 | 2022 | 2023 - 2022 |",
        "| Premiums | 500 | 450 | 50 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert [t.cells[0][1] for t in doc.tables[1:]] == ["30 Days", "2023"]
    aging = doc.tables[1]
    assert aging.column_label(1) == "30 Days" and aging.cells[1][1] == "1,824"


def test_findver_a_note_twin_opening_a_table_is_cut_with_its_notes(tmp_path: Path) -> None:
    # CALB c99: the twin is note (21); notes (22) and (23) follow, then a table
    notes = [
        f"| ({k}) | Director fees include the annual retainer and meeting fees. |"
        for k in (21, 22, 23)
    ]
    pipe = [*notes, "| Director | Fees | Total |", "| A. Smith | 40,000 | 52,000 |"]
    html = "<table><tr><td>(21)</td><td>Director fees include the annual retainer and meeting fees.</td></tr></table>"
    doc = load_findver_report(_blocks_file(tmp_path, pipe, html))
    assert doc.tables[-1].cells[0] == ["Director", "Fees", "Total"]
    assert doc.tables[-1].header_rows == 1
    # a numbered list (every row a note) stays whole
    doc = load_findver_report(_blocks_file(tmp_path, notes, html))
    assert len(doc.tables) == 1


def test_findver_table_stacked_by_period_keeps_its_period_rows(tmp_path: Path) -> None:
    # KSCP: "December 31, 2023" over its rows, "December 31, 2022" over its own: no title
    # spans the whole table
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| December 31, 2023 |",
        "| | Level 1 | Level 2 | Total |",
        "| Money market funds | 4,000 | — | 4,000 |",
        "| December 31, 2022 |",
        "| Money market funds | 3,025 | — | 3,025 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    stacked = doc.tables[1]
    assert stacked.cells[0][0] == "December 31, 2023"
    assert "December 31, 2023" not in stacked.column_label(1)


def test_findver_years_short_of_the_columns_sit_over_the_last_ones(tmp_path: Path) -> None:
    # BLDE: "2023 | 2022" over [Useful life, 2023, 2022]: the text column comes first
    pipe = [
        "| | 2023 | 2022 |",
        "| Rooms | 113,235 | 103,715 |",
        "| 2023 | 2022 |",
        "| | Useful life | | |",
        "| Equipment | 5 years | 886 | 750 |",
    ]
    doc = load_findver_report(_blocks_file(tmp_path, pipe, _TWIN))
    assert doc.tables[1].cells[0] == ["", "", "2023", "2022"]
