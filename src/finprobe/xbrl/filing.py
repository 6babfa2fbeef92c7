"""Load an XBRL filing (instance + extension schema + linkbases) from local files.

No taxonomy is fetched: standard concepts are known only by the QNames the filing
uses. Files are found by suffix (``_cal.xml``, ``_pre.xml`` ...) and, failing
that, by sniffing the root element, because the names in a filing package often
differ from those its schema references.
"""

from __future__ import annotations

import copy
import gc
import math
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from decimal import Decimal, InvalidOperation
from pathlib import Path

from lxml import etree

from finprobe.errors import InputError
from finprobe.xbrl.linkbase import (
    STANDARD_LABEL,
    Arc,
    RelationshipSet,
    parse_xml,
    read_linkbase,
    resolve_arcs,
)

XBRLI_NS = "http://www.xbrl.org/2003/instance"
LINK_NS = "http://www.xbrl.org/2003/linkbase"
XBRLDI_NS = "http://xbrl.org/2006/xbrldi"
XS_NS = "http://www.w3.org/2001/XMLSchema"
XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"
_XBRLI = "{" + XBRLI_NS + "}"
_XBRLDI = "{" + XBRLDI_NS + "}"
_LINK = "{" + LINK_NS + "}"
_XS = "{" + XS_NS + "}"

LINKBASE_SUFFIXES = {"_cal": "calculation", "_pre": "presentation", "_def": "definition",
                     "_lab": "label"}  # fmt: skip
# prefixes of standard taxonomies: members with these are not extensions
STANDARD_PREFIXES = frozenset({"us-gaap", "srt", "dei", "country", "currency", "exch", "naics",
                               "sic", "stpr", "invest", "ecd", "cyd", "ifrs-full", "xbrli"})  # fmt: skip


@dataclass(frozen=True, slots=True)
class TypedMember:
    dimension: str
    value: str  # text of the typed domain element
    xml: str  # the element serialised, for round-tripping


@dataclass(frozen=True, slots=True)
class Context:
    id: str
    entity_scheme: str
    entity_id: str
    period_type: str  # "instant" | "duration" | "forever"
    start: str | None  # duration start (ISO date as written)
    end: str | None  # duration end, or the instant
    explicit: tuple[tuple[str, str], ...] = ()  # (dimension, member), sorted
    typed: tuple[TypedMember, ...] = ()
    in_scenario: bool = False  # dimensions were in <scenario> rather than <segment>

    @property
    def dims(self) -> dict[str, str]:
        out = dict(self.explicit)
        for t in self.typed:
            out[t.dimension] = t.value
        return out

    @property
    def has_dims(self) -> bool:
        return bool(self.explicit or self.typed)

    @property
    def period_key(self) -> tuple[str, str | None, str | None]:
        return (self.period_type, self.start, self.end)

    def period_text(self) -> str:
        if self.period_type == "instant":
            return self.end or ""
        if self.period_type == "forever":
            return "forever"
        return f"{self.start} to {self.end}"

    def dims_text(self) -> str:
        return ", ".join(f"{d}={m}" for d, m in sorted(self.dims.items())) or "-"


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    numerators: tuple[str, ...]
    denominators: tuple[str, ...] = ()

    def text(self) -> str:
        num = "*".join(m.split(":")[-1] for m in self.numerators)
        if self.denominators:
            return num + "/" + "*".join(m.split(":")[-1] for m in self.denominators)
        return num

    @property
    def is_currency(self) -> bool:
        return (
            not self.denominators
            and len(self.numerators) == 1
            and self.numerators[0].startswith("iso4217:")
        )


@dataclass(slots=True)
class Fact:
    concept: str  # QName with the filing's prefix, e.g. "us-gaap:Assets"
    context_id: str
    value: str  # lexical value, stripped (text blocks keep their markup as text)
    unit_id: str | None = None
    decimals: float | None = None  # math.inf for INF, None when absent
    is_nil: bool = False
    id: str | None = None
    line: int = 0

    @property
    def is_numeric(self) -> bool:
        return self.unit_id is not None

    @property
    def number(self) -> Decimal | None:
        if self.unit_id is None or self.is_nil:
            return None
        try:
            value = Decimal(self.value)
        except InvalidOperation:
            return None
        # NaN and Infinity parse as Decimals but compare and add as garbage (or raise)
        return value if value.is_finite() else None

    def copy(self) -> Fact:
        return Fact(self.concept, self.context_id, self.value, self.unit_id, self.decimals,
                    self.is_nil, self.id, self.line)  # fmt: skip

    def decimals_text(self) -> str:
        if self.decimals is None:
            return ""
        return "INF" if math.isinf(self.decimals) else str(int(self.decimals))


