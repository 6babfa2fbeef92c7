"""A small hand-made filing covering what the real ones lack (typed dimensions,
scenario, prohibited/overriding arcs, Calc 1.1, precision, duplicates), and the
loader tests on it. Other test_xbrl_* modules import ``write_mini_filing``."""

from __future__ import annotations

import math
from decimal import Decimal
from pathlib import Path

import pytest

from finprobe.errors import InputError
from finprobe.xbrl.filing import find_filing_files, load_filing
from finprobe.xbrl.linkbase import (
    ALL,
    DIMENSION_DEFAULT,
    HYPERCUBE_DIMENSION,
    SUMMATION_ITEM_CALC11,
    TERSE_LABEL,
)

NS = """xmlns="http://www.xbrl.org/2003/instance" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:xbrldi="http://xbrl.org/2006/xbrldi" xmlns:iso4217="http://www.xbrl.org/2003/iso4217"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
 xmlns:us-gaap="http://fasb.org/us-gaap/2023" xmlns:mini="http://example.com/mini"
 xmlns:dei="http://xbrl.sec.gov/dei/2023\""""

BS = "http://example.com/mini/role/BalanceSheet"
IS = "http://example.com/mini/role/Operations"
NOTE = "http://example.com/mini/role/SegmentDetails"


def _ctx(cid: str, period: str, segment: str = "", scenario: str = "") -> str:
    seg = f"<segment>{segment}</segment>" if segment else ""
    scen = f"<scenario>{scenario}</scenario>" if scenario else ""
    return (f'<context id="{cid}"><entity><identifier scheme="http://www.sec.gov/CIK">'
            f"0000000001</identifier>{seg}</entity><period>{period}</period>{scen}</context>")  # fmt: skip


INSTANT = "<instant>2023-12-31</instant>"
PRIOR = "<instant>2022-12-31</instant>"
YEAR = "<startDate>2023-01-01</startDate><endDate>2023-12-31</endDate>"

