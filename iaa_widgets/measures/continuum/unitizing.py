"""Krippendorff's α for unitizing a continuum: the other school beside Mathet's γ.

Both read a :class:`~iaa_widgets.Continuum` (units: annotator, category, start, end).
Each annotator's units and the gaps between them (∅) *segment* the continuum
[B, B + L) (``continuum=(B, B + L)``, by default [first start, last end]); positions
are integer ticks (characters, frames, milliseconds): the expected disagreements count
the ways a unit can be placed at those ticks, so bounds must be whole numbers (scale
real-valued times to a resolution first). Notation: m annotators, segment g of
annotator i with begin b_ig, length l_ig, value c or ∅.

:func:`unitizing_alpha` — α_U of Krippendorff (1995, Sociological Methodology 25;
2004, *Content Analysis* 2nd ed., worked example p. 254). Each category c is its own
segmentation (units of c and gaps); an annotator's units of *different* categories may
overlap, units of one category may not (one category's segmentation is a partition)::

    δ²(ig, jh) = (b_ig − b_jh)² + (e_ig − e_jh)²    two units of c that overlap
               = l_ig²                             a unit of i inside a gap of j
               = 0                                 otherwise (gaps against gaps …)
    cD_o = Σ_i Σ_{j≠i} Σ_g Σ_h δ²(ig, jh) / (m(m − 1) L²)
    cD_e = (2/L) Σ_{units g of c} [(N_c − 1)(2l³ − 3l² + l)/3
                                   + l² Σ_{gaps h of c, l_h ≥ l} (l_h − l + 1)]
           / [mL(mL − 1) − Σ_{units g of c} l(l − 1)]
    α_U,c = 1 − cD_o / cD_e,   α_U = 1 − Σ_c cD_o / Σ_c cD_e

(N_c: units of c over all annotators; l = l_ig. This is the 2004 form of D_e; the
1995 print reads l_h + l + 1 in the last sum, a misprint by DKPro Agreement's account.)

:func:`u_alpha` — u-α of Krippendorff, Mathet, Bouvry & Widlöcher (2016, Quality &
Quantity 50; Krippendorff 2019, *Content Analysis* 4th ed., §12.6), which
replaces α_U's pair distances by a coincidence matrix over the values {∅, c, k, …} and
so behaves as α does with more than two annotators. Every annotator's units (of all
categories) and gaps form one segmentation, so an annotator's units may not overlap::

    l_ck = 1/(m − 1) Σ_i Σ_{j≠i} Σ_g Σ_h |ig ∩ jh| [v_ig = c][v_jh = k]
    e_ck = l.. (l_c. l_.k − [c = k] Σ_{segments g of value c} λ_g) / (l..² − Σ_g λ_g)
    α = 1 − Σ_ck l_ck δ_ck / Σ_ck e_ck δ_ck,     l.. = mL

with λ_g = l_g² for a unit (a unit is indivisible: it cannot be paired with itself)
and λ_g = l_g for a gap (a gap is a run of single ticks). ``kind="nominal"`` (u-α) uses
δ_ck = [c ≠ k] over all values, gaps included: it judges the boundaries and the
categories together; ``kind="binary"`` (|u-α) uses δ_ck = 1 between ∅ and a unit value
only: the distinction of relevant from irrelevant matter. On items laid end to end
(:meth:`Continuum.from_items`, every annotator labelling every item) u-α is exactly
Krippendorff's nominal α of those items. On the three-observer worked example of
Krippendorff (2019: Fig. 12.11, p. 340; figures as quoted by the tests of the R package
quallmer) u-α is .50998 (printed .510) and |u-α .41360 (printed .413).

:func:`cu_alpha` — cu-α of the same paper (2016; 2019 §12.6): the coding of the
matter where units of different annotators intersect, gaps left out and each tick of a
unit weighted by the share of the other annotators whose units cover it; per category,
(k)u-α, the reliability of one value there. Its coincidences l*_ck are the unit × unit block of u-α's l_ck; a unit g (of annotator i)
enters them with its *pairable length* π_g, the part of it that meets units of the
m − 1 other annotators, 1/(m − 1) per annotator, so that l*_c. = Σ_{units g of c} π_g::

    π_g    = 1/(m − 1) Σ_{j≠i} Σ_h |ig ∩ jh|            (h: units of annotator j)
    e*_ck  = l*.. (l*_c. l*_.k − [c = k] Σ_{units g of c} π_g²) / (l*..² − Σ_g π_g²)
    cu-α   = 1 − Σ_{c≠k} l*_ck / Σ_{c≠k} e*_ck
    (k)u-α = 1 − (e*_k. / l*_k.) (l*_k. − l*_kk) / (e*_k. − e*_kk)

e* is u-α's expected coincidence over the pairable matter (a unit is not paired with
itself: π_g² in place of l_g²). We have not seen the paper's nor the book's equations;
this structure is the one two independent implementations share, citing them as 2016
eqs. 10–13 (lindanna/unitized_alpha, Python) and 2019 eqs. 36–38 (the R package
quallmer, ``reliability_alpha_u``); for two annotators all three read π_g as
|g ∩ the other's units|. With more annotators the two differ from each other and from
the weighted π_g above (Σ_j |g ∩ units of j|² / (m − 1), resp. |g ∩ the union of the
others' units|², in place of π_g²) and give .7256 and .7283 on the three-observer
example, which prints cu-α = .724; the weighted π_g gives .72417. (k)u-α is the binary
α of value k against the other values on the same coincidences: on items laid end to
end cu-α is Krippendorff's nominal α and (k)u-α its per-value α. cu-α uses no gaps, so
it needs no continuum and does not change when every bound is scaled (bounds need not
be whole ticks).

The pairwise sums run over the pairs of overlapping units of different annotators,
found by one sort and a ``searchsorted`` (no loop over units or annotator pairs);
memory follows those pairs, which are the statistic itself. Like γ, these coefficients
are per continuum: they have no item-additive Statistic, so the item bootstrap does
not apply to them.
"""
from __future__ import annotations

