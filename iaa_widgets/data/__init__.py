"""Categorical ratings: the :class:`Annotations` every measure reads, and its loaders.

- :mod:`.annotations`: the Annotations dataclass (integer codes beside their names);
- :mod:`.loaders`: tidy, wide, counts and contingency tables (CSV files:
  :func:`iaa_widgets.io.csv.read_csv`, which loads them with these);
- :mod:`.frames`: any dataframe in (pandas, polars, Arrow, DuckDB, … through narwhals);
- :mod:`.codes`: one hash pass per column; :mod:`.categories`: the declared categories
  and their order; :mod:`.cells`: (primary, secondary) label cells; :mod:`.checks`:
  the checks of a freshly loaded table.
"""
from .annotations import EXPANSION_LIMIT, Annotations, noted
from .frames import as_annotations

__all__ = ["Annotations", "as_annotations", "noted", "EXPANSION_LIMIT"]
