"""FASB taxonomy workbook -> concept-centric chunks, and search over them.

``build_taxonomy_chunks`` reads a taxonomy workbook (US-GAAP/SRT layout: sheets
Elements, Presentation, Calculation, Definition, References, Extensible
Enumerations) and writes:

* ``chunks_core.jsonl``: one chunk per concept, id ``prefix:Name::core``
* ``chunks_relations.jsonl``: one chunk per concept and relation family, id
  ``prefix:Name::relations:<pres|calc|def|ref|enum>``
* ``meta.json``: counts and the integrity report (relation targets that are not
  core concepts)

Every chunk and relation item carries provenance (file, sheet, row).
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

from finprobe.errors import InputError
from finprobe.files import write_text_atomic
from finprobe.xbrl.linkbase import SUMMATION_ARCROLES

FAMILIES = ("pres", "calc", "def", "ref", "enum")
_SHEET_KEYS = (("element", "core"), ("concept", "core"), ("presentation", "pres"),
               ("calculation", "calc"), ("definition", "def"), ("reference", "ref"),
               ("enumeration", "enum"))  # fmt: skip


def _sheet_family(title: str) -> str | None:
    low = title.lower()
    if low.startswith("cn ") or "summary" in low or "other" in low:
        return None  # change notes, linkbase summaries: not concept data
    for key, family in _SHEET_KEYS:
        if key in low:
            return family
    return None


def _norm_headers(row: tuple) -> list[str]:
    out: list[str] = []
    for cell in row:
        name = str(cell).strip().lower() if cell is not None else ""
        base, n = name, 2
        while name in out:  # duplicate headers ("name" twice in References)
            name = f"{base}#{n}"
            n += 1
        out.append(name)
    return out


def _cell(value) -> str | None:
    if value is None:
        return None
    text = str(value).strip()
    return text or None


def _rows(ws) -> Iterator[tuple[int, dict[str, str | None]]]:
    it = ws.iter_rows(values_only=True)
    header = next(it, None)
    if header is None:
        return
    names = _norm_headers(header)
    if not any(names):
        return  # an all-unnamed sheet
    for i, row in enumerate(it, start=2):
        rec = {names[j]: _cell(v) for j, v in enumerate(row) if j < len(names) and names[j]}
        if any(rec.values()):
            yield i, rec


def _qname(rec: dict, prefix_key: str = "prefix", name_key: str = "name") -> str | None:
    prefix, name = rec.get(prefix_key), rec.get(name_key)
    if not name:
        return None
    if ":" in name:
        return name
    return f"{prefix}:{name}" if prefix else name


def _bool(text: str | None) -> bool:
    return (text or "").strip().lower() in ("true", "1", "yes")


def _write_atomic(path: Path, lines: list[str]) -> None:
    write_text_atomic(path, "".join(lines))


def _core_text(c: dict) -> str:
    parts = [f"{c['concept']}: {c['label'] or ''}"]
    for key in ("type", "balance", "period_type"):
        if c.get(key):
            parts.append(f"{key.replace('_', ' ')}: {c[key]}")
    if c["abstract"]:
        parts.append("abstract")
    if c.get("deprecated"):
        parts.append(f"deprecated {c['deprecated']}")
    if c.get("documentation"):
        parts.append(c["documentation"])
    return ". ".join(parts)


def build_taxonomy_chunks(workbook: str | Path, out_dir: str | Path) -> dict:
    """Digitalise a taxonomy workbook into chunk files; returns the meta dict."""
    import openpyxl  # imported here: only this command needs it

    workbook = Path(workbook)
    if not workbook.exists():
        raise InputError(workbook, "file not found")
    if workbook.stat().st_size == 0:
        raise InputError(workbook, "empty file")
    try:
        wb = openpyxl.load_workbook(workbook, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many types for bad files
        raise InputError(workbook, f"not a readable xlsx workbook ({type(exc).__name__})") from None
    fname = workbook.name
    core: dict[str, dict] = {}
    rel: dict[str, dict[str, list[dict]]] = defaultdict(lambda: defaultdict(list))
    sheet_rows: dict[str, int] = {}
    families_seen: dict[str, list[str]] = defaultdict(list)
    skipped = 0
    try:
        for ws in wb.worksheets:
            family = _sheet_family(ws.title)
            if family is None:
                continue
            families_seen[family].append(ws.title)
            n = 0
            stack: list[str] = []
            last_role = None
            for row_no, rec in _rows(ws):
                n += 1
                prov = {"file": fname, "sheet": ws.title, "row": row_no}
                concept = _qname(rec)
                if concept is None:
                    skipped += 1
                    continue
                if family == "core":
                    if concept in core:
                        continue
                    c = {
                        "id": f"{concept}::core",
                        "concept": concept,
                        "label": rec.get("label"),
                        "type": rec.get("type"),
                        "substitution_group": rec.get("substitutiongroup"),
                        "balance": rec.get("balance"),
                        "period_type": rec.get("periodtype"),
                        "abstract": _bool(rec.get("abstract")),
                        "documentation": rec.get("documentation"),
                        "deprecated": rec.get("deprecateddate"),
                        "enumerations": rec.get("enumerations"),
                        "provenance": prov,
                    }
                    c["text"] = _core_text(c)
                    core[concept] = c
                    continue
                role = rec.get("extended link role") or rec.get("linkrole") or rec.get("role")
                parent = rec.get("parent") or rec.get("from")
                if family == "pres":
                    # rows come in tree order with a depth column: keep the path on a stack
                    if role != last_role:
                        stack, last_role = [], role
                    try:
                        depth = int(float(rec.get("depth") or 0))
                    except ValueError:
                        depth = 0
                    del stack[depth:]
                    stack.append(concept)
                    if parent:
                        rel[concept]["pres"].append(
                            {
                                "role": role,
                                "definition": rec.get("definition"),
                                "parent": parent,
                                "arcrole": rec.get("arcrole"),
                                "order": rec.get("order"),
                                "preferred_label": rec.get("preferredlabel"),
                                "path": " > ".join(stack),
                                "provenance": prov,
                            }  # fmt: skip
                        )
                elif family == "calc":
                    if not parent:
                        continue
                    arcrole = rec.get("arcrole") or ""
                    if arcrole and arcrole not in SUMMATION_ARCROLES:
                        skipped += 1
                        continue
                    try:
                        weight = float(rec.get("weight") or 1)
                    except ValueError:
                        skipped += 1
                        continue
                    item = {"role": role, "arcrole": arcrole, "parent": parent, "child": concept,
                            "weight": weight, "order": rec.get("order"), "provenance": prov}  # fmt: skip
                    rel[concept]["calc"].append(item)
                    rel[parent]["calc"].append(item)
                elif family == "def":
                    if not parent:
                        continue
                    item = {"role": role, "arcrole": rec.get("arcrole"), "source": parent,
                            "target": concept, "closed": rec.get("closed"),
                            "context_element": rec.get("contextelement"),
                            "target_role": rec.get("targetrole"), "usable": rec.get("usable"),
                            "provenance": prov}  # fmt: skip
                    rel[concept]["def"].append(item)
                    rel[parent]["def"].append(item)
                elif family == "ref":
                    fields = {k: v for k, v in rec.items()
                              if v and k not in ("prefix", "name", "label")}  # fmt: skip
                    if "name#2" in fields:
                        fields["source_name"] = fields.pop("name#2")
                    rel[concept]["ref"].append({**fields, "provenance": prov})
                elif family == "enum":
                    members = sorted({m.strip() for m in re.split(r"[\n,]", rec.get(
                        "domian-member relationship") or rec.get("domain-member relationship")
                        or "") if m.strip()})  # fmt: skip
                    rel[concept]["enum"].append(
                        {
                            "domain": rec.get("extensiblelistdomain"),
                            "linkrole": rec.get("ext. enum linkrole"),
                            "members": members,
                            "provenance": prov,
                        }  # fmt: skip
                    )
            sheet_rows[ws.title] = n
    finally:
        wb.close()
    if not core:
        raise InputError(workbook, "no Elements/Concepts sheet with prefix and name columns")
    # enumerations declared on the Elements sheet (enumerated types) count too
    for concept, c in core.items():
        if c.get("enumerations"):
            members = sorted(
                {m.strip() for m in re.split(r"[\n,]", c["enumerations"]) if m.strip()}
            )
            rel[concept]["enum"].append({"domain": None, "linkrole": None, "members": members,
                                         "provenance": c["provenance"]})  # fmt: skip

    # integrity: every relation endpoint should be a core concept
    by_local: dict[str, set[str]] = defaultdict(set)
    for q in core:
        by_local[q.split(":")[-1]].add(q)
    dangling: dict[str, set[str]] = defaultdict(set)
    checked = 0
    for concept, fams in rel.items():
        for family, items in fams.items():
            for item in items:
                if family == "calc":
                    targets = [item["parent"], item["child"]]
                elif family == "def":
                    targets = [item["source"], item["target"]]
                elif family == "pres":
                    targets = [item["parent"], concept]
                elif family == "enum":
                    # members are names without prefix; country codes etc. are not concepts
                    targets = [m for m in item["members"] if m.endswith("Member")]
                    targets = [next(iter(by_local[m]), m) for m in targets]
                else:
                    targets = [concept]
                for t in targets:
                    checked += 1
                    if t not in core:
                        dangling[family].add(t)

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    core_lines = [json.dumps(c, ensure_ascii=False) + "\n" for c in core.values()]
    rel_lines: list[str] = []
    rel_counts: dict[str, int] = defaultdict(int)
    item_counts: dict[str, int] = defaultdict(int)
    for concept in sorted(rel):
        for family in FAMILIES:
            items = rel[concept].get(family)
            if not items:
                continue
            chunk = {
                "id": f"{concept}::relations:{family}",
                "concept": concept,
                "family": family,
                "roles": sorted({i.get("role") or i.get("linkrole") or "" for i in items} - {""}),
                "arcroles": sorted({i.get("arcrole") or "" for i in items} - {""}),
                "items": items,
                "text": _relation_text(concept, family, items),
            }
            rel_lines.append(json.dumps(chunk, ensure_ascii=False) + "\n")
            rel_counts[family] += 1
            item_counts[family] += len(items)
    version = re.search(r"(20\d\d)", workbook.name)
    meta = {
        "source_file": fname,
        "taxonomy_version": version.group(1) if version else None,
        "sheets": {fam: titles for fam, titles in families_seen.items()},
        "sheet_rows": sheet_rows,
        "counts": {
            "core": len(core),
            "relations": dict(rel_counts),
            "relation_items": dict(item_counts),
            "rows_skipped": skipped,
        },
        "integrity": {
            "endpoints_checked": checked,
            "dangling": sum(len(v) for v in dangling.values()),
            "dangling_by_family": {k: len(v) for k, v in dangling.items()},
            "dangling_examples": {k: sorted(v)[:10] for k, v in dangling.items()},
            "ok": not dangling,
        },
    }
    _write_atomic(out / "chunks_core.jsonl", core_lines)
    _write_atomic(out / "chunks_relations.jsonl", rel_lines)
    _write_atomic(out / "meta.json", [json.dumps(meta, indent=1) + "\n"])
    return meta


def _relation_text(concept: str, family: str, items: list[dict]) -> str:
    lines = [f"{concept} {family}:"]
    for i in items[:50]:
        if family == "pres":
            lines.append(f"path {i['path']} (role {i['role']})")
        elif family == "calc":
            w = i["weight"]
            lines.append(f"{i['parent']} {'+' if w >= 0 else '-'}= {abs(w):g} x {i['child']}")
        elif family == "def":
            lines.append(
                f"{(i['arcrole'] or '').rsplit('/', 1)[-1]}: {i['source']} -> {i['target']}"
            )
        elif family == "ref":
            lines.append(", ".join(f"{k}: {v}" for k, v in i.items() if k != "provenance"))
        else:
            lines.append(f"domain {i['domain']}: {', '.join(i['members'])}")
    return "\n".join(lines)


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _search_text(chunk: dict) -> str:
    name = chunk["concept"].split(":")[-1]
    return " ".join([_CAMEL.sub(" ", name), chunk.get("label") or "",
                     chunk.get("documentation") or ""])  # fmt: skip


class TaxonomyIndex:
    """Chunks loaded from a folder written by ``build_taxonomy_chunks``."""

    def __init__(self, folder: str | Path) -> None:
        folder = Path(folder)
        core_path = folder / "chunks_core.jsonl"
        if not core_path.exists():
            raise InputError(
                folder, "no chunks_core.jsonl (build it with `finprobe taxonomy build`)"
            )
        self.folder = folder
        self.core: dict[str, dict] = {}
        self.relations: dict[str, dict[str, dict]] = defaultdict(dict)
        for path, target in ((core_path, "core"), (folder / "chunks_relations.jsonl", "rel")):
            if not path.exists():
                continue
            with path.open(encoding="utf-8") as fh:
                for n, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        chunk = json.loads(line)
                    except json.JSONDecodeError:
                        raise InputError(path, f"line {n} is not JSON") from None
                    if target == "core":
                        self.core[chunk["concept"]] = chunk
                    else:
                        self.relations[chunk["concept"]][chunk["family"]] = chunk
        self._calc_children: dict[str, list[tuple[str, float]]] = defaultdict(list)
        self._calc_parents: dict[str, set[str]] = defaultdict(set)
        self._pres_children: dict[str, set[str]] = defaultdict(set)
        self._def_children: dict[str, set[str]] = defaultdict(set)
        for concept, fams in self.relations.items():
            for item in fams.get("calc", {}).get("items", []):
                if item["child"] == concept:
                    self._calc_children[item["parent"]].append((item["child"], item["weight"]))
                    self._calc_parents[item["child"]].add(item["parent"])
            for item in fams.get("pres", {}).get("items", []):
                self._pres_children[item["parent"]].add(concept)
            for item in fams.get("def", {}).get("items", []):
                if item["target"] == concept:
                    self._def_children[item["source"]].add(concept)
        self._bm25 = None
        self._ids: list[str] = []

    def has(self, concept: str) -> bool:
        return (
            concept in self.core or concept in self._calc_parents or concept in self._calc_children
        )

    def calc_children(self, concept: str) -> list[str]:
        return [c for c, _ in self._calc_children.get(concept, [])]

    def calc_parents(self, concept: str) -> set[str]:
        return set(self._calc_parents.get(concept, ()))

    def calc_descendants(self, concept: str) -> set[str]:
        return self._closure(concept, lambda c: self.calc_children(c))

    def pres_descendants(self, concept: str) -> set[str]:
        return self._closure(concept, lambda c: self._pres_children.get(c, ()))

    def def_descendants(self, concept: str) -> set[str]:
        return self._closure(concept, lambda c: self._def_children.get(c, ()))

    @staticmethod
    def _closure(start: str, nxt) -> set[str]:
        out: set[str] = set()
        stack = [start]
        while stack:
            for child in nxt(stack.pop()):
                if child not in out:
                    out.add(child)
                    stack.append(child)
        return out

    def search(self, query: str, k: int = 10) -> list[tuple[dict, float]]:
        """BM25 keyword search over concept names, labels and documentation; an
        exact name or label match ranks first."""
        import bm25s

        if not self.core:
            return []
        if self._bm25 is None:
            self._ids = list(self.core)
            corpus = [_search_text(self.core[c]) for c in self._ids]
            self._bm25 = bm25s.BM25()
            self._bm25.index(bm25s.tokenize(corpus, stopwords="en", show_progress=False),
                             show_progress=False)  # fmt: skip
        q = _CAMEL.sub(" ", query)
        tokens = bm25s.tokenize([q], stopwords="en", show_progress=False)
        hits: list[tuple[dict, float]] = []
        if tokens.vocab:
            docs, scores = self._bm25.retrieve(tokens, k=min(k, len(self._ids)),
                                               show_progress=False)  # fmt: skip
            for idx, score in zip(docs[0], scores[0], strict=True):
                if score > 0:
                    hits.append((self.core[self._ids[int(idx)]], float(score)))
        exact = [c for c in self.core.values()
                 if query.lower() in (c["concept"].lower(), c["concept"].split(":")[-1].lower(),
                                      (c.get("label") or "").lower())]  # fmt: skip
        seen = {c["concept"] for c in exact}
        ranked = [(c, float("inf")) for c in exact] + [
            h for h in hits if h[0]["concept"] not in seen
        ]
        return ranked[:k]
