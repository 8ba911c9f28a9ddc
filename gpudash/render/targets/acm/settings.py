"""The ``MultiClusterObservability`` settings billing depends on: push interval, hub retention, object storage.

Field names and limits follow the v1beta2 CRD of stolostron/multicluster-observability-operator
(operators/multiclusterobservability/config/crd/bases/observability.open-cluster-management.io_multiclusterobservabilities.yaml):
``spec.observabilityAddonSpec.interval`` is whole seconds in [15, 3600]; ``spec.advanced.retentionConfig`` holds
Thanos compactor durations (the operator's defaults are 365d each, operators/multiclusterobservability/pkg/config/
config.go, shorter than a year-over-year dispute needs); ``spec.storageConfig.metricObjectStorage`` names the
Secret and key of the Thanos object storage config. The Thanos Ruler evaluates at the addon interval unless
``spec.advanced.rule.evalInterval`` is set (controllers/multiclusterobservability/observatorium.go), which gpudash
leaves unset. ``spec.advanced.alertmanager.secrets`` lists every Secret a rendered receiver reads by ``*_file``
path, so MCO mounts it where the receiver reads it (:mod:`gpudash.model.receiver_files`); the list is set whole,
as a patch sets any list of a custom resource (kubernetes-sigs/kustomize examples/customOpenAPIschema.md: lists
are merged only where a schema gives a merge key), so a Secret only the hub's own receivers read is listed through
the model too (docs/alerts.md, "Secrets").
"""
from __future__ import annotations

from typing import Any

from gpudash.base import kube, layout
from gpudash.model import receiver_files
from gpudash.model.durations import format_duration
from gpudash.model.types import Model

# Where MultiClusterObservability lives and reads its settings, and so every hub object gpudash writes for ACM.
NAMESPACE = "open-cluster-management-observability"

API_VERSION = "observability.open-cluster-management.io/v1beta2"
KIND = "MultiClusterObservability"
PATCH = f"{layout.MCO_SETTINGS}/multiclusterobservability{kube.PATCH_SUFFIX}"


def spec(model: Model) -> dict[str, Any]:
    """The spec fields gpudash owns."""
    kept = model.billing.retention
    secrets = receiver_files.secrets(model.alerts.receivers)
    return {
        "observabilityAddonSpec": {"interval": model.billing.mco_interval},
        "advanced": {"retentionConfig": {
            "retentionResolutionRaw": format_duration(kept.raw),
            "retentionResolution5m": format_duration(kept.five_minutes),
            "retentionResolution1h": format_duration(kept.one_hour)},
            **({"alertmanager": {"secrets": secrets}} if secrets else {})},
        "storageConfig": {"metricObjectStorage": {"name": model.mco.storage_secret, "key": model.mco.storage_key}},
    }


def custom_resource(model: Model) -> dict[str, Any]:
    """The settings as a whole MultiClusterObservability; cluster-scoped, so no namespace."""
    return kube.obj(API_VERSION, KIND, model.mco.name, spec=spec(model))


def patch(model: Model) -> dict[str, Any]:
    """The settings as a patch of the user's CR: only the fields gpudash owns (not even its labels)."""
    return {"apiVersion": API_VERSION, "kind": KIND, "metadata": {"name": model.mco.name}, "spec": spec(model)}


def component() -> dict[str, Any]:
    """A kustomize Component that applies the patch to the user's own MultiClusterObservability."""
    return {"apiVersion": "kustomize.config.k8s.io/v1alpha1", "kind": "Component",
            "patches": [{"path": PATCH.rsplit("/", 1)[1], "target": {"kind": KIND}}]}


def secret_template(model: Model) -> str:
    """The object storage Secret as a commented template: S3-compatible, no credentials."""
    m = model.mco
    return "\n".join([
        "# Template of the object storage Secret that MultiClusterObservability reads (spec.storageConfig.",
        "# metricObjectStorage). gpudash never writes credentials: copy this file outside the rendered folder,",
        "# uncomment it, fill the placeholders and apply it yourself (or create it from your secret store).",
        "# Format: Thanos object storage config, type S3 (https://thanos.io/tip/thanos/storage.md).",
        "# apiVersion: v1",
        "# kind: Secret",
        "# metadata:",
        f"#   name: {m.storage_secret}",
        f"#   namespace: {NAMESPACE}",
        "# type: Opaque",
        "# stringData:",
        f"#   {m.storage_key}: |",
        "#     type: s3",
        "#     config:",
        "#       bucket: <bucket>",
        "#       endpoint: <host[:port] of the S3-compatible endpoint>",
        "#       insecure: false",
        "#       access_key: <access key>",
        "#       secret_key: <secret key>",
        "",
    ])


def artifacts(model: Model) -> dict[str, object]:
    out: dict[str, object] = {layout.MCO_SECRET_TEMPLATE: secret_template(model)}
    if model.mco.output == "resource":
        out[layout.MCO_RESOURCE] = custom_resource(model)
    else:
        out[PATCH] = patch(model)
        out[layout.kustomization(layout.MCO_SETTINGS)] = component()
    return out
