"""Build hook: the widgets' front-end bundle, iaa_widgets/static/ (built from js/ by
esbuild; generated and git-ignored), goes into every wheel and sdist.

A bundle already there is kept (an sdist carries it, so installing an sdist or a wheel
needs no Node.js; `dev/test.sh` and `dev/lab.sh` rebuild it when js/ is newer). Without
one, `npm ci` and `npm run build` make it, and a machine with no npm gets one line that
says what to do instead of a traceback.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

BUNDLE = ("widgets.js", "widgets.css", "embed.js", "standalone.js", "loader.js")


class FrontEndBundle(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        root = Path(self.root)
        static = root / "iaa_widgets" / "static"
        if all((static / name).is_file() for name in BUNDLE):
            return
        npm = shutil.which("npm")
        if npm is None:
            sys.stderr.write(
                "iaa_widgets: building the widgets' front-end needs Node.js 18 or newer "
                "with npm (apt-get install nodejs npm), or install a built wheel instead\n")
            raise SystemExit(1)
        for command in ([npm, "ci", "--no-audit", "--no-fund"], [npm, "run", "build"]):
            subprocess.run(command, cwd=root / "js", check=True)
        missing = [name for name in BUNDLE if not (static / name).is_file()]
        if missing:
            sys.stderr.write(f"iaa_widgets: the front-end build did not make {missing}\n")
            raise SystemExit(1)
