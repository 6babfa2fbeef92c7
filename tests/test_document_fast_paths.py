"""The document parser's fast paths give exactly what the plain per-cell code gives.

HTML tables are flattened by libxslt (finprobe.document.html) and cleaned once per
table; text is cleaned without str.translate when it holds no odd character. Each is
checked here against the straightforward definition, on edge cases: spans in every
form, nested markup, odd and zero-width spaces, marker characters in cell text and
attributes (which must send the table to the element walk), and malformed spans.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from lxml import html as lhtml

from finprobe.document import clean_text, parse_html_table
from finprobe.document.cells import _CLEAN_TABLE
from finprobe.document.html import (
    _CELL,
    _ROW,
    _SEP,
    _flattener,
    _grid_from_table_element,
    _html_parser,
    _rows_from_elements,
    _rows_from_flat,
    _table_cells,
    markup_is_marker_free,
)


def reference_clean_text(text: str, keep_newlines: bool = False) -> str:
    """clean_text as it was before the fast paths: translate always, then split/strip."""
    if not keep_newlines and text.isascii():
        return " ".join(text.split())
    text = text.translate(_CLEAN_TABLE)
    if keep_newlines:
        lines = (line.strip() for line in re.sub(r" {2,}", " ", text).split("\n"))
        return "\n".join(line for line in lines if line)
    return " ".join(text.split())


FINDVER_REPORTS = Path(__file__).resolve().parents[2] / "shared/data/findver/reports"

ODD = ["\u00a0", "\u2002", "\u2009", "\u202f", "\u3000", "\t", "\r", "\f", "\v", "\u200b",
       "\ufeff", "\u00ad", "\u2060", "\x1c", "\x85", "\u2028", "  ", " ", "\n", "\n\n"]  # fmt: skip
WORDS = ["Revenue", "$", "(1,234", ")", "%", "—", "2023", "é", "’s", "|", "a|b"]


@pytest.mark.parametrize("seed", range(300))
def test_clean_text_matches_its_definition(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(ODD + WORDS) for _ in range(rng.randint(0, 30)))
    assert clean_text(text) == reference_clean_text(text)
    assert clean_text(text, keep_newlines=True) == reference_clean_text(text, True)


def _table(markup: str):
    root = lhtml.fromstring(markup, parser=_html_parser())
    return root if root.tag == "table" else next(root.iter("table"))


TRICKY = [
    # colspans, rowspans, both, spans into rows that are short, header/body/foot groups
    "<table><thead><tr><th colspan=3>Year ended</th><th rowspan=2>Note</th></tr>"
    "<tr><th>2023</th><th colspan='2'>2022</th></tr></thead>"
    "<tbody><tr><td rowspan=3>Revenue</td><td>$</td><td>1,234</td></tr><tr><td>(5</td>"
    "<td>)</td></tr></tbody><tfoot><tr><td colspan=2 rowspan=2>Total</td></tr></tfoot></table>",
    # nested markup, breaks, entities, odd and zero-width spaces, empty cells
    "<table><tr><td><p>Net&nbsp;income</p><br/><span> (loss)\u200b</span></td><td></td>"
    "<td>\u2009\u2009 12\u00a0% </td></tr><tr><td>  </td><td>&#8212;</td></tr></table>",
    # malformed span attributes: empty, spaces, words, zero, huge, signs
    "<table><tr><td colspan=''>a</td><td colspan=' 2 '>b</td><td rowspan='two'>c</td>"
    "<td colspan=0>d</td><td colspan=999>e</td><td rowspan='+2'>f</td></tr>"
    "<tr><td>g</td></tr></table>",
    # a nested table (its text is part of the outer cell), stray elements in rows
    "<table><tr><td>outer<table><tr><td>inner</td></tr></table></td><span>x</span>"
    "<td>last</td></tr><caption>Cap</caption></table>",
    # no rows at all; a row with no cells
    "<table></table>",
    "<table><tr></tr><tr><td>only</td></tr></table>",
]


@pytest.mark.parametrize("markup", TRICKY)
def test_flattened_table_reads_as_the_element_walk(markup: str) -> None:
    el = _table(markup)
    flat = _rows_from_flat(str(_flattener()(el)))
    if markup is TRICKY[2]:  # malformed spans: the element walk reads it (below)
        assert flat is None
    else:
        assert flat == _rows_from_elements(el)


def test_spans_with_non_digit_attributes_use_the_element_walk() -> None:
    el = _table(TRICKY[2])
    assert _rows_from_flat(str(_flattener()(el))) is None  # ' 2 ', 'two', '+2'
    grid, _, spans = _grid_from_table_element(el)
    assert grid[0][:3] == ["a", "b", "b"]  # colspan ' 2 ' read as 2, as int() does
    assert (0, 1, 1, 2) in spans


@pytest.mark.parametrize("mark", [_ROW, _CELL, _SEP])
def test_marker_characters_in_text_or_attributes_use_the_element_walk(mark: str) -> None:
    in_text = _table(f"<table><tr><td>a{mark}b</td><td>c</td></tr></table>")
    assert _rows_from_flat(str(_flattener()(in_text))) is None
    assert _grid_from_table_element(in_text)[0] == [[f"a{mark}b", "c"]]
    in_attr = _table(f"<table><tr><td colspan='1{mark}2,3'>a</td><td>c</td></tr></table>")
    assert _rows_from_flat(str(_flattener()(in_attr))) is None
    assert _grid_from_table_element(in_attr)[0] == [["a", "c"]]


def test_parse_html_table_on_spans() -> None:
    table = parse_html_table(TRICKY[0])
    assert table.raw_cells[0] == ["Year ended", "Year ended", "Year ended", "Note"]
    assert table.raw_cells[1] == ["2023", "2022", "2022", "Note"]
    assert table.raw_cells[2][0] == table.raw_cells[4][0] == "Revenue"
    assert (0, 3, 2, 1) in table.spans


@pytest.mark.parametrize(
    ("text", "items"),
    [
        ("It\nem 7. Management's Discussion", ["7"]),  # a word broken by conversion
        ("ITEM 7A. Quantitative", ["7A"]),
        ("\u0130TEM 2. Management", ["2"]),  # dotted capital I: (?i) matches, lower() differs
        ("\u0131tem 1. Business", ["1"]),  # dotless i
        ("Part II, Item 7. Management", ["7"]),
        ("Systems and items in stock", []),
        ("No heading here", []),
    ],
)
def test_item_headings_quick_test_misses_no_heading(text: str, items: list[str]) -> None:
    from finprobe.document.sections import _heading_view, _item_headings

    assert [item for _, item, _ in _item_headings(_heading_view(text))] == items


# ----------------------------------------------------------------------------- trusted pass
# A FinDVer twin whose markup holds no marker (markup_is_marker_free) is flattened without
# the stylesheet's marker test.


@pytest.mark.parametrize(
    "markup",
    [
        "<table><tr><td>a&#57344;b</td></tr></table>",
        "<table><tr><td>a&#xE001;b</td></tr></table>",
        "<table><tr><td>a&#Xe002b</td></tr></table>",  # no ";": still a reference
        "<table><tr><td>a&#00057346;b</td></tr></table>",  # leading zeros
        "<table><tr><td>a&#x000e000;b</td></tr></table>",
        f"<table><tr><td>a{_ROW}b</td></tr></table>",
        f"<table><tr><td>a</td></tr></table><!-- {_CELL} -->",
        f"<table><tr><td colspan='1{_SEP}'>a</td></tr></table>",
    ],
)
def test_markup_that_could_hold_a_marker_is_not_trusted(markup: str) -> None:
    assert not markup_is_marker_free(markup)
    el = _table(markup)
    # the test that decides matters: the full stylesheet reads the element walk's cells
    assert _table_cells(el) == _rows_from_elements(el)


def test_the_trusted_pass_would_misread_a_marker() -> None:
    """Why the markup is checked: without the marker test, a marker in a cell's text
    splits the cell (so the check above is what keeps the result exact)."""
    el = _table("<table><tr><td>a&#57345;b</td><td>c</td></tr></table>")
    assert _table_cells(el, marker_free=True) != _rows_from_elements(el)
    assert markup_is_marker_free("<table><tr><td>a &#160; &#8212; &#xE00A; &#57347;</td></tr>")


@pytest.mark.skipif(not FINDVER_REPORTS.is_dir(), reason="FinDVer dev reports not present")
def test_trusted_pass_reads_every_findver_twin_as_the_full_pass() -> None:
    from finprobe.document.loaders import _load_json

    trusted = 0
    for path in sorted(FINDVER_REPORTS.iterdir())[::3]:
        for markup in _load_json(path).get("html_tables") or []:
            if not (isinstance(markup, str) and "<t" in markup):
                continue
            root = lhtml.fromstring(markup, parser=_html_parser())
            el = root if root.tag == "table" else next(root.iter("table"), None)
            if el is None or not markup_is_marker_free(markup):
                continue
            trusted += 1
            assert _table_cells(el, marker_free=True) == _table_cells(el), path.name
    assert trusted > 1500


# ----------------------------------------------------------------------------- passages only
# findver_report_parts (what retrieval passages read, without the document) against the
# straightforward path: passages_from_document(load_findver_report(path)).


def _passages_both_ways(path: Path) -> tuple[list, list]:
    from finprobe.document import load_findver_report
    from finprobe.document.loaders import findver_report_parts
    from finprobe.retrieval import passages_from_document, passages_from_parts

    return (
        passages_from_parts(findver_report_parts(path)),
        passages_from_document(load_findver_report(path)),
    )


@pytest.mark.skipif(not FINDVER_REPORTS.is_dir(), reason="FinDVer dev reports not present")
def test_passages_only_parse_equals_the_documents_passages_on_findver_reports() -> None:
    # every third report (the identity check, perf/findver_samples_identity.py, covers all)
    reports = sorted(FINDVER_REPORTS.iterdir())[::3]
    assert len(reports) > 40
    for path in reports:
        fast, full = _passages_both_ways(path)
        assert fast == full, path.name


_TWIN = "<table><tr><td>Revenue</td><td>$</td><td>1,200</td></tr><tr><td>Costs</td><td>(300</td><td>)</td></tr></table>"  # noqa: E501


@pytest.mark.parametrize(
    "report",
    [
        # html twin wins; prose before, a mixed entry, a pipe table without a twin
        {
            "context": [
                {"id": 0, "context": "Results (in thousands)", "type": "text"},
                {"id": 1, "context": "| Revenue | $ 1,200 |\n| Costs | (300) |", "type": "table"},
                {"id": 2, "context": "Intro\n| a | 1 |\n| b | 2 |\nOutro", "type": "text"},
            ],
            "html_tables": [_TWIN],
        },
        # twins that do not match, do not parse, are not strings, or hold no table
        {
            "context": [
                {"id": "a", "context": "| x | 1 |\n| y | 2 |\n| z | 3 |"},
                {"id": "b", "context": "| p | q |"},
                {"id": "c", "context": "| k | 9 |"},
                {"id": "d", "context": "| m | 5 |"},
            ],
            "html_tables": [_TWIN, "<tr><td>broken", None, "<p>no table</p>"],
        },
        # ids missing or repeated (entries grouped into one passage), empty entries
        {
            "context": [
                {"context": "first, no id"},
                {"id": 7, "context": "seven"},
                {"id": 7, "context": "| again | 7 |"},
                {"id": 8, "context": ""},
                {"context": "   \n  "},
                {"context": "last, no id"},
            ],
            "html_tables": ["<table><tr><td>again</td><td>7</td></tr></table>"],
        },
        # spans, footnote columns, spacer rows and columns in the twin
        {
            "context": [
                {"id": 0, "context": "| Item | 2023 | 2022 |\n| Sales (1) | 10 | 9 |"},
            ],
            "html_tables": [
                "<table><tr><td></td><td colspan=2>Year</td><td></td></tr>"
                "<tr><td>Item</td><td>2023</td><td>2022</td><td></td></tr><tr><td></td></tr>"
                "<tr><td>Sales</td><td>10</td><td>9</td><td>(1)</td></tr></table>"
            ],
        },
    ],
)
def test_passages_only_parse_equals_the_documents_passages_on_edge_cases(
    report: dict, tmp_path: Path
) -> None:
    path = tmp_path / "X-2024-01-01_10-K.json"
    path.write_text(json.dumps(report))
    fast, full = _passages_both_ways(path)
    assert fast == full
    assert fast  # not vacuous


@pytest.mark.parametrize(
    ("report", "message"),
    [
        ({"context": []}, "report has no text"),
        ({"context": [{"id": 1, "context": ""}]}, "report has no text"),
        ({"context": "text"}, "not a FinDVer report"),
        ({"context": [{"id": 1}]}, "context entry without 'context' text"),
    ],
)
def test_passages_only_parse_refuses_bad_reports_as_the_loader_does(
    report: dict, message: str, tmp_path: Path
) -> None:
    from finprobe.document import load_findver_report
    from finprobe.document.loaders import findver_report_parts
    from finprobe.errors import InputError

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(report))
    for load in (findver_report_parts, load_findver_report):
        with pytest.raises(InputError, match=message):
            load(path)


# ----------------------------------------------------------------------------- html vs pipe


@pytest.mark.parametrize("seed", range(200))
def test_squash_matches_its_definition(seed: int) -> None:
    from finprobe.document.pipes import _squash

    rng = random.Random(seed)
    pieces = [*ODD, *WORDS, "$", "(", ")", "%", ",", "1,234.5", "\u2003(12)%", "\x1f", "\x0b"]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
    assert _squash(text) == re.sub(r"[\s$()%,]", "", text)


def reference_row_texts(grid: list[list[str]], origins: list[list]) -> list[list[str]]:
    """_row_texts as it was: a set of seen origins per row."""
    out = []
    for row, org in zip(grid, origins, strict=True):
        seen, texts = set(), []
        for text, o in zip(row, org, strict=True):
            if o in seen:
                continue
            seen.add(o)
            if text:
                texts.append(text)
        if texts:
            out.append(texts)
    return out


@pytest.mark.parametrize("markup", TRICKY)
def test_row_texts_match_their_definition_on_tricky_tables(markup: str) -> None:
    from finprobe.document.loaders import _row_texts

    grid, origins, _ = _grid_from_table_element(_table(markup))
    assert _row_texts(grid, origins) == reference_row_texts(grid, origins)


@pytest.mark.skipif(not FINDVER_REPORTS.is_dir(), reason="FinDVer dev reports not present")
def test_row_texts_and_squash_match_their_definitions_on_findver_twins() -> None:
    from finprobe.document.loaders import _html_twin, _load_json, _row_texts
    from finprobe.document.pipes import _squash

    grids = 0
    for path in sorted(FINDVER_REPORTS.iterdir())[1::4]:
        for markup in _load_json(path).get("html_tables") or []:
            twin = _html_twin(markup)
            if twin is None:
                continue
            grids += 1
            grid, origins, _ = twin
            rows = _row_texts(grid, origins)
            assert rows == reference_row_texts(grid, origins), path.name
            for row in rows:
                joined = "".join(row)
                assert _squash(joined) == re.sub(r"[\s$()%,]", "", joined)
    assert grids > 1000
