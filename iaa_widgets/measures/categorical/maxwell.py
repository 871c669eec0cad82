"""Maxwell's (1977) random error coefficient RE for two annotators and two categories."""
from __future__ import annotations

from ...errors import AgreementError
from ...results import AgreementResult
from .. import _formulas as F
from .._prepare import prepare
from .classic import TWO_ONLY, _point, _public, _result, _table_statistic
from .._registry import register
from .. import _engine

__all__ = ["maxwell_re"]


@register(family='chance-corrected agreement', data='categorical', annotators='two',
          source='Maxwell (1977)', symbol='RE (Maxwell)', missing=('listwise', 'raise'),
          engine=_engine.pair_table)
def maxwell_re(data, *, missing: str = "listwise", annotators=None) -> AgreementResult:
    r"""Maxwell's (1977) random error coefficient RE for two annotators and two categories.

    RE is the observed agreement rescaled to [−1, 1], i.e. Bennett's S with k = 2 (R's
    ``irr::maxwell``). Binary ratings only (two declared categories).

    Parameters
    ----------
    data : Annotations or pandas.DataFrame
        The binary ratings of two annotators (or pick two with ``annotators``):
        [Annotations][iaa_widgets.Annotations], or a tidy table with columns ``item``,
        ``annotator``, ``label``. Primary labels only.
    missing : {"listwise", "raise"}, default "listwise"
        "listwise": the items both annotators rated. "raise": refuse a missing rating.
    annotators : tuple of str, optional
        The two annotators to compare, by name (needed when the data have more).

    Returns
    -------
    AgreementResult
        ``value``: RE; ``observed``: A_o; ``expected``: the fixed "chance" agreement 1/2;
        ``n_items``, ``excluded``, ``note``.

    Raises
    ------
    AgreementError
        If the data do not have exactly two declared categories, other than two
        annotators and ``annotators`` does not pick two, or no item rated by both.

    See Also
    --------
    iaa_widgets.bennett_s : S for any number of categories and annotators.
    iaa_widgets.percent_agreement : A_o with its interval.

    Notes
    -----
    Over the 2 × 2 table of two annotators with cells a, b, c, d (a and d the
    agreements; Maxwell 1977):

    $$RE = 2A_o - 1 = \frac{a + d - b - c}{n} .$$

    References
    ----------
    Maxwell, A. E. (1977). Coefficients of agreement between observers and their
    interpretation. *British Journal of Psychiatry*, 130(1), 79–83.
    https://doi.org/10.1192/bjp.130.1.79

    Examples
    --------
    Meyer's table: A_o = 0.7, so RE = 0.4, Meyer's S for these two categories.

    >>> data = iaa.Annotations.from_contingency([[2, 2], [1, 5]], categories=["high", "low"],
    ...                                         annotators=("r2", "r1"))
    >>> round(iaa.maxwell_re(data).value, 4)
    0.4
    """
    prep, stat = _maxwell_statistic(data, missing=missing, annotators=annotators)
    value, a_o, a_e = _point(stat)
    return _result("maxwell_re", prep, value, a_o, a_e)


def _maxwell_statistic(data, *, missing="listwise", annotators=None, **_):
    prep = prepare(data, "maxwell_re", missing=missing, annotators=annotators, two=True,
                   item_weights=True, policies=TWO_ONLY, pointer="")
    if prep.ann.n_categories != 2:
        raise AgreementError(f"maxwell_re is defined for two categories (binary ratings); "
                             f"the data has {prep.ann.n_categories}: "
                             f"{list(prep.ann.categories)[:8]!r}")

    def finish(tot):  # RE = 2 A_o − 1 (Maxwell 1977)
        a_o = F.margins_observed(tot["agree"][:, 0], tot["row"])
        return 2 * a_o - 1, a_o, 0.5 + 0 * a_o
    return prep, _table_statistic(prep, finish)


maxwell_re.statistic = _public(_maxwell_statistic)
