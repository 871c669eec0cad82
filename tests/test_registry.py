"""The registry of measures (iaa_widgets/measures/_registry.py): every public coefficient is
registered once, everything that lists coefficients reads it, the vocabulary is the same
for every registered measure, the former names still work once with a DeprecationWarning,
and ``iaa.coefficients()`` says which coefficients apply to a data set and why not.

Expected numbers: Meyer's two-annotator table [[2, 2], [1, 5]] (Cohen's κ = 8/23, derived
in tests/test_report.py's docstring); Krippendorff's α under missing="listwise" is checked
against the krippendorff package (Castro, an independent implementation) on the items
every annotator rated.
"""
from __future__ import annotations

import ast
import inspect
import math
import pathlib
import re
import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import iaa_widgets as iaa
from iaa_widgets.datasets import argument_units, krippendorff_2011, meyer_relatedness
from iaa_widgets.errors import AgreementError
from iaa_widgets.measures import _registry

PACKAGE = pathlib.Path(iaa.__file__).parent
MEASURES = _registry.measures()
NAMES = _registry.names()
ITEM_KINDS = ("categorical", "ranked", "numeric")  # ratings of items, one label each
RATED = ITEM_KINDS + ("primary-secondary",)  # every measure of rated items: missing=

# public functions of the measure modules that are not one coefficient each: helpers,
# tables of several coefficients, sweeps and curves, and the functions over measures
NOT_COEFFICIENTS = {
    "alpha_from_coincidences", "set_distances", "set_membership", "category_values",
    "icc_table", "gamma_family", "gamma_corpus", "augmented_kappa_sweep",
    "annotation_matrix", "per_label", "pairwise", "benchmark", "membership",
    "membership_probabilities", "retained", "spa_item_variance", "spa_variance_curve",
    "spa_weight_curves", "spa_missingness", "spa_scheme_weights", "check_class_probs",
    "category_scores", "weight_matrix", "agreement_weights", "category_disorder",
    "best_alignment", "levenshtein", "expected_disorder",
}

# hand-written lists of three or more measures that remain, and why (each is another
# engineer's file this session; see the report of issue 29)
REMAINING_LISTS: dict[str, str] = {}


def _meyer_frame():
    cells = [("high", "high")] * 2 + [("high", "low")] * 2 + [("low", "high")] + \
        [("low", "low")] * 5
    return pd.DataFrame([(i, r, lab) for i, pair in enumerate(cells)
                         for r, lab in zip(("r1", "r2"), pair)],
                        columns=["item", "annotator", "label"])


# ------------------------------------------------------------------ one registry
def test_every_public_coefficient_is_registered_once():
    # every function the package exports from measures/ is a coefficient of the registry,
    # or one of the functions above that are not one coefficient each
    exported = {name for name in iaa.__all__ if inspect.isfunction(getattr(iaa, name))
                and getattr(iaa, name).__module__.startswith("iaa_widgets.measures.")}
    registered = {m.name for m in MEASURES}
    aliases = {a for m in MEASURES for a in m.aliases}
    assert exported - NOT_COEFFICIENTS - aliases == registered
    assert len(registered) == len(MEASURES) >= 32
    assert registered.isdisjoint(NOT_COEFFICIENTS)


def test_descriptors_are_complete():
    for m in MEASURES:
        assert m.family in _registry.FAMILIES and m.data in _registry.DATA, m.name
        assert m.annotators in ("two", "many") and m.source and m.symbol, m.name
        assert set(m.missing) <= set(_registry.MISSING), m.name
        assert m.range[0] < m.range[1] <= 1.0, m.name
        assert m.scale in ("agreement", "disagreement"), m.name
    # a Statistic where the bootstrap, the engines and the widgets need one
    for name in ("percent_agreement", "cohen_kappa", "fleiss_kappa", "gwet_ac1",
                 "krippendorff_alpha", "light_kappa", "icc", "sparse_kappa"):
        assert _registry.get(name).statistic is not None, name


def test_no_other_hand_written_list_of_measures_remains():
    """A list, tuple, set or dict literal naming three or more registered measures is a
    second registry; a module's own ``__all__`` is not."""
    names = set(NAMES)
    found = {}
    for path in PACKAGE.rglob("*.py"):
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "measures/_registry.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        exports = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Assign)
                   and any(isinstance(t, ast.Name) and t.id == "__all__" for t in n.targets)}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.List, ast.Tuple, ast.Set, ast.Dict)) or \
                    id(node) in exports:
                continue
            elts = node.keys if isinstance(node, ast.Dict) else node.elts
            listed = [e.value if isinstance(e, ast.Constant) else
                      e.id if isinstance(e, ast.Name) else
                      e.attr if isinstance(e, ast.Attribute) else None for e in elts]
            if len(names.intersection(x for x in listed if isinstance(x, str))) >= 3:
                found.setdefault(rel, []).append(node.lineno)
    assert set(found) <= set(REMAINING_LISTS), {k: found[k] for k in set(found) -
                                                 set(REMAINING_LISTS)}


