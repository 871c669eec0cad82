"""Named-entity spans labelled by several labelers and checked by a reviewer, the
setting of Datasaur's pairwise Krippendorff's α matrix, at a larger size."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import AgreementError
from .. import validate

__all__ = ["SPAN_LABELS", "review_spans"]

# Datasaur's labels (EVE, ORG, PER, TITLE, YEAR, QTY) and LOC
SPAN_LABELS = ("PER", "ORG", "LOC", "TITLE", "EVE", "YEAR", "QTY")
_LABEL_SHARE = np.array([.3, .2, .15, .1, .08, .12, .05])
# the label a wrong answer favours: PER->ORG, ORG->LOC, LOC->ORG, TITLE<->EVE, YEAR<->QTY
_CONFUSABLE = np.array([1, 2, 1, 4, 3, 6, 5])


def review_spans(n_spans: int = 120, labelers=("Labeler A", "Labeler B", "Labeler C"),
                 reviewer: str = "Reviewer", accuracy=(.88, .8, .7), reviewer_accuracy=.95,
                 hard: float = .15, miss: float = .08, seed: int = 2022) -> pd.DataFrame:
    """Entity spans (item) labelled by ``labelers`` and by a ``reviewer``: columns item,
    annotator, label (an ordered Categorical over :data:`SPAN_LABELS`).

    Origin: synthetic, made by this function from ``seed`` (numpy's PCG64); for the
    eight spans of Datasaur's own example see :func:`datasaur_spans`. Each span has a
    true label; labeler j gives it with probability ``accuracy[j]`` (the reviewer with
    ``reviewer_accuracy``), on a ``hard`` share of spans every labeler's accuracy is
    halved (the reviewer's is not), and a wrong label is the confusable one (PER→ORG,
    ORG→LOC, LOC→ORG, TITLE↔EVE, YEAR↔QTY) three times out of four, else random.
    Each labeler skips a span with probability ``miss`` (the reviewer never does): such
    spans carry fewer labels, and a span left with one label is unpairable, as in
    Datasaur's note. Labelers who agree on a hard span are often overruled by the
    reviewer: their mutual α rises while their α with the reviewer falls.
    """
    validate.integer("review_spans", "n_spans", n_spans, minimum=1)
    validate.seed("review_spans", "seed", seed)
    labelers = list(labelers)
    acc = np.asarray(accuracy, dtype=float)
    if len(labelers) < 1 or acc.shape != (len(labelers),) or np.any((acc < 0) | (acc > 1)):
        raise AgreementError(f"give one accuracy in [0, 1] per labeler: {len(labelers)} "
                             f"labeler(s) {labelers!r}, accuracy {accuracy!r}")
    if reviewer in labelers or len(set(labelers)) != len(labelers):
        raise AgreementError(f"labelers and reviewer must have distinct names, got "
                             f"{labelers!r} and {reviewer!r}")
    for name, value in (("reviewer_accuracy", reviewer_accuracy), ("hard", hard),
                        ("miss", miss)):
        validate.probability("review_spans", name, value)
    rng = np.random.default_rng(seed)
    n, m, c = n_spans, len(labelers) + 1, len(SPAN_LABELS)
    truth = rng.choice(c, size=n, p=_LABEL_SHARE)
    is_hard = rng.random(n) < hard
    p_right = np.r_[acc, reviewer_accuracy][None, :] * \
        np.where(is_hard[:, None] & (np.arange(m) < m - 1)[None, :], .5, 1)
    wrong = np.where(rng.random((n, m)) < .75, _CONFUSABLE[truth][:, None],
                     (truth[:, None] + rng.integers(1, c, size=(n, m))) % c)
    label = np.where(rng.random((n, m)) < p_right, truth[:, None], wrong)
    present = rng.random((n, m)) >= np.r_[np.full(m - 1, miss), 0.0][None, :]
    ii, jj = np.nonzero(present)
    width = max(3, len(str(n)))
    items = np.array([f"span {i + 1:0{width}d}" for i in range(n)], dtype=object)
    names = np.array(labelers + [reviewer], dtype=object)
    return pd.DataFrame({
        "item": items[ii],
        "annotator": names[jj],
        "label": pd.Categorical.from_codes(label[ii, jj], categories=SPAN_LABELS),
    })
