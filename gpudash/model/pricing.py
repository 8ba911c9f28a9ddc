"""Price resolution: what a GPU request on a node is billed as (its SKU) and at which price.

A SKU is keyed by the node's product label (as GPU Feature Discovery or the AMD node labeller writes it) and
kube-state-metrics' resource name. See docs/billing-contract.md section 4 for the rules; anything without a SKU
is unpriced.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from gpudash.model import mig, vendors
from gpudash.model.types import GpuClass, Model


@dataclass(frozen=True)
class Sku:
    product: str  # node product label value (product_label)
    ksm_resource: str  # kube-state-metrics resource, e.g. nvidia_com_mig_1g_10gb
    gpu_class: str
    resource: str  # billed Kubernetes resource, e.g. nvidia.com/mig-1g.10gb
    price_per_hour: float
    weight: float  # physical GPUs one unit counts as for CCSP (compute share, 1/replicas or 1)


def product_label(vendor: str, product: str) -> str:
    """The node label value of ``product``; a label value given as such is returned unchanged.

    Each vendor's node labeller writes it its own way (``product_value`` of its module: NVIDIA's GPU Feature
    Discovery ``NVIDIA-A100-SXM4-80GB``, AMD's node labeller ``AMD_Instinct_MI300X_OAM``).
    """
    return vendors.vendor(vendor).product_value(product)


def ksm_resource(resource: str) -> str:
    return re.sub(r"[^a-zA-Z0-9_]", "_", resource)


def _class_skus(c: GpuClass) -> list[Sku]:
    out = []
    v = vendors.vendor(c.vendor)
    whole = ksm_resource(v.resource)
    for product in sorted({product_label(c.vendor, p) for p in c.products}):
        out.append(Sku(product, whole, c.name, c.whole_resource, c.price_per_hour, 1.0))
        if v.partition_shares:
            priced = dict(c.partitions)  # the class's partitions table, else the compute share of the GPU price
            for name, share in v.partition_shares(product):
                resource = f"{v.domain}/{name}"
                price = priced.get(name, c.price_per_hour * share)
                out.append(Sku(product, ksm_resource(resource), c.name, resource, price, share))
        if v.time_slicing:
            shared = 1.0 / c.time_slicing_replicas
            shared_resource = f"{v.resource}.shared"
            for prod, res in ((product, ksm_resource(shared_resource)), (f"{product}-SHARED", whole)):
                out.append(Sku(prod, res, c.name, shared_resource, c.shared_price_per_hour, shared))
        for profile in c.mig:
            assert c.mig_model is not None, "a class has MIG profiles only with a MIG model (model/gpu_classes.py)"
            share = mig.compute_share(c.mig_model, profile.name)
            mixed = (product, ksm_resource(profile.resource))
            # GFD sanitises the profile in the product too: 1g.10gb+me -> ...-MIG-1g.10gbme
            single = (f"{product}-MIG-{product_label(c.vendor, profile.name)}", whole)
            for prod, res in (mixed, single):
                out.append(Sku(prod, res, c.name, profile.resource, profile.price_per_hour, share))
            if c.time_slicing_replicas > 1:
                out += _shared_slice_skus(c, product, profile.name, profile.price_per_hour, share)
    return out


def _shared_slice_skus(c: GpuClass, product: str, profile: str, price: float, share: float) -> list[Sku]:
    """A time-sliced MIG slice, as the spoke reports it: counted in slices (replicas / the node's replicas), so
    priced at the slice price and weighted by the slice's compute share. Keys: the mixed strategy's
    ``nvidia_com_mig_<profile>_shared`` on the GPU's product, the single strategy's ``nvidia.com/gpu`` on
    ``<GPU>-MIG-<profile>-SHARED`` and, renamed, ``nvidia.com/gpu.shared`` on ``<GPU>-MIG-<profile>``
    (NVIDIA/k8s-device-plugin internal/lm/resource.go ``getProductName``: ``-SHARED`` only when not renamed)."""
    v = vendors.vendor(c.vendor)
    resource = f"{v.mig_resource_prefix}{profile}.shared"
    single = f"{product}-MIG-{product_label(c.vendor, profile)}"
    keys = ((product, ksm_resource(resource)), (f"{single}-SHARED", ksm_resource(v.resource)),
            (single, ksm_resource(f"{v.resource}.shared")))
    return [Sku(prod, res, c.name, resource, price, share) for prod, res in keys]


def mig_profile_names(model: Model) -> tuple[str, ...]:
    """Every MIG profile name of the model's classes, sorted."""
    return tuple(sorted({p.name for c in model.gpu_classes for p in c.mig}))


def mig_replicas(model: Model) -> tuple[int, ...]:
    """The replica counts a time-sliced MIG slice is priced for: 2 up to the largest ``time_slicing.replicas`` of
    a MIG class (a node shared more ways than that is reported unpriced)."""
    top = max((c.time_slicing_replicas for c in model.gpu_classes if c.mig), default=1)
    return tuple(range(2, top + 1))


def skus(model: Model) -> tuple[Sku, ...]:
    """Every SKU of the model, sorted by (product, ksm_resource)."""
    rows = [s for c in model.gpu_classes for s in _class_skus(c)]
    return tuple(sorted(rows, key=lambda s: (s.product, s.ksm_resource)))