INSTANCE = f"""<?xml version="1.0" encoding="utf-8"?>
<xbrl {NS}>
 <link:schemaRef xlink:type="simple" xlink:href="mini-20231231-OLDNAME.xsd"/>
 {_ctx("I", INSTANT)}
 {_ctx("P", PRIOR)}
 {_ctx("D", YEAR)}
 {_ctx("SEG_A", INSTANT, '<xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">mini:SegmentAMember</xbrldi:explicitMember>')}
 {_ctx("SEG_B", INSTANT, '<xbrldi:explicitMember dimension="us-gaap:StatementBusinessSegmentsAxis">mini:SegmentBMember</xbrldi:explicitMember>')}
 {_ctx("TYPED", INSTANT, '<xbrldi:typedMember dimension="mini:LoanIdAxis"><mini:LoanId>L-42</mini:LoanId></xbrldi:typedMember>')}
 {_ctx("SCEN", YEAR, "", '<xbrldi:explicitMember dimension="us-gaap:StatementScenarioAxis">us-gaap:ScenarioForecastMember</xbrldi:explicitMember>')}
 <unit id="usd"><measure>iso4217:USD</measure></unit>
 <unit id="usdPerShare"><divide><unitNumerator><measure>iso4217:USD</measure></unitNumerator>
   <unitDenominator><measure>xbrli:shares</measure></unitDenominator></divide></unit>
 <unit id="shares"><measure>xbrli:shares</measure></unit>
 <dei:DocumentType contextRef="D">10-K</dei:DocumentType>
 <dei:DocumentPeriodEndDate contextRef="D">2023-12-31</dei:DocumentPeriodEndDate>
 <us-gaap:Assets contextRef="I" unitRef="usd" decimals="-3">300000</us-gaap:Assets>
 <us-gaap:AssetsCurrent contextRef="I" unitRef="usd" decimals="-3">100000</us-gaap:AssetsCurrent>
 <us-gaap:AssetsCurrent contextRef="I" unitRef="usd" decimals="0" id="dup-consistent">100000</us-gaap:AssetsCurrent>
 <us-gaap:AssetsNoncurrent contextRef="I" unitRef="usd" decimals="-3">200000</us-gaap:AssetsNoncurrent>
 <mini:CustomAsset contextRef="I" unitRef="usd" decimals="-3">7000</mini:CustomAsset>
 <us-gaap:Assets contextRef="P" unitRef="usd" decimals="-3">250000</us-gaap:Assets>
 <us-gaap:AssetsCurrent contextRef="P" unitRef="usd" decimals="-3">90000</us-gaap:AssetsCurrent>
 <us-gaap:AssetsNoncurrent contextRef="P" unitRef="usd" decimals="-3">150000</us-gaap:AssetsNoncurrent>
 <us-gaap:Cash contextRef="I" unitRef="usd" decimals="0">50</us-gaap:Cash>
 <us-gaap:Cash contextRef="I" unitRef="usd" decimals="0">51</us-gaap:Cash>
 <us-gaap:Goodwill contextRef="I" unitRef="usd" xsi:nil="true"/>
 <us-gaap:Assets contextRef="SEG_A" unitRef="usd" decimals="-3">120000</us-gaap:Assets>
 <us-gaap:Assets contextRef="SEG_B" unitRef="usd" decimals="-3">170000</us-gaap:Assets>
 <us-gaap:LoansReceivableFairValueDisclosure contextRef="TYPED" unitRef="usd" decimals="0">42</us-gaap:LoansReceivableFairValueDisclosure>
 <us-gaap:Revenues contextRef="D" unitRef="usd" precision="3">12345</us-gaap:Revenues>
 <us-gaap:CostOfRevenue contextRef="D" unitRef="usd" decimals="0">4000</us-gaap:CostOfRevenue>
 <us-gaap:GrossProfit contextRef="D" unitRef="usd" decimals="0">8300</us-gaap:GrossProfit>
 <us-gaap:Revenues contextRef="SCEN" unitRef="usd" decimals="0">13000</us-gaap:Revenues>
 <us-gaap:EarningsPerShareBasic contextRef="D" unitRef="usdPerShare" decimals="2">1.25</us-gaap:EarningsPerShareBasic>
 <us-gaap:PaymentsToAcquirePropertyPlantAndEquipment contextRef="D" unitRef="usd" decimals="0">-5</us-gaap:PaymentsToAcquirePropertyPlantAndEquipment>
 <us-gaap:CommonStockSharesOutstanding contextRef="I" unitRef="shares" decimals="INF">1000</us-gaap:CommonStockSharesOutstanding>
</xbrl>
"""

SCHEMA = f"""<?xml version="1.0" encoding="utf-8"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xbrli="http://www.xbrl.org/2003/instance"
 xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink"
 xmlns:mini="http://example.com/mini" targetNamespace="http://example.com/mini" elementFormDefault="qualified">
 <xs:annotation><xs:appinfo>
  <link:linkbaseRef xlink:type="simple" xlink:role="http://www.xbrl.org/2003/role/calculationLinkbaseRef" xlink:href="mini-OLD_cal.xml"/>
  <link:roleType roleURI="{BS}" id="BalanceSheet"><link:definition>0001 - Statement - Balance Sheet</link:definition>
   <link:usedOn>link:presentationLink</link:usedOn><link:usedOn>link:calculationLink</link:usedOn></link:roleType>
  <link:roleType roleURI="{IS}" id="Operations"><link:definition>0002 - Statement - Statements of Operations</link:definition>
   <link:usedOn>link:presentationLink</link:usedOn></link:roleType>
  <link:roleType roleURI="{NOTE}" id="SegmentDetails"><link:definition>0003 - Disclosure - Segments (Details)</link:definition>
   <link:usedOn>link:presentationLink</link:usedOn></link:roleType>
 </xs:appinfo></xs:annotation>
 <xs:element name="CustomAsset" id="mini_CustomAsset" type="xbrli:monetaryItemType" substitutionGroup="xbrli:item" xbrli:periodType="instant" xbrli:balance="debit" abstract="false" nillable="true"/>
 <xs:element name="SegmentAMember" id="mini_SegmentAMember" type="xbrli:stringItemType" substitutionGroup="xbrli:item" xbrli:periodType="duration" abstract="true"/>
 <xs:element name="SegmentBMember" id="mini_SegmentBMember" type="xbrli:stringItemType" substitutionGroup="xbrli:item" xbrli:periodType="duration" abstract="true"/>
</xs:schema>
"""

