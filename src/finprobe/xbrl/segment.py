"""Statement-level segmentation: one sub-filing per presentation role.

A sub-filing holds the role's presentation tree, the facts of its concepts whose
dimensions fit the role, and the calculation/definition arcs of the same role.
It renders as XML fragments (instance, schema, linkbases) or as compact text for
prompts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lxml import etree

from finprobe.xbrl.filing import LINK_NS, XBRLDI_NS, XBRLI_NS, XS_NS, Context, Fact, Filing
from finprobe.xbrl.linkbase import (
    DIMENSION_DEFAULT,
    SUMMATION_ARCROLES,
    Arc,
    dimensional_arcs,
    secure_parser,
)

XLINK_NS = "http://www.w3.org/1999/xlink"
XSI_NS = "http://www.w3.org/2001/XMLSchema-instance"
XBRLDT_NS = "http://xbrl.org/2005/xbrldt"

STATEMENT_KINDS = ("balance_sheet", "income_statement", "comprehensive_income", "cash_flow",
                   "equity")  # fmt: skip
ALL_KINDS = STATEMENT_KINDS + ("parenthetical", "statement_other", "cover", "policies", "tables",
                               "details", "notes", "other")  # fmt: skip

_BALANCE = re.compile(r"balance sheet|financial (position|condition)|assets,? liabilities|"
                      r"net assets|statements? of condition", re.I)  # fmt: skip
_CASH = re.compile(r"cash ?flow", re.I)
_EQUITY = re.compile(r"equity|stockholders|shareholders|changes in|deficit|partners.? capital|"
                     r"members.? capital", re.I)  # fmt: skip
_COMPREHENSIVE = re.compile(r"comprehensive", re.I)
_INCOME = re.compile(r"operations|income|earnings|loss|profit", re.I)


def split_definition(definition: str) -> tuple[str, str, str]:
    """'0000005 - Statement - CONSOLIDATED BALANCE SHEETS' -> (number, category, title)."""
    parts = [p.strip() for p in definition.split(" - ", 2)]
    if len(parts) == 3:
        return parts[0], parts[1].lower(), parts[2]
    return "", "", definition.strip()


def classify_role(definition: str, uri: str = "") -> str:
    """Statement kind from a role's definition text (falls back to the URI)."""
    _, category, title = split_definition(definition)
    text = title or uri.rsplit("/", 1)[-1]
    if not category:
        # no "NNN - Category - Title" pattern: guess the category from the URI/text
        low = (definition + " " + uri).lower()
        category = next(
            (c for c in ("statement", "disclosure", "document") if c in low), "statement"
        )
    if category in ("document", "cover"):
        return "cover"
    if category == "statement":
        if "parenthetical" in text.lower():
            return "parenthetical"
        if _CASH.search(text):
            return "cash_flow"
        if _BALANCE.search(text):
            return "balance_sheet"
        if _COMPREHENSIVE.search(text) and not re.search(r"operations|earnings", text, re.I):
            return "comprehensive_income"
        if _EQUITY.search(text):
            return "equity"
        if _INCOME.search(text):
            return "income_statement"
        return "statement_other"
    low = text.lower()
    if "(polic" in low:
        return "policies"
    if "(tables" in low:
        return "tables"
    if "(detail" in low or "(narrative" in low:
        return "details"
    if category in ("disclosure", "schedule"):
        return "notes"
    return "other"


