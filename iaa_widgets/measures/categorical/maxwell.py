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
    """Maxwell's (1977) RE = 2 A_o − 1 = (a + d − b − c) / n over the 2 × 2 table of two
    annotators (R's ``irr::maxwell``): the observed agreement rescaled to [−1, 1], i.e.
    Bennett's S with k = 2. Binary ratings only (two declared categories). ``observed``
    is A_o; the fixed "chance" agreement is 1/2 (``expected``). ``missing``:
    "listwise" (default; the items both rated) or "raise".
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
