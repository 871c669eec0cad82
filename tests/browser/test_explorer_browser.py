"""ProjectExplorer in JupyterLab + headless Chromium: it renders its panels; each kind of
click (a matrix cell, a confusion cell, an annotator, a label, a filter, the keyboard)
narrows the items table to exactly the items pandas finds here; the consensus control
makes Dawid–Skene's labels the consensus; the table never holds
more than a page; the adjudication sheet downloaded from the page round-trips through
read_adjudication; labels from the data stay text.

Data: iaa_widgets.datasets.product_reviews (seeded), with one label renamed to markup.
Expected items are computed in this process with plain pandas from the tidy rows.

Span data (the last tests): a Prodigy export opens the span explorer; its documents table
lists the documents pandas finds, a click (or Enter) draws that document's lanes with its
units per annotator and shows its text as text; the static page and the dark theme."""
from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd
import pytest

import iaa_widgets as iaa

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the pandas reference
from test_explore import expected_items  # noqa: E402

XSS = '<img src=x onerror="window.__pwned=1">'
PAGE = 10

CELLS = [
    "import iaa_widgets as iaa\n"
    "df = iaa.datasets.product_reviews(n_items=150)\n"
    f"df['label'] = df['label'].replace('mixed', {XSS!r})\n"
    "texts = df.groupby('item')['text'].first()\n"
    "ratings = df.drop(columns='text')\n"
    f"w = iaa.ProjectExplorer(ratings, text=texts, n_resamples=50, seed=1, page_size={PAGE})\n"
    "w",
]


@pytest.fixture(scope="module")
def df():
    out = iaa.datasets.product_reviews(n_items=150)
    out["label"] = out["label"].replace("mixed", XSS)
    return out.drop(columns="text")


def run_notebook(open_lab_page, name, cells, count=1, css=".iaa-explorer"):
    """A new notebook of ``cells``, run, with ``count`` widgets matching ``css`` drawn in
    it (JupyterLab also restores the notebooks opened before, whose widgets may show in
    their hidden tabs: they are not counted)."""
    page = open_lab_page(name, cells)
    page.run_all()
    page.page.wait_for_function(  # (a new kernel's imports take long on a loaded machine)
        f"() => [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) {css}')]"
        f".filter((e) => Number(e.dataset.revision) >= 1).length === {count}", timeout=240_000)
    return page


@pytest.fixture(scope="module")
def nb(open_lab_page):
    return run_notebook(open_lab_page, "explorer.ipynb", CELLS)


def widget(nb):
    return nb.page.locator(".iaa-explorer").first


def clicked(nb, action, expected):
    """Do ``action`` on the page, wait for the table to say how many items it holds, and
    check the kernel's selection and the rows shown against ``expected``."""
    before = int(widget(nb).get_attribute("data-revision"))
    action()
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-explorer').dataset.revision) > r",
        arg=before, timeout=20_000)
    assert sorted(nb.python("[str(i) for i in w.selection['item']]")) == expected
    text = widget(nb).locator(".iaa-selection").text_content()
    assert text.startswith(f"{len(expected)} item")
    shown = widget(nb).locator(".iaa-explorer-items tbody tr > :first-child").all_text_contents()
    assert len(shown) == min(PAGE, len(expected))  # one page, never more
    assert set(shown) <= set(expected)


def test_renders_panels_and_keeps_labels_as_text(nb, df):
    w = widget(nb)
    value = iaa.fleiss_kappa(df, missing="available").value
    shown = float(w.locator(".iaa-headline-value").get_attribute("data-value"))
    assert shown == pytest.approx(value, abs=1e-12)
    n = df["annotator"].nunique()
    assert w.locator(".iaa-pair-matrix button.iaa-cell").count() == n * (n - 1)
    assert w.locator(".iaa-annotators tbody tr").count() == n
    k = df["label"].nunique()
    assert w.locator(".iaa-confusion tbody tr").count() == k
    # the label made of markup is shown as its text, in every panel, and never ran
    assert w.get_by_text(XSS, exact=True).count() >= 3
    assert nb.page.evaluate("() => window.__pwned") is None
    assert w.locator(".iaa-explorer-items img").count() == 0
    nb.page.wait_for_function("() => !document.querySelector('.iaa-explorer .iaa-computing')",
                              timeout=60_000)
    tip = w.locator(".iaa-pair-matrix button.iaa-cell").first.get_attribute("data-tip")
    assert "95 % interval" in tip and "— to —" not in tip and "computing" not in tip
    assert sorted(nb.python("[str(i) for i in w.selection['item']]")) == expected_items(df)
    nb.screenshot("explorer_light.png", w, publish="explorer.png")


def test_matrix_cell_click(nb, df):
    cell = widget(nb).locator(".iaa-pair-matrix button.iaa-cell").first
    names = nb.python("w.annotator_names")
    a, b = names[int(cell.get_attribute("data-a"))], names[int(cell.get_attribute("data-b"))]
    clicked(nb, cell.click, expected_items(df, (a, b)))


def test_confusion_cell_click(nb, df):
    labels = nb.python("w.label_names")
    r, c = labels.index("neutral"), labels.index(XSS)
    cell = widget(nb).locator(f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]')
    clicked(nb, cell.click, expected_items(df, (), ("neutral", XSS)))


def test_annotator_click_then_their_confusion_cell(nb, df):
    row = widget(nb).locator('.iaa-annotators button.iaa-name', has_text="dev")
    clicked(nb, row.click, expected_items(df, ("dev",)))
    # the labels panel now shows dev against the consensus of the others
    assert "dev" in widget(nb).locator(".iaa-labels-panel h4").text_content()
    labels = nb.python("w.label_names")
    r, c = labels.index("negative"), labels.index("positive")
    cell = widget(nb).locator(f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]')
    clicked(nb, cell.click, expected_items(df, ("dev",), ("negative", "positive")))
    nb.screenshot("explorer_dev.png", widget(nb))