@dataclass
class SubFiling:
    filing: Filing
    role: str
    definition: str
    kind: str
    tree: list[tuple[int, str, Arc | None]]  # presentation walk (depth, concept, arc)
    facts: list[Fact]
    calc_arcs: list[Arc]
    def_arcs: list[Arc]
    contexts: dict[str, Context] = field(default_factory=dict)

    @property
    def concepts(self) -> list[str]:
        seen: dict[str, None] = {}
        for _, concept, _ in self.tree:
            seen.setdefault(concept)
        return list(seen)

    @property
    def pres_arcs(self) -> list[Arc]:
        return [arc for _, _, arc in self.tree if arc is not None]

    # --- compact text ---------------------------------------------------------
    def to_text(self, max_facts: int | None = None) -> str:
        f = self.filing
        lines = [f"# {self.definition} [{self.kind}]", f"role: {self.role}", "",
                 "## Facts: concept | label | period | dimensions | value | unit | decimals"]  # fmt: skip
        facts = self.facts if max_facts is None else self.facts[:max_facts]
        for fact in facts:
            ctx = self.contexts.get(fact.context_id)
            unit = f.units.get(fact.unit_id) if fact.unit_id else None
            value = "nil" if fact.is_nil else _clip(fact.value)
            lines.append(
                " | ".join(
                    [
                        fact.concept,
                        f.label(fact.concept),
                        ctx.period_text() if ctx else fact.context_id,
                        ctx.dims_text() if ctx else "-",
                        value,
                        unit.text() if unit else "-",
                        fact.decimals_text() or "-",
                    ]
                )  # fmt: skip
            )
        if max_facts is not None and len(self.facts) > max_facts:
            lines.append(f"... {len(self.facts) - max_facts} more facts")
        if self.calc_arcs:
            lines += ["", "## Calculation: parent = sum(weight * child)"]
            by_parent: dict[str, list[Arc]] = {}
            for arc in self.calc_arcs:
                by_parent.setdefault(arc.source, []).append(arc)
            for parent, arcs in by_parent.items():
                terms = " ".join(
                    f"{'+' if (a.weight or 1) >= 0 else '-'}{_weight(a.weight)}{a.target}"
                    for a in sorted(arcs, key=lambda a: a.order)
                )
                lines.append(f"{parent} = {terms}")
        lines += ["", "## Presentation"]
        for depth, concept, arc in self.tree:
            pref = ""
            if arc is not None and arc.preferred_label:
                pref = f"  (label role: {arc.preferred_label.rsplit('/', 1)[-1]})"
            lines.append(f'{"  " * depth}{concept}  "{f.label(concept)}"{pref}')
        if self.def_arcs:
            lines += ["", "## Definition: arcrole source -> target"]
            for arc in self.def_arcs:
                lines.append(f"{arc.arcrole.rsplit('/', 1)[-1]}: {arc.source} -> {arc.target}")
        return "\n".join(lines) + "\n"

    # --- XML fragments --------------------------------------------------------
    def to_xml(self) -> dict[str, str]:
        """Serialised fragments: instance, schema, cal, pre, def, lab."""
        return {
            "instance": _ser(self._instance()),
            "schema": _ser(self._schema()),
            "cal": _ser(self._linkbase("calculationLink", "calculationArc", self.calc_arcs)),
            "pre": _ser(self._linkbase("presentationLink", "presentationArc", self.pres_arcs)),
            "def": _ser(self._linkbase("definitionLink", "definitionArc", self.def_arcs)),
            "lab": _ser(self._labels()),
        }

    def _nsmap(self) -> dict[str | None, str]:
        nsmap: dict[str | None, str] = {"xbrli": XBRLI_NS, "link": LINK_NS, "xlink": XLINK_NS,
                                        "xbrldi": XBRLDI_NS, "xsi": XSI_NS}  # fmt: skip
        used = {c.split(":", 1)[0] for c in self.concepts}
        used |= {fact.concept.split(":", 1)[0] for fact in self.facts}
        for ctx in self.contexts.values():
            for dim, mem in ctx.explicit:
                used.add(dim.split(":", 1)[0])
                used.add(mem.split(":", 1)[0])
            for t in ctx.typed:
                used.add(t.dimension.split(":", 1)[0])
        for unit in self.filing.units.values():
            for m in unit.numerators + unit.denominators:
                used.add(m.split(":", 1)[0])
        for prefix, uri in self.filing.namespaces.items():
            if prefix in used and prefix not in nsmap:
                nsmap[prefix] = uri
        return nsmap

    def _instance(self) -> etree._Element:
        f = self.filing
        nsmap = self._nsmap()
        X = "{" + XBRLI_NS + "}"
        root = etree.Element(X + "xbrl", nsmap=nsmap)
        ref = etree.SubElement(root, f"{{{LINK_NS}}}schemaRef")
        ref.set(f"{{{XLINK_NS}}}type", "simple")
        ref.set(f"{{{XLINK_NS}}}href", f.files.schema.name if f.files.schema else "")
        for ctx in self.contexts.values():
            c = etree.SubElement(root, X + "context", id=ctx.id)
            ent = etree.SubElement(c, X + "entity")
            ident = etree.SubElement(ent, X + "identifier", scheme=ctx.entity_scheme)
            ident.text = ctx.entity_id
            if ctx.has_dims:
                holder = etree.SubElement(c if ctx.in_scenario else ent,
                                          X + ("scenario" if ctx.in_scenario else "segment"))  # fmt: skip
                for dim, mem in ctx.explicit:
                    m = etree.SubElement(holder, f"{{{XBRLDI_NS}}}explicitMember", dimension=dim)
                    m.text = mem
                for t in ctx.typed:
                    m = etree.SubElement(holder, f"{{{XBRLDI_NS}}}typedMember",
                                         dimension=t.dimension)  # fmt: skip
                    if t.xml:
                        # serialised with its own namespace declarations
                        m.append(etree.fromstring(t.xml, secure_parser()))
            if ctx.in_scenario:
                # schema order: entity, period, scenario
                c.remove(holder)
            p = etree.SubElement(c, X + "period")
            if ctx.period_type == "instant":
                etree.SubElement(p, X + "instant").text = ctx.end
            elif ctx.period_type == "duration":
                etree.SubElement(p, X + "startDate").text = ctx.start
                etree.SubElement(p, X + "endDate").text = ctx.end
            else:
                etree.SubElement(p, X + "forever")
            if ctx.in_scenario:
                c.append(holder)
        unit_ids = {fact.unit_id for fact in self.facts if fact.unit_id}
        for uid in sorted(unit_ids):
            unit = f.units.get(uid)
            if unit is None:
                continue
            u = etree.SubElement(root, X + "unit", id=uid)
            if unit.denominators:
                div = etree.SubElement(u, X + "divide")
                num = etree.SubElement(div, X + "unitNumerator")
                for m in unit.numerators:
                    etree.SubElement(num, X + "measure").text = m
                den = etree.SubElement(div, X + "unitDenominator")
                for m in unit.denominators:
                    etree.SubElement(den, X + "measure").text = m
            else:
                for m in unit.numerators:
                    etree.SubElement(u, X + "measure").text = m
        for fact in self.facts:
            prefix, _, local = fact.concept.partition(":")
            ns = f.namespaces.get(prefix)
            if ns is None:
                continue
            el = etree.SubElement(root, f"{{{ns}}}{local}", contextRef=fact.context_id)
            if fact.unit_id:
                el.set("unitRef", fact.unit_id)
                if fact.decimals_text():
                    el.set("decimals", fact.decimals_text())
            if fact.id:
                el.set("id", fact.id)
            if fact.is_nil:
                el.set(f"{{{XSI_NS}}}nil", "true")
            else:
                el.text = fact.value
        return root

    def _schema(self) -> etree._Element:
        f = self.filing
        nsmap = {"xs": XS_NS, "link": LINK_NS, "xlink": XLINK_NS, "xbrli": XBRLI_NS}
        if f.extension_prefix and f.target_namespace:
            nsmap[f.extension_prefix] = f.target_namespace
        root = etree.Element(f"{{{XS_NS}}}schema", nsmap=nsmap,
                             targetNamespace=f.target_namespace or "",
                             elementFormDefault="qualified")  # fmt: skip
        app = etree.SubElement(etree.SubElement(root, f"{{{XS_NS}}}annotation"),
                               f"{{{XS_NS}}}appinfo")  # fmt: skip
        rt = f.role_types.get(self.role)
        role_el = etree.SubElement(app, f"{{{LINK_NS}}}roleType", roleURI=self.role)
        if rt is not None and rt.id:
            role_el.set("id", rt.id)
        etree.SubElement(role_el, f"{{{LINK_NS}}}definition").text = self.definition
        for used in rt.used_on if rt else ("link:presentationLink",):
            etree.SubElement(role_el, f"{{{LINK_NS}}}usedOn").text = used
        wanted = set(self.concepts) | {fact.concept for fact in self.facts}
        for arc in self.calc_arcs + self.def_arcs:
            wanted.update((arc.source, arc.target))
        for qname in sorted(wanted):
            concept = f.concepts.get(qname)
            if concept is None:
                continue
            el = etree.SubElement(root, f"{{{XS_NS}}}element", name=qname.split(":", 1)[1])
            for attr, value in (("id", concept.id), ("type", concept.type),
                                ("substitutionGroup", concept.substitution_group),
                                (f"{{{XBRLI_NS}}}periodType", concept.period_type),
                                (f"{{{XBRLI_NS}}}balance", concept.balance)):  # fmt: skip
                if value:
                    el.set(attr, value)
            el.set("abstract", "true" if concept.abstract else "false")
            el.set("nillable", "true" if concept.nillable else "false")
        return root

    def _href(self, concept: str) -> str:
        href = self.filing.hrefs.get(concept)
        if href:
            return href
        schema = self.filing.files.schema.name if self.filing.files.schema else ""
        return f"{schema}#{concept.replace(':', '_', 1)}"

    def _linkbase(self, link_name: str, arc_name: str, arcs: list[Arc]) -> etree._Element:
        L = f"{{{LINK_NS}}}"
        XL = f"{{{XLINK_NS}}}"
        root = etree.Element(L + "linkbase", nsmap={"link": LINK_NS, "xlink": XLINK_NS,
                                                    "xbrldt": XBRLDT_NS})  # fmt: skip
        by_role: dict[str, list[Arc]] = {}
        for arc in arcs:
            by_role.setdefault(arc.role, []).append(arc)
        for role, role_arcs in by_role.items():
            link = etree.SubElement(root, L + link_name)
            link.set(XL + "type", "extended")
            link.set(XL + "role", role)
            labels: dict[str, str] = {}
            for arc in role_arcs:
                for concept in (arc.source, arc.target):
                    if concept not in labels:
                        labels[concept] = f"loc_{len(labels)}"
                        loc = etree.SubElement(link, L + "loc")
                        loc.set(XL + "type", "locator")
                        loc.set(XL + "href", self._href(concept))
                        loc.set(XL + "label", labels[concept])
            for arc in role_arcs:
                a = etree.SubElement(link, L + arc_name)
                a.set(XL + "type", "arc")
                a.set(XL + "arcrole", arc.arcrole)
                a.set(XL + "from", labels[arc.source])
                a.set(XL + "to", labels[arc.target])
                a.set("order", _num(arc.order))
                if arc.weight is not None:
                    a.set("weight", _num(arc.weight))
                if arc.priority:
                    a.set("priority", str(arc.priority))
                if arc.preferred_label:
                    a.set("preferredLabel", arc.preferred_label)
                for key, value in arc.attrs:
                    a.set(f"{{{XBRLDT_NS}}}{key}", value)
        return root

    def _labels(self) -> etree._Element:
        L = f"{{{LINK_NS}}}"
        XL = f"{{{XLINK_NS}}}"
        root = etree.Element(L + "linkbase", nsmap={"link": LINK_NS, "xlink": XLINK_NS})
        link = etree.SubElement(root, L + "labelLink")
        link.set(XL + "type", "extended")
        link.set(XL + "role", "http://www.xbrl.org/2003/role/link")
        for i, concept in enumerate(self.concepts):
            by_role = self.filing.labels.get(concept)
            if not by_role:
                continue
            loc = etree.SubElement(link, L + "loc")
            loc.set(XL + "type", "locator")
            loc.set(XL + "href", self._href(concept))
            loc.set(XL + "label", f"loc_{i}")
            for role, by_lang in by_role.items():
                for lang, text in by_lang.items():
                    res = etree.SubElement(link, L + "label")
                    res.set(XL + "type", "resource")
                    res.set(XL + "label", f"lab_{i}")
                    res.set(XL + "role", role)
                    res.set("{http://www.w3.org/XML/1998/namespace}lang", lang or "en")
                    res.text = text
            arc = etree.SubElement(link, L + "labelArc")
            arc.set(XL + "type", "arc")
            arc.set(XL + "arcrole", "http://www.xbrl.org/2003/arcrole/concept-label")
            arc.set(XL + "from", f"loc_{i}")
            arc.set(XL + "to", f"lab_{i}")
        return root


