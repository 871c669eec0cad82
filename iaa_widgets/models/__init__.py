"""Annotator models: who is reliable, and what each item's label probably is.

- :func:`majority_vote` (:mod:`.majority`): each item's most frequent label, ties stated;
- :func:`dawid_skene` (:mod:`.dawid_skene`): Dawid & Skene (1979), EM over each
  annotator's confusion matrix (``model="full"``) or one accuracy (``"one-coin"``);
- :func:`mace` (:mod:`.mace`): Hovy et al. (2013), annotators who either know the label
  or spam, by variational Bayes.

Every model reads :class:`~iaa_widgets.Annotations` (or any table the loaders accept)
through :mod:`._ratings` and returns a :mod:`.results` object: ``labels``,
``posteriors``, ``confusion``, ``accuracy``, ``priors``, ``to_frame()``, ``chart()``.
"""
from .dawid_skene import dawid_skene
from .mace import mace
from .majority import majority_vote
from .results import DawidSkeneResult, MaceResult, MajorityVoteResult, ModelResult

__all__ = ["majority_vote", "dawid_skene", "mace", "ModelResult", "MajorityVoteResult",
           "DawidSkeneResult", "MaceResult"]