def test_label_click_and_filter(nb, df):
    row = widget(nb).locator('.iaa-confusion button.iaa-name', has_text="neutral")
    clicked(nb, row.click, expected_items(df, (), ("neutral",)))
    names = nb.python("w.annotator_names")
    select = widget(nb).locator("select.iaa-filter-annotator")
    # the filter keeps the label chosen before: emma against the consensus, on neutral
    clicked(nb, lambda: select.select_option(str(names.index("emma"))),
            expected_items(df, ("emma",), ("neutral",)))
    clicked(nb, widget(nb).locator("button.iaa-clear").click, expected_items(df))


def test_pages(nb, df):
    total = len(expected_items(df))
    assert total > PAGE
    before = int(widget(nb).get_attribute("data-revision"))
    widget(nb).locator("button.iaa-page-next").click()
    nb.page.wait_for_function(
        "(r) => Number(document.querySelector('.iaa-explorer').dataset.revision) > r",
        arg=before, timeout=20_000)
    shown = widget(nb).locator(".iaa-explorer-items tbody tr > :first-child").all_text_contents()
    page2 = nb.python("[str(i) for i in w.selection['item'][10:20]]")
    assert shown == page2


def test_keyboard_selects_a_cell_and_leaves_the_notebook_alone(nb, df):
    count = nb.page.locator(".jp-Notebook .jp-Cell").count()
    cell = widget(nb).locator(".iaa-pair-matrix button.iaa-cell").nth(3)
    names = nb.python("w.annotator_names")
    a, b = names[int(cell.get_attribute("data-a"))], names[int(cell.get_attribute("data-b"))]
    cell.focus()
    clicked(nb, lambda: nb.page.keyboard.press("Enter"), expected_items(df, (a, b)))
    assert nb.page.locator(".jp-Notebook .jp-Cell").count() == count
    assert nb.page.locator(".jp-Notebook .jp-Cell.jp-RawCell").count() == 0
    assert widget(nb).is_visible()


def test_adjudication_download_round_trips(nb, df, tmp_path):
    clicked(nb, widget(nb).locator('.iaa-annotators button.iaa-name', has_text="dev").click,
            expected_items(df, ("dev",)))
    with nb.page.expect_download(timeout=30_000) as info:
        widget(nb).locator("button.iaa-export-adjudication").click()
    path = tmp_path / "sheet.csv"
    info.value.save_as(path)
    sheet = pd.read_csv(path, dtype=str, keep_default_na=False)
    assert sorted(sheet["item"]) == expected_items(df, ("dev",))
    assert list(sheet.columns)[:2] == ["item", "text"] and (sheet["adjudicated"] == "").all()
    sheet["adjudicated"] = sheet["ana"].str.lstrip("'").replace("", "positive")
    sheet.to_csv(path, index=False)
    gold = iaa.read_adjudication(path, df)
    assert sorted(gold["item"]) == expected_items(df, ("dev",))
    merged = gold.merge(sheet[["item", "adjudicated"]], on="item")
    assert (merged["label"] == merged["adjudicated"]).all()


def test_legible_in_dark_theme(nb):
    # every kind of neutral text and table cell at WCAG AA (4.5:1) on JupyterLab Dark
    nb.assert_legible_in_dark(".iaa-explorer", "explorer_dark.png", kinds=("text", "table"))


def test_static_page_shows_the_panels(nb, offline, tmp_path):
    # the page to_html() writes: the panels as they were, labels as text, no request
    path = tmp_path / "explorer.html"
    nb.execute(f"w.to_html({str(path)!r})")
    page, log = offline(path)
    page.wait_for_selector(".iaa-explorer .iaa-pair-matrix", timeout=30_000)
    assert page.locator(".iaa-explorer .iaa-confusion tbody tr").count() >= 4
    assert page.get_by_text(XSS, exact=True).count() >= 1
    assert page.evaluate("() => window.__pwned") is None
    assert not log["requests"] and not log["errors"], log
    page.screenshot(path=str(path.with_suffix(".png")))


def test_consensus_control_switches_to_a_model(nb, df):
    # the consensus control: Dawid–Skene's labels become the items' consensus column, the
    # annotators' agreement and the items of a click on an annotator (pandas against
    # iaa.dawid_skene's labels, fitted here on the same rows); then back to the majority
    labels = iaa.dawid_skene(df).labels.astype(object)
    labels.index = labels.index.map(str)
    w = widget(nb)
    w.locator("select.iaa-select-consensus").select_option("dawid_skene")
    nb.page.wait_for_function(
        "() => [...document.querySelectorAll('.iaa-explorer .iaa-annotators th')]"
        ".some(th => (th.title || '').includes('Dawid–Skene'))", timeout=60_000)
    assert nb.python("w.consensus") == "dawid_skene"
    heads = w.locator(".iaa-explorer-items thead th").all_text_contents()
    at = heads.index("consensus")
    for row in w.locator(".iaa-explorer-items tbody tr").all():
        cells = row.locator("th, td").all_text_contents()
        assert cells[at] == labels[cells[0]]
    wide = df.pivot(index="item", columns="annotator", values="label")
    wide.index = wide.index.map(str)
    differ = (df.groupby("item")["label"].nunique() > 1).rename(index=str)
    cons = labels.reindex(wide.index)
    off = wide["dev"].notna() & cons.notna() & (wide["dev"] != cons) & differ.reindex(wide.index)
    if nb.python("any((w.query or {}).values())"):  # a selection left by a test before
        clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))
    clicked(nb, w.locator('.iaa-annotators button.iaa-name', has_text="dev").click,
            sorted(off[off].index))
    assert "Dawid–Skene" in w.locator(".iaa-labels-panel h4").text_content()
    nb.screenshot("explorer_dawid_skene.png", w)
    w.locator("select.iaa-select-consensus").select_option("majority")
    nb.page.wait_for_function(
        "() => [...document.querySelectorAll('.iaa-explorer .iaa-annotators th')]"
        ".some(th => (th.title || '').includes('majority of the others'))", timeout=60_000)
    clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))


def test_in_notebook7(browser, artifacts, df):
    # the same notebook in Notebook 7: it renders, and a click gives pandas' items
    from labdriver import LabPage, Notebook7
    with Notebook7() as server:
        server.write_notebook("explorer7.ipynb", CELLS)
        nb7 = LabPage(browser, server, artifacts)
        try:
            nb7.open_notebook("explorer7.ipynb")
            assert nb7.page.evaluate("() => window.jupyterapp.name") == "Jupyter Notebook"
            nb7.run_all()
            nb7.wait_for_widgets(".iaa-explorer", 1)
            name = nb7.page.locator(".iaa-explorer .iaa-annotators button.iaa-name",
                                    has_text="dev")
            clicked(nb7, name.click, expected_items(df, ("dev",)))
            nb7.screenshot("explorer_notebook7.png", widget(nb7))
        finally:
            nb7.close()


