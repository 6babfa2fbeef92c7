"""XBRL linkbases: arcs, prohibition/override resolution, relationship networks.

Calculation, presentation and definition linkbases share one arc model. Arcs are
read with their raw attributes, then resolved per XBRL 2.1 section 3.5.3.9.7:
equivalent arcs (same link role, arcrole, endpoints and non-exempt attributes)
collapse to the one with the highest priority, and a prohibiting arc at that
priority removes the relationship.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from lxml import etree

from finprobe.errors import InputError

XLINK = "{http://www.w3.org/1999/xlink}"
XLINK_TYPE = XLINK + "type"
XLINK_LABEL = XLINK + "label"
XLINK_HREF = XLINK + "href"
XLINK_ROLE = XLINK + "role"
XLINK_ARCROLE = XLINK + "arcrole"
XLINK_FROM = XLINK + "from"
XLINK_TO = XLINK + "to"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
XBRLDT = "{http://xbrl.org/2005/xbrldt}"
LOC_TAG = "{http://www.xbrl.org/2003/linkbase}loc"

SUMMATION_ITEM_2003 = "http://www.xbrl.org/2003/arcrole/summation-item"
SUMMATION_ITEM_CALC11 = "https://xbrl.org/2023/arcrole/summation-item"
SUMMATION_ARCROLES = frozenset({SUMMATION_ITEM_2003, SUMMATION_ITEM_CALC11})
PARENT_CHILD = "http://www.xbrl.org/2003/arcrole/parent-child"
CONCEPT_LABEL = "http://www.xbrl.org/2003/arcrole/concept-label"
HYPERCUBE_DIMENSION = "http://xbrl.org/int/dim/arcrole/hypercube-dimension"
DIMENSION_DOMAIN = "http://xbrl.org/int/dim/arcrole/dimension-domain"
DOMAIN_MEMBER = "http://xbrl.org/int/dim/arcrole/domain-member"
DIMENSION_DEFAULT = "http://xbrl.org/int/dim/arcrole/dimension-default"
ALL = "http://xbrl.org/int/dim/arcrole/all"
NOT_ALL = "http://xbrl.org/int/dim/arcrole/notAll"

STANDARD_LABEL = "http://www.xbrl.org/2003/role/label"
TERSE_LABEL = "http://www.xbrl.org/2003/role/terseLabel"
VERBOSE_LABEL = "http://www.xbrl.org/2003/role/verboseLabel"
DOCUMENTATION = "http://www.xbrl.org/2003/role/documentation"

LINK_KINDS = {"calculationLink": "calculation", "presentationLink": "presentation",
              "definitionLink": "definition", "labelLink": "label"}  # fmt: skip


def secure_parser() -> etree.XMLParser:
    """A parser that never resolves entities, loads DTDs or touches the network."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=True,
        remove_comments=True,
        remove_pis=True,
        collect_ids=False,  # no ID hash table: nothing here looks elements up by id
    )


_parsers = threading.local()


def _cached_parser() -> etree.XMLParser:
    """One secure parser per thread, reused (lxml parsers must not be shared by threads)."""
    parser = getattr(_parsers, "parser", None)
    if parser is None:
        parser = _parsers.parser = secure_parser()
    return parser


