"""finprobe.numbers: golden parse/match cases, FAITH pilot spans, unit-group files."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest
from shared_data import SHARED

from finprobe.errors import InputError
from finprobe.numbers import (
    MatchResult,
    extract_units,
    find_numbers,
    load_unit_groups,
    parse_number,
    precision_relaxed_match,
    reference_scorer_match,
    released_value_and_resolution,
)

GOLDEN = Path(__file__).resolve().parent / "golden"
PILOT = SHARED / "data" / "faith" / "pilot-dev.json"


def _jsonl(name: str) -> list[dict]:
    with open(GOLDEN / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


MATCH_CASES = _jsonl("numbers_match.jsonl")
PARSE_CASES = _jsonl("numbers_parse.jsonl")


def _pilot_instances() -> list[dict]:
    if not PILOT.is_file():
        pytest.skip(f"shared data not found at {PILOT}")
    records = json.loads(PILOT.read_text(encoding="utf-8"))
    return [inst for rec in records for inst in rec["instances"]]


# --- golden files -----------------------------------------------------------


def test_golden_files_are_big_enough() -> None:
    assert len(MATCH_CASES) >= 170
    assert len(PARSE_CASES) >= 60


@pytest.mark.parametrize("case", PARSE_CASES, ids=lambda c: c["text"] or "<empty>")
def test_parse_golden(case: dict) -> None:
    got = parse_number(case["text"])
    if case["value"] is None:
        assert got is None
        return
    assert got is not None
    assert got.value == Decimal(case["value"])
    assert got.scale_word == case["scale_word"]
    assert sorted(got.units) == case["units"]
    assert got.precision == Decimal(case["precision"])
    assert got.sign == (got.value > 0) - (got.value < 0)


@pytest.mark.parametrize("case", MATCH_CASES, ids=lambda c: f"{c['reference']}|{c['prediction']}")
def test_match_golden(case: dict) -> None:
    got = precision_relaxed_match(case["reference"], case["prediction"])
    assert (got.numeric, got.unit) == (case["numeric"], case["unit"]), case["note"]
    assert got.both == (case["numeric"] and case["unit"])
    assert (
        reference_scorer_match(case["reference"], case["prediction"]) == case["reference_mode"]
    ), case["note"]


def test_released_parser_reads_the_same_values_as_parse_number() -> None:
    # Two parsers of the same texts: where both read a golden text, they agree
    # on its value (the released one in binary floats, percent as a fraction).
    checked = 0
    for case in MATCH_CASES:
        for text in (case["reference"], case["prediction"]):
            ours = parse_number(text)
            released = released_value_and_resolution(text)
            # The released scorer turns only "five", not "forty-five", into digits.
            if ours is None or released is None or text == "forty-five":
                continue
            checked += 1
            # Magnitudes: the released parser knows only "-" and "(...)" as signs, not "−".
            magnitude = abs(float(ours.as_fraction()))
            assert abs(released[0]) == pytest.approx(magnitude, rel=1e-12), text
    assert checked > 150


# --- parsing details ----------------------------------------------------------


def test_as_fraction_for_percent_and_bps() -> None:
    assert parse_number("12.5%").as_fraction() == Decimal("0.125")
    assert parse_number("35 bps").as_fraction() == Decimal("0.0035")
    assert parse_number("$1.2 billion").as_fraction() == Decimal("1.2E9")


def test_single_letter_scales_do_not_eat_units() -> None:
    assert parse_number("55.5 MMBOE").scale == 1
    assert parse_number("5 m2").value == 5
    assert parse_number("12 months").scale_word is None
    assert parse_number("5 MBOE").units == frozenset({"mboe"})
    assert parse_number("5 M").value == Decimal(5_000_000)


def test_parse_is_cached_and_stable() -> None:
    assert parse_number("$1.2 billion") is parse_number("$1.2 billion")


# --- find_numbers ------------------------------------------------------------


def test_find_numbers_kinds_and_offsets() -> None:
    text = (
        "As of December 31, 2023, revenue rose 13 percent to $1.2 billion, or $0.91 per "
        "share, in fiscal 2023; see Item 7 of the Form 10-K, the 2nd quarter and (1,284) "
        "MMBOE reserves of 55.5 MMBOE across twelve fields and 350万元."
    )
    spans = find_numbers(text)
    for s in spans:
        assert text[s.start : s.end] == s.text
    got = [(s.text, s.kind) for s in spans]
    assert got == [
        ("December 31, 2023", "date"),
        ("13 percent", "percent"),
        ("$1.2 billion", "money"),
        ("$0.91 per share", "money"),
        ("2023", "year"),
        ("7", "other"),
        ("10", "other"),
        ("2nd", "ordinal"),
        ("(1,284) MMBOE", "quantity"),
        ("55.5 MMBOE", "quantity"),
        ("twelve", "count"),
        ("350万元", "money"),
    ]
    assert spans[8].number.value == -1284


def test_find_numbers_unclosed_parenthesis_is_prose() -> None:
    spans = find_numbers("Costs rose (mainly $5 million of labour) this year.")
    assert [s.text for s in spans] == ["$5 million"]
    assert spans[0].number.sign == 1


def test_parenthesis_split_from_the_number_by_a_space_is_negative() -> None:
    # Table cells split as "( 92,291" + ")" are joined with a space inside the parenthesis.
    assert parse_number("( 92,291)").value == -92291
    assert parse_number("( 92,291 )").value == -92291
    assert parse_number("(92,291)").value == -92291
    # Still prose when the parenthesis never closes on the number.
    assert parse_number("( 92,291").value == 92291
    assert parse_number("see note ( 5 and 6)").value == 5


def test_find_numbers_skips_words_glued_to_digits() -> None:
    # "FY2023", "Q3" and "10-K" carry digits but are not amounts.
    kinds = {s.text: s.kind for s in find_numbers("FY2023 Q3 results in the 10-K were 5.")}
    assert "2023" not in kinds and "3" not in kinds
    assert kinds == {"10": "other", "5": "count"}


def test_find_numbers_ranges_and_following_currency() -> None:
    # A range dash is not a minus sign, and a "$" after a number opens the next one.
    spans = find_numbers("$5-$10 million; in 2019-2020 EPS was $1.25")
    assert [s.text for s in spans if s.kind == "money"] == ["$5", "$10 million", "$1.25"]
    assert (spans[2].text, spans[2].kind) == ("2019", "year")
    assert [s.number.sign for s in find_numbers("$5-$10")] == [1, 1]


def test_percent_range_second_half_is_not_negative() -> None:
    # "10%-15%" is a range (a FinDVer sentence gave the span "-15%"); a minus after a
    # space still signs its number.
    spans = find_numbers("Operating margins increase by 10%-15% in the initial year")
    assert [(s.text, s.number.sign) for s in spans] == [("10%", 1), ("15%", 1)]
    assert [s.text for s in find_numbers("10%-$15 million")] == ["10%", "$15 million"]
    assert [s.number.sign for s in find_numbers("rates of 5% and -2%")] == [1, -1]


def test_scaled_values_print_plainly() -> None:
    assert str(parse_number("$1,230 million").value) == "1230000000"
    assert str(parse_number("1.15亿元").value) == "115000000"


def test_pilot_mask_spans_found() -> None:
    instances = _pilot_instances()
    found = exact = 0
    for inst in instances:
        a, b = inst["mask_span"]
        spans = find_numbers(inst["sentence"])
        hit = [s for s in spans if s.start <= a and s.end >= b]
        found += bool(hit)
        exact += any(s.start == a and s.end == b for s in hit)
    coverage = found / len(instances)
    print(f"pilot mask spans found: {found}/{len(instances)} ({exact} exact), {coverage:.1%}")
    assert len(instances) == 160
    assert coverage >= 0.95


def test_pilot_ground_truth_matches_sentence_span() -> None:
    instances = _pilot_instances()
    ref_ok = paper_ok = 0
    for inst in instances:
        a, b = inst["mask_span"]
        span = inst["sentence"][a:b]
        ref_ok += reference_scorer_match(inst["ground_truth"], span)
        paper_ok += precision_relaxed_match(inst["ground_truth"], span).both
    print(f"pilot span vs ground truth: reference mode {ref_ok}/160, paper mode {paper_ok}/160")
    # The ground truths are unrounded table values, the spans the report's own
    # rounded figures; a handful disagree in the source (e.g. "765.7" vs "$768.1 million").
    assert ref_ok >= 150
    assert paper_ok >= 140


# --- unit groups -------------------------------------------------------------


def test_extract_units_longest_alias_first() -> None:
    assert extract_units("75.4 MBOE per day") == frozenset({"mboe_per_day"})
    assert extract_units("HK$3.1 billion") == frozenset({"hkd"})
    assert extract_units("1.2 Bcfe") == frozenset({"bcfe"})
    assert extract_units("$1.2 million") == frozenset({"usd"})


def test_extra_unit_file_adds_groups(tmp_path: Path) -> None:
    extra = tmp_path / "units.json"
    extra.write_text(
        json.dumps(
            [
                {"name": "widgets", "kind": "count", "aliases": ["widgets"]},
                {"name": "lakh", "kind": "scale", "factor": "1e5", "aliases": ["lakh"]},
                {"name": "usd", "aliases": ["greenbacks"]},
            ]
        ),
        encoding="utf-8",
    )
    groups = load_unit_groups(extra)
    p = parse_number("3 lakh widgets", groups)
    assert p.value == Decimal(300000) and p.units == frozenset({"widgets"})
    assert parse_number("5 greenbacks", groups).units == frozenset({"usd"})
    assert precision_relaxed_match("40 widgets", "40", groups) == MatchResult(True, False)
    # The default tables are untouched.
    assert parse_number("3 lakh widgets").value == 3


def test_env_var_unit_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    extra = tmp_path / "more.json"
    extra.write_text('[{"name": "rigs2", "kind": "count", "aliases": ["drilling rigs"]}]')
    monkeypatch.setenv("FINPROBE_UNITS", str(extra))
    assert "rigs2" in load_unit_groups().by_name


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "not valid JSON"),
        ('{"name": "x"}', "JSON list"),
        ('[{"aliases": ["a"]}]', "'name'"),
        ('[{"name": "s", "kind": "scale", "aliases": ["s"]}]', "factor"),
        ('[{"name": "s", "aliases": [""]}]', "non-empty"),
        ("", "empty"),
    ],
)
def test_bad_unit_file_raises_input_error(tmp_path: Path, content: str, problem: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    with pytest.raises(InputError) as err:
        load_unit_groups(bad)
    assert problem in err.value.problem
    assert err.value.path == str(bad)


def test_missing_unit_file_raises_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not found"):
        load_unit_groups(tmp_path / "nope.json")


# --- the released FAITH scorer ("reference" mode) ---------------------------

# Recorded verdicts of the authors' src/eval.py: they stay in ../shared (data from there is
# never copied into the repository); the named cases below keep each rule covered without it.
RELEASED_CASES = SHARED / "reference" / "faith-released-scorer-cases.jsonl"


def test_reference_mode_matches_the_released_scorer_verdict_for_verdict() -> None:
    # 19,506 (prediction, ground truth) pairs with the verdict of the authors' src/eval.py.
    if not RELEASED_CASES.exists():
        pytest.skip(f"released scorer cases not found at {RELEASED_CASES}")
    with open(RELEASED_CASES, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    assert len(cases) > 19000
    differ = [
        c
        for c in cases
        if reference_scorer_match(c["ground_truth"], c["prediction"])
        != c["released_scorer_correct"]
    ]
    assert not differ, differ[:20]  # all 19,506 agree; the issue asks >= 99.9%


@pytest.mark.parametrize(
    ("ground_truth", "prediction", "correct"),
    [
        ("55.5 MMBOE", " 55.5 mmboe ", True),  # exact match, case-insensitive and stripped
        ("$10,000,000", "$13 million", True),  # "10000000" has resolution 1e7: within 5e6
        ("$10,500,000", "$13 million", False),  # resolution 1e5: 24% off
        ("1,200", "1,249", True),  # resolution 100 for "1200": within 50
        ("0.60", "0.64", True),  # "0.60" has resolution 0.1
        ("-29%", "-29%", True),  # exact match before the sign rule
        ("-29%", "-29.00 %", False),  # a negative prediction is wrong
        ("-29%", "29%", True),  # a negative ground truth compares magnitudes
        ("$68,154,000", "6.82e+07", True),  # scientific notation
        ("$5 million", "5 million USD", False),  # currency words after the number fail the parse
        ("$3.6 billion", "3.6B", False),  # "B" is an alias only in its own case: "b" is not
        ("5", "five", True),  # number words to twenty
        ("5", "Five", False),  # ...lower-case only
        ("(1,284)", "1284", True),
        ("$0.91", "0.91 per share", True),  # unscaled postfix aliases have scale 1
        ("$1.2 million per share", "1.2 million per share", True),
        ("12", "", False),  # an empty prediction is wrong
        ("12", "12 days", False),
    ],
)
def test_reference_mode_rules(ground_truth: str, prediction: str, correct: bool) -> None:
    assert reference_scorer_match(ground_truth, prediction) is correct
