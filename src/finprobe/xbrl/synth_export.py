"""Export a ``finprobe.synth`` report as an XBRL filing the loader reads back.

Writes one folder: the instance (``<ticker>-<date>.xml``), an extension schema
(``.xsd``) with a roleType per statement, and calculation, presentation,
definition and label linkbases. Statements become roles ("Statement - ..."), the
segment revenue facts a dimensional disclosure role (StatementBusinessSegmentsAxis
with one extension member per segment). Calculation arcs come from the report's
recorded summation relations, so the exported filing is consistent by construction
and errors injected into it have a clean ground truth.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path

from lxml import etree

from finprobe.files import write_bytes_atomic
from finprobe.synth import SynthFact, SynthReport

XBRLI = "http://www.xbrl.org/2003/instance"
LINK = "http://www.xbrl.org/2003/linkbase"
XLINK = "http://www.w3.org/1999/xlink"
XS = "http://www.w3.org/2001/XMLSchema"
XBRLDI = "http://xbrl.org/2006/xbrldi"
XBRLDT = "http://xbrl.org/2005/xbrldt"
ISO4217 = "http://www.xbrl.org/2003/iso4217"
US_GAAP = "http://fasb.org/us-gaap/2024"
DEI = "http://xbrl.sec.gov/dei/2024"
US_GAAP_XSD = "https://xbrl.fasb.org/us-gaap/2024/elts/us-gaap-2024.xsd"
DEI_XSD = "https://xbrl.sec.gov/dei/2024/dei-2024.xsd"
SUMMATION = "http://www.xbrl.org/2003/arcrole/summation-item"
PARENT_CHILD = "http://www.xbrl.org/2003/arcrole/parent-child"
DIM = "http://xbrl.org/int/dim/arcrole/"
STANDARD_LABEL = "http://www.xbrl.org/2003/role/label"
DTR_TYPES = "http://www.xbrl.org/dtr/type/2022-03-31"
EXT_PREFIX = "finprobe"

# statement -> (role name, definition, root abstract)
ROLES = {
    "income": ("ConsolidatedStatementsOfOperations",
               "0000002 - Statement - Consolidated Statements of Operations",
               "us-gaap:IncomeStatementAbstract"),
    "balance": ("ConsolidatedBalanceSheets", "0000003 - Statement - Consolidated Balance Sheets",
                "us-gaap:StatementOfFinancialPositionAbstract"),
    "cashflow": ("ConsolidatedStatementsOfCashFlows",
                 "0000004 - Statement - Consolidated Statements of Cash Flows",
                 "us-gaap:StatementOfCashFlowsAbstract"),
    "segments": ("SegmentInformationDetails",
                 "0000005 - Disclosure - Segment Information (Details)",
                 "us-gaap:SegmentReportingDisclosureTextBlockAbstract"),
}  # fmt: skip
SEGMENT_AXIS = "us-gaap:StatementBusinessSegmentsAxis"
SEGMENT_DOMAIN = "us-gaap:SegmentDomain"
SEGMENT_TABLE = "us-gaap:StatementTable"
SEGMENT_LINE_ITEMS = "us-gaap:StatementLineItems"
UNITS = {"usd": ("iso4217:USD", None), "usd_per_share": ("iso4217:USD", "xbrli:shares"),
         "shares": ("xbrli:shares", None)}  # fmt: skip


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())[:12] or "synth"


def _plain(value: Decimal) -> str:
    return format(value, "f")


class _Writer:
    def __init__(self, report: SynthReport) -> None:
        self.report = report
        self.ticker = _slug(report.ticker or report.company)
        self.end = max(f.period_end for f in report.facts)
        self.stem = f"{self.ticker}-{self.end.replace('-', '')}"
        self.namespace = f"http://finprobe.example/{self.ticker}/{self.end}"
        self.base = f"http://finprobe.example/{self.ticker}/role/"
        self.labels: dict[str, str] = {}
        self.facts = self._dedupe(report.facts)
        for fact in report.facts:
            self.labels.setdefault(fact.concept if not fact.member else fact.member,
                                   fact.label if not fact.member else fact.label.removesuffix(" revenue"))  # fmt: skip
            self.labels.setdefault(fact.concept, fact.label)
        self.members = sorted({f.member for f in report.facts if f.member})

    @staticmethod
    def _dedupe(facts: Iterable[SynthFact]) -> list[SynthFact]:
        # a concept shown on two statements (net income) is one fact per context
        seen: set[tuple] = set()
        out = []
        for fact in facts:
            key = (fact.concept, fact.period_type, fact.period_start, fact.period_end, fact.member)
            if key not in seen:
                seen.add(key)
                out.append(fact)
        return out

    def href(self, concept: str) -> str:
        prefix, _, local = concept.partition(":")
        if prefix == EXT_PREFIX:
            return f"{self.stem}.xsd#{EXT_PREFIX}_{local}"
        base = DEI_XSD if prefix == "dei" else US_GAAP_XSD
        return f"{base}#{prefix}_{local}"

    @staticmethod
    def context_id(fact: SynthFact) -> str:
        period = (f"D{fact.period_start}_{fact.period_end}" if fact.period_type == "duration"
                  else f"I{fact.period_end}").replace("-", "")  # fmt: skip
        return period + (f"_{fact.member.split(':', 1)[1]}" if fact.member else "")

    # --- instance ----------------------------------------------------------------
    def instance(self) -> etree._Element:
        nsmap = {"xbrli": XBRLI, "link": LINK, "xlink": XLINK, "xbrldi": XBRLDI,
                 "iso4217": ISO4217, "us-gaap": US_GAAP, "dei": DEI, EXT_PREFIX: self.namespace}  # fmt: skip
        root = etree.Element(f"{{{XBRLI}}}xbrl", nsmap=nsmap)
        ref = etree.SubElement(root, f"{{{LINK}}}schemaRef")
        ref.set(f"{{{XLINK}}}type", "simple")
        ref.set(f"{{{XLINK}}}href", f"{self.stem}.xsd")
        cik = self.report.cik or "0000000000"
        doc_start = max(f.period_start for f in self.facts if f.period_start)
        doc = SynthFact("dei:DocumentType", "Document type", "", Decimal(0), "", "duration",
                        doc_start, self.end, "", 0)  # fmt: skip
        contexts: dict[str, SynthFact] = {}
        for fact in [doc, *self.facts]:
            contexts.setdefault(self.context_id(fact), fact)
        for cid, fact in contexts.items():
            ctx = etree.SubElement(root, f"{{{XBRLI}}}context", id=cid)
            entity = etree.SubElement(ctx, f"{{{XBRLI}}}entity")
            ident = etree.SubElement(
                entity, f"{{{XBRLI}}}identifier", scheme="http://www.sec.gov/CIK"
            )
            ident.text = cik
            if fact.member:
                segment = etree.SubElement(entity, f"{{{XBRLI}}}segment")
                member = etree.SubElement(
                    segment, f"{{{XBRLDI}}}explicitMember", dimension=SEGMENT_AXIS
                )
                member.text = fact.member
            period = etree.SubElement(ctx, f"{{{XBRLI}}}period")
            if fact.period_type == "duration":
                etree.SubElement(period, f"{{{XBRLI}}}startDate").text = fact.period_start
                etree.SubElement(period, f"{{{XBRLI}}}endDate").text = fact.period_end
            else:
                etree.SubElement(period, f"{{{XBRLI}}}instant").text = fact.period_end
        for uid, (numerator, denominator) in UNITS.items():
            unit = etree.SubElement(root, f"{{{XBRLI}}}unit", id=uid)
            if denominator:
                divide = etree.SubElement(unit, f"{{{XBRLI}}}divide")
                num = etree.SubElement(divide, f"{{{XBRLI}}}unitNumerator")
                etree.SubElement(num, f"{{{XBRLI}}}measure").text = numerator
                den = etree.SubElement(divide, f"{{{XBRLI}}}unitDenominator")
                etree.SubElement(den, f"{{{XBRLI}}}measure").text = denominator
            else:
                etree.SubElement(unit, f"{{{XBRLI}}}measure").text = numerator
        doc_cid = self.context_id(doc)
        etree.SubElement(root, f"{{{DEI}}}DocumentType", contextRef=doc_cid).text = "10-K"
        etree.SubElement(
            root, f"{{{DEI}}}DocumentPeriodEndDate", contextRef=doc_cid
        ).text = self.end
        etree.SubElement(
            root, f"{{{DEI}}}EntityRegistrantName", contextRef=doc_cid
        ).text = self.report.company
        for n, fact in enumerate(self.facts):
            prefix, _, local = fact.concept.partition(":")
            ns = nsmap[prefix]
            el = etree.SubElement(root, f"{{{ns}}}{local}", contextRef=self.context_id(fact),
                                  unitRef=fact.unit, decimals=str(fact.decimals), id=f"f{n}")  # fmt: skip
            el.text = _plain(fact.value)
        return root

    # --- schema ------------------------------------------------------------------
    def schema(self) -> etree._Element:
        nsmap = {"xs": XS, "link": LINK, "xlink": XLINK, "xbrli": XBRLI, "xbrldt": XBRLDT,
                 "dtr-types": DTR_TYPES, EXT_PREFIX: self.namespace}  # fmt: skip
        root = etree.Element(f"{{{XS}}}schema", nsmap=nsmap, targetNamespace=self.namespace,
                             elementFormDefault="qualified")  # fmt: skip
        appinfo = etree.SubElement(
            etree.SubElement(root, f"{{{XS}}}annotation"), f"{{{XS}}}appinfo"
        )
        for kind, suffix in (("calculation", "cal"), ("presentation", "pre"),
                             ("definition", "def"), ("label", "lab")):  # fmt: skip
            ref = etree.SubElement(appinfo, f"{{{LINK}}}linkbaseRef")
            ref.set(f"{{{XLINK}}}type", "simple")
            ref.set(f"{{{XLINK}}}href", f"{self.stem}_{suffix}.xml")
            ref.set(f"{{{XLINK}}}role", f"http://www.xbrl.org/2003/role/{kind}LinkbaseRef")
            ref.set(f"{{{XLINK}}}arcrole", "http://www.w3.org/1999/xlink/properties/linkbase")
        for name, definition, _ in ROLES.values():
            role = etree.SubElement(
                appinfo, f"{{{LINK}}}roleType", roleURI=self.base + name, id=name
            )
            etree.SubElement(role, f"{{{LINK}}}definition").text = definition
            for used in ("link:presentationLink", "link:calculationLink", "link:definitionLink"):
                etree.SubElement(role, f"{{{LINK}}}usedOn").text = used
        for member in self.members:
            local = member.split(":", 1)[1]
            etree.SubElement(root, f"{{{XS}}}element", name=local, id=f"{EXT_PREFIX}_{local}",
                             type="dtr-types:domainItemType",
                             substitutionGroup="xbrli:item", abstract="true", nillable="true",
                             attrib={f"{{{XBRLI}}}periodType": "duration"})  # fmt: skip
        return root

    # --- linkbases -----------------------------------------------------------------
    def _linkbase(self) -> etree._Element:
        return etree.Element(f"{{{LINK}}}linkbase", nsmap={"link": LINK, "xlink": XLINK,
                                                          "xbrldt": XBRLDT})  # fmt: skip

    def _link(self, root: etree._Element, tag: str, role: str) -> tuple[etree._Element, dict]:
        link = etree.SubElement(root, f"{{{LINK}}}{tag}")
        link.set(f"{{{XLINK}}}type", "extended")
        link.set(f"{{{XLINK}}}role", role)
        return link, {}

    def _loc(self, link: etree._Element, locs: dict, concept: str) -> str:
        if concept not in locs:
            locs[concept] = f"loc_{concept.replace(':', '_')}"
            loc = etree.SubElement(link, f"{{{LINK}}}loc")
            loc.set(f"{{{XLINK}}}type", "locator")
            loc.set(f"{{{XLINK}}}href", self.href(concept))
            loc.set(f"{{{XLINK}}}label", locs[concept])
        return locs[concept]

    def _arc(self, link, locs, tag: str, arcrole: str, source: str, target: str, order: int,
             **attrs: str) -> None:  # fmt: skip
        frm, to = self._loc(link, locs, source), self._loc(link, locs, target)
        arc = etree.SubElement(link, f"{{{LINK}}}{tag}")
        arc.set(f"{{{XLINK}}}type", "arc")
        arc.set(f"{{{XLINK}}}arcrole", arcrole)
        arc.set(f"{{{XLINK}}}from", frm)
        arc.set(f"{{{XLINK}}}to", to)
        arc.set("order", str(order))
        for key, value in attrs.items():
            arc.set(key, value)

    def _statement_concepts(self, statement: str) -> list[str]:
        return list(dict.fromkeys(f.concept for f in self.report.facts
                                  if f.statement == statement and not f.member))  # fmt: skip

    def calculation(self) -> etree._Element:
        root = self._linkbase()
        by_statement: dict[str, list] = {}
        for rel in self.report.calculations:
            by_statement.setdefault(rel.statement, []).append(rel)
        for statement, relations in by_statement.items():
            link, locs = self._link(root, "calculationLink", self.base + ROLES[statement][0])
            for rel in relations:
                for order, (child, weight) in enumerate(
                    zip(rel.children, rel.weights, strict=True), 1
                ):
                    self._arc(link, locs, "calculationArc", SUMMATION, rel.parent, child, order,
                              weight=_plain(Decimal(weight)))  # fmt: skip
        return root

    def presentation(self) -> etree._Element:
        root = self._linkbase()
        for statement in ("income", "balance", "cashflow"):
            name, _, abstract = ROLES[statement]
            link, locs = self._link(root, "presentationLink", self.base + name)
            for order, concept in enumerate(self._statement_concepts(statement), 1):
                self._arc(link, locs, "presentationArc", PARENT_CHILD, abstract, concept, order)
        if self.members:
            name, _, abstract = ROLES["segments"]
            link, locs = self._link(root, "presentationLink", self.base + name)
            chain = [(abstract, SEGMENT_TABLE), (SEGMENT_TABLE, SEGMENT_AXIS),
                     (SEGMENT_AXIS, SEGMENT_DOMAIN)]  # fmt: skip
            chain += [(SEGMENT_DOMAIN, m) for m in self.members]
            chain += [(SEGMENT_TABLE, SEGMENT_LINE_ITEMS), (SEGMENT_LINE_ITEMS, "us-gaap:Revenues")]
            for order, (source, target) in enumerate(chain, 1):
                self._arc(link, locs, "presentationArc", PARENT_CHILD, source, target, order)
        return root

    def definition(self) -> etree._Element:
        root = self._linkbase()
        if not self.members:
            return root
        link, locs = self._link(root, "definitionLink", self.base + ROLES["segments"][0])
        self._arc(link, locs, "definitionArc", DIM + "all", SEGMENT_LINE_ITEMS, SEGMENT_TABLE, 1,
                  **{f"{{{XBRLDT}}}closed": "true", f"{{{XBRLDT}}}contextElement": "segment"})  # fmt: skip
        self._arc(link, locs, "definitionArc", DIM + "hypercube-dimension", SEGMENT_TABLE,
                  SEGMENT_AXIS, 1)  # fmt: skip
        self._arc(link, locs, "definitionArc", DIM + "dimension-domain", SEGMENT_AXIS,
                  SEGMENT_DOMAIN, 1)  # fmt: skip
        for order, member in enumerate(self.members, 1):
            self._arc(
                link, locs, "definitionArc", DIM + "domain-member", SEGMENT_DOMAIN, member, order
            )
        self._arc(link, locs, "definitionArc", DIM + "domain-member", SEGMENT_LINE_ITEMS,
                  "us-gaap:Revenues", 1)  # fmt: skip
        return root

    def label(self) -> etree._Element:
        root = self._linkbase()
        link, locs = self._link(root, "labelLink", "http://www.xbrl.org/2003/role/link")
        for n, (concept, text) in enumerate(sorted(self.labels.items())):
            loc = self._loc(link, locs, concept)
            res = etree.SubElement(link, f"{{{LINK}}}label")
            res.set(f"{{{XLINK}}}type", "resource")
            res.set(f"{{{XLINK}}}label", f"lab_{n}")
            res.set(f"{{{XLINK}}}role", STANDARD_LABEL)
            res.set("{http://www.w3.org/XML/1998/namespace}lang", "en-US")
            res.text = text
            arc = etree.SubElement(link, f"{{{LINK}}}labelArc")
            arc.set(f"{{{XLINK}}}type", "arc")
            arc.set(f"{{{XLINK}}}arcrole", "http://www.xbrl.org/2003/arcrole/concept-label")
            arc.set(f"{{{XLINK}}}from", loc)
            arc.set(f"{{{XLINK}}}to", f"lab_{n}")
        return root


def _write(path: Path, element: etree._Element) -> None:
    data = etree.tostring(element, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    write_bytes_atomic(path, data)


def export_report(report: SynthReport, out_dir: str | Path) -> Path:
    """Write the report as an XBRL filing folder; returns the folder."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writer = _Writer(report)
    _write(out / f"{writer.stem}.xml", writer.instance())
    _write(out / f"{writer.stem}.xsd", writer.schema())
    _write(out / f"{writer.stem}_cal.xml", writer.calculation())
    _write(out / f"{writer.stem}_pre.xml", writer.presentation())
    _write(out / f"{writer.stem}_def.xml", writer.definition())
    _write(out / f"{writer.stem}_lab.xml", writer.label())
    return out
