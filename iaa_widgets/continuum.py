"""Continuum: units (annotator, category, start, end) that annotators put on a line.

The data of Mathet's γ family (Mathet, Widlöcher & Métivier 2015; Mathet 2017):
each annotator places units of various lengths and categories on a continuum
(text, audio, video). Units are stored integer-coded, like :class:`Annotations`,
and sorted by (annotator, start, end). Build one with a loader:
:meth:`Continuum.from_frame`, :meth:`Continuum.from_items` or
:func:`read_continuum_csv`.
"""
from __future__ import annotations

from dataclasses import dataclass
from os import PathLike
from typing import Sequence

import numpy as np
import pandas as pd

from . import validate
from .errors import AgreementError, rows_text

__all__ = ["Continuum", "as_continuum", "read_continuum_csv", "random_continuum"]


@dataclass(frozen=True, eq=False)
class Continuum:
    r"""Units on a continuum, one entry per unit, integer-coded.

    ``annotator`` and ``category`` are int codes into ``annotators`` and
    ``categories``; ``start`` and ``end`` are float bounds (``end >= start``).
    Identical duplicate units from one annotator are kept: each counts. ``ordered``
    says whether someone declared the category order (``categories=``, numeric
    categories, or Annotations with a declared order): a category distance given as a
    bare array follows that order, so it needs one. ``notes`` say what a file reader
    skipped or changed (point tiers, unaligned annotations …), for results to report.

    Parameters
    ----------
    annotator, category : numpy.ndarray of int
        Each unit's codes into ``annotators`` and ``categories``.
    start, end : numpy.ndarray of float
        Each unit's bounds (``end >= start``).
    annotators, categories : pandas.Index
        The annotators and categories the codes refer to, in their declared order.
    ordered : bool, default False
        Whether the category order was declared.
    notes : tuple of str, default ()
        What a reader skipped or changed, for results to report.

    See Also
    --------
    read_continuum_csv : read the gamma software's CSV format.
    gamma : Mathet's γ on a continuum.
    unitizing_alpha : Krippendorff's α_U.
    span_f1 : F1 between annotators' spans.

    Notes
    -----
    Build one with ``Continuum.from_frame`` (a tidy table with annotator, category, start,
    end), ``Continuum.from_items`` (predefined items as unit-length units, Mathet 2017
    §5.1) or a reader (``read_continuum_csv``, ``read_elan``, ``read_textgrid``,
    ``read_rttm``). A unit u covers $[\mathrm{start}_u, \mathrm{end}_u]$; its position
    dissimilarity in γ compares the bounds (Mathet et al. 2015, eq. 3).

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    >>> df = pd.DataFrame({"annotator": ["a", "a", "b"], "category": ["X", "Y", "X"],
    ...                    "start": [0, 20, 1], "end": [10, 30, 10]})
    >>> c = iaa.Continuum.from_frame(df)
    >>> c.n_units, list(c.annotators), list(c.categories), c.bounds
    (3, ['a', 'b'], ['X', 'Y'], (0.0, 30.0))
    """

    annotator: np.ndarray
    category: np.ndarray
    start: np.ndarray
    end: np.ndarray
    annotators: pd.Index
    categories: pd.Index
    ordered: bool = False
    notes: tuple[str, ...] = ()

    # ------------------------------------------------------------------ sizes
    @property
    def n_units(self) -> int:
        return len(self.start)

    @property
    def n_annotators(self) -> int:
        return len(self.annotators)

    @property
    def n_categories(self) -> int:
        return len(self.categories)

    @property
    def bounds(self) -> tuple[float, float]:
        """(first start, last end) of all units."""
        if self.n_units == 0:  # a reader's document where nobody placed a unit
            raise AgreementError(f"the continuum is empty: none of the annotators "
                                 f"{list(self.annotators)!r} placed a unit, so it has no "
                                 "bounds and no agreement to measure")
        return float(self.start.min()), float(self.end.max())

    def units_per_annotator(self) -> np.ndarray:
        return np.bincount(self.annotator, minlength=self.n_annotators)

    def __len__(self) -> int:
        return self.n_units

    def __repr__(self) -> str:
        return (f"Continuum({self.n_units} units, {self.n_annotators} annotators, "
                f"{self.n_categories} categories)")

    def to_frame(self) -> pd.DataFrame:
        """Tidy table: annotator, category, start, end (one row per unit)."""
        return pd.DataFrame({"annotator": self.annotators.take(self.annotator),
                             "category": self.categories.take(self.category),
                             "start": self.start, "end": self.end})

    # ------------------------------------------------------------- loaders
    @classmethod
    def from_codes(cls, annotator, category, start, end, annotators: Sequence,
                   categories: Sequence, ordered: bool = False) -> "Continuum":
        """From integer codes (used by the samplers); sorts units by annotator, start, end."""
        annotator = np.asarray(annotator, dtype=np.int64)
        start, end = np.asarray(start, dtype=float), np.asarray(end, dtype=float)
        order = np.lexsort((end, start, annotator))
        return cls(annotator[order], np.asarray(category, dtype=np.int64)[order],
                   start[order], end[order], pd.Index(annotators), pd.Index(categories),
                   ordered)

    @classmethod
    def from_frame(cls, df: pd.DataFrame, annotator: str = "annotator",
                   category: str = "category", start: str = "start", end: str = "end",
                   categories: Sequence | None = None,
                   annotators: Sequence | None = None) -> "Continuum":
        """From a tidy table with one row per unit.

        ``categories`` declares the category set (and its order, which a category
        distance matrix follows); by default the sorted distinct categories.
        ``annotators`` declares the annotators, so that one who placed no unit still
        counts (γ then charges Δ∅ for every unit the others placed); by default the
        sorted distinct annotators of the table.
        """
        if not isinstance(df, pd.DataFrame):
            raise AgreementError(f"expected a pandas DataFrame, got {type(df).__name__}")
        missing = [c for c in (annotator, category, start, end) if c not in df.columns]
        if missing:
            raise AgreementError(f"column(s) {missing!r} not found; the table has "
                                 f"{list(df.columns)!r} (pass annotator=, category=, "
                                 "start=, end= to name them)")
        if len(df) == 0:
            raise AgreementError("the continuum is empty: give at least one unit from "
                                 "each of two annotators")
        for col in (annotator, category):
            bad = df.index[df[col].isna().to_numpy()]
            if len(bad):
                raise AgreementError(f"column {col!r} is missing in row(s) {rows_text(bad)}; "
                                     "every unit needs an annotator and a category")
        bounds = {}
        for col in (start, end):
            values = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float)
            bad = df.index[~np.isfinite(values)]
            if len(bad):
                shown = [df[col].iloc[df.index.get_loc(b)] for b in bad[:3]]
                raise AgreementError(f"column {col!r} has non-numeric or missing bounds "
                                     f"{shown!r} in row(s) {rows_text(bad)}; unit bounds "
                                     "must be finite numbers")
            bounds[col] = values
        bad = df.index[bounds[end] < bounds[start]]
        if len(bad):
            raise AgreementError(f"end < start in row(s) {rows_text(bad)}; a unit must end "
                                 "at or after its start")
        lo, hi = bounds[start].min(), bounds[end].max()
        with np.errstate(over="ignore"):
            far_apart = not np.isfinite(4 * (hi - lo))  # γ adds and squares such distances
        if far_apart:
            far = df.index[(bounds[start] == lo) | (bounds[end] == hi)]
            raise AgreementError(f"the units span [{lo:g}, {hi:g}], too far apart for "
                                 f"distances between them to be finite numbers (row(s) "
                                 f"{rows_text(far)}); check those bounds or rescale them")
        ann_codes, ann_names = _codes(df[annotator], annotators, "annotator")
        if len(ann_names) < 2:
            raise AgreementError(f"agreement needs at least two annotators, the continuum has "
                                 f"{len(ann_names)} ({list(ann_names)!r})")
        cat_codes, cat_names = _codes(df[category], categories, "category")
        declared = categories is not None or pd.api.types.is_numeric_dtype(df[category])
        return cls.from_codes(ann_codes, cat_codes, bounds[start], bounds[end],
                              ann_names, cat_names, declared)

    @classmethod
    def from_items(cls, data, **loader_args) -> "Continuum":
        """Predefined items as a continuum: item i occupies [i, i + 1) (Mathet 2017, §5.1).

        ``data`` is an :class:`Annotations` or a tidy (item, annotator, label) table;
        primary labels become units whose category is the label.
        """
        from .data import as_annotations
        ann = as_annotations(data, **loader_args).primary()
        if ann.n_annotators < 2:
            raise AgreementError(f"γ needs at least two annotators, the items have "
                                 f"{ann.n_annotators}")
        if ann.n_ratings == 0:
            raise AgreementError("the items carry no labels: the continuum would be empty")
        item = ann.item.astype(float)
        return cls.from_codes(ann.annotator, ann.label, item, item + 1.0,
                              ann.annotators, ann.categories, ann.ordered)


