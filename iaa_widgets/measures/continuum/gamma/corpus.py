"""γ per document and for a corpus of documents.

Neither reference defines a corpus γ: pygamma-agreement 0.5.9 computes one γ per
file (its CLI) and its issue #43 ("Computing global gamma for a corpus of
sentences/instances", open) weighs per-file γ against one γ over the documents
laid end to end. We take the second, made exact: the corpus is one continuum whose
documents lie far enough apart that no unitary alignment spans two of them, and
whose random samples keep every unit in its document (each document is sampled
from its own units, as the samplers do for one continuum). With eq. 4–5 of Mathet,
Widlöcher & Métivier (2015), δ = Σ δ(ă) / (units / n), so for documents d with u_d
units

    δ_o(corpus) = Σ_d u_d · δ_o(d) / Σ_d u_d,   δ_e(corpus) = Σ_d u_d · δ_e(d) / Σ_d u_d,

and γ(corpus) = 1 − δ_o(corpus) / δ_e(corpus): a unit-weighted pooling of the
disorders, not a mean of the per-document γ. Its 95 % sampling interval comes from
the documents' independent Monte Carlo errors: s_e(corpus)² = Σ (u_d/Σu)² s_e(d)².

Every annotator of the corpus counts in every document (one who placed nothing in a
document is charged Δ∅ for the others' units there, as in one continuum); a
document where fewer than two annotators placed units has no γ and is counted in
``excluded``. Documents run in parallel processes (``n_jobs``), each with its own
seed spawned from ``seed``, so results do not depend on the number of processes.
"""
from __future__ import annotations

import math
from functools import partial
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from .... import validate
from ....continuum import Continuum
from ....errors import AgreementError
from ....results import Charted
from .coefficients import GammaResult, gamma_family
from .progress import progress_reporter
from .sampling import Z95, _ignore_sigint

__all__ = ["GammaCorpusResult", "gamma_corpus"]


@dataclass(frozen=True)
class GammaCorpusResult(Charted):
    """``corpus``: γ of the corpus (module doc); ``per_document``: one row per
    document with γ, δ_o, δ_e, units, samples, precision and the 95 % sampling
    interval (``ci_low``, ``ci_high``).

    Parameters
    ----------
    corpus : GammaResult
        γ of the corpus.
    per_document : pandas.DataFrame
        One row per document: observed, expected, units, samples, precision and the 95 %
        sampling interval (ci_low, ci_high).
    params : dict, optional
        The options used.

    See Also
    --------
    gamma_corpus : makes one.
    GammaResult : the type of ``corpus``.

    Notes
    -----
    ``corpus.value`` is 1 − δ_o/δ_e of the unit-weighted disorders, not a mean of the
    documents' γ.

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    >>> df = pd.DataFrame({"document": ["d1"] * 4 + ["d2"] * 4,
    ...                    "annotator": list("aabb") * 2, "category": list("XYXY") * 2,
    ...                    "start": [0, 20, 0, 21, 0, 20, 0, 20],
    ...                    "end": [10, 30, 10, 30, 10, 30, 10, 30]})
    >>> r = iaa.gamma_corpus(df, n_samples=10, seed=0, progress=False)
    >>> list(r.per_document.index), r.corpus.measure
    (['d1', 'd2'], 'gamma')
    """

    corpus: GammaResult
    per_document: pd.DataFrame
    params: dict = field(default_factory=dict)

    def to_frame(self) -> pd.DataFrame:
        return self.per_document

    def _repr_html_(self) -> str:
        return (self.corpus._repr_html_()
                + self.per_document.to_html(float_format=lambda v: f"{v:.4f}"))