def _ser(el: etree._Element) -> str:
    return etree.tostring(el, xml_declaration=True, encoding="UTF-8", pretty_print=True).decode()


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(x)


def _weight(w: float | None) -> str:
    w = abs(w if w is not None else 1.0)
    return "" if w == 1 else f"{_num(w)}*"


def _clip(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _role_dims(filing: Filing, role: str, def_arcs: list[Arc], concepts: set[str]):
    """Axes the role may use and the members allowed on them."""
    axes: set[str] = set()
    members: set[str] = set()
    for arc in def_arcs:
        if arc.arcrole.endswith("hypercube-dimension"):
            axes.add(arc.target)
        elif arc.arcrole.endswith(("dimension-domain", "domain-member")):
            members.add(arc.target)
            if arc.arcrole.endswith("domain-member"):
                members.add(arc.source)
        elif arc.arcrole == DIMENSION_DEFAULT:
            members.add(arc.target)
    # presentation trees of tables list axes and members too (older filings)
    for c in concepts:
        local = c.split(":", 1)[-1]
        if local.endswith("Axis"):
            axes.add(c)
        elif local.endswith(("Member", "Domain")):
            members.add(c)
    return axes, members


def segment_filing(filing: Filing, kinds: set[str] | None = None) -> list[SubFiling]:
    """One SubFiling per presentation role (in role-definition order)."""
    out: list[SubFiling] = []
    by_concept = filing.facts_by_concept()
    roles = filing.pres.roles()
    defs = {r: (filing.role_types[r].definition if r in filing.role_types else r) for r in roles}
    for role in sorted(roles, key=lambda r: defs[r]):
        kind = classify_role(defs[role], role)
        if kinds is not None and kind not in kinds:
            continue
        tree = filing.pres.walk(role)
        concepts = {c for _, c, _ in tree}
        def_arcs = dimensional_arcs(filing.defn, role)
        axes, members = _role_dims(filing, role, def_arcs, concepts)
        facts: list[Fact] = []
        contexts: dict[str, Context] = {}
        order: dict[str, None] = dict.fromkeys(c for _, c, _ in tree)
        for concept in order:
            for fact in by_concept.get(concept, ()):
                ctx = filing.contexts.get(fact.context_id)
                if ctx is None:
                    continue
                dims = ctx.dims
                if any(d not in axes for d in dims):
                    continue
                if any(m not in members for m in dict(ctx.explicit).values()):
                    continue
                facts.append(fact)
                contexts[ctx.id] = ctx
        calc_arcs = [a for a in filing.calc.arcs_in(role) if a.arcrole in SUMMATION_ARCROLES]
        out.append(
            SubFiling(filing, role, defs[role], kind, tree, facts, calc_arcs, def_arcs, contexts)
        )
    return out
