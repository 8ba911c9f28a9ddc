"""Optional Docker backend: the same Prometheus as :class:`e2e.harness.Prometheus`, run as a container.

Used only where a Docker engine answers (``docker`` Python SDK, ``pip install gpudash[docker]``); everything
else in e2e runs the Debian binaries directly. :func:`unavailable` says why the backend cannot run, for a
clean ``pytest.skip``. The container listens on 127.0.0.1 only, mounts the harness's config, rule files and
data dir, and is removed by id when stopped.
"""
from __future__ import annotations

import time
import urllib.error
import urllib.request
from pathlib import Path

from e2e.harness import RETENTION, Prometheus, free_port

IMAGE = "prom/prometheus:v2.42.0"  # the same version as Debian bookworm's prometheus package


def unavailable() -> str | None:
    """None when a Docker engine answers, else the reason."""
    try:
        import docker
    except ImportError:
        return "the docker Python SDK is not installed (pip install 'gpudash[docker]')"
    try:
        docker.from_env().ping()
    except Exception as err:  # the SDK raises several types when no engine answers
        return f"no Docker engine: {type(err).__name__}: {str(err)[:160]}"
    return None


class DockerPrometheus(Prometheus):
    """:class:`Prometheus` in a container: ``start``/``stop`` manage the container, everything else (queries,
    backfill through promtool on the host, which writes blocks into the mounted data dir) is inherited."""

    def __init__(self, workdir, rule_files=(), config_extra: dict | None = None, args=(), image: str = IMAGE):
        super().__init__(workdir, rule_files, config_extra, args)
        self.image = image
        self.container = None

    def _write_config(self) -> Path:
        # rule files are mounted at the same absolute paths, so the generated config is valid inside too
        return super()._write_config()

    def start(self) -> DockerPrometheus:
        import docker

        if self.container is not None:
            return self
        config = self._write_config()
        self.port = free_port()
        mounts = {str(self.workdir.resolve()): {"bind": str(self.workdir.resolve()), "mode": "rw"}}
        for f in self.rule_files:
            mounts[str(Path(f).parent)] = {"bind": str(Path(f).parent), "mode": "ro"}
        self.container = docker.from_env().containers.run(
            self.image, detach=True, user="0", volumes=mounts, ports={"9090/tcp": ("127.0.0.1", self.port)},
            command=[f"--config.file={config}", f"--storage.tsdb.path={self.data}",
                     f"--storage.tsdb.retention.time={RETENTION}", "--web.enable-lifecycle", *self.args])
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/-/ready", timeout=2) as r:
                    if r.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, OSError):
                time.sleep(0.2)
        logs = self.container.logs(tail=30).decode(errors="replace")
        self.stop()
        raise RuntimeError(f"prometheus container not ready; log:\n{logs}")

    def stop(self) -> None:
        container, self.container = self.container, None
        if container is not None:
            try:
                container.stop(timeout=30)
            finally:
                container.remove(force=True)

    @property
    def proc(self):  # the harness checks "is it running" through .proc
        return self.container

    @proc.setter
    def proc(self, value):
        pass