def as_continuum(where: str, data, loader_args: dict) -> Continuum:
    """A :class:`Continuum`, or one read from a tidy DataFrame with ``loader_args``
    (:meth:`Continuum.from_frame`); anything else is refused, named for ``where``."""
    if isinstance(data, Continuum):
        if loader_args:
            raise AgreementError(f"{where}: loader options {sorted(loader_args)} apply to "
                                 "a DataFrame, not to a Continuum")
        return data
    if isinstance(data, pd.DataFrame):
        return Continuum.from_frame(data, **loader_args)
    raise AgreementError(f"{where}: expected a Continuum or a DataFrame (annotator, "
                         f"category, start, end), got {type(data).__name__}")


def _codes(values: pd.Series, declared: Sequence | None, what: str):
    """Integer codes of ``values`` and their names: the declared ones in their order,
    or by default the sorted distinct values."""
    if declared is None:
        return pd.factorize(values, sort=True)
    names = pd.Index(list(declared))
    if not names.is_unique:
        raise AgreementError(f"declared {what}s must be distinct, got {list(declared)!r}")
    codes = names.get_indexer(values)
    bad = values.index[codes < 0]
    if len(bad):
        raise AgreementError(f"{what} not among the declared {list(names)!r} in row(s) "
                             f"{rows_text(bad)}")
    return codes, names