def test_in_voila(browser, artifacts, df):
    # Voila runs the notebook in its own kernel (no code from the page): a click must give
    # the count and the rows pandas finds
    pytest.importorskip("voila")
    from labdriver import Lab, TempServer, repo_env

    class Voila(TempServer):
        def __init__(self):
            super().__init__("iaa-voila-explorer-")
            Lab.write_notebook(self, "explorer.ipynb", CELLS)
            self.start([sys.executable, "-m", "voila", str(self.root / "explorer.ipynb"),
                        "--no-browser", f"--port={self.port}", "--Voila.ip=127.0.0.1",
                        "--show_tracebacks=True"],
                       path="/voila/api/shutdown/none", log="voila.log", name="Voila",
                       env=repo_env(JUPYTER_RUNTIME_DIR=str(self.root / "runtime"),
                                    JUPYTER_DATA_DIR=str(self.root / "data")))

    server = Voila()
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    try:
        page.goto(server.url, timeout=120_000)
        page.wait_for_function("() => [...document.querySelectorAll('.iaa-explorer')]"
                               ".some(e => Number(e.dataset.revision) >= 1)", timeout=120_000)
        root = page.locator(".iaa-explorer").first
        before = int(root.get_attribute("data-revision"))
        root.locator(".iaa-annotators button.iaa-name", has_text="dev").click()
        page.wait_for_function("(r) => Number(document.querySelector('.iaa-explorer')"
                               ".dataset.revision) > r", arg=before, timeout=30_000)
        expected = expected_items(df, ("dev",))
        assert root.locator(".iaa-selection").text_content().startswith(f"{len(expected)} items")
        shown = root.locator(".iaa-explorer-items tbody tr > :first-child").all_text_contents()
        assert len(shown) == PAGE and set(shown) <= set(expected)
        assert page.evaluate("() => window.__pwned") is None
        page.screenshot(path=str(artifacts / "explorer_voila.png"))
    finally:
        page.close()
        server.close()


MARIMO_APP = f'''import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import iaa_widgets as iaa
    df = iaa.datasets.product_reviews(n_items=150)
    df["label"] = df["label"].replace("mixed", {XSS!r})
    texts = df.groupby("item")["text"].first()
    explorer = iaa.ProjectExplorer(df.drop(columns="text"), text=texts, n_resamples=50,
                                   seed=1, page_size={PAGE})
    view = mo.ui.anywidget(explorer)
    view
    return explorer, mo, view


@app.cell
def _(explorer, mo, view):
    mo.md(f"selected in Python: {{len(explorer.selection)}} items, query {{view.value['query']}}")
    return


if __name__ == "__main__":
    app.run()
'''


def test_in_marimo(browser, artifacts, df):
    # under mo.ui.anywidget: a click narrows the table, and the cell reading the widget's
    # value reruns with the selection Python made
    pytest.importorskip("marimo")
    from labdriver import TempServer, repo_env

    class Marimo(TempServer):
        def __init__(self):
            super().__init__("iaa-marimo-explorer-")
            (self.root / "explorer_app.py").write_text(MARIMO_APP)
            env = repo_env(HOME=str(self.root), XDG_CONFIG_HOME=str(self.root / ".config"),
                           XDG_CACHE_HOME=str(self.root / ".cache"),
                           XDG_STATE_HOME=str(self.root / ".state"))
            self.start([sys.executable, "-m", "marimo", "run", str(self.root / "explorer_app.py"),
                        "--headless", "--no-token", "--host", "127.0.0.1", "--port",
                        str(self.port), "--no-sandbox"],
                       path="/health", log="marimo.log", name="marimo run", env=env)

    app = Marimo()
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    try:
        page.goto(app.url)
        root = page.locator(".iaa-explorer").first  # locators see into marimo's shadow root
        root.wait_for(timeout=120_000)
        assert root.get_attribute("data-host") == "marimo"
        expected = expected_items(df, ("dev",))
        root.locator(".iaa-annotators button.iaa-name", has_text="dev").click()
        page.get_by_text(f"selected in Python: {len(expected)} items").wait_for(timeout=60_000)
        assert root.locator(".iaa-selection").text_content().startswith(f"{len(expected)} items")
        shown = root.locator(".iaa-explorer-items tbody tr > :first-child").all_text_contents()
        assert len(shown) == PAGE and set(shown) <= set(expected)
        assert page.evaluate("() => window.__pwned") is None
        page.screenshot(path=str(artifacts / "explorer_marimo.png"), full_page=True)
    finally:
        page.close()
        app.close()


# ---------------------------------------------------------------- span data
# A real export (examples/exports/prodigy_hotel_ner.jsonl, two annotators) and each
# document's text from the same file: the documents listed are those pandas finds
# (tests/test_explore_spans.py's computation), a click draws that document's lanes
# with its units per annotator, and the text is shown as text.
SPAN_EXPORT = (Path(__file__).resolve().parents[2] / "examples" / "exports"
               / "prodigy_hotel_ner.jsonl")
SPAN_CELLS = [
    "import json\nimport iaa_widgets as iaa\n"
    f"path = {str(SPAN_EXPORT)!r}\n"
    "spans = iaa.read_prodigy(path)\n"
    "texts = {r['_input_hash']: r['text'] for r in map(json.loads, open(path))}\n"
    "w = iaa.ProjectExplorer(spans, text=texts)\n"
    "w",
]


@pytest.fixture(scope="module")
def spans_nb(open_lab_page):
    return run_notebook(open_lab_page, "explorer_spans.ipynb", SPAN_CELLS,
                        css=".iaa-explorer-spans")


