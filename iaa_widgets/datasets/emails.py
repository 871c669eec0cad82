"""A synthetic email corpus with primary and secondary labels, shaped like the corpus of
Rosenberg & Binkowski (2004, "Augmenting the kappa statistic ...", §3 and §6)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from .. import validate

__all__ = ["EMAIL_TYPES", "EMAIL_KINDS", "email_types"]

# The ten email types of Rosenberg & Binkowski §3, in their order.
EMAIL_TYPES = ("question", "answer", "broadcast", "attachment transmission",
               "planning-meeting scheduling", "planning scheduling", "planning",
               "action item", "technical discussion", "social chat")
_TYPE_SHARE = np.array([.18, .16, .08, .05, .07, .05, .11, .07, .15, .08])

# The kinds of message planted by the generator, each meant to produce one of the
# paper's four classes of per-message κ curves (§6).
EMAIL_KINDS = ("clear", "general_specific", "concurrent", "ambiguous")
_KIND_SHARE = np.array([.30, .18, .15, .37])

_T = {name: code for code, name in enumerate(EMAIL_TYPES)}
# a general type and a more specific one (§6: "planning and question ... a question
# about planning"): annotators agree on the primary, use the secondary inconsistently
_GENERAL_SPECIFIC = np.array([
    (_T["planning"], _T["planning-meeting scheduling"]),
    (_T["planning"], _T["planning scheduling"]),
    (_T["planning"], _T["question"]),
    (_T["technical discussion"], _T["question"]),
    (_T["broadcast"], _T["attachment transmission"]),
    (_T["planning"], _T["action item"]),
])
# two concurrent features (§6: "question and answer ... a message that obviously
# includes both"): annotators give both labels, in either order ({ab,ba})
_CONCURRENT = np.array([
    (_T["question"], _T["answer"]),
    (_T["answer"], _T["action item"]),
    (_T["technical discussion"], _T["answer"]),
    (_T["social chat"], _T["broadcast"]),
])


def email_types(n_messages: int = 380, n_annotators: int = 3, seed: int = 2004,
                form: str = "rank", with_kind: bool = False) -> pd.DataFrame:
    """Email messages typed by several annotators, each giving one label or a primary
    and a secondary label, with the ten email types of Rosenberg & Binkowski (2004).

    Origin: synthetic, made by this function from ``seed`` (numpy's PCG64); the paper's
    own corpus (380 ACM messages) is not public. The defaults mirror its size (380
    messages) and its three annotators (§6). Four kinds of message are planted, one per
    class of §6, with shares .30 / .18 / .15 / .37:

    - ``clear``: one type; each annotator gives it with probability .9 and rarely (.05)
      adds a random secondary label — constant high κ (class 1);
    - ``general_specific``: a general type and a specific one; the general one is the
      primary with probability .9 and the other is added as secondary half the time —
      higher agreement at p = 1 (class 3);
    - ``concurrent``: two concurrent features (question and answer); each annotator
      gives both (probability .85) in a random order — the {ab,ba} case, higher
      agreement at p = 0.5 (class 4);
    - ``ambiguous``: each annotator picks from three plausible types at random, with a
      secondary label a third of the time — constant low κ (class 2).

    The kinds are tendencies, not guarantees: a sampled message can fall in another
    class. ``form="rank"`` gives a long table (item, annotator, label, rank) with rank 1
    for a primary label and 2 for a secondary one, to load with
    ``Annotations.from_long(df, rank="rank")``; ``form="pairs"`` gives one row per
    (item, annotator) whose label is a type or a ``(primary, secondary)`` tuple.
    ``with_kind=True`` adds the planted ``kind`` of each message, for teaching only.
    """
    validate.integer("email_types", "n_messages", n_messages, minimum=1)
    validate.integer("email_types", "n_annotators", n_annotators, minimum=2, maximum=26)
    validate.choice("email_types", "form", form, ("rank", "pairs"))
    validate.boolean("email_types", "with_kind", with_kind)
    validate.seed("email_types", "seed", seed)
    rng = np.random.default_rng(seed)
    n, m, c = n_messages, n_annotators, len(EMAIL_TYPES)
    kind = rng.choice(len(EMAIL_KINDS), size=n, p=_KIND_SHARE)
    u = rng.random((4, n, m))  # independent uniforms for each annotator's choices

    primary = np.empty((n, m), np.int64)
    secondary = np.full((n, m), -1, np.int64)

    # clear: the type, or a random other type; rarely a random secondary
    t = rng.choice(c, size=n, p=_TYPE_SHARE)[:, None]
    other = (t + rng.integers(1, c, size=(n, m))) % c
    first = np.where(u[0] < .9, t, other)
    extra = (first + rng.integers(1, c, size=(n, m))) % c
    _put(kind == 0, primary, secondary, first, np.where(u[1] < .05, extra, -1))

    # general/specific: the general type as primary, the specific one half the time
    g, s = _GENERAL_SPECIFIC[rng.integers(len(_GENERAL_SPECIFIC), size=n)].T[:, :, None]
    swap = u[0] >= .9
    _put(kind == 1, primary, secondary, np.where(swap, s, g),
         np.where(u[1] < .5, np.where(swap, g, s), -1))

    # concurrent: both features, in a random order
    a, b = _CONCURRENT[rng.integers(len(_CONCURRENT), size=n)].T[:, :, None]
    swap = u[0] < .5
    _put(kind == 2, primary, secondary, np.where(swap, b, a),
         np.where(u[1] < .85, np.where(swap, a, b), -1))

    # ambiguous: three plausible types per message, each annotator picks among them
    three = np.argsort(rng.random((n, c)), axis=1)[:, :3]
    pick = rng.integers(3, size=(n, m))
    second = (pick + rng.integers(1, 3, size=(n, m))) % 3
    _put(kind == 3, primary, secondary, np.take_along_axis(three, pick, axis=1),
         np.where(u[1] < 1 / 3, np.take_along_axis(three, second, axis=1), -1))

    width = max(3, len(str(n)))
    items = np.array([f"msg {i + 1:0{width}d}" for i in range(n)], dtype=object)
    annotators = np.array([chr(ord("A") + j) for j in range(m)], dtype=object)
    names = np.array(EMAIL_TYPES, dtype=object)
    if form == "pairs":
        labels = names[primary].ravel()
        two = (secondary >= 0).ravel()
        labels[two] = np.fromiter(zip(labels[two], names[secondary.ravel()[two]]), object,
                                  int(two.sum()))
        df = pd.DataFrame({"item": np.repeat(items, m), "annotator": np.tile(annotators, n),
                           "label": labels})
        rows_kind = np.repeat(kind, m)
    else:
        ii, jj = np.nonzero(secondary >= 0)
        df = pd.DataFrame({
            "item": np.concatenate([np.repeat(items, m), items[ii]]),
            "annotator": np.concatenate([np.tile(annotators, n), annotators[jj]]),
            "label": pd.Categorical(names[np.concatenate([primary.ravel(), secondary[ii, jj]])],
                                    categories=EMAIL_TYPES),
            "rank": np.repeat(np.array([1, 2], np.int8), [n * m, len(ii)]),
        })
        rows_kind = np.concatenate([np.repeat(kind, m), kind[ii]])
        order = np.lexsort((df["rank"], df["annotator"], df["item"]))
        df, rows_kind = df.iloc[order].reset_index(drop=True), rows_kind[order]
    if with_kind:
        df["kind"] = np.array(EMAIL_KINDS, dtype=object)[rows_kind]
    return df


def _put(mask, primary, secondary, first, second) -> None:
    """Write the labels of the messages in ``mask`` (one kind) into the n × m arrays."""
    primary[mask] = np.broadcast_to(first, primary.shape)[mask]
    secondary[mask] = np.broadcast_to(second, secondary.shape)[mask]
