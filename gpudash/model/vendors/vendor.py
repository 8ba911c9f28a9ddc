"""The :class:`Vendor` record: what a vendor module (gpudash.model.vendors.<name>) tells the rest of gpudash."""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from gpudash.model import mig
from gpudash.model.schema_types import Schema


@dataclass(frozen=True)
class Wiring:
    """How a self-managed spoke's ServiceMonitor (render/wiring) finds the vendor's exporter: the Service labels
    in ``sources.self_managed.<labels_field>``, and whether wiring renders a Service of its own."""

    stem: str  # wiring/<stem>.servicemonitor.yaml (and .service.yaml); its objects are named gpudash-<stem>
    labels_field: str  # sources.self_managed key of the Service's labels (own_service: the pods' labels)
    labels_default: tuple[tuple[str, str], ...]
    labels_description: str  # the schema's description of labels_field
    own_service: bool = False  # render a Service selecting the exporter's pods (labels_field) on exporter_port


@dataclass(frozen=True)
class Vendor:
    """What gpudash knows about one GPU vendor's device plugin, node labeller and exporter."""

    name: str  # gpu_classes[].vendor in the model
    title: str  # for people: alert and help texts ("NVIDIA")
    # Kubernetes device plugin
    resource: str  # the whole-GPU resource, e.g. nvidia.com/gpu
    resource_pattern: str  # regex (fullmatch) of every resource the vendor's device plugin advertises
    product_value: Callable[[str], str]  # a product name as the node labeller writes it in the product label
    product_value_doc: str  # for people: how the node labeller writes a product, with an example
    # the node labeller: the node label keys of the product and (partitions) the compute-memory partition
    product_label_key: str
    labeller: str  # for people: the node labeller writing these labels ("GPU Feature Discovery")
    # sources: which model fields configure this vendor
    source: str  # key of the exporter's section in sources (sources.<source>: job, tenant_label)
    product_label_field: str | None = None  # Sources field: kube_node_labels label of the product (None: the key's)
    partition_label_key: str | None = None  # node label key of the compute-memory partition (None: no partitions)
    partition_label_field: str | None = None  # Sources field: kube_node_labels label holding the node's partition
    metric_prefix_field: str | None = None  # Sources field: a prefix of the exporter's metric names
    # the schema of the vendor's own sources fields (the *_field keys above), by key, in schema order
    sources_fields: tuple[tuple[str, Schema], ...] = ()
    wiring: Wiring | None = None  # None: a self-managed spoke gets no ServiceMonitor for its exporter
    # regex of kube-state-metrics' resource names whose capacity makes a node one of this vendor's GPU nodes
    # (the integrity alert expecting its exporter); "" = the whole-GPU resource only
    node_resources: str = ""
    # the exporter's section in the schema: its title, default job regex and tenant label (and why)
    exporter_title: str = ""
    exporter_name: str = ""  # for people, in help texts: the exporter's project name (dcgm-exporter)
    exporter_short: str = ""  # for people, in alert texts: the exporter's short name ("DCGM" exporter, its XIDs)
    default_job: str = ""
    default_tenant_label: str = "namespace"
    default_tenant_label_why: str = ""
    # the exporter's series (names before the prefix) and units
    # (metric, its value at full activity: 100 for percent, 1 for a 0-1 ratio), in fallback order; the first one
    # also works for a MIG instance
    activity: tuple[tuple[str, int], ...] = ()
    power: str = ""  # watts
    energy: str = ""  # a counter of energy since the driver loaded
    energy_joules: float = 1.0  # joules per unit of ``energy``
    memory_used: str | None = None  # MiB
    memory_free: str | None = None  # MiB (the mock serves it beside memory_used)
    memory_total: str | None = None  # MiB (the mock serves it beside memory_used)
    attribution: str = ""  # the per-device series whose pod labels say which pod holds the device
    error_metric: str | None = None  # the last GPU error code (0: none); None: no health alert
    fatal_errors: tuple[int, ...] = ()  # error codes after which the vendor says the GPU needs a reset: critical
    # the exporter's labels
    host_labels: tuple[str, ...] = ("hostname",)  # the node; any of them may be set (the rules copy each to node)
    gpu_labels: tuple[str, ...] = ("gpu",)  # a physical GPU (or a partition's own index)
    model_label: str = ""  # the GPU model on each series
    model_label_names_product: bool = True  # False: a part number; display names come from the product node label
    idle_pod_labels_empty: bool = False  # True: pod labels exposed empty on a GPU no pod holds; False: absent
    mig_labels: tuple[str, str] | None = None  # (profile, instance) labels of a MIG instance's series; None: no MIG
    time_slicing: bool = False  # the device plugin can share a GPU by time-slicing (<resource>.shared)
    partitions: bool = False  # compute partitions (resources <vendor domain>/<partition>)
    whole_partitions: str = ""  # regex of partition label values that are a whole GPU (not partitioned)
    # a product -> (partition resource suffix, compute share) of every partition mode it has (priced as SKUs)
    partition_shares: Callable[[str], tuple[tuple[str, float], ...]] | None = None
    mig_resource_prefix: str = ""  # a MIG profile's resource is this + the profile name
    # installations: upstream job names (test data uses the first one a model's regex matches), the exporter pod
    upstream_jobs: tuple[str, ...] = ()
    exporter_pod: tuple[str, str, str] = ("", "", "")  # (namespace, container, pod name prefix) of its DaemonSet
    exporter_port: int = 0  # where the exporter serves /metrics
    power_fix: str = ""  # for people: how its exporter is made to export power or energy (the missing-input fix)
    sample_memory_mib: int = 81920  # the mock's GPU memory unless a node pool says
    # the golden synthesiser serves the power series (AMD: no; its GPUs' energy then comes from the counter only)
    sample_power: bool = True
    sample_gpu_labels: Callable[[int, str], tuple[tuple[str, str], ...]] | None = None  # (index, uuid) -> labels
    sample_labels: tuple[tuple[str, str], ...] = ()  # more labels of its series in the health alerts' test data
    sample_products: tuple[str, str] = ("GPU-X1", "GPU-X2")  # product label values for test data (the second unpriced)

    def product_label(self, sources: object) -> str:
        """The kube_node_labels label holding a node's product: the model's ``sources`` field, else
        kube-state-metrics' name of :attr:`product_label_key`."""
        if self.product_label_field:
            return str(getattr(sources, self.product_label_field))
        return _node_label(self.product_label_key)

    def partition_label(self, sources: object) -> str | None:
        """The kube_node_labels label holding a node's partition, or None (no partitions)."""
        if self.partition_label_field:
            return str(getattr(sources, self.partition_label_field))
        return _node_label(self.partition_label_key) if self.partition_label_key else None

    def metric(self, sources: object, name: str) -> str:
        """``name`` as the exporter serves it under the model's sources (with its prefix, if any)."""
        prefix = getattr(sources, self.metric_prefix_field) if self.metric_prefix_field else ""
        return str(prefix) + name

    @property
    def shared_resource(self) -> str | None:
        """The time-sliced replica's resource (``<resource>.shared``), or None without time-slicing."""
        return f"{self.resource}.shared" if self.time_slicing else None

    def mig_resource(self, profile: str) -> str:
        """The resource of MIG profile ``profile`` (``<mig_resource_prefix><profile>``)."""
        return self.mig_resource_prefix + profile

    def quota_resources(self) -> tuple[str, ...]:
        """Every resource of this vendor a tenant quota may limit: the whole GPU, the time-sliced replica, each
        MIG profile of a known MIG model, each compute partition."""
        migs = {self.mig_resource(p) for profiles in mig.PROFILES.values() for p in profiles}
        parts = [f"{self.domain}/{name}" for name, _ in self.partition_shares("")] if self.partition_shares else []
        return (self.resource, *filter(None, [self.shared_resource]),
                *(sorted(migs) if self.mig_resource_prefix else ()), *parts)

    def device(self, resource: str) -> tuple[str, str]:
        """What one unit of ``resource`` (a resource of this vendor's domain) is, for reports: ("mig", profile),
        ("shared", ""), ("partition", partition) or ("whole", "")."""
        if self.mig_resource_prefix and resource.startswith(self.mig_resource_prefix):
            return "mig", resource.removeprefix(self.mig_resource_prefix)
        if resource.endswith(".shared"):
            return "shared", ""
        if self.partitions and resource != self.resource:
            return "partition", resource.split("/", 1)[1]
        return "whole", ""

    @property
    def attributes_fractions(self) -> bool:
        """Whether its exporter names the physical GPU of a fractional device (a MIG slice, a time-sliced replica)."""
        return bool(self.mig_labels or self.time_slicing)

    @property
    def domain(self) -> str:
        """The device plugin's resource domain (``amd.com``): a partition's resource is ``<domain>/<partition>``."""
        return self.resource.split("/")[0]

    @property
    def ksm_node_resources(self) -> str:
        """:attr:`node_resources`, defaulting to kube-state-metrics' name of the whole-GPU resource."""
        return self.node_resources or re.sub(r"[^a-zA-Z0-9_]", "_", self.resource)

    def activity_value(self, percent: float, full: int) -> float:
        """An activity of ``percent`` as a series whose full activity reads ``full`` (test data)."""
        return percent if full == 100 else percent * full / 100

    def owns(self, resource: str) -> bool:
        """Whether ``resource`` (a literal Kubernetes resource name) is one of this vendor's."""
        return re.fullmatch(self.resource_pattern, resource) is not None

    def gpu_identity(self, index: int, uuid: str) -> tuple[tuple[str, str], ...]:
        """The exporter's labels of physical GPU ``index`` (``uuid``: a stable identifier for test data)."""
        if self.sample_gpu_labels is not None:
            return self.sample_gpu_labels(index, uuid)
        return tuple((label, str(index)) for label in self.gpu_labels)


def _node_label(key: str) -> str:
    """kube-state-metrics' ``kube_node_labels`` label of a node label key (``label_`` + the key sanitised)."""
    return "label_" + re.sub(r"[^a-zA-Z0-9_]", "_", key)