def parse_xml(path: Path) -> etree._Element:
    """Parse one XML file securely; InputError for missing, empty or corrupt files."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "file not found") from None
    except OSError as exc:
        raise InputError(path, f"cannot read file ({exc.strerror})") from None
    try:
        return etree.fromstring(data, _cached_parser())
    except etree.XMLSyntaxError as exc:
        if not data or data.isspace():
            raise InputError(path, "empty file") from None
        msg = str(exc).splitlines()[0] if str(exc) else "syntax error"
        raise InputError(path, f"not well-formed XML: {msg}") from None


class Arc(NamedTuple):
    """One relationship of a linkbase network (after locators are resolved to concepts).

    A NamedTuple rather than a dataclass: filings hold thousands and it builds faster.
    """

    kind: str  # "calculation" | "presentation" | "definition"
    role: str  # extended link role
    arcrole: str
    source: str  # concept QName, e.g. "us-gaap:Assets"
    target: str
    order: float = 1.0
    weight: float | None = None  # calculation arcs only
    priority: int = 0
    prohibited: bool = False
    preferred_label: str | None = None
    # other non-exempt attributes (xbrldt:closed, contextElement, targetRole, usable)
    attrs: tuple[tuple[str, str], ...] = ()
    file: str = ""
    line: int = 0

    def attr(self, name: str) -> str | None:
        for key, value in self.attrs:
            if key == name:
                return value
        return None

    @property
    def target_role(self) -> str | None:
        return self.attr("targetRole")

    def equivalence_key(self) -> tuple:
        # "use" and "priority" are exempt; xlink attributes other than arcrole don't count
        return self[:7] + self[9:11]


def resolve_arcs(arcs: Iterable[Arc]) -> tuple[list[Arc], int]:
    """Apply prohibition and overriding; return (effective arcs, number removed)."""
    groups: dict[tuple, Arc | list[Arc]] = {}
    multi = False
    for arc in arcs:
        key = arc[:7] + arc[9:11]  # Arc.equivalence_key(), inlined
        have = groups.get(key)
        if have is None:
            groups[key] = arc
        elif type(have) is list:
            have.append(arc)
        else:
            groups[key] = [have, arc]
            multi = True
    kept: list[Arc] = []
    removed = 0
    if not multi:  # the usual case: no two arcs are equivalent
        for arc in groups.values():
            if arc[8]:  # prohibited
                removed += 1
            else:
                kept.append(arc)
        return kept, removed
    for group in groups.values():
        if type(group) is not list:
            if group[8]:
                removed += 1
            else:
                kept.append(group)
            continue
        top = max(a.priority for a in group)
        winners = [a for a in group if a.priority == top]
        # a prohibiting arc beats an optional one of equal priority
        if any(a.prohibited for a in winners):
            removed += len(group)
        else:
            kept.append(winners[0])
            removed += len(group) - 1
    return kept, removed


def _order(value: str | None) -> float:
    if value is None:
        return 1.0
    try:
        return float(value)
    except ValueError:
        return 1.0


_new_arc = tuple.__new__  # Arc(...) without the generated __new__: thousands per filing
_DT_ATTRS = tuple((key, XBRLDT + key) for key in ("closed", "contextElement", "targetRole",
                                                  "usable"))  # fmt: skip
_DT_CLOSED, _DT_CONTEXT, _DT_TARGET, _DT_USABLE = (clark for _, clark in _DT_ATTRS)


def _label_text(res: etree._Element) -> str:
    text = (res.text or "") if len(res) == 0 else "".join(res.itertext())
    return text.strip()


def read_linkbase(
    path: Path,
    concept_of_href: Callable[[str], str | None],
    broken: list[str] | None = None,
) -> tuple[list[Arc], dict[str, dict[str, dict[str, str]]], dict[str, str]]:
    """Read every extended link in one linkbase file.

    Returns (arcs, labels, hrefs): labels is concept -> role -> lang -> text (label
    links only); hrefs maps each concept to the locator href it was found under.
    ``broken``, when given, collects what could not be resolved: locators whose href
    names no concept, and arcs whose ends name no locator (both are dropped).
    """
    root = parse_xml(path)
    arcs: list[Arc] = []
    labels: dict[str, dict[str, dict[str, str]]] = {}
    hrefs: dict[str, str] = {}
    fname = path.name
    orders: dict[str | None, float] = {}
    weights: dict[str, float] = {}
    element = etree.Element  # iterchildren(tag=...) filter: elements only
    for link in root.iterchildren(element):
        kind = LINK_KINDS.get(link.tag.rpartition("}")[2])
        if kind is None or link.get(XLINK_TYPE) != "extended":
            continue
        is_label = kind == "label"
        role = link.get(XLINK_ROLE, "")
        locs: dict[str, list[str]] = {}
        resources: dict[str, list[tuple[str, str, str]]] = {}
        raw_arcs: list[tuple[dict[str, str], int]] = []
        for child in link.iterchildren(element):
            if child.tag == LOC_TAG:
                href = child.get(XLINK_HREF, "")
                concept = concept_of_href(href)
                if concept is None and broken is not None:
                    broken.append(f"{fname}: locator {href!r} names no concept")
                if concept is not None:
                    label = child.get(XLINK_LABEL, "")
                    found = locs.get(label)
                    if found is None:
                        locs[label] = [concept]
                    else:
                        found.append(concept)
                    if concept not in hrefs:
                        hrefs[concept] = href
                continue
            # one items() call is cheaper than the several get() calls an arc needs
            a = dict(child.items())
            ctype = a.get(XLINK_TYPE)
            if ctype == "arc":
                raw_arcs.append((a, 0 if is_label else child.sourceline or 0))
            elif ctype == "resource":
                if is_label:  # resources of other links are not read
                    entry = (a.get(XLINK_ROLE, STANDARD_LABEL), a.get(XML_LANG, ""),
                             _label_text(child))  # fmt: skip
                    resources.setdefault(a.get(XLINK_LABEL, ""), []).append(entry)
            elif ctype == "locator":
                href = a.get(XLINK_HREF, "")
                concept = concept_of_href(href)
                if concept is not None:
                    locs.setdefault(a.get(XLINK_LABEL, ""), []).append(concept)
                    hrefs.setdefault(concept, href)
        if is_label:
            for a, _line in raw_arcs:
                if a.get(XLINK_ARCROLE) != CONCEPT_LABEL:
                    continue
                for concept in locs.get(a.get(XLINK_FROM, ""), ()):
                    by_role = labels.get(concept)
                    if by_role is None:
                        by_role = labels[concept] = {}
                    for res_role, lang, text in resources.get(a.get(XLINK_TO, ""), ()):
                        by_lang = by_role.get(res_role)
                        if by_lang is None:
                            by_lang = by_role[res_role] = {}
                        by_lang[lang] = text
            continue
        for a, line in raw_arcs:
            sources = locs.get(a.get(XLINK_FROM, ""))
            targets = locs.get(a.get(XLINK_TO, ""))
            if not sources or not targets:
                if broken is not None:
                    broken.append(f"{fname}: arc {a.get(XLINK_FROM, '')} -> "
                                  f"{a.get(XLINK_TO, '')} has an end with no locator")  # fmt: skip
                continue
            if _DT_CLOSED in a or _DT_CONTEXT in a or _DT_TARGET in a or _DT_USABLE in a:
                extra = tuple((key, a[clark]) for key, clark in _DT_ATTRS if clark in a)
            else:
                extra = ()
            priority_text = a.get("priority")
            if priority_text is None:
                priority = 0
            else:
                try:
                    priority = int(priority_text)
                except ValueError:
                    priority = 0
            arcrole = a.get(XLINK_ARCROLE, "")
            order_text = a.get("order")
            order = orders.get(order_text)
            if order is None:
                order = orders[order_text] = _order(order_text)
            weight = a.get("weight")
            if weight is None:
                w = None
            else:
                w = weights.get(weight)
                if w is None:
                    w = weights[weight] = float(weight)
            prohibited = a.get("use") == "prohibited"
            preferred = a.get("preferredLabel")
            if len(sources) == 1 and len(targets) == 1:
                arcs.append(_new_arc(Arc, (kind, role, arcrole, sources[0], targets[0], order, w,
                                           priority, prohibited, preferred, extra, fname, line)))  # fmt: skip
                continue
            for source in sources:
                for target in targets:
                    arcs.append(_new_arc(Arc, (kind, role, arcrole, source, target, order, w,
                                               priority, prohibited, preferred, extra, fname,
                                               line)))  # fmt: skip
    return arcs, labels, hrefs


def _arc_order(arc: Arc) -> float:
    return arc[5]


class RelationshipSet:
    """Effective arcs of one linkbase kind, indexed by (role, source) and (role, target).

    The indices are built from ``arcs`` on first use. Treat ``arcs`` as read-only once
    the set is queried: to change relationships, build a new set (as the injectors do).
    """

    def __init__(self, arcs: Iterable[Arc], removed: int = 0) -> None:
        self.arcs: list[Arc] = list(arcs)
        self.removed = removed  # arcs dropped by prohibition/override
        self._index: tuple[dict, dict, dict] | None = None

    def _build_index(self) -> tuple[dict, dict, dict]:
        children: dict[tuple[str, str], list[Arc]] = defaultdict(list)
        parents: dict[tuple[str, str], list[Arc]] = defaultdict(list)
        by_role: dict[str, list[Arc]] = defaultdict(list)
        for arc in self.arcs:
            children[(arc.role, arc.source)].append(arc)
            parents[(arc.role, arc.target)].append(arc)
            by_role[arc.role].append(arc)
        for lst in children.values():
            if len(lst) > 1:
                lst.sort(key=_arc_order)
        self._index = (children, parents, by_role)
        return self._index

    @property
    def _children(self) -> dict[tuple[str, str], list[Arc]]:
        return (self._index or self._build_index())[0]

    @property
    def _parents(self) -> dict[tuple[str, str], list[Arc]]:
        return (self._index or self._build_index())[1]

    @property
    def _by_role(self) -> dict[str, list[Arc]]:
        return (self._index or self._build_index())[2]

    def copy(self) -> RelationshipSet:
        """A set with its own arc list (arcs themselves are immutable tuples)."""
        return RelationshipSet(self.arcs, self.removed)

    def __len__(self) -> int:
        return len(self.arcs)

    def roles(self) -> list[str]:
        return list(self._by_role)

    def arcs_in(self, role: str, arcroles: Iterable[str] | None = None) -> list[Arc]:
        arcs = self._by_role.get(role, [])
        if arcroles is None:
            return list(arcs)
        wanted = set(arcroles)
        return [a for a in arcs if a.arcrole in wanted]

    def children(
        self, concept: str, role: str | None = None, arcroles: Iterable[str] | None = None
    ) -> list[Arc]:
        if role is None:
            found = [a for r in self._by_role for a in self._children.get((r, concept), [])]
        else:
            found = self._children.get((role, concept), [])
        if arcroles is not None:
            wanted = set(arcroles)
            found = [a for a in found if a.arcrole in wanted]
        return list(found)

    def parents(
        self, concept: str, role: str | None = None, arcroles: Iterable[str] | None = None
    ) -> list[Arc]:
        if role is None:
            found = [a for r in self._by_role for a in self._parents.get((r, concept), [])]
        else:
            found = self._parents.get((role, concept), [])
        if arcroles is not None:
            wanted = set(arcroles)
            found = [a for a in found if a.arcrole in wanted]
        return list(found)

    def concepts(self, role: str | None = None) -> set[str]:
        arcs = self.arcs if role is None else self._by_role.get(role, [])
        out: set[str] = set()
        for arc in arcs:
            out.add(arc.source)
            out.add(arc.target)
        return out

    def roots(self, role: str) -> list[str]:
        """Sources in the role that are nobody's target, in first-seen order."""
        targets = {a.target for a in self._by_role.get(role, [])}
        seen: dict[str, None] = {}
        for arc in self._by_role.get(role, []):
            if arc.source not in targets:
                seen.setdefault(arc.source)
        return list(seen)

    def walk(self, role: str) -> list[tuple[int, str, Arc | None]]:
        """Depth-first (depth, concept, arc-into-it) over the role's trees; cycles cut."""
        out: list[tuple[int, str, Arc | None]] = []

        def visit(concept: str, depth: int, arc: Arc | None, path: frozenset[str]) -> None:
            out.append((depth, concept, arc))
            for child in self._children.get((role, concept), []):
                if child.target not in path:
                    visit(child.target, depth + 1, child, path | {child.target})

        for root in self.roots(role):
            visit(root, 0, None, frozenset({root}))
        return out

    def descendants(self, concept: str, role: str | None = None) -> set[str]:
        out: set[str] = set()
        stack = [concept]
        while stack:
            node = stack.pop()
            for arc in self.children(node, role):
                if arc.target not in out:
                    out.add(arc.target)
                    stack.append(arc.target)
        return out


