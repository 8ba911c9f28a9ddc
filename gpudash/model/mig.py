"""MIG profiles per GPU model and the default slice price rule.

Profile names are ``<compute slices>g.<memory GB>gb``. A GA100/GH100 GPU has 7 compute slices and 8 memory
slices; the A30 has 4 and 4. Sources: NVIDIA MIG User Guide "Supported MIG Profiles" and NVIDIA/mig-parted's
default config (``deployments/systemd/config-default.yaml``).

Default price rule (a profile the model does not price): ``price_per_hour x max(compute share, memory share)``,
where compute share = compute slices / GPU compute slices and memory share = memory slices / GPU memory slices.
A 3g profile therefore costs half a GPU (it blocks half the memory), a 1g.10gb slice 1/7 of one. The slices of
any valid layout never cost more than the whole GPU.
"""
from __future__ import annotations

import re

# model -> {profile: (compute slices, memory slices)}; (GPU compute slices, GPU memory slices) in GPU_SLICES.
_GA100 = {"1g": (1, 1), "1g+2x": (1, 2), "2g": (2, 2), "3g": (3, 4), "4g": (4, 4), "7g": (7, 8)}


def _profiles(mem: dict[str, int]) -> dict[str, tuple[int, int]]:
    return {f"{k.split('+')[0]}.{gb}gb": _GA100[k] for k, gb in mem.items()}


PROFILES: dict[str, dict[str, tuple[int, int]]] = {
    "A100-40GB": _profiles({"1g": 5, "1g+2x": 10, "2g": 10, "3g": 20, "4g": 20, "7g": 40}),
    "A100-80GB": _profiles({"1g": 10, "1g+2x": 20, "2g": 20, "3g": 40, "4g": 40, "7g": 80}),
    "H100-80GB": _profiles({"1g": 10, "1g+2x": 20, "2g": 20, "3g": 40, "4g": 40, "7g": 80}),
    "H100-NVL": _profiles({"1g": 12, "1g+2x": 24, "2g": 24, "3g": 47, "4g": 47, "7g": 94}),
    "H100-96GB": _profiles({"1g": 12, "1g+2x": 24, "2g": 24, "3g": 48, "4g": 48, "7g": 96}),
    "H200-141GB": _profiles({"1g": 18, "1g+2x": 35, "2g": 35, "3g": 71, "4g": 71, "7g": 141}),
    "A30-24GB": {"1g.6gb": (1, 1), "2g.12gb": (2, 2), "4g.24gb": (4, 4)},
}
GPU_SLICES: dict[str, tuple[int, int]] = {m: ((4, 4) if m == "A30-24GB" else (7, 8)) for m in PROFILES}

# Product name patterns (NVML names, GFD names with dashes) -> MIG model. First match wins.
_PRODUCT_PATTERNS: tuple[tuple[str, str], ...] = (
    (r"A100.*80GB|A800.*80GB", "A100-80GB"),
    (r"A100|A800", "A100-40GB"),
    (r"H100.NVL|H800.NVL", "H100-NVL"),
    (r"H100.*96GB|GH200|H20\b", "H100-96GB"),
    (r"H100|H800", "H100-80GB"),
    (r"H200", "H200-141GB"),
    (r"A30\b", "A30-24GB"),
)


# Media-extension variants of a profile (1g.10gb+me, 1g.24gb-me, 1g.24gb+me.all, +gfx): separate device-plugin
# resources with the base profile's compute and memory slices (NVIDIA/k8s-device-plugin CHANGELOG.md "Support MIG
# devices with 1g.10gb+me profile", api/config/v1/resources_test.go). Priced only when a class lists them.
VARIANT = re.compile(r"^(?P<base>[1-7]g\.[0-9]+gb)(?P<suffix>[+-]me|\+me\.all|\+gfx)?$")


def base_profile(profile: str) -> str:
    """The profile without its media-extension suffix: ``1g.10gb+me`` -> ``1g.10gb``."""
    found = VARIANT.match(profile)
    return found["base"] if found else profile


def model_for_product(product: str) -> str | None:
    """The MIG-capable GPU model a product string names, or None (no MIG: L40S, T4, AMD...)."""
    for pattern, model in _PRODUCT_PATTERNS:
        if re.search(pattern, product, re.IGNORECASE):
            return model
    return None


def default_share(model: str, profile: str) -> float:
    """The default price share of ``profile`` on ``model``: max(compute share, memory share)."""
    compute, memory = PROFILES[model][profile]
    gpu_compute, gpu_memory = GPU_SLICES[model]
    return max(compute / gpu_compute, memory / gpu_memory)


def compute_share(model: str, profile: str) -> float:
    """The profile's share of the GPU's compute slices (used to count MIG slices as GPU fractions)."""
    return PROFILES[model][base_profile(profile)][0] / GPU_SLICES[model][0]
