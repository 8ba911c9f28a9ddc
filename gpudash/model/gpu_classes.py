"""The model's GPU classes from validated data: one class per product, the MIG model and profile prices of a
class, the price of a time-sliced replica."""
from __future__ import annotations

import re
from typing import Any

from gpudash.model import mig, vendors
from gpudash.model.context import Ctx, FieldPath, unique
from gpudash.model.pricing import ksm_resource, product_label
from gpudash.model.types import GpuClass, MigProfile


def gpu_classes(items: list[dict[str, Any]], ctx: Ctx) -> tuple[GpuClass, ...]:
    unique(items, "name", ("gpu_classes",), "class name", ctx)
    owners: dict[str, str] = {}
    classes = []
    for index, c in enumerate(items):
        path = ("gpu_classes", index)
        _claim_products(c, path, owners, ctx)
        model = _mig_model(c, path, ctx)
        classes.append(GpuClass(
            name=c["name"], vendor=c["vendor"], products=tuple(sorted(c["products"])),
            price_per_hour=float(c["price_per_hour"]), mig_model=model, mig=_mig_profiles(c, model, path, ctx),
            shared_price_per_hour=_shared_price(c),
            time_slicing_replicas=int(c.get("time_slicing", {}).get("replicas", 1)),
            partitions=tuple(sorted((k, float(v)) for k, v in c.get("partitions", {}).items()))))
    return tuple(sorted(classes, key=lambda c: c.name))


_DERIVED_PRODUCT = re.compile(r"-MIG-|-SHARED$")


def _claim_products(c: dict[str, Any], path: FieldPath, owners: dict[str, str], ctx: Ctx) -> None:
    """Each product, compared as its node label value, belongs to one class only."""
    for index, product in enumerate(c["products"]):
        label = product_label(c["vendor"], product)
        where = path + ("products", index)
        ctx.check(label, where, f"{product!r} keeps no characters as a node label value")
        # GPU Feature Discovery derives the slice and replica values from the whole GPU's: listing one would
        # price a MIG slice or a time-sliced replica as a whole GPU (NVIDIA/k8s-device-plugin internal/lm/resource.go)
        ctx.check(not vendors.vendor(c["vendor"]).attributes_fractions or not _DERIVED_PRODUCT.search(label), where,
                  f"{product!r} is a MIG slice or time-sliced value (node label {label!r}); list the whole GPU's "
                  "product only, gpudash derives the -MIG-<profile> and -SHARED values from it")
        owner = owners.setdefault(label, c["name"])
        ctx.check(owner == c["name"], where, f"{product!r} (node label {label!r}) already belongs to class "
                                             f"{owner!r}; a product belongs to one class only")


def _mig_model(c: dict[str, Any], path: FieldPath, ctx: Ctx) -> str | None:
    """The class's MIG model: explicit, else inferred from the products (NVIDIA only)."""
    v = vendors.vendor(c["vendor"])
    with_partitions = ", ".join(p.name for p in vendors.with_feature("partitions"))
    with_mig = ", ".join(m.name for m in vendors.with_feature("mig_labels"))
    ctx.check(v.partitions or "partitions" not in c, path + ("partitions",),
              f"only for vendor {with_partitions} (compute partitions; vendors with MIG: {with_mig})")
    if not v.mig_labels:
        for key in ("mig", "mig_model", "time_slicing"):
            ctx.check(key not in c, path + (key,), f"not supported for vendor {v.name} (MIG and time-slicing: "
                                                   f"vendor {with_mig})")
        return None
    if "mig_model" in c:
        explicit: str = c["mig_model"]  # one of the schema's enum of MIG models
        return explicit
    inferred = {product: mig.model_for_product(product) for product in c["products"]}
    ctx.check(len(set(inferred.values())) == 1, path + ("products",),
              "products name different MIG models (" + ", ".join(f"{p!r}: {m or 'none'}" for p, m in
                                                                  inferred.items()) + "); set mig_model")
    model = next(iter(inferred.values()))
    ctx.check(model or not c.get("mig"), path + ("mig",),
              f"cannot tell the MIG model from the products; set mig_model to one of {', '.join(mig.PROFILES)}")
    return model


def _mig_profiles(c: dict[str, Any], model: str | None, path: FieldPath, ctx: Ctx) -> tuple[MigProfile, ...]:
    """Every profile of ``model``, priced from the class's ``mig`` prices or by the default share rule, and the
    media-extension variants (``1g.10gb+me``) the class prices."""
    if model is None:
        return ()
    profiles, prices, v = mig.PROFILES[model], c.get("mig", {}), vendors.vendor(c["vendor"])
    resources: dict[str, str] = {}
    for name in prices:
        ctx.check(mig.base_profile(name) in profiles, path + ("mig", name),
                  f"{name!r} is not a MIG profile of {model} (valid: {', '.join(profiles)}); a media-extension "
                  "variant adds +me, -me, +me.all or +gfx")
        seen = resources.setdefault(ksm_resource(v.mig_resource(name)), name)
        ctx.check(seen == name, path + ("mig", name),
                  f"{name!r} and {seen!r} are the same kube-state-metrics resource; price only one of them")
    priced = [MigProfile(name, compute, memory,
                         float(prices[name]) if name in prices else
                         round(c["price_per_hour"] * mig.default_share(model, name), 6),
                         "model" if name in prices else "default", v.mig_resource(name))
              for name, (compute, memory) in profiles.items()]
    priced += [MigProfile(name, *profiles[mig.base_profile(name)], float(price), "model", v.mig_resource(name))
               for name, price in prices.items() if name not in profiles and mig.base_profile(name) in profiles]
    return tuple(sorted(priced, key=lambda p: (p.compute_slices, p.memory_slices, p.name)))


def _shared_price(c: dict[str, Any]) -> float:
    """Price of one time-sliced replica; a whole GPU's price when the class has no time-slicing rule."""
    sliced = c.get("time_slicing")
    if sliced is None:
        return float(c["price_per_hour"])
    if "price_per_hour" in sliced:
        return float(sliced["price_per_hour"])
    share: float = round(c["price_per_hour"] / sliced["replicas"], 6)
    return share
