"""What the teaching notebooks share, kept out of the lessons' way.

``check`` (and ``within``, for a range) is a self-check: it shows the student what was
compared with what, and where the expected figure comes from, and stops the notebook (as
the test suite runs it) when a recomputed number no longer matches a paper's.

Checks of our own code (a widget computes what the function does, a claim of the text
still holds) sit in hidden-input code cells: cell metadata ``"jupyter":
{"source_hidden": true}`` (JupyterLab folds the input) and the tag ``hide-input`` (the
documentation site leaves the cell out). They print nothing; tests/test_notebooks.py
refuses an ``assert`` in any other cell of a lesson.

``check_exercise`` checks a student's answer to an exercise, and runs only when the
student calls it: no cell of a lesson executes an exercise's solution
(tests/test_lessons_numbers.py checks the folded answers through it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from IPython.display import Markdown, display


def shown_as(x, digits: int, truncated: bool = False):
    """``x`` (a number, or a tuple of numbers) as a page prints it with ``digits``
    decimals: rounded, or cut (truncated)."""
    if isinstance(x, tuple):
        return tuple(shown_as(v, digits, truncated) for v in x)
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


# the annotator-models lesson's crowd: who they are (accuracy, or a strategy)
CROWD = {"ana": 0.85, "ben": 0.8, "cai": 0.55, "dee": 0.5, "eve": "random", "fox": "always yes"}


def simulated_crowd(annotators=None, n_items: int = 300, seed: int = 7):
    """Ratings of ``n_items`` items on *yes*, *no*, *maybe* (true shares .5, .3, .2) and
    the true classes, both seeded. ``annotators`` maps a name to an accuracy (the true
    class with that probability, else one of the two others, evenly), ``"random"`` (a
    category drawn uniformly) or ``"always yes"``; default ``CROWD``. Returns (ratings:
    item, annotator, label; truth: item → class)."""
    import numpy as np
    import pandas as pd
    categories = np.array(["yes", "no", "maybe"])
    rng = np.random.default_rng(seed)
    truth = rng.choice(3, size=n_items, p=[0.5, 0.3, 0.2])
    labels = {}
    for name, kind in (CROWD if annotators is None else annotators).items():
        if kind == "random":
            labels[name] = rng.integers(0, 3, size=n_items)
        elif kind == "always yes":
            labels[name] = np.zeros(n_items, dtype=int)
        else:  # right with probability kind, else one of the other two categories
            wrong = (truth + rng.integers(1, 3, size=n_items)) % 3
            labels[name] = np.where(rng.random(n_items) < kind, truth, wrong)
    ratings = pd.DataFrame({"item": np.tile(np.arange(n_items), len(labels)),
                            "annotator": np.repeat(list(labels), n_items),
                            "label": categories[np.concatenate(list(labels.values()))]})
    return ratings, pd.Series(categories[truth], name="truth").rename_axis("item")

# ------------------------------------------------------------ exercises, checked on request
@dataclass(frozen=True)
class Verdict:
    """What ``check_exercise`` says of an answer: ``ok``, and why, shown as Markdown."""
    ok: bool
    message: str

    def _repr_markdown_(self) -> str:
        return f"{'✔' if self.ok else '✘'} {self.message}"


def _table(answer, n_items: int, categories=("yes", "no")):
    """A 2 × 2 table of counts over ``n_items`` items as Annotations, or None."""
    import numpy as np

    from iaa_widgets import Annotations
    table = np.asarray(answer)
    if (table.shape != (2, 2) or not np.issubdtype(table.dtype, np.integer)
            or (table < 0).any() or table.sum() != n_items):
        return None
    return Annotations.from_contingency(table.tolist(), categories=list(categories))


def _close(got: float, answer, digits: int) -> bool:
    return isinstance(answer, (int, float)) and round(float(answer), digits) == round(got, digits)


def _ex_01_1(answer) -> Verdict:
    """Largest A_o and κ_max when rater 1 says yes 50 times and rater 2 90 times."""
    import iaa_widgets as iaa
    cap = iaa.kappa_max(_table([[50, 0], [40, 10]], 100))  # rows rater 1, columns rater 2
    ok = (isinstance(answer, tuple) and len(answer) == 2
          and _close(cap.observed, answer[0], 2) and _close(cap.value, answer[1], 2))
    return Verdict(ok, "answer (largest A_o, κ_max)" + (
        f": A_o ≤ {cap.observed:.2f} and κ_max = {cap.value:.2f}, as `iaa.kappa_max` computes."
        if ok else ", two numbers: not what `iaa.kappa_max` computes from these marginals."))


def _ex_01_2(answer) -> Verdict:
    """A 2 × 2 table of 10 items with A_o = 0.8 and π < 0."""
    import iaa_widgets as iaa
    ann = _table(answer, 10, ("high", "low"))
    if ann is None:
        return Verdict(False, "answer a 2 × 2 table of counts over 10 items.")
    a_o, pi = iaa.percent_agreement(ann).value, iaa.scott_pi(ann).value
    ok = round(a_o, 9) == 0.8 and pi < 0
    return Verdict(ok, f"A_o = {a_o:.2f} (0.8 asked) and π = {pi:.3f} (below 0 asked).")


def _ex_01_3(answer) -> Verdict:
    """Interval α on section 6's table, the categories as the numbers 1, 2, 3."""
    import iaa_widgets as iaa
    from iaa_widgets import Annotations
    table = [[46, 0, 0], [0, 10, 0], [6, 6, 32]]  # section 6's table, rows r1
    alpha = iaa.krippendorff_alpha(Annotations.from_contingency(table, [1, 2, 3]),
                                   metric="interval")
    ok = _close(alpha.value, answer, 4)
    return Verdict(ok, f"interval α on 1, 2, 3 is {alpha.value:.4f}" if ok else
                   "not interval α on the numbers 1, 2, 3 (give it to four decimals).")


