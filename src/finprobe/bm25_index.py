"""A bm25s index built with numpy from token ids: the arrays bm25s builds, faster.

``bm25s.BM25.index`` builds its vocabulary, token->id lists, document frequencies and
per-document term counts in Python loops; for FinDVer's 134 reports (about 3.5 million
tokens) that is a tenth of a cold run's preparation. ``build_bm25`` computes the same
index with whole-array numpy operations and hands it to a ``bm25s.BM25`` object, so
scoring (``get_scores``), ``save`` and ``load`` stay bm25s's own.

The same arrays: for every (token, document) pair the stored float32 score equals
bm25s's bit for bit, because each value is computed by the same IEEE operations in
the same order (bm25s's default "lucene" method):

- ``avg_doc_len``: the mean of an int64 array of document lengths (float64);
- idf: ``math.log(1 + (N - df + 0.5) / (df + 0.5))`` in double precision, stored as
  float32;
- tfc: ``tf / (k1 * ((1 - b) + b * doc_len / avg_doc_len) + tf)`` in float64 (bm25s
  divides a float32 count array by a float64 scalar denominator: NumPy promotes to
  float64);
- score: float32 idf times the float64 tfc, rounded to float32 when stored.

Only the token ids differ: bm25s numbers its vocabulary in set-iteration order (which
changes with Python's string hashing from one process to the next), this module in
order of first appearance; scores never depend on the numbering. Within a token's
column, documents are in ascending order, as bm25s sorts them.
tests/test_bm25_index.py checks every value against bm25s on the FinDVer reports.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# bm25s's parameters that this build reproduces (its defaults, which FinProbe uses)
_METHOD = "lucene"
_DTYPE, _INT_DTYPE = "float32", "int32"


def lucene_idf(df: int, n_docs: int) -> float:
    """bm25s's lucene idf, written as bm25s writes it (same operations, same order)."""
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def bm25_arrays(
    token_ids: np.ndarray, lengths: np.ndarray, k1: float, b: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """CSC arrays (data, indices, indptr) of the BM25 score matrix, and its vocabulary.

    ``token_ids``: every document's token ids, concatenated (int64); ``lengths``: each
    document's number of tokens (int64, every one at least 1). Returns the float32
    scores, the int32 document of each score, the int64 column pointers and the
    distinct token ids in column order (column j holds token ``vocab[j]``).
    """
    n_docs = len(lengths)
    vocab, local = np.unique(token_ids, return_inverse=True)
    n_vocab = len(vocab)
    docs = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    # one entry per (document, token) present, in document then column order; its count
    pairs, counts = np.unique(docs * n_vocab + local.astype(np.int64), return_counts=True)
    rows, cols = np.divmod(pairs, n_vocab)
    doc_freqs = np.bincount(cols, minlength=n_vocab)
    idf_by_df = np.array(
        [0.0] + [lucene_idf(df, n_docs) for df in range(1, n_docs + 1)], dtype=np.float64
    ).astype(_DTYPE)
    avg_doc_len = lengths.mean()
    # per document: k1 * ((1 - b) + b * l_d / l_avg), in bm25s's order of operations
    doc_norm = k1 * ((1 - b) + b * lengths.astype(np.float64) / avg_doc_len)
    tf = counts.astype(_DTYPE).astype(np.float64)
    tfc = tf / (doc_norm[rows] + tf)
    scores = (idf_by_df[doc_freqs[cols]].astype(np.float64) * tfc).astype(_DTYPE)
    # CSC: columns in order, documents ascending within a column (rows already are)
    order = np.argsort(cols, kind="stable")
    indptr = np.zeros(n_vocab + 1, dtype=np.int64)
    np.cumsum(doc_freqs, out=indptr[1:])
    return scores[order], rows[order].astype(_INT_DTYPE), indptr, vocab


def build_bm25(
    token_ids: np.ndarray, lengths: np.ndarray, strings: list[str], k1: float, b: float
) -> Any:
    """A ``bm25s.BM25`` holding the index of these documents, as ``index()`` leaves it.

    ``strings[i]`` is the token with id i. Every document needs at least one token
    (bm25s rejects an empty corpus too). The vocabulary gets bm25s's empty token ""
    last, as ``index(create_empty_token=True)`` adds it.
    """
    import bm25s

    if len(lengths) == 0 or int(lengths.min()) < 1:
        raise ValueError("every document needs a token")
    data, indices, indptr, vocab = bm25_arrays(token_ids, lengths, k1, b)
    model = bm25s.BM25(k1=k1, b=b, method=_METHOD, dtype=_DTYPE, int_dtype=_INT_DTYPE)
    vocab_dict = {strings[g]: j for j, g in enumerate(vocab.tolist())}
    if "" not in vocab_dict:
        vocab_dict[""] = len(vocab)
    model.scores = {"data": data, "indices": indices, "indptr": indptr, "num_docs": len(lengths)}
    model.vocab_dict = vocab_dict
    model.unique_token_ids_set = set(vocab_dict.values())
    model.nonoccurrence_array = None  # lucene has none
    return model
