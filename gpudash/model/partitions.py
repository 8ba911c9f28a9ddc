"""AMD Instinct compute partitions and their share of a GPU.

The AMD device plugin names a partition resource ``amd.com/<compute>_<memory>`` (``cpx_nps4``) under the
mixed naming strategy, and the node labeller writes the same value as ``amd.com/gpu.compute-memory-partition``
(ROCm/k8s-device-plugin docs/user-guide/configuration.md, cmd/k8s-node-labeller/main.go; the value is
``current_compute_partition`` + "_" + ``current_memory_partition`` in lower case, internal/pkg/amdgpu/amdgpu.go).
The compute mode splits the GPU's XCDs: SPX 1 partition, DPX 2, TPX 3, QPX 4, CPX one per XCD (8 on MI300X
and MI325X, 6 on MI300A; AMD Instinct MI300 "GPU partitioning" documentation). The memory mode (NPS) does not
change the compute share. A partition is priced from the class's ``partitions`` table, else at its compute
share of the class's price.
"""
from __future__ import annotations

import re

COMPUTE_MODES = ("spx", "dpx", "tpx", "qpx", "cpx")
MEMORY_MODES = ("nps1", "nps2", "nps4", "nps8")
_FIXED = {"spx": 1, "dpx": 2, "tpx": 3, "qpx": 4}


def xcds(product: str) -> int:
    """Accelerator complex dies of an AMD product (CPX partitions per GPU)."""
    return 6 if re.search(r"MI300A", product, re.IGNORECASE) else 8


def partitions(product: str) -> tuple[tuple[str, float], ...]:
    """(partition resource suffix, compute share) of every compute/memory mode of ``product``."""
    out = []
    for compute in COMPUTE_MODES:
        count = _FIXED.get(compute, xcds(product))
        out += [(f"{compute}_{memory}", 1 / count) for memory in MEMORY_MODES]
    return tuple(out)