import math
from numbers import Real

import numpy as np
import pandas as pd

from ...continuum import Continuum, as_continuum
from ...errors import AgreementError
from ...results import AgreementResult
from .._registry import register

__all__ = ["unitizing_alpha", "u_alpha", "cu_alpha"]

KINDS = ("nominal", "binary")


# ---------------------------------------------------------------- input
def _as_continuum(where: str, data, loader_args) -> Continuum:
    c = as_continuum(where, data, loader_args)
    if c.n_annotators < 2:
        raise AgreementError(f"{where}: agreement needs at least two annotators, the "
                             f"continuum has {c.n_annotators}")
    return c


def _span(where: str, c: Continuum, continuum) -> tuple[float, float, str]:
    """[B, B + L): the declared continuum, or the units' bounds (said in a note)."""
    if continuum is None:
        begin, end = c.bounds
        note = (f"continuum taken as [{begin:g}, {end:g}), the first start to the last "
                "end; pass continuum=(begin, end) for the stretch the annotators read")
    else:
        ok = (isinstance(continuum, (tuple, list)) and len(continuum) == 2
              and all(isinstance(v, Real) and not isinstance(v, bool)
                      and math.isfinite(v) for v in continuum))
        if not ok or not continuum[0] < continuum[1]:
            raise AgreementError(f"{where}: continuum must be a pair (begin, end) of "
                                 f"finite numbers with begin < end, got {continuum!r}")
        begin, end = float(continuum[0]), float(continuum[1])
        note = ""
        outside = (c.start < begin) | (c.end > end)
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            who = _name(c.annotators, c.annotator[i])
            raise AgreementError(
                f"{where}: {int(outside.sum())} unit(s) lie outside the continuum "
                f"[{begin:g}, {end:g}), e.g. annotator {who!r}'s unit "
                f"[{c.start[i]:g}, {c.end[i]:g}); widen continuum= or drop them")
    ticks = np.r_[c.start, c.end, begin, end]
    if not np.all(ticks == np.round(ticks)):
        raise AgreementError(f"{where}: unit bounds and the continuum must be whole "
                             "numbers of ticks (characters, frames, ms): the expected "
                             "disagreement counts placements at integer positions; "
                             "multiply by your resolution and round first")
    return begin, end - begin, note


def _units(where: str, c: Continuum, by_category: bool):
    """Units of positive length sorted by group (annotator, or annotator × category)
    then start; overlaps within a group raise. Returns (annotator, category, start,
    end, excluded)."""
    keep = c.end > c.start
    excluded = {"zero-length units": int((~keep).sum())} if not keep.all() else {}
    a, k, s, e = c.annotator[keep], c.category[keep], c.start[keep], c.end[keep]
    group = a * c.n_categories + k if by_category else a
    order = np.lexsort((s, group))
    a, k, s, e, group = a[order], k[order], s[order], e[order], group[order]
    if len(s) == 0:
        raise AgreementError(f"{where}: no unit has a positive length (end > start); "
                             "there is nothing to unitize")
    clash = (group[1:] == group[:-1]) & (s[1:] < e[:-1])
    if clash.any():
        i = int(np.flatnonzero(clash)[0])
        who = f"annotator {_name(c.annotators, a[i])!r}"
        what = (f"units of category {_name(c.categories, k[i])!r}" if by_category else
                f"units ({_name(c.categories, k[i])!r} and "
                f"{_name(c.categories, k[i + 1])!r})")
        rule = ("α_U segments each category separately: one annotator's units of one "
                "category must not overlap (units of different categories may)"
                if by_category else
                "u-α segments each annotator's continuum into units and gaps: one "
                "annotator's units must not overlap, whatever their categories "
                "(unitizing_alpha accepts overlapping units of different categories)")
        raise AgreementError(
            f"{where}: {int(clash.sum())} overlap(s) within one annotator, e.g. {who}: "
            f"{what} [{s[i]:g}, {e[i]:g}) and [{s[i + 1]:g}, {e[i + 1]:g}); {rule}")
    return a, k, s, e, excluded


