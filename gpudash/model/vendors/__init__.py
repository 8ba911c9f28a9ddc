"""GPU vendors: one module per vendor describes its Kubernetes resources, node labels, exporter series, labels and
units (:class:`Vendor`); the rules, the simulation and the mock read them from here and never test a vendor's name.

:data:`VENDORS` is the registry, in rendering order (the rules join the vendors' parts in this order). Adding a
vendor is adding a module that defines ``VENDOR`` and registering it (:func:`register`; the bundled vendors are
registered at the end of registry.py). Features only some vendors have are capabilities here (``mig_labels``,
``time_slicing``, ``partitions``, ``error_metric``), never names.
"""
from gpudash.model.vendors.registry import (
    VENDORS,
    by_source,
    device,
    exporters_with,
    labellers,
    register,
    sample,
    unregister,
    vendor,
    with_feature,
)
from gpudash.model.vendors.vendor import Vendor

__all__ = ["VENDORS", "Vendor", "by_source", "device", "exporters_with", "labellers", "register", "sample",
           "unregister", "vendor", "with_feature"]
