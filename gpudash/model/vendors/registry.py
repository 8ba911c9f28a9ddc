"""The vendor registry (:data:`VENDORS`, in rendering order) and the look-ups the rest of gpudash reaches vendor
facts through; the bundled vendors are registered at the end."""
from __future__ import annotations

from types import ModuleType

from gpudash.model.vendors import amd, nvidia
from gpudash.model.vendors.vendor import Vendor

VENDORS: dict[str, Vendor] = {}


def register(module: ModuleType | Vendor) -> Vendor:
    """Add a vendor (a module defining ``VENDOR``, or the object itself) to the registry; returns it."""
    vendor = module if isinstance(module, Vendor) else module.VENDOR
    assert isinstance(vendor, Vendor), f"{module!r} defines no VENDOR"
    VENDORS[vendor.name] = vendor
    return vendor


def unregister(name: str) -> None:
    """Remove a vendor (tests register and remove theirs)."""
    VENDORS.pop(name, None)


def vendor(name: str) -> Vendor:
    """The registered vendor called ``name``."""
    return VENDORS[name]


def by_source(source: str) -> Vendor:
    """The vendor whose exporter is configured under ``sources.<source>``."""
    return next(v for v in VENDORS.values() if v.source == source)


def device(resource: str) -> tuple[str, str]:
    """What one unit of a Kubernetes resource is (:meth:`Vendor.device`), by the registered vendor whose device
    plugin's domain it is in; a resource of no vendor's is a replica when ``.shared``, else a whole GPU."""
    owner = next((v for v in VENDORS.values() if resource.startswith(v.domain + "/")), None)
    if owner is not None:
        return owner.device(resource)
    return ("shared", "") if resource.endswith(".shared") else ("whole", "")


def exporters_with(feature: str) -> str:
    """For people: the exporters of the vendors with a capability (``dcgm-exporter``), joined by " or "."""
    return " or ".join(v.exporter_name for v in with_feature(feature))


def labellers(sep: str) -> str:
    """For people: the registered vendors' node labellers ("GPU Feature Discovery"), joined by ``sep``."""
    return sep.join(v.labeller for v in VENDORS.values())


def sample() -> Vendor:
    """The vendor whose resources and products the alerts' test data use (the first registered)."""
    return next(iter(VENDORS.values()))


def with_feature(feature: str) -> tuple[Vendor, ...]:
    """The registered vendors with a capability set (``mig_labels``, ``time_slicing``, ``partitions``, ...)."""
    return tuple(v for v in VENDORS.values() if getattr(v, feature))


for _module in (nvidia, amd):  # the bundled vendors, in rendering order
    register(_module)
