"""What the teaching notebooks share, kept out of the lessons' way.

``check`` (and ``within``, for a range) is a self-check: it shows the student what was
compared with what, and where the expected figure comes from, and stops the notebook (as
the test suite runs it) when a recomputed number no longer matches a paper's.

Checks of our own code (a widget computes what the function does, a claim of the text
still holds) sit in hidden-input code cells: cell metadata ``"jupyter":
{"source_hidden": true}`` (JupyterLab folds the input) and the tag ``hide-input`` (the
documentation site leaves the cell out). They print nothing; tests/test_notebooks.py
refuses an ``assert`` in any other cell of a lesson.
"""
from __future__ import annotations

import math

from IPython.display import Markdown, display


def shown_as(x: float, digits: int, truncated: bool = False) -> float:
    """``x`` as a page prints it with ``digits`` decimals: rounded, or cut (truncated)."""
    if truncated:
        return math.trunc(x * 10**digits) / 10**digits
    return round(x, digits)


def check(what: str, got, expected, *, source: str, digits: int = 2,
          truncated: bool = False) -> None:
    """Compare ``got`` (a number or a tuple of numbers), rounded (or, with
    ``truncated=True``, cut) to ``digits`` decimals, with the figure ``expected`` printed
    in ``source``; show the outcome in one line."""
    got_t = got if isinstance(got, tuple) else (got,)
    exp_t = expected if isinstance(expected, tuple) else (expected,)
    shown = ", ".join(f"{g:.{digits + 2}f}" for g in got_t)
    if tuple(shown_as(g, digits, truncated) for g in got_t) != tuple(exp_t):
        raise AssertionError(f"{what}: computed {shown}, but {source} prints {expected}")
    how = "truncated" if truncated else "rounded"
    display(Markdown(f"✔ **{what}**: {shown}, {how} to {digits} decimals as printed in "
                     f"{source} ({', '.join(map(str, exp_t))})."))


def within(what: str, got: float, low: float, high: float, *, source: str,
           digits: int = 4) -> None:
    """Show that ``got`` lies strictly between ``low`` and ``high``, the range given in
    ``source``; stop the notebook when it does not."""
    if not low < got < high:
        raise AssertionError(f"{what}: computed {got:.{digits}f}, outside {low} … {high} "
                             f"given in {source}")
    display(Markdown(f"✔ **{what}**: {got:.{digits}f}, within {low} … {high} as given in "
                     f"{source}."))


def disorder_by_items(items) -> float:
    """The categorial disorder of a Continuum made from items (``Continuum.from_items``)
    when every item is aligned with itself: one unitary alignment per item (Mathet 2017,
    §5.1), instead of γ's best alignment."""
    import numpy as np

    from iaa_widgets.measures.continuum.gamma.alignment import alignment_from_members
    from iaa_widgets.measures.continuum.gamma.coefficients import category_disorder
    n_items = int(items.start.max()) + 1
    members = np.full((n_items, items.n_annotators), -1)  # -1: an empty unit
    members[items.start.astype(int), items.annotator] = np.arange(items.n_units)
    num, den, _, _ = category_disorder(alignment_from_members(items, members))
    return num / den


# the coefficients the lessons teach: the registry's name → (symbol, notebooks)
TAUGHT = {
    "percent_agreement": ("A_o", "01"), "specific_agreement": ("p_pos, p_neg", "01, 07"),
    "bennett_s": ("S (PABAK for two categories)", "01, 07"), "scott_pi": ("π", "01, 07"),
    "cohen_kappa": ("κ; weighted κ with weights=", "01, 07"),
    "fleiss_kappa": ("multi-π (Fleiss' κ)", "01"), "davies_fleiss_kappa": ("multi-κ", "01"),
    "krippendorff_alpha": ("α", "01, 05, 07"), "gwet_ac1": ("AC1", "07"),
    "sparse_agreement": ("SPA", "03"), "augmented_kappa": ("κ′", "02"),
    "gamma": ("γ", "04"), "gamma_cat": ("γ_cat", "04"), "gamma_k": ("γ_k", "04"),
    "span_f1": ("span F1", "06"),
}


def which_coefficient():
    """The lessons' "which coefficient when" table, generated from the registry
    (``iaa.coefficients()``): each coefficient's function, the kind of data it takes, how
    many annotators, and its missing-data policies (the default first)."""
    import iaa_widgets as iaa
    registry = iaa.coefficients().set_index("name").loc[list(TAUGHT)]
    registry.insert(0, "notebooks", [nb for _, nb in TAUGHT.values()])
    table = registry.reset_index()[["name", "notebooks", "data", "annotators", "missing",
                                    "source"]].rename(columns={"name": "function"})
    return table.set_axis([symbol for symbol, _ in TAUGHT.values()]).rename_axis("coefficient")