def numeric_problem(fact: Fact) -> str | None:
    """Why a numeric, non-nil fact has no usable number (None when it has one)."""
    if fact.unit_id is None or fact.is_nil:
        return None
    try:
        value = Decimal(fact.value)
    except InvalidOperation:
        return "not a number" if fact.value else "empty value"
    if value.is_nan():
        return "NaN is not a number"
    if value.is_infinite():
        return "an infinite value"
    return None


@dataclass(frozen=True, slots=True)
class Concept:
    """An element declared in the extension schema."""

    qname: str
    id: str | None
    type: str | None
    substitution_group: str | None
    period_type: str | None
    balance: str | None
    abstract: bool
    nillable: bool = True


@dataclass(frozen=True, slots=True)
class RoleType:
    uri: str
    id: str | None
    definition: str
    used_on: tuple[str, ...] = ()


@dataclass
class FilingFiles:
    instance: Path
    schema: Path | None = None
    calculation: Path | None = None
    presentation: Path | None = None
    definition: Path | None = None
    label: Path | None = None
    referenced: dict[str, str] = field(default_factory=dict)  # kind -> href the schema names

    def all(self) -> list[Path]:
        return [p for p in (self.instance, self.schema, self.calculation, self.presentation,
                            self.definition, self.label) if p is not None]  # fmt: skip


