"""The simulation's memo caches, forgotten between scenarios."""


def clear_caches() -> None:
    """Forget what the simulation memoised (functools caches keyed on scenarios and references, kept for the
    life of the process otherwise): the golden emitter calls it after each scenario, so a render holds one
    scenario's steps at a time."""
    from gpudash.simulation import cluster_free, devices, pushes, reference, scenario

    mixed = [v for cls in reference.Reference.__mro__ for v in vars(cls).values()]  # its mixins' methods too
    for obj in [*vars(scenario).values(), *vars(devices).values(), *vars(pushes).values(), *mixed]:
        if hasattr(obj, "cache_clear"):
            obj.cache_clear()
    cluster_free.forget()
