"""The test oracle: scenarios (scenario.py) and the devices their pods hold (devices.py), the raw series they
produce (series.py, written in notation.py's promtool notation), what the collectors push of them (pushes.py) and
the independent reference model of what they bill (reference.py, with its mixins hourly.py, ccsp.py and
energy.py), written from docs/billing-contract.md.

The golden emitter (gpudash/render/golden) and the synthetic cluster (gpudash/ops/mock) build on it; generators never
import it (tests/unit/test_layering.py).
"""


def clear_caches() -> None:
    """Forget what the simulation memoised (functools caches keyed on scenarios and references, kept for the
    life of the process otherwise): the golden emitter calls it after each scenario, so a render holds one
    scenario's steps at a time."""
    from gpudash.simulation import devices, pushes, reference, scenario

    mixed = [v for cls in reference.Reference.__mro__ for v in vars(cls).values()]  # its mixins' methods too
    for obj in [*vars(scenario).values(), *vars(devices).values(), *vars(pushes).values(), *mixed]:
        if hasattr(obj, "cache_clear"):
            obj.cache_clear()
