# SPDX-License-Identifier: GPL-2.0
"""SIGINT and SIGTERM in the middle of a run: exit 130, no guest, NFS
server or agent socket left, and the next run starts cleanly."""
import os
import signal
import subprocess
import time

import pytest

from harness import EXIT_INTERRUPTED, REPO, quick


def wait_for(sw, progs, timeout=60):
    """Wait until processes named @progs run with our work dir's runs/ in
    their command line; fail after @timeout seconds."""
    runs = sw.workdir / "runs"
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        names = [os.path.basename(a[0])
                 for _, a in sw.processes_mentioning(runs)]
        if all(any(p in n for n in names) for p in progs):
            return
        time.sleep(0.5)
    pytest.fail("no %s started within %d s" % (" and ".join(progs), timeout))


def interrupt(sw, sig, progs, *args):
    p = sw.popen("run", *args, stdout=subprocess.DEVNULL,
                 stderr=subprocess.PIPE)
    try:
        wait_for(sw, progs)
        time.sleep(2)
        p.send_signal(sig)
        _, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == EXIT_INTERRUPTED, "exit %d\n%s" % (
        p.returncode, err[-2000:])
    latest = (sw.workdir / "runs" / "latest").resolve()
    sw.assert_no_leftovers(latest)


@pytest.mark.boot
@pytest.mark.slow
def test_sigint_mid_nfs_run(guests):
    interrupt(guests, signal.SIGINT, ["qemu", "ganesha"],
              REPO / "scenarios" / "nfs-swap.json")


@pytest.mark.boot
@pytest.mark.slow
def test_sigterm_mid_run(guests):
    # the embedded libvirt driver resets SIGTERM: swapctl takes it back
    interrupt(guests, signal.SIGTERM, ["qemu"], "--kernels", "baseline",
              REPO / "scenarios" / "bdev-swap.json")


@pytest.mark.boot
@pytest.mark.slow
def test_next_run_starts_cleanly_after_interrupt(guests):
    interrupt(guests, signal.SIGINT, ["qemu"], "--kernels", "baseline",
              REPO / "scenarios" / "default.json")
    guests.expect(0, "run", "--kernels", "patched", quick("bdev-swap"),
                  timeout=900)