GAAP = "https://xbrl.fasb.org/us-gaap/2023/elts/us-gaap-2023.xsd#us-gaap_"


def _loc(label: str, concept: str) -> str:
    href = f"mini.xsd#mini_{concept[5:]}" if concept.startswith("mini:") else GAAP + concept[8:]
    return f'<link:loc xlink:type="locator" xlink:href="{href}" xlink:label="{label}"/>'


def _arc(name: str, frm: str, to: str, arcrole: str, **attrs: str) -> str:
    extra = " ".join(f'{k.replace("__", ":")}="{v}"' for k, v in attrs.items())
    return (f'<link:{name} xlink:type="arc" xlink:arcrole="{arcrole}" xlink:from="{frm}" '
            f'xlink:to="{to}" {extra}/>')  # fmt: skip


SUM03 = "http://www.xbrl.org/2003/arcrole/summation-item"
PC = "http://www.xbrl.org/2003/arcrole/parent-child"

CAL = f"""<?xml version="1.0" encoding="utf-8"?>
<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
 <link:calculationLink xlink:type="extended" xlink:role="{BS}">
  {_loc("assets", "us-gaap:Assets")}{_loc("cur", "us-gaap:AssetsCurrent")}
  {_loc("non", "us-gaap:AssetsNoncurrent")}{_loc("cust", "mini:CustomAsset")}
  {_loc("cash", "us-gaap:Cash")}
  {_arc("calculationArc", "assets", "cur", SUM03, weight="1.0", order="1")}
  {_arc("calculationArc", "assets", "non", SUM03, weight="1.0", order="2")}
  {_arc("calculationArc", "assets", "cust", SUM03, weight="1.0", order="3")}
  {_arc("calculationArc", "assets", "cust", SUM03, weight="1.0", order="3", use="prohibited", priority="1")}
  {_arc("calculationArc", "cur", "cash", SUM03, weight="1.0", order="1")}
  {_arc("calculationArc", "cur", "cash", SUM03, weight="1.0", order="1", use="prohibited", priority="1")}
  {_arc("calculationArc", "cur", "cash", SUM03, weight="1.0", order="1", priority="2")}
 </link:calculationLink>
 <link:calculationLink xlink:type="extended" xlink:role="{IS}">
  {_loc("gp", "us-gaap:GrossProfit")}{_loc("rev", "us-gaap:Revenues")}{_loc("cost", "us-gaap:CostOfRevenue")}
  {_arc("calculationArc", "gp", "rev", SUMMATION_ITEM_CALC11, weight="1", order="1")}
  {_arc("calculationArc", "gp", "cost", SUMMATION_ITEM_CALC11, weight="-1", order="2")}
 </link:calculationLink>
</link:linkbase>
"""