def test_span_documents_click_shows_lanes_and_text(spans_nb):
    import json

    from test_explore_spans import expected
    nb = spans_nb
    spans = iaa.read_prodigy(SPAN_EXPORT)
    texts = {r["_input_hash"]: r["text"] for r in map(json.loads, open(SPAN_EXPORT))}
    want = expected(spans)
    want = want[(want["unmatched"] + want["mismatched"]) > 0]
    root = nb.page.locator(".iaa-explorer-spans").first
    value = float(root.locator(".iaa-headline-value").get_attribute("data-value"))
    assert value == pytest.approx(iaa.span_f1(spans).value, abs=1e-12)
    shown = root.locator(".iaa-span-documents tbody tr th").all_text_contents()
    assert sorted(shown) == sorted(str(i) for i in want["item"])
    assert root.locator(".iaa-selection").text_content().startswith(f"{len(want)} documents")
    # a click on each listed document: its lanes hold its units, per annotator
    for item in want["item"]:
        before = int(root.get_attribute("data-revision"))
        root.locator("button.iaa-doc", has_text=str(item)).click()
        nb.page.wait_for_function(
            "(r) => Number(document.querySelector('.iaa-explorer-spans').dataset.revision) > r"
            " && document.querySelector('.iaa-explorer-spans .iaa-document-panel h4')"
            f".textContent === 'Document {item}'", arg=before, timeout=20_000)
        nb.page.wait_for_function(
            "(n) => document.querySelectorAll('.iaa-explorer-spans svg g.units_marks path')"
            ".length === n", arg=int((spans.units["item"] == item).sum()), timeout=20_000)
        marks = root.locator("svg g.units_marks path")
        labels = [marks.nth(k).get_attribute("aria-label") or "" for k in range(marks.count())]
        mine = spans.units[spans.units["item"] == item]
        for name, n in mine.groupby("annotator").size().items():
            assert sum(f"annotator: {name}" in label for label in labels) == n, (name, labels)
        assert nb.python("str(w.document_panel['item'])") == str(item)
        text = root.locator(".iaa-document-text .iaa-text")
        assert text.text_content() == texts[item]
        assert text.evaluate("(e) => e.children.length") == 0  # a text node, no markup
    # a unit's tooltip: GammaExplorer's, without the γ alignment spans do not have
    root.locator("svg g.units_marks path").first.hover()
    tip = root.locator(".iaa-tooltip")
    tip.wait_for(state="visible", timeout=10_000)
    assert "category" in tip.text_content() and "alignment" not in tip.text_content()
    nb.screenshot("explorer_spans.png", root)


def test_span_document_by_keyboard_leaves_the_notebook_alone(spans_nb):
    nb = spans_nb
    count = nb.page.locator(".jp-Notebook .jp-Cell").count()
    root = nb.page.locator(".iaa-explorer-spans").first
    button = root.locator("button.iaa-doc").first
    item = button.text_content()
    nb.execute("w.document = -1")
    nb.page.wait_for_function("() => document.querySelector("
                              "'.iaa-explorer-spans .iaa-document-panel').hidden")
    button.focus()
    nb.page.keyboard.press("Enter")
    nb.page.wait_for_function(
        "(t) => document.querySelector('.iaa-explorer-spans .iaa-document-panel h4')"
        "?.textContent === t", arg=f"Document {item}", timeout=20_000)
    assert nb.python("str(w.document_panel['item'])") == item
    assert nb.page.locator(".jp-Notebook .jp-Cell").count() == count
    assert nb.page.locator(".jp-Notebook .jp-Cell.jp-RawCell").count() == 0


def test_span_static_page(spans_nb, offline, tmp_path):
    # to_html(): the documents, the document shown with its lanes, no request
    path = tmp_path / "explorer_spans.html"
    spans_nb.execute(f"w.to_html({str(path)!r})")
    page, log = offline(path)
    page.wait_for_selector(".iaa-explorer-spans svg g.units_marks path", timeout=30_000)
    want = spans_nb.python("len(w.selection)")
    assert page.locator(".iaa-span-documents tbody tr").count() == want
    assert not log["requests"] and not log["errors"], log
    page.screenshot(path=str(path.with_suffix(".png")))


def test_span_explorer_legible_in_dark_theme(spans_nb):
    spans_nb.assert_legible_in_dark(".iaa-explorer-spans", "explorer_spans_dark.png",
                                    kinds=("text", "table"))


# ---------------------------------------------------------------- issue 39
# Focus, marks, tooltips, scroll, filters (on the notebook above); numbers that reconcile
# (notebook 08's data and a two-annotator project); empty states; a project at scale
# (20 annotators); contrast in both themes.

def redrawn(nb, root, action, timeout=30_000):
    """Do ``action`` and wait until the explorer ``root`` (a locator) has redrawn."""
    handle = root.element_handle()
    before = handle.evaluate("(e) => Number(e.dataset.revision)")
    action()
    nb.page.wait_for_function("([e, r]) => Number(e.dataset.revision) > r",
                              arg=[handle, before], timeout=timeout)


def shown(nb):
    """The notebook panel on show (JupyterLab also restores the notebooks opened before,
    in hidden tabs)."""
    return nb.page.locator(".jp-NotebookPanel:not(.lm-mod-hidden)")


def listed(root) -> int:
    """The count the items summary line starts with ("1,234 items: …")."""
    return int(root.locator(".iaa-selection").text_content().split(" ")[0].replace(",", ""))


def active(nb) -> dict:
    return nb.page.evaluate("() => { const a = document.activeElement; return {"
                            " key: a.dataset.focusKey || '', tag: a.tagName, cls: a.className,"
                            " inside: !!a.closest('.iaa-explorer'), value: a.value || '' }; }")