def _overlapping_pairs(key_start: np.ndarray, key_end: np.ndarray) -> tuple:
    """All pairs (p, q), p before q, of intervals sorted by ``key_start`` that overlap:
    start_p ≤ start_q < end_p. One searchsorted; output-sized memory."""
    n = len(key_start)
    stop = np.searchsorted(key_start, key_end, side="left")  # first q with start_q ≥ end_p
    count = np.maximum(stop - np.arange(n) - 1, 0)
    p = np.repeat(np.arange(n), count)
    q = p + 1 + np.arange(len(p)) - np.repeat(np.cumsum(count) - count, count)
    return p, q


def _name(index: pd.Index, code) -> object:
    """The label behind an integer code, as a plain Python value for messages."""
    return index.take([int(code)]).tolist()[0]


def _ratio(d_o: float, d_e: float) -> float:
    return 1.0 - d_o / d_e if d_e > 0 else float("nan")


# ---------------------------------------------------------------- α_U (1995/2004)
@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Krippendorff (1995; 2004, p. 254)', symbol='α_U', scale='disagreement')
def unitizing_alpha(data, *, continuum=None, **loader_args) -> AgreementResult:
    r"""Krippendorff's α_U for unitizing (1995; 2004): see the module docstring
    for its distances and disagreements.

    ``data``: a `Continuum` or a tidy DataFrame (annotator,
    category, start, end; ``loader_args`` as in `Continuum.from_frame`, e.g.
    ``annotators=`` so that an annotator who placed no unit counts with an all-gap
    segmentation). ``continuum=(begin, end)``: the stretch that was read (default: the
    first start to the last end, said in ``note``). Bounds must be whole numbers.

    Every annotator (m of them, declared ones included) enters every category's
    segmentation; zero-length units are left out and counted in ``excluded``. One
    annotator's overlapping units of the same category raise
    `AgreementError` (α_U cannot segment them); of different
    categories they are fine. ``observed`` and ``expected`` are Σ_c cD_o and Σ_c cD_e
    (``scale="disagreement"``); ``per_category`` has each category's units N_c, D_o,
    D_e and α_U,c; ``n_items`` and ``n_ratings`` count the units used. A declared
    category without units has D_o = D_e = 0 and α_U,c NaN (0/0, noted).

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end (whole numbers).
    continuum : tuple of int, optional
        (begin, end) of the stretch that was read (default: first start to last end).
    **loader_args
        Passed to `Continuum.from_frame` (e.g. ``annotators=``, ``categories=``).

    Returns
    -------
    AgreementResult
        ``value`` (α_U), ``observed`` (Σ_c cD_o), ``expected`` (Σ_c cD_e),
        ``per_category`` (units, D_o, D_e, alpha), ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When bounds are not whole numbers or lie outside ``continuum``, one annotator's
        units of one category overlap, fewer than two annotators are given, or a column is
        missing.

    See Also
    --------
    u_alpha : u-α and |u-α (one value per tick).
    cu_alpha : cu-α, coding where units intersect.
    gamma : Mathet's γ on the same units.
    krippendorff_alpha : α on predefined items.

    Notes
    -----
    Per category c, over its segments (units and gaps) of lengths and the distances of
    Krippendorff (1995):

    $$\alpha_U = 1 - \frac{\sum_c {}_cD_o}{\sum_c {}_cD_e}.$$

    References
    ----------
    Krippendorff, K. (1995). On the reliability of unitizing continuous data.
    Sociological Methodology, 25, 47–76. https://doi.org/10.2307/271061

    Krippendorff, K. (2004). Content Analysis: An Introduction to Its Methodology (2nd
    ed.), p. 251–256. SAGE.

    Examples
    --------
    Krippendorff's (2004: p. 254) example on [150, 450); he prints cD_o = .0144,
    cD_e = .0532, cα = .7286, kα = 1 and α_U = .8591 (from the rounded D's; the exact
    D's give .8587):

    >>> units = pd.DataFrame(
    ...     [(0, "c", 225, 295), (0, "c", 370, 400), (1, "c", 220, 300), (1, "c", 355, 375),
    ...      (1, "c", 400, 420), (0, "k", 180, 240), (0, "k", 300, 350), (1, "k", 180, 240),
    ...      (1, "k", 300, 350)], columns=["annotator", "category", "start", "end"])
    >>> r = iaa.unitizing_alpha(units, continuum=(150, 450))
    >>> r.per_category.round(4)
              units     D_o     D_e   alpha
    category
    c             5  0.0144  0.0532  0.7286
    k             4  0.0000  0.0490  1.0000
    >>> round(float(r.value), 4)
    0.8587
    """
    where = "unitizing_alpha"
    c = _as_continuum(where, data, loader_args)
    begin, length, note = _span(where, c, continuum)
    a, k, s, e, excluded = _units(where, c, by_category=True)
    m, n_cat, L = c.n_annotators, c.n_categories, length
    s, e = s - begin, e - begin  # positions from 0: α_U does not depend on B
    d_o = _alpha_u_observed(a, k, s, e, m, n_cat, L)
    d_e, n_units = _alpha_u_expected(a, k, s, e, m, n_cat, L)
    per_cat = pd.DataFrame({"units": n_units, "D_o": d_o, "D_e": d_e,
                            "alpha": [_ratio(o, x) for o, x in zip(d_o, d_e)]},
                           index=pd.Index(c.categories, name="category"))
    empty = c.categories[n_units == 0].tolist()
    notes = [note]
    if empty:
        notes.append(f"categories {empty!r} have no units: their α_U,c is 0/0 (NaN) and "
                     "they add nothing to α_U")
    value = _ratio(float(d_o.sum()), float(d_e.sum()))
    if math.isnan(value):
        notes.append("no disagreement is expected (D_e = 0): α_U is 0/0, undefined")
    return AgreementResult(
        measure="unitizing_alpha", value=value, observed=float(d_o.sum()),
        expected=float(d_e.sum()), n_items=len(s), n_annotators=m, n_ratings=len(s),
        scale="disagreement", excluded=excluded, per_category=per_cat,
        params={"continuum": (begin, begin + L), "L": L, "reference":
                "Krippendorff 1995; 2004"},
        note="; ".join(filter(None, notes)))


