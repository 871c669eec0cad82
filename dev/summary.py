"""One summary line over the suites dev/test.sh ran (main tests, documentation site,
pygamma cross-checks), read from each suite's log and exit code in the folder given;
exits non-zero when any suite failed, so that the test command's last line and exit
code speak for all of them."""
from __future__ import annotations

import re
import sys
from pathlib import Path

COUNT = re.compile(r"(\d+) (passed|failed|skipped|errors?|xfailed|xpassed)\b")
CLOSING = re.compile(r"^(=+ )?\d+ \w+.* in [\d.]+s")  # pytest's closing line (-q: no =)


def counts(log: str) -> dict[str, int]:
    """The counts on a pytest log's closing line (none if it never got there)."""
    closing = [line for line in log.splitlines() if CLOSING.match(line.strip())]
    if not closing:
        return {}
    found: dict[str, int] = {}
    for n, kind in COUNT.findall(closing[-1]):
        kind = "error" if kind.startswith("error") else kind
        found[kind] = found.get(kind, 0) + int(n)
    return found


def main(folder: str) -> int:
    total = {"passed": 0, "failed": 0, "skipped": 0}
    broken = []
    for rc in sorted(Path(folder).glob("*.rc")):
        name, code = rc.stem, int(rc.read_text().strip() or 1)
        found = counts(rc.with_suffix(".log").read_text(errors="replace"))
        total["passed"] += found.get("passed", 0) + found.get("xpassed", 0)
        total["failed"] += found.get("failed", 0) + found.get("error", 0)
        total["skipped"] += found.get("skipped", 0) + found.get("xfailed", 0)
        if code != 0:
            broken.append(f"{name} (exit {code})")
    if broken:
        print("failing suites: " + ", ".join(broken), file=sys.stderr)
        total["failed"] = max(total["failed"], 1)  # a suite that broke before counting
    print(f"all: {total['passed']} passed, {total['failed']} failed, "
          f"{total['skipped']} skipped")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
