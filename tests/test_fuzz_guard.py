"""The guard every fuzz property runs under (tests/fuzz_guard.py): a memory cap and a
time limit in a forked child, failing with what the child was doing."""
from __future__ import annotations

import time

import numpy as np
import pytest

from fuzz_guard import run_limited


def test_passes_through():
    run_limited(lambda step: step("nothing much"), seconds=30)


def test_memory_beyond_the_cap_fails_with_the_step():
    def hungry(step):
        step("allocating 4 GiB")
        np.ones(2 ** 29)  # 4 GiB of float64, beyond a 256 MiB cap
    with pytest.raises(AssertionError, match="(?s)allocating 4 GiB.*MemoryError"):
        run_limited(hungry, memory=256 * 2 ** 20, seconds=60)


def test_time_limit_kills_and_names_the_step():
    def stuck(step):
        step("sleeping")
        time.sleep(60)
    t0 = time.monotonic()
    with pytest.raises(AssertionError, match="still running after 1 s.*sleeping"):
        run_limited(stuck, seconds=1)
    assert time.monotonic() - t0 < 20


def test_other_exceptions_are_reported():
    def broken(step):
        step("indexing")
        [][1]
    with pytest.raises(AssertionError, match="(?s)indexing.*IndexError"):
        run_limited(broken, seconds=30)