@dataclass
class Filing:
    source: Path
    files: FilingFiles
    namespaces: dict[str, str]  # prefix -> namespace URI
    contexts: dict[str, Context]
    units: dict[str, Unit]
    facts: list[Fact]
    concepts: dict[str, Concept]
    role_types: dict[str, RoleType]
    calc: RelationshipSet
    pres: RelationshipSet
    defn: RelationshipSet
    labels: dict[str, dict[str, dict[str, str]]]
    hrefs: dict[str, str]  # concept -> locator href (to write linkbase fragments)
    schema_ref: str | None = None
    target_namespace: str | None = None
    extension_prefix: str | None = None
    warnings: list[str] = field(default_factory=list)
    # locators and arcs of the calculation/presentation/definition linkbases that
    # could not be resolved (dropped): what the checks could not see
    broken_locators: list[str] = field(default_factory=list)
    _by_concept: dict[str, list[Fact]] | None = field(default=None, repr=False)
    # the label linkbase still to read: labels and hrefs are completed on first access
    _pending_labels: LabelSource | None = field(default=None, repr=False, compare=False)

    # --- lookups -----------------------------------------------------------
    def facts_by_concept(self) -> dict[str, list[Fact]]:
        if self._by_concept is None:
            index: dict[str, list[Fact]] = defaultdict(list)
            for fact in self.facts:
                index[fact.concept].append(fact)
            self._by_concept = dict(index)
        return self._by_concept

    def invalidate(self) -> None:
        """Drop cached indices after editing facts in place."""
        self._by_concept = None

    def label(self, concept: str, role: str = STANDARD_LABEL, lang: str = "en") -> str:
        """Label text for a concept: the role asked for, else the standard label, else
        the local name split from CamelCase (standard concepts may lack labels)."""
        by_role = self.labels.get(concept, {})
        for r in (role, STANDARD_LABEL):
            by_lang = by_role.get(r)
            if by_lang:
                for code, text in by_lang.items():
                    if code.lower().startswith(lang):
                        return text
                return next(iter(by_lang.values()))
        return concept.split(":")[-1]

    def is_extension(self, qname: str) -> bool:
        prefix = qname.split(":", 1)[0] if ":" in qname else ""
        if self.extension_prefix and prefix == self.extension_prefix:
            return True
        return prefix not in STANDARD_PREFIXES

    def period_end(self) -> str | None:
        """End date of the document period (from dei:DocumentPeriodEndDate's context,
        else the latest duration end)."""
        for concept in ("dei:DocumentPeriodEndDate", "dei:DocumentType"):
            for fact in self.facts_by_concept().get(concept, []):
                ctx = self.contexts.get(fact.context_id)
                if ctx is not None and ctx.end:
                    return ctx.end[:10]
        ends = [c.end[:10] for c in self.contexts.values() if c.end and c.period_type == "duration"]
        return max(ends) if ends else None

    def copy(self) -> Filing:
        """An independent copy for injecting errors without touching the original.

        Every container is new (facts, contexts, units, relationship arc lists, labels
        down to the language maps, hrefs ...), so editing the copy in place leaves the
        original as it was; the immutable things inside (Context, Unit, Concept,
        RoleType, Arc, strings) are shared rather than duplicated.
        """
        out = copy.copy(self)
        out.files = replace(self.files, referenced=dict(self.files.referenced))
        out.namespaces = dict(self.namespaces)
        out.contexts = dict(self.contexts)
        out.units = dict(self.units)
        out.facts = [f.copy() for f in self.facts]
        out.concepts = dict(self.concepts)
        out.role_types = dict(self.role_types)
        out.calc = self.calc.copy()
        out.pres = self.pres.copy()
        out.defn = self.defn.copy()
        # through __dict__: a label linkbase not read yet stays pending in both
        # (each reads it into its own maps when first asked)
        out.labels = {concept: {role: dict(by_lang) for role, by_lang in by_role.items()}
                      for concept, by_role in self.__dict__["_labels"].items()}  # fmt: skip
        out.hrefs = dict(self.__dict__["_hrefs"])
        out.warnings = list(self.warnings)
        out.broken_locators = list(self.broken_locators)
        out._by_concept = None
        return out

    def _read_pending_labels(self) -> None:
        source = self._pending_labels
        self._pending_labels = None
        try:
            label_map, hrefs = source.read()  # type: ignore[union-attr]
        except BaseException:
            self._pending_labels = source
            raise
        labels = self.__dict__["_labels"]
        for concept, by_role in label_map.items():
            labels.setdefault(concept, {}).update(by_role)
        own = self.__dict__["_hrefs"]
        for concept, href in hrefs.items():
            own.setdefault(concept, href)

    def counts(self) -> dict[str, int]:
        return {
            "facts": len(self.facts),
            "contexts": len(self.contexts),
            "units": len(self.units),
            "calc_arcs": len(self.calc),
            "pres_arcs": len(self.pres),
            "def_arcs": len(self.defn),
            "roles": len(self.role_types),
            "labels": sum(len(v) for v in self.labels.values()),
        }


def _lazy_field(name: str, doc: str) -> property:
    """A Filing field completed from the label linkbase on first access."""
    key = "_" + name

    def get(self: Filing):
        if self._pending_labels is not None:
            self._read_pending_labels()
        return self.__dict__[key]

    def set(self: Filing, value) -> None:
        self.__dict__[key] = value

    return property(get, set, doc=doc)


# set after @dataclass, so the generated __init__ (self.labels = ...) goes through them
Filing.labels = _lazy_field(  # type: ignore[assignment]
    "labels", "concept -> role -> lang -> text (the label linkbase is read on first access)"
)
Filing.hrefs = _lazy_field(  # type: ignore[assignment]
    "hrefs", "concept -> locator href (label linkbase locators are added on first access)"
)


@dataclass
class LabelSource:
    """A label linkbase not read yet: load_filing defers it until labels are needed."""

    path: Path
    ids: dict[str, str]  # schema element id -> concept QName

    def read(self) -> tuple[dict[str, dict[str, dict[str, str]]], dict[str, str]]:
        _, labels, hrefs = read_linkbase(self.path, _href_resolver(self.ids))
        return labels, hrefs