def _alpha_u_observed(a, k, s, e, m: int, n_cat: int, L: float) -> np.ndarray:
    """cD_o per category: 2 Σ over overlapping unit pairs of different annotators of
    (Δb² + Δe²), plus 2 Σ_units l² × (annotators with no unit of c overlapping it),
    over m(m − 1)L² (each unordered pair of annotators counted in both orders)."""
    span = 2.0 * L + 1.0  # categories laid side by side on one key axis
    order = np.lexsort((s, k))
    a, k, s, e = a[order], k[order], s[order], e[order]
    # pairs of one category; never of one annotator, whose units of c do not overlap
    p, q = _overlapping_pairs(k * span + s, k * span + e)
    pair_term = np.bincount(k[p], weights=(s[p] - s[q]) ** 2 + (e[p] - e[q]) ** 2,
                            minlength=n_cat)
    # the annotators whose units overlap unit u, each counted once (one may overlap u
    # with several units)
    who = np.unique(np.r_[p * m + a[q], q * m + a[p]])  # (unit, annotator) keys, each once
    covered = np.bincount(who // m, minlength=len(s))
    inside_gap = (e - s) ** 2 * (m - 1 - covered)  # unit u inside a gap of annotator j
    gap_term = np.bincount(k, weights=inside_gap, minlength=n_cat)
    return 2.0 * (pair_term + gap_term) / (m * (m - 1) * L * L)


def _alpha_u_expected(a, k, s, e, m: int, n_cat: int, L: float):
    """cD_e per category (2004 form) and N_c. The gap sum Σ_{l_h ≥ l} (l_h − l + 1) is
    read off cumulative sums of each category's gap lengths sorted (one searchsorted)."""
    lengths = e - s
    n_units = np.bincount(k, minlength=n_cat)
    gk, gl = _gaps(a, k, s, e, m, n_cat, L)
    span = L + 2.0
    order = np.lexsort((gl, gk))
    gk, gl = gk[order], gl[order]
    key = gk * span + gl
    first = np.searchsorted(key, k * span + lengths, side="left")  # first gap ≥ l
    last = np.searchsorted(key, k * span + span - 1, side="left")  # end of category k
    tail = np.r_[0.0, np.cumsum(gl)]
    n_long = last - first
    gap_sum = tail[last] - tail[first] - (lengths - 1) * n_long  # Σ (l_h − l + 1)
    l = lengths
    term = (n_units[k] - 1) * (2 * l**3 - 3 * l**2 + l) / 3 + l**2 * gap_sum
    num = 2.0 / L * np.bincount(k, weights=term, minlength=n_cat)
    den = m * L * (m * L - 1) - np.bincount(k, weights=l * (l - 1), minlength=n_cat)
    return num / den, n_units


def _gaps(a, k, s, e, m: int, n_cat: int, L: float):
    """Every gap of every (annotator, category) segmentation of [0, L): (category,
    length). Units come sorted by (annotator, category, start); an (annotator,
    category) without units is one gap of length L."""
    group = a * n_cat + k
    new = np.r_[True, group[1:] != group[:-1]]
    last = np.r_[group[1:] != group[:-1], True]
    inner = e[:-1][~new[1:]], s[1:][~new[1:]]      # between consecutive units of a group
    inner_k = k[1:][~new[1:]]
    lead, lead_k = s[new], k[new]                   # before the first unit: [0, s)
    trail, trail_k = L - e[last], k[last]           # after the last unit: [e, L)
    empty = np.setdiff1d(np.arange(m * n_cat), group)
    gk = np.r_[inner_k, lead_k, trail_k, empty % n_cat]
    gl = np.r_[inner[1] - inner[0], lead, trail, np.full(len(empty), L)]
    return gk[gl > 0], gl[gl > 0]


# ---------------------------------------------------------------- u-α (2016)
@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Krippendorff, Mathet, Bouvry & Widlöcher (2016)', symbol='u-α',
          scale='disagreement')
