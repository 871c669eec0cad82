"""The four widgets of the tour, checked the same way in every host page (marimo,
Notebook 7, Voila): ``notebooks/00_tour.ipynb`` and ``notebooks/marimo_tour.py`` build
them on the same data with the same parameters: ContingencyMatrix(meyer_relatedness(),
pair=["r1", "r2"], editable=True), AugmentedKappaSweep(email_types(), rank="rank"),
SparseAgreementExplorer(crowd_labels()) (drop 0.2, 200 rounds, seed 0) and
GammaExplorer(argument_units(), seed=1) (30 samples).

Each ``move_*`` function moves one control of its widget on the page, waits until
the widget shows the number Python recomputed for the new setting (the ``data-value``
the widget's caption carries, at full precision), checks that the chart redrew
(``data-revision`` rose, its text marks changed), and returns that number.

Expected values are computed in this process by the measure functions on the same
data (the independent path: the widgets compute through their Statistic or closed
form, the functions directly):
- ContingencyMatrix: ``cohen_kappa`` of r1 and r2 of Meyer's relatedness table, the
  agreeing cell (high, high) raised by one (Meyer's tutorial: κ = 0.348 before);
- AugmentedKappaSweep: ``augmented_kappa(emails, p=0.85)`` (Rosenberg & Binkowski §5);
- SparseAgreementExplorer: ``spa_missingness(crowd, 0.6, n_rounds=200, seed=0)``, sd of
  the annotations_m1 scheme (same seed, same draws);
- GammaExplorer: ``gamma_family(argument_units, alpha=2.5, n_samples=30, seed=1)``
  (samples are seeded one by one: equal seeds give equal values).
These checks ask no kernel (in marimo's app mode and in Voila a page cannot run code);
the Notebook 7 test also reads the kernel.
"""
from __future__ import annotations

import functools
import time

import pandas as pd

import iaa_widgets as iaa
from iaa_widgets import datasets
from labdriver import contrast, luminance

# the selector of each widget class, in the tour's order
WIDGETS = {"contingency": ".iaa-contingency", "sweep": ".iaa-sweep",
           "sparse": ".iaa-sparse", "gamma": ".iaa-gamma"}

# drawn: a Vega view inside, and γ's first computation finished
DRAWN = ("Number(e.dataset.revision) >= 1 && e.querySelector('svg.marks') !== null"
         " && (!e.classList.contains('iaa-gamma') || e.dataset.state === 'done')")


def poll(condition, timeout: float = 30, what: str = "condition"):
    """Call ``condition()`` every 0.1 s until it returns a true value; return it."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited {timeout} s for {what}")
        time.sleep(0.1)


def wait_for_tour(page, timeout: float = 180) -> dict:
    """Wait until the page shows one drawn widget of each class of the tour; return
    {name: locator of its root}. Playwright's locators see into shadow roots too."""
    def ready():
        return all(page.locator(css).count() == 1 and
                   page.locator(css).first.evaluate(f"(e) => {DRAWN}")
                   for css in WIDGETS.values())
    poll(ready, timeout, "the tour's four widgets to draw")
    return {name: page.locator(css).first for name, css in WIDGETS.items()}


def revision(root) -> int:
    return int(root.get_attribute("data-revision"))


def settled(root, quiet: float = 0.5, timeout: float = 20) -> int:
    """Wait until the widget has not redrawn for ``quiet`` seconds (a click during a
    re-embed, e.g. a host's late theme change, would land on a chart being replaced);
    returns its revision."""
    deadline = time.monotonic() + timeout
    last, since = revision(root), time.monotonic()
    while time.monotonic() - since < quiet:
        if time.monotonic() > deadline:
            raise TimeoutError(f"the widget kept redrawing for {timeout} s")
        time.sleep(0.1)
        now = revision(root)
        if now != last:
            last, since = now, time.monotonic()
    return last


def shown(root, css: str) -> float:
    """The full-precision number a widget's caption cell carries (data-value)."""
    value = root.locator(css).first.get_attribute("data-value")
    return float(value) if value not in (None, "") else float("nan")


