"""The rule-based verifier on hand-made evidence and on built claims."""

from __future__ import annotations

import json

import pytest
from shared_data import SHARED

from finprobe.benchmarks.findver.verifier import (
    DEFAULT_CHECKS,
    PRIOR_MIN_WORDS,
    RULE_CHECKS,
    WITH_SUPPORT,
    content_words,
    verifier_baseline,
    verify_claim,
)
from finprobe.retrieval import Passage

TABLE = Passage(
    "127",
    "Consolidated Results of Operations (in thousands)\n"
    "Years ended December 31, | 2023 | 2022\n"
    "Total revenues | 188,058 | 136,092\n"
    "Cost of sales | 163,795 | 142,792\n"
    "Research and development | 2,486 | 4,438",
    "table",
    0,
)
SIGNATURE = Passage("65", "By: /s/Tom Zapatinas\nDate: April 17, 2024", "paragraph", 1)
EVIDENCE = [TABLE, SIGNATURE]


def test_lookup_with_table_scale_is_entailed() -> None:
    verdict = verify_claim("The Company's cost of sales was $163.8 million in 2023.", EVIDENCE)
    assert verdict.label == "entailed"
    assert [c.kind for c in verdict.checks if c.passed] == ["number"]
    assert verdict.checks[0].evidence_id == "127"


def test_perturbed_number_is_refuted_with_the_failed_check() -> None:
    verdict = verify_claim("The Company's cost of sales was $183.8 million in 2023.", EVIDENCE)
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "$183.8 million"
    assert "Answer: refuted" in verdict.explanation()


def test_period_must_match_the_column_year() -> None:
    # 142,792 is the 2022 cost of sales: claiming it for 2023 is a period error
    assert verify_claim("Cost of sales was $142.8 million in 2023.", EVIDENCE).label == "refuted"
    assert verify_claim("Cost of sales was $142.8 million in 2022.", EVIDENCE).label == "entailed"


def test_percentage_change_and_its_direction() -> None:
    # (188,058 - 136,092) / 136,092 = 38.18%
    assert (
        verify_claim("Total revenues increased by 38.18% from 2022 to 2023.", EVIDENCE).label
        == "entailed"
    )
    assert (
        verify_claim("Total revenues decreased by 38.18% from 2022 to 2023.", EVIDENCE).label
        == "refuted"
    )
    assert (
        verify_claim("Total revenues increased by 36.18% from 2022 to 2023.", EVIDENCE).label
        == "refuted"
    )


def test_difference_is_recomputed() -> None:
    # 4,438 - 2,486 = 1,952 thousand
    assert (
        verify_claim(
            "Research and development fell by $1,952 thousand in 2023 compared to 2022.", EVIDENCE
        ).label
        == "entailed"
    )


def test_dates_are_checked() -> None:
    verdict = verify_claim("Tom Zapatinas signed the report on April 17, 2024.", EVIDENCE)
    assert verdict.label == "entailed" and [c.kind for c in verdict.checks] == ["date"]
    verdict = verify_claim("Tom Zapatinas signed the report on April 18, 2024.", EVIDENCE)
    assert verdict.label == "refuted" and verdict.failed[0].kind == "date"


def test_support_is_an_opt_in_bet_not_a_default() -> None:
    # by default a verified date never turns an entailed claim refuted (monotone); the
    # undated claim has nothing to check, so the length prior answers it
    assert "support" not in DEFAULT_CHECKS and "support" in WITH_SUPPORT
    undated = verify_claim("Tom Zapatinas signed the report in 2024.", EVIDENCE)
    dated = verify_claim("Tom Zapatinas signed the report on April 17, 2024.", EVIDENCE)
    assert dated.label == "entailed" and [c.kind for c in dated.checks] == ["date"]
    assert [c.kind for c in undated.checks] == ["prior"]
    assert (
        verify_claim("Tom Zapatinas signed the report in 2024.", EVIDENCE, kinds=RULE_CHECKS).label
        == "entailed"
    )
    # opted in: the date holds, but what happened on it is not checked
    verdict = verify_claim(
        "Tom Zapatinas signed the report on April 17, 2024.", EVIDENCE, kinds=WITH_SUPPORT
    )
    assert [(c.kind, c.passed) for c in verdict.checks] == [("date", True), ("support", False)]
    assert verdict.label == "refuted" and "Answer: refuted" in verdict.explanation()
    # a figure checked beside the date: the claim stands on it
    both = "Research and development was $2,486 thousand in 2023, as reported on April 17, 2024."
    assert verify_claim(both, EVIDENCE, kinds=WITH_SUPPORT).label == "entailed"
    # no checkable fact at all: the support bet says nothing (the length prior answers)
    verdict = verify_claim("Tom Zapatinas signed the report.", EVIDENCE, kinds=WITH_SUPPORT)
    assert [c.kind for c in verdict.checks] == ["prior"]


def test_explanation_follows_the_paper_template() -> None:
    text = verify_claim(
        "The Company's cost of sales was $163.8 million in 2023.", EVIDENCE
    ).explanation()
    info, _, rest = text.partition("Reasoning:")
    assert info.startswith("Extracted information:\n1. ") and "Table 127" in info
    assert "Step 1:" in rest and text.endswith("Answer: entailed")


