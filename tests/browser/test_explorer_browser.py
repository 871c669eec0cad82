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


@pytest.fixture(scope="module")
def nb(open_lab_page):
    page = open_lab_page("explorer.ipynb", CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-explorer", 1)
    return page


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
    shown = widget(nb).locator(".iaa-explorer-items tbody tr td:first-child").all_text_contents()
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
    title = w.locator(".iaa-pair-matrix button.iaa-cell").first.get_attribute("title")
    assert "95 % interval" in title and "— to —" not in title
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
    shown = widget(nb).locator(".iaa-explorer-items tbody tr td:first-child").all_text_contents()
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
        cells = row.locator("td").all_text_contents()
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
        shown = root.locator(".iaa-explorer-items tbody tr td:first-child").all_text_contents()
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
        shown = root.locator(".iaa-explorer-items tbody tr td:first-child").all_text_contents()
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
    page = open_lab_page("explorer_spans.ipynb", SPAN_CELLS)
    page.run_all()
    page.wait_for_widgets(".iaa-explorer-spans", 1)
    return page


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
        ".textContent === t", arg=f"Document {item}", timeout=20_000)
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