def test_consumers_read_the_registry():
    from iaa_widgets.measures.categorical.pairwise import KERNELS, MARGINS
    from iaa_widgets.report import coefficients
    from iaa_widgets.widgets.contingency import _COEFFICIENTS
    assert list(_COEFFICIENTS) == [m.name for m in _registry.measures(panel=True)]
    assert [c.label for c in _COEFFICIENTS.values()] == \
        [m.symbol for m in _registry.measures(panel=True)]
    assert KERNELS == _registry.kernels()
    assert MARGINS == _registry.margin_kernels() and set(MARGINS) == set(KERNELS)
    # the engines: a measure given sufficient statistics computes itself through its
    # descriptor's engine (tests/test_engines.py checks the values)
    assert {m.name for m in MEASURES if m.engine} >= {
        "gwet_ac1", "gwet_ac2", "davies_fleiss_kappa", "light_kappa", "hubert_kappa",
        "kappa_max", "krippendorff_alpha", "fleiss_kappa", "cohen_kappa", "sparse_kappa"}
    assert all(m.statistic for m in MEASURES if m.engine)
    assert {m.name for m in MEASURES if m.kernel} == set(KERNELS)
    rows = coefficients(iaa.as_annotations(_meyer_frame()), n_resamples=0)
    assert [c.measure.name for c in rows] == [m.name for m in _registry.measures(report=True)]
    # names given as text are looked up in the registry: bootstrap, per_label, iaa.<name>
    with pytest.raises(AgreementError, match="iaa.coefficients()"):
        iaa.bootstrap(_meyer_frame(), "not_a_coefficient")
    for m in MEASURES:
        assert getattr(iaa, m.name) is m.function
        for alias in m.aliases:
            assert getattr(iaa, alias) is m.function


def test_the_namespace_has_an_all_from_the_registry():
    out = subprocess.run([sys.executable, "-c", "import iaa_widgets as iaa, sys; "
                          "print(len(iaa.__all__), 'cohen_kappa' in iaa.__all__, "
                          "'icc' in iaa.__all__, 'coefficients' in iaa.__all__, "
                          "'scipy.stats' in sys.modules)"],
                         capture_output=True, text=True, check=True).stdout.split()
    assert int(out[0]) > 60 and out[1:4] == ["True"] * 3
    assert set(NAMES) <= set(iaa.__all__)
    assert all(not n.startswith("_") for n in iaa.__all__)


# ------------------------------------------------------------------ one vocabulary
def _params(m):
    return inspect.signature(m.function).parameters


@pytest.mark.parametrize("m", MEASURES, ids=lambda m: m.name)
def test_conventions(m):
    params = _params(m)
    first = next(iter(params.values()))
    assert first.name == "data" and first.kind is first.POSITIONAL_OR_KEYWORD  # data first
    assert "level" not in params  # a former name stays out of the signature (issue 40)
    if m.intervals and m.data not in ("continuum", "spans"):  # an analytic interval
        assert params["confidence"].default == 0.95
    if "annotators" in params:  # which annotators to use, by name; all by default
        assert params["annotators"].kind is inspect.Parameter.KEYWORD_ONLY
        assert params["annotators"].default is None
    if "weights" in params:  # only agreement/disagreement weights (SPA's: scheme=)
        assert params["weights"].default in (None, "quadratic")
    variadic = [p.name for p in params.values() if p.kind is p.VAR_KEYWORD]
    assert variadic in ([], ["loader_args"])  # real signatures (γ's included)
    if m.data in RATED:
        missing = params["missing"]  # the same policy names, the default stated
        assert missing.kind is missing.KEYWORD_ONLY and missing.default in m.missing
        assert f'"{missing.default}"' in m.function.__doc__ and "default" in \
            m.function.__doc__
    if m.name.startswith("gamma"):
        named = {p for p, v in inspect.signature(iaa.gamma_family).parameters.items()
                 if v.kind is not v.VAR_KEYWORD}
        assert named <= set(params)


NUMERIC = pd.DataFrame({"item": np.repeat(np.arange(6), 2), "annotator": ["a", "b"] * 6,
                        "label": [1, 2, 2, 2, 3, 3, 4, 5, 5, 5, 1, 2]})


@pytest.mark.parametrize("m", [m for m in MEASURES if m.data in RATED],
                         ids=lambda m: m.name)