def test_baseline_reads_passages_from_metadata() -> None:
    metadata = {
        "statement": "Cost of sales was $163.8 million in 2023.",
        "passages": [
            {"id": p.id, "kind": p.kind, "text": p.text, "order": p.order} for p in EVIDENCE
        ],
    }
    assert verifier_baseline(metadata).endswith("Answer: entailed")


def test_whole_percentages_are_read_at_their_written_digit() -> None:
    # 38.18% rounds to 38%; "40%" used to pass as "precise to 10"
    assert (
        verify_claim("Total revenues increased by 38% from 2022 to 2023.", EVIDENCE).label
        == "entailed"
    )
    assert (
        verify_claim("Total revenues increased by 40% from 2022 to 2023.", EVIDENCE).label
        == "refuted"
    )


def test_a_derivation_needs_wording_that_asks_for_it() -> None:
    # 163,795 + 2,486 = 166,281: a sum only when the claim speaks of a total
    assert verify_claim("Cost of sales was $166,281 thousand in 2023.", EVIDENCE).label == "refuted"
    assert (
        verify_claim(
            "Cost of sales and research and development totalled $166,281 thousand in 2023.",
            EVIDENCE,
        ).label
        == "entailed"
    )


def test_a_derivation_uses_rows_the_claim_names() -> None:
    # 38.18% is the revenue change, not a change in marketing spend
    verdict = verify_claim("Marketing spend increased by 38.18% from 2022 to 2023.", EVIDENCE)
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "38.18%"


def test_period_lengths_are_context_not_figures() -> None:
    verdict = verify_claim(
        "Over the twelve months of 2023, cost of sales was $163.8 million.",
        [TABLE],
    )
    assert [c.claim_text for c in verdict.checks if c.kind == "number"] == ["$163.8 million"]
    assert verdict.label == "entailed"


def test_prose_figures_keep_their_own_scale() -> None:
    # "one" in prose is not "$1 million"
    prose = Passage("9", "The Company received one milestone payment in 2024.", "paragraph", 0)
    verdict = verify_claim("The Company received a $1 million milestone payment in 2024.", [prose])
    assert verdict.label == "refuted"


def test_change_across_two_tables_with_the_same_row_label() -> None:
    older = Passage(
        "20", "Three months ended March 31, 2023 | Amount\nRevenues | 1,250", "table", 0
    )
    newer = Passage(
        "21", "Three months ended March 31, 2024 | Amount\nRevenues | 1,000", "table", 1
    )
    verdict = verify_claim(
        "Revenues decreased by 20.00% from the first quarter of 2023 to that of 2024.",
        [older, newer],
    )
    assert verdict.label == "entailed", verdict.explanation()
    assert "Revenues" in verdict.checks[0].detail


def test_split_parentheses_read_negative() -> None:
    # "( 92,291" + ")" joined with a space: the net change is -92,291, a fall of 75.83%
    cash = Passage(
        "210",
        "Cash flows | 2023 | 2022\nNet change in cash | ( 92,291) | ( 381,850 )\nCash at end | 29,404 | 121,695",
        "table",
        0,
    )
    # (-92,291 - -381,850) / 381,850 = +75.83% as signed amounts; the outflow's size fell
    # by 75.83%: both wordings are used for rows negative in both periods. Read as positives
    # (the split parenthesis lost) the pair would give 92,291 / 381,850 = 24.17%, not 75.83%.
    claim = "Net change in cash increased by 75.83% from 2022 to 2023."
    assert verify_claim(claim, [cash]).label == "entailed"
    assert verify_claim(claim.replace("increased", "decreased"), [cash]).label == "entailed"
    assert verify_claim(claim.replace("75.83", "24.17"), [cash]).label == "refuted"


def test_a_cell_supports_only_a_claim_about_its_row() -> None:
    # 163,795 is cost of sales: claimed for research and development it is an entity swap
    assert verify_claim("Cost of sales was $163.8 million in 2023.", EVIDENCE).label == "entailed"
    swapped = verify_claim("Research and development was $163.8 million in 2023.", EVIDENCE)
    assert swapped.label == "refuted"


# a table whose header names no years: the verifier cannot tell which column is later
NO_YEARS = Passage(
    "12",
    "Selected expenses (in thousands)\n"
    "Line item | Current | Prior\n"
    "Operating expenses | 92,853 | 75,232\n"
    "Net loss | (35,128) | (17,280)",
    "table",
    0,
)


def test_rate_of_change_direction_holds_without_column_years() -> None:
    # 75,232 -> 92,853 is +23.42%; 92,853 -> 75,232 is -18.98%: "up 18.98%" fits neither reading
    evidence = [NO_YEARS]
    assert verify_claim("Operating expenses increased by 23.42%.", evidence).label == "entailed"
    assert verify_claim("Operating expenses decreased by 18.98%.", evidence).label == "entailed"
    verdict = verify_claim("Operating expenses increased by 18.98%.", evidence)
    assert verdict.label == "refuted"
    assert "other direction" in verdict.failed[0].detail