def u_alpha(data, *, kind: str = "nominal", continuum=None, **loader_args) -> AgreementResult:
    r"""u-α (``kind="nominal"``) or |u-α (``kind="binary"``) of Krippendorff, Mathet,
    Bouvry & Widlöcher (2016): see the module docstring for the coincidences l_ck,
    the expected e_ck and δ.

    ``data``, ``continuum`` and ``loader_args`` as in `unitizing_alpha`. Every
    annotator (m, declared ones included) segments [B, B + L) into units and gaps;
    zero-length units are left out and counted in ``excluded``; one annotator's
    overlapping units raise `AgreementError` (u-α gives every tick
    one value per annotator; use `unitizing_alpha` for overlapping categories).
    ``observed`` and ``expected`` are D_o = Σ l_ck δ_ck / l.. and D_e = Σ e_ck δ_ck / l..
    (``scale="disagreement"``). ``per_category`` gives, per category, its units, total
    length l_c., coincidences with itself l_cc and with gaps l_c∅, and the expected
    e_cc; ``params["gap"]`` the same for ∅; ``n_items`` and ``n_ratings`` count the units
    used. With no expected disagreement (D_e = 0, e.g. one value everywhere) the value
    is NaN with a note.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end (whole numbers).
    kind : {"nominal", "binary"}, default "nominal"
        u-α (categories and gaps as nominal values) or |u-α (unit against gap).
    continuum : tuple of int, optional
        (begin, end) of the stretch that was read (default: first start to last end).
    **loader_args
        Passed to `Continuum.from_frame` (e.g. ``annotators=``, ``categories=``).

    Returns
    -------
    AgreementResult
        ``value``, ``observed`` (D_o), ``expected`` (D_e), ``per_category``,
        ``params["gap"]``, ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When bounds are not whole numbers or lie outside ``continuum``, one annotator's
        units overlap, fewer than two annotators are given, ``kind`` is not one listed,
        or a column is missing.

    See Also
    --------
    unitizing_alpha : α_U, overlapping categories allowed.
    cu_alpha : cu-α, coding where units intersect.
    gamma : Mathet's γ on the same units.

    Notes
    -----
    With l_ck the length on which one annotator's value c meets another's k, e_ck its
    expectation and δ nominal (Krippendorff et al. 2016):

    $$u\text{-}\alpha = 1 - \frac{\sum_{c,k} l_{ck}\,\delta_{ck}}{\sum_{c,k} e_{ck}\,\delta_{ck}}.$$

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S. & Widlöcher, A. (2016). On the reliability
    of unitizing textual continua: further developments. Quality & Quantity, 50(6),
    2347–2364. https://doi.org/10.1007/s11135-015-0266-1

    Krippendorff, K. (2019). Content Analysis: An Introduction to Its Methodology (4th
    ed.). SAGE. https://doi.org/10.4135/9781071878781

    Examples
    --------
    Krippendorff's (2019) Fig. 12.11: three observers on 60 characters, values 1–7
    (first character 0, end exclusive; units as transcribed in the tests of the R package
    quallmer 0.4.0, tests/testthat/test-alpha_u.R);
    the book prints u-α = .510 and |u-α = .413 (exactly 1 − 26·31418/(180·71·109) = .4136):

    >>> book = pd.DataFrame(
    ...     [("Alex", "1", 0, 7), ("Alex", "2", 7, 13), ("Alex", "5", 30, 32),
    ...      ("Alex", "6", 32, 37), ("Alex", "6", 37, 44), ("Alex", "7", 44, 60),
    ...      ("Paul", "1", 0, 7), ("Paul", "3", 7, 13), ("Paul", "5", 13, 21),
    ...      ("Paul", "6", 32, 44), ("Suzan", "1", 0, 7), ("Suzan", "4", 7, 13),
    ...      ("Suzan", "5", 13, 21), ("Suzan", "6", 32, 37), ("Suzan", "6", 37, 41),
    ...      ("Suzan", "6", 41, 44)], columns=["annotator", "category", "start", "end"])
    >>> round(iaa.u_alpha(book, continuum=(0, 60)).value, 3)
    0.51
    >>> round(iaa.u_alpha(book, kind="binary", continuum=(0, 60)).value, 4)
    0.4136
    """
    where = "u_alpha"
    if kind not in KINDS:
        raise AgreementError(f"{where}: kind must be one of {list(KINDS)!r} (nominal: "
                             f"u-α, binary: |u-α), got {kind!r}")
    c = _as_continuum(where, data, loader_args)
    begin, L, note = _span(where, c, continuum)
    _, k, s, e, excluded = _units(where, c, by_category=False)
    m, n_cat = c.n_annotators, c.n_categories
    k, lengths, p, q, overlap = _intersections(k, s, e)
    coinc, lam = _coincidences(k, lengths, _unit_coincidences(k, p, q, overlap, m, n_cat),
                               m, L)
    total = m * L                                           # l.. = mL
    margin = coinc.sum(axis=1)
    # e_ck = l..(l_c. l_.k − [c = k] Σ λ_g) / (l..² − Σ λ_g)   (2016; 2019 eq. 33)
    expected = total * (np.outer(margin, margin) - np.diag(lam)) / (total**2 - lam.sum())
    delta = 1.0 - np.eye(n_cat + 1)
    if kind == "binary":
        delta[1:, 1:] = 0.0                                 # units of any category agree
    d_o = float((coinc * delta).sum() / total)
    d_e = float((expected * delta).sum() / total)
    value = _ratio(d_o, d_e)
    notes = [note]
    if math.isnan(value):
        notes.append("no disagreement is expected (D_e = 0: one value everywhere): "
                     f"{'u-α' if kind == 'nominal' else '|u-α'} is 0/0, undefined")
    per_cat = pd.DataFrame({"units": np.bincount(k, minlength=n_cat),
                            "length": margin[1:], "l_cc": np.diag(coinc)[1:],
                            "l_c_gap": coinc[1:, 0], "e_cc": np.diag(expected)[1:]},
                           index=pd.Index(c.categories, name="category"))
    return AgreementResult(
        measure="u_alpha" if kind == "nominal" else "u_alpha_binary", value=value,
        observed=d_o, expected=d_e, n_items=len(s), n_annotators=m, n_ratings=len(s),
        scale="disagreement", excluded=excluded, per_category=per_cat,
        params={"kind": kind, "continuum": (begin, begin + L), "L": L,
                "gap": {"length": float(margin[0]), "l_gap_gap": float(coinc[0, 0]),
                        "e_gap_gap": float(expected[0, 0])},
                "reference": "Krippendorff, Mathet, Bouvry & Widlöcher 2016"},
        note="; ".join(filter(None, notes)))


