"""Scrape wiring for self-managed spokes (``sources.self_managed``): the ServiceMonitors that let OpenShift's
platform Prometheus scrape the GPU exporters the way the model reads them, and kube-state-metrics'
``--metric-labels-allowlist`` for vanilla Kubernetes (OpenShift's kube-state-metrics exports every node label).
The files are wiring_files.py's, the allowlist ksm_allowlist.py's.
"""
from gpudash.render.wiring.wiring_files import artifacts, discovery_rbac

__all__ = ["artifacts", "discovery_rbac"]