def wait_shown(root, css: str, expected: float, timeout: float = 60) -> None:
    poll(lambda: abs(shown(root, css) - expected) < 1e-12, timeout,
         f"{css} to show {expected!r} (shows {shown(root, css)!r})")


def texts(root, css: str) -> list[str]:
    return root.locator(css).all_text_contents()


# ------------------------------------------------------------------ expected values
@functools.cache
def _ratings() -> pd.DataFrame:
    return datasets.meyer_relatedness()


def kappa_initial() -> float:
    r = _ratings()
    kappa = iaa.cohen_kappa(r[r["annotator"].isin(["r1", "r2"])]).value
    assert f"{kappa:.3f}" == "0.348"  # Meyer's tutorial, "Chance-corrected Measures: Example"
    return kappa


def kappa_after_click() -> tuple[list[list[int]], float]:
    """r1 × r2 counts of Meyer's table with one more item in (high, high), and its κ.
    κ is the same for the table and its transpose, so the widget's orientation does
    not matter for a diagonal cell."""
    wide = _ratings().pivot(index="item", columns="annotator", values="label")
    table = pd.crosstab(wide["r1"].astype(str), wide["r2"].astype(str))
    table = table.reindex(index=["high", "low"], columns=["high", "low"], fill_value=0)
    table.loc["high", "high"] += 1
    counts = table.to_numpy().tolist()
    kappa = iaa.cohen_kappa(iaa.Annotations.from_contingency(counts)).value
    # by hand, [[3, 1], [2, 5]]: A_o = 8/11, A_e = (4·5 + 7·6)/11² = 62/121, κ = 26/59
    assert counts == [[3, 1], [2, 5]] and abs(kappa - 26 / 59) < 1e-12, (counts, kappa)
    return counts, kappa


def kappa_prime(p: float) -> iaa.AgreementResult:
    emails = iaa.Annotations.from_long(datasets.email_types(), rank="rank")
    return iaa.augmented_kappa(emails, p=p)


def spa_sd(drop: float, scheme: str = "annotations_m1") -> float:
    missing = iaa.spa_missingness(datasets.crowd_labels(), drop, n_rounds=200, seed=0)
    return float(missing.summary().loc[scheme, "sd"])


def gamma_value(alpha: float) -> float:
    return iaa.gamma_family(datasets.argument_units(), alpha=alpha, n_samples=30,
                            seed=1).gamma.value


# ------------------------------------------------------------------ one control each
KAPPA = 'tr[data-coef="cohen_kappa"] .iaa-value'
SWEEP_KAPPA = '.iaa-summary tr[data-key="kappa"] .iaa-value'
SPA_SD = 'tr[data-scheme="annotations_m1"] .iaa-sd'
GAMMA = '.iaa-gamma-summary tr[data-key="gamma"] .iaa-value'


def click_center(page, locator, shift: bool = False) -> None:
    """A mouse click at the middle of ``locator`` (a Vega mark: its text mark lies
    over it, so Playwright's own click would refuse)."""
    locator.scroll_into_view_if_needed()
    box = locator.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    if shift:
        page.keyboard.down("Shift")
    page.mouse.down()
    page.mouse.up()
    if shift:
        page.keyboard.up("Shift")


def move_contingency(page, root) -> float:
    """Click the (high, high) cell: one more agreeing item; κ is recomputed."""
    wait_shown(root, KAPPA, kappa_initial())
    cell = root.locator('svg g.layer_0_marks path[aria-label*="col: high; row: high"]')
    assert cell.count() == 1, "no (high, high) cell in the heatmap"
    counts_before = texts(root, "svg g.layer_3_marks text")
    cell.first.scroll_into_view_if_needed()
    before = settled(root)
    click_center(page, cell.first)
    counts, expected = kappa_after_click()
    wait_shown(root, KAPPA, expected)
    assert root.locator(KAPPA).first.text_content() == f"{expected:.3f}"
    poll(lambda: revision(root) > before, 20, "the heatmap to redraw")
    after = texts(root, "svg g.layer_3_marks text")
    assert sorted(map(int, after)) == sorted(c for row in counts for c in row), after
    assert after != counts_before
    return expected