def test_losses_in_parentheses_change_in_size() -> None:
    # a loss of (17,280) -> (35,128) widened by 103.29%; (35,128) -> (17,280) narrowed by 50.81%
    evidence = [NO_YEARS]
    assert verify_claim("Net loss increased by 103.29%.", evidence).label == "entailed"
    assert verify_claim("Net loss widened by 103.29%.", evidence).label == "entailed"
    assert verify_claim("Net loss decreased by 50.81%.", evidence).label == "entailed"
    assert verify_claim("Net loss narrowed by 50.81%.", evidence).label == "entailed"
    # as signed amounts (-35,128 -> -17,280) it "rose" by 50.81%: not how a loss is spoken of
    assert verify_claim("Net loss widened by 50.81%.", evidence).label == "refuted"
    assert verify_claim("Net loss increased by 50.81%.", evidence).label == "refuted"
    assert verify_claim("Net loss widened by 60.81%.", evidence).label == "refuted"


def test_claim_that_contradicts_its_own_figures() -> None:
    from finprobe.benchmarks.findver.verifier import direction_checks

    def passed(statement: str) -> list[bool]:
        return [c.passed for c in direction_checks(statement)]

    assert passed("Net sales increased from $1.2 billion in 2022 to $1.5 billion in 2023.") == [
        True
    ]
    assert passed("Net sales increased from $1.5 billion in 2022 to $1.2 billion in 2023.") == [
        False
    ]
    assert passed("Gross margin decreased from 45.2% to 47.1%, while revenue grew.") == [False]
    # sizes of losses: widening from (3.2) to (5.1) is an increase
    assert passed("The operating loss widened from $(3.2) million to $(5.1) million.") == [True]
    assert passed("Net loss narrowed from $(3.2) million to $(5.1) million.") == [False]
    assert passed("Revenue of $6 million was higher than the $5 million of 2022.") == [True]
    assert passed("Revenue of $4 million was higher than the $5 million of 2022.") == [False]
    assert passed("Costs of $4 million were less than $5 million.") == [True]
    # not comparisons of the two figures: a change's size, a percentage beside an amount,
    # a period range, a word that only looks like a direction ("contracts")
    assert passed("Revenue of $4 million grew by more than $5 million.") == []
    assert passed("Revenue rose 5% from $6 million.") == []
    assert passed("Sales rose from 2022 to 2023.") == []
    assert passed("Swap contracts moved from $6,786,000 to $7,186,000.") == []


def test_self_contradicting_claim_is_refuted_by_the_verifier() -> None:
    verdict = verify_claim(
        "Total revenues decreased from $136.1 million in 2022 to $188.1 million in 2023.",
        EVIDENCE,
    )
    assert verdict.label == "refuted"
    assert [c.kind for c in verdict.failed] == ["direction"]


# a results table with change columns, and a row label that carries a number
CHANGES = Passage(
    "235",
    "Operating Expenses\n"
    " | Year ended December 31, | Year ended December 31, | Year ended December 31, | Year ended December 31,\n"
    " | 2023 | 2022 | Change | Change\n"
    "Sales & marketing | $4,346,226 | $5,679,113 | $(1,332,887) | -23%\n"
    "General & administrative | 25,151,098 | 45,413,948 | (20,262,850) | -45%\n"
    "Restructuring expense | 3,883,706 | — | 3,883,706 | *\n"
    "Stock-based compensation (Note 11) | 77,861 | 76,231 | 1,630 | 2%",
    "table",
    0,
)


def test_change_columns_give_the_direction() -> None:
    evidence = [CHANGES]
    assert verify_claim("General & administrative decreased by $20,262,850.", evidence).label == (
        "entailed"
    )
    verdict = verify_claim("General & administrative increased by $20,262,850.", evidence)
    assert verdict.label == "refuted"
    assert "change the other way" in verdict.failed[0].detail
    # the 2023 level equals the change (2022 is a dash): the change column still says "up"
    assert verify_claim("Restructuring expense rose by $3,883,706.", evidence).label == "entailed"
    assert verify_claim("Restructuring expense fell by $3,883,706.", evidence).label == "refuted"
    # a claim with no direction word is not judged by the change's sign
    assert verify_claim("General & administrative changed by $20,262,850.", evidence).label == (
        "entailed"
    )


def test_change_columns_and_label_numbers_keep_the_period_columns() -> None:
    from finprobe.benchmarks.findver.verifier import passage_figures

    figures = [f for f in passage_figures(CHANGES) if f.group.startswith(("row:", "chg:"))]
    note_row = [f for f in figures if f.label.startswith("Stock-based")]
    # "Note 11" is in the label, not a column: 77,861 is 2023, 76,231 is 2022, 1,630 a change
    assert [(str(f.value), sorted(f.years), f.change) for f in note_row] == [
        ("77861", ["2023"], False),
        ("76231", ["2022"], False),
        ("1630", [], True),
        ("2", [], True),
    ]
    # 76,231 -> 77,861 rose: with the years known, "decreased by $1,630" is the other way
    claim = "Stock-based compensation (Note 11) decreased by $1,630 from 2022 to 2023."
    assert verify_claim(claim, [CHANGES]).label == "refuted"
    assert verify_claim(claim.replace("decreased", "increased"), [CHANGES]).label == "entailed"