def test_missing_policies_are_those_registered(m):
    # a policy no measure has: the refusal lists the policies the function accepts
    extra = {name: 5 for name in m.needs}
    with pytest.raises(AgreementError) as err:
        m.function(NUMERIC, missing="nonesuch", **extra)
    listed = re.search(r"missing must be one of (\[.*?\])", str(err.value))
    assert listed, str(err.value)
    assert set(ast.literal_eval(listed.group(1))) == set(m.missing)
    assert m.default_missing in m.missing


def test_bootstrap_names_no_parameter_of_a_measure():
    # bootstrap(data, measure, **measure_kwargs): none of its own names shadows a measure's
    # (confidence= is the interval's level in both, and a measure's value never uses it)
    own = set(inspect.signature(iaa.bootstrap).parameters) - {"measure_kwargs", "confidence"}
    for m in MEASURES:
        if m.data in ITEM_KINDS + ("primary-secondary",):
            assert own.isdisjoint(set(_params(m)) - {"data"}), m.name


# ------------------------------------------------------------------ former names, once
def _warns_once(call, old: str):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = call()
    deprecations = [w for w in seen if issubclass(w.category, DeprecationWarning)]
    assert len(deprecations) == 1 and old in str(deprecations[0].message), \
        [str(w.message) for w in deprecations]
    assert deprecations[0].filename == __file__  # points at the caller's line
    return out


def test_former_names_work_once_with_a_warning():
    df = krippendorff_2011()
    new = iaa.bootstrap(df, "fleiss_kappa", n_resamples=40, seed=1, confidence=0.9,
                        interval="bca")
    old = _warns_once(lambda: iaa.bootstrap(df, "fleiss_kappa", n_resamples=40, seed=1,
                                            confidence=0.9, method="bca"), "method=")
    assert old.ci == new.ci
    old = _warns_once(lambda: iaa.bootstrap(df, "fleiss_kappa", n_resamples=40, seed=1,
                                            level=0.9, interval="bca"), "level=")
    assert old.ci == new.ci
    old = _warns_once(lambda: iaa.bootstrap("fleiss_kappa", df, n_resamples=40, seed=1,
                                            confidence=0.9, interval="bca"), "data first")
    assert old.ci == new.ci
    meyer = _meyer_frame()
    new = iaa.pairwise(meyer, ci="percentile", n_resamples=30, seed=0, confidence=0.8)
    old = _warns_once(lambda: iaa.pairwise(meyer, ci="percentile", n_resamples=30, seed=0,
                                           level=0.8), "level=")
    np.testing.assert_array_equal(old.attrs["ci_low"], new.attrs["ci_low"])
    kappa = iaa.cohen_kappa(meyer)
    assert _warns_once(lambda: iaa.benchmark(kappa, level=0.9), "level=").band == \
        iaa.benchmark(kappa, confidence=0.9).band
    assert _warns_once(lambda: kappa.benchmark(level=0.9), "level=").band == \
        kappa.benchmark(confidence=0.9).band
    crowd = iaa.datasets.crowd_labels(n_items=60, n_annotators=8)
    for fn in (iaa.sparse_agreement, iaa.sparse_kappa):
        assert _warns_once(lambda: fn(crowd, weights="edges"), "weights=").value == \
            fn(crowd, scheme="edges").value == fn(crowd, "edges").value


# ------------------------------------------------------------ missing= on α and SPA
def test_alpha_listwise_equals_alpha_on_the_complete_items():
    krippendorff = pytest.importorskip("krippendorff")
    df = krippendorff_2011()
    wide = df.pivot(index="annotator", columns="item", values="label")
    complete = wide.loc[:, wide.notna().all()]
    ours = iaa.krippendorff_alpha(df, missing="listwise")
    theirs = krippendorff.alpha(reliability_data=complete.to_numpy(float),
                                level_of_measurement="nominal")
    assert ours.value == pytest.approx(theirs, abs=1e-12)
    assert ours.n_items == complete.shape[1] == 8
    assert ours.excluded == {"rated by fewer than all 4 annotators": 4}
    assert ours.params["missing"] == "listwise"
    # the default is α's own: every pairable value (Krippendorff 2011: 0.743)
    assert iaa.krippendorff_alpha(df).value == pytest.approx(0.743421052631579, abs=1e-12)
    with pytest.raises(AgreementError, match="4 item.* lack a rating"):
        iaa.krippendorff_alpha(df, missing="raise")
    # the bootstrap resamples under the same policy
    boot = iaa.bootstrap(df, "krippendorff_alpha", missing="listwise", n_resamples=20,
                         seed=0)
    assert boot.estimate == ours.value
    crowd = iaa.datasets.crowd_labels(n_items=60, n_annotators=8)
    with pytest.raises(AgreementError, match="lack a rating"):
        iaa.sparse_agreement(crowd, missing="raise")
    assert iaa.sparse_agreement(crowd).params["missing"] == "pairable"


