"""Drive JupyterLab in headless Chromium with Playwright (used by the browser tests
and by benchmarks/bench_widgets_browser.py; no pytest here).

`Lab` starts one JupyterLab server on loopback (free port, no token, a temporary root
and settings directory); `LabPage` opens a notebook in it, runs all cells, sends code
to the kernel and reads Python-side state back as JSON. Facts behind the choices: the
project's notes on browser tests (system Chromium with these flags; `window.jupyterapp`).
"""
from __future__ import annotations

import http.cookiejar
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS_SCREENSHOTS = REPO / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


def stop(proc: subprocess.Popen) -> None:
    """End a server process: terminate it, kill it if it has not stopped in 15 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def repo_env(**extra: str) -> dict:
    """The environment with this work tree first on PYTHONPATH (servers and kernels
    import the package from it, installed or not), plus ``extra``."""
    path = os.pathsep.join(p for p in (str(REPO), os.environ.get("PYTHONPATH")) if p)
    return dict(os.environ, PYTHONPATH=path, **extra)


def start_server(argv: list[str], *, url: str, log: Path, name: str, env: dict | None = None,
                 cwd: Path | None = None, timeout: float = 90):
    """Start a server (``argv``, output to the file ``log``) and wait until ``url``
    answers, with any HTTP status; returns (process, open log file). A server that exits
    or does not answer in ``timeout`` seconds is stopped, and the error quotes its log."""
    out = open(log, "w")
    proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, cwd=cwd)
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None or time.monotonic() > deadline:
            stop(proc)
            out.close()
            raise RuntimeError(f"{name} did not come up: {Path(log).read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return proc, out
        except urllib.error.HTTPError:  # an answer: the server is up
            return proc, out
        except OSError:
            time.sleep(0.3)


class TempServer:
    """A server of the tests in a temporary directory of its own (``root``), on a free
    loopback port (``url``): a subclass prepares the directory, then calls :meth:`start`."""

    def __init__(self, prefix: str):
        self.tmp = tempfile.TemporaryDirectory(prefix=prefix)
        self.root = Path(self.tmp.name)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def start(self, argv: list[str], *, path: str, log: str, name: str, env: dict,
              timeout: float = 90) -> None:
        """:func:`start_server` in ``root``, answering at ``url + path``, output to the
        file ``log`` in ``root``; the directory goes if it does not come up."""
        try:
            self.proc, self.log = start_server(argv, url=self.url + path, log=self.root / log,
                                               name=name, env=env, cwd=self.root,
                                               timeout=timeout)
        except RuntimeError:
            self.tmp.cleanup()
            raise

    def close(self) -> None:
        stop(self.proc)
        self.log.close()
        self.tmp.cleanup()


class Lab:
    """A JupyterLab server for the tests: ``with Lab() as lab: lab.url``; a notebook
    opens at ``{url}/{tree}/{name}``."""

    app = "jupyterlab"  # python -m <app>; its settings options are --LabApp.*
    tree = "lab/tree"

    def __init__(self, root: Path | None = None, timeout: float = 90):
        self._tmp = None if root else tempfile.TemporaryDirectory(prefix="iaa-lab-")
        self.root = Path(root or self._tmp.name)
        self.timeout = timeout
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> "Lab":
        settings = self.root / ".settings"
        self._write_settings()
        try:
            app = "LabApp" if self.app == "jupyterlab" else "JupyterNotebookApp"
            self.proc, self.log = start_server(
                [sys.executable, "-m", self.app, "--no-browser", "--ServerApp.ip=127.0.0.1",
                 f"--ServerApp.port={self.port}", "--ServerApp.port_retries=0",
                 "--IdentityProvider.token=", "--ServerApp.password=",
                 f"--ServerApp.root_dir={self.root}", f"--{app}.user_settings_dir={settings}",
                 f"--{app}.workspaces_dir={self.root / '.workspaces'}",
                 f"--{app}.expose_app_in_browser=True", "--allow-root"],
                url=f"{self.url}/api/status", log=self.root / ".jupyterlab.log",
                name=self.app, env=repo_env(JUPYTER_RUNTIME_DIR=str(self.root / ".runtime")),
                cwd=self.root, timeout=self.timeout)
        except RuntimeError:
            if self._tmp:
                self._tmp.cleanup()
            raise
        return self

    def _write_settings(self) -> None:
        """The user settings the server starts with."""
        news = self.root / ".settings" / "@jupyterlab" / "apputils-extension"
        news.mkdir(parents=True, exist_ok=True)
        # the "Jupyter news" notification would cover the page
        (news / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')

    def _api(self, method: str, path: str):
        """Call the server's REST API; the decoded JSON answer (None when empty, or when
        what a DELETE names is gone already). A request that changes something carries
        the XSRF cookie the app's page sets, as a browser's does."""
        if not hasattr(self, "_client"):
            cookies = http.cookiejar.CookieJar()
            self._client = urllib.request.build_opener(
                urllib.request.HTTPCookieProcessor(cookies))
            self._client.open(f"{self.url}/{self.tree.split('/')[0]}", timeout=30).close()
            self._xsrf = next(c.value for c in cookies if c.name == "_xsrf")
        request = urllib.request.Request(f"{self.url}/api/{path}", method=method,
                                         headers={"X-XSRFToken": self._xsrf})
        try:
            with self._client.open(request, timeout=30) as answer:
                body = answer.read()
        except urllib.error.HTTPError as e:
            if method == "DELETE" and e.code == 404:
                return None
            raise
        return json.loads(body) if body else None

    def sessions(self) -> list[dict]:
        """The server's sessions (a notebook's ``path`` and its ``kernel``)."""
        return self._api("GET", "sessions")

    def kernels(self) -> list[dict]:
        """The server's running kernels."""
        return self._api("GET", "kernels")

    def shut_down_kernels(self, path: str | None = None) -> None:
        """Shut down the kernel of notebook ``path`` (its session), or every kernel of
        the server when ``path`` is None."""
        for session in self.sessions():
            if path is None or session["path"] == path:
                self._api("DELETE", f"sessions/{session['id']}")
        if path is None:
            for kernel in self.kernels():
                self._api("DELETE", f"kernels/{kernel['id']}")

    def reset(self) -> None:
        """Make a long-lived server as a new one to its next user: every kernel shut down,
        the user settings (a theme chosen by a test) and the saved workspaces (tabs that
        would open again with the next notebook) as :meth:`__enter__` left them. The
        notebooks written stay."""
        self.shut_down_kernels()
        shutil.rmtree(self.root / ".settings", ignore_errors=True)
        self._write_settings()
        shutil.rmtree(self.root / ".workspaces", ignore_errors=True)

    def log_text(self) -> str:
        self.log.flush()
        return (self.root / ".jupyterlab.log").read_text()[-3000:]

    def __exit__(self, *exc) -> None:
        stop(self.proc)
        self.log.close()
        if self._tmp:
            self._tmp.cleanup()

    def write_notebook(self, name: str, cells: list[str]) -> str:
        import nbformat
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                     "language": "python"}
        nbformat.write(nb, self.root / name)
        return name


