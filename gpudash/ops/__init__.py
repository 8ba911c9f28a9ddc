"""The operations wing: the commands that meet a running system -- reports, doctor, pruner, demo, mock,
grafana-bootstrap, the promtool runner -- and their shared argument and HTTP reading. May use what the render wing
makes (the doctor evaluates its rules, the demo writes a render); the render wing never imports it."""
