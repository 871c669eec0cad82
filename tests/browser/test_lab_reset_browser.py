"""The JupyterLab server the browser tests share (conftest's ``lab``: one per test
process, reset when a module ends): a closed page's kernel is shut down, and
``Lab.reset`` leaves no kernel, puts back the settings a test changed (the theme) and
forgets the workspace's tabs, so the next module's notebook opens alone, in Light."""
from __future__ import annotations

from labdriver import LabPage

THEME_IS_LIGHT = "() => document.body.dataset.jpThemeLight"
OPEN_NOTEBOOKS = ("() => [...window.jupyterapp.shell.widgets('main')]"
                  ".map(w => w.context && w.context.path).filter(Boolean)")


def test_a_closed_page_leaves_no_kernel_and_reset_leaves_a_new_server(lab, browser,
                                                                         artifacts):
    lab.write_notebook("reset_first.ipynb", ["x = 1"])
    first = LabPage(browser, lab, artifacts)
    first.open_notebook("reset_first.ipynb")
    assert "reset_first.ipynb" in [s["path"] for s in lab.sessions()]
    first.set_theme("JupyterLab Dark")  # saved in the server's user settings
    first.close()
    assert "reset_first.ipynb" not in [s["path"] for s in lab.sessions()]

    lab.write_notebook("reset_second.ipynb", ["y = 2"])
    lab.reset()
    assert lab.kernels() == []
    second = LabPage(browser, lab, artifacts)
    try:
        second.open_notebook("reset_second.ipynb")
        assert second.page.evaluate(THEME_IS_LIGHT) == "true"
        assert second.page.evaluate(OPEN_NOTEBOOKS) == ["reset_second.ipynb"]
    finally:
        second.close()
