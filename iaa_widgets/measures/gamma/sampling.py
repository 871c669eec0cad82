"""Expected disorder by resampling (Mathet, Widlöcher & Métivier 2015, §5.2–5.3).

The expected disorder is the mean, over random continua built from the observed
one, of the disorder of their best alignment. Two samplers:

- ``"shuffle"`` (Mathet's, as in the gamma software): each of the n sampled
  annotators takes the units of an observed annotator drawn at random (with
  replacement) and shifts them all by one random offset, circularly on the
  continuum's span; offsets of different sampled annotators lie at least half a
  mean unit length apart, so that two copies of one annotator never coincide.
  A draw of annotators without units only is made again (no empty sample).
- ``"statistical"``: each sampled annotator gets a number of units drawn from the
  observed per-annotator counts (0 included; all-zero draws are made again);
  (length, category) pairs are drawn from the observed units and laid one after
  another with gaps (start of a unit minus end of the previous one, same
  annotator) drawn from the observed gaps.

``precision`` (a relative half-width, e.g. 0.02) draws samples until the 95 %
confidence half-width 1.96·s/√N of the expected disorder is at most
``precision`` × its mean (2015, §5.3); the reached value is reported. Each
sample has its own seed spawned from ``seed``, so results do not depend on the
number of processes.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Callable

import numpy as np

from ... import validate
from ...continuum import Continuum

__all__ = ["shuffle_sample", "statistical_sample", "SAMPLERS", "ExpectedDisorder",
           "expected_disorder"]

Z95 = 1.959963984540054  # two-sided 95 % normal quantile


def _span(c: Continuum) -> tuple[float, float]:
    lo, hi = c.bounds
    return lo, max(hi - lo, 1e-12)


def shuffle_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """Mathet's shuffle: random observed annotators, each shifted circularly."""
    n = c.n_annotators
    lo, length = _span(c)
    min_gap = float(np.mean(c.end - c.start)) / 2
    offsets = []
    for _ in range(n):  # one offset per sampled annotator, apart by ≥ min_gap
        for _try in range(100):
            o = rng.uniform(0, length)
            gap = np.abs(np.asarray(offsets) - o)
            if np.all(np.minimum(gap, length - gap) >= min_gap):
                break
        offsets.append(o)
    counts = c.units_per_annotator()
    source = rng.integers(0, n, n)
    while not counts[source].any():  # annotators without units only: draw again, as
        source = rng.integers(0, n, n)  # pygamma-agreement does (no empty sample)
    take = [np.flatnonzero(c.annotator == s) for s in source]
    idx = np.concatenate(take)
    new_ann = np.repeat(np.arange(n), [len(t) for t in take])
    shift = np.repeat(offsets, [len(t) for t in take])
    start = lo + np.mod(c.start[idx] - lo + shift, length)
    return Continuum.from_codes(new_ann, c.category[idx], start,
                                start + (c.end[idx] - c.start[idx]),
                                c.annotators, c.categories, c.ordered)


def statistical_sample(c: Continuum, rng: np.random.Generator) -> Continuum:
    """Units drawn from the observed counts, (length, category) pairs and gaps."""
    n = c.n_annotators
    lo, _ = _span(c)
    counts = c.units_per_annotator()
    same = c.annotator[1:] == c.annotator[:-1]  # units are sorted by annotator, start
    gaps = (c.start[1:] - c.end[:-1])[same]
    first = c.start[np.r_[True, ~same]] - lo
    sizes = rng.choice(counts, n)  # an annotator without units counts as 0 units
    while not sizes.any():  # but a sample needs one unit
        sizes = rng.choice(counts, n)
    total = int(sizes.sum())
    pick = rng.integers(0, c.n_units, total)
    lengths = (c.end - c.start)[pick]
    step = rng.choice(gaps, total) if len(gaps) else np.zeros(total)
    ann = np.repeat(np.arange(n), sizes)
    has = sizes > 0
    begin = (np.cumsum(sizes) - sizes)[has]
    step[begin] = rng.choice(first, n)[has]  # each annotator's first unit: offset from the start
    # start_k = start_{k-1} + len_{k-1} + gap_k, restarted at each annotator
    advance = step + np.r_[0, lengths[:-1]]
    advance[begin] = step[begin]
    cum = np.cumsum(advance)
    start = lo + cum - np.repeat(cum[begin] - advance[begin], sizes[has])
    return Continuum.from_codes(ann, c.category[pick], start, start + lengths,
                                c.annotators, c.categories, c.ordered)


SAMPLERS: dict[str, Callable[[Continuum, np.random.Generator], Continuum]] = {
    "shuffle": shuffle_sample, "statistical": statistical_sample}


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
                      max_samples: int = 10_000, progress=None) -> ExpectedDisorder:
    """Draw samples and evaluate ``statistic`` (a picklable function of a continuum
    returning a 1-d array, its first entry the best alignment's disorder).

    ``n_samples`` samples are drawn; with ``precision``, more are drawn (up to
    ``max_samples``) until the relative 95 % half-width is at most ``precision``.
    ``progress(done, wanted)``, if given, is called after every sample; an exception
    it raises stops the sampling (a widget cancels a stale computation that way).
    With ``n_jobs`` ≠ 1, a process pool draws the samples; an exception or Ctrl-C
    (KeyboardInterrupt) in this process terminates the workers at once.
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
            if pool is None:
                results = map(run, seeds)
            else:  # in order, so that results do not depend on the number of processes
                results = pool.imap(run, seeds, chunksize=max(1, len(seeds) // (4 * workers)))
            for r in results:
                rows.append(r)
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
    samples = np.array(rows)
    return ExpectedDisorder(samples, float(samples[:, 0].mean()), hw, rel)