class Notebook7(Lab):
    """A Notebook 7 server (``python -m notebook``), set up as :class:`Lab`."""

    app = "notebook"
    tree = "notebooks"


def launch_browser(playwright):
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                      args=CHROMIUM_FLAGS)


_KERNEL_EXEC = """
async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({ code, store_history: false, silent: false });
  let out = "", err = null;
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === "stream") out += msg.content.text;
    if (t === "error") err = msg.content.ename + ": " + msg.content.evalue;
  };
  await future.done;
  return { out, err };
}
"""


def luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of a CSS ``rgb(...)``/``rgba(...)`` colour."""
    r, g, b = [int(float(v)) / 255 for v in rgb[rgb.index("(") + 1:rgb.index(")")].split(",")[:3]]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(fg: str, bg: str) -> float:
    """WCAG contrast ratio of two CSS colours (4.5 is the minimum for body text)."""
    a, b = sorted((luminance(fg), luminance(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


# The page background behind a widget and the colours of its neutral text, by kind.
_NEUTRAL_TEXT_COLOURS = """(css) => {
  const root = document.querySelector(css);
  let node = root, background = 'rgba(0, 0, 0, 0)';
  while (node && /rgba\\(0, 0, 0, 0\\)|transparent/.test(background)) {
    background = getComputedStyle(node).backgroundColor; node = node.parentElement; }
  const fill = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).fill);
  const color = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).color);
  const stroke = (sel) => [...root.querySelectorAll(sel)].map(e => getComputedStyle(e).stroke);
  return { background, text: [getComputedStyle(root).color],
           table: color('th, td'), label: color('label'),
           axis: fill('g.role-axis-label text, g.role-axis-title text'),
           legend: fill('g.role-legend-label text, g.role-legend-title text'),
           rule: stroke('g.role-mark.mark-rule line, g.role-mark.mark-rule path') };
}"""


class LabPage:
    """A Playwright page showing one notebook of a :class:`Lab`."""

    def __init__(self, browser, lab: Lab, artifacts: Path | None = None,
                 viewport=(1300, 900)):
        self.lab = lab
        self.artifacts = artifacts
        self.page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
        self.console: list[str] = []
        self.page.on("console", lambda m: self.console.append(f"{m.type}: {m.text}"))
        self.page.on("pageerror", lambda e: self.console.append(f"pageerror: {e}"))
        self.requests: list[str] = []  # every URL the page asked for
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.notebook: str | None = None  # the notebook open_notebook opened

    def open_notebook(self, name: str, timeout: float = 60_000) -> None:
        self.notebook = name
        self.page.goto(f"{self.lab.url}/{self.lab.tree}/{name}")
        self.page.wait_for_function(
            "() => { const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;"
            " const k = w && w.sessionContext && w.sessionContext.session &&"
            " w.sessionContext.session.kernel;"
            " return k && k.status === 'idle' && w.context.path.endsWith(%s); }"
            % json.dumps(name), timeout=timeout)

    def run_all(self) -> None:
        self.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")

    def wait_for_widgets(self, css: str, count: int,
                         ready: str = "Number(e.dataset.revision) >= 1",
                         timeout: float = 90_000) -> None:
        """Wait until ``count`` widgets matching ``css`` satisfy ``ready`` (a JS
        expression of the widget's root element ``e``; by default: drawn once)."""
        self.page.wait_for_function(
            f"() => [...document.querySelectorAll({css!r})].filter(e => {ready}).length"
            f" === {count}", timeout=timeout)

    def execute(self, code: str) -> str:
        """Run ``code`` in the notebook's kernel; return its stdout (raise on error)."""
        res = self.page.evaluate(_KERNEL_EXEC, code)
        if res["err"]:
            raise RuntimeError(f"kernel error: {res['err']}\n{code}")
        return res["out"]

    def python(self, expression: str):
        """The value of a Python expression in the kernel, through JSON."""
        out = self.execute(f"import json as _j\nprint(_j.dumps({expression}))")
        return json.loads(out.strip().splitlines()[-1])

    def set_theme(self, theme: str) -> None:
        self.page.evaluate("(t) => window.jupyterapp.commands.execute("
                           "'apputils:change-theme', { theme: t })", theme)
        light = "true" if "Light" in theme else "false"
        self.page.wait_for_function(
            f"() => document.body.dataset.jpThemeLight === '{light}'", timeout=30_000)
        # JupyterLab shows its splash screen (fading) while it switches themes
        self.page.wait_for_function("() => !document.querySelector('#jupyterlab-splash')",
                                    timeout=30_000)

    def shows_error_then_recovers(self, widget, bad: str, message: str, good: str,
                                  timeout: float = 10_000) -> None:
        """Run ``bad`` in the kernel: ``widget`` shows an error banner holding
        ``message``; run ``good``: the banner goes away."""
        self.execute(bad)
        banner = widget.locator(".iaa-error")
        banner.wait_for(state="visible", timeout=10_000)
        assert message in banner.text_content()
        self.execute(good)
        banner.wait_for(state="hidden", timeout=timeout)

    def assert_legible_in_dark(self, css: str, screenshot: str,
                               kinds=("text", "table", "axis")) -> None:
        """WCAG AA in JupyterLab Dark: every kind of neutral text and rule of the widget,
        and at least the ``kinds`` (its text, table cells and axis labels by default), at
        4.5:1 or more."""
        worst = self.dark_theme_contrast(css, screenshot)
        assert set(kinds) <= worst.keys(), worst
        assert min(worst.values()) >= 4.5, worst

    def dark_theme_contrast(self, css: str, screenshot: str) -> dict[str, float]:
        """Switch to JupyterLab Dark, wait until the first widget matching ``css`` has
        redrawn, save its screenshot, switch back to Light, and return the lowest contrast
        ratio (WCAG) against the page background of each kind of neutral text it showed:
        its text, table cells, control labels, axis and legend labels and titles, and the
        strokes of its rules (Vega-Lite's default rule is black).
        Coloured series labels (a curve's own hue) are not included."""
        before = self.page.evaluate(f"() => Number(document.querySelector({css!r})"
                                    ".dataset.revision)")
        self.set_theme("JupyterLab Dark")
        self.page.wait_for_function(
            f"(r) => Number(document.querySelector({css!r}).dataset.revision) > r",
            arg=before, timeout=30_000)
        colours = self.page.evaluate(_NEUTRAL_TEXT_COLOURS, css)
        self.screenshot(screenshot, self.page.locator(css).first)
        self.set_theme("JupyterLab Light")
        bg = colours.pop("background")
        assert luminance(bg) < 0.1, f"the page is not dark: background {bg}"
        return {kind: round(min(contrast(c, bg) for c in cs), 2)
                for kind, cs in colours.items() if cs}

    def screenshot(self, name: str, locator=None, publish: str | None = None) -> Path | None:
        """Save a screenshot among the test artifacts; with ``publish``, also as
        docs/screenshots/<publish> (the README's pictures) when IAA_PUBLISH_SCREENSHOTS=1,
        so that ordinary test runs leave tracked files alone."""
        if self.artifacts is None:
            return None
        self.artifacts.mkdir(parents=True, exist_ok=True)
        path = self.artifacts / name
        if locator is not None:
            self._fit_viewport(locator)
        (locator or self.page).screenshot(path=str(path))
        if publish and os.environ.get("IAA_PUBLISH_SCREENSHOTS") == "1":
            DOCS_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, DOCS_SCREENSHOTS / publish)
        return path

    def _fit_viewport(self, locator, chrome: int = 260) -> None:
        """Make the page tall enough to show all of ``locator`` below JupyterLab's menu,
        toolbar and status bar (``chrome`` pixels): a taller widget's screenshot would
        otherwise show the status bar over its lower part and the grey page under it."""
        box = locator.bounding_box()
        size = self.page.viewport_size
        if box is None or size is None or box["height"] + chrome <= size["height"]:
            return
        self.page.set_viewport_size({"width": size["width"],
                                     "height": int(box["height"]) + chrome})
        self.page.wait_for_timeout(300)  # JupyterLab lays its panels out again

    def close(self) -> None:
        """Close the page, then shut down the kernel of the notebook it opened (a server
        that outlives the page does not pile up kernels)."""
        self.page.close()
        if self.notebook is not None and isinstance(self.lab, Lab):
            self.lab.shut_down_kernels(self.notebook)
