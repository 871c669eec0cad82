"""The one exception type that bad input raises."""


class AgreementError(ValueError):
    r"""Input that no agreement measure can use.

    The one exception type that bad input raises, anywhere in the package: the message
    names the offending parameter, column, rows or values and says what would be accepted
    instead. It is a `ValueError`, so ``except ValueError`` catches it too. Never a raw
    traceback from numpy or pandas as the first thing a user sees, never a silent NaN.

    See Also
    --------
    iaa_widgets.LookAlikeLabelsWarning : Labels kept apart that may mean the same.
    iaa_widgets.Annotations : The validated ratings every measure takes.
    iaa_widgets.coefficients : Which coefficients apply to the data, and why not the others.

    Notes
    -----
    A measure that cannot be computed on valid data for a reason of the data (expected
    agreement 1, say) does not raise: it returns NaN with ``result.note`` saying why.
    `iaa.coefficients(data)` turns each measure's AgreementError into its "why not".

    Examples
    --------
    A misnamed column is named, with the columns the table has:

    >>> bad = pd.DataFrame({"item": [1, 1], "annotator": ["a", "b"], "tag": ["x", "y"]})
    >>> try:
    ...     iaa.cohen_kappa(bad)
    ... except iaa.AgreementError as err:
    ...     print(err)
    column(s) ['label'] not found; the table has columns ['item', 'annotator', 'tag'] (name them with item=, annotator=, label= and rank=)
    >>> issubclass(iaa.AgreementError, ValueError)
    True
    """


def rows_text(rows, limit: int = 5) -> str:
    """Name a few offending rows (0-based positions or index labels) for a message."""
    rows = list(rows)
    shown = ", ".join(str(r) for r in rows[:limit])
    more = f" and {len(rows) - limit} more" if len(rows) > limit else ""
    return f"{shown}{more}"
