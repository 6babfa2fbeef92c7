"""The DQC resource lists the checks need, packaged as one JSON file.

``derive_dqc_resources`` rebuilds ``data/dqc_resources.json`` from a copy of the
DQC rule resources (``dqc_us_rules/resources``); the checks read only the
packaged JSON, so nothing outside the package is needed at run time.
"""

from __future__ import annotations

import csv
import json
import re
from functools import lru_cache
from pathlib import Path

from finprobe.errors import InputError
from finprobe.files import write_text_atomic

PACKAGED = Path(__file__).with_name("data") / "dqc_resources.json"


def _lenient_json(text: str):
    # the published dqc_0001.json has trailing commas
    return json.loads(re.sub(r",(\s*[}\]])", r"\1", text))


def derive_dqc_resources(resources_dir: str | Path, out: str | Path = PACKAGED) -> dict:
    """Read the DQC resource files under ``resources_dir`` and write the compact JSON."""
    root = Path(resources_dir)
    if not root.is_dir():
        raise InputError(root, "not a folder")
    data: dict = {"source": "DQC US rules resources (dqc_us_rules/resources)"}
    axes_file = root / "DQC_US_0001" / "dqc_0001.json"
    if axes_file.exists():
        raw = _lenient_json(axes_file.read_text(encoding="utf-8"))
        data["dqc_0001_axes"] = {
            axis: {
                "defined_members": sorted(set(spec.get("defined_members", []))),
                "additional_members": sorted(set(spec.get("additional_members", []))),
                "additional_axes": {
                    k: sorted(set(v)) for k, v in spec.get("additional_axes", {}).items()
                },  # fmt: skip
                "excluded_axes": {
                    k: sorted(set(v)) for k, v in spec.get("excluded_axes", {}).items()
                },  # fmt: skip
                "extensions": sorted(set(spec.get("extensions", []))),
            }
            for axis, spec in raw.items()
        }
    d15 = root / "DQC_US_0015"
    concepts_csv = sorted(d15.glob("dqc_15_*concepts.csv")) if d15.is_dir() else []
    if concepts_csv:
        items: dict[str, str] = {}
        with concepts_csv[-1].open(newline="", encoding="utf-8") as fh:
            for row in csv.reader(fh):
                if len(row) >= 2 and row[0].strip().isdigit():
                    items[row[1].strip()] = row[0].strip()
        data["dqc_0015_concepts"] = dict(sorted(items.items()))
        data["dqc_0015_concepts_source"] = concepts_csv[-1].name
    excl = d15 / "dqc_15_exclusion_rules.csv"
    if excl.exists():
        rules = {"member_contains": [], "member_equals": [], "axis_equals": [],
                 "axis_has_member": []}  # fmt: skip
        with excl.open(newline="", encoding="utf-8") as fh:
            for row in csv.DictReader(fh):
                artifact, relation = row.get("ARTIFACT", ""), row.get("RELATION", "")
                item = (row.get("ITEM") or "").strip()
                if artifact == "Member" and relation.startswith("Contains"):
                    rules["member_contains"].append(item.lower())
                elif artifact == "Member" and relation == "Equals":
                    rules["member_equals"].append(item.split(":")[-1])
                elif artifact == "Axis" and relation == "Equals":
                    rules["axis_equals"].append(item.split(":")[-1])
                elif artifact == "Axis" and relation == "Has_member" and "|" in item:
                    axis, member = item.split("|", 1)
                    rules["axis_has_member"].append([axis.split(":")[-1], member.split(":")[-1]])
        data["dqc_0015_exclusions"] = rules
    d81 = root / "DQC_US_0081"
    for name in ("siblings_demotable_to_child", "child_elements_promotable_to_sibling"):
        path = d81 / f"{name}.csv"
        if path.exists():
            with path.open(newline="", encoding="utf-8") as fh:
                reader = csv.reader(fh)
                next(reader, None)
                data[f"dqc_0081_{name}"] = sorted(
                    [r[0].strip(), r[1].strip()] for r in reader if len(r) >= 2
                )
    write_text_atomic(out, json.dumps(data, indent=1, sort_keys=True) + "\n")
    load_dqc_resources.cache_clear()
    return data


@lru_cache(maxsize=1)
def load_dqc_resources() -> dict:
    """The packaged resource lists (empty dict if the file is missing)."""
    if not PACKAGED.exists():
        return {}
    return json.loads(PACKAGED.read_text(encoding="utf-8"))