# ------------------------------------------------------------ iaa.coefficients()
def test_coefficients_lists_every_measure():
    table = iaa.coefficients()
    assert list(table["name"]) == [m.name for m in MEASURES]
    assert list(table.columns) == ["name", "family", "data", "annotators", "intervals",
                                   "missing", "source"]
    kappa = table.set_index("name").loc["cohen_kappa"]
    assert kappa["annotators"] == "two" and "bootstrap BCa" in kappa["intervals"]
    assert kappa["missing"].startswith("listwise")  # the default first


def test_coefficients_say_which_apply_and_why_not():
    table = iaa.coefficients(_meyer_frame()).set_index("name")
    assert table.loc["cohen_kappa", "applies"] and table.loc["cohen_kappa", "why not"] == ""
    # Meyer's κ applies, with the value tests/test_report.py derives: 8/23
    assert iaa.cohen_kappa(_meyer_frame()).value == pytest.approx(8 / 23, abs=1e-12)
    assert not table.loc["icc", "applies"]
    assert table.loc["icc", "why not"].startswith("needs numeric ratings of items")
    assert not table.loc["gamma", "applies"]
    assert table.loc["gamma", "why not"].startswith("needs units placed on a continuum")
    # sufficient statistics made on an engine: the measures with engine totals apply
    stats = iaa.sufficient_statistics(_meyer_frame())
    table = iaa.coefficients(stats).set_index("name")
    assert table.loc["cohen_kappa", "applies"] and table.loc["gwet_ac1", "applies"]
    assert not table.loc["tolerance_agreement", "applies"]
    assert table.loc["tolerance_agreement", "why not"].startswith("needs the ratings in memory")
    assert table.loc["icc", "why not"].startswith("needs numeric ratings of items; these "
                                                  "data are sufficient statistics of")
    numbers = iaa.coefficients(NUMERIC).set_index("name")
    assert numbers.loc["icc", "applies"] and numbers.loc["kendall_w", "applies"]
    assert "levels=" in numbers.loc["finn_coefficient", "why not"]
    assert "rank" in table.loc["augmented_kappa", "why not"]
    three = iaa.coefficients(meyer_relatedness()).set_index("name")
    assert not three.loc["cohen_kappa", "applies"]
    assert "compares two annotators" in three.loc["cohen_kappa", "why not"]
    units = iaa.coefficients(argument_units(n_units=6)).set_index("name")  # a table of units
    assert units.loc["gamma", "applies"] and units.loc["span_f1", "applies"]
    assert not units.loc["cohen_kappa", "applies"]
    assert "labels of items" in units.loc["cohen_kappa", "why not"]


def test_cut_keeps_intervals_inside_the_range():
    a_o = _registry.get("percent_agreement")
    assert _registry.cut(a_o, -0.1, 1.2) == (0.0, 1.0, True)
    assert _registry.cut(a_o, 0.2, 0.8) == (0.2, 0.8, False)
    kappa = _registry.get("cohen_kappa")
    assert _registry.cut(kappa, -0.235, 1.235) == (-0.235, 1.0, True)
    low, high, was = _registry.cut(kappa, math.nan, math.nan)
    assert math.isnan(low) and math.isnan(high) and not was


def test_a_results_chart_cuts_its_interval_as_the_report_does_and_says_so():
    # 9 agreements of 10: Wald A_o ± 1.96 · √(0.9 · 0.1 / 10) reaches 1.086 (Meyer's SE)
    frame = pd.DataFrame([(i, r, "x" if i or r == "a" else "y") for i in range(10)
                          for r in ("a", "b")], columns=["item", "annotator", "label"])
    res = iaa.percent_agreement(frame)  # the result carries the cut interval
    assert res.ci_uncut[1] == pytest.approx(0.9 + 1.959964 * 0.009 ** 0.5, abs=1e-5)
    assert res.ci == (res.ci_uncut[0], 1.0)
    spec = res.chart().to_dict()
    rows = [r for rows in spec["datasets"].values() for r in rows]
    interval = next(r for r in rows if r["quantity"] == "interval")
    assert interval["end"] == 1.0 and interval["start"] == pytest.approx(res.ci[0])
    assert any("cut to the coefficient's range" in s for s in spec["title"]["subtitle"])
    # an interval inside the range is drawn as it is, with its method named
    kappa = iaa.cohen_kappa(_meyer_frame())
    assert kappa.chart().to_dict()["title"]["subtitle"] == [f"interval: {kappa.ci_method}"]