def _intersections(k, s, e):
    """Units sorted by start, their lengths, and the pairs (p, q) of them that overlap
    with the overlap |p ∩ q|: always units of two annotators, since one annotator's
    units do not overlap (:func:`_units`)."""
    order = np.argsort(s, kind="stable")
    k, s, e = k[order], s[order], e[order]
    p, q = _overlapping_pairs(s, e)
    return k, e - s, p, q, np.minimum(e[p], e[q]) - s[q]


def _unit_coincidences(k, p, q, overlap, m: int, n_cat: int) -> np.ndarray:
    """l_ck between unit values (K × K): the overlaps of units of different
    annotators, counted in both orders, over m − 1."""
    cells = np.bincount(np.r_[k[p] * n_cat + k[q], k[q] * n_cat + k[p]],
                        weights=np.r_[overlap, overlap], minlength=n_cat * n_cat)
    return cells.reshape(n_cat, n_cat) / (m - 1)


def _coincidences(k, lengths, units: np.ndarray, m: int, L: float):
    """The (1 + K) × (1 + K) coincidences l_ck, value 0 the gap, and λ per value.

    Units × units: ``units`` (:func:`_unit_coincidences`). Unit × gap: each of the
    m − 1 other annotators covers a unit with its units or its gaps, so
    l_c∅ = l_c. − Σ_k l_ck with l_c. the total length of c's units. Gap × gap closes
    the table: l_∅. = mL − Σ_c l_c. (rows sum to the lengths)."""
    n_cat = len(units)
    coinc = np.zeros((n_cat + 1, n_cat + 1))
    coinc[1:, 1:] = units
    length_c = np.bincount(k, weights=lengths, minlength=n_cat)
    coinc[1:, 0] = length_c - units.sum(axis=1)
    coinc[0, 1:] = coinc[1:, 0]
    gap_length = m * L - length_c.sum()
    coinc[0, 0] = gap_length - coinc[0, 1:].sum()
    # λ: Σ l_g² over the units of each category; Σ l_g over the gaps = their length
    lam = np.r_[gap_length, np.bincount(k, weights=lengths**2, minlength=n_cat)]
    return coinc, lam


