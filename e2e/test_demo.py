"""``gpudash demo`` from the command line: a real Prometheus, the backfilled history and rules, the reports."""
from __future__ import annotations

import re
import subprocess
import sys
import time
from decimal import Decimal
from pathlib import Path

import pytest

from gpudash.ops.demo.prometheus import Binaries, ToolMissing

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.e2e


def test_demo_prints_the_last_days_reports_and_writes_statements(tmp_path):
    try:
        Binaries.on_path()
    except ToolMissing as err:
        pytest.skip(str(err))
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, "-m", "gpudash", "demo", "--no-wait", "--work-dir", str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert time.monotonic() - t0 < 60, "gpudash demo must finish in under a minute"
    out = r.stdout
    assert "from one cluster's own Prometheus (no ACM hub)" in out and "warning" not in r.stderr, r.stderr
    sections = out.split("\n\n")
    rows = [line.split() for line in sections[1].splitlines()[1:]]  # the billed lines, cost last
    totals = next(s for s in sections if s.startswith("Totals (")).splitlines()[2:]
    (total,) = [Decimal(line.split()[-1]) for line in totals if line.split()[:3] == ["TOTAL", "all", "units"]]
    assert len(rows) >= 4 and total == sum(Decimal(row[-1]) for row in rows)
    assert re.search(r"^\d{4}-\d\d-\d\dT\d\d:00:00Z\s+\d+\s+\d+$", out, re.M)  # a CCSP summary row
    statements = [Path(line.split(": ", 1)[1]) for line in out.splitlines() if line.startswith("statement: ")]
    assert statements and all(p.is_file() for p in statements)
    assert "Explore the series" not in out, "--no-wait stops the server: no URL of a stopped server"
    assert "per-node rows: --nodes prints them" in out and "CLUSTER  NODE" not in out  # the bill stays on screen


def test_demo_uses_the_folders_model_serves_until_sigterm_and_cleans_its_temp_data(tmp_path):
    """./gpudash.yaml is the demo's model as every command's; the `gpudash report` command it prints gives its bill
    to the cent, from the model it wrote beside the statements, while a model with the spoke tier's backfill (the
    example's) is refused in one line instead of billing the wrong hours; SIGTERM stops the server (no orphan
    Prometheus); the temp work folder keeps only the statements and that model."""
    import signal
    import socket

    import yaml

    from gpudash.model.load import DEFAULT_MODEL, bundled_example_path

    try:
        Binaries.on_path()
    except ToolMissing as err:
        pytest.skip(str(err))
    model = yaml.safe_load(bundled_example_path().read_text(encoding="utf-8"))
    model["gpu_classes"][0]["price_per_hour"] = 1000  # a price no example bill shows
    (tmp_path / DEFAULT_MODEL).write_text(yaml.safe_dump(model), encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "gpudash", "demo"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**__import__("os").environ, "TMPDIR": str(temp)})
    try:
        lines = []
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("\nExplore") or "Explore the series" in line:
                break
        out = "".join(lines)
        port = int(re.search(r"http://127\.0\.0\.1:(\d+)/graph", out).group(1))
        whole = [line.split() for line in out.splitlines() if f" {model['gpu_classes'][0]['name']} " in line
                 and " nvidia.com/gpu " in line]
        figure = lambda text: Decimal(text.replace(",", ""))  # noqa: E731
        assert whole and all(figure(r[-1]) == figure(r[-3]) * 1000 for r in whole), "the demo bills with ./gpudash.yaml"
        socket.create_connection(("127.0.0.1", port), timeout=5).close()  # live while the demo serves
        _the_printed_report_command_gives_the_same_bill(out)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) != 0
    finally:
        if proc.poll() is None:  # a failed assertion: let the demo stop its server before giving up on it
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
    err = proc.stderr.read()
    assert "Traceback" not in err and "using the bundled example" not in err, err
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=5).close()  # the server went with the demo
    left = [p.relative_to(temp) for p in temp.rglob("*") if p.is_file()]
    assert left and all(p.parts[1] == "statements" for p in left), left
    assert any(p.name == DEFAULT_MODEL for p in left), left  # the model it ran, beside the statements


def _the_printed_report_command_gives_the_same_bill(out: str) -> None:
    import shlex

    argv = shlex.split(out.split("The same bill from gpudash report (while this server runs):\n", 1)[1].splitlines()[0])
    assert argv[:5] == [sys.executable, "-m", "gpudash", "report", "billing"], argv
    r = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert r.stdout.strip() and r.stdout.strip() in out, (r.stdout, out)  # the demo's bill, every line of it
    example = [*argv[:5], "--example", *argv[7:]]  # the spoke tier and 24 h of backfill, as the example says
    r = subprocess.run(example, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1, (r.stdout, r.stderr)
    assert "billing.backfill_hours 0" in r.stderr and "says 24" in r.stderr, r.stderr