def _documents(data, document: str) -> tuple[list, list[Continuum]]:
    """(names, continua), every continuum over the corpus's annotators and categories."""
    if isinstance(data, Mapping):
        names = list(data)
        parts = [data[k] if isinstance(data[k], Continuum) else Continuum.from_frame(data[k])
                 for k in names]
        annotators = pd.Index(sorted(set().union(*(p.annotators for p in parts)), key=str))
        categories = pd.Index(sorted(set().union(*(p.categories for p in parts)), key=str))
        ordered = all(p.ordered for p in parts) and all(
            list(p.categories) == list(parts[0].categories) for p in parts)
        if ordered:
            categories = parts[0].categories
        out = []
        for p in parts:  # recode onto the corpus's annotators and categories, by label
            out.append(Continuum.from_codes(annotators.get_indexer(p.annotators[p.annotator]),
                                            categories.get_indexer(p.categories[p.category]),
                                            p.start, p.end, annotators, categories, ordered))
        return names, out
    if not isinstance(data, pd.DataFrame):
        raise AgreementError(f"expected a DataFrame with a {document!r} column or a mapping "
                             f"{{document: Continuum or DataFrame}}, got {type(data).__name__}")
    if document not in data.columns:
        raise AgreementError(f"column {document!r} not found; the table has "
                             f"{list(data.columns)!r} (pass document= to name it)")
    missing = data.index[data[document].isna().to_numpy()]
    if len(missing):
        raise AgreementError(f"column {document!r} is missing in row(s) "
                             f"{list(missing[:5])!r}; every unit needs a document")
    whole = Continuum.from_frame(data.drop(columns=[document]))  # validates every row
    names, out = [], []
    for name, part in data.groupby(document, sort=True):
        c = Continuum.from_frame(part.drop(columns=[document]), annotators=whole.annotators,
                                 categories=whole.categories)
        names.append(name)
        out.append(replace(c, ordered=whole.ordered))  # the corpus's declared order or not
    return names, out


def _one(job, task):
    """γ of one document: (δ_o, δ_e, its 95 % half-width, γ, units, samples, precision),
    or None where fewer than two annotators placed units."""
    c, seed = task
    if (c.units_per_annotator() > 0).sum() < 2:
        return None
    g = gamma_family(c, seed=seed, progress=False, n_jobs=1, **job).gamma
    return (g.observed, g.expected, g.precision * g.expected, g.value, c.n_units,
            g.n_samples, g.precision)


