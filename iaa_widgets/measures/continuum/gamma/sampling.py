"""Expected disorder by resampling (Mathet, Widlöcher & Métivier 2015, §5.2–5.3).

The expected disorder is the mean, over random continua built from the observed
one, of the disorder of their best alignment: the disorder of annotators who
annotate the same material independently of each other. Four samplers, named
after what they reproduce:

- ``"shuffle"`` (default): Mathet's shuffle (2015, §5.2, as pygamma-agreement's
  ``ShuffleContinuumSampler`` documents it: "the methods [...] described in [the]
  gamma paper, section 5.2, and implemented in the GammaSoftware"). Each of the n
  sampled annotators takes the units of an observed annotator drawn at random
  (with replacement) and rotates them all by one random pivot, circularly on the
  continuum's span [first start, last end); pivots of different sampled annotators
  lie at least half a mean unit length apart, so that two copies of one annotator
  never coincide. Pivots are real numbers, as positions on a continuum are (§4).
  A draw whose annotators have no units at all is made again (no empty sample).
  It is the default because it is §5.2's procedure itself, without either
  reference's implementation detail: integer pivots and an origin at 0
  (``"gamma-software"``) or normal distributions in place of the observed
  annotations (``"pygamma"``).
- ``"gamma-software"``: the same shuffle as the gamma software (Java) does it,
  which pygamma-agreement 0.5.9 reproduces with ``pivot_type="int_pivot"`` (its
  default, "to match the java implementation"): the continuum runs from
  min(0, first start) to max(0, last end) (positions are offsets from the start
  of a text or recording), a pivot is the integer part of a uniform draw over the
  positions still free (at least half a mean unit length from earlier pivots;
  uniform over the whole span once none is free), a unit moves by the pivot and,
  when its start passes the end, by pivot − span.
- ``"pygamma"``: pygamma-agreement 0.5.9's default ``StatisticalContinuumSampler``,
  to the letter of its definition: per sampled annotator (one per observed
  annotator, those without units included), a count |trunc(N(μ_n, σ_n))| (at least
  1 for the first annotator, so no sample is empty); from 0, each unit starts
  after a gap N(μ_g, σ_g) (negative gaps allowed) from the end of the previous
  one and lasts |N(μ_l, σ_l)| (drawn again while below 1e-6); categories drawn
  with their observed frequencies. μ, σ are the mean and population standard
  deviation of: the units per annotator (annotators without units count 0); the
  unit lengths; the gaps, which are a 0, every gap between consecutive units of
  one annotator and every annotator's first start when positive
  (:func:`pygamma_parameters`).
- ``"statistical"`` (ours): each sampled annotator gets a count drawn from the
  observed per-annotator counts (0 included; all-zero draws are made again);
  (length, category) pairs drawn from the observed units are laid one after
  another from the continuum's start, separated by gaps (start minus end of the
  previous unit of one annotator) drawn from the observed gaps; then the whole
  sequence is rotated circularly by a uniform offset on the continuum's span.
  Without that rotation every sampled annotator would start at an observed first
  offset, so on a regular continuum (every annotator starting at one offset with
  constant gaps and lengths) all sampled annotators coincide and δ_e collapses to
  the categorial part alone (tests/test_gamma_sampling.py: δ_e = 0.668 = δ_o
  against 0.94 by the shuffle). Independent annotators have independent phases:
  the rotation, the shuffle's own device, gives each sampled annotator a uniform
  phase and keeps its count, lengths, categories and all gaps but the one that
  closes the circle.

``precision`` (a relative half-width, e.g. 0.02) draws samples until the 95 %
confidence half-width 1.96·s/√N of the expected disorder is at most
``precision`` × its mean (2015, §5.3); the reached value is reported. Each
sample has its own seed spawned from ``seed``, so results do not depend on the
number of processes. No sampler reproduces a reference's random stream: γ agrees
with the reference's within the two Monte Carlo intervals.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

from .... import validate
from ....continuum import Continuum
from ....errors import AgreementError

__all__ = ["shuffle_sample", "statistical_sample", "gamma_software_sample",
           "pygamma_sample", "pygamma_parameters", "free_pivots", "SAMPLERS",
           "ExpectedDisorder", "expected_disorder"]

Z95 = 1.959963984540054  # two-sided 95 % normal quantile
BATCH_UNITS = 1000  # units of the random continua aligned together (one solver call)
SEGMENT_PRECISION = 1e-6  # pyannote.core's shortest segment: shorter lengths are drawn again


def _span(c: Continuum) -> tuple[float, float]:
    lo, hi = c.bounds
    return lo, max(hi - lo, 1e-12)


def _sources(c: Continuum, rng: np.random.Generator, pivots):
    """The shuffles' draw: n sampled annotators, each taking the units of an observed
    annotator drawn at random, with ``pivots(n) = (shift per sampled annotator, lo,
    span)``; pivots and annotators are drawn again while no unit is taken. Returns
    (observed unit index, sampled annotator, shift) per sampled unit, lo and span."""
    n = c.n_annotators
    counts = c.units_per_annotator()
    while True:  # annotators without units only: draw again, as pygamma-agreement does
        shift, lo, length = pivots(n)
        source = rng.integers(0, n, n)
        if counts[source].any():
            break
    take = [np.flatnonzero(c.annotator == s) for s in source]
    idx = np.concatenate(take)
    sizes = [len(t) for t in take]
    return idx, np.repeat(np.arange(n), sizes), np.repeat(shift, sizes), lo, length


def free_pivots(n: int, lo: float, hi: float, min_gap: float, rng: np.random.Generator,
                integer: bool = False) -> np.ndarray:
    """n pivots in [lo, hi), each uniform over the positions at least ``min_gap`` from
    the earlier ones (uniform over [lo, hi) once none is free); ``integer``: the
    integer part of that draw (the gamma software's pivots)."""
    free = [(lo, hi)]  # disjoint intervals still free
    out = np.empty(n)
    for i in range(n):  # n annotators: a short loop
        widths = np.array([b - a for a, b in free])
        if widths.sum() > 0:
            k = rng.choice(len(free), p=widths / widths.sum())  # uniform on the union
            x = rng.uniform(*free[k])
            x = float(np.floor(x)) if integer else x
        else:
            x = rng.uniform(lo, hi)  # no free position left (pygamma: float even then)
        out[i] = x
        cut_lo, cut_hi = x - min_gap, x + min_gap
        free = [(a, b) for a0, b0 in free
                for a, b in ((a0, min(b0, cut_lo)), (max(a0, cut_hi), b0)) if b > a]
    return out


def _circular_pivots(c: Continuum, rng: np.random.Generator):
    """Our shuffle's pivots: real offsets on [0, span) at least half a mean unit
    length apart circularly (drawn again up to 100 times when too close)."""
    lo, length = _span(c)
    min_gap = float(np.mean(c.end - c.start)) / 2

    def draw(n):
        offsets = []
        for _ in range(n):  # one offset per sampled annotator, apart by ≥ min_gap
            for _try in range(100):
                o = rng.uniform(0, length)
                gap = np.abs(np.asarray(offsets) - o)
                if np.all(np.minimum(gap, length - gap) >= min_gap):
                    break
            offsets.append(o)
        return np.asarray(offsets), lo, length
    return draw


def shuffle_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """Mathet's shuffle: random observed annotators, each rotated circularly by a
    real pivot on the continuum's span (module doc)."""
    idx, ann, shift, lo, length = _sources(c, rng, _circular_pivots(c, rng))
    start = lo + np.mod(c.start[idx] - lo + shift, length)
    return Continuum.from_codes(ann, c.category[idx], start,
                                start + (c.end[idx] - c.start[idx]),
                                c.annotators, c.categories, c.ordered)


def gamma_software_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """The gamma software's shuffle: integer pivots, origin 0 (module doc)."""
    lo, hi = min(0.0, c.bounds[0]), max(0.0, c.bounds[1])
    min_gap = float(np.mean(c.end - c.start)) / 2

    def draw(n):
        return free_pivots(n, lo, hi, min_gap, rng, integer=True), lo, hi - lo
    idx, ann, shift, lo, length = _sources(c, rng, draw)
    start = c.start[idx] + shift
    start = np.where(start > lo + length, start - length, start)  # past the end: wrap once
    return Continuum.from_codes(ann, c.category[idx], start,
                                start + (c.end[idx] - c.start[idx]),
                                c.annotators, c.categories, c.ordered)


def pygamma_parameters(c: Continuum) -> dict:
    """The normal models of pygamma-agreement's statistical sampler (module doc):
    ``count``, ``gap``, ``length`` as (mean, population std) and ``category_p``
    (observed frequency of each of ``c.categories``)."""
    same = c.annotator[1:] == c.annotator[:-1]  # units are sorted by annotator, start
    firsts = c.start[np.r_[True, ~same]]
    gaps = np.r_[0.0, (c.start[1:] - c.end[:-1])[same], firsts[firsts > 0]]
    lengths = c.end - c.start
    counts = c.units_per_annotator()

    def fit(x):
        return float(np.mean(x)), float(np.std(x))
    return dict(count=fit(counts), gap=fit(gaps), length=fit(lengths),
                category_p=np.bincount(c.category, minlength=c.n_categories) / c.n_units)


def pygamma_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """pygamma-agreement's statistical sampler (module doc)."""
    p = pygamma_parameters(c)
    if p["length"][1] == 0 and p["length"][0] < SEGMENT_PRECISION:  # would redraw forever
        raise AgreementError(
            f"the 'pygamma' sampler draws unit lengths of at least {SEGMENT_PRECISION} "
            "(pyannote's precision) from the observed ones, and every unit here has length "
            "0; use sampler='shuffle' or 'statistical' for point units")
    n = c.n_annotators
    sizes = np.abs(np.trunc(rng.normal(*p["count"], n))).astype(np.int64)
    sizes[0] = max(1, sizes[0])  # the first annotator of an empty sample: ≥ 1 unit
    total = int(sizes.sum())
    gap = rng.normal(*p["gap"], total)
    length = np.abs(rng.normal(*p["length"], total))
    short = length < SEGMENT_PRECISION
    while short.any():  # too short for pyannote: drawn again
        length[short] = np.abs(rng.normal(*p["length"], int(short.sum())))
        short = length < SEGMENT_PRECISION
    category = rng.choice(c.n_categories, total, p=p["category_p"])
    ann = np.repeat(np.arange(n), sizes)
    # end_k = Σ_{j ≤ k} (gap_j + length_j) from 0, restarted at each annotator
    cum = np.cumsum(gap + length)
    begin = np.cumsum(sizes) - sizes
    base = np.repeat(np.r_[0.0, cum][begin], sizes)
    end = cum - base
    return Continuum.from_codes(ann, category, end - length, end, c.annotators,
                                c.categories, c.ordered)


def statistical_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """Ours: observed counts, (length, category) pairs and gaps, each sampled
    annotator rotated by a uniform offset on the span (module doc)."""
    n = c.n_annotators
    lo, span = _span(c)
    counts = c.units_per_annotator()
    same = c.annotator[1:] == c.annotator[:-1]  # units are sorted by annotator, start
    gaps = (c.start[1:] - c.end[:-1])[same]
    sizes = rng.choice(counts, n)  # an annotator without units counts as 0 units
    while not sizes.any():  # but a sample needs one unit
        sizes = rng.choice(counts, n)
    total = int(sizes.sum())
    pick = rng.integers(0, c.n_units, total)
    lengths = (c.end - c.start)[pick]
    step = rng.choice(gaps, total) if len(gaps) else np.zeros(total)
    begin = np.cumsum(sizes) - sizes
    step[begin[sizes > 0]] = 0.0  # each annotator's first unit at the start
    # start_k = start_{k-1} + len_{k-1} + gap_k, restarted at each annotator
    cum = np.cumsum(step + np.r_[0.0, lengths[:-1]])
    first = np.repeat(cum[np.minimum(begin, total - 1)], sizes)
    phase = np.repeat(rng.uniform(0, span, n), sizes)  # independent phases
    start = lo + np.mod(cum - first + phase, span)
    return Continuum.from_codes(np.repeat(np.arange(n), sizes), c.category[pick], start,
                                start + lengths, c.annotators, c.categories, c.ordered)


SAMPLERS: dict[str, Callable[[Continuum, np.random.Generator], Continuum]] = {
    "shuffle": shuffle_sample, "gamma-software": gamma_software_sample,
    "pygamma": pygamma_sample, "statistical": statistical_sample}


@dataclass(frozen=True)
class ExpectedDisorder:
    """Per-sample statistics (rows: samples; column 0: disorder of the best
    alignment) and the precision reached on column 0."""

    samples: np.ndarray
    mean: float
    half_width: float
    precision: float

    @property
    def n_samples(self) -> int:
        return len(self.samples)


def _precision(values: np.ndarray) -> tuple[float, float]:
    """(95 % half-width, half-width / mean) of the mean of ``values``."""
    if len(values) < 2:
        return np.inf, np.inf
    hw = Z95 * float(np.std(values, ddof=1)) / np.sqrt(len(values))
    mean = float(np.mean(values))
    return hw, (hw / mean if mean > 0 else (0.0 if hw == 0 else np.inf))


def _ignore_sigint():
    """Workers leave Ctrl-C to the parent, which terminates them."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _run(job, continuum, seed):
    """The statistic of the sample drawn with ``seed``."""
    statistic, sampler = job
    return statistic(sampler(continuum, np.random.default_rng(seed)))


def expected_disorder(continuum: Continuum, statistic: Callable[[Continuum], np.ndarray],
                      sampler: str = "shuffle", n_samples: int = 30,
                      precision: float | None = None, seed=None, n_jobs: int = 1,
                      max_samples: int = 10_000, progress=None,
                      snapshot=None, batch=None) -> ExpectedDisorder:
    """Draw samples and evaluate ``statistic`` (a picklable function of a continuum
    returning a 1-d array, its first entry the best alignment's disorder).

    ``n_samples`` samples are drawn; with ``precision``, more are drawn (up to
    ``max_samples``) until the relative 95 % half-width is at most ``precision``.
    ``progress(done, wanted)``, if given, is called after every sample; an exception
    it raises stops the sampling (a widget cancels a stale computation that way).
    With ``n_jobs`` ≠ 1, a process pool draws the samples; an exception or Ctrl-C
    (KeyboardInterrupt) in this process terminates the workers at once.
    ``snapshot``, a pair ``(k, callback)``, calls ``callback(first)`` once the first k
    samples are drawn, ``first`` the :class:`ExpectedDisorder` of those k alone (the same
    seeds as a run of k samples: a quick estimate that costs no sample twice).
    ``batch``, a function of a list of continua returning ``statistic`` of each (one
    row per continuum), evaluates the samples in this process several at a time (up to
    BATCH_UNITS units, a batch ending at the snapshot), with the same samples and rows.
    """
    validate.choice("expected_disorder", "sampler", sampler, sorted(SAMPLERS))
    validate.integer("expected_disorder", "n_samples", n_samples, minimum=2)
    if precision is not None:  # a relative half-width
        validate.probability("expected_disorder", "precision", precision, open_low=True,
                             open_high=True)
    validate.n_jobs("expected_disorder", "n_jobs", n_jobs)
    root = np.random.SeedSequence(seed)
    run = partial(_run, (statistic, SAMPLERS[sampler]), continuum)
    pool = None
    if n_jobs != 1:
        import multiprocessing
        workers = multiprocessing.cpu_count() if n_jobs in (None, -1) else int(n_jobs)
        # fork where the system has it (no re-import in each worker), else its default
        start = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
        pool = multiprocessing.get_context(start).Pool(workers, initializer=_ignore_sigint)
    try:
        rows, wanted = [], int(n_samples)
        while True:
            seeds = root.spawn(wanted - len(rows))
            if pool is None and batch is not None:
                results = _batched(batch, SAMPLERS[sampler], continuum, seeds,
                                   snapshot[0] - len(rows) if snapshot else 0)
            elif pool is None:
                results = map(run, seeds)
            else:  # in order, so that results do not depend on the number of processes
                results = pool.imap(run, seeds, chunksize=max(1, len(seeds) // (4 * workers)))
            for r in results:
                rows.append(r)
                if snapshot is not None and len(rows) == snapshot[0]:
                    snapshot[1](_summary(np.array(rows)))
                if progress is not None:
                    progress(len(rows), wanted)
            values = np.array([r[0] for r in rows])
            hw, rel = _precision(values)
            if precision is None or rel <= precision or len(rows) >= max_samples:
                break
            cv = np.std(values, ddof=1) / np.mean(values)
            need = int(np.ceil((Z95 * cv / precision) ** 2))  # 2015, §5.3
            wanted = min(max_samples, max(need, len(rows) + 1))
    except BaseException:  # Ctrl-C or a stop from progress: end the workers now
        if pool is not None:
            pool.terminate()
        raise
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return _summary(np.array(rows))


def _batched(batch, sampler, continuum: Continuum, seeds, cut: int):
    """The rows of the samples drawn with ``seeds``, evaluated by ``batch`` up to
    BATCH_UNITS units at a time, a batch also ending after the ``cut``-th sample; the
    last samples join the batch before them when they would make less than half a batch
    (one solver call fewer: each call has a fixed cost)."""
    chunk, units, drawn = [], 0, 0
    for k, seed in enumerate(seeds, 1):
        sample = sampler(continuum, np.random.default_rng(seed))
        chunk.append(sample)
        units += sample.n_units
        drawn += sample.n_units
        tail = (len(seeds) - k) * drawn / k  # units the samples still to draw would bring
        if (k == cut or k == len(seeds)
                or (units >= BATCH_UNITS and (k < cut or tail >= BATCH_UNITS / 2))):
            yield from batch(chunk)
            chunk, units = [], 0


def _summary(samples: np.ndarray) -> ExpectedDisorder:
    """The mean of column 0 of ``samples`` and its precision (:func:`_precision`)."""
    hw, rel = _precision(samples[:, 0])
    return ExpectedDisorder(samples, float(samples[:, 0].mean()), hw, rel)