def _ex_02_1(answer) -> Verdict:
    """κ′ at p = 0.5 of {ab, ab} and {c, c}."""
    import pandas as pd

    import iaa_widgets as iaa
    double = pd.DataFrame({"item": ["m1", "m1", "m2", "m2"], "annotator": ["A", "B"] * 2,
                           "label": [("a", "b"), ("a", "b"), "c", "c"]})
    value = iaa.augmented_kappa(double, p=0.5).value
    ok = _close(value, answer, 3)
    return Verdict(ok, f"κ′ = {value:.3f}, as `iaa.augmented_kappa` computes" if ok else
                   "not κ′ at p = 0.5 of this corpus (give it to three decimals).")


def _ex_03_1(answer) -> Verdict:
    """Ratings kept after dropping labels mostly from the hard items: SPA is biased up."""
    import numpy as np
    import pandas as pd

    import iaa_widgets as iaa
    from iaa_widgets.datasets import crowd_labels
    complete = crowd_labels(n_items=300, n_annotators=6, annotations_per_item=6, seed=7)
    if not isinstance(answer, pd.DataFrame) or not set(complete.columns) <= set(answer.columns):
        return Verdict(False, "answer the ratings you kept, a DataFrame with the columns "
                       "of `complete`.")
    full = iaa.sparse_agreement(complete, scheme="annotations_m1").value
    kept = iaa.sparse_agreement(answer, scheme="annotations_m1").value
    rng = np.random.default_rng(0)
    same_size = complete.iloc[rng.permutation(len(complete))[:len(answer)]]
    random = iaa.sparse_agreement(same_size, scheme="annotations_m1").value
    ok = kept - full > 3 * abs(random - full)
    return Verdict(ok, f"SPA {kept:.3f} on what you kept, {full:.3f} on the complete data, "
                   f"{random:.3f} after a random drop of the same size."
                   + ("" if ok else " The bias should far exceed a random drop's change."))


def _ex_04_1(answer) -> Verdict:
    """The jitter at which γ_cat drops (section 4's generator, 30 units, seed 4)."""
    import iaa_widgets as iaa
    from iaa_widgets.datasets import argument_units
    if not isinstance(answer, (int, float)) or answer <= 0:
        return Verdict(False, "answer a jitter in characters (a positive number).")
    family = iaa.gamma_family(argument_units(n_units=30, seed=4, jitter=answer, relabel=0.1),
                              n_samples=20, seed=1)
    ok = family.gamma_cat.value < 0.5
    return Verdict(ok, f"at jitter {answer}, γ = {family.gamma.value:.3f} and γ_cat = "
                   f"{family.gamma_cat.value:.3f}" + ("" if ok else ": γ_cat still holds."))


def _ex_05_3(answer) -> Verdict:
    """Labeler C's accuracy against the reviewer."""
    import iaa_widgets as iaa
    profile = iaa.annotator_profile(iaa.datasets.review_spans(), reference="Reviewer")
    accuracy = profile.loc["Labeler C", "accuracy"]
    ok = _close(accuracy, answer, 9)
    return Verdict(ok, f"{accuracy:.3f}, as `annotator_profile` computes" if ok else
                   "not the share of the spans both labelled on which they agree.")


def _ex_07_1(answer) -> Verdict:
    """A 2 × 2 table of 100 items with A_o ≥ 0.8 and κ ≤ 0."""
    import iaa_widgets as iaa
    ann = _table(answer, 100)
    if ann is None:
        return Verdict(False, "answer a 2 × 2 table of counts over 100 items.")
    kappa = iaa.cohen_kappa(ann)
    ok = kappa.observed >= 0.8 and kappa.value <= 0
    return Verdict(ok, f"A_o = {kappa.observed:.2f} (≥ 0.8 asked) and κ = {kappa.value:.3f} "
                   "(≤ 0 asked).")


