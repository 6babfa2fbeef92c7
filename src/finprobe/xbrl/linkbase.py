"""XBRL linkbases: arcs, prohibition/override resolution, relationship networks.

Calculation, presentation and definition linkbases share one arc model. Arcs are
read with their raw attributes, then resolved per XBRL 2.1 section 3.5.3.9.7:
equivalent arcs (same link role, arcrole, endpoints and non-exempt attributes)
collapse to the one with the highest priority, and a prohibiting arc at that
priority removes the relationship.
"""

from __future__ import annotations

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
    )


def parse_xml(path: Path) -> etree._Element:
    """Parse one XML file securely; InputError for missing, empty or corrupt files."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(path, "file not found") from None
    except OSError as exc:
        raise InputError(path, f"cannot read file ({exc.strerror})") from None
    if not data.strip():
        raise InputError(path, "empty file")
    try:
        return etree.fromstring(data, secure_parser())
    except etree.XMLSyntaxError as exc:
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
        return (self[0], self[1], self[2], self[3], self[4], self[5], self[6], self[9], self[10])


def resolve_arcs(arcs: Iterable[Arc]) -> tuple[list[Arc], int]:
    """Apply prohibition and overriding; return (effective arcs, number removed)."""
    groups: dict[tuple, list[Arc]] = {}
    for arc in arcs:
        groups.setdefault(arc.equivalence_key(), []).append(arc)
    kept: list[Arc] = []
    removed = 0
    for group in groups.values():
        if len(group) == 1:
            arc = group[0]
            if arc.prohibited:
                removed += 1
            else:
                kept.append(arc)
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


def read_linkbase(
    path: Path, concept_of_href: Callable[[str], str | None]
) -> tuple[list[Arc], dict[str, dict[str, dict[str, str]]], dict[str, str]]:
    """Read every extended link in one linkbase file.

    Returns (arcs, labels, hrefs): labels is concept -> role -> lang -> text (label
    links only); hrefs maps each concept to the locator href it was found under.
    """
    root = parse_xml(path)
    arcs: list[Arc] = []
    labels: dict[str, dict[str, dict[str, str]]] = {}
    hrefs: dict[str, str] = {}
    fname = path.name
    for link in root:
        if not isinstance(link.tag, str) or link.get(XLINK_TYPE) != "extended":
            continue
        kind = LINK_KINDS.get(etree.QName(link).localname)
        if kind is None:
            continue
        role = link.get(XLINK_ROLE, "")
        locs: dict[str, list[str]] = defaultdict(list)
        resources: dict[str, list[etree._Element]] = defaultdict(list)
        raw_arcs: list[tuple[dict[str, str], int]] = []
        for child in link:
            tag = child.tag
            if tag == LOC_TAG:
                href = child.get(XLINK_HREF, "")
                concept = concept_of_href(href)
                if concept is not None:
                    locs[child.get(XLINK_LABEL, "")].append(concept)
                    if concept not in hrefs:
                        hrefs[concept] = href
                continue
            ctype = child.get(XLINK_TYPE)
            if ctype == "arc":
                # one items() call is cheaper than the many get() calls an arc needs
                raw_arcs.append((dict(child.items()), child.sourceline or 0))
            elif ctype == "resource":
                resources[child.get(XLINK_LABEL, "")].append(child)
            elif ctype == "locator":
                href = child.get(XLINK_HREF, "")
                concept = concept_of_href(href)
                if concept is not None:
                    locs[child.get(XLINK_LABEL, "")].append(concept)
                    hrefs.setdefault(concept, href)
        if kind == "label":
            for a, _line in raw_arcs:
                if a.get(XLINK_ARCROLE) != CONCEPT_LABEL:
                    continue
                for concept in locs.get(a.get(XLINK_FROM, ""), ()):
                    by_role = labels.setdefault(concept, {})
                    for res in resources.get(a.get(XLINK_TO, ""), ()):
                        text = res.text or "" if len(res) == 0 else "".join(res.itertext())
                        by_role.setdefault(res.get(XLINK_ROLE, STANDARD_LABEL), {})[
                            res.get(XML_LANG, "")
                        ] = text.strip()
            continue
        for a, line in raw_arcs:
            sources = locs.get(a.get(XLINK_FROM, ""))
            targets = locs.get(a.get(XLINK_TO, ""))
            if not sources or not targets:
                continue
            weight = a.get("weight")
            extra = tuple(
                (key, a[XBRLDT + key])
                for key in ("closed", "contextElement", "targetRole", "usable")
                if XBRLDT + key in a
            )
            try:
                priority = int(a.get("priority", "0"))
            except ValueError:
                priority = 0
            arcrole = a.get(XLINK_ARCROLE, "")
            order = _order(a.get("order"))
            w = float(weight) if weight is not None else None
            prohibited = a.get("use") == "prohibited"
            preferred = a.get("preferredLabel")
            for source in sources:
                for target in targets:
                    arcs.append(
                        Arc(
                            kind,
                            role,
                            arcrole,
                            source,
                            target,
                            order,
                            w,
                            priority,
                            prohibited,
                            preferred,
                            extra,
                            fname,
                            line,
                        )  # fmt: skip
                    )
    return arcs, labels, hrefs


class RelationshipSet:
    """Effective arcs of one linkbase kind, indexed by (role, source) and (role, target)."""

    def __init__(self, arcs: Iterable[Arc], removed: int = 0) -> None:
        self.arcs: list[Arc] = list(arcs)
        self.removed = removed  # arcs dropped by prohibition/override
        self._children: dict[tuple[str, str], list[Arc]] = defaultdict(list)
        self._parents: dict[tuple[str, str], list[Arc]] = defaultdict(list)
        self._by_role: dict[str, list[Arc]] = defaultdict(list)
        for arc in self.arcs:
            self._children[(arc.role, arc.source)].append(arc)
            self._parents[(arc.role, arc.target)].append(arc)
            self._by_role[arc.role].append(arc)
        for lst in self._children.values():
            lst.sort(key=lambda a: a.order)

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