def _href_resolver(ids: dict[str, str]) -> Callable[[str], str | None]:
    """Locator href -> concept QName (schema ids first, then "prefix_LocalName")."""
    cache: dict[str, str | None] = {}

    def concept_of_href(href: str) -> str | None:
        hit = cache.get(href, "")
        if hit != "":
            return hit
        frag = href.rpartition("#")[2]
        if not frag:
            result = None
        elif frag in ids:
            result = ids[frag]
        else:
            # standard taxonomy ids are "prefix_LocalName"
            p, sep, local = frag.partition("_")
            result = f"{p}:{local}" if sep else None
        cache[href] = result
        return result

    return concept_of_href


# --- file discovery -------------------------------------------------------------


def _sniff(path: Path) -> str | None:
    """Classify an XML file by its root and first extended link: 'instance', a
    linkbase kind, or None."""
    try:
        with path.open("rb") as fh:
            head = fh.read(65536)
    except OSError:
        return None
    # skip the prolog to the root element's tag
    text = head.decode("utf-8", "replace")
    pos = 0
    while True:
        pos = text.find("<", pos)
        if pos < 0 or pos + 1 >= len(text):
            return None
        if text[pos + 1] not in "?!":
            break
        pos += 1
    tag = text[pos + 1 : pos + 60].split()[0].rstrip(">").split(":")[-1]
    if tag == "xbrl":
        return "instance"
    if tag == "linkbase":
        for marker, kind in (("calculationLink", "calculation"), ("presentationLink",
                             "presentation"), ("definitionLink", "definition"),
                             ("labelLink", "label")):  # fmt: skip
            if marker in text:
                return kind
    return None


def find_filing_files(path: str | Path) -> FilingFiles:
    """Locate instance, schema and linkbases in a folder (or beside an instance file)."""
    path = Path(path)
    if not path.exists():
        raise InputError(path, "not found")
    folder = path if path.is_dir() else path.parent
    instance = path if path.is_file() else None
    found: dict[str, list[Path]] = defaultdict(list)
    for p in sorted(folder.iterdir()):
        if not p.is_file():
            continue
        suffix = p.suffix.lower()
        if suffix == ".xsd":
            found["schema"].append(p)
            continue
        if suffix != ".xml":
            continue
        stem = p.stem.lower()
        kind = next((k for s, k in LINKBASE_SUFFIXES.items() if stem.endswith(s)), None)
        if kind is None:
            if stem.endswith("_ref"):
                continue  # reference linkbase: not used
            kind = _sniff(p) or "unknown"
        found[kind].append(p)
    if instance is None:
        # unrecognised .xml files stand in, so a corrupt instance is reported as such
        candidates = found.get("instance", []) or found.get("unknown", [])
        if not candidates:
            htm = [p.name for p in folder.glob("*.htm*")]
            hint = " (inline XBRL .htm is not read: pass the extracted _htm.xml)" if htm else ""
            raise InputError(folder, "no XBRL instance document found" + hint)
        # the largest candidate is the instance; small ones are usually stray copies
        instance = max(candidates, key=lambda p: p.stat().st_size)
    files = FilingFiles(instance=instance)
    for kind in ("calculation", "presentation", "definition", "label"):
        paths = found.get(kind, [])
        if paths:
            setattr(files, kind, max(paths, key=lambda p: p.stat().st_size))
    schemas = found.get("schema", [])
    if schemas:
        files.schema = max(schemas, key=lambda p: p.stat().st_size)
    return files


# --- parsing ---------------------------------------------------------------------


_DECIMALS: dict[str, float | None] = {}  # decimals attribute text -> value


def _decimals_of(dec: str) -> float | None:
    value = _DECIMALS.get(dec, False)
    if value is False:
        text = dec.strip()
        if text == "INF":
            value = math.inf
        else:
            try:
                value = float(int(text))
            except ValueError:
                value = None
        if len(_DECIMALS) < 1024:
            _DECIMALS[dec] = value
    return value  # type: ignore[return-value]


def _parse_decimals(fact_el: etree._Element, value: str) -> float | None:
    dec = fact_el.get("decimals")
    if dec is not None:
        return _decimals_of(dec)
    return _precision_to_decimals(fact_el.get("precision"), value)


def _precision_to_decimals(prec: str | None, value: str) -> float | None:
    if prec is None:
        return None
    prec = prec.strip()
    if prec == "INF":
        return math.inf
    try:
        p = int(prec)
        v = abs(Decimal(value))
    except (ValueError, InvalidOperation):
        return None
    if p == 0 or v == 0:
        return None
    # precision -> decimals (XBRL 2.1 4.6.6): p - floor(log10|v|) - 1
    return float(p - int(math.floor(v.log10())) - 1)