def gamma_corpus(data, document: str = "document", n_jobs: int = 1, seed=None,
                 progress="auto", **options) -> GammaCorpusResult:
    r"""γ per document and for the corpus (module doc). ``data``: a tidy table with a
    ``document`` column (besides annotator, category, start, end) or a mapping
    {document: Continuum or table}. ``options`` go to `gamma_family` (α, β,
    Δ∅, category_distance, sampler, n_samples, precision …). ``progress`` counts
    documents (see `progress`).

    Parameters
    ----------
    data : DataFrame or mapping
        A tidy table with a document column besides annotator, category, start, end; or
        a mapping {document: Continuum or table}.
    document : str, default "document"
        The document column of a table.
    n_jobs : int, default 1
        Processes computing documents in parallel (results do not depend on it).
    seed : int, optional
        Seed from which each document's seed is spawned.
    progress : "auto", bool or callable, default "auto"
        Progress over documents, as for `gamma_family`.
    **options
        Passed to `gamma_family` (alpha, beta, delta_empty, category_distance, sampler,
        n_samples, precision …).

    Returns
    -------
    GammaCorpusResult
        ``corpus`` (a `GammaResult`) and ``per_document`` (observed, expected, units,
        samples, precision, ci_low, ci_high per document).

    Raises
    ------
    AgreementError
        When the document column is missing, no document has two annotators, or an
        option is refused by `gamma_family`.

    See Also
    --------
    gamma : γ of one continuum.
    gamma_family : γ, γ_cat and γ_k of one continuum.

    Notes
    -----
    Documents d with u_d units pool their disorders (module docstring; eq. 4–5 of
    Mathet et al. 2015):

    $$\delta_o = \frac{\sum_d u_d\,\delta_o(d)}{\sum_d u_d}, \quad
    \delta_e = \frac{\sum_d u_d\,\delta_e(d)}{\sum_d u_d}, \quad
    \gamma = 1 - \frac{\delta_o}{\delta_e}.$$

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    In d1 b's second unit starts one tick late: δ_o(d1) = ((1 + 0)/(10 + 9))² / 2 (eq. 3–5,
    two units per annotator); d2 agrees fully (δ_o = 0); the corpus pools them by units:

    >>> df = pd.DataFrame({"document": ["d1"] * 4 + ["d2"] * 4,
    ...                    "annotator": list("aabb") * 2, "category": list("XYXY") * 2,
    ...                    "start": [0, 20, 0, 21, 0, 20, 0, 20],
    ...                    "end": [10, 30, 10, 30, 10, 30, 10, 30]})
    >>> r = iaa.gamma_corpus(df, n_samples=10, seed=0, progress=False)
    >>> round(float(r.per_document.loc["d1", "observed"]), 6), round(r.corpus.observed, 7)
    (0.001385, 0.0006925)
    """
    validate.n_jobs("gamma_corpus", "n_jobs", n_jobs)
    validate.seed("gamma_corpus", "seed", seed)
    names, docs = _documents(data, document)
    seeds = [int(s.generate_state(1, np.uint64)[0])  # one integer seed per document
             for s in np.random.SeedSequence(seed).spawn(len(docs))]
    tasks = list(zip(docs, seeds))
    run = partial(_one, options)
    report, close = progress_reporter(progress, desc="γ per document")
    pool = None
    if n_jobs != 1:
        import multiprocessing
        workers = multiprocessing.cpu_count() if n_jobs in (None, -1) else int(n_jobs)
        start = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        pool = multiprocessing.get_context(start).Pool(workers, initializer=_ignore_sigint)
    rows = []
    try:
        results = map(run, tasks) if pool is None else pool.imap(run, tasks)
        for r in results:  # in document order whatever the number of processes
            rows.append(r)
            if report is not None:
                report(len(rows), len(tasks))
    except BaseException:  # Ctrl-C or a stop from progress: end the workers now
        if pool is not None:
            pool.terminate()
        raise
    finally:
        close()
        if pool is not None:
            pool.close()
            pool.join()
    cols = ["observed", "expected", "half_width", "value", "n_units", "n_samples",
            "precision"]
    table = pd.DataFrame([r if r is not None else (math.nan,) * 4 + (c.n_units, 0, math.nan)
                          for r, c in zip(rows, docs)], columns=cols,
                         index=pd.Index(names, name="document"))
    ok = table["n_samples"] > 0
    with np.errstate(divide="ignore", invalid="ignore"):
        table["ci_low"] = 1 - table["observed"] / (table["expected"] - table["half_width"])
        table["ci_high"] = 1 - table["observed"] / (table["expected"] + table["half_width"])
    if not ok.any():
        raise AgreementError("no document has units from two annotators: no γ")
    u = table.loc[ok, "n_units"].to_numpy(float)
    w = u / u.sum()
    d_o = float(np.sum(w * table.loc[ok, "observed"]))  # unit-weighted pooling (module doc)
    d_e = float(np.sum(w * table.loc[ok, "expected"]))
    hw = Z95 * math.sqrt(float(np.sum((w * table.loc[ok, "half_width"] / Z95) ** 2)))
    value = 1 - d_o / d_e if d_e > 0 else math.nan
    ci = (1 - d_o / (d_e - hw) if d_e - hw > 0 else math.nan,
          1 - d_o / (d_e + hw) if d_e + hw > 0 else math.nan)
    skipped = int((~ok).sum())
    params = dict(options, seed=seed, document=document)
    corpus = GammaResult("gamma", value, d_o, d_e, n_items=int(ok.sum()),
                         n_annotators=docs[0].n_annotators, n_ratings=int(u.sum()),
                         scale="disagreement", params=params, ci=ci,
                         ci_method="95 % sampling interval of the expected disorder",
                         excluded={"documents with units from fewer than two annotators":
                                   skipped} if skipped else {},
                         n_samples=int(table.loc[ok, "n_samples"].sum()),
                         precision=hw / d_e if d_e > 0 else math.nan,
                         note="n_items counts documents")
    return GammaCorpusResult(corpus, table, params)