def dimensional_arcs(defn: RelationshipSet, role: str) -> list[Arc]:
    """Definition arcs that make up the role's dimensional structure, following
    targetRole from all/notAll and hypercube-dimension arcs into other roles."""
    out: list[Arc] = []
    seen: set[tuple] = set()

    def follow(concept: str, arc_role: str, arcroles: tuple[str, ...]) -> None:
        for arc in defn.children(concept, arc_role, arcroles):
            key = arc.equivalence_key()
            if key in seen:
                continue
            seen.add(key)
            out.append(arc)
            nxt = arc.target_role or arc_role
            if arc.arcrole in (ALL, NOT_ALL):
                follow(arc.target, nxt, (HYPERCUBE_DIMENSION,))
            elif arc.arcrole == HYPERCUBE_DIMENSION:
                follow(arc.target, nxt, (DIMENSION_DOMAIN,))
            elif arc.arcrole in (DIMENSION_DOMAIN, DOMAIN_MEMBER):
                follow(arc.target, nxt, (DOMAIN_MEMBER,))

    for arc in defn.arcs_in(role):
        key = arc.equivalence_key()
        if key not in seen:
            seen.add(key)
            out.append(arc)
        nxt = arc.target_role or role
        if arc.arcrole in (ALL, NOT_ALL):
            follow(arc.target, nxt, (HYPERCUBE_DIMENSION,))
        elif arc.arcrole == HYPERCUBE_DIMENSION and nxt != role:
            follow(arc.target, nxt, (DIMENSION_DOMAIN,))
        elif arc.arcrole in (DIMENSION_DOMAIN, DOMAIN_MEMBER) and nxt != role:
            follow(arc.target, nxt, (DOMAIN_MEMBER,))
    return out
