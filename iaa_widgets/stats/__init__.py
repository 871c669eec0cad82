"""The Statistic tables: what every categorical measure is a function of.

``tables`` makes the sufficient statistics of the data with one ``bincount`` each: item ×
category counts, annotator × category marginals, pair contingency tables, coincidences.
``pairs`` makes every annotator pair's per-item tables (agreements and margins) from each
annotator's ratings, for the pairwise matrices and their bootstrap.

``statistic`` makes them explicit per item. A measure declares its :class:`Statistic`:

- **per-item tables** T_i, one row per item row of the data (items × cells; dense
  arrays, or scipy CSR beyond ``statistic.DENSE_CELLS`` cells, e.g. the pairs of
  categories an item's ratings fall in, or :class:`RowBlocks`: blocks of consecutive
  rows stored in the few columns they vary in, e.g. augmented κ's rating patterns of
  one set of annotators), made by :func:`per_item` from (item, cell,
  value) entries or by :func:`coincidence_table`; an item the measure does not use
  (its missing-data policy) has a row of zeros;
- a **finish(totals)** that turns their sums Σ_i w_i T_i into (value, observed,
  expected), vectorised over a leading resample axis.

Item weights are the one idea behind counts, the bootstrap and scale. The data's own
weights are 1 per item, or each cell's count for ``Annotations.from_contingency``. A
bootstrap resample is a vector w of how often each item was drawn, and a block of B
resamples is one matrix product W @ T (B × cells); leaving item i out (the jackknife
of BCa) is the totals minus T_i. Items whose tables are equal are interchangeable
(:meth:`Statistic.distinct`): a resample then counts its draws per distinct row (a few
hundred among 1e5 items is common), the same totals without the items × cells product.
A value may be a table: pairwise's finish gives one value per annotator pair.

Because totals are sums over items, the Statistic of a concatenation of items is the
sum of the parts' Statistics: an engine larger than memory (DuckDB, Spark, polars lazy,
through narwhals) can compute the same totals as long-form group-by sums, Σ w·value
grouped by the table's cell code over the (item, cell, value) entries, and call only
``finish`` (:mod:`iaa_widgets.stats.lazy`); so can a widget that edits a table, e.g. a
ContingencyMatrix cell. tests/test_statistic.py checks this property for every public
measure with a Statistic.

A measure exposes its Statistic as ``measure.statistic(data, **same_kwargs)``:
:func:`iaa_widgets.bootstrap` uses it and knows no measure by name.
"""
from .statistic import RowBlocks, Statistic, coincidence_table, per_item
from .tables import (MAX_CELLS, all_pairs, annotator_counts, check_size, coincidences,
                     item_counts, item_counts_for_pairs, pair_contingencies, pair_margins)

__all__ = ["item_counts", "item_counts_for_pairs", "annotator_counts", "pair_contingencies", "all_pairs",
           "pair_margins", "coincidences", "check_size", "MAX_CELLS", "Statistic", "RowBlocks",
           "per_item", "coincidence_table"]