def test_a_cell_of_another_row_than_the_one_the_claim_names() -> None:
    table = Passage(
        "40",
        "Balance sheet (in thousands) | 2023 | 2022\n"
        "Total current assets | 714,027 | 24,188\n"
        "Total assets | 1,067,079 | 519,570\n"
        "Total current liabilities | 594,116 | 545,828",
        "table",
        0,
    )
    assert verify_claim("Total assets were $1,067,079 thousand in 2023.", [table]).label == (
        "entailed"
    )
    # the claim names "Total current liabilities" in full: 1,067,079 is another row's
    verdict = verify_claim("Total current liabilities were $1,067,079 thousand in 2023.", [table])
    assert verdict.label == "refuted"
    assert "another row" in verdict.failed[0].detail
    # a claim that names no row in full still reads any row sharing a word with it
    assert verify_claim("Assets in all were $1,067,079 thousand in 2023.", [table]).label == (
        "entailed"
    )


def test_more_than_as_an_approximator_is_no_comparison() -> None:
    from finprobe.benchmarks.findver.verifier import direction_checks

    # review 5, item 1: "more than" / "less than" after another noun or a connective
    for statement in (
        "The Company has 2 segments and more than 50 subsidiaries.",
        "We operated 3 distribution centers at year end, with more than 200 employees.",
        "Revenue was $5 million in 2023 and more than $6 million in 2022.",
    ):
        assert direction_checks(statement) == [], statement
        assert verify_claim(statement, [], kinds=("direction",)).label == "entailed", statement
    # right after the first figure it is still a comparison
    assert [c.passed for c in direction_checks("Sales were $4 million, more than $5 million.")] == [
        False
    ]
    assert [
        c.passed for c in direction_checks("Sales of $6 million, which was higher than $5 million.")
    ] == [True]


def test_negative_pairs_move_either_way_unless_a_size_is_meant() -> None:
    from finprobe.benchmarks.findver.verifier import direction_checks

    # review 5, item 2: not a cost, loss or outflow: neither reading is refuted
    for statement in (
        "Other comprehensive income decreased from $(3) million to $(5) million.",
        "Net change in cash decreased from $(3.0) million to $(5.0) million in 2023.",
    ):
        assert direction_checks(statement) == [], statement
        assert verify_claim(statement, [], kinds=("direction",)).label == "entailed", statement
    # a loss, or "widened", still speaks of a size
    assert [
        c.passed for c in direction_checks("Net loss decreased from $(3) million to $(5) million.")
    ] == [False]
    assert [
        c.passed for c in direction_checks("The deficit widened from $(3) million to $(5) million.")
    ] == [True]


def test_direction_word_belongs_to_the_verb_before_from() -> None:
    from finprobe.benchmarks.findver.verifier import direction_checks

    # review 5, item 3: "lower" belongs to another subject, across a comma
    statement = "Despite lower sales volumes, gross margin went from 30% to 35%."
    assert direction_checks(statement) == []
    assert verify_claim(statement, [], kinds=("direction",)).label == "entailed"
    assert [
        c.passed for c in direction_checks("Despite lower volumes, margin fell from 30% to 35%.")
    ] == [False]


def test_the_claims_own_row_is_never_another_row() -> None:
    # review 5, item 4: "(loss)", "Total" and plurals are the claim's own row
    table = Passage(
        "7",
        "(in millions) | 2023 | 2022\nRevenue | 50.0 | 40.0\nNet income (loss) | 5.0 | 4.0",
        "table",
        0,
    )
    claim = "Net income was $5.0 million in 2023 on revenue of $50.0 million."
    assert verify_claim(claim, [table]).label == "entailed"
    table = Passage(
        "8",
        "(in millions) | 2023 | 2022\nProduct sales | 30.0 | 25.0\nService | 20.0 | 15.0\n"
        "Total revenues | 50.0 | 40.0",
        "table",
        0,
    )
    claim = "Revenues grew to $50.0 million in 2023, driven by product sales."
    assert verify_claim(claim, [table]).label == "entailed"
    # a row the claim does not name is still another line item
    verdict = verify_claim("Service sales were $30.0 million in 2023.", [table])
    assert verdict.label == "refuted"
    assert "another row" in verdict.failed[0].detail


def test_favorable_change_columns_give_no_direction() -> None:
    # review 5, item 5: a cost that rose is an unfavourable (negative) change
    table = Passage(
        "9",
        "(in millions)\n"
        " | Year Ended December 31, 2023 | Year Ended December 31, 2022 | Favorable (Unfavorable) Change\n"
        "Operating expenses | 30.0 | 25.0 | (5.0)",
        "table",
        0,
    )
    assert verify_claim("Operating expenses increased by $5.0 million in 2023.", [table]).label == (
        "entailed"
    )
    # a plain "Change" column in that convention: its sign disagrees with 25.0 -> 30.0
    plain = Passage(
        "10",
        "(in millions) | 2023 | 2022 | Change\nOperating expenses | 30.0 | 25.0 | (5.0)",
        "table",
        0,
    )
    assert verify_claim("Operating expenses increased by $5.0 million in 2023.", [plain]).label == (
        "entailed"
    )


