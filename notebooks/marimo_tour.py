import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    import iaa_widgets as iaa
    from iaa_widgets import datasets
    return datasets, iaa, mo


@app.cell
def _(mo):
    mo.md(r"""
    # A tour of `iaa_widgets` in marimo

    The same flow as `00_tour.ipynb`: **tidy table** (item, annotator, label) →
    **a measure** (a plain function) → **a result** → **a widget** that recomputes it live.

    In marimo, wrap a widget in `mo.ui.anywidget(...)`: it then behaves like any marimo
    UI element, and a cell that reads its `.value` runs again whenever you move one of
    its controls. Each widget below is followed by such a cell, which reads the number
    Python has just computed.

    Open this file with `marimo edit notebooks/marimo_tour.py` (or `marimo run` for the
    app view) in an environment where `iaa_widgets` is installed.
    """)
    return


@app.cell
def _(datasets, iaa, mo):
    ratings = datasets.meyer_relatedness()  # ten word pairs, three raters (Meyer's tutorial)
    kappa = iaa.cohen_kappa(ratings[ratings["annotator"].isin(["r1", "r2"])])
    mo.md(f"""
    ## One table, many coefficients

    Cohen's κ of raters r1 and r2: **{kappa.value:.3f}** (A_o = {kappa.observed:.2f},
    A_e = {kappa.expected:.2f}). A result keeps the counts it used and what it excluded.
    """)
    return (ratings,)


@app.cell
def _(iaa, mo, ratings):
    mo.md("""
    ## The ContingencyMatrix widget

    A click on a cell adds an item, a shift-click removes one; every coefficient is
    recomputed in Python and redrawn.
    """)
    matrix = mo.ui.anywidget(iaa.ContingencyMatrix(ratings, pair=["r1", "r2"], editable=True))
    matrix
    return (matrix,)


@app.cell
def _(matrix, mo):
    # `matrix.value` is the widget's synced state: this cell runs again after each edit
    _counts = matrix.value["matrix"]
    _kappa = matrix.widget.result["cohen_kappa"].value  # the same function as iaa.cohen_kappa
    mo.md(f"Counts {_counts}: Cohen's κ computed in Python = **{_kappa:.4f}**")
    return


@app.cell
def _(datasets, iaa, mo):
    mo.md("""
    ## Primary and secondary labels: augmented κ

    Weighting a primary label p and a secondary 1 − p gives κ′(p) (Rosenberg &
    Binkowski 2004). Move p, δ or τ; click a class to read its messages.
    """)
    sweep = mo.ui.anywidget(iaa.AugmentedKappaSweep(datasets.email_types(), rank="rank"))
    sweep
    return (sweep,)


@app.cell
def _(mo, sweep):
    _s = sweep.value["summary"]
    mo.md(f"At p = {_s['p']:.2f}: κ′ computed in Python = **{_s['kappa']:.4f}**")
    return


@app.cell
def _(datasets, iaa, mo):
    mo.md("""
    ## Sparse labels: SPA

    25 workers, each labelling some of 1,500 posts. The drop slider removes labels at
    random and shows how far SPA moves under each weighting scheme.
    """)
    sparse = mo.ui.anywidget(iaa.SparseAgreementExplorer(datasets.crowd_labels()))
    sparse
    return (sparse,)


@app.cell
def _(mo, sparse):
    _row = {r["scheme"]: r for r in sparse.value["summary"]}["annotations_m1"]
    mo.md(f"Dropping {sparse.value['drop']:.0%} of the labels, SPA (k = n − 1) varies "
          f"with sd = **{_row['sd']:.4f}** over {_row['n_rounds']:.0f} rounds")
    return


@app.cell
def _(datasets, iaa, mo):
    mo.md("""
    ## Units on a continuum: γ

    Three annotators mark argument units in a text. γ aligns the units; the positional
    weight counts where they start and end, the categorical weight their categories
    (Mathet et al. 2015 call them α and β, unrelated to Krippendorff's α). Each change
    recomputes γ in a worker thread.
    """)
    gamma = mo.ui.anywidget(iaa.GammaExplorer(datasets.argument_units(), seed=1))
    gamma
    return (gamma,)


@app.cell
def _(gamma, mo):
    _positional = gamma.value["alpha"]  # reading .value: this cell runs again when a slider moves
    # γ is computed in the widget's worker thread: wait for the result of these parameters
    _result = gamma.wait(timeout=120)
    mo.md(f"γ computed in Python = **{_result.gamma.value:.4f}** "
          f"(positional weight = {_positional:g})")
    return


if __name__ == "__main__":
    app.run()
