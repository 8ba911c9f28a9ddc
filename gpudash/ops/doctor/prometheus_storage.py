"""The platform Prometheus keeps its TSDB on a PersistentVolumeClaim, as kube-state-metrics sees its pods."""
from __future__ import annotations

from gpudash.base import kube
from gpudash.model.exporters import kube_state_metrics as ksm
from gpudash.model.types import Model
from gpudash.ops.doctor.check import FAIL, OK, WARN, Check, count_series, label_values
from gpudash.ops.prometheus_client import Prometheus
from gpudash.promql import build as q

# OpenShift's platform Prometheus: the cluster-monitoring-operator's Prometheus CR "k8s" in openshift-monitoring
# (openshift/cluster-monitoring-operator assets/prometheus-k8s/prometheus.yaml); prometheus-operator names its
# StatefulSet prometheus-<name>. Its TSDB volume is an emptyDir unless the CR has a volumeClaimTemplate
# (cluster-monitoring-config prometheusK8s.volumeClaimTemplate), and then it is named after the template:
# metadata.name, else prometheus-<name>-db (prometheus-operator pkg/prometheus/common.go VolumeClaimName, mounted at
# /prometheus by pkg/prometheus/server/statefulset.go). The StatefulSet controller names the claim of a pod
# <template>-<pod> (kubernetes/kubernetes pkg/controller/statefulset/stateful_set_utils.go
# getPersistentVolumeClaimName): the pod volume whose claim is so named is the data volume, whatever its name.
PLATFORM_NAMESPACE = kube.PLATFORM_NAMESPACE
PLATFORM_PODS = f"{kube.PLATFORM_PROMETHEUS}-[0-9]+"


def _claims(prom: Prometheus, model: Model, pods: tuple, now: float) -> tuple[dict[str, str], str]:
    """{pod: its data volume} of the platform Prometheus pods whose volume is a StatefulSet claim (``<volume>-<pod>``),
    and where that was read: the pods' volumes (kube_pod_spec_volumes_persistentvolumeclaims_info); where no pod's
    volumes are scraped at all (the minimal collection profile drops them), the claims that exist
    (kube_persistentvolumeclaim_info, which it keeps), named ``<volume>-<pod>``."""
    job = ksm.job(model.sources)
    if count_series(prom, q.selector(ksm.POD_PVC, job), now):
        rows = prom.query(q.selector(ksm.POD_PVC, job, *pods), now)
        return ({r["pod"]: r["volume"] for r, _ in rows
                 if r.get("persistentvolumeclaim") == f"{r.get('volume')}-{r.get('pod')}"}, ksm.POD_PVC)
    claims = prom.query(q.selector(ksm.PVC_INFO, job, ("namespace", "=", PLATFORM_NAMESPACE),
                                   ("persistentvolumeclaim", "=~", f".+-{PLATFORM_PODS}")), now)
    found = {}
    for labels, _ in claims:
        volume, _, pod = labels["persistentvolumeclaim"].rpartition(f"-{kube.PLATFORM_PROMETHEUS}-")
        found[f"{kube.PLATFORM_PROMETHEUS}-{pod}"] = volume
    return found, ksm.PVC_INFO


def storage(prom: Prometheus, model: Model, now: float) -> list[Check]:
    """The platform Prometheus keeps its TSDB on a PersistentVolumeClaim: with an emptyDir a rescheduled pod
    starts empty and the hour it was in cannot be billed from it. Prometheus' own API cannot tell (its
    ``storage.tsdb.path`` is /prometheus either way), so this reads kube-state-metrics' view of the pods: the volume
    whose claim the StatefulSet made for the pod, whatever the volumeClaimTemplate named it."""
    job, name = ksm.job(model.sources), "Prometheus storage"
    pods = (("namespace", "=", PLATFORM_NAMESPACE), ("pod", "=~", PLATFORM_PODS))
    seen = sorted(label_values(prom, q.selector(ksm.POD_INFO, job, *pods), "pod", now))
    if not seen:
        return [Check(name, WARN, f"cannot tell: no {PLATFORM_NAMESPACE}/{kube.PLATFORM_PROMETHEUS} pods in "
                      f"{ksm.POD_INFO}", "make sure Prometheus' data directory is a PersistentVolumeClaim, not an "
                      "emptyDir")]
    claimed, source = _claims(prom, model, pods, now)
    bare = [p for p in seen if p not in claimed]
    if bare:
        return [Check(name, FAIL, f"the data volume is not a PersistentVolumeClaim (emptyDir) on {', '.join(bare)} "
                      f"(no claim of a volumeClaimTemplate in {source})", "set prometheusK8s.volumeClaimTemplate in "
                      "the openshift-monitoring cluster-monitoring-config ConfigMap")]
    volumes = ", ".join(sorted(set(claimed[p] for p in seen)))
    return [Check(name, OK, f"data volume {volumes} on a PersistentVolumeClaim ({len(seen)} pod(s), from {source})")]
