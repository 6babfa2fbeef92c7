"""FinED injection: golden cases per rule injector (with the variety each must show), the
review rules on golden good and bad edits, the two-place injectors with their negatives,
the pipeline on real reports, and the data card."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from shared_data import SHARED

from finprobe.benchmarks.fined.card import data_card, edit_concentration
from finprobe.benchmarks.fined.dataset import AnnotatedError, FinEDDocument
from finprobe.benchmarks.fined.edits import Injection
from finprobe.benchmarks.fined.filter import (
    check_injection,
    numbers_rule_ok,
    revert_error,
    verify_calculation,
)
from finprobe.benchmarks.fined.inject import (
    FAMILY_CAP,
    RULE_SUBTYPES,
    SENTENCE_INJECTORS,
    choose_injections,
    inject_rules,
    parse_llm_injection,
    rule_candidates,
    source_from_document,
    source_from_text,
    still_inferable,
)
from finprobe.benchmarks.fined.inject_fre import (
    _value_elsewhere,
    clause_conflict_candidates,
    numerical_inconsistency_candidates,
)
from finprobe.benchmarks.fined.review import review
from finprobe.benchmarks.fined.segment import SentenceSpan
from finprobe.benchmarks.fined.taxonomy import SUBTYPE_IDS

GOLDEN = Path(__file__).parent / "golden" / "fined_injectors.jsonl"
GOLDEN_REVIEW = Path(__file__).parent / "golden" / "fined_review.jsonl"
REPORTS = SHARED / "data" / "findver" / "reports"


def _read(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def test_every_subtype_has_a_rule_injector() -> None:
    assert sorted(RULE_SUBTYPES) == sorted(SUBTYPE_IDS)


def _gate(case: dict, modified: str, detail: dict) -> tuple[bool, str]:
    """The filter and the review rules, with the sentence inside a small document."""
    context = case.get("context", "")
    text = "Intro. " + (context + " " if context else "") + case["sentence"] + " Outro."
    start = text.index(case["sentence"])
    ok, why = check_injection(
        case["subtype"],
        case["sentence"],
        modified,
        text,
        start,
        start + len(case["sentence"]),
        detail,
    )
    if not ok:
        return ok, why
    return review(case["subtype"], case["sentence"], modified, text)


@pytest.mark.parametrize(
    "case", _read(GOLDEN), ids=lambda c: f"{c['subtype']}:{c['sentence'][:30]}"
)
def test_golden_injector(case: dict) -> None:
    inject = SENTENCE_INJECTORS[case["subtype"]]
    outputs = []
    for seed in range(20):
        change = inject(
            case["sentence"], case["language"], random.Random(seed), case.get("context", "")
        )
        if case.get("none"):
            assert change is None
            continue
        assert change is not None
        # whatever the injector draws passes the same gates as in a build
        ok, why = _gate(case, change.modified, change.detail)
        assert ok, f"seed {seed}: {change.modified!r}: {why}"
        outputs.append(change)
    if case.get("none"):
        return
    if "modified" in case:
        assert outputs[0].modified == case["modified"]
    if "contains" in case:
        assert any(case["contains"] in c.modified for c in outputs)
    if "formula" in case:
        assert outputs[0].detail["formula"] == case["formula"]
        assert verify_calculation(outputs[0].detail) == (True, "")
    # a family of edits, not one template
    assert len({c.modified for c in outputs}) >= case.get("min_distinct", 1)


@pytest.mark.parametrize("case", _read(GOLDEN_REVIEW), ids=lambda c: c["why"][:50])
def test_review_rules_on_golden_edits(case: dict) -> None:
    document = case.get("document") or f"Intro. {case['original']} Outro."
    ok, why = review(case["subtype"], case["original"], case["modified"], document)
    assert ok == case["keep"], why
    if not case["keep"]:
        assert why.startswith(case["reason"])


def test_filter_rejects_unintended_number_changes() -> None:
    assert not numbers_rule_ok(
        "terminology_misuse", "equity financing of $5 million", "debt financing of $6 million"
    )[0]
    assert not numbers_rule_ok("numerical_inconsistency", "a 5 and 6", "a 7 and 8")[0]
    assert numbers_rule_ok("numerical_inconsistency", "a 5 and 6", "a 5 and 8")[0]
    assert not numbers_rule_ok("numerical_missing", "was $5 in 2023", "was $7 in 2023")[0]
    assert not numbers_rule_ok("redundant_statement", "was $5 in 2023", "was in 2023")[0]


def test_calculation_verifier_recomputes() -> None:
    detail = {
        "formula": "a=b+c",
        "tolerance": "0.1",
        "original_values": ["15", "10", "5"],
        "modified_values": ["15", "10", "5"],
    }
    assert verify_calculation(detail) == (False, "formula still holds after the change")
    detail["modified_values"] = ["17", "10", "5"]
    assert verify_calculation(detail)[0]
    detail["original_values"] = ["16", "10", "5"]
    assert verify_calculation(detail) == (False, "formula does not hold on the original")


def test_parse_llm_injection() -> None:
    reply = 'Sure. <think>x {"a": 1}</think> {"original": "Rate: 6%.", "modified": "Rate: 8%."}'
    assert parse_llm_injection(reply) == ("Rate: 6%.", "Rate: 8%.")
    assert parse_llm_injection('{"original": ""}') is None


def _spans(text: str, sentences: list[str]) -> list[SentenceSpan]:
    return [SentenceSpan(text.index(s), text.index(s) + len(s), s) for s in sentences]


def test_numerical_inconsistency_needs_the_same_quantity() -> None:
    first = "As of December 31, 2023, we had an accumulated deficit of $58.5 million."
    same = "At December 31, 2023, our accumulated deficit was $58.5 million."
    other = "Segment operating income was $58.5 million in 2023."
    text = f"{first}\n\n{same}\n\n{other}"
    cands = numerical_inconsistency_candidates(
        _spans(text, [first]), _spans(text, [same, other]), random.Random(0), "p0"
    )
    assert [c.original for c in cands] == [same]  # the later mention of the same quantity
    assert "$58.5 million" not in cands[0].modified
    assert cands[0].detail["consistent_with"] == first
    # negative: with the first mention swapped out, nothing is injected
    assert not numerical_inconsistency_candidates(
        _spans(text, [other]), _spans(text, [same]), random.Random(0), "p0"
    )


def test_redundant_restatement_lowercases_a_common_opener_and_keeps_names() -> None:
    # audit: "; again, No meaningful..." kept the capital of a common word
    prev = "No meaningful changes were made to the 12 policies in 2023."
    s = "The Company reviewed its accounting policies during the year."
    outs = set()
    for seed in range(40):
        c = SENTENCE_INJECTORS["redundant_statement"](s, "en", random.Random(seed), prev)
        if c:
            outs.add(c.modified)
            assert "no meaningful changes were made" in c.modified
            assert review("redundant_statement", s, c.modified, f"{prev} {s}")[0]
    assert any(". As noted, no meaningful" in o for o in outs)  # a separate restating sentence
    # a name keeps its capital; a capitalised word that is neither is left alone
    named = "Kepler was appointed Chief Financial Officer on 12 May."
    here = "The Board thanked Kepler for his service during the year."
    c = SENTENCE_INJECTORS["redundant_statement"](here, "en", random.Random(0), named)
    assert c and "Kepler was appointed" in c.modified
    odd = "Acquisitions were made for $12 million in 2023."
    assert SENTENCE_INJECTORS["redundant_statement"](s, "en", random.Random(0), odd) is None


def test_numerical_inconsistency_needs_the_same_head_noun() -> None:
    # audit CNGLW: an IPO's price per unit is not a private placement's price per placement unit
    first = (
        "On March 5, 2024, the Company sold 600,000 Placement Units at $10.00 per Placement Unit."
    )
    later = "On March 5, 2024, the Company sold 20,000,000 Units at $10.00 per Unit in the IPO."
    text = f"{first}\n\n{later}"
    assert not numerical_inconsistency_candidates(
        _spans(text, [first]), _spans(text, [later]), random.Random(0), "p0"
    )
    # the same price per unit stated twice is one quantity
    again = "On March 5, 2024, the Company sold the Placement Units at $10.00 per Placement Unit."
    text = f"{first}\n\n{again}"
    assert numerical_inconsistency_candidates(
        _spans(text, [first]), _spans(text, [again]), random.Random(0), "p0"
    )


def test_clause_conflict_restates_a_stipulation_with_another_value() -> None:
    stip = "The 2026 Notes bear interest at 5.25% per annum and mature on June 1, 2026."
    filler = " ".join(["Revenue grew in all segments during the year."] * 80)
    last = "We believe the 2026 Notes and our cash will meet our needs."
    text = f"{stip}\n\n{filler}\n\n{last}"
    paragraphs = [("p0", len(stip), stip), ("p2", len(text), last)]
    cands = clause_conflict_candidates(_spans(text, [stip, last]), paragraphs, random.Random(1))
    assert {c.detail["kind"] for c in cands} == {"rate", "maturity"}
    for c in cands:
        assert c.insert and "2026 Notes" in c.modified and c.modified not in text
        assert c.detail["new"] in c.modified and c.detail["old"] not in c.modified
        assert review("clause_conflict", "", c.modified, text)[0]
    # negative: the same document without the stipulation yields nothing
    bare = f"{filler}\n\n{last}"
    assert not clause_conflict_candidates(
        _spans(bare, [last]), [("p2", len(bare), last)], random.Random(1)
    )


def _cc_doc(extra: str = "", lead: str = "") -> tuple[str, list[tuple[str, int, str]], list[str]]:
    stip = "The 2026 Notes bear interest at 5.25% per annum and mature on June 1, 2026."
    filler = " ".join(["Revenue grew in all segments during the year."] * 80)
    last = "We believe the 2026 Notes and our cash will meet our needs." + lead
    text = f"{stip}\n\n{filler}\n\n{last}" + (f"\n\n{extra}" if extra else "")
    paragraphs = [("p0", len(stip), stip), ("p2", text.index(last) + len(last), last)]
    return text, paragraphs, [stip, last]


def test_clause_conflict_skips_a_subject_whose_terms_were_amended() -> None:
    # audit BMNR: the anchor amount had been superseded by an amendment
    text, paragraphs, sents = _cc_doc()
    assert clause_conflict_candidates(_spans(text, sents), paragraphs, random.Random(1), text)
    amended = text + "\n\nIn March 2024, the 2026 Notes were amended to extend their term."
    assert not clause_conflict_candidates(
        _spans(amended, sents), paragraphs, random.Random(1), amended
    )
    # a mere possibility of change is no amendment
    maybe = text + "\n\nThe terms of the 2026 Notes may be extended or modified by the holders."
    assert clause_conflict_candidates(_spans(maybe, sents), paragraphs, random.Random(1), maybe)


def test_clause_conflict_new_value_is_no_real_figure_of_the_document() -> None:
    # audit BMNR: the new value $1,300,000 was a real figure elsewhere in the report
    assert _value_elsewhere("amount", "$1,300,000", "Fees of $1,300,000 were paid.")
    assert _value_elsewhere("rate", "5.50%", "The swap fixes the rate at 5.50 percent.")
    assert not _value_elsewhere("amount", "$1,300,000", "Fees of $11,300,000 were paid.")
    assert not _value_elsewhere("maturity", "June 1, 2027", "Paid on June 1, 2026.")
    text, paragraphs, sents = _cc_doc()
    for seed in range(5):
        for c in clause_conflict_candidates(
            _spans(text, sents), paragraphs, random.Random(seed), text
        ):
            assert c.detail["new"] not in text


def test_clause_conflict_never_inserted_after_a_lead_in_or_where_the_subject_is_not_named() -> None:
    # audit COLM: a restatement went between "...in the following table:" and the table
    text, paragraphs, sents = _cc_doc(lead=" Maturities are in the following table:")
    assert not clause_conflict_candidates(_spans(text, sents), paragraphs, random.Random(1), text)
    # a far paragraph that does not name the 2026 Notes is no place for it either
    text, paragraphs, sents = _cc_doc()
    other = "We believe our cash will meet our needs."
    text2 = text.replace(sents[1], other)
    paragraphs2 = [paragraphs[0], ("p2", text2.index(other) + len(other), other)]
    assert not clause_conflict_candidates(
        _spans(text2, [sents[0], other]), paragraphs2, random.Random(1), text2
    )
    # and the pipeline never offers a paragraph right before a table
    stip = "The 2026 Notes bear interest at 5.25% per annum and mature on June 1, 2026."
    filler = "\n".join(["Revenue grew in all segments during the year."] * 80)
    doc = f"{stip}\n{filler}\nThe 2026 Notes are listed below.\n| Notes | 2026 |\n| a | 1 |"
    src = source_from_text(doc, "t")
    cands = rule_candidates(src, random.Random(0)).get("clause_conflict", [])
    assert not [c for c in cands if c.insert and c.start == doc.index("\n| Notes")]


def test_an_anchored_error_whose_anchor_another_error_rewrote_is_dropped() -> None:
    # audit COLM: another error of the same document rewrote the clause-conflict anchor
    stip = "The 2026 Notes bear interest at 5.25% per annum."
    filler = "\n".join(["Revenue grew in all segments during the year."] * 40)
    last = "We believe the 2026 Notes and our cash will meet our needs."
    doc = f"{stip}\n{filler}\n{last}"
    src = source_from_text(doc, "t")
    end = doc.index(last) + len(last)
    cc = Injection(
        "clause_conflict",
        "",
        "Interest on the 2026 Notes accrues at 6.25% per annum.",
        end,
        end,
        "rule:clause_conflict",
        {"conflicts_with": stip},
        insert=True,
    )
    assert still_inferable(src, [cc]) == [cc]
    vague = stip.replace("at 5.25% per annum", "at a rate to be determined")
    other = Injection("ambiguous_expression", stip, vague, 0, len(stip), "rule:x", {})
    dropped: Counter = Counter()
    assert still_inferable(src, [cc, other], dropped) == [other]
    assert dropped[("clause_conflict", "final text: its anchor no longer holds")] == 1


def _check_document(src, doc) -> None:
    assert 1 <= len(doc.errors) <= 4
    assert len({e.sentence for e in doc.errors}) == len(doc.errors)
    for e in doc.errors:
        assert doc.text[e.start : e.start + len(e.sentence)] == e.sentence
        assert doc.text.count(e.sentence) == 1
        assert "  " not in e.sentence or "  " in e.original
    # reverting every error gives back the source text exactly: nothing else changed
    for e in sorted(doc.errors, key=lambda e: e.start, reverse=True):
        revert_error(doc, e)
    assert doc.text == src.text


def test_pipeline_on_findver_reports_is_sound_and_deterministic() -> None:
    files = sorted(REPORTS.glob("*.json.gz"))[:3] if REPORTS.is_dir() else []
    if not files:
        pytest.skip("shared FinDVer reports not available")
    from finprobe.document import load_findver_report

    counts: Counter = Counter()
    dropped: Counter = Counter()
    docs = []
    for f in files:
        src = source_from_document(load_findver_report(f))
        doc = inject_rules(src, seed=1, max_errors=4, global_counts=counts, dropped=dropped)
        again = inject_rules(
            source_from_document(load_findver_report(f)), seed=1, max_errors=4, global_counts=None
        )
        assert doc.id == again.id
        docs.append(doc)
        card = data_card([doc], dropped, probe=False)
        assert card["errors"] == len(doc.errors)
        _check_document(src, doc)
    # the corpus-level balancing spreads errors over subtypes
    assert len(counts) >= 8
    # the review rules did reject candidates, and say why
    assert dropped and all(isinstance(why, str) and why for _, why in dropped)


def test_data_card_counts_concentration_and_probe() -> None:
    pytest.importorskip("sklearn")
    text = "\n".join(
        f"Revenue in region {i} was ${i}.{i} million, and costs were ${i + 1}.0 million for the year."
        for i in range(1, 9)
    )
    docs = []
    for k in range(4):
        src = source_from_text(text, f"doc{k}")
        docs.append(inject_rules(src, seed=k, max_errors=2))
    card = data_card(docs, Counter({("illegal_time", "not inferable: x"): 2}), seed=0)
    assert card["errors"] == sum(len(d.errors) for d in docs) > 0
    assert card["dropped"] == {"illegal_time": {"not inferable: x": 2}}
    conc = edit_concentration(docs)
    assert all(0 < c["top_share"] <= 1 for c in conc.values())
    for negatives in ("untouched", "matched", "originals"):
        probe = card["surface_probe"][negatives]
        assert probe["edited"] == card["errors"]
        assert probe["learned"]["available"] and 0.0 <= probe["learned"]["f1"] <= 1.0


def test_planner_caps_an_edit_family_and_the_card_reports_families() -> None:
    # audit 7: families dominated (e.g. SEC form swaps 10/11) although no one edit did
    def cand(i: int, family: str) -> Injection:
        return Injection(
            "ambiguous_expression",
            f"s{i}",
            f"m{i}",
            10 * i,
            10 * i + 5,
            "rule:x",
            {"family": family, "edit": f"e{i}"},
        )

    edits: Counter = Counter()
    picked = []
    for doc in range(12):
        # every document offers a dominant family, and every other one a second family too
        pool = [cand(2 * doc, "exception")] + (
            [cand(2 * doc + 1, "vague amount")] if doc % 2 else []
        )
        chosen = choose_injections(
            {"ambiguous_expression": pool}, random.Random(doc), 1, None, edits
        )
        picked += [c.detail["family"] for c in chosen]
    share = Counter(picked)["exception"] / len(picked)
    assert share <= FAMILY_CAP + 1e-9, picked
    docs = [
        FinEDDocument(
            id="d",
            text="x",
            scene=None,
            language="en",
            errors=[
                AnnotatedError(
                    sentence="m",
                    subtype="ambiguous_expression",
                    original="s",
                    start=0,
                    source="rule:x",
                    detail={"family": f, "edit": f"e{i}"},
                )
                for i, f in enumerate(picked)
            ],
        )
    ]
    conc = edit_concentration(docs)["ambiguous_expression"]
    assert conc["families"] == dict(Counter(picked).most_common())
    assert conc["top_family_share"] == max(Counter(picked).values()) / len(picked)


def test_pipeline_on_chinese_text() -> None:
    text = "\n".join(
        [
            "一、项目名称：办公软件采购；",
            "二、投标截止时间为2024年5月22日9时30分，开标时间为2024年5月22日9时30分。",
            "三、本项目最高限价：350万元，同比增长5.2%。",
            "四、计划工期：180天，供应商不得将项目转包。",
            "五、邮编：735019，联系电话：0937-1234567。",
        ]
    )
    src = source_from_text(text, "zh-demo", scene="tender_announcement")
    assert src.language == "zh"
    doc = inject_rules(src, seed=0, max_errors=4)
    assert len(doc.errors) >= 3
    _check_document(src, doc)


class _FakeModel:
    """Stands in for an inspect Model: replies with a fixed injection."""

    def __init__(self, original: str, modified: str) -> None:
        self.reply = json.dumps({"original": original, "modified": modified})

    async def generate(self, prompt: str) -> object:  # returns what inspect's ModelOutput has
        class _Out:
            completion = self.reply

        return _Out()

    def __str__(self) -> str:
        return "fake/model"


def test_llm_injections_pass_the_same_review_rules() -> None:
    import asyncio

    from finprobe.benchmarks.fined.inject import llm_inject

    sentence = "We may raise funds through equity financing."
    cued = "We raised funds through equity financing, issuing 2 million shares of common stock."
    text = f"Revenue was $5.0 million in 2023.\n\n{sentence} {cued}"
    src = source_from_text(text, "llm-demo")
    block = tuple(b.id for b in src.blocks)
    dropped: Counter = Counter()
    # no cue in the sentence shows "debt financing" is wrong: rule 3 drops it
    bad = _FakeModel(sentence, sentence.replace("equity", "debt"))
    assert asyncio.run(llm_inject(bad, src, "terminology_misuse", block, dropped=dropped)) is None
    assert dropped == Counter(
        {("terminology_misuse", "not inferable: no cue contradicts the new term"): 1}
    )
    # the shares issued show it: kept, with its edit recorded for the data card
    good = _FakeModel(cued, cued.replace("equity", "debt"))
    inj = asyncio.run(llm_inject(good, src, "terminology_misuse", block, dropped=dropped))
    assert inj is not None and inj.injector == "llm:fake/model"
    assert inj.detail["edit"] == "equity -> debt"


def test_clause_conflict_new_kinds_signing_date_and_notes_named_with_rate_and_year() -> None:
    from finprobe.benchmarks.fined.inject_fre import superseded

    notes = (
        "2023 Upsize of ABL Credit Agreement. We had $375.0 million of our fixed 6.000% senior"
        ' secured notes due 2026 (the "Senior Notes") outstanding.'
    )
    signed = "On December 12, 2023, we entered into a Share Exchange Agreement with Evtec."
    filler = " ".join(["Revenue grew in all segments during the year."] * 80)
    last = "The Share Exchange Agreement and the Senior Notes are described in Note 9."
    text = f"{notes}\n\n{signed}\n\n{filler}\n\n{last}"
    paragraphs = [
        ("p0", len(notes), notes),
        ("p1", text.index(signed) + len(signed), signed),
        ("p3", len(text), last),
    ]
    # the upsize belongs to the ABL agreement, not to the notes named after it
    assert not superseded("Senior Notes", text)
    cands = clause_conflict_candidates(
        _spans(text, [notes, signed, last]), paragraphs, random.Random(3), text
    )
    assert {c.detail["kind"] for c in cands} == {"rate", "maturity", "effective date"}
    for c in cands:
        assert c.insert and c.start == len(text)
        assert review("clause_conflict", "", c.modified, text)[0], c.modified
    # negative: the same document where the signing date and the notes' terms are gone
    bare = text.replace(notes, "We had debt outstanding.").replace(signed, "We signed it.")
    paragraphs_bare = [("p3", len(bare), last)]
    assert not clause_conflict_candidates(
        _spans(bare, [last]), paragraphs_bare, random.Random(3), bare
    )
    # and an agreement named twice with two dates (two agreements of one name) is skipped
    twice = text + "\n\nOn May 2, 2024, we entered into a Share Exchange Agreement with Kepler."
    got = clause_conflict_candidates(
        _spans(twice, [notes, signed, last]), paragraphs, random.Random(3), twice
    )
    assert "effective date" not in {c.detail["kind"] for c in got}


def test_terminology_swap_fixes_the_article() -> None:
    from finprobe.benchmarks.fined.inject import SENTENCE_INJECTORS

    s = "The accounts receivable balances were net of an allowance for doubtful accounts of $10 thousand."
    seen = set()
    for seed in range(30):
        change = SENTENCE_INJECTORS["terminology_misuse"](s, "en", random.Random(seed))
        if change and change.detail["old"] == "allowance for doubtful accounts":
            seen.add(change.modified)
            assert review("terminology_misuse", s, change.modified, s)[0], change.modified
    assert any("net of a valuation allowance" in m for m in seen), seen


def test_clause_conflict_subject_must_not_be_the_tail_of_a_longer_name() -> None:
    from finprobe.benchmarks.fined.inject_fre import names

    # KSCP: the extractor reads "Series M-3 Preferred Stock Agreement" out of a longer name
    anchor = (
        "Pursuant to a second notice to the Warrants to Purchase Shares of Series M-3 Preferred"
        " Stock Agreement dated November 18, 2021, the holders were informed."
    )
    assert not names(anchor, "Series M-3 Preferred Stock Agreement")
    assert names("We signed the Share Exchange Agreement.", "Share Exchange Agreement")
    filler = " ".join(["Revenue grew in all segments during the year."] * 80)
    last = "See the Warrants to Purchase Shares of Series M-3 Preferred Stock Agreement."
    text = f"{anchor}\n\n{filler}\n\n{last}"
    paragraphs = [("p0", len(anchor), anchor), ("p2", len(text), last)]
    got = clause_conflict_candidates(
        _spans(text, [anchor, last]), paragraphs, random.Random(1), text
    )
    assert not got


def test_clause_conflict_dividend_terms_stated_twice_or_restated_near() -> None:
    # BBW: the board's dividend declaration is stated twice; the later statement is changed
    first = (
        "On March 13, 2024, our Board of Directors declared an initial quarterly dividend of"
        " $0.20 per share paid on April 11, 2024 to all shareholders of record as of March 28, 2024."
    )
    filler = " ".join(["Revenue grew in all segments during the year."] * 40)
    again = (
        "During the first quarter, our Board of Directors declared an initial quarterly dividend"
        " of $0.20 per share paid on April 11, 2024 to all shareholders of record as of March 28, 2024."
    )
    text = f"{first}\n\n{filler}\n\n{again}"
    paragraphs = [("p0", len(first), first), ("p2", len(text), again)]
    cands = clause_conflict_candidates(
        _spans(text, [first, again]), paragraphs, random.Random(2), text
    )
    kinds = {c.detail["kind"] for c in cands}
    assert kinds <= {"dividend amount", "payment date", "record date"} and kinds
    for c in cands:
        assert review("clause_conflict", c.original, c.modified, text)[0], c.modified
        if not c.insert:  # the later statement changed in place
            assert c.original == again and c.detail["placement"] == "stated twice"
    # negative: a dividend that the document gives two amounts for (every quarter's) is skipped
    other = "In the second quarter, the Board declared an initial quarterly dividend of $0.25 per share."
    text2 = f"{text}\n\n{other}"
    got = clause_conflict_candidates(
        _spans(text2, [first, again]), paragraphs, random.Random(2), text2
    )
    assert "dividend amount" not in {c.detail["kind"] for c in got}


def test_clause_conflict_covenant_restated_in_its_own_passage_never_right_after() -> None:
    # APOG: a covenant threshold stated once; the restatement closes the passage naming it,
    # with at least a sentence between them
    cov = (
        "Our revolving credit facilities contain two maintenance financial covenants that require"
        " us to stay below a maximum debt-to-EBITDA ratio of 3.25."
    )
    after = (
        " At November 25, 2023, we were in compliance with both financial covenants, which are"
        " identical in all three of our revolving credit facilities and the maximum debt-to-EBITDA"
        " ratio they set."
    )
    text = cov + after
    cands = clause_conflict_candidates(
        _spans(text, [cov]), [("p0", len(text), text)], random.Random(0), text
    )
    assert cands and all(c.detail["kind"] == "covenant" for c in cands)
    for c in cands:
        assert c.insert and c.start == len(text) and c.detail["placement"] == "restated nearby"
        assert "maximum debt-to-EBITDA ratio of" in c.modified and "3.25" not in c.modified
        assert review("clause_conflict", "", c.modified, text)[0]
    # negative: the statement closes its only paragraph, so a restatement would follow it
    # directly (a repetition, not another clause): nothing
    assert not clause_conflict_candidates(
        _spans(cov, [cov]), [("p0", len(cov), cov)], random.Random(0), cov
    )


def test_pattern_probe_reads_the_injectors_vocabularies() -> None:
    from finprobe.benchmarks.fined import inject_fke
    from finprobe.benchmarks.fined.patterns import flags, injector_patterns, pattern_probe

    table = injector_patterns()
    # derived from the code: every exception phrase and every wrong unit is a pattern
    for phrase in inject_fke._EXCEPTIONS:
        text = "We must pay, " + phrase.format(
            actor="the Company", consider="considers", determine="determines", decide="decides"
        )
        assert flags(text, "ambiguous_expression"), phrase
    assert flags("The loan runs for 12 hours.", "numerical_unit_error")
    assert not flags("The loan runs for 12 months.", "numerical_unit_error")
    assert "omitted_financial_element" not in table  # a removal writes no words
    sentence = "The Company is required to repay the advance within 30 days."
    edited = "The Company is required to repay the advance within several days."
    doc = FinEDDocument(
        id="d",
        text=f"{edited} Revenue grew in all segments during the year.",
        scene="report",
        language="en",
        errors=[AnnotatedError(edited, "ambiguous_expression", sentence, 0, "rule:x", {})],
    )
    got = pattern_probe([doc])
    sub = got["by_subtype"]["ambiguous_expression"]
    assert sub["injected_flagged_own"] == 1.0 and sub["untouched_flagged_own"] == 0.0
    assert got["untouched_sentences"] == 1


def test_planner_keeps_other_errors_off_an_anchor_sentence() -> None:
    # ANGO: a clause conflict was lost when another error rewrote the statement it conflicts
    # with; the planner now treats that statement as taken
    from finprobe.benchmarks.fined.inject import choose_injections

    anchor = "On March 31, 2024, the Company and BD entered into a Settlement Agreement."
    text = f"{anchor} The Company will pay $7.0 million. More text follows here."
    conflict = Injection(
        "clause_conflict",
        "",
        "The Company entered into the Settlement Agreement on May 31, 2024.",
        len(text),
        len(text),
        "rule:clause_conflict",
        {"conflicts_with": anchor, "old": "March 31, 2024", "new": "May 31, 2024"},
        insert=True,
    )
    rewrite = Injection(
        "illegal_time",
        anchor,
        anchor.replace("March 31", "March 32"),
        0,
        len(anchor),
        "rule:illegal_time",
        {},
    )
    elsewhere = Injection(
        "numerical_missing",
        "The Company will pay $7.0 million.",
        "The Company will pay $ million.",
        text.index("The Company will"),
        text.index("The Company will") + len("The Company will pay $7.0 million."),
        "rule:numerical_missing",
        {},
    )
    cands = {
        "clause_conflict": [conflict],
        "illegal_time": [rewrite],
        "numerical_missing": [elsewhere],
    }
    counts = Counter({"illegal_time": 5, "numerical_missing": 5})  # clause conflict goes first
    chosen = choose_injections(cands, random.Random(0), 4, counts, Counter(), text)
    assert conflict in chosen and elsewhere in chosen and rewrite not in chosen
    # without the document text the anchor cannot be located (the old behaviour)
    chosen = choose_injections(cands, random.Random(0), 4, Counter(counts), Counter())
    assert rewrite in chosen


def test_planner_places_a_scarce_subtype_first() -> None:
    from finprobe.benchmarks.fined.inject import choose_injections

    def inj(subtype: str, start: int) -> Injection:
        return Injection(subtype, "x" * 30, "y" * 30 + subtype, start, start + 30, "rule:x", {})

    cands = {
        "clause_conflict": [inj("clause_conflict", 0)],
        "illegal_time": [inj("illegal_time", 100)],
    }
    counts = Counter({"clause_conflict": 5, "illegal_time": 3})
    # offered by 1 of the 10 documents seen so far: placed first although placed more often
    edits = Counter({("offered", "*"): 9, ("offered", "illegal_time"): 9})
    got = choose_injections(cands, random.Random(0), 1, Counter(counts), edits)
    assert [c.subtype for c in got] == ["clause_conflict"]
    # offered by most documents: the rarest-so-far order again
    edits = Counter(
        {("offered", "*"): 9, ("offered", "illegal_time"): 9, ("offered", "clause_conflict"): 9}
    )
    got = choose_injections(cands, random.Random(0), 1, Counter(counts), edits)
    assert [c.subtype for c in got] == ["illegal_time"]


def test_liquidity_horizon_only_where_the_twelve_months_are_the_liquidity_horizon() -> None:
    from finprobe.benchmarks.fined.inject import SENTENCE_INJECTORS

    inject = SENTENCE_INJECTORS["numerical_unit_error"]
    horizon = "Our cash will be sufficient to fund our operations for at least the next 12 months."
    other = (
        "The Corporation believes there is a reasonable possibility within the next 12 months,"
        " sufficient positive evidence may become available."
    )
    longer = "Our cash will be sufficient to fund our operations for the next 18 months."
    got = {seed: inject(horizon, "en", random.Random(seed)) for seed in range(20)}
    assert any("next 12 years" in c.modified for c in got.values() if c)
    for s in (other, longer):  # not the liquidity horizon, or not twelve months
        for seed in range(20):
            c = inject(s, "en", random.Random(seed))
            assert c is None or "years" not in c.modified


def test_clause_conflict_never_closes_a_paragraph_cut_mid_sentence() -> None:
    # ANGO: a page break ended the paragraph at "As of February 29, 2024," and the
    # restatement went into the middle of that sentence
    from finprobe.benchmarks.fined.inject_fre import _insertable

    assert _insertable(("p", 0, "The Settlement Agreement was signed."), "Settlement Agreement")
    assert not _insertable(
        ("p", 0, "The Settlement Agreement was signed. As of February 29, 2024,"),
        "Settlement Agreement",
    )
    assert not _insertable(
        ("p", 0, "The Settlement Agreement terms are below:"), "Settlement Agreement"
    )


# APOG 10-Q (audit 12c): the calculation error changed $70.2 million, which the reconciliation
# table restates in thousands (70,183), so the edit also made a numerical inconsistency.
_APOG_SENTENCE = (
    "•Adjusted net earnings increased 14.5% to $80.3 million, compared to $70.2 million."
)
_APOG_TABLE = (
    "| (In thousands) | Three Months Ended November 25, 2023 | Three Months Ended November 26, "
    "2022 | % change | Nine Months Ended November 25, 2023 | Nine Months Ended November 26, 2022 "
    "| % change |\n|---|---|---|---|---|---|---|\n"
    "| Adjusted net earnings | $26,974 | $23,765 | 13.5% | $80,338 | $70,183 | 14.5% |"
)


@pytest.mark.parametrize(
    "table, refused",
    [
        (_APOG_TABLE, True),
        # the control: the same table in millions no longer holds 70.2 million at that cell...
        (_APOG_TABLE.replace("(In thousands)", "(In millions)"), False),
        # ...nor does a row about another subject
        (_APOG_TABLE.replace("Adjusted net earnings", "Backlog"), False),
    ],
)
def test_calculation_error_refused_when_a_table_restates_the_figure(
    table: str, refused: bool
) -> None:
    modified = _APOG_SENTENCE.replace("$70.2 million", "$74.2 million")
    document = "Nine months highlights:\n\n" + _APOG_SENTENCE + "\n\n" + table + "\n"
    keep, why = review("calculation_error", _APOG_SENTENCE, modified, document)
    if refused:
        assert (
            not keep
            and why == "second error: the changed figure is stated elsewhere in the document"
        )
    else:
        assert not why.startswith("second error"), why


def test_direction_word_against_result_change_and_base():
    """'X, an increase of D from Y' states its direction with the result first: a prior
    figure changed past the result turns it into a decrease the sentence still calls an
    increase (a second error a calculation edit must not bring; BBCPW in the round-5 build)."""
    from finprobe.benchmarks.fined.review import _direction_conflict

    stem = "General and administrative expenses were $116.9 million, an increase of $3.4 million"
    assert not _direction_conflict(stem + " from $113.5 million.")
    assert _direction_conflict(stem + " from $173.5 million.")
    assert _direction_conflict("Gross margin was 41.0%, a decrease of 2.0% from 39.0%.")
    # a base that is a year, or a figure of another kind, is no base to compare with
    assert not _direction_conflict("Revenue was $10 million in 2023, a decrease of 5% from 2022.")
    assert not _direction_conflict("Revenue was $10.0 million, a decrease of 2% from 12.0%.")
    # the real sentence: a year before the result must not hide the result from the check
    real = (
        "G&A expenses for the twelve months ended October 31, 2023 were $116.9 million, an "
        "increase of $3.4 million from {} million in the twelve months ended October 31, 2022."
    )
    assert _direction_conflict(real.format("$173.5"))
    assert not _direction_conflict(real.format("$113.5"))