PRE = f"""<?xml version="1.0" encoding="utf-8"?>
<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
 <link:presentationLink xlink:type="extended" xlink:role="{BS}">
  {_loc("abs", "us-gaap:StatementOfFinancialPositionAbstract")}{_loc("assets", "us-gaap:Assets")}
  {_loc("cur", "us-gaap:AssetsCurrent")}{_loc("non", "us-gaap:AssetsNoncurrent")}
  {_loc("cash", "us-gaap:Cash")}{_loc("gw", "us-gaap:Goodwill")}
  {_arc("presentationArc", "abs", "cur", PC, order="1")}
  {_arc("presentationArc", "cur", "cash", PC, order="1", preferredLabel=TERSE_LABEL)}
  {_arc("presentationArc", "abs", "non", PC, order="2")}
  {_arc("presentationArc", "abs", "gw", PC, order="3")}
  {_arc("presentationArc", "abs", "assets", PC, order="4")}
 </link:presentationLink>
 <link:presentationLink xlink:type="extended" xlink:role="{IS}">
  {_loc("abs", "us-gaap:IncomeStatementAbstract")}{_loc("rev", "us-gaap:Revenues")}
  {_loc("cost", "us-gaap:CostOfRevenue")}{_loc("gp", "us-gaap:GrossProfit")}
  {_loc("eps", "us-gaap:EarningsPerShareBasic")}{_loc("capex", "us-gaap:PaymentsToAcquirePropertyPlantAndEquipment")}
  {_arc("presentationArc", "abs", "rev", PC, order="1")}
  {_arc("presentationArc", "abs", "cost", PC, order="2")}
  {_arc("presentationArc", "abs", "gp", PC, order="3")}
  {_arc("presentationArc", "abs", "eps", PC, order="4")}
  {_arc("presentationArc", "abs", "capex", PC, order="5")}
 </link:presentationLink>
 <link:presentationLink xlink:type="extended" xlink:role="{NOTE}">
  {_loc("abs", "us-gaap:SegmentReportingAbstract")}{_loc("tbl", "us-gaap:SegmentReportingInformationLineItems")}
  {_loc("axis", "us-gaap:StatementBusinessSegmentsAxis")}{_loc("dom", "us-gaap:SegmentDomain")}
  {_loc("a", "mini:SegmentAMember")}{_loc("b", "mini:SegmentBMember")}{_loc("assets", "us-gaap:Assets")}
  {_arc("presentationArc", "abs", "axis", PC, order="1")}
  {_arc("presentationArc", "axis", "dom", PC, order="1")}
  {_arc("presentationArc", "dom", "a", PC, order="1")}
  {_arc("presentationArc", "dom", "b", PC, order="2")}
  {_arc("presentationArc", "abs", "tbl", PC, order="2")}
  {_arc("presentationArc", "tbl", "assets", PC, order="1")}
 </link:presentationLink>
</link:linkbase>
"""

DEF = f"""<?xml version="1.0" encoding="utf-8"?>
<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xbrldt="http://xbrl.org/2005/xbrldt">
 <link:definitionLink xlink:type="extended" xlink:role="{NOTE}">
  {_loc("items", "us-gaap:SegmentReportingInformationLineItems")}{_loc("tbl", "us-gaap:SegmentReportingInformationTable")}
  {_loc("axis", "us-gaap:StatementBusinessSegmentsAxis")}{_loc("dom", "us-gaap:SegmentDomain")}
  {_loc("a", "mini:SegmentAMember")}{_loc("b", "mini:SegmentBMember")}{_loc("assets", "us-gaap:Assets")}
  {_arc("definitionArc", "items", "tbl", ALL, order="1", xbrldt__closed="true", xbrldt__contextElement="segment")}
  {_arc("definitionArc", "tbl", "axis", HYPERCUBE_DIMENSION, order="1")}
  {_arc("definitionArc", "axis", "dom", "http://xbrl.org/int/dim/arcrole/dimension-domain", order="1")}
  {_arc("definitionArc", "dom", "a", "http://xbrl.org/int/dim/arcrole/domain-member", order="1")}
  {_arc("definitionArc", "dom", "b", "http://xbrl.org/int/dim/arcrole/domain-member", order="2")}
  {_arc("definitionArc", "axis", "dom", DIMENSION_DEFAULT, order="1")}
  {_arc("definitionArc", "items", "assets", "http://xbrl.org/int/dim/arcrole/domain-member", order="1")}
 </link:definitionLink>
</link:linkbase>
"""