def test_focus_stays_on_the_activated_control(nb, df):
    w = widget(nb)
    count = nb.page.locator(".jp-Notebook .jp-Cell").count()
    if nb.python("any((w.query or {}).values())"):
        clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))
    # Enter on a matrix cell: the list changes, the focus stays on that cell
    cell = w.locator(".iaa-pair-matrix button.iaa-cell").nth(2)
    key = cell.get_attribute("data-focus-key")
    cell.focus()
    redrawn(nb, w, lambda: nb.page.keyboard.press("Enter"))
    assert active(nb)["key"] == key and active(nb)["inside"]
    # the arrow keys move inside the matrix; Tab leaves it in one step
    nb.page.keyboard.press("ArrowRight")
    moved = active(nb)["key"]
    assert moved.startswith("pair:") and moved != key
    nb.page.keyboard.press("Tab")
    assert not active(nb)["key"].startswith("pair:")
    # "next ›": the focus stays on it
    nxt = w.locator("button.iaa-page-next")
    nxt.focus()
    redrawn(nb, w, lambda: nb.page.keyboard.press("Enter"))
    assert active(nb)["key"] == "next"
    # arrow keys in the annotator filter go through its options, focus kept (it shows
    # the pair last: ArrowUp goes to the last annotator, then the one before)
    pick = w.locator("select.iaa-filter-annotator")
    assert pick.input_value() == "both"
    pick.focus()
    seen = []
    for _ in range(2):
        redrawn(nb, w, lambda: nb.page.keyboard.press("ArrowUp"))
        now = active(nb)
        assert now["key"] == "filter-annotator" and now["tag"] == "SELECT"
        assert nb.python("w.query['annotators']") == [int(now["value"])]
        seen.append(now["value"])
    n = len(nb.python("w.annotator_names"))
    assert seen == [str(n - 1), str(n - 2)]
    # one tab stop per matrix and list
    stops = w.evaluate("""(root) => {
      const all = [...root.querySelectorAll('button, select, input, summary, a[href]')]
        .filter((e) => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length);
      const stops = (css) => all.filter((e) => e.matches(css)).length;
      return { all: all.length, pairs: stops('.iaa-pair-matrix button'),
               confusion: stops('.iaa-confusion button'), annotators: stops('.iaa-annotators button'),
               sort: stops('.iaa-sort') }; }""")
    assert stops["pairs"] == stops["confusion"] == stops["annotators"] == stops["sort"] == 1, stops
    assert stops["all"] <= 20, stops  # was 54
    assert nb.page.locator(".jp-Notebook .jp-Cell").count() == count
    assert nb.page.locator(".jp-Notebook .jp-Cell.jp-RawCell").count() == 0
    clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))


def test_tooltip_on_focus_and_distinct_marks(nb, df):
    w = widget(nb)
    nb.page.mouse.move(0, 0)  # (a tip under the pointer would show instead)
    cell = w.locator(".iaa-pair-matrix button.iaa-cell").first
    cell.focus()
    tip = w.locator(".iaa-focus-tip")
    tip.wait_for(state="visible", timeout=5_000)
    assert tip.text_content() == cell.get_attribute("data-tip")
    assert "95 % interval" in tip.text_content()
    # a confusion cell selected: solid frame; its mirror: dashed; hover: dotted; the
    # keyboard focus: a ring outside the cell
    labels = nb.python("w.label_names")
    r, c = labels.index("neutral"), labels.index("positive")
    picked = w.locator(f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]')
    clicked(nb, picked.click, expected_items(df, (), ("neutral", "positive")))
    style = ("(e) => { const s = getComputedStyle(e); return [s.borderTopStyle, s.outlineStyle,"
             " e.getAttribute('aria-pressed')]; }")
    picked = w.locator(f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{c}"]')
    nb.page.mouse.move(0, 0)
    mirror = w.locator(f'.iaa-confusion button.iaa-cell[data-r="{c}"][data-c="{r}"]')
    assert picked.evaluate(style)[0::2] == ["solid", "true"]
    assert mirror.evaluate(style)[0::2] == ["dashed", "false"]
    other = w.locator(f'.iaa-confusion button.iaa-cell[data-r="{r}"][data-c="{r}"]')
    other.hover()
    assert other.evaluate(style)[0] == "dotted"
    picked.focus()
    nb.page.keyboard.press("Home")  # the keyboard focus: the row's label, a ring, no frame
    focused = nb.page.evaluate("() => { const e = document.activeElement, s = getComputedStyle(e);"
                               " return [e.dataset.focusKey, s.outlineStyle, s.borderTopColor]; }")
    assert focused == [f"label:{r}", "solid", "rgba(0, 0, 0, 0)"]
    # the filters say what is applied: the two labels, and no annotator
    chosen = w.locator("select.iaa-filter-label option:checked").text_content()
    assert chosen == "neutral with positive"
    assert w.locator("select.iaa-filter-annotator").input_value() == ""
    # a pair of annotators: the annotator filter names the pair
    cell = w.locator(".iaa-pair-matrix button.iaa-cell").first
    names = nb.python("w.annotator_names")
    a, b = names[int(cell.get_attribute("data-a"))], names[int(cell.get_attribute("data-b"))]
    clicked(nb, cell.click, expected_items(df, (a, b)))
    assert w.locator("select.iaa-filter-annotator option:checked").text_content() == f"{a} and {b}"
    clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))


def test_items_scroll_resets_and_a_click_is_brought_into_view(nb, df):
    w = widget(nb)
    box = w.locator(".iaa-items-scroll")
    redrawn(nb, w, lambda: w.locator("select.iaa-page-size").select_option("50"))
    assert box.evaluate("(e) => e.scrollHeight > e.clientHeight")
    box.evaluate("(e) => { e.scrollTop = 300; }")
    assert box.evaluate("(e) => e.scrollTop") > 0
    redrawn(nb, w, w.locator("button.iaa-page-next").click)
    assert box.evaluate("(e) => e.scrollTop") == 0
    box.evaluate("(e) => { e.scrollTop = 300; }")
    redrawn(nb, w, w.locator('.iaa-annotators button.iaa-name', has_text="dev").click)
    assert box.evaluate("(e) => e.scrollTop") == 0
    redrawn(nb, w, lambda: w.locator("select.iaa-page-size").select_option("10"))
    # a narrow window: the list a click makes comes into view
    nb.page.set_viewport_size({"width": 800, "height": 700})
    try:
        name = w.locator('.iaa-annotators button.iaa-name', has_text="emma")
        name.scroll_into_view_if_needed()
        assert not w.locator(".iaa-selection").evaluate(
            "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
        redrawn(nb, w, name.click)
        nb.page.wait_for_timeout(300)  # (smooth scrolling, if any)
        inside = w.locator(".iaa-selection").evaluate(
            "(e) => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }")
        assert inside
        nb.screenshot("explorer_narrow.png")
    finally:
        nb.page.set_viewport_size({"width": 1300, "height": 900})
    clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))