# ---------------------------------------------------------------- cu-α, (k)u-α (2016)
@register(family='unitizing and continuum', data='continuum', annotators='many',
          source='Krippendorff et al. (2016); Krippendorff (2019, p. 340)', symbol='cu-α',
          scale='disagreement')
def cu_alpha(data, **loader_args) -> AgreementResult:
    r"""cu-α and, per category, (k)u-α of Krippendorff, Mathet, Bouvry & Widlöcher
    (2016): see the module docstring for the pairable lengths π_g, the coincidences
    l*_ck and the expected e*_ck.

    ``data`` and ``loader_args`` as in `u_alpha` (one annotator's units must not
    overlap; zero-length units are left out and counted in ``excluded``). Only matter
    where units of two annotators intersect enters: units that meet no other
    annotator's unit are counted in ``excluded`` ("units meeting no other annotator's
    unit"), and the parts of units that meet gaps are left out (``params["coverage"]``
    = l*.. / Σ_c l_c., the share of the units' length that enters). No continuum is
    needed. ``observed`` and ``expected`` are D_o = Σ_{c≠k} l*_ck / l*.. and
    D_e = Σ_{c≠k} e*_ck / l*.. (``scale="disagreement"``). ``per_category`` gives, per
    category, its units, total length l_c., pairable length l*_c., coverage
    l*_c. / l_c., l*_cc, e*_cc and ``alpha`` = (k)u-α (NaN, noted, when l*_c. = 0 or
    e*_c. = e*_cc). ``n_items`` counts the units that enter, ``n_ratings`` all units
    used. With no intersecting units, or one value on all pairable matter, cu-α is
    0/0: NaN with a note.

    Parameters
    ----------
    data : Continuum or a tidy DataFrame
        Units with columns annotator, category, start, end.
    **loader_args
        Passed to `Continuum.from_frame` (e.g. ``annotators=``, ``categories=``).

    Returns
    -------
    AgreementResult
        ``value`` (cu-α), ``observed`` (D_o), ``expected`` (D_e), ``per_category``
        (with ``alpha``, the (k)u-α), ``params["coverage"]``, ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        When one annotator's units overlap, fewer than two annotators are given, or a
        column is missing.

    See Also
    --------
    u_alpha : u-α over the whole continuum.
    unitizing_alpha : α_U.
    span_f1 : F1 between annotators on the same spans.

    Notes
    -----
    Over the pairable matter only (Krippendorff et al. 2016):

    $$cu\text{-}\alpha = 1 - \frac{\sum_{c \ne k} l^*_{ck}}{\sum_{c \ne k} e^*_{ck}}.$$

    References
    ----------
    Krippendorff, K., Mathet, Y., Bouvry, S. & Widlöcher, A. (2016). On the reliability
    of unitizing textual continua: further developments. Quality & Quantity, 50(6),
    2347–2364. https://doi.org/10.1007/s11135-015-0266-1

    Krippendorff, K. (2019). Content Analysis: An Introduction to Its Methodology (4th
    ed.). SAGE. https://doi.org/10.4135/9781071878781

    Examples
    --------
    Krippendorff's (2019) Fig. 12.11: three observers on 60 characters, values 1–7
    (first character 0, end exclusive; units as transcribed in the tests of the R package
    quallmer 0.4.0, tests/testthat/test-alpha_u.R);
    the book prints cu-α = .724:

    >>> book = pd.DataFrame(
    ...     [("Alex", "1", 0, 7), ("Alex", "2", 7, 13), ("Alex", "5", 30, 32),
    ...      ("Alex", "6", 32, 37), ("Alex", "6", 37, 44), ("Alex", "7", 44, 60),
    ...      ("Paul", "1", 0, 7), ("Paul", "3", 7, 13), ("Paul", "5", 13, 21),
    ...      ("Paul", "6", 32, 44), ("Suzan", "1", 0, 7), ("Suzan", "4", 7, 13),
    ...      ("Suzan", "5", 13, 21), ("Suzan", "6", 32, 37), ("Suzan", "6", 37, 41),
    ...      ("Suzan", "6", 41, 44)], columns=["annotator", "category", "start", "end"])
    >>> round(iaa.cu_alpha(book).value, 3)
    0.724
    """
    where = "cu_alpha"
    c = _as_continuum(where, data, loader_args)
    _, k, s, e, excluded = _units(where, c, by_category=False)
    m, n_cat = c.n_annotators, c.n_categories
    k, lengths, p, q, overlap = _intersections(k, s, e)
    l_star = _unit_coincidences(k, p, q, overlap, m, n_cat)             # l*_ck
    # π_g: the part of unit g that meets other annotators' units, 1/(m − 1) each
    pairable = (np.bincount(p, weights=overlap, minlength=len(k))
                + np.bincount(q, weights=overlap, minlength=len(k))) / (m - 1)
    lam = np.bincount(k, weights=pairable**2, minlength=n_cat)         # Σ_{g of c} π_g²
    margin = l_star.sum(axis=1)                                         # l*_c. = Σ π_g
    total = margin.sum()                                                # l*..
    unpaired = int((pairable == 0).sum())
    if unpaired:
        excluded = {**excluded, "units meeting no other annotator's unit": unpaired}
    notes = []
    if total > 0:
        # e*_ck = l*..(l*_c. l*_.k − [c = k] Σ π_g²) / (l*..² − Σ π_g²), where
        # l*..² > Σ π_g² since pairable matter lies in units of two annotators at least
        expected = (total * (np.outer(margin, margin) - np.diag(lam))
                    / (total**2 - lam.sum()))
        d_o = float((total - np.trace(l_star)) / total)
        d_e = float((expected.sum() - np.trace(expected)) / total)
        per_value = _per_value_alpha(l_star, expected)
        undefined = c.categories[np.isnan(per_value)].tolist()
        if undefined:
            notes.append(f"(k)u-α of {undefined!r} is 0/0 (no pairable matter of that "
                         "value, or no other value on pairable matter): NaN")
    else:
        expected = np.zeros_like(l_star)
        d_o = d_e = float("nan")
        per_value = np.full(n_cat, np.nan)
        notes.append("no two annotators' units intersect: cu-α has no pairable matter "
                     "and is 0/0, undefined")
    value = _ratio(d_o, d_e)
    if total > 0 and math.isnan(value):
        notes.insert(0, "one value on all pairable matter (D_e = 0): cu-α is 0/0, "
                        "undefined")
    length_c = np.bincount(k, weights=lengths, minlength=n_cat)
    with np.errstate(invalid="ignore", divide="ignore"):
        coverage_c = margin / length_c
    per_cat = pd.DataFrame({"units": np.bincount(k, minlength=n_cat), "length": length_c,
                            "pairable": margin, "coverage": coverage_c,
                            "l_cc": np.diag(l_star), "e_cc": np.diag(expected),
                            "alpha": per_value},
                           index=pd.Index(c.categories, name="category"))
    return AgreementResult(
        measure="cu_alpha", value=value, observed=d_o, expected=d_e,
        n_items=len(k) - unpaired, n_annotators=m, n_ratings=len(k),
        scale="disagreement", excluded=excluded, per_category=per_cat,
        params={"kind": "nominal", "coverage": float(total / lengths.sum()),
                "reference": "Krippendorff, Mathet, Bouvry & Widlöcher 2016"},
        note="; ".join(notes))


def _per_value_alpha(coinc: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """(k)u-α = 1 − (e_k. / l_k.)(l_k. − l_kk) / (e_k. − e_kk) for every value k: the
    binary α of k against the other values; NaN where l_k. = 0 or e_k. = e_kk (0/0)."""
    l_k = coinc.sum(axis=1)
    off = (expected * (1.0 - np.eye(len(l_k)))).sum(axis=1)          # e_k. − e_kk
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 1.0 - (expected.sum(axis=1) / l_k) * (l_k - np.diag(coinc)) / off
    out[(l_k == 0) | (off == 0)] = np.nan
    return out