_ENTITY = _XBRLI + "entity"
_IDENTIFIER = _XBRLI + "identifier"
_SEGMENT = _XBRLI + "segment"
_PERIOD = _XBRLI + "period"
_SCENARIO = _XBRLI + "scenario"
_EXPLICIT = _XBRLDI + "explicitMember"
_TYPED = _XBRLDI + "typedMember"
_CONTEXT = _XBRLI + "context"
_UNIT = _XBRLI + "unit"
_MEASURE = _XBRLI + "measure"
_DIVIDE = _XBRLI + "divide"
_NUMERATOR = _XBRLI + "unitNumerator"
_SCHEMA_REF = _LINK + "schemaRef"
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_PERIOD_PARTS = {"instant": 0, "startDate": 1, "endDate": 2}


def _parse_context(el: etree._Element) -> Context:
    cid = el.get("id", "")
    scheme = ident = ""
    explicit: list[tuple[str, str]] = []
    typed: list[TypedMember] = []
    period_type, start, end = "forever", None, None
    in_scenario = False
    for part in el:
        tag = part.tag
        if tag == _ENTITY:
            for sub in part:
                if sub.tag == _IDENTIFIER:
                    scheme = sub.get("scheme", "")
                    ident = (sub.text or "").strip()
                elif sub.tag == _SEGMENT:
                    _read_dims(sub, explicit, typed)
        elif tag == _PERIOD:
            for sub in part:
                sub_tag = sub.tag
                # period parts are matched by local name (any namespace)
                which = _PERIOD_PARTS.get(sub_tag.rpartition("}")[2]) if isinstance(
                    sub_tag, str) else None  # fmt: skip
                if which == 0:
                    period_type, end = "instant", (sub.text or "").strip()
                elif which == 1:
                    period_type, start = "duration", (sub.text or "").strip()
                elif which == 2:
                    period_type, end = "duration", (sub.text or "").strip()
        elif tag == _SCENARIO:
            before = len(explicit) + len(typed)
            _read_dims(part, explicit, typed)
            in_scenario = len(explicit) + len(typed) > before
    if len(explicit) > 1:
        explicit.sort()
    if len(typed) > 1:
        typed.sort(key=lambda t: t.dimension)
    return Context(cid, scheme, ident, period_type, start, end, tuple(explicit), tuple(typed),
                   in_scenario)  # fmt: skip


def _read_dims(container: etree._Element, explicit: list, typed: list) -> None:
    for member in container:
        tag = member.tag
        if tag == _EXPLICIT:
            explicit.append((member.get("dimension", "").strip(), (member.text or "").strip()))
        elif tag == _TYPED:
            inner = next((c for c in member if isinstance(c.tag, str)), None)
            value = "".join(inner.itertext()).strip() if inner is not None else ""
            xml = etree.tostring(inner, encoding="unicode").strip() if inner is not None else ""
            typed.append(TypedMember(member.get("dimension", "").strip(), value, xml))


def _parse_unit(el: etree._Element) -> Unit:
    nums: list[str] = []
    dens: list[str] = []
    for part in el:
        tag = part.tag
        if tag == _MEASURE:
            nums.append((part.text or "").strip())
        elif tag == _DIVIDE:
            for side in part:
                target = nums if side.tag == _NUMERATOR else dens
                target.extend((m.text or "").strip() for m in side if m.tag == _MEASURE)
    return Unit(el.get("id", ""), tuple(sorted(nums)), tuple(sorted(dens)))