def test_a_further_passage_counts_only_under_a_row_the_claim_names() -> None:
    # the prose passage repeats the claim's words and ranks first; the table ranks second
    prose = Passage(
        "10",
        "Research and development costs increased from 2022 to 2023 as research and "
        "development programs expanded; research and development costs will increase.",
        "paragraph",
        0,
    )
    table = Passage(
        "11",
        "(in thousands) | 2023 | 2022\nResearch and development | 4,438 | 2,486\n"
        "Marketing | 1,900 | 1,700\nResearch services | 3,100 | 2,900",
        "table",
        1,
    )
    claim = "Research and development costs increased by $1,952 thousand from 2022 to 2023."
    assert verify_claim(claim, [prose, table], top=1).label == "entailed"
    verdict = verify_claim(claim, [prose, table], top=1)
    assert [p.id for p in verdict.evidence] == ["10", "11"]  # the further passage is cited
    # a figure the further passage holds only under a row the claim does not name in
    # full: "Research services" shares "research" with the claim, not "services"
    # (3,100 - 2,900), and Marketing shares no word (1,900 - 1,700)
    other = "Research and development costs increased by $200 thousand from 2022 to 2023."
    assert verify_claim(other, [prose, table], top=1).label == "refuted"
    # a perturbed figure stays refuted
    wrong = "Research and development costs increased by $1,552 thousand from 2022 to 2023."
    assert verify_claim(wrong, [prose, table], top=1).label == "refuted"


def test_opt_in_stated_scale_refuses_another_scale() -> None:
    """A table "(in thousands)": 163,795 is $163.8 million, never $163.8 billion; without
    the opt-in rule any scale is tried (the shipped default)."""
    from finprobe.benchmarks.findver.verifier import OPT_IN_RULES

    claim = "The Company's cost of sales was $163,795 million in 2023."
    assert verify_claim(claim, EVIDENCE).label == "entailed"
    assert verify_claim(claim, EVIDENCE, rules=OPT_IN_RULES).label == "refuted"
    right = "The Company's cost of sales was $163.8 million in 2023."
    assert verify_claim(right, EVIDENCE, rules=OPT_IN_RULES).label == "entailed"
    printed = "The Company's cost of sales was $163,795 in 2023."  # the cell as printed
    assert verify_claim(printed, EVIDENCE, rules=OPT_IN_RULES).label == "entailed"


def test_opt_in_like_with_like_combines_only_what_counts_the_same() -> None:
    """1,580 units plus 150 locations is no fleet of 1,730 units; a period's length is no
    operand of a rate of change."""
    from finprobe.benchmarks.findver.verifier import OPT_IN_RULES

    fleet = Passage(
        "9",
        "We operate a fleet of 1,580 units from 150 locations. Our leases run 12 months.",
        "paragraph",
        0,
    )
    units = "The fleet totals 1,730 units in all."
    assert verify_claim(units, [fleet]).label == "entailed"  # the shipped default
    assert verify_claim(units, [fleet], rules=OPT_IN_RULES).label == "refuted"
    rate = "The count fell by 20% compared with the prior year."  # 15 -> 12 months
    stores = Passage("10", "We opened 15 stores. Our leases run 12 months.", "paragraph", 1)
    assert verify_claim(rate, [stores]).label == "entailed"
    assert verify_claim(rate, [stores], rules=OPT_IN_RULES).label == "refuted"
    same = "The fleet and the locations number 1,730 in total."
    plain = Passage("11", "We have 1,580 trucks. We have 150 depots.", "paragraph", 2)
    assert verify_claim(same, [plain], rules=OPT_IN_RULES).label == "entailed"


SHORT = "The company eliminated all going concern doubts."
LONG = (
    "The company faces substantial doubt about its ability to continue as a going concern, "
    "as recurring operating losses, negative cash flows from operations and an accumulated "
    "deficit persist, and management plans to raise additional capital through equity "
    "offerings, debt financing or strategic partnerships with pharmaceutical collaborators."
)


def test_a_claim_with_nothing_to_check_is_answered_by_its_length() -> None:
    assert content_words(SHORT) < PRIOR_MIN_WORDS <= content_words(LONG)
    short, long = verify_claim(SHORT, EVIDENCE), verify_claim(LONG, EVIDENCE)
    assert [(c.kind, c.passed) for c in short.checks] == [("prior", False)]
    assert short.label == "refuted" and long.label == "entailed"
    # the explanation says it is a guess, not a contradiction found in the evidence
    text = short.explanation()
    assert "guess from the claim's length" in text and "checks fail" not in text
    assert "No check could run" in text
    assert text.endswith("Answer: refuted")
    assert "guess" in long.explanation() and long.explanation().endswith("Answer: entailed")
    # the rule checks alone (the default before the prior): nothing contradicts it
    assert verify_claim(SHORT, EVIDENCE, kinds=RULE_CHECKS).label == "entailed"
    # a claim with a figure to check is never answered by the prior
    checked = verify_claim("Cost of sales was $163.8 million in 2023.", EVIDENCE)
    assert "prior" not in [c.kind for c in checked.checks]


