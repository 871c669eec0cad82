"""Fuzz tests (hypothesis): careless and hostile tidy tables through every public
measure, loader and chart.

Each property runs in a forked child under a memory cap and a time limit
(:mod:`fuzz_guard`): a MemoryError or a hang fails it. test_fuzz_public.py runs every
public function on larger inputs. Each input must give either an ``AgreementError`` or a result whose invariants hold:
a finite value, or NaN with a note saying why; agreement shares in [0, 1]; κ-type
coefficients and α at most 1; and, for the nominal measures, the same value after
shuffling the rows, renaming items and annotators, and relabelling the categories by a
bijection. Never another exception.

The ordinary run has a fixed budget; ``IAA_FUZZ_EXAMPLES=2000`` (say) runs a longer
profile.
"""
from __future__ import annotations

import math
import os
import warnings

import numpy as np
import pandas as pd
from hypothesis import HealthCheck, given, settings, strategies as st

import iaa_widgets as iaa
from iaa_widgets import AgreementError

from fuzz_guard import limited

EXAMPLES = int(os.environ.get("IAA_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=not os.environ.get(
    "IAA_FUZZ_EXAMPLES"), suppress_health_check=list(HealthCheck))
TOL = 1e-9

HOSTILE = ["</script><script>alert(1)</script>", '"><img src=x onerror=alert(1)>',
           "${alert(1)}", "{{7*7}}", "x" * 300, "\u202eevil", "😀", "a\u2028b", " x ",
           "x", "X", "e\u0301", "\u00e9", "NA", "None", "null", "0", "1"]


# ------------------------------------------------------------------ strategies
def _pool(kind: str, size: int) -> list:
    """``size`` distinct label values of one kind (mixed kinds on purpose too)."""
    if kind == "int":
        return list(range(-2, size - 2))
    if kind == "bigint":
        return [2 ** 62 - j for j in range(size)]
    if kind == "float":
        return [1e200 * (j + 1) if j % 2 else -0.5 * j for j in range(size)]
    if kind == "bool":
        return [True, False][:size] or [True]
    if kind == "mixed":
        return [1, "1", 1.5, "a", "a "][:size]
    return HOSTILE[:size] if kind == "hostile" else [f"c{j}" for j in range(size)]


LABEL_KINDS = ["int", "bigint", "float", "bool", "mixed", "hostile", "str"]
ID_KINDS = ["int", "str", "hostile", "float"]
DTYPES = ["object", "int8", "category", "ordered", "string", "arrow"]


@st.composite
def tidy(draw):
    """A tidy table: a few items, annotators and labels of drawn kinds, with missing
    ratings, possibly duplicate rows and blank labels."""
    kind = draw(st.sampled_from(LABEL_KINDS))
    k = draw(st.integers(1, 5))
    labels = _pool(kind, k)
    n_items, n_ann = draw(st.integers(1, 6)), draw(st.integers(1, 4))
    items = _pool(draw(st.sampled_from(ID_KINDS)), n_items)
    anns = _pool(draw(st.sampled_from(ID_KINDS)), n_ann)
    cells = draw(st.lists(st.tuples(st.integers(0, len(items) - 1),
                                    st.integers(0, len(anns) - 1),
                                    st.integers(0, len(labels) - 1)), min_size=0, max_size=24))
    if not draw(st.booleans()):  # most tables: one rating per (item, annotator)
        cells = list({(i, a): (i, a, c) for i, a, c in cells}.values())
    df = pd.DataFrame({"item": [items[i] for i, _, _ in cells],
                       "annotator": [anns[a] for _, a, _ in cells],
                       "label": pd.Series([labels[c] for _, _, c in cells], dtype=object)})
    if len(df) and draw(st.booleans()):  # a blank or missing label somewhere
        df.loc[draw(st.integers(0, len(df) - 1)), "label"] = draw(
            st.sampled_from([None, float("nan"), "", "  "]))
    dtype = draw(st.sampled_from(DTYPES))
    df["label"] = _as_dtype(df["label"], dtype, labels)
    return df


def _as_dtype(col: pd.Series, dtype: str, labels: list) -> pd.Series:
    """The label column in another dtype where its values allow it."""
    try:
        if dtype == "int8" and all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                   and -128 <= v < 128 for v in labels):
            return col.astype("Int8") if col.isna().any() else col.astype(np.int8)
        if dtype in ("category", "ordered"):
            values = [v for v in pd.unique(col.dropna())]
            return pd.Series(pd.Categorical(col, categories=values or None,
                                            ordered=dtype == "ordered"), index=col.index)
        if dtype == "string" and all(isinstance(v, str) for v in col.dropna()):
            return col.astype("string")
        if dtype == "arrow" and all(isinstance(v, str) for v in col.dropna()):
            return col.astype("string[pyarrow]")  # what pandas 3 users with pyarrow get
    except (TypeError, ValueError, ImportError):  # ImportError: no pyarrow here
        pass
    return col


