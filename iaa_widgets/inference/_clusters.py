"""``cluster=`` of the inference functions: each item's cluster (its document, batch or
annotation round), as codes 0 … G − 1 in the order the clusters first appear."""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..data import Annotations
from ..errors import AgreementError


def cluster_codes(data, ann: Annotations, cluster, where: str) -> np.ndarray | None:
    """Each item of ``ann`` as the code of its cluster, or None without ``cluster``.

    ``cluster``: the name of a column of the tidy table ``data`` (constant within each
    item), or a Series item → cluster. Refused, naming what is wrong: a column that is
    not there, an item in two clusters, an item the Series does not place, a missing
    cluster, fewer than two clusters (nothing to resample), data of weighted cells."""
    if cluster is None:
        return None
    if ann.item_weight is not None:
        raise AgreementError(f"{where}: cluster= draws whole clusters of items, but these data "
                             "keep items as weighted cells (from_contingency); load the "
                             "ratings item by item (from_long) to cluster them")
    if isinstance(cluster, str):
        if not isinstance(data, pd.DataFrame) or cluster not in data.columns:
            raise AgreementError(f"{where}: cluster={cluster!r} names no column of the data; "
                                 "pass the name of a column of the tidy table (each item's "
                                 "document or batch) or a Series item → cluster")
        if "item" not in data.columns:
            raise AgreementError(f"{where}: cluster={cluster!r} needs the table's items in "
                                 "a column named 'item'; or pass a Series item → cluster")
        per_item = data.groupby("item", sort=False, dropna=False)[cluster]
        spread = per_item.nunique(dropna=False)
        if (spread > 1).any():
            bad = list(spread.index[spread > 1][:5])
            raise AgreementError(f"{where}: items {bad!r} lie in more than one {cluster!r}; "
                                 "an item belongs to one cluster (its ratings are drawn "
                                 "together)")
        mapping = per_item.first()
        what = f"column {cluster!r}"
    elif isinstance(cluster, pd.Series):
        if not cluster.index.is_unique:
            dup = list(cluster.index[cluster.index.duplicated()][:5])
            raise AgreementError(f"{where}: the cluster Series lists items {dup!r} more than "
                                 "once; give each item one cluster")
        mapping, what = cluster, "the cluster Series"
    else:
        raise AgreementError(f"{where}: cluster= must be the name of a column of the data or "
                             f"a Series item → cluster, got a {type(cluster).__name__}")
    at = mapping.reindex(ann.items)
    missing = at.isna().to_numpy()
    if missing.any():
        raise AgreementError(f"{where}: {what} gives no cluster for items "
                             f"{list(ann.items[missing][:5])!r}; every item needs one")
    codes, uniques = pd.factorize(at, sort=False)
    if len(uniques) < 2:
        raise AgreementError(f"{where}: {what} puts every item in one cluster; resampling "
                             "clusters needs at least two")
    return codes.astype(np.int64)
