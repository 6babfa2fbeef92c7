"""Loading FinAuditing rows in the published column layout (parquet, JSONL, JSON)."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from finprobe.benchmarks.finauditing.dataset import load_samples, read_rows, rows_to_samples
from finprobe.errors import InputError

FINRE_ROWS = [
    {"query": "prompt 1", "dqc_id": "DQC_0081", "answer": "Reversal",
     "choices": ["Reversal", "Inappropriateness", "CombinationErr"], "gold": 0, "id": "re1"},
    {"query": "prompt 2", "dqc_id": "DQC_0001", "answer": "CombinationErr",
     "choices": ["Reversal", "Inappropriateness", "CombinationErr"], "gold": 2, "id": "re2"},
]  # fmt: skip
FINMR_ROWS = [{"query": "q", "dqc_id": "DQC_0126",
               "answer": json.dumps({"extracted_value": 16373000, "calculated_value": 117309000}),
               "id": "mr1"}]  # fmt: skip
FINSM_ROWS = [{"query": "q", "dqc_id": "DQC_0109", "answer": ["us-gaap:Cash", "us-gaap:Goodwill"],
               "id": "sm1"}]  # fmt: skip


def test_parquet_rows_in_published_layout(tmp_path):
    path = tmp_path / "en-finre-test.parquet"
    pq.write_table(pa.Table.from_pylist(FINRE_ROWS), path)
    samples = load_samples(tmp_path, "finre")
    assert [s.id for s in samples] == ["re1", "re2"]
    assert samples[1].metadata["label"] == "CombinationErr"
    assert samples[1].target == "CombinationErr"
    assert samples[0].input == "prompt 1"


def test_finmr_and_finsm_answers(tmp_path):
    (tmp_path / "finmr.jsonl").write_text("\n".join(json.dumps(r) for r in FINMR_ROWS))
    (tmp_path / "finsm.json").write_text(json.dumps({"data": FINSM_ROWS}))
    mr = load_samples(tmp_path, "finmr")[0].metadata
    assert (mr["extracted_value"], mr["calculated_value"]) == ("16373000", "117309000")
    sm = load_samples(tmp_path, "finsm")[0].metadata
    assert sm["gold_concepts"] == ["us-gaap:Cash", "us-gaap:Goodwill"]
    assert sm["method"] == "published"


def test_gold_index_wins_over_answer_text():
    row = dict(FINRE_ROWS[0], answer="something else", gold=1)
    assert rows_to_samples([row])[0].metadata["label"] == "Inappropriateness"


@pytest.mark.parametrize(
    "content,problem",
    [("", "empty file"), ("{not json", "not valid JSON"), ('{"a": 1}', "expected a list")],
)
def test_bad_files_raise_input_error(tmp_path, content, problem):
    path = tmp_path / "finre.json"
    path.write_text(content)
    with pytest.raises(InputError, match=problem):
        read_rows(path)


def test_bad_rows_raise_input_error(tmp_path):
    with pytest.raises(InputError, match="not one of"):
        rows_to_samples([dict(FINRE_ROWS[0], gold=None, answer="Typo")])
    with pytest.raises(InputError, match="duplicate id"):
        rows_to_samples(FINRE_ROWS + FINRE_ROWS)
    with pytest.raises(InputError, match="no finmr file"):
        load_samples(tmp_path, "finmr")
    bad = tmp_path / "finre.parquet"
    bad.write_bytes(b"PAR1 not really")
    with pytest.raises(InputError, match="parquet"):
        read_rows(bad)