def _ex_07_4(answer) -> Verdict:
    """The least number of items (a multiple of 20) for table B to retain "Fair"."""
    import iaa_widgets as iaa

    def band(n):
        scaled = [[80 * n // 100, 10 * n // 100], [5 * n // 100, 5 * n // 100]]
        return iaa.cohen_kappa(_table(scaled, n)).benchmark()
    if not isinstance(answer, int) or answer < 20 or answer % 20:
        return Verdict(False, "answer a number of items, a multiple of 20 (table B's "
                       "proportions in whole counts).")
    here, fewer = band(answer), band(answer - 20)
    ok = here.band == "Fair" and fewer.band != "Fair"
    return Verdict(ok, f"{answer} items retain “{here.band}” (cumulative probability "
                   f"{here.probability:.3f}); {answer - 20} retain “{fewer.band}”.")


def _items_answer(answer, what: str) -> Verdict | None:
    """None for a whole number of items, else the verdict asking for one."""
    if isinstance(answer, bool) or not isinstance(answer, (int, float)) or answer <= 0:
        return Verdict(False, f"answer a number of {what}.")
    return None


def _ex_09_1(answer) -> Verdict:
    """Gwet's rule: items for percent agreement 0.9 within ± 0.03 at 95 %."""
    import iaa_widgets as iaa
    n = iaa.sample_size(method="percent", agreement=0.9, half_width=0.03).n_items
    refused = _items_answer(answer, "items")
    ok = refused is None and answer == n
    return refused or Verdict(ok, f"⌈z² p(1 − p)/E²⌉ = {n} items, as `iaa.sample_size("
                              "method='percent')` computes" + ("." if ok else
                                                               f"; you answered {answer}."))


def _ex_09_2(answer) -> Verdict:
    """Notebook 09's pilot (guideline v2, Fleiss' κ): items for ± 0.03, within 1 %."""
    import iaa_widgets as iaa
    ratings, _ = simulated_crowd({"ana": 0.85, "ben": 0.8, "cai": 0.75, "dee": 0.7},
                                 n_items=300, seed=7)
    second = ratings[ratings["annotator"].isin(["ana", "ben"])]
    n = iaa.sample_size(second, "fleiss_kappa", half_width=0.03, seed=0).n_items
    refused = _items_answer(answer, "items")
    ok = refused is None and abs(answer - n) <= 0.01 * n
    return refused or Verdict(ok, f"`iaa.sample_size` gives {n} items; you answered "
                              f"{answer}" + (" (within 1 %)." if ok else ", more than 1 % "
                                             "off: the items grow as 1/E²."))


def _ex_09_3(answer) -> Verdict:
    """Documents of 50 tokens for Cohen's κ within ± 0.10 (notebook 09's tokens)."""
    import iaa_widgets as iaa
    tokens = tokens_in_documents()
    n = iaa.sample_size(tokens, "cohen_kappa", half_width=0.1, cluster="document",
                        seed=0).n_items
    documents = math.ceil(n / 50)
    refused = _items_answer(answer, "documents")
    ok = refused is None and answer == documents
    return refused or Verdict(ok, f"{documents} documents ({n} tokens) with the clustered "
                              "pilot" + ("." if ok else f"; you answered {answer} (count "
                                         "documents, not tokens, and use cluster=)."))


def tokens_in_documents(n_documents: int = 24, n_tokens: int = 50, seed: int = 1):
    """Notebook 09's tokens: two annotators label ``n_documents`` × ``n_tokens`` tokens
    ENT or O; each document has its own share of entities (Beta(1, 3)) and clarity (the
    chance of labelling a token right, uniform on 0.5 … 1). Columns item, annotator,
    label, document."""
    import numpy as np
    import pandas as pd
    rng = np.random.default_rng(seed)
    document = np.repeat(np.arange(n_documents), n_tokens)
    share = rng.beta(1, 3, n_documents)[document]
    clarity = rng.uniform(0.5, 1.0, n_documents)[document]
    truth = rng.random(document.size) < share

    def annotate():
        return np.where(rng.random(document.size) < clarity, truth, ~truth)
    labels = np.where(np.concatenate([annotate(), annotate()]), "ENT", "O")
    return pd.DataFrame({"item": np.tile(np.arange(document.size), 2),
                         "annotator": np.repeat(["A", "B"], document.size),
                         "label": labels, "document": np.tile(document, 2)})


EXERCISES = {"01.1": _ex_01_1, "01.2": _ex_01_2, "01.3": _ex_01_3, "02.1": _ex_02_1,
             "03.1": _ex_03_1, "04.1": _ex_04_1, "05.3": _ex_05_3, "07.1": _ex_07_1,
             "07.4": _ex_07_4, "09.1": _ex_09_1, "09.2": _ex_09_2, "09.3": _ex_09_3}


def check_exercise(exercise: str, answer) -> Verdict:
    """Check ``answer`` to ``exercise`` ("07.1": notebook 07, exercise 1) by recomputing
    it with the package; the verdict shows as one line, ✔ or ✘ with the numbers."""
    if exercise not in EXERCISES:
        raise KeyError(f"no check for exercise {exercise!r}; checked: {', '.join(EXERCISES)}")
    return EXERCISES[exercise](answer)
