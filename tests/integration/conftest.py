# SPDX-License-Identifier: GPL-2.0
"""Fixtures of the swapctl integration tests (doc/HACKING.md "Integration
tests").

Every test drives the swapctl binary (SWAPCTL, default ./swapctl) through
the session fixture `sw` (a harness.Swapctl). The test run has a work
directory of its own, SWAPCTL_TEST_WORKDIR (default
$XDG_CACHE_HOME/swapctl-test, i.e. ~/.cache/swapctl-test), never the
user's ~/.cache/swapctl; it reaches swapctl through a generated
configuration file (SWAPCTL_CONFIG). Kernels are made ready once per test
run by the session fixture `kernels`, requested by every test that boots.

Tiers (pytest.ini's markers): `make check` runs `-m "not full"` and must
finish within 10 minutes on two cores once the kernels are built;
`make check-full` runs everything. A new test that boots a guest picks
its tier so:
- make check (no `full` mark): one run of a quick scenario,
  harness.quick(NAME) (tests/fixtures/scenarios/NAME-quick.json: a
  shipped scenario's set-up over a few tens of MiB; add one there, with
  its entry in test_quick.py, if your scenario has none), or of a
  shipped scenario in harness.QUICK_SHIPPED; `--kernels baseline` when
  one kernel shows the point. Prefer asserting on a run another test
  already makes (the `runs` fixture shares them) over a new boot.
- `@pytest.mark.full`: anything else: a shipped scenario of 100+ MiB,
  --repeat, command workloads of minutes, debug kernels, several hosts.
Swapctl.run() and Runs.get() fail a `boot` test without `full` that runs
a shipped scenario outside QUICK_SHIPPED (harness.check_tier()).
Assertions are on counters and integrity, never on a time: a time
(workload_seconds, PSI stall, a group's ns, latencies) is printed, not
judged, since this host is shared. Nothing is retried: a test that fails
once fails.
"""
import os
import shutil
import time

import pytest

import harness


def pytest_addoption(parser):
    parser.addoption("--no-boot", action="store_true",
                     help="skip every test that boots a guest "
                          "(same as SWAPCTL_TEST_NO_BOOT=1)")


def pytest_collection_modifyitems(config, items):
    no_boot = (config.getoption("--no-boot") or
               os.environ.get("SWAPCTL_TEST_NO_BOOT") == "1")
    if not no_boot:
        return
    skip = pytest.mark.skip(reason="--no-boot / SWAPCTL_TEST_NO_BOOT=1")
    for item in items:
        if "boot" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def tier(request):
    """Tell harness.check_tier() whether the running boot test is make
    check's (not marked full) or make check-full's; a test that boots
    nothing (error paths of `swapctl run`) is not checked."""
    node = request.node
    harness.FULL_TEST = None if node.get_closest_marker("boot") is None \
        else node.get_closest_marker("full") is not None
    yield
    harness.FULL_TEST = None


@pytest.fixture(scope="session")
def sw():
    """The swapctl binary with the test run's own work dir and config."""
    s = harness.Swapctl()
    s.setup()
    harness.SESSION = s
    return s


@pytest.fixture(scope="session")
def kernels(sw):
    """Both kernels and the initramfs in the test work dir, made once.

    SWAPCTL_TEST_KERNELS=DIR (e.g. ~/.cache/swapctl/kernels) links
    DIR/baseline and DIR/<series> into the test work dir instead of
    building, and builds only the initramfs. Otherwise `swapctl build
    --all` runs (a no-op when up to date), holding the default work dir's
    build.lock so that it never runs beside another kernel build, after
    seeding an empty ccache from the default work dir's."""
    borrowed = os.environ.get("SWAPCTL_TEST_KERNELS")
    t0 = time.monotonic()
    if borrowed:
        sw.borrow_kernels(borrowed)
        r = sw.run("build", "--initramfs-only", timeout=600)
        if r.rc != 0:
            pytest.fail("swapctl build --initramfs-only: exit %d\n%s"
                        % (r.rc, r.tail()))
        sw.kernels_note = "borrowed from %s" % borrowed
    else:
        sw.seed_ccache()
        with harness.default_build_lock():
            r = sw.run("build", "--all", timeout=4 * 3600)
        if r.rc != 0:
            pytest.fail("swapctl build --all: exit %d\n%s"
                        % (r.rc, r.tail()))
        sw.kernels_note = "swapctl build --all: %.0f s" % (
            time.monotonic() - t0)
        sw.build_log = r.err
    for f in sw.kernel_files():
        if not os.path.exists(f) or os.path.getsize(f) == 0:
            pytest.fail("%s is missing after the build" % f)
    return sw


@pytest.fixture(scope="session")
def guests(kernels):
    """Everything a test that boots a guest needs, or a skip saying what
    is missing."""
    for prog in ("qemu-system-x86_64",):
        if not shutil.which(prog):
            pytest.skip("%s is not installed (make deps)" % prog)
    return kernels


@pytest.fixture(scope="session")
def runs(guests):
    """Scenario runs, each made once per test run and shared: tests that
    need a recorded run ask runs.get(NAME) rather than running again."""
    return harness.Runs(guests)


@pytest.fixture
def demo_run(tmp_path):
    """A copy of the fabricated recording tests/fixtures/run-demo (no
    guest needed), free to modify."""
    dst = tmp_path / "run-demo"
    shutil.copytree(harness.REPO / "tests" / "fixtures" / "run-demo", dst,
                    symlinks=True)
    return dst


def pytest_terminal_summary(terminalreporter):
    s = harness.SESSION
    if s is None:
        return
    st = terminalreporter.stats
    n = {k: len(st.get(k, [])) for k in ("passed", "failed", "error",
                                          "skipped")}
    terminalreporter.write_line(
        "swapctl integration: %d passed, %d failed, %d errors, %d skipped;"
        " work dir %s; kernels %s" % (n["passed"], n["failed"], n["error"],
                                     n["skipped"], s.workdir,
                                     s.kernels_note))
