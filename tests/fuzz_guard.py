"""Run a check in a forked child process under a memory cap and a time limit, so that a
fuzz property fails with the function and input named instead of taking the test run
(or the machine) down: an allocation beyond the cap raises ``MemoryError`` in the child
(``resource.setrlimit(RLIMIT_AS)``, counted above the child's address space at the
fork), a check still running after the time limit is killed.

``IAA_FUZZ_MEMORY_MB`` (default 1536) and ``IAA_FUZZ_SECONDS`` (default 60) change the
limits. Linux and macOS only (fork; RLIMIT_AS is not enforced on macOS).
"""
from __future__ import annotations

import multiprocessing as mp
import os
import resource
import time
import traceback

MEMORY = int(os.environ.get("IAA_FUZZ_MEMORY_MB", "1536")) * 2 ** 20
SECONDS = float(os.environ.get("IAA_FUZZ_SECONDS", "60"))


def _address_space() -> int:
    """This process's virtual size in bytes (VmSize), what RLIMIT_AS counts."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _child(conn, check, memory: int) -> None:
    limit = _address_space() + memory
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def step(text: str) -> None:  # what runs now, named if the parent must kill us
        conn.send(("step", text))
    try:
        check(step)
        conn.send(("ok", ""))
    except BaseException as e:  # noqa: BLE001 - reported to the parent, whatever it is
        try:
            conn.send(("error", f"{type(e).__name__}: "
                                + "".join(traceback.format_exception(e))[-6000:]))
        except BaseException:  # noqa: BLE001 - e.g. a MemoryError while formatting
            conn.send(("error", type(e).__name__))
    finally:
        conn.close()


def run_limited(check, *, memory: int = MEMORY, seconds: float = SECONDS) -> None:
    """Run ``check(step)`` in a forked child with at most ``memory`` more bytes of
    address space and ``seconds`` of time; ``step(text)`` says what the child is doing.
    Returns if the check passed; raises AssertionError with the child's traceback, or
    with the last step when it was killed for time or died."""
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, check, memory), daemon=True)
    proc.start()
    child.close()
    last, outcome = "(starting)", None
    deadline = time.monotonic() + seconds
    try:
        while outcome is None:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"still running after {seconds:g} s (killed): {last}")
            if parent.poll(min(left, 0.5)):
                try:
                    kind, text = parent.recv()
                except EOFError:
                    proc.join(5)
                    raise AssertionError(f"the child died (exit code {proc.exitcode}, "
                                         f"e.g. killed for memory) during: {last}") from None
                if kind == "step":
                    last = text
                else:
                    outcome = (kind, text)
            elif not proc.is_alive() and not parent.poll(0):
                raise AssertionError(f"the child died (exit code {proc.exitcode}) "
                                     f"during: {last}")
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join(5)
        parent.close()
    if outcome[0] == "error":
        raise AssertionError(f"during {last}:\n{outcome[1]}")


def limited(test):
    """A test (a hypothesis property: all its examples) run by :func:`run_limited`."""
    import functools

    @functools.wraps(test)
    def run(*args, **kwargs):
        run_limited(lambda step: test(*args, **kwargs))
    return run
