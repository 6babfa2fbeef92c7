"""The FAITH solver's candidates do not depend on the interpreter's hash seed.

Round 18 found three ways they did: float sums over sets (a tie between two rows broken by
the last bit), words appended to the sentence's ordered word lists in a set's order (a
label's phrase found near the blank in one run and not in another), and a row pair's
features added in a set's order (a score's last bit). The probe compares the candidates in
rank order with their scores and features in order, and the sentence's word lists.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

from finprobe.benchmarks.faith.context import Scorer, read_context

# rows and columns that name places ("Non-U.S.", "U.S."), acronyms and shared words: every
# expansion of the sentence's words has several sources to come from
INSTANCE = {
    "tables": [
        {
            "index": "1",
            "pre_text": "Commercial Credit Quality",
            "cells": [
                [
                    "",
                    "Outstandings March 31, 2024",
                    "Outstandings December 31, 2023",
                    "Nonperforming March 31, 2024",
                    "Nonperforming December 31, 2023",
                ],
                ["U.S. commercial", "$385,000", "$383,000", "$800", "$760"],
                ["Non-U.S. commercial", "$125,000", "$124,500", "$77", "$51"],
                ["Total commercial and industrial", "$510,000", "$507,500", "$877", "$811"],
                ["Commercial real estate (CRE)", "$72,000", "$73,000", "$1,200", "$1,100"],
                ["Global Banking and Markets (GBAM)", "$51,000", "$52,000", "$40", "$35"],
            ],
        },
        {
            "index": "2",
            "pre_text": "Non-U.S. Commercial Loans by Region",
            "cells": [
                ["", "U.S. 2024", "Non-U.S. 2024", "Europe 2024", "Asia 2024"],
                ["Commercial loans managed in Global Banking", "60%", "40%", "25%", "15%"],
                ["Commercial loans managed in Global Markets", "38%", "62%", "30%", "32%"],
                ["Europe", "2%", "98%", "45%", "53%"],
                ["Syndications", "1%", "99%", "40%", "60%"],
            ],
        },
    ],
    "masked_sentence": (
        "At March 31, 2024, [MASK] of the non-U.S. commercial loan portfolio was managed in "
        "GBAM, 38 percent in Global Markets and the remainder in CRE, U.S. commercial, "
        "syndicated and European lending, regionally managed."
    ),
    "pre_sentence": "Non-U.S. commercial utilized exposure increased $1.0 billion.",
    "post_sentence": "",
    "hint": "the answer is a percentage (e.g. 12.3%)",
    "filing_date": "2024-04-30",
}

_PROBE = textwrap.dedent(
    """
    import json, sys
    from finprobe.benchmarks.faith.context import expand_context, read_context
    from finprobe.benchmarks.faith.solver import Table, rank_candidates
    instance = json.loads(sys.stdin.read())
    rows = [
        f"{c.kind} {c.value} {c.formula} {c.score!r} {list(c.features.items())}"
        for c in rank_candidates(instance)
    ]
    # the sentence's word lists in their order (a phrase is looked for in order there)
    context = read_context(instance)
    tables = [Table(id=t["index"], cells=t["cells"], pre_text=t["pre_text"])
              for t in instance["tables"]]
    expand_context(context, tables, instance["masked_sentence"])
    rows += [" ".join(context.sentence), " ".join(context.left), " ".join(context.right)]
    print(json.dumps(rows))
    """
)


def _candidates_under(seed: int) -> list[str]:
    env = {**os.environ, "PYTHONHASHSEED": str(seed)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        input=json.dumps(INSTANCE),
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(done.stdout)


def test_candidates_and_features_are_the_same_under_every_hash_seed() -> None:
    first = _candidates_under(0)
    assert len(first) > 10
    for seed in (1, 2, 3, 4, 5):
        assert _candidates_under(seed) == first, f"PYTHONHASHSEED={seed} differs from 0"


def test_a_label_weight_is_the_same_in_any_order() -> None:
    # (0.1 + 0.2) + 0.3 != 0.1 + (0.2 + 0.3) in binary floating point
    scorer = Scorer([], read_context(INSTANCE))
    scorer.idf = {"a": 0.1, "b": 0.2, "c": 0.3}
    assert scorer.weight(["a", "b", "c"]) == scorer.weight(["c", "b", "a"]) == 0.6