def test_the_prior_counts_distinct_content_words_with_its_own_frozen_list() -> None:
    # by hand: company' revenu growth were result new product sold well its = 10. Left
    # out: stopwords (the and of in a as), figures (12, 2023), repeats (revenue(s),
    # products). Every token would give 12, figures too 12, no stopword list 15.
    sentence = (
        "The Company's revenues and its revenue growth of 12% in 2023 were a result of new "
        "products, as the products sold well."
    )
    assert content_words(sentence) == 10
    assert content_words("") == 0
    # bm25s's stopwords as of session 8: "its" and "were" count, "their" does not
    assert content_words("its were their") == 2
    assert (*RULE_CHECKS, "prior") == DEFAULT_CHECKS
    assert PRIOR_MIN_WORDS == 24


def test_the_prior_count_does_not_follow_the_retrieval_tokenizer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Retrieval may retune its tokenizer; the prior's threshold was fitted on this count."""
    import finprobe.retrieval as retrieval

    before = content_words(AT_THRESHOLD)
    monkeypatch.setattr(retrieval, "analyze", lambda text, **kwargs: text.split())
    monkeypatch.setattr(retrieval, "_STOP", frozenset({"management", "company's"}))
    monkeypatch.setattr(retrieval, "stem", lambda word: word)
    assert content_words(AT_THRESHOLD) == before == 24


# made-up claims with no figure to check, at the threshold: 24 and 23 content words
AT_THRESHOLD = (
    "Management believes that the company's diversified customer base, disciplined underwriting "
    "standards and conservative liquidity planning should help sustain stable operating margins "
    "through uncertain economic conditions during fiscal 2023."
)
# one word fewer ("fiscal"), with two repeats (liquidity, management) and a year, so that
# counting every token or the figures would push it to the threshold
BELOW_THRESHOLD = (
    "Management believes that the company's diversified customer base, disciplined underwriting "
    "standards and conservative liquidity planning with liquidity management should help sustain "
    "stable operating margins through uncertain economic conditions during 2023."
)


def test_the_prior_threshold_is_at_least_24_content_words() -> None:
    assert content_words(AT_THRESHOLD) == 24 and content_words(BELOW_THRESHOLD) == 23
    at, below = verify_claim(AT_THRESHOLD, EVIDENCE), verify_claim(BELOW_THRESHOLD, EVIDENCE)
    assert [(c.kind, c.passed) for c in at.checks] == [("prior", True)]
    assert [(c.kind, c.passed) for c in below.checks] == [("prior", False)]
    assert at.label == "entailed" and below.label == "refuted"
    assert "24 distinct content words, at least 24" in at.explanation()
    assert "23 distinct content words, fewer than 24" in below.explanation()
    # nothing else is checked in them: the rule checks alone have no check and say entailed
    for claim in (AT_THRESHOLD, BELOW_THRESHOLD):
        rules = verify_claim(claim, EVIDENCE, kinds=RULE_CHECKS)
        assert rules.checks == [] and rules.label == "entailed"


@pytest.mark.skipif(not (SHARED / "data/findver/reports").is_dir(), reason="no shared data")
def test_the_length_prior_on_two_dev_claims_of_one_report() -> None:
    """CRSR's 10-K, BM25 top-10 as the task's RAG setting: a short refuted claim with no
    figure (18 content words) was entailed before the prior; a long entailed one (27)
    stays entailed."""
    from finprobe.benchmarks.findver.dataset import report_passages, report_path
    from finprobe.retrieval import in_document_order
    from finprobe.retrievers import make_retriever

    data = SHARED / "data/findver"
    claims = {
        c["example_id"]: c
        for c in json.loads((data / "testmini-dev.json").read_text())
        if c["example_id"] in ("knowledge-val-185", "knowledge-val-80")
    }
    retriever = make_retriever("bm25")
    retriever.index(report_passages(report_path(data / "reports", "CRSR-2024-02-27_10-K.json")))
    said = {}
    for example_id, claim in claims.items():
        evidence = in_document_order(retriever.retrieve(claim["statement"], 10))
        said[example_id] = (
            verify_claim(claim["statement"], evidence).label,
            verify_claim(claim["statement"], evidence, kinds=RULE_CHECKS).label,
        )
    assert str(claims["knowledge-val-185"]["entailment_label"]) == "False"
    assert said["knowledge-val-185"] == ("refuted", "entailed")
    assert str(claims["knowledge-val-80"]["entailment_label"]) == "True"
    assert said["knowledge-val-80"] == ("entailed", "entailed")


CASH_FLOWS = Passage(
    "88",
    "Cash flows (in thousands)\n"
    "Years ended December 31, | 2023 | 2022\n"
    "Net cash used in financing activities | ( 90,000 ) | ( 100,000 )\n"
    "Net increase in cash and cash equivalents | 80,000 | 100,000",
    "table",
    0,
)


def test_a_derivation_combines_only_rows_the_claim_names_by_half_their_words() -> None:
    # -20.00% is the change of "Net increase in cash and cash equivalents", a row that
    # shares only "cash" with the claim: not the claim's line item (its own row moved 10%)
    claim = "Net cash used in financing activities decreased by 20.00% from 2022 to 2023."
    verdict = verify_claim(claim, [CASH_FLOWS])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "20.00%"
    # the claim's own row: (90,000 - 100,000) / 100,000 = -10.00%
    assert verify_claim(claim.replace("20.00%", "10.00%"), [CASH_FLOWS]).label == "entailed"
    # the other row, named by the claim, still gives its change
    assert (
        verify_claim(
            "The net increase in cash and cash equivalents fell by 20.00% from 2022 to 2023.",
            [CASH_FLOWS],
        ).label
        == "entailed"
    )