LAB = f"""<?xml version="1.0" encoding="utf-8"?>
<link:linkbase xmlns:link="http://www.xbrl.org/2003/linkbase" xmlns:xlink="http://www.w3.org/1999/xlink">
 <link:labelLink xlink:type="extended" xlink:role="http://www.xbrl.org/2003/role/link">
  {_loc("assets", "us-gaap:Assets")}
  <link:label xlink:type="resource" xlink:label="lab_assets" xlink:role="http://www.xbrl.org/2003/role/label" xml:lang="en-US">Assets, Total</link:label>
  <link:label xlink:type="resource" xlink:label="lab_assets" xlink:role="{TERSE_LABEL}" xml:lang="en-US">Total assets</link:label>
  {_arc("labelArc", "assets", "lab_assets", "http://www.xbrl.org/2003/arcrole/concept-label")}
 </link:labelLink>
</link:linkbase>
"""


def write_mini_filing(folder: Path, **overrides: str) -> Path:
    """Write the mini filing (file names deliberately differ from those referenced)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = {"mini-20231231.xml": INSTANCE, "mini.xsd": SCHEMA, "mini_cal.xml": CAL,
             "mini_pre.xml": PRE, "mini_def.xml": DEF, "mini_lab.xml": LAB}  # fmt: skip
    files.update(overrides)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def mini(tmp_path):
    return load_filing(write_mini_filing(tmp_path / "mini"))


def test_files_found_by_suffix_despite_other_names(tmp_path):
    files = find_filing_files(write_mini_filing(tmp_path / "m"))
    assert files.instance.name == "mini-20231231.xml"
    assert files.schema.name == "mini.xsd"
    assert files.calculation.name == "mini_cal.xml"
    assert files.label.name == "mini_lab.xml"
    filing = load_filing(tmp_path / "m" / "mini-20231231.xml")  # an instance path works too
    assert any("OLDNAME" in w for w in filing.warnings)


def test_sniffs_linkbase_without_suffix(tmp_path):
    folder = write_mini_filing(tmp_path / "m")
    (folder / "mini_cal.xml").rename(folder / "calculations-v2.xml")
    filing = load_filing(folder)
    assert filing.files.calculation.name == "calculations-v2.xml"
    assert len(filing.calc) == 5  # 3 balance sheet arcs survive prohibition, 2 Calc 1.1


def test_contexts_explicit_typed_scenario(mini):
    assert mini.contexts["SEG_A"].explicit == (
        ("us-gaap:StatementBusinessSegmentsAxis", "mini:SegmentAMember"),
    )
    typed = mini.contexts["TYPED"].typed
    assert typed[0].dimension == "mini:LoanIdAxis" and typed[0].value == "L-42"
    assert "L-42" in typed[0].xml
    scen = mini.contexts["SCEN"]
    assert scen.in_scenario and scen.dims == {
        "us-gaap:StatementScenarioAxis": "us-gaap:ScenarioForecastMember"
    }
    assert mini.contexts["D"].period_text() == "2023-01-01 to 2023-12-31"
    assert mini.contexts["I"].period_type == "instant" and not mini.contexts["I"].has_dims


def test_units_including_ratio(mini):
    assert mini.units["usdPerShare"].text() == "USD/shares"
    assert mini.units["usd"].is_currency
    assert not mini.units["usdPerShare"].is_currency


def test_facts_decimals_nil_precision_duplicates(mini):
    by = mini.facts_by_concept()
    assert len([f for f in by["us-gaap:AssetsCurrent"] if f.context_id == "I"]) == 2  # duplicates
    gw = by["us-gaap:Goodwill"][0]
    assert gw.is_nil and gw.number is None and gw.decimals is None
    # precision 3 on 12345 -> decimals -2
    assert by["us-gaap:Revenues"][0].decimals == -2
    assert math.isinf(by["us-gaap:CommonStockSharesOutstanding"][0].decimals)
    assert by["us-gaap:EarningsPerShareBasic"][0].number == Decimal("1.25")
    assert by["dei:DocumentType"][0].value == "10-K" and not by["dei:DocumentType"][0].is_numeric
    assert mini.period_end() == "2023-12-31"


def test_prohibited_and_overriding_arcs(mini):
    # Assets->CustomAsset is prohibited at a higher priority: gone
    assert "mini:CustomAsset" not in [a.target for a in mini.calc.children("us-gaap:Assets", BS)]
    # AssetsCurrent->Cash prohibited at 1, re-added at 2: present once
    kids = mini.calc.children("us-gaap:AssetsCurrent", BS)
    assert [a.target for a in kids] == ["us-gaap:Cash"] and kids[0].priority == 2
    assert mini.calc.removed == 4


def test_calc11_arcrole_and_weights(mini):
    arcs = mini.calc.children("us-gaap:GrossProfit", IS)
    assert [(a.target, a.weight, a.arcrole) for a in arcs] == [
        ("us-gaap:Revenues", 1.0, SUMMATION_ITEM_CALC11),
        ("us-gaap:CostOfRevenue", -1.0, SUMMATION_ITEM_CALC11),
    ]


def test_presentation_and_definition(mini):
    tree = mini.pres.walk(BS)
    assert tree[0][1] == "us-gaap:StatementOfFinancialPositionAbstract"
    assert [c for _, c, _ in tree][1:3] == ["us-gaap:AssetsCurrent", "us-gaap:Cash"]
    assert tree[2][2].preferred_label == TERSE_LABEL and tree[2][0] == 2
    hc = mini.defn.children("us-gaap:SegmentReportingInformationLineItems", NOTE, [ALL])
    assert hc[0].attr("closed") == "true" and hc[0].attr("contextElement") == "segment"
    assert mini.defn.children("us-gaap:StatementBusinessSegmentsAxis", NOTE, [DIMENSION_DEFAULT])


def test_labels_by_role(mini):
    assert mini.label("us-gaap:Assets") == "Assets, Total"
    assert mini.label("us-gaap:Assets", TERSE_LABEL) == "Total assets"
    assert mini.label("us-gaap:Cash") == "Cash"  # no label: the local name


def test_role_types_from_schema(mini):
    assert mini.role_types[BS].definition == "0001 - Statement - Balance Sheet"
    assert mini.concepts["mini:CustomAsset"].balance == "debit"


@pytest.mark.parametrize(
    "name,text,problem",
    [("mini-20231231.xml", "", "empty file"),
     ("mini-20231231.xml", "<xbrl><context", "not well-formed XML"),
     ("mini_cal.xml", "<link:linkbase", "not well-formed XML")],
)  # fmt: skip
def test_bad_files_raise_input_error(tmp_path, name, text, problem):
    folder = write_mini_filing(tmp_path / "bad", **{name: text})
    with pytest.raises(InputError) as err:
        load_filing(folder)
    assert problem in str(err.value) and name in str(err.value)


def test_missing_folder_and_no_instance(tmp_path):
    with pytest.raises(InputError, match="not found"):
        load_filing(tmp_path / "nope")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match="no XBRL instance"):
        load_filing(tmp_path / "empty")


def test_external_entities_are_not_resolved(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET")
    evil = INSTANCE.replace(
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<?xml version="1.0"?><!DOCTYPE xbrl [<!ENTITY x SYSTEM "file://{secret}">]>',
    ).replace(">10-K<", ">&x;<")
    filing = load_filing(write_mini_filing(tmp_path / "evil", **{"mini-20231231.xml": evil}))
    assert "TOP-SECRET" not in filing.facts_by_concept()["dei:DocumentType"][0].value