def test_headline_legend_words_and_verdicts(nb):
    w = widget(nb)
    nb.page.wait_for_function("() => !document.querySelector('.iaa-explorer .iaa-computing')",
                              timeout=60_000)
    main = w.locator(".iaa-headline-main").text_content()
    assert main.startswith("Fleiss' κ = ") and "[" in main and "at least" in main
    details = w.locator(".iaa-headline details.iaa-method")
    assert details.get_attribute("open") is None  # the method behind the toggle
    assert "Gwet 2014" in details.text_content() and "Fleiss (1971)" in details.text_content()
    assert "z and p" not in w.text_content()
    # issue 45 §5: q(0.8) and the items for ±0.05, the numbers Python sent (the unit test
    # checks them against iaa.bootstrap and iaa.sample_size)
    q, items = nb.python("(w.headline['q_min'], w.headline['items_for_half_width'])")
    assert float(w.locator(".iaa-headline-q").get_attribute("data-value")) == q
    assert w.locator(".iaa-headline-items").text_content() == f"±0.05 needs {items:,} items"
    assert "probability of failing that threshold" in details.text_content()
    assert w.locator(".iaa-legend .iaa-legend-entry").count() == 2
    heads = w.locator(".iaa-explorer-items thead th").all_text_contents()
    assert "pairs agreeing" in heads[2] and "ratings" in heads[3]
    assert not {"agreement", "n_ratings"} & {h.strip(" ▲▼") for h in heads}
    head = w.locator(".iaa-loo-head")
    assert head.text_content() == "Δ Fleiss' κ without them"
    assert head.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # not cut
    # a verdict only where the whole interval is beyond ±0.02, and the caption says so
    assert "±0.02" in w.locator(".iaa-annotators-panel .iaa-caption").text_content()
    rows = nb.python("[(w.annotator_names[r['code']], r['delta_low'], r['delta_high'])"
                     " for r in w.annotators_panel['rows']]")
    for name, low, high in rows:
        row = w.locator(f'.iaa-annotators tr[data-code="{nb.python("w.annotator_names").index(name)}"]')
        verdict = row.locator(".iaa-verdict")
        want = "drags agreement down" if low > 0.02 else "lifts agreement" if high < -0.02 else ""
        assert (verdict.text_content().strip() if verdict.count() else "") == want, name
    # ties and missing ratings say which is which
    key = w.locator(".iaa-items-key").text_content()
    assert "—: the annotator did not rate the item" in key and "tie: no majority" in key
    page = nb.python("w.items_page")
    at = page["columns"].index("consensus")
    ties = sum(row[at] == "" for row in page["rows"])
    assert w.locator(".iaa-explorer-items td.iaa-blank", has_text="tie").count() == ties


CONTRAST = """(css) => {
  const root = document.querySelector(css);
  const parse = (s) => { const m = /rgba?\\(([^)]+)\\)/.exec(s); if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  const background = (el) => { const layers = [];
    for (let n = el; n; n = n.parentElement) { const c = parse(getComputedStyle(n).backgroundColor);
      if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; } }
    let bg = [255, 255, 255, 1]; for (const c of layers.reverse()) bg = over(c, bg); return bg; };
  const lum = (c) => { const l = c.slice(0, 3).map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]; };
  const out = [];
  for (const el of root.querySelectorAll('*')) {
    if (!el.getClientRects().length || el.closest('[disabled], option, [hidden]')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    const bg = background(el); const fg = over(parse(getComputedStyle(el).color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push({ text: el.textContent.trim().slice(0, 30), cls: String(el.className),
               ratio: (a + 0.05) / (b + 0.05) }); }
  return out; }"""


def contrast_of(nb):
    """Every visible piece of text of the first explorer, with its WCAG contrast ratio
    against the background it is drawn on (the computed colours of the element and its
    ancestors, semi-transparent ones composited)."""
    return nb.page.evaluate(CONTRAST, ".iaa-explorer")


def test_contrast_in_both_themes(nb, df):
    """Issue 39: small text at 4.5:1 or more (WCAG 2.1 AA, 1.4.3) in JupyterLab Light and
    Dark, computed here from the computed styles: verdicts and differing labels (orange),
    the shared-item counts of the matrix, the confusion diagonal, cells on their colours."""
    w = widget(nb)
    clicked(nb, w.locator('.iaa-annotators button.iaa-name', has_text="dev").click,
            expected_items(df, ("dev",)))  # dev's confusion: its diagonal is shown
    w.locator(".iaa-headline details summary").click()  # the method's text too
    worst = {}
    for theme in ("JupyterLab Light", "JupyterLab Dark"):
        if theme.endswith("Dark"):
            redrawn(nb, w, lambda: nb.set_theme(theme))
        texts = contrast_of(nb)
        kinds = {"verdict": "iaa-verdict", "differing label": "iaa-off", "shared items": "iaa-cell-n",
                 "diagonal": "iaa-diagonal"}
        for kind, cls in kinds.items():
            assert any(cls in t["cls"] for t in texts), (theme, kind)
        low = [t for t in texts if t["ratio"] < 4.5]
        assert not low, (theme, low[:5])
        worst[theme] = round(min(t["ratio"] for t in texts), 2)
        nb.screenshot(f"explorer_contrast_{theme.split()[-1].lower()}.png", w)
    nb.set_theme("JupyterLab Light")
    w.locator(".iaa-headline details summary").click()
    clicked(nb, w.locator("button.iaa-clear").click, expected_items(df))
    print("lowest contrast", worst)


# ---------------------------------------------------------------- counts = lists
RECONCILE_CELLS = [
    "import iaa_widgets as iaa\n"
    "ratings = iaa.datasets.product_reviews().drop(columns='text')  # notebook 08's data\n"
    "w8 = iaa.ProjectExplorer(ratings, n_resamples=20, seed=0, page_size=10)\n"
    "w8",
    "two = ratings[ratings['annotator'].isin(['ana', 'dev'])]\n"
    "w2 = iaa.ProjectExplorer(two, n_resamples=20, seed=0, page_size=10)\n"
    "w2",
]