LIABILITIES = Passage(
    "129",
    "Balance sheets\n"
    "December 31, | 2023 | 2022\n"
    "Total liabilities | $9,446,420 | $12,991,036\n"
    "Total stockholders' equity | 4,120,518 | 3,877,100",
    "table",
    0,
)
SEGMENTS = Passage(
    "82",
    "Commercial Solutions accounted for about 50% of total revenues in fiscal 2024.",
    "paragraph",
    1,
)
DEBT = Passage(
    "40",
    "Interest expense was $7.4 million in 2023. Total debt was $37.8 million at December 31, 2023.",
    "paragraph",
    2,
)


def test_approximately_is_no_wider_than_the_evidence_allows() -> None:
    # exact cells give -27.29%: "approximately 27.31%" states two decimals the cells deny
    claim = "Total liabilities decreased by approximately 27.31% from 2022 to 2023."
    verdict = verify_claim(claim, [LIABILITIES])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "27.31%"
    assert verify_claim(claim.replace("27.31%", "27.3%"), [LIABILITIES]).label == "entailed"
    assert verify_claim(claim.replace("27.31%", "27%"), [LIABILITIES]).label == "entailed"
    # a rounder evidence figure cannot give a finer claim figure
    share = "Commercial Solutions revenues were approximately {} of total revenues in fiscal 2024."
    assert verify_claim(share.format("49.88%"), [SEGMENTS]).label == "refuted"
    assert verify_claim(share.format("51%"), [SEGMENTS]).label == "entailed"
    # operands rounded to $0.1 million carry their rounding into the rate: 7.4 / 37.8 is
    # 19.58% +- 0.16, so "approximately 19.47%" holds and 19.0% does not
    rate = "Interest expense was approximately {} of total debt in 2023."
    assert verify_claim(rate.format("19.47%"), [DEBT]).label == "entailed"
    assert verify_claim(rate.format("19.0%"), [DEBT]).label == "refuted"


MARGINS = Passage(
    "247",
    "Gross margin was 44.0% in 2023 and 42.0% in 2022. Other income was $0.1 million in "
    "2023, against interest expense of $3.9 million.",
    "paragraph",
    0,
)


def test_percentage_points_are_a_difference_of_two_rates() -> None:
    # $0.1 million is 2.56% of $3.9 million, but "points" are a difference of rates:
    # the margin moved 2.0 points
    claim = "Gross margin increased by 2.6 percentage points from 2022 to 2023."
    verdict = verify_claim(claim, [MARGINS])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "2.6 percentage points"
    assert verify_claim(claim.replace("2.6", "2.0"), [MARGINS]).label == "entailed"
    # a share of amounts is still one
    share = "In 2023, other income was 2.6% of interest expense."
    assert verify_claim(share, [MARGINS]).label == "entailed"


INCOME = Passage(
    "151",
    "Net income in fiscal 2022 was higher than in any prior fiscal year of the company.\n"
    "Fiscal years | 2023 | 2022\n"
    "Net income | $230,123 | $408,839",
    "table",
    0,
)


def test_a_rate_of_change_the_figures_give_outweighs_the_closest_sentence() -> None:
    # (230,123 - 408,839) / 408,839 = -43.71%: the figures say "decrease"; the closest
    # sentence's "higher" speaks of 2022 against earlier years
    claim = "The percentage decrease in net income from fiscal 2022 to fiscal 2023 is 43.71%."
    verdict = verify_claim(claim, [INCOME])
    assert verdict.label == "entailed"
    assert [c.kind for c in verdict.checks] == ["number"]
    # without a figure that gives the rate, the wording check still speaks
    vague = "The decrease in net income in fiscal 2022 came from lower sales in the year."
    assert [c.kind for c in verify_claim(vague, [INCOME]).failed] == ["wording"]


REVENUE = Passage(
    "4",
    "Revenue\nYears ended December 31, | 2023 | 2022\nRevenue | 110,000 | 100,000",
    "table",
    0,
)
MARGIN_DOWN = Passage("5", "Gross margin decreased in 2023 across our segments.", "paragraph", 1)
UNDATED = Passage(
    "7",
    "Segment results\nPeriod | Current year | Prior year\nRevenue | 90,000 | 100,000",
    "table",
    0,
)
REVENUE_DOWN = Passage(
    "6", "Revenue decreased compared with the prior year on fewer units.", "paragraph", 1
)