def read_continuum_csv(path: str | PathLike, categories: Sequence | None = None,
                       delimiter: str = ",", annotators: Sequence | None = None) -> Continuum:
    r"""Read the gamma software's CSV format: one unit per line,
    ``annotator,category,start,end``, no header (a header line naming the four
    columns is accepted). Rows are numbered from 0 in error messages. ``categories``
    and ``annotators`` as in `Continuum.from_frame`.

    Parameters
    ----------
    path : str, path-like or file-like
        The CSV file, or an open text file.
    categories : sequence, optional
        The category set and its order (default: the distinct categories read).
    delimiter : str, default ","
        The column separator.
    annotators : sequence, optional
        The annotators, so that one without units still counts.

    Returns
    -------
    Continuum
        One unit per line.

    Raises
    ------
    AgreementError
        When the file is empty, a line has other than four columns, a bound is not a number,
        a unit ends before it starts, or ``path`` is neither a path nor an open file.

    See Also
    --------
    Continuum : the result, and ``Continuum.from_frame`` for a table in memory.
    gamma : γ on the continuum read.
    read_elan : another continuum format.

    Notes
    -----
    The format of the gamma software (Mathet et al. 2015): ``annotator,category,start,end``
    with $\mathrm{start} \le \mathrm{end}$.

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics, 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    >>> import io
    >>> text = "annotator,category,start,end\na,X,0,10\nb,X,1,10\nb,Y,20,30\n"
    >>> c = iaa.read_continuum_csv(io.StringIO(text))
    >>> c.to_frame().values.tolist()
    [['a', 'X', 0.0, 10.0], ['b', 'X', 1.0, 10.0], ['b', 'Y', 20.0, 30.0]]
    """
    if not (isinstance(delimiter, str) and delimiter):
        validate.fail("read_continuum_csv", "delimiter", "a non-empty text such as ',' or ';'",
                      delimiter)
    if not (isinstance(path, (str, PathLike)) or hasattr(path, "read")):
        validate.fail("read_continuum_csv", "path", "a CSV file's path or an open text file "
                      "(a table of units in memory: Continuum.from_frame)", path)
    try:
        df = pd.read_csv(path, header=None, sep=delimiter, dtype=str, skipinitialspace=True,
                         keep_default_na=False)
    except pd.errors.EmptyDataError:
        raise AgreementError(f"{path}: the continuum is empty (no unit lines); expected "
                             "lines annotator,category,start,end") from None
    except pd.errors.ParserError as err:  # a line with more fields than the first
        raise AgreementError(f"{path}: expected 4 comma-separated columns (annotator, "
                             f"category, start, end) on every line: {err}".strip()) from None
    if df.shape[1] != 4:
        raise AgreementError(f"{path}: expected 4 comma-separated columns (annotator, "
                             f"category, start, end), found {df.shape[1]}")
    df.columns = ["annotator", "category", "start", "end"]
    first = [str(v).strip().lower() for v in df.iloc[0]] if len(df) else []
    if first[2:] == ["start", "end"]:
        df = df.iloc[1:].reset_index(drop=True)
    df = df.replace("", np.nan)
    return Continuum.from_frame(df, categories=categories, annotators=annotators)


def random_continuum(n_annotators: int, n_units: int, n_categories: int = 3,
                     seed=None, shift: float = 0.3, flip: float = 0.2,
                     miss: float = 0.1) -> Continuum:
    """A seeded synthetic continuum in the spirit of Mathet's Corpus Shuffling Tool.

    A reference of ``n_units`` units (lengths 5–25, gaps 0–20) is copied by each
    annotator with its bounds moved by up to ``shift`` × the unit's length, its
    category changed with probability ``flip`` and the unit left out with
    probability ``miss`` (each annotator keeps at least one unit).
    """
    rng = np.random.default_rng(seed)
    lengths = rng.uniform(5, 25, n_units)
    starts = np.cumsum(rng.uniform(0, 20, n_units) + np.r_[0, lengths[:-1]])
    cats = rng.integers(0, n_categories, n_units)
    ann = np.repeat(np.arange(n_annotators), n_units)
    s = np.tile(starts, n_annotators)
    length = np.tile(lengths, n_annotators)
    s = s + rng.uniform(-shift, shift, s.size) * length
    e = s + length * (1 + rng.uniform(-shift, shift, s.size))
    c = np.tile(cats, n_annotators)
    flipped = rng.random(c.size) < flip
    c = np.where(flipped, rng.integers(0, n_categories, c.size), c)
    keep = rng.random(c.size) >= miss
    keep[np.arange(n_annotators) * n_units] = True
    return Continuum.from_codes(ann[keep], c[keep], s[keep], e[keep],
                                [f"a{i}" for i in range(n_annotators)],
                                [f"c{k}" for k in range(n_categories)], ordered=True)
