"""GammaExplorer: Mathet's γ, γ_cat and γ_k on a continuum, with its best alignment drawn.

One lane per annotator with its units as bars coloured by category, the best
alignment as links between aligned units and hollow markers for empty units; bars
for γ, γ_cat and every category's γ_k with their 95 % sampling intervals. Sliders for
the positional and categorical weights (``alpha`` and ``beta``: α and β of the combined
dissimilarity d = α·d_pos + β·d_cat, Mathet et al. 2015, §4.2.4; not Krippendorff's α)
and Δ∅ recompute everything with :func:`~iaa_widgets.gamma_family`. The continuum
zooms and pans along x (wheel, drag, or the page's buttons); the bars do not.

A recomputation (a best alignment, then one per random sample) can take seconds: it
runs in one worker thread that reports progress after every sample (to the page at
most every PROGRESS_SECONDS: each message costs the kernel, the server and the page
time). Each request raises a generation counter; the running computation checks it at
every progress report and stops as soon as a newer request exists, and the worker
then takes the newest request only (requests never queue up). The kernel stays free
meanwhile.
A request first gives a quick estimate from its first QUICK_SAMPLES random continua
(shown at once, so that a dragged slider answers fast; ``status["estimate"]`` says how
many), then the result from all ``n_samples`` replaces it; both come from one run of
:func:`~iaa_widgets.gamma_family` (one best alignment, each sample aligned once). When
the newest computation says the full result will come within QUICK_AFTER_SECONDS, it
comes alone.
In marimo, a cell reading ``mo.ui.anywidget(explorer).value`` runs as soon as a slider
moves, before the worker has finished: call ``explorer.wait()`` in it.
"""
from __future__ import annotations

import threading
import time
from functools import partial

import traitlets

from .. import charts
from ..continuum import Continuum
from .. import validate
from ..errors import AgreementError
from ..measures.continuum.gamma.coefficients import (GammaFamilyResult, _as_continuum, _check_options,
                                           gamma_family)
from ..measures.continuum.gamma.sampling import SAMPLERS
from ._base import IAAWidget
from ._json import json_safe

__all__ = ["GammaExplorer"]

_PARAMS = ("alpha", "beta", "delta_empty", "n_samples", "seed")
QUICK_SAMPLES = 4  # random continua of the quick estimate shown before the full result
# no quick estimate when the full result is expected within this (the newest
# computation's seconds per sample × samples): it would be replaced at once, and costs
# the full result about a fifth of its time (a second chart update, a batch cut short)
QUICK_AFTER_SECONDS = 0.2
PROGRESS_SECONDS = 0.1  # the least time between two progress messages of one computation
EXPORT_GRID = tuple(round(0.1 * k, 1) for k in range(51))  # the weight sliders' (gamma.js)
ALPHA_MIN = 0.1  # the positional weight's slider starts here (gamma.js says why)


class _Stale(Exception):
    """Raised inside a computation that a newer request has made stale."""