def test_a_rate_of_change_silences_the_wording_only_in_its_own_clause_and_dated_order() -> None:
    # revenue's 10.00% rise is right, but "gross margin increased" is another clause's
    # direction, which the closest sentence contradicts
    two = "Revenue increased by 10.00% from 2022 to 2023, and gross margin increased in 2023 across our segments."
    verdict = verify_claim(two, [REVENUE, MARGIN_DOWN])
    assert verdict.label == "refuted"
    assert [c.kind for c in verdict.failed] == ["wording"]
    # undated columns: 100,000 -> 90,000 read backwards gives +11.11%; choosing the order
    # that agrees with the claim confirms nothing, so the sentence's "decreased" speaks
    up = "Revenue increased by 11.11% compared with the prior year."
    verdict = verify_claim(up, [UNDATED, REVENUE_DOWN])
    assert verdict.label == "refuted"
    assert [c.kind for c in verdict.failed] == ["wording"]
    assert (
        verify_claim(
            up.replace("increased by 11.11%", "decreased by 10.00%"), [UNDATED, REVENUE_DOWN]
        ).label
        == "entailed"
    )


def test_a_percentage_increase_or_decrease_names_its_direction_however_far_the_figure() -> None:
    # net income fell 43.71%: "the percentage increase ... is 43.71%" says the other way
    claim = "The percentage {} in net income from fiscal 2022 to fiscal 2023 is 43.71%."
    verdict = verify_claim(claim.format("increase"), [INCOME])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "43.71%"
    assert "other direction" in verdict.failed[0].detail
    assert verify_claim(claim.format("decrease"), [INCOME]).label == "entailed"


THREE_YEARS = Passage(
    "8",
    "Revenue\nYears ended December 31, | 2023 | 2022 | 2021\nRevenue | 88,000 | 80,000 | 100,000",
    "table",
    0,
)


def test_a_named_percentage_change_gives_its_direction_to_the_first_figure_only() -> None:
    # 80,000 -> 88,000 is +10.00%; 100,000 -> 80,000 the 20.00% fall the claim says
    claim = (
        "The percentage increase in revenue from 2022 to 2023 was 10.00%, "
        "after a 20.00% fall from 2021 to 2022."
    )
    verdict = verify_claim(claim, [THREE_YEARS])
    assert verdict.label == "entailed", verdict.explanation()
    wrong = claim.replace("10.00%", "20.00%", 1).replace("20.00% fall", "10.00% fall")
    assert verify_claim(wrong, [THREE_YEARS]).label == "refuted"


def test_a_bound_is_not_an_approximation() -> None:
    # "more than 49.5%" bounds the share, it does not claim 49.5 to two decimals: the
    # coarser "about 50%" does not contradict it (an "approximately 49.5%" it does)
    claim = "Commercial Solutions accounted for {} 49.5% of total revenues in fiscal 2024."
    for bound in ("more than", "over", "at least"):
        assert verify_claim(claim.format(bound), [SEGMENTS]).label == "entailed", bound
    assert verify_claim(claim.format("approximately"), [SEGMENTS]).label == "refuted"


OPEX = Passage(
    "1",
    "Operating expenses (in thousands)\n"
    "Years ended December 31, | 2023 | 2022\n"
    "Selling, general and administrative expenses | 11,250 | 10,000\n"
    "Research and development expenses | 5,500 | 5,000\n"
    "Total operating expenses | 16,750 | 15,000",
    "table",
    0,
)
OPERATING_CASH = Passage(
    "2",
    "Cash flows (in thousands)\n"
    "Years ended December 31, | 2023 | 2022\n"
    "Net cash provided by operating activities | 12,000 | 10,000\n"
    "Net increase (decrease) in cash and cash equivalents | 3,000 | 2,000",
    "table",
    0,
)


def test_abbreviations_name_their_rows_and_direction_words_name_none() -> None:
    # "SG&A" is "Selling, general and administrative": 12.50% is that row's rise
    sga = "SG&A expenses increased by 12.50% from 2022 to 2023."
    assert verify_claim(sga, [OPEX]).label == "entailed"
    assert verify_claim(sga.replace("12.50%", "10.00%"), [OPEX]).label == "refuted"
    assert verify_claim("R&D expenses increased by 10.00% from 2022 to 2023.", [OPEX]).label == (
        "entailed"
    )
    # 50.00% is the change of "Net increase (decrease) in cash", which the claim names only
    # by "cash" and its own verb "increased": the claim's row rose 20.00%
    cash = "Net cash provided by operating activities increased by 50.00% from 2022 to 2023."
    verdict = verify_claim(cash, [OPERATING_CASH])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "50.00%"
    assert verify_claim(cash.replace("50.00%", "20.00%"), [OPERATING_CASH]).label == "entailed"
    # the row named by its own words still gives its change
    net = "The net increase in cash and cash equivalents grew by 50.00% from 2022 to 2023."
    assert verify_claim(net, [OPERATING_CASH]).label == "entailed"


STORES = Passage("30", "Of our 40 stores, 1 closed in 2023.", "paragraph", 0)


def test_approximately_never_widens_a_derived_figure_past_two_percent() -> None:
    # 1 / 40 is 2.5%, but a "1" carries +-50% rounding: without the 2% cap its rounding
    # would let "approximately 3.0%" through
    claim = "Approximately {} of our stores closed in 2023."
    assert verify_claim(claim.format("2.5%"), [STORES]).label == "entailed"
    verdict = verify_claim(claim.format("3.0%"), [STORES])
    assert verdict.label == "refuted"
    assert verdict.failed[0].claim_text == "3.0%"