# ------------------------------------------------------------------ checks
def _quiet(fn, *args, **kwargs):
    """fn's result, or None for an AgreementError; any other exception propagates."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return fn(*args, **kwargs)
        except AgreementError:
            return None


def _check_result(res, name: str) -> None:
    value = getattr(res, "value", None)
    if value is None:
        return
    value = float(value)
    if math.isnan(value):
        assert getattr(res, "note", ""), f"{name}: NaN without a note"
        return
    assert math.isfinite(value), f"{name}: {value}"
    assert value <= 1 + TOL, f"{name}: {value} > 1"
    if getattr(res, "scale", "agreement") == "agreement":
        obs = getattr(res, "observed", float("nan"))
        if obs is not None and not math.isnan(obs):
            assert -TOL <= obs <= 1 + TOL, f"{name}: observed {obs}"


def _two(df: pd.DataFrame):
    """The first two annotators, by appearance (for the two-annotator measures)."""
    names = list(pd.unique(df["annotator"]))[:2]
    return {"annotators": names} if len(names) == 2 else {}


NOMINAL = {
    "percent_agreement": lambda d: iaa.percent_agreement(d),
    "percent_agreement_available": lambda d: iaa.percent_agreement(d, missing="available"),
    "bennett_s": lambda d: iaa.bennett_s(d),
    "fleiss_kappa": lambda d: iaa.fleiss_kappa(d, missing="available"),
    "davies_fleiss_kappa": lambda d: iaa.davies_fleiss_kappa(d, missing="available"),
    "scott_pi": lambda d: iaa.scott_pi(d, **_two(d)),
    "cohen_kappa": lambda d: iaa.cohen_kappa(d, **_two(d)),
    "krippendorff_alpha": lambda d: iaa.krippendorff_alpha(d),
    "sparse_agreement": lambda d: iaa.sparse_agreement(d),
    "sparse_kappa": lambda d: iaa.sparse_kappa(d),
}
OTHER = {
    "specific_agreement": lambda d: iaa.specific_agreement(d),
    "interval_alpha": lambda d: iaa.krippendorff_alpha(d, metric="interval"),
    "ordinal_alpha": lambda d: iaa.krippendorff_alpha(d, metric="ordinal"),
    "weighted_kappa": lambda d: iaa.cohen_kappa(d, weights="linear", **_two(d)),
    "augmented_kappa": lambda d: iaa.augmented_kappa(d),
    "augmented_kappa_sweep": lambda d: iaa.augmented_kappa_sweep(d, ps=[0.5, 1.0]),
}


def _relabelled(df: pd.DataFrame, seed: int) -> pd.DataFrame:
    """Rows shuffled; items, annotators and labels renamed by bijections (labels with
    a pandas dtype keep their categories' identity through the codes)."""
    rng = np.random.default_rng(seed)
    out = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    for col, prefix in (("item", "i"), ("annotator", "r")):
        codes, uniques = pd.factorize(out[col])
        names = np.array([f"{prefix}{j}" for j in rng.permutation(len(uniques))], dtype=object)
        out[col] = names[codes]
    lab = out["label"].astype(object)
    blank = lab.isna() | lab.map(lambda v: isinstance(v, str) and not v.strip())
    codes, uniques = pd.factorize(lab.where(~blank))
    names = np.array([f"L{j}" for j in rng.permutation(max(len(uniques), 1))], dtype=object)
    out["label"] = pd.Series(np.where(codes >= 0, names[np.maximum(codes, 0)], None),
                             dtype=object)
    return out


# ------------------------------------------------------------------ tests
@limited
@FUZZ
@given(tidy(), st.integers(0, 2 ** 16))
def test_nominal_measures_are_invariant_or_refuse(df, seed):
    """Every nominal measure: an AgreementError, or a valid result equal to the one
    on the shuffled, renamed and relabelled table (a bijection keeps every nominal
    coefficient; Meyer's tutorial defines them on the contingency of categories only)."""
    other = _relabelled(df, seed)
    for name, fn in NOMINAL.items():
        res = _quiet(fn, df)
        if res is None:
            continue
        _check_result(res, name)
        # the relabelled table must give the same number (look-alike labels that the
        # loader keeps apart, e.g. 1 and "1", stay apart under the bijection too)
        if name in ("scott_pi", "cohen_kappa"):
            continue  # the pair picked by appearance changes with the shuffle
        again = _quiet(fn, other)
        assert again is not None, f"{name}: refused after relabelling only"
        a, b = float(res.value), float(again.value)
        assert (math.isnan(a) and math.isnan(b)) or abs(a - b) <= 1e-9 * max(1, abs(a)), \
            f"{name}: {a} != {b} after relabelling"


@limited
@FUZZ
@given(tidy())
def test_other_measures_refuse_or_give_valid_results(df):
    """Ordered metrics, specific and augmented agreement: an AgreementError or a valid
    result, never another exception."""
    for name, fn in OTHER.items():
        res = _quiet(fn, df)
        if res is not None:
            _check_result(res, name)


@limited
@FUZZ
@given(tidy())
def test_pairwise_and_bootstrap_refuse_or_work(df):
    for measure in ("percent_agreement", "cohen_kappa", "krippendorff_alpha"):
        res = _quiet(iaa.pairwise, df, measure)
        if res is not None:
            values = np.asarray(getattr(res, "values", res), dtype=float)
            finite = values[np.isfinite(values)]
            assert np.all(finite <= 1 + TOL)
    res = _quiet(iaa.bootstrap, "krippendorff_alpha", df, n_resamples=20, seed=0)
    if res is not None:
        assert np.all(res.values[~np.isnan(res.values)] <= 1 + TOL)


CHARTED = {
    "cohen_kappa": lambda d: iaa.cohen_kappa(d, **_two(d)),
    "fleiss_kappa": lambda d: iaa.fleiss_kappa(d),
    "krippendorff_alpha": lambda d: iaa.krippendorff_alpha(d),
    "pairwise": lambda d: iaa.pairwise(d, "krippendorff_alpha"),
    "augmented_kappa_sweep": lambda d: iaa.augmented_kappa_sweep(d, ps=[0.5, 1.0]),
    "spa_missingness": lambda d: iaa.spa_missingness(d, drop=0.2, n_rounds=5, seed=0),
    "bootstrap": lambda d: iaa.bootstrap(d, "fleiss_kappa", n_resamples=5, seed=0),
}


def _assert_script_safe(page: str) -> None:
    """No label's markup survives raw in a page (html.py writes it as \\u003c…)."""
    for bad in ("<img src=x", "alert(1)</script>", "\u2028"):
        assert bad not in page


@limited
@FUZZ
@given(tidy())
def test_charts_of_results_build_and_are_script_safe(df):
    """Every result's chart builds (a Vega-Lite dict) whatever its labels hold, and its
    HTML page carries no label as markup."""
    for name, fn in CHARTED.items():
        res = _quiet(fn, df)
        if res is None:
            continue
        chart = _quiet(res.chart)
        if chart is None:
            continue
        assert isinstance(chart.to_dict(), dict), name
        _assert_script_safe(chart.to_html())


@st.composite
def units(draw):
    """A small continuum: hostile or plain annotators and categories, odd bounds."""
    n = draw(st.integers(1, 12))
    names = _pool(draw(st.sampled_from(["hostile", "str", "int"])), 3)
    cats = _pool(draw(st.sampled_from(["hostile", "str", "int"])), 3)
    rows = draw(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2),
                                   st.floats(-5, 50, allow_nan=False), st.floats(0, 20)),
                         min_size=n, max_size=n))
    return pd.DataFrame({"annotator": [names[a] for a, _, _, _ in rows],
                         "category": [cats[c] for _, c, _, _ in rows],
                         "start": [s for _, _, s, _ in rows],
                         "end": [s + d for _, _, s, d in rows]})