@pytest.fixture(scope="module")
def reconcile_nb(open_lab_page):
    return run_notebook(open_lab_page, "explorer_reconcile.ipynb", RECONCILE_CELLS, count=2)


@pytest.mark.parametrize("index", [0, 1], ids=["notebook08", "two_annotators"])
def test_counts_shown_equal_the_lists_shown(reconcile_nb, index):
    """Issue 39: every annotator's "n differ" and every confusion cell's count, as shown,
    equals the number of items its click lists (the summary line the page shows); on
    notebook 08's data (five annotators) and on two annotators (each against the other)."""
    nb = reconcile_nb
    root = shown(nb).locator(".iaa-explorer").nth(index)
    n = root.locator(".iaa-annotators button.iaa-name").count()
    checked = 0
    for j in range(n):
        name = root.locator(".iaa-annotators button.iaa-name").nth(j)
        code = name.evaluate("(e) => e.closest('tr').dataset.code")
        redrawn(nb, root, name.click)
        differ = root.locator(f'.iaa-annotators tr[data-code="{code}"] td.iaa-consensus-share')
        assert int(differ.get_attribute("data-n-differ")) == listed(root), (index, code)
        cells = root.locator('.iaa-confusion button.iaa-cell:not([aria-disabled="true"])')
        for k in range(cells.count()):
            cell = cells.nth(k)
            want = int(cell.get_attribute("data-n"))
            redrawn(nb, root, cell.click)
            assert listed(root) == want, (index, code, cell.get_attribute("data-focus-key"))
            checked += 1
    redrawn(nb, root, root.locator("button.iaa-clear").click)
    cells = root.locator('.iaa-confusion button.iaa-cell:not([aria-disabled="true"])')
    for k in range(cells.count()):
        cell = cells.nth(k)
        want = int(cell.get_attribute("data-n"))
        redrawn(nb, root, cell.click)
        assert listed(root) == want, (index, cell.get_attribute("data-focus-key"))
        checked += 1
    assert checked >= 10
    redrawn(nb, root, root.locator("button.iaa-clear").click)


# ---------------------------------------------------------------- empty states
EMPTY_CELLS = [
    "import iaa_widgets as iaa\n"
    "ratings = iaa.datasets.product_reviews(n_items=60).drop(columns='text')\n"
    "same = ratings.assign(label=ratings.groupby('item')['label'].transform('first'))\n"
    "ws = iaa.ProjectExplorer(same, n_resamples=20)\n"
    "ws",
    "w1 = iaa.ProjectExplorer(ratings[ratings['annotator'] == 'dev'])\nw1",
    "w0 = iaa.ProjectExplorer(ratings.iloc[:0])\nw0",
]


def test_empty_states_explain_themselves(open_lab_page):
    nb = run_notebook(open_lab_page, "explorer_empty.ipynb", EMPTY_CELLS, count=3)
    still, one, empty = (shown(nb).locator(".iaa-explorer").nth(k) for k in range(3))
    nb.page.wait_for_function("() => !document.querySelector('.iaa-explorer .iaa-loo')"
                              "?.textContent.includes('computing')", timeout=60_000)
    assert "no interval: no variation" in still.locator(".iaa-headline-main").text_content()
    assert still.locator(".iaa-still").text_content() == \
        "all annotators agree on every item: nothing to adjudicate"
    assert all("no interval: no variation" in t for t in
               still.locator(".iaa-annotators td.iaa-loo").all_text_contents())
    assert still.locator(".iaa-error").is_hidden()
    assert still.locator(".iaa-selection").text_content().startswith("0 items")
    assert still.locator("button.iaa-export-csv").is_disabled()
    assert still.locator("button.iaa-export-adjudication").is_disabled()
    assert "Only one annotator (dev)" in one.locator(".iaa-empty").text_content()
    assert "The table is empty" in empty.locator(".iaa-empty").text_content()
    assert "Traceback" not in shown(nb).text_content()
    assert shown(nb).locator(".jp-OutputArea-output[data-mime-type="
                             "'application/vnd.jupyter.stderr']").count() == 0
    nb.screenshot("explorer_empty_states.png", shown(nb).locator(".jp-Notebook"))


GROUP_CELLS = [
    "import iaa_widgets as iaa\n"
    "g = iaa.datasets.product_reviews(n_items=150).drop(columns='text')\n"
    "order = {item: k for k, item in enumerate(g['item'].unique())}\n"
    "g['batch'] = ['<b>first</b>' if order[i] < 75 else 'second' for i in g['item']]\n"
    "wg = iaa.ProjectExplorer(g, group='batch', n_resamples=50, seed=1)\n"
    "wg",
]


def test_groups_panel_compares_the_groups(open_lab_page):
    """Issue 45 §5: group= adds a panel comparing the headline measure across groups
    (compare(by=): each group's value and interval, Fleiss' 1981 homogeneity χ²); what it
    shows is what Python computed, and a group's name is text."""
    nb = run_notebook(open_lab_page, "explorer_groups.ipynb", GROUP_CELLS)
    root = shown(nb).locator(".iaa-explorer").first
    nb.page.wait_for_function("() => document.querySelector('.iaa-explorer .iaa-groups-test')",
                              timeout=90_000)
    panel = nb.python("wg.groups_panel")
    rows = root.locator(".iaa-groups tbody tr")
    assert rows.count() == 2
    assert rows.locator("th").all_text_contents() == ["<b>first</b>", "second"]
    shown_values = [float(v) for v in rows.locator("td[data-value]").evaluate_all(
        "(cells) => cells.map((c) => c.dataset.value)")]
    assert shown_values == [r["estimate"] for r in panel["rows"]]
    test = root.locator(".iaa-groups-test")
    assert float(test.get_attribute("data-p")) == panel["p_value"]
    assert test.text_content().startswith(f"χ² = {panel['statistic']:.3f} on 1 df")
    assert root.locator(".iaa-groups-panel b").count() == 0  # the name stayed text
    nb.screenshot("explorer_groups.png", root)


