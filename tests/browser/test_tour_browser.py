"""README's first command, end to end: `bash dev/lab.sh` serves the notebooks on
loopback and opens the tour; in headless Chromium the whole tour runs without an
error and every widget it displays renders its charts.

The install step of dev/lab.sh is skipped (IAA_SKIP_INSTALL=1): the test command has
installed the package already, and the kernel imports this work tree (PYTHONPATH).
"""
from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import tourchecks as tc
from labdriver import REPO, LabPage, TempServer, repo_env

TOUR = "00_tour.ipynb"

CELLS_DONE = """() => {
  const nb = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  if (!nb || !nb.content || !nb.sessionContext.session) return false;
  const kernel = nb.sessionContext.session.kernel;
  const code = nb.content.widgets.filter(c => c.model.type === 'code');
  // cells out of view may not be rendered (no prompt node): read the models
  return kernel.status === 'idle' && code.length > 0 &&
         code.every(c => c.model.executionCount !== null &&
                         (c.model.executionState || 'idle') === 'idle');
}"""

NOTEBOOK_STATE = """() => {
  const nb = window.jupyterapp.shell.currentWidget;
  const outputs = nb.content.widgets.filter(c => c.model.type === 'code')
    .flatMap(c => c.model.outputs.toJSON());
  return {
    errors: outputs.filter(o => o.output_type === 'error')
                   .map(o => o.ename + ': ' + o.evalue),
    widgets: outputs.filter(o => o.data &&
               o.data['application/vnd.jupyter.widget-view+json']).length,
  };
}"""

# n: the notebook's widget outputs, ours and others' (a chart shown as Altair's widget):
# ours are there and each drew its chart
WIDGETS_DRAWN = """(n) => {
  const roots = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .iaa-widget')];
  return roots.length >= 1 && roots.length <= n && roots.every(r => r.querySelector('svg.marks'));
}"""


class LabFromScript(TempServer):
    """`bash dev/lab.sh` with a free port, no token and private settings, as a user
    would run it; `open_file` is the page it asks the browser to open."""

    def __init__(self, timeout: float = 90):
        super().__init__("iaa-tour-")
        root = self.root
        news = root / "settings" / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True)
        (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        # dev/lab.sh serves working copies (here in a temporary directory): JupyterLab
        # may save outputs into them, never into the repository's notebooks
        self.copies = root / "copies"
        self.committed = {p.name: p.read_bytes() for p in (REPO / "notebooks").glob("*.ipynb")}
        env = repo_env(IAA_SKIP_INSTALL="1", PYTHON=sys.executable,
                       IAA_NOTEBOOKS=str(self.copies), JUPYTER_RUNTIME_DIR=str(root / "runtime"))
        self.start(["bash", str(REPO / "dev" / "lab.sh"), "--no-browser", f"--port={self.port}",
                    "--ServerApp.port_retries=0", "--IdentityProvider.token=",
                    "--ServerApp.password=", f"--LabApp.user_settings_dir={root / 'settings'}",
                    f"--LabApp.workspaces_dir={root / 'workspaces'}",
                    "--LabApp.expose_app_in_browser=True"],
                   path="/api/status", log="lab.log", name="dev/lab.sh's JupyterLab", env=env,
                   timeout=timeout)
        # exec: the script's pid is the server's; it writes the page that opens the tour
        self.open_file = root / "runtime" / f"jpserver-file-to-run-{self.proc.pid}-open.html"


@pytest.fixture(scope="module")
def lab_from_script():
    lab = LabFromScript()
    yield lab
    lab.close()


def test_lab_script_serves_the_notebooks_on_loopback_only(lab_from_script):
    with urllib.request.urlopen(f"{lab_from_script.url}/api/contents") as r:
        names = {c["name"] for c in json.load(r)["content"]}
    assert TOUR in names and "01_tutorial_measures.ipynb" in names  # copies of notebooks/
    assert {p.name for p in lab_from_script.copies.glob("*.ipynb")} == set(
        lab_from_script.committed)
    out = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout
    listening = [line.split()[3] for line in out.splitlines()[1:]
                 if line.split()[3].endswith(f":{lab_from_script.port}")]
    assert listening == [f"127.0.0.1:{lab_from_script.port}"], listening


KERNEL_IDLE = """(name) => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
  return k && k.status === 'idle' && w.context.path.endsWith(name); }"""


def run_all_and_check_widgets(page: LabPage, name: str) -> int:
    """Run every cell of the open notebook; no cell may fail, and every widget it
    displays must draw its charts with no error banner and no Vega warning. Returns the
    widget count."""
    page.page.wait_for_function(KERNEL_IDLE, arg=name, timeout=60_000)
    page.run_all()
    page.page.wait_for_function(CELLS_DONE, timeout=180_000, polling=500)
    state = page.page.evaluate(NOTEBOOK_STATE)
    assert state["errors"] == [], state["errors"]
    page.page.wait_for_function(WIDGETS_DRAWN, arg=state["widgets"], timeout=60_000)
    banners = page.page.locator(".iaa-widget .iaa-error:not([hidden])")
    assert banners.count() == 0, banners.all_inner_texts()
    roots = page.page.locator(".iaa-widget")
    for i in range(roots.count()):  # one picture per widget, to look at
        roots.nth(i).scroll_into_view_if_needed()
        page.screenshot(f"{Path(name).stem}_widget_{i}.png", roots.nth(i))
    # issue 35: no Vega warning from any widget drawn (no filter on Vega's logger)
    assert tc.vega_warnings(page.console) == [], tc.vega_warnings(page.console)
    return state["widgets"]


def test_tour_opens_and_runs_with_every_widget_rendered(lab_from_script, browser, artifacts):
    assert f"lab/tree/{TOUR}" in lab_from_script.open_file.read_text()
    page = LabPage(browser, lab_from_script, artifacts, viewport=(1300, 1000))
    try:
        page.page.goto(lab_from_script.open_file.as_uri())  # what the user's browser opens
        page.page.wait_for_url(f"**/lab/tree/{TOUR}", timeout=60_000)
        assert run_all_and_check_widgets(page, TOUR) >= 4  # one of each widget class
        page.screenshot("tour_end.png")
        # saving the run tour writes its outputs into the copy, not into notebooks/
        page.page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
        copy = lab_from_script.copies / TOUR
        deadline = time.monotonic() + 30
        while not (saved := any(c.get("outputs") for c in json.loads(copy.read_text())["cells"])):
            if time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert saved, "the run tour was not saved into its working copy"
        now = {p.name: p.read_bytes() for p in (REPO / "notebooks").glob("*.ipynb")}
        assert now == lab_from_script.committed, "a committed notebook changed"
    finally:
        page.close()


@pytest.mark.parametrize("name", ["01_tutorial_measures.ipynb", "02_augmented_kappa.ipynb",
                                  "03_sparse_agreement.ipynb", "04_gamma_family.ipynb",
                                  "05_labelers_and_reviewers.ipynb"])
def test_every_notebook_runs_in_jupyterlab_with_its_widgets(lab_from_script, browser,
                                                           artifacts, name):
    page = LabPage(browser, lab_from_script, artifacts, viewport=(1300, 1000))
    try:
        # ?reset: a fresh workspace, without the tabs of the notebooks run before
        page.page.goto(f"{lab_from_script.url}/lab/tree/{name}?reset")
        assert run_all_and_check_widgets(page, name) >= 1
    finally:
        page.close()