@limited
@settings(FUZZ, max_examples=max(EXAMPLES // 4, 5))
@given(units())
def test_gamma_refuses_or_gives_valid_values(df):
    """γ, γ_cat and γ_k: an AgreementError or values ≤ 1 (NaN only with a note), and
    a script-safe chart."""
    res = _quiet(iaa.gamma_family, df, n_samples=3, seed=0, progress=False)
    if res is None:
        return
    for part in (res.gamma, res.gamma_cat):
        _check_result(part, "gamma")
    _assert_script_safe(res.chart().to_html())


@limited
@FUZZ
@given(tidy())
def test_loaders_round_trip(tmp_path_factory, df):
    """The long and wide CSV loaders and from_wide refuse or load the table with the
    same number of ratings as from_long."""
    direct = _quiet(iaa.Annotations.from_long, df)
    path = tmp_path_factory.mktemp("fuzz") / "t.csv"
    df.to_csv(path, index=False)
    read = _quiet(iaa.read_csv, path)
    if direct is not None and read is not None:
        assert read.n_items <= direct.n_items
    if direct is not None and not df.duplicated(["item", "annotator"]).any():
        wide = df.pivot(index="item", columns="annotator", values="label")
        loaded = _quiet(iaa.Annotations.from_wide, wide)
        if loaded is not None:
            assert loaded.n_ratings == direct.n_ratings
