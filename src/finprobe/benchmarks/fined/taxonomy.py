"""FinED-Bench error taxonomy: 3 categories, 15 subtypes, 9 scenes (data in fined_taxonomy.json)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

TAXONOMY_PATH = Path(__file__).with_name("fined_taxonomy.json")


@dataclass(frozen=True)
class Category:
    id: str  # "GKE" | "FKE" | "FRE"
    en: str
    zh: str
    definition: str


@dataclass(frozen=True)
class Subtype:
    id: str  # snake_case, e.g. "illegal_time"
    abbr: str  # the paper's abbreviation, e.g. "IT"
    category: str  # category id
    en: str
    zh: str
    zh_source: str  # "released" (as in the released data) or "ours"
    aliases: tuple[str, ...]
    definition: str
    example_wrong: str
    example_right: str


@dataclass(frozen=True)
class Scene:
    id: str
    en: str
    zh: str
    keywords: tuple[str, ...]
    in_paper: bool


@dataclass(frozen=True)
class Taxonomy:
    categories: tuple[Category, ...]
    subtypes: tuple[Subtype, ...]
    scenes: tuple[Scene, ...]

    def category(self, category_id: str) -> Category:
        for c in self.categories:
            if c.id == category_id:
                return c
        raise KeyError(category_id)

    def subtype(self, subtype_id: str) -> Subtype:
        for s in self.subtypes:
            if s.id == subtype_id:
                return s
        raise KeyError(subtype_id)

    def subtypes_of(self, category_id: str) -> list[Subtype]:
        return [s for s in self.subtypes if s.category == category_id]


def _key(name: str) -> str:
    # Case, spacing, hyphens and a trailing "error(s)" don't distinguish types.
    k = re.sub(r"[\s_\-]+", " ", name.strip().lower())
    return re.sub(r"\s+errors?$", "", k)


@cache
def load_taxonomy(path: Path = TAXONOMY_PATH) -> Taxonomy:
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    cats = tuple(Category(c["id"], c["en"], c["zh"], c["definition"]) for c in raw["categories"])
    subs = tuple(
        Subtype(
            id=s["id"],
            abbr=s["abbr"],
            category=s["category"],
            en=s["en"],
            zh=s["zh"],
            zh_source=s["zh_source"],
            aliases=tuple(s.get("aliases", ())),
            definition=s["definition"],
            example_wrong=s["example_wrong"],
            example_right=s["example_right"],
        )
        for s in raw["subtypes"]
    )
    scenes = tuple(
        Scene(sc["id"], sc["en"], sc["zh"], tuple(sc.get("keywords", ())), in_paper)
        for key, in_paper in (("scenes", True), ("extra_scenes", False))
        for sc in raw.get(key, [])
    )
    return Taxonomy(cats, subs, scenes)


TAXONOMY = load_taxonomy()
SUBTYPE_IDS: tuple[str, ...] = tuple(s.id for s in TAXONOMY.subtypes)
CATEGORY_IDS: tuple[str, ...] = tuple(c.id for c in TAXONOMY.categories)
PAPER_SCENE_IDS: tuple[str, ...] = tuple(s.id for s in TAXONOMY.scenes if s.in_paper)


@cache
def _name_index() -> dict[str, str]:
    index: dict[str, str] = {}
    for s in TAXONOMY.subtypes:
        for name in (s.id, s.abbr, s.en, s.zh, *s.aliases):
            index[_key(name)] = s.id
    return index


def normalize_subtype(name: str | None) -> str | None:
    """Map any spelling of a subtype (id, abbreviation, English or Chinese name) to its id."""
    if not name or not isinstance(name, str):
        return None
    index = _name_index()
    k = _key(name)
    if k in index:
        return index[k]
    # Chinese names often appear with or without the trailing 错误.
    if k.endswith("错误") and _key(k[:-2]) in index:
        return index[_key(k[:-2])]
    if _key(k + "错误") in index:
        return index[_key(k + "错误")]
    return None


def category_of(subtype_id: str) -> str:
    return TAXONOMY.subtype(subtype_id).category


# Checked in this order: specific document kinds before broad words like 项目.
_SCENE_ORDER = (
    "company_bylaws",
    "listing_prospectus",
    "bond_prospectus",
    "insurance_contract",
    "regulatory_document",
    "tender_announcement",
    "stock_research_report",
    "annual_report",
)


def guess_scene(title: str) -> str | None:
    """Best-effort scene from a document title (the released data names documents, not scenes)."""
    t = title.strip()
    if re.search(r"(法|条例|法律)$", t) and "办法" not in t[-3:]:
        return "legal_document"
    # Chinese research notes are titled "<sector>：<headline>"; check before 服务/通知 words.
    head = re.split(r"[：:]", t, maxsplit=1)
    if len(head) == 2 and len(head[0]) <= 12 or "行业" in t:
        return "industry_research_report"
    by_id = {s.id: s for s in TAXONOMY.scenes}
    for sid in _SCENE_ORDER:
        if sid == "legal_document":
            continue
        if any(k in t for k in by_id[sid].keywords):
            return sid
    return None