class GammaExplorer(IAAWidget):
    """γ, γ_cat and γ_k of a continuum with its best alignment, recomputed live.

    Every change of ``alpha``, ``beta``, ``delta_empty``, ``n_samples`` or ``seed`` (set
    from Python or the page, where the sliders read "positional weight" and "categorical
    weight") starts a new computation in a worker thread that supersedes the running
    one. ``status`` tells the front-end what is happening: ``state``, samples ``done``
    of ``wanted``, ``generation``, ``cancelled`` (stale computations cancelled since the
    widget was made) and ``stale`` (those cancelled since the last finished result: 0
    once done). From Python, ``widget.result`` is the :class:`GammaFamilyResult` of the
    newest finished computation (its ``params`` say which); ``widget.wait()`` blocks
    until the current parameters' result is there and returns it.

    Parameters
    ----------
    continuum : Continuum or DataFrame
        A `Continuum` or a tidy (annotator, category, start, end) table.
    alpha : float, default 1.0
        The positional weight: α in d = α·d_pos + β·d_cat (Mathet et al. 2015,
        §4.2.4; not Krippendorff's α).
    beta : float, default 1.0
        The categorical weight: β in that sum.
    delta_empty : float, default 1.0
        Δ∅, the cost of aligning a unit with an empty unit.
    n_samples : int, default 30
        Random continua for the expected disorder (the first ``QUICK_SAMPLES`` of them
        give a quick estimate, shown until all are done, unless the newest computation
        took so little that all will be done within ``QUICK_AFTER_SECONDS``).
    seed : int, default 0
        Seed of the random continua: the same seed gives the same samples and γ.
    sampler : str, default "shuffle"
        How random continua are drawn (`gamma_family`); fixed at construction.
    precision : float, optional
        A relative 95 % half-width of δ_e to reach by drawing more samples; fixed at
        construction. The page shows the precision reached next to it.
    **loader_args
        Column names for a table (as `Continuum.from_frame` takes them).

    Raises
    ------
    AgreementError
        For a continuum γ cannot be computed on, or a refused parameter value.

    See Also
    --------
    gamma_family : The numbers this widget shows, from one best alignment and one
        set of samples.

    Notes
    -----
    γ = 1 − δ_o / δ_e (Mathet et al. 2015, eq. 6), with δ_o the disorder of the best
    alignment and δ_e its mean over the random continua; γ_cat and γ_k judge the
    categories over the same alignment (Mathet 2017, §4.2–4.3). A static page
    (``to_html``) keeps both weight sliders over saved states that Python computed.

    References
    ----------
    Mathet, Y., Widlöcher, A. & Métivier, J.-P. (2015). The unified and holistic method
    gamma (γ) for inter-annotator agreement measure and alignment. Computational
    Linguistics 41(3), 437–479. https://doi.org/10.1162/COLI_a_00227

    Examples
    --------
    Two annotators who mark the same units in the same categories agree fully: the best
    alignment pairs them at no cost, δ_o = 0, so γ = 1.

    >>> units = pd.DataFrame({"annotator": ["A", "A", "B", "B"],
    ...                       "category": ["x", "y", "x", "y"],
    ...                       "start": [0, 10, 0, 10], "end": [5, 15, 5, 15]})
    >>> w = iaa.GammaExplorer(units, n_samples=4, seed=0)
    >>> res = w.wait(60)
    >>> res.gamma.observed, res.gamma.value
    (0.0, 1.0)
    >>> w.close()
    """

    _kind = traitlets.Unicode("gamma").tag(sync=True)
    alpha = traitlets.Float(1.0, help="positional weight: α of d = α·d_pos + β·d_cat "
                            "(Mathet et al. 2015, §4.2.4)").tag(sync=True)
    beta = traitlets.Float(1.0, help="categorical weight: β of d = α·d_pos + β·d_cat "
                           "(Mathet et al. 2015, §4.2.4)").tag(sync=True)
    delta_empty = traitlets.Float(1.0, help="Δ∅, the cost of an empty unit").tag(sync=True)
    n_samples = traitlets.Int(30, help="random continua for the expected disorder").tag(
        sync=True)
    seed = traitlets.Int(0).tag(sync=True)
    status = traitlets.Dict(read_only=True).tag(sync=True)
    summary = traitlets.Dict(read_only=True).tag(sync=True)

    def __init__(self, continuum, *, alpha: float = 1.0, beta: float = 1.0,
                 delta_empty: float = 1.0, n_samples: int = 30, seed: int = 0,
                 sampler: str = "shuffle", precision: float | None = None,
                 **loader_args):
        self._check(alpha, beta, delta_empty, n_samples, seed)
        validate.choice("GammaExplorer", "sampler", sampler, sorted(SAMPLERS))
        if precision is not None:  # a relative half-width of δ_e, as gamma_family's
            validate.probability("GammaExplorer", "precision", precision, open_low=True,
                                 open_high=True)
        self._fixed = dict(sampler=sampler, precision=precision)  # set once, not synced
        c = _as_continuum(continuum, loader_args)
        self._continuum: Continuum = c
        self._result: GammaFamilyResult | None = None
        self._lock = threading.Condition()
        self._generation = 0
        self._finished = 0          # generation of the newest result
        self._failed = -1           # generation whose computation raised
        self._request = None        # (generation, params) waiting for the worker
        self._cancelled = 0         # stale computations cancelled, ever
        self._stale = 0             # … since the newest result
        self._estimate = (0, 0)     # (generation, samples) of the quick estimate shown
        self._reported = 0.0        # when the last progress message was sent
        self._pace = None           # seconds per sample of the newest computation
        self._closed = False
        super().__init__(alpha=alpha, beta=beta, delta_empty=delta_empty,
                         n_samples=n_samples, seed=seed)
        names = [str(a) for a in c.annotators]
        self._bar_names = ["γ", "γ_cat", *[f"γ_k: {k}" for k in c.categories.astype(str)]]
        self.set_chart("continuum", charts.gamma_continuum_chart(
            _named("gamma_units"), _named("gamma_links"), _named("gamma_empty"), names,
            domain=(c.start.min(), c.end.max())))
        self.set_chart("bars", charts.gamma_bars_chart(_named("gamma_bars"), self._bar_names))
        self.set_rows(gamma_units=charts.gamma_unit_rows(c), gamma_links=[], gamma_empty=[],
                      gamma_bars=[])
        self._worker = threading.Thread(target=self._loop, name="GammaExplorer", daemon=True)
        self._worker.start()
        self.observe(self._on_params, list(_PARAMS))
        self._submit()

    # ----------------------------------------------------------- public
    @property
    def result(self) -> GammaFamilyResult | None:
        """The newest finished result (None before the first one)."""
        return self._result

    def wait(self, timeout: float | None = None) -> GammaFamilyResult | None:
        """Block until the result for the current parameters is there; return it.
        On a closed widget, return the newest finished result (None if there is none)
        at once."""
        with self._lock:
            done = self._lock.wait_for(
                lambda: self._closed or self._generation in (self._finished, self._failed),
                timeout)
            if self._closed:
                return self._result
        if self._failed == self._generation:
            raise AgreementError(self.error)
        if not done:
            raise TimeoutError(f"γ not computed within {timeout} s")
        return self._result

    # ----------------------------------------------------------- static page
    _export_volatile = ("status",)  # progress of the computation, not its numbers

    def _export_groups(self) -> list[tuple]:
        """The controls a static page keeps live (:mod:`.export`), in order of priority:
        the positional weight, then the categorical weight, each over the slider's grid
        (0 to 5 by 0.1; the positional weight from 0.1) with the other as saved; every state holds γ, γ_cat
        and every category's γ_k as :func:`~iaa_widgets.gamma_family` gives them for its
        weights (a full computation each, at export: 101 for both sliders). Δ∅, samples
        and seed stay disabled."""
        from .export import Control

        alphas = tuple(a for a in EXPORT_GRID if a >= ALPHA_MIN)
        return [(Control("alpha", "positional weight", alphas, ".iaa-slider-alpha"),),
                (Control("beta", "categorical weight", EXPORT_GRID, ".iaa-slider-beta"),)]

    def close(self):
        if hasattr(self, "_lock"):  # absent when the constructor refused its arguments
            with self._lock:
                self._closed = True
                self._generation += 1      # a running computation stops at its next report
                self._lock.notify_all()
        super().close()

    # ----------------------------------------------------------- requests
    @staticmethod
    def _check(alpha, beta, delta_empty, n_samples, seed) -> None:
        _check_options("GammaExplorer", alpha, beta, delta_empty, n_samples, seed)

    def _params(self) -> dict:
        return {name: getattr(self, name) for name in _PARAMS}

    def _on_params(self, change) -> None:
        self._submit()

    def _submit(self) -> None:
        """Make the current parameters the one pending request (replacing any other)."""
        params = self._params()
        try:
            self._check(*(params[name] for name in _PARAMS))
        except AgreementError as exc:
            with self._lock:
                self._generation += 1          # the running computation is stale too
                self._failed = self._generation
                self._request = None
                self.error = f"AgreementError: {exc}"
                self._set_status("failed", self._failed, 0, 0)
                self._lock.notify_all()
            return
        with self._lock:  # "queued" is sent before the worker can take the request
            self._generation += 1
            gen = self._generation
            self._request = (gen, params)
            self._set_status("queued", gen, 0, params["n_samples"])
            self._lock.notify_all()

    def _set_status(self, state: str, gen: int, done: int, wanted: int, **extra) -> None:
        self.set_trait("status", json_safe({
            "state": state, "generation": gen, "done": done, "wanted": wanted,
            "cancelled": self._cancelled, "stale": self._stale, **extra}))

    # ----------------------------------------------------------- worker
    def _loop(self) -> None:
        while True:
            with self._lock:
                self._lock.wait_for(lambda: self._request is not None or self._closed)
                if self._closed:
                    return
                gen, params = self._request
                self._request = None
            self._compute(gen, params)

    def _progress(self, gen: int, done: int, wanted: int) -> None:
        with self._lock:  # a newer request's "queued" is never overwritten by this run
            if gen != self._generation:
                raise _Stale
            extra = {"estimate": self._estimate[1]} if self._estimate[0] == gen else {}
            now, last = time.perf_counter(), self.status
            if (last.get("state") == "sampling" and last.get("generation") == gen
                    and last.get("estimate") == extra.get("estimate")
                    and now - self._reported < PROGRESS_SECONDS):
                return  # samples come in batches: one message for a burst of them
            self._reported = now
            self._set_status("sampling", gen, done, wanted, **extra)

    def _cancel(self) -> None:
        """Count a stale computation as cancelled (called with the lock held)."""
        self._cancelled += 1
        self._stale += 1

    def _compute(self, gen: int, params: dict) -> None:
        t0 = time.perf_counter()
        with self._lock:
            if gen != self._generation:
                self._cancel()
                return
            self._set_status("aligning", gen, 0, params["n_samples"])
        try:
            soon = (self._pace is not None
                    and self._pace * params["n_samples"] < QUICK_AFTER_SECONDS)
            quick = (None if QUICK_SAMPLES >= params["n_samples"] or soon
                     else (QUICK_SAMPLES, partial(self._show_estimate, gen)))
            res = gamma_family(self._continuum, progress=lambda d, n: self._progress(gen, d, n),
                               estimate=quick,
                               **params, **self._fixed)
        except _Stale:
            with self._lock:
                self._cancel()
            return
        except Exception as exc:  # shown in the widget, as guarded observers do
            with self._lock:
                if gen == self._generation:
                    self._failed = gen
                    self.error = f"{type(exc).__name__}: {exc}"
                    self._set_status("failed", gen, 0, params["n_samples"])
                    self._lock.notify_all()
            return
        with self._lock:
            if gen != self._generation:      # finished, but a newer request exists
                self._cancel()
                return
            self._apply(res)
            self._finished = gen
            self._stale = 0                  # the note on cancelled runs clears when done
            seconds = time.perf_counter() - t0
            self._pace = seconds / res.gamma.n_samples
            self._set_status("done", gen, res.gamma.n_samples, res.gamma.n_samples,
                             seconds=seconds)
            self._lock.notify_all()

    def _show_estimate(self, gen: int, first: GammaFamilyResult) -> None:
        """Show γ from the first QUICK_SAMPLES random continua until the full result
        replaces it; raises _Stale when a newer request exists."""
        with self._lock:
            if gen != self._generation:
                raise _Stale
            self._apply(first, final=False)
            self._estimate = (gen, first.gamma.n_samples)

    def _apply(self, res: GammaFamilyResult, final: bool = True) -> None:
        """Show ``res``; a final one is also :attr:`result` (a quick estimate is not)."""
        g, gc = res.gamma, res.gamma_cat
        with self.hold_sync():
            if final:
                self._result = res
            if self.error:
                self.error = ""
            self.set_trait("summary", json_safe({
                "params": g.params, "gamma": g.value, "gamma_ci": g.ci,
                "gamma_cat": gc.value, "gamma_cat_ci": gc.ci,
                "observed": g.observed, "expected": g.expected,
                "n_samples": g.n_samples, "precision": g.precision,
                "n_alignments": g.n_items, "n_units": g.n_ratings,
                "n_annotators": g.n_annotators, "note": gc.note}))
            self.set_rows(gamma_units=charts.gamma_unit_rows(self._continuum, res.alignment),
                          gamma_links=charts.gamma_link_rows(res.alignment),
                          gamma_empty=charts.gamma_empty_rows(res.alignment),
                          gamma_bars=charts.gamma_bar_rows(res))


def _named(name: str):
    import altair as alt
    return alt.NamedData(name)
