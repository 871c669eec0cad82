"""``python -m iaa_widgets report labels.csv -o report.html``: see :mod:`iaa_widgets.cli`."""
import sys

from .cli import main

sys.exit(main())
