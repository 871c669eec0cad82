"""Sparse Probability of Agreement (Nørregaard & Derczynski): ``agreement`` (SPA and
its chance-corrected κ, eq. 7 and 3), ``variance`` (item variances and the weighting
schemes, §5), ``curves`` (the subsampling experiments, §6.3–6.4) and ``missing`` (SPA
under annotations missing at random, loaded on first use: it needs scipy.special)."""
from .agreement import SparseAgreementResult, sparse_agreement, sparse_kappa
from .curves import spa_variance_curve
from .variance import SPA_SCHEMES, spa_item_variance, spa_weight_curves

__all__ = ["SparseAgreementResult", "sparse_agreement", "sparse_kappa", "spa_variance_curve",
           "SPA_SCHEMES", "spa_item_variance", "spa_weight_curves"]
