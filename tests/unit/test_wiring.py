"""The scrape wiring rendered for self-managed spokes (wiring/): ServiceMonitors valid against the upstream CRD,
with the honorLabels and job each exporter's model settings assume, in a namespace OpenShift's platform
Prometheus watches; and a kube-state-metrics allowlist that exports every node and pod label the rules read."""
from __future__ import annotations

import json
import re

import jsonschema
import pytest
import yaml

from gpudash import kube, layout, rules, wiring
from gpudash.model import model_from_dict
from gpudash.model.load import bundled_example_path
from gpudash.sources import kube_state_metrics as ksm
from tests.conftest import FIXTURES

SCHEMA = json.loads((FIXTURES / "upstream/servicemonitor/servicemonitor-v1.schema.json")
                    .read_text())
EXPORTERS = {what: path for what, (path, _, _) in wiring.SERVICE_MONITORS.items()}


def _model(dcgm="exported_namespace", amd="namespace", self_managed=None):
    data = yaml.safe_load(bundled_example_path().read_text())
    data["sources"] = {"dcgm": {"tenant_label": dcgm}, "amd": {"tenant_label": amd}}
    if self_managed is not None:
        data["sources"]["self_managed"] = self_managed
    return model_from_dict(data, "test model")


def test_nothing_without_self_managed():
    assert wiring.artifacts(_model()) == {}


@pytest.mark.parametrize("dcgm,amd", [("exported_namespace", "namespace"), ("namespace", "exported_namespace")])
def test_service_monitors_follow_the_model(dcgm, amd):
    model = _model(dcgm, amd, {"namespace": "gpu-exporters"})
    files = wiring.artifacts(model)
    # the objects are listed in wiring/kustomization.yaml (one deployment target: the spoke), the allowlist is not
    assert [p for p, d in files.items() if not kube.is_resource(p, d)] == [layout.KSM_ALLOWLIST]
    namespace = files[layout.WIRING_NAMESPACE]
    assert namespace["metadata"]["name"] == "gpu-exporters"
    assert namespace["metadata"]["labels"].items() >= kube.CLUSTER_MONITORING.items()
    for what, path in EXPORTERS.items():
        monitor, exporter = files[path], getattr(model.sources, what)
        jsonschema.validate(monitor, SCHEMA)
        assert monitor["metadata"]["namespace"] == "gpu-exporters"
        (endpoint,) = monitor["spec"]["endpoints"]
        # honorLabels true keeps the exporter's namespace/pod labels; unset stores them as exported_*
        assert endpoint["honorLabels"] is (exporter.tenant_label == "namespace")
        (relabel,) = endpoint["relabelings"]
        assert relabel["targetLabel"] == "job" and re.fullmatch(exporter.job, relabel["replacement"])


def test_service_labels_from_the_model():
    model = _model(self_managed={"dcgm_service_labels": {"app": "dcgm"}})
    files = wiring.artifacts(model)
    assert files[EXPORTERS["dcgm"]]["spec"]["selector"] == {"matchLabels": {"app": "dcgm"}}
    assert files[EXPORTERS["amd"]]["spec"]["selector"]["matchLabels"]  # the chart's default


def test_ksm_allowlist_covers_every_label_the_rules_read():
    model = _model(self_managed={})
    text = wiring.artifacts(model)[layout.KSM_ALLOWLIST]
    (value,) = [line for line in text.splitlines() if not line.startswith("#")]
    kinds = dict(re.fullmatch(r"(\w+)=\[([^\]]*)\]", part).groups() for part in re.findall(r"\w+=\[[^\]]*\]", value))
    assert set(kinds) == {"nodes", "pods"} and ",".join(f"{k}=[{v}]" for k, v in kinds.items()) == value
    exported = {ksm.node_label(key) for keys in kinds.values() for key in keys.split(",")}
    read = set()
    for group in rules.artifacts(model)[layout.SPOKE_RULES]["groups"]:
        for rule in group["rules"]:
            read |= set(re.findall(r"\b(label_[A-Za-z0-9_]+)\b(?!\s*\()", rule["expr"]))  # not label_replace(
    assert read and read <= exported, read - exported
