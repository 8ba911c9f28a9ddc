"""Environment variables that both wings name: the render wing writes them into objects, the operations wing reads
them."""
from __future__ import annotations

TOKEN_ENV = "GPUDASH_TOKEN"  # the bearer token every hub reader sends (report, doctor, the pruner and its Deployment)