def _parse_instance(path: Path):
    root = parse_xml(path)
    if etree.QName(root).localname != "xbrl":
        raise InputError(path, f"not an XBRL instance (root element <{root.tag}>)")
    ns_prefix: dict[str, str] = {}
    namespaces: dict[str, str] = {}
    for prefix, uri in root.nsmap.items():
        if prefix:
            ns_prefix.setdefault(uri, prefix)
            namespaces[prefix] = uri
    contexts: dict[str, Context] = {}
    units: dict[str, Unit] = {}
    facts: list[Fact] = []
    schema_ref = None
    concept_of_tag: dict[str, str] = {}
    for el in root.iterchildren(etree.Element):
        tag = el.tag
        if tag == _CONTEXT:
            ctx = _parse_context(el)
            contexts[ctx.id] = ctx
        elif tag == _UNIT:
            unit = _parse_unit(el)
            units[unit.id] = unit
        elif tag.startswith(_LINK):
            if tag == _SCHEMA_REF:
                schema_ref = el.get(_XLINK_HREF)
        else:
            _collect_fact(el, tag, ns_prefix, namespaces, facts, concept_of_tag)
    return root, namespaces, contexts, units, facts, schema_ref


def _collect_fact(el, tag, ns_prefix, namespaces, facts, concept_of_tag) -> None:
    attrs = dict(el.items())  # one call instead of five get() calls
    ctx = attrs.get("contextRef")
    if ctx is None:
        # a tuple: its children are the facts
        for child in el.iterchildren(etree.Element):
            _collect_fact(child, child.tag, ns_prefix, namespaces, facts, concept_of_tag)
        return
    concept = concept_of_tag.get(tag)
    if concept is None:
        ns, _, local = tag[1:].partition("}")
        prefix = ns_prefix.get(ns)
        if prefix is not None:
            concept = concept_of_tag[tag] = f"{prefix}:{local}"
        else:
            prefix = el.prefix  # varies by element: not cached
            if prefix is None:
                prefix = f"ns{len(ns_prefix)}"
                ns_prefix[ns] = prefix
                namespaces[prefix] = ns
            concept = f"{prefix}:{local}"
    unit = attrs.get("unitRef")
    is_nil = attrs.get(XSI_NIL) in ("true", "1")
    if unit is not None:
        value = (el.text or "").strip()
        if is_nil:
            decimals = None
        else:
            dec = attrs.get("decimals")
            if dec is not None:
                decimals = _decimals_of(dec)
            else:
                decimals = _precision_to_decimals(attrs.get("precision"), value)
    else:
        value = (el.text or "") if len(el) == 0 else etree.tostring(el, encoding="unicode")
        value = value.strip()
        decimals = None
    facts.append(
        Fact(concept, ctx, value, unit, decimals, is_nil, attrs.get("id"), el.sourceline or 0)
    )


def _parse_schema(path: Path, prefix_of_ns: dict[str, str]):
    root = parse_xml(path)
    tns = root.get("targetNamespace")
    prefix = None
    for p, uri in root.nsmap.items():
        if uri == tns and p:
            prefix = p
    prefix = prefix_of_ns.get(tns or "", prefix) or prefix or "ext"
    concepts: dict[str, Concept] = {}
    ids: dict[str, str] = {}
    roles: dict[str, RoleType] = {}
    referenced: dict[str, str] = {}
    xbrli_period = "{" + XBRLI_NS + "}periodType"
    xbrli_balance = "{" + XBRLI_NS + "}balance"
    for el in root.iter(_XS + "element", _LINK + "roleType", _LINK + "linkbaseRef"):
        if el.tag == _XS + "element":
            name = el.get("name")
            if not name or el.getparent() is not root:
                continue
            qname = f"{prefix}:{name}"
            cid = el.get("id")
            concepts[qname] = Concept(
                qname=qname,
                id=cid,
                type=el.get("type"),
                substitution_group=el.get("substitutionGroup"),
                period_type=el.get(xbrli_period),
                balance=el.get(xbrli_balance),
                abstract=el.get("abstract") == "true",
                nillable=el.get("nillable", "true") == "true",
            )
            if cid:
                ids[cid] = qname
        elif el.tag == _LINK + "roleType":
            uri = el.get("roleURI", "")
            definition = ""
            used_on: list[str] = []
            for sub in el:
                if sub.tag == _LINK + "definition":
                    definition = (sub.text or "").strip()
                elif sub.tag == _LINK + "usedOn":
                    used_on.append((sub.text or "").strip())
            roles[uri] = RoleType(uri, el.get("id"), definition, tuple(used_on))
        else:
            role = el.get("{http://www.w3.org/1999/xlink}role", "")
            href = el.get("{http://www.w3.org/1999/xlink}href", "")
            for kind in ("calculation", "presentation", "definition", "label"):
                if kind in role.lower():
                    referenced[kind] = href
    return tns, prefix, concepts, ids, roles, referenced


