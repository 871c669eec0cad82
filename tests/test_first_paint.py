"""The first widget of a kernel paints its numbers without altair (issue 43 §3): the
widget classes, the charts module and the explorer load without importing altair, the
specs follow from draw_later's thread (``wait`` sees them), and every spec a widget sends
is still valid Vega-Lite (``chart_spec`` no longer validates on each call)."""
from __future__ import annotations

import subprocess
import sys

import pytest

import iaa_widgets as iaa

FRESH = """
import sys
import iaa_widgets as iaa
import iaa_widgets.widgets.explorer
w = iaa.ContingencyMatrix([[20, 5], [10, 15]])
assert w.coefficients and w._datasets["cells"], "the numbers and the cells' rows are sent"
late = "altair" not in sys.modules or "heatmap" not in w._specs
w.wait(120)
print(sorted(w._specs), late)
"""


def test_numbers_do_not_wait_for_altair():
    # a fresh interpreter, as a fresh kernel: the import of the widget modules leaves
    # altair out, and the spec arrives after the construction has returned
    code = "import sys, iaa_widgets as iaa, iaa_widgets.widgets.explorer\n" \
           "iaa.ContingencyMatrix\nprint(sorted(m for m in ('altair', 'jsonschema') " \
           "if m in sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]"]
    out = subprocess.run([sys.executable, "-c", FRESH], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["['heatmap']", "True"]


def test_every_spec_a_contingency_matrix_sends_is_vega_lite():
    # altair's own check (what chart.to_dict() ran on every call), on the spec as sent
    from altair.utils.schemapi import validate_jsonschema
    from altair.vegalite.v6.schema import load_schema
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]], categories=["x", "y"])
    w.wait(120)
    assert set(w._specs) == {"heatmap"}
    for spec in w._specs.values():
        validate_jsonschema(spec, load_schema())  # raises on an invalid spec
    with pytest.raises(Exception, match="nope"):  # (the check can fail)
        validate_jsonschema({**w._specs["heatmap"], "mark": "nope"}, load_schema())


def test_a_failing_chart_is_shown_and_the_numbers_stay():
    w = iaa.ContingencyMatrix([[3, 1], [2, 4]])
    w.wait(120)
    numbers = list(w.coefficients)

    def broken():
        raise ValueError("no chart")
    w.draw_later(extra=broken)
    w.wait(120)
    assert w.error == "ValueError: no chart" and "extra" not in w._specs
    assert w.coefficients == numbers
