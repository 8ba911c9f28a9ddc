"""The idle-GPU pruner: politely scale down workloads whose GPUs the hub records as idle (``gpudash prune``).

Written after wseaton/gpu-pruner (``gpu-pruner/src/lib.rs``: owner resolution, scale to zero, notebook
annotation; ``gpu-pruner/hack/``: its RBAC and Deployment), in gpudash's terms: it reads the one recorded idle
series (``names.POD_IDLE``) and never a query of its own. Running it needs the ``gpudash[prune]`` extra
(kubernetes, imported by ``api`` only); ``deploy`` renders its in-cluster objects from the model's ``prune:``.
"""