# ---------------------------------------------------------------- at scale
SCALE_CELLS = [
    "import numpy as np, pandas as pd\nimport iaa_widgets as iaa\n"
    "rng = np.random.default_rng(0)\n"
    "n, J = 1500, 26\n"  # a matrix wider than its box's 60em whatever JupyterLab's sidebar
    "truth = rng.integers(0, 4, n)\n"
    "item, who = np.nonzero(rng.random((n, J)) < 0.7)\n"
    "noise = rng.random(len(item)) < 0.25\n"
    "label = np.where(noise, rng.integers(0, 4, len(item)), truth[item])\n"
    "big = pd.DataFrame({'item': [f'i{i:04d}' for i in item],\n"
    "                    'annotator': [f'a{j:02d}' for j in who],\n"
    "                    'label': np.array(['a', 'b', 'c', 'd'])[label]})\n"
    "wb = iaa.ProjectExplorer(big, n_resamples=20, page_size=25)\n"
    "wb",
]


@pytest.fixture(scope="module")
def scale_nb(open_lab_page):
    return run_notebook(open_lab_page, "explorer_scale.ipynb", SCALE_CELLS)


def test_sticky_headers_at_scale(scale_nb):
    nb = scale_nb
    root = shown(nb).locator(".iaa-explorer").first
    for box_css, head_css, side_css in (
            (".iaa-matrix-scroll", ".iaa-pair-matrix thead th:nth-child(3)",
             ".iaa-pair-matrix tbody tr:nth-child(3) th"),
            (".iaa-items-scroll", ".iaa-explorer-items thead th:nth-child(3)",
             ".iaa-explorer-items tbody tr:nth-child(3) th")):
        box = root.locator(box_css)
        assert box.evaluate("(e) => e.scrollHeight > e.clientHeight && e.scrollWidth > e.clientWidth"), box_css
        box.evaluate("(e) => { e.scrollTop = 150; e.scrollLeft = 200; }")
        top = box.evaluate("(e) => e.getBoundingClientRect().top")
        left = box.evaluate("(e) => e.getBoundingClientRect().left")
        assert abs(root.locator(head_css).bounding_box()["y"] - top) <= 1.5, box_css
        assert abs(root.locator(side_css).bounding_box()["x"] - left) <= 1.5, box_css
        box.evaluate("(e) => { e.scrollTop = 0; e.scrollLeft = 0; }")
    nb.screenshot("explorer_scale.png", root)


def test_finding_items_at_scale(scale_nb):
    nb = scale_nb
    root = shown(nb).locator(".iaa-explorer").first
    caption = root.locator(".iaa-headline .iaa-caption").text_content()
    ratings = nb.python("wb._project.ann.n_ratings")
    assert f"{ratings:,} ratings" in caption and "1,500 items" in caption
    total = nb.python("len(wb.selection)")
    assert total > 1000
    assert root.locator(".iaa-selection").text_content().startswith(f"{total:,} items")
    assert root.locator(".iaa-page-of").text_content() == f"page 1 of {-(-total // 25):,}"
    # jump to an item id: its page opens, its row is marked
    target = nb.python("str(wb.selection['item'].iloc[60])")
    root.locator("input.iaa-jump").fill(target)
    redrawn(nb, root, lambda: root.locator("input.iaa-jump").press("Enter"))
    assert root.locator(".iaa-page-of").text_content().startswith("page 3 of")
    assert root.locator("tr.iaa-highlight > th").text_content() == target
    root.locator("input.iaa-jump").fill("nothing-like-it")
    redrawn(nb, root, lambda: root.locator("input.iaa-jump").press("Enter"))
    assert root.locator(".iaa-notice").text_content() == "there is no item nothing-like-it in the data"
    # the page-size control
    redrawn(nb, root, lambda: root.locator("select.iaa-page-size").select_option("100"))
    assert root.locator(".iaa-explorer-items tbody tr").count() == 100
    assert nb.python("wb.page_size") == 100
    # a sortable column: the whole selection, in Python; twice: descending
    sort = root.locator("button.iaa-sort", has_text="ratings")
    redrawn(nb, root, sort.click)
    redrawn(nb, root, root.locator("button.iaa-sort", has_text="ratings").click)
    assert nb.python("[wb.sort_by, wb.sort_descending]") == ["n_ratings", True]
    first = root.locator(".iaa-explorer-items tbody tr > :first-child").all_text_contents()
    assert first == nb.python("[str(i) for i in wb.selection['item'][:100]]")
    assert root.locator('th[aria-sort="descending"]').count() == 1
    redrawn(nb, root, root.locator("button.iaa-sort", has_text="pairs agreeing").click)
    redrawn(nb, root, lambda: root.locator("select.iaa-page-size").select_option("25"))


def test_exports_at_scale(scale_nb, tmp_path):
    nb = scale_nb
    root = shown(nb).locator(".iaa-explorer").first
    # "preparing…" and a disabled button while Python makes the file
    root.evaluate("""(e) => { window.__statuses = [];
      new MutationObserver(() => window.__statuses.push([
        e.querySelector('.iaa-download-status').textContent,
        e.querySelector('button.iaa-export-csv').disabled]))
        .observe(e.querySelector('.iaa-downloads'), { subtree: true, childList: true,
                                                      characterData: true, attributes: true }); }""")
    with nb.page.expect_download(timeout=60_000) as info:
        root.locator("button.iaa-export-csv").click()
    path = tmp_path / "selection.csv"
    info.value.save_as(path)
    assert len(pd.read_csv(path)) == nb.python("len(wb.selection)")
    root.locator(".iaa-download-status", has_text="ready").wait_for(timeout=30_000)
    statuses = nb.page.evaluate("() => window.__statuses")
    assert [" preparing…", True] in statuses, statuses
    assert not root.locator("button.iaa-export-csv").is_disabled()
    # nothing of the file stays in the page
    assert nb.page.locator("[data-csv], a.iaa-download").count() == 0
    # a large selection: written by Python to the working directory
    nb.execute("wb.download_limit = 1000")
    root.locator("button.iaa-export-adjudication").click()
    done = root.locator(".iaa-download-status", has_text="written by Python")
    done.wait_for(timeout=60_000)
    written = done.text_content().split(" to ", 1)[1].split(" (too large")[0]
    assert nb.python(f"len(__import__('pandas').read_csv({written!r}))") == \
        nb.python("len(wb.selection)")
    nb.execute(f"import os; os.remove({written!r}); wb.download_limit = 5_000_000")