def move_sweep(page, root, p: float = 0.85) -> float:
    wait_shown(root, SWEEP_KAPPA, kappa_prime(0.6).value)  # the widget's default p
    before = revision(root)
    root.locator("input.iaa-slider-p").fill(str(p))
    expected = kappa_prime(p)
    wait_shown(root, SWEEP_KAPPA, expected.value)
    poll(lambda: revision(root) > before, 20, "the κ′ chart to redraw")
    labels = texts(root, "svg g.labels_marks text")
    assert f"κ′ = {expected.value:.3f}" in labels, labels
    return expected.value


def move_sparse(page, root, drop: float = 0.6) -> float:
    wait_shown(root, SPA_SD, spa_sd(0.2))  # the widget's default drop
    before = revision(root)
    root.locator("input.iaa-slider-drop").fill(str(drop))
    expected = spa_sd(drop)
    wait_shown(root, SPA_SD, expected)
    poll(lambda: revision(root) > before, 20, "the SPA chart to redraw")
    labels = texts(root, ".iaa-chart-spa svg g.labels_marks text")
    assert any(f"sd {expected:.4f}" in t for t in labels), labels
    return expected


def move_gamma(page, root, alpha: float = 2.5) -> float:
    wait_shown(root, GAMMA, gamma_value(1.0))  # the widget's default α
    generation = int(root.get_attribute("data-generation"))
    root.locator("input.iaa-slider-alpha").fill(str(alpha))
    expected = gamma_value(alpha)
    poll(lambda: root.get_attribute("data-state") == "done"
         and int(root.get_attribute("data-generation")) > generation, 120,
         "γ's new computation to finish")
    wait_shown(root, GAMMA, expected)
    bars = texts(root, ".iaa-chart-bars svg g.values_marks text")
    assert bars[0] == f"{expected:.3f}", bars
    return expected


MOVES = {"contingency": move_contingency, "sweep": move_sweep, "sparse": move_sparse,
         "gamma": move_gamma}


# ------------------------------------------------------------------ theme
# Colours are read back through a canvas pixel, as rgba(): hosts write some in forms
# (color(srgb …), oklch(…)) that labdriver.luminance does not parse.
_COLOURS = """(root) => {
  const ctx = document.createElement('canvas').getContext('2d', { willReadFrequently: true });
  const rgb = (css) => {
    ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = ctx.getImageData(0, 0, 1, 1).data;
    return a === 0 ? 'rgba(0, 0, 0, 0)' : `rgb(${r}, ${g}, ${b})`; };
  let node = root, background = 'rgba(0, 0, 0, 0)';
  while (node && background === 'rgba(0, 0, 0, 0)') {
    background = rgb(getComputedStyle(node).backgroundColor);
    node = node.parentElement || (node.getRootNode() && node.getRootNode().host); }
  const fill = (sel) => [...root.querySelectorAll(sel)].map(e => rgb(getComputedStyle(e).fill));
  const color = (sel) => [...root.querySelectorAll(sel)].map(e => rgb(getComputedStyle(e).color));
  return { theme: root.dataset.theme, host: root.dataset.host, background,
           text: [rgb(getComputedStyle(root).color)], table: color('th, td'),
           axis: fill('g.role-axis-label text, g.role-axis-title text') };
}"""


def theme_of(root) -> dict:
    """The widget's theme and host as it read them, and the lowest WCAG contrast of
    its text, table cells and axis labels against the page background behind it."""
    colours = root.evaluate(_COLOURS)
    bg = colours.pop("background")
    out = {"theme": colours.pop("theme"), "host": colours.pop("host"),
           "dark_page": luminance(bg) < 0.1}
    out["contrast"] = {kind: round(min(contrast(c, bg) for c in cs), 2)
                       for kind, cs in colours.items() if cs}
    return out


def vega_warnings(console: list[str]) -> list[str]:
    """Vega's and vega-embed's warnings among a page's console messages (LabPage.console:
    "type: text"); Vega's logger prefixes its warnings with "WARN" (issue 35: none from
    any widget, with no filter on the logger)."""
    return [c for c in console if c.startswith("warning") and
            ("WARN" in c or "extent" in c or "vega" in c.lower())]
