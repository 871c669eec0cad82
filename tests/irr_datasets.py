"""The data sets shipped with R's irr 0.84.1 (data/anxiety.rda, diagnoses.rda,
video.rda of the CRAN mirror github.com/cran/irr), read with the `rdata` package
and written out here as text: n subjects × m raters, one row per subject."""
import numpy as np
import pandas as pd

ANXIETY = """3 3 2;3 6 1;3 4 4;4 6 4;5 2 3;5 4 2;2 2 1;3 4 6;5 3 1;2 3 1;2 2 1;6 3 2;1 3 3;
5 3 3;2 2 1;2 2 1;1 1 3;2 3 3;4 3 2;3 4 2"""

VIDEO = """4 4 3 4;4 4 4 5;4 4 5 5;4 4 4 4;4 3 2 4;4 4 3 4;4 3 2 5;4 4 3 4;4 3 3 4;4 3 3 4;
4 4 3 4;4 3 3 4;4 4 4 4;4 4 4 4;4 4 3 4;4 4 4 4;4 4 4 4;4 4 4 4;4 4 4 4;4 5 5 4"""

# diagnoses: 1 Depression, 2 Personality Disorder, 3 Schizophrenia, 4 Neurosis, 5 Other
DIAGNOSES = """4 4 4 4 4 4;2 2 2 5 5 5;2 3 3 3 3 5;5 5 5 5 5 5;2 2 2 4 4 4;1 1 3 3 3 3;
3 3 3 3 5 5;1 1 3 3 3 4;1 1 4 4 4 4;5 5 5 5 5 5;1 4 4 4 4 4;1 2 4 4 4 4;2 2 2 3 3 3;
1 4 4 4 4 4;2 2 4 4 4 5;3 3 3 3 3 5;1 1 1 4 5 5;1 1 1 1 1 2;2 2 4 4 4 4;1 3 3 5 5 5;
5 5 5 5 5 5;2 4 4 4 4 4;2 2 4 5 5 5;1 1 4 4 4 4;1 4 4 4 4 5;2 2 2 2 2 4;1 1 1 1 5 5;
2 2 4 4 4 4;1 3 3 3 3 3;5 5 5 5 5 5"""
DIAGNOSIS_NAMES = {1: "1. Depression", 2: "2. Personality Disorder", 3: "3. Schizophrenia",
                   4: "4. Neurosis", 5: "5. Other"}


def wide(text: str) -> pd.DataFrame:
    """The subjects × raters frame (columns rater1 … raterm) of one of the strings."""
    rows = [[int(v) for v in row.split()] for row in text.replace("\n", "").split(";")]
    return pd.DataFrame(rows, columns=[f"rater{j + 1}" for j in range(len(rows[0]))])


def matrix(text: str) -> np.ndarray:
    """The subjects × raters array (float) of one of the strings."""
    return wide(text).to_numpy(dtype=float)


def long_form(grid) -> pd.DataFrame:
    """subjects × raters (NaN: missing) → tidy (item, annotator, label)."""
    grid = np.asarray(grid, dtype=float)
    i, j = np.nonzero(~np.isnan(grid))
    return pd.DataFrame({"item": i, "annotator": [f"r{x}" for x in j], "label": grid[i, j]})