def load_filing(path: str | Path, *, labels: bool = True) -> Filing:
    """Load a filing from a folder (or an instance file with its siblings).

    ``labels=False`` skips the label linkbase (the largest file) when only
    numbers and structure are needed.
    """
    # a load allocates tens of thousands of objects and no reference cycles: pausing
    # the cyclic collector saves its repeated scans of the growing heap
    if not gc.isenabled():
        return _load_filing(path, labels)
    gc.disable()
    try:
        return _load_filing(path, labels)
    finally:
        gc.enable()


def _load_filing(path: str | Path, labels: bool) -> Filing:
    files = find_filing_files(path)
    _, namespaces, contexts, units, facts, schema_ref = _parse_instance(files.instance)
    prefix_of_ns = {uri: p for p, uri in namespaces.items()}
    warnings: list[str] = []
    tns = ext_prefix = None
    concepts: dict[str, Concept] = {}
    ids: dict[str, str] = {}
    roles: dict[str, RoleType] = {}
    if files.schema is not None:
        tns, ext_prefix, concepts, ids, roles, files.referenced = _parse_schema(
            files.schema, prefix_of_ns
        )
        if schema_ref and Path(schema_ref).name != files.schema.name:
            warnings.append(f"instance references {schema_ref}; using {files.schema.name}")
    else:
        warnings.append("no schema (.xsd) found: no roleTypes or extension concepts")
    for kind, href in files.referenced.items():
        actual = getattr(files, kind, None)
        if actual is not None and Path(href).name != actual.name:
            warnings.append(f"schema references {href} for {kind}; using {actual.name}")

    concept_of_href = _href_resolver(ids)
    broken: list[str] = []

    linkbases: dict[str, list[Arc]] = {}
    label_map: dict[str, dict[str, dict[str, str]]] = {}
    hrefs: dict[str, str] = {}
    pending: LabelSource | None = None
    for kind in ("calculation", "presentation", "definition", "label"):
        lb_path = getattr(files, kind)
        if lb_path is None:
            if kind != "label" or labels:
                warnings.append(f"no {kind} linkbase found")
            linkbases[kind] = []
            continue
        if kind == "label":
            # read on first access of Filing.labels / .hrefs: many uses never need them
            if labels:
                pending = LabelSource(lb_path, ids)
            continue
        arcs, lbls, h = read_linkbase(lb_path, concept_of_href, broken)
        linkbases[kind] = arcs
        for concept, href in h.items():
            hrefs.setdefault(concept, href)
        for concept, by_role in lbls.items():
            label_map.setdefault(concept, {}).update(by_role)
    # locators into the filing's own schema must name an element it declares
    if files.schema is not None:
        own = files.schema.name
        for href in hrefs.values():
            file_part, _, frag = href.partition("#")
            if Path(file_part).name == own and frag not in ids:
                broken.append(f"locator {href!r} names no element of {own}")
    sets = {}
    for kind in ("calculation", "presentation", "definition"):
        kept, removed = resolve_arcs(linkbases.get(kind, []))
        sets[kind] = RelationshipSet(kept, removed)
    for fact in facts:
        if fact.context_id not in contexts:
            warnings.append(f"fact {fact.concept} refers to missing context {fact.context_id}")
        if fact.unit_id is not None and fact.unit_id not in units:
            warnings.append(f"fact {fact.concept} refers to missing unit {fact.unit_id}")
    return Filing(
        source=files.instance.parent,
        files=files,
        namespaces=namespaces,
        contexts=contexts,
        units=units,
        facts=facts,
        concepts=concepts,
        role_types=roles,
        calc=sets["calculation"],
        pres=sets["presentation"],
        defn=sets["definition"],
        labels=label_map,
        hrefs=hrefs,
        schema_ref=schema_ref,
        target_namespace=tns,
        extension_prefix=ext_prefix,
        warnings=warnings,
        broken_locators=broken,
        _pending_labels=pending,
    )
