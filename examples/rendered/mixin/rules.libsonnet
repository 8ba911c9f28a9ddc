// Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file.
{
  prometheusRules+:: {
    groups+: [
      {
        // Spoke tier: the per-step allocation the hourly spoke rules read (billing.spoke_tier: policy).
        "name": "gpudash-spoke-tier",
        "interval": "1m",
        "rules": [
          {
            // GPUs allocated at this step per Running, node-bound pod, node, product and resource, and the sentinel
            // row: the step's one allocation join. The rules below read only the rows written at their own evaluation
            // (the heartbeat needs the sentinel), so a failed step is missing from every figure, never copied.
            "record": "node_pod_resource:gpudash_gpus_allocated:step",
            "expr": ("sum by (cluster, node, namespace, pod, product, resource) (sum by (cluster, namespace, pod, uid, node, product, resource) (label_replace(label_join(label_replace(label_replace(label_join(label_replace(label_join(label_replace(label_replace((max by (cluster, namespace, pod, uid, node, resource) (label_replace(sum by (cluster, namespace, pod, uid, node, resource) (max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) or max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} and on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\",restart_policy=\"Always\"})), \"gpudash_part\", \"app\", \"\", \"\") or label_replace(max by (cluster, namespace, pod, uid, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} unless on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\",restart_policy=\"Always\"}), \"gpudash_part\", \"init\", \"\", \"\")) * on (cluster, namespace, pod, uid) group_left () max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1) * on (cluster, node) group_left (product) (max by (cluster, node, product) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(nvidiaProductLabel)s!=\"\"}, \"product\", \"$1\", \"%(nvidiaProductLabel)s\", \"(.+)\") or on (cluster, node) label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdProductLabel)s!=\"\"}, \"product\", \"$1\", \"%(amdProductLabel)s\", \"(.+)\")) or on (cluster, node) (max by (cluster, node) (kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) * 0 + 1))), \"gpudash_base\", \"$1\", \"resource\", \"(.+?)(_shared)?\") * on (cluster, node, gpudash_base) group_left (gpudash_replicas) (max by (cluster, node, gpudash_base, gpudash_replicas) (label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_10gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_10gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_1g_10gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_20gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_1g_20gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_2g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_2g_20gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_2g_20gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_3g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_3g_40gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_3g_40gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_4g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_4g_40gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_4g_40gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_7g_80gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_7g_80gb_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_mig_7g_80gb\", \"\", \"\") or label_replace(label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",label_nvidia_com_gpu_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\",%(nvidiaProductLabel)s=~\".+-MIG-.+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_gpu_replicas\", \"(.+)\"), \"gpudash_base\", \"nvidia_com_gpu\", \"\", \"\")) or on (cluster, node, gpudash_base) (max by (cluster, node, gpudash_base) (label_replace(kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}, \"gpudash_base\", \"$1\", \"resource\", \"(.+?)(_shared)?\")) * 0 + 1)), \"gpudash_r\", \"$1\", \"gpudash_replicas\", \"(2|3|4)\"), \"gpudash_key\", \"/\", \"product\", \"resource\", \"gpudash_replicas\", \"gpudash_r\"), \"resource\", \"${1}_shared\", \"gpudash_key\", \"[^/]*/(nvidia_com_mig_.+?)(_shared)?/[0-9]+/.*\"), \"gpudash_key\", \"/\", \"product\", \"resource\", \"gpudash_replicas\", \"gpudash_r\"), \"resource\", \"${1}_replicas_$2\", \"gpudash_key\", \"[^/]*/([^/]+)/([0-9]+)/\"), \"resource\", \"${1}${2}${3}_replicas_unknown\", \"gpudash_key\", \"(?:[^/]*/(nvidia_com_mig_.+_shared)|.+-MIG-[^/]+/(nvidia_com_gpu_shared)|.+-MIG-[^/]+-SHARED/(nvidia_com_gpu))//\") * on (gpudash_r) group_left () (vector(1) or label_replace(vector(0.5), \"gpudash_r\", \"2\", \"\", \"\") or label_replace(vector(0.3333333333333333), \"gpudash_r\", \"3\", \"\", \"\") or label_replace(vector(0.25), \"gpudash_r\", \"4\", \"\", \"\")) * on (cluster, node) group_left (gpudash_partition) (max by (cluster, node, gpudash_partition) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdPartitionLabel)s=~\".+\",%(amdPartitionLabel)s!~\"spx_.*\"}, \"gpudash_partition\", \"$1\", \"%(amdPartitionLabel)s\", \"(.+)\")) or on (cluster, node) (max by (cluster, node) (kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) * 0 + 1)), \"gpudash_key\", \"/\", \"resource\", \"gpudash_partition\"), \"resource\", \"amd_com_$1\", \"gpudash_key\", \"amd_com_gpu/(.+)\"))) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\")" % $._config),
          },
          {
            // GPUs allocated at this step per namespace, product and resource (Running, node-bound pods):
            // the hourly GPU-hours rule sums these samples, one per step.
            "record": "namespace_product_resource:gpudash_gpus_allocated:step",
            "expr": "sum by (cluster, namespace, product, resource) ((node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}) == time()))) or (label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\") and on () (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"1\"}) == time()))",
          },
          {
            // Physical-GPU equivalents per pod, node and kind of device at this step (the SKU weights applied once):
            // the active-GPUs rule below reads these rows. Never billed or pushed.
            "record": "node_pod_kind:gpudash_gpu_equivalents:step",
            "expr": "sum by (cluster, node, namespace, pod, gpudash_kind) (label_replace(label_replace(label_replace(label_join(label_replace(label_replace(label_replace(label_replace(label_replace(label_replace(label_replace(label_replace(label_replace(label_join((node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}) == time())), \"gpudash_sku\", \"/\", \"product\", \"resource\"), \"gpudash_weight\", \"1\", \"\", \"\"), \"gpudash_weight\", \"0.125\", \"gpudash_sku\", \"(?:AMD_Instinct_MI300X_OAM|AMD_Instinct_MI300X_VF)/(?:amd_com_cpx_nps1|amd_com_cpx_nps2|amd_com_cpx_nps4|amd_com_cpx_nps8)\"), \"gpudash_weight\", \"0.14285714285714285\", \"gpudash_sku\", \"(?:NVIDIA-A100-80GB-PCIe-MIG-1g\\\\.10gb|NVIDIA-A100-80GB-PCIe-MIG-1g\\\\.20gb|NVIDIA-A100-SXM4-80GB-MIG-1g\\\\.10gb|NVIDIA-A100-SXM4-80GB-MIG-1g\\\\.20gb|NVIDIA-H100-80GB-HBM3-MIG-1g\\\\.10gb-SHARED|NVIDIA-H100-80GB-HBM3-MIG-1g\\\\.20gb-SHARED)/(?:nvidia_com_gpu)|(?:NVIDIA-A100-80GB-PCIe|NVIDIA-A100-SXM4-80GB)/(?:nvidia_com_mig_1g_10gb|nvidia_com_mig_1g_20gb)|(?:NVIDIA-H100-80GB-HBM3)/(?:nvidia_com_mig_1g_10gb|nvidia_com_mig_1g_10gb_shared|nvidia_com_mig_1g_20gb|nvidia_com_mig_1g_20gb_shared)|(?:NVIDIA-H100-80GB-HBM3-MIG-1g\\\\.10gb|NVIDIA-H100-80GB-HBM3-MIG-1g\\\\.20gb)/(?:nvidia_com_gpu|nvidia_com_gpu_shared)\"), \"gpudash_weight\", \"0.25\", \"gpudash_sku\", \"(?:AMD_Instinct_MI300X_OAM|AMD_Instinct_MI300X_VF)/(?:amd_com_qpx_nps1|amd_com_qpx_nps2|amd_com_qpx_nps4|amd_com_qpx_nps8)|(?:NVIDIA-H100-80GB-HBM3-SHARED|NVIDIA-L40S-SHARED)/(?:nvidia_com_gpu)|(?:NVIDIA-H100-80GB-HBM3|NVIDIA-L40S)/(?:nvidia_com_gpu_shared)\"), \"gpudash_weight\", \"0.2857142857142857\", \"gpudash_sku\", \"(?:NVIDIA-A100-80GB-PCIe-MIG-2g\\\\.20gb|NVIDIA-A100-SXM4-80GB-MIG-2g\\\\.20gb|NVIDIA-H100-80GB-HBM3-MIG-2g\\\\.20gb-SHARED)/(?:nvidia_com_gpu)|(?:NVIDIA-A100-80GB-PCIe|NVIDIA-A100-SXM4-80GB)/(?:nvidia_com_mig_2g_20gb)|(?:NVIDIA-H100-80GB-HBM3)/(?:nvidia_com_mig_2g_20gb|nvidia_com_mig_2g_20gb_shared)|(?:NVIDIA-H100-80GB-HBM3-MIG-2g\\\\.20gb)/(?:nvidia_com_gpu|nvidia_com_gpu_shared)\"), \"gpudash_weight\", \"0.3333333333333333\", \"gpudash_sku\", \"(?:AMD_Instinct_MI300X_OAM|AMD_Instinct_MI300X_VF)/(?:amd_com_tpx_nps1|amd_com_tpx_nps2|amd_com_tpx_nps4|amd_com_tpx_nps8)\"), \"gpudash_weight\", \"0.42857142857142855\", \"gpudash_sku\", \"(?:NVIDIA-A100-80GB-PCIe-MIG-3g\\\\.40gb|NVIDIA-A100-SXM4-80GB-MIG-3g\\\\.40gb|NVIDIA-H100-80GB-HBM3-MIG-3g\\\\.40gb-SHARED)/(?:nvidia_com_gpu)|(?:NVIDIA-A100-80GB-PCIe|NVIDIA-A100-SXM4-80GB)/(?:nvidia_com_mig_3g_40gb)|(?:NVIDIA-H100-80GB-HBM3)/(?:nvidia_com_mig_3g_40gb|nvidia_com_mig_3g_40gb_shared)|(?:NVIDIA-H100-80GB-HBM3-MIG-3g\\\\.40gb)/(?:nvidia_com_gpu|nvidia_com_gpu_shared)\"), \"gpudash_weight\", \"0.5\", \"gpudash_sku\", \"(?:AMD_Instinct_MI300X_OAM|AMD_Instinct_MI300X_VF)/(?:amd_com_dpx_nps1|amd_com_dpx_nps2|amd_com_dpx_nps4|amd_com_dpx_nps8)\"), \"gpudash_weight\", \"0.5714285714285714\", \"gpudash_sku\", \"(?:NVIDIA-A100-80GB-PCIe-MIG-4g\\\\.40gb|NVIDIA-A100-SXM4-80GB-MIG-4g\\\\.40gb|NVIDIA-H100-80GB-HBM3-MIG-4g\\\\.40gb-SHARED)/(?:nvidia_com_gpu)|(?:NVIDIA-A100-80GB-PCIe|NVIDIA-A100-SXM4-80GB)/(?:nvidia_com_mig_4g_40gb)|(?:NVIDIA-H100-80GB-HBM3)/(?:nvidia_com_mig_4g_40gb|nvidia_com_mig_4g_40gb_shared)|(?:NVIDIA-H100-80GB-HBM3-MIG-4g\\\\.40gb)/(?:nvidia_com_gpu|nvidia_com_gpu_shared)\") * on (gpudash_weight) group_left () (label_replace(vector(1), \"gpudash_weight\", \"1\", \"\", \"\") or label_replace(vector(0.125), \"gpudash_weight\", \"0.125\", \"\", \"\") or label_replace(vector(0.14285714285714285), \"gpudash_weight\", \"0.14285714285714285\", \"\", \"\") or label_replace(vector(0.25), \"gpudash_weight\", \"0.25\", \"\", \"\") or label_replace(vector(0.2857142857142857), \"gpudash_weight\", \"0.2857142857142857\", \"\", \"\") or label_replace(vector(0.3333333333333333), \"gpudash_weight\", \"0.3333333333333333\", \"\", \"\") or label_replace(vector(0.42857142857142855), \"gpudash_weight\", \"0.42857142857142855\", \"\", \"\") or label_replace(vector(0.5), \"gpudash_weight\", \"0.5\", \"\", \"\") or label_replace(vector(0.5714285714285714), \"gpudash_weight\", \"0.5714285714285714\", \"\", \"\")), \"gpudash_kindkey\", \"/\", \"gpudash_weight\", \"resource\"), \"gpudash_kind\", \"bound\", \"\", \"\"), \"gpudash_kind\", \"attribution\", \"gpudash_kindkey\", \"[^/]+/nvidia_com_.+\"), \"gpudash_kind\", \"whole\", \"gpudash_kindkey\", \"1/.+\")) or (label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\") and on () (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"1\"}) == time()))",
          },
          {
            // Active GPUs per node at this step (dcgm-exporter attribution, else the fewest GPUs holding the
            // allocation): the CCSP hourly per-node maximum reads these samples.
            "record": "node:gpudash_gpus_active:step",
            "expr": ("max by (cluster, node, active_from) ((sum by (cluster, node) (max by (cluster, node, gpudash_kind) (ceil(sum by (cluster, node, gpudash_kind) ((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time()))) - 1e-06) or label_replace(label_replace(count by (cluster, node) (max by (cluster, node, gpu, UUID) (((label_replace(label_replace(label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID, exported_namespace, exported_pod) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\",GPU_I_PROFILE=\"\"}), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\") unless on (cluster, node, namespace, pod) max by (cluster, node, namespace, pod) (((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time())) and on (gpudash_kind) label_replace(vector(1), \"gpudash_kind\", \"whole\", \"\", \"\")))) or label_replace(label_replace(label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID, exported_namespace, exported_pod) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s" % $._config) + ("\",exported_pod!=\"\",exported_namespace!=\"\",GPU_I_PROFILE=~\"1g\\\\.10gb|1g\\\\.20gb|2g\\\\.20gb|3g\\\\.40gb|4g\\\\.40gb\"}), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, node, namespace, pod) max by (cluster, node, namespace, pod) (((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time())) and on (gpudash_kind) label_replace(vector(1), \"gpudash_kind\", \"attribution\", \"\", \"\"))))), \"gpudash_kind\", \"attribution\", \"\", \"\"), \"gpudash_part\", \"shown\", \"\", \"\")))) * on (cluster, node) group_left (active_from) ((label_replace(label_replace(label_join(((label_replace(label_replace(topk by (cluster, node) (1, label_replace(label_replace(label_replace((ceil(sum by (cluster, node, gpudash_kind) ((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time()))) - 1e-06) * 0 + 1), \"gpudash_rank\", \"1\", \"\", \"\"), \"gpudash_rank\", \"2\", \"gpudash_kind\", \"bound\"), \"gpudash_rank\", \"3\", \"gpudash_kind\", \"attribution\") * on (gpudash_rank) group_left () (label_replace(vector(1), \"gpudash_rank\", \"1\", \"\", \"\") or label_replace(vector(2), \"gpudash_rank\", \"2\", \"\", \"\") or label_replace(vector(3), \"gpudash_rank\", \"3\", \"\", \"\"))), \"active_from\", \"$1\", \"gpudash_kind\", \"(.+)\"), \"active_from\", \"allocation\", \"gpudash_kind\", \"whole\")) * on (cluster, node) group_left (gpudash_seen) (label_replace((count by (cluster, node) (label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\"}), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\"))) * 0 + 1, \"gpudash_seen\", \"1\", \"\", \"\") or on (cluster, node) label_replace(max by (cluster, node) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) * 0), \"gpudash_seen\", \"0\", \"\", \"\"))) * on (cluster, node) group_left (gpudash_kept) (label_replace(((count by (cluster, node) (label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\"}), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\")) > on (cluster, node) sum by (cluster, node) (max by (cluster, node, gpudash_kind) (ceil(sum by (cluster, node, gpudash_kind) ((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time()))) - 1e-06) or label_replace(label_replace(count by (cluster, node) (max by (cluster, node, gpu, UUID) (((label_replace(label_replace(label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID, exported_namespace, exported_pod) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\",GPU_I_PROFILE=\"\"}), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\") unless on (cluster, node, namespace, pod) max by (cluster, node, namespace, pod) (((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time())) and on (gpudash_kind) label_replace(vector(1), \"gpudash_kind\", \"whole\", \"\", \"\")))) or label_replace(label_replace(label_replace(label_replace(max by (cluster, Hostname, hostname, gpu, UUID, exported_namespace, exported_pod) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s" % $._config) + ("\",exported_pod!=\"\",exported_namespace!=\"\",GPU_I_PROFILE=~\"1g\\\\.10gb|1g\\\\.20gb|2g\\\\.20gb|3g\\\\.40gb|4g\\\\.40gb\"}), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, node, namespace, pod) max by (cluster, node, namespace, pod) (((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time())) and on (gpudash_kind) label_replace(vector(1), \"gpudash_kind\", \"attribution\", \"\", \"\"))))), \"gpudash_kind\", \"attribution\", \"\", \"\"), \"gpudash_part\", \"shown\", \"\", \"\")))) and on (cluster, node) max by (cluster, node) ((label_replace((max by (cluster, namespace, pod, uid, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} unless on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\",restart_policy=\"Always\"}) > on (cluster, namespace, pod, uid, node, resource) sum by (cluster, namespace, pod, uid, node, resource) (max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) or max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} and on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\",restart_policy=\"Always\"}))) or (max by (cluster, namespace, pod, uid, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} unless on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",restart_policy=\"Always\"}) unless on (cluster, namespace, pod, uid, node, resource) sum by (cluster, namespace, pod, uid, node, resource) (max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) or max by (cluster, namespace, pod, uid, container, node, resource) (kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} and on (cluster, namespace, pod, uid, container) kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\",restart_policy=\"Always\"}))), \"gpudash_kept\", \"1\", \"resource\", \"nvidia_com_.+\") and on (gpudash_kept) label_replace(vector(1), \"gpudash_kept\", \"1\", \"\", \"\")) and on (cluster, node, namespace, pod) max by (cluster, node, namespace, pod) (((node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"\"}) == time())) and on (gpudash_kind) label_replace(vector(1), \"gpudash_kind\", \"attribution\", \"\", \"\")))) * 0 + 1) * 0 + 1, \"gpudash_kept\", \"1\", \"\", \"\") or on (cluster, node) label_replace(max by (cluster, node) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) * 0), \"gpudash_kept\", \"0\", \"\", \"\")), \"gpudash_src\", \"/\", \"active_from\", \"gpudash_seen\", \"gpudash_kept\"), \"active_from\", \"exporter_down\", \"gpudash_src\", \"attribution/0/.\"), \"active_from\", \"init_unseen\", \"gpudash_src\", \"attribution/1/1\")) * 0 + 1)) or (label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\") and on () (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"1\"}) == time()))" % $._config),
          },
          {
            // GPU energy (J) of the step ending now per namespace (the row without namespace: held by no pod):
            // the hourly energy rule sums these samples, one per step.
            "record": "namespace:gpudash_energy_joules:step",
            "expr": ("sum by (cluster, namespace) ((((max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{job=~\"%(dcgmExporterJob)s\"}) * 0.001 or max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (gpu_energy_consumed{job=~\"%(amdExporterJob)s\"}) * 1e-06) - (max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{job=~\"%(dcgmExporterJob)s\"} offset 1m) * 0.001 or max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (gpu_energy_consumed{job=~\"%(amdExporterJob)s\"} offset 1m) * 1e-06) >= 0) or (max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (DCGM_FI_DEV_POWER_USAGE{job=~\"%(dcgmExporterJob)s\"}) or max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (gpu_package_power{job=~\"%(amdExporterJob)s\"})) * 60) * on (cluster, Hostname, hostname, gpu, UUID, gpu_id) group_right () (sum by (cluster, Hostname, hostname, gpu, UUID, gpu_id, namespace, pod) ((max by (cluster, Hostname, hostname, gpu, UUID, gpu_id, node, GPU_I_ID, namespace, pod) (label_replace(label_replace(label_replace(label_replace(label_replace(label_replace((label_replace(label_replace(label_replace(label_replace(DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s" % $._config) + ("\",exported_pod!=\"\",exported_namespace!=\"\"}, \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\") * 0 + 1), \"gpudash_weight\", \"1\", \"\", \"\"), \"gpudash_weight\", \"0.14285714285714285\", \"GPU_I_PROFILE\", \"1g\\\\.10gb|1g\\\\.20gb\"), \"gpudash_weight\", \"0.2857142857142857\", \"GPU_I_PROFILE\", \"2g\\\\.20gb\"), \"gpudash_weight\", \"0.42857142857142855\", \"GPU_I_PROFILE\", \"3g\\\\.40gb\"), \"gpudash_weight\", \"0.5714285714285714\", \"GPU_I_PROFILE\", \"4g\\\\.40gb\"), \"gpudash_weight\", \"1.0\", \"GPU_I_PROFILE\", \"7g\\\\.80gb\") * on (gpudash_weight) group_left () (label_replace(vector(1), \"gpudash_weight\", \"1\", \"\", \"\") or label_replace(vector(0.14285714285714285), \"gpudash_weight\", \"0.14285714285714285\", \"\", \"\") or label_replace(vector(0.2857142857142857), \"gpudash_weight\", \"0.2857142857142857\", \"\", \"\") or label_replace(vector(0.42857142857142855), \"gpudash_weight\", \"0.42857142857142855\", \"\", \"\") or label_replace(vector(0.5714285714285714), \"gpudash_weight\", \"0.5714285714285714\", \"\", \"\") or label_replace(vector(1.0), \"gpudash_weight\", \"1.0\", \"\", \"\"))) * on (cluster, node) group_left () (min by (cluster, node) (label_replace(label_replace(label_replace(label_replace(max by (cluster, node, gpudash_replicas) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_gpu_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_gpu_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_10gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_10gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_20gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",label_nvidia_com_mig_2g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_2g_20gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_3g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_3g_40gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_4g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_4g_40gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_7g_80gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_7g_80gb_replicas\", \"(.+)\")), \"gpudash_share\", \"0\", \"\", \"\"), \"gpudash_share\", \"0.5\", \"gpudash_replicas\", \"2\"), \"gpudash_share\", \"0.3333333333333333\", \"gpudash_replicas\", \"3\"), \"gpudash_share\", \"0.25\", \"gpudash_replicas\", \"4\") * on (gpudash_share) group_left () (label_replace(vector(0), \"gpudash_share\", \"0\", \"\", \"\") or label_replace(vector(0.5), \"gpudash_share\", \"0.5\", \"\", \"\") or label_replace(vector(0.3333333333333333), \"gpudash_share\", \"0.3333333333333333\", \"\", \"\") or label_replace(vector(0.25), \"gpudash_share\", \"0.25\", \"\", \"\"))) or on (cluster, node) (max by (cluster, node) (label_replace(label_replace(max by (cluster, Hostname, hostname) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\"}), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\")) * 0 + 1)) or (max by (cluster, Hostname, hostname, gpu, UUID, gpu_id, node, namespace, pod) (label_replace(gpu_gfx_activity{job=~\"%(amdExporterJob)s\",pod!=\"\",namespace!=\"\"}, \"node\", \"$1\", \"hostname\", \"(.+)\")) * 0 + 1) unless on (cluster, node) kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdPartitionLabel)s=~\".+\",%(amdPartitionLabel)s!~\"spx_.*\"}) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"" % $._config) + ("%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1))) or clamp_min(1 - (sum by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (sum by (cluster, Hostname, hostname, gpu, UUID, gpu_id, namespace, pod) ((max by (cluster, Hostname, hostname, gpu, UUID, gpu_id, node, GPU_I_ID, namespace, pod) (label_replace(label_replace(label_replace(label_replace(label_replace(label_replace((label_replace(label_replace(label_replace(label_replace(DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s" % $._config) + ("\",exported_pod!=\"\",exported_namespace!=\"\"}, \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\"), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\") * 0 + 1), \"gpudash_weight\", \"1\", \"\", \"\"), \"gpudash_weight\", \"0.14285714285714285\", \"GPU_I_PROFILE\", \"1g\\\\.10gb|1g\\\\.20gb\"), \"gpudash_weight\", \"0.2857142857142857\", \"GPU_I_PROFILE\", \"2g\\\\.20gb\"), \"gpudash_weight\", \"0.42857142857142855\", \"GPU_I_PROFILE\", \"3g\\\\.40gb\"), \"gpudash_weight\", \"0.5714285714285714\", \"GPU_I_PROFILE\", \"4g\\\\.40gb\"), \"gpudash_weight\", \"1.0\", \"GPU_I_PROFILE\", \"7g\\\\.80gb\") * on (gpudash_weight) group_left () (label_replace(vector(1), \"gpudash_weight\", \"1\", \"\", \"\") or label_replace(vector(0.14285714285714285), \"gpudash_weight\", \"0.14285714285714285\", \"\", \"\") or label_replace(vector(0.2857142857142857), \"gpudash_weight\", \"0.2857142857142857\", \"\", \"\") or label_replace(vector(0.42857142857142855), \"gpudash_weight\", \"0.42857142857142855\", \"\", \"\") or label_replace(vector(0.5714285714285714), \"gpudash_weight\", \"0.5714285714285714\", \"\", \"\") or label_replace(vector(1.0), \"gpudash_weight\", \"1.0\", \"\", \"\"))) * on (cluster, node) group_left () (min by (cluster, node) (label_replace(label_replace(label_replace(label_replace(max by (cluster, node, gpudash_replicas) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_gpu_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_gpu_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_10gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_10gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_1g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_1g_20gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s" % $._config) + ("\",label_nvidia_com_mig_2g_20gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_2g_20gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_3g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_3g_40gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_4g_40gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_4g_40gb_replicas\", \"(.+)\") or label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",label_nvidia_com_mig_7g_80gb_replicas=~\"[0-9]*[2-9]|[0-9]*[1-9][0-9]+\"}, \"gpudash_replicas\", \"$1\", \"label_nvidia_com_mig_7g_80gb_replicas\", \"(.+)\")), \"gpudash_share\", \"0\", \"\", \"\"), \"gpudash_share\", \"0.5\", \"gpudash_replicas\", \"2\"), \"gpudash_share\", \"0.3333333333333333\", \"gpudash_replicas\", \"3\"), \"gpudash_share\", \"0.25\", \"gpudash_replicas\", \"4\") * on (gpudash_share) group_left () (label_replace(vector(0), \"gpudash_share\", \"0\", \"\", \"\") or label_replace(vector(0.5), \"gpudash_share\", \"0.5\", \"\", \"\") or label_replace(vector(0.3333333333333333), \"gpudash_share\", \"0.3333333333333333\", \"\", \"\") or label_replace(vector(0.25), \"gpudash_share\", \"0.25\", \"\", \"\"))) or on (cluster, node) (max by (cluster, node) (label_replace(label_replace(max by (cluster, Hostname, hostname) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\"}), \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\")) * 0 + 1)) or (max by (cluster, Hostname, hostname, gpu, UUID, gpu_id, node, namespace, pod) (label_replace(gpu_gfx_activity{job=~\"%(amdExporterJob)s\",pod!=\"\",namespace!=\"\"}, \"node\", \"$1\", \"hostname\", \"(.+)\")) * 0 + 1) unless on (cluster, node) kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdPartitionLabel)s=~\".+\",%(amdPartitionLabel)s!~\"spx_.*\"}) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"" % $._config) + ("%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)))) or ((max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (DCGM_FI_DEV_FB_USED{job=~\"%(dcgmExporterJob)s\"}) or max by (cluster, Hostname, hostname, gpu, UUID, gpu_id) (gpu_gfx_activity{job=~\"%(amdExporterJob)s\"})) * 0 + 1) * 0), 0))) or (label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"))" % $._config),
          },
          {
            // 1 while kube-state-metrics is up and this step's allocation was recorded: the hourly steps-observed rule
            // counts these samples, so a missed or failed evaluation is a step not billed and alerted (coverage
            // below 1), never a step billed twice or copied from the step before.
            "record": "cluster:gpudash_ksm_up:step",
            "expr": ("max by (cluster) (up{job=\"%(kubeStateMetricsJob)s\"} == 1) and on () (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"1\"}) == time()) and on () (timestamp(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"1\"}) == time()) and on () (timestamp(node_pod_kind:gpudash_gpu_equivalents:step{gpudash_sentinel=\"1\"}) == time()) and on () (timestamp(node:gpudash_gpus_active:step{gpudash_sentinel=\"1\"}) == time()) and on () (timestamp(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"1\"}) == time())" % $._config),
          },
          {
            // GPUs allocated now to each Running, node-bound pod, with its workload: the pushed live allocation
            // reads the newest step, so a push does not redo these joins. Never billed (the hourly rules read the
            // per-line series above).
            "record": "namespace_pod:gpudash_gpus_allocated:step",
            "expr": ("sum by (cluster, namespace, pod, node, product, resource, workload, workload_type) ((node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"} and (timestamp(node_pod_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}) == time())) * on (cluster, namespace, pod) group_left (workload, workload_type) ((max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(kube_pod_labels{job=\"%(kubeStateMetricsJob)s\",label_serving_kserve_io_inferenceservice!=\"\"}, \"workload\", \"$1\", \"label_serving_kserve_io_inferenceservice\", \"(.+)\"), \"workload_type\", \"InferenceService\", \"\", \"\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(kube_pod_labels{job=\"%(kubeStateMetricsJob)s\",label_notebook_name!=\"\"}, \"workload\", \"$1\", \"label_notebook_name\", \"(.+)\"), \"workload_type\", \"Notebook\", \"\", \"\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(max by (cluster, namespace, pod, replicaset) (label_replace(kube_pod_owner{job=\"%(kubeStateMetricsJob)s\",owner_kind=\"ReplicaSet\"}, \"replicaset\", \"$1\", \"owner_name\", \"(.+)\")) * on (cluster, namespace, replicaset) group_left (owner_name) max by (cluster, namespace, replicaset, owner_name) (kube_replicaset_owner{job=\"%(kubeStateMetricsJob)s\",owner_kind=\"Deployment\"}), \"workload\", \"$1\", \"owner_name\", \"(.+)\"), \"workload_type\", \"Deployment\", \"\", \"\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(max by (cluster, namespace, pod, replicaset) (label_replace(kube_pod_owner{job=\"%(kubeStateMetricsJob)s\",owner_kind=\"ReplicaSet\"}, \"replicaset\", \"$1\", \"owner_name\", \"(.+)\")), \"workload\", \"$1\", \"replicaset\", \"(.+)\"), \"workload_type\", \"ReplicaSet\", \"\", \"\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(kube_pod_owner{job=\"" % $._config) + ("%(kubeStateMetricsJob)s\",owner_kind!~\"ReplicaSet|<none>|\"}, \"workload\", \"$1\", \"owner_name\", \"(.+)\"), \"workload_type\", \"$1\", \"owner_kind\", \"(.+)\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(kube_pod_owner{job=\"%(kubeStateMetricsJob)s\",owner_kind=~\"<none>|\"}, \"workload\", \"$1\", \"pod\", \"(.+)\"), \"workload_type\", \"Pod\", \"\", \"\"))) or on (cluster, namespace, pod) (max by (cluster, namespace, pod, workload, workload_type) (label_replace(label_replace(kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"}, \"workload\", \"$1\", \"pod\", \"(.+)\"), \"workload_type\", \"Pod\", \"\", \"\")))))" % $._config),
          },
        ],
      },
      {
        // Spoke: GPU allocation per pod, per hour and per node, measured on each cluster.
        "name": "gpudash-spoke",
        "interval": "1m",
        "rules": [
          {
            // GPUs allocated now to each Running, node-bound pod, with its workload: the live burn rate per pod
            // and workload on the hub. Not an integral: billing uses the hourly series below.
            "record": "namespace_pod:gpudash_gpus_allocated:running",
            "expr": "sum by (cluster, namespace, pod, node, product, resource, workload, workload_type) (namespace_pod:gpudash_gpus_allocated:step)",
          },
          {
            // GPU-hours allocated in the previous complete UTC clock hour, integrated at every spoke step
            // (billing.resolution). Every push during an hour carries the same total for the hour before,
            // so the hub reads each hour exactly once and a lost push loses nothing. The sentinel row says
            // the rule ran.
            "record": "namespace_product_resource:gpudash_gpu_hours:previous_hour",
            "expr": "label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h]) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"1\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 1h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"2\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 2h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"3\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 3h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"4\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 4h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"5\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 5h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"6\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 6h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"7\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 7h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"8\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 8h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"9\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 9h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"10\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 10h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"11\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 11h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"12\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 12h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"13\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 13h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"14\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 14h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"15\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 15h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"16\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 16h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"17\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 17h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"18\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 18h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"19\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 19h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"20\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 20h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"21\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 21h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"22\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 22h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"23\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 23h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"24\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace_product_resource:gpudash_gpus_allocated:step{gpudash_sentinel=\"\"}[1h] offset 1ms) * 60 / 3600)[59m59s999ms:1h] offset 24h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"25\", \"\", \"\")",
          },
          {
            // Start of the clock hour the hourly series of a push made now describe: the cluster's heartbeat
            // (pushed whether or not it runs GPUs; the hub's not-reporting alert and push-age panels).
            "record": "cluster:gpudash_billed_hour:start_timestamp",
            "expr": "floor(vector(time()) / 3600) * 3600 - 3600",
          },
          {
            // Spoke steps of the previous clock hour at which kube-state-metrics was up: the share of the
            // hour the hourly figures cover. Less than every step (a restarted Prometheus with an empty
            // TSDB, kube-state-metrics down) is an under-billed hour, which the hub alerts on.
            "record": "cluster:gpudash_steps_observed:previous_hour",
            "expr": "label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h]) or vector(0), \"gpudash_lag\", \"1\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 1h) or vector(0), \"gpudash_lag\", \"2\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 2h) or vector(0), \"gpudash_lag\", \"3\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 3h) or vector(0), \"gpudash_lag\", \"4\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 4h) or vector(0), \"gpudash_lag\", \"5\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 5h) or vector(0), \"gpudash_lag\", \"6\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 6h) or vector(0), \"gpudash_lag\", \"7\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 7h) or vector(0), \"gpudash_lag\", \"8\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 8h) or vector(0), \"gpudash_lag\", \"9\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 9h) or vector(0), \"gpudash_lag\", \"10\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 10h) or vector(0), \"gpudash_lag\", \"11\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 11h) or vector(0), \"gpudash_lag\", \"12\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 12h) or vector(0), \"gpudash_lag\", \"13\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 13h) or vector(0), \"gpudash_lag\", \"14\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 14h) or vector(0), \"gpudash_lag\", \"15\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 15h) or vector(0), \"gpudash_lag\", \"16\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 16h) or vector(0), \"gpudash_lag\", \"17\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 17h) or vector(0), \"gpudash_lag\", \"18\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 18h) or vector(0), \"gpudash_lag\", \"19\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 19h) or vector(0), \"gpudash_lag\", \"20\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 20h) or vector(0), \"gpudash_lag\", \"21\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 21h) or vector(0), \"gpudash_lag\", \"22\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 22h) or vector(0), \"gpudash_lag\", \"23\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 23h) or vector(0), \"gpudash_lag\", \"24\", \"\", \"\") or label_replace(last_over_time((count_over_time(cluster:gpudash_ksm_up:step[1h] offset 1ms))[59m59s999ms:1h] offset 24h) or vector(0), \"gpudash_lag\", \"25\", \"\", \"\")",
          },
          {
            // CCSP: most GPUs allocated to Running pods on each node at any step of the previous clock hour:
            // whole GPUs from the allocation (active_from=allocation); MIG slices and time-sliced replicas on
            // the physical GPUs dcgm-exporter attributes to their pods, at least the compute-share bound
            // (attribution); other fractions by the bound (bound); the bound while dcgm-exporter was not seen
            // (exporter_down: flagged, possibly low).
            "record": "node:gpudash_gpus_active:max_previous_hour",
            "expr": "label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h]) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"1\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 1h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"2\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 2h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"3\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 3h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"4\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 4h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"5\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 5h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"6\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 6h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"7\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 7h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"8\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 8h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"9\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 9h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"10\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 10h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"11\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 11h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"12\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 12h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"13\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 13h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"14\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 14h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"15\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 15h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"16\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 16h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"17\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 17h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"18\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 18h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"19\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 19h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"20\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 20h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"21\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 21h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"22\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 22h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"23\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 23h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"24\", \"\", \"\") or label_replace(last_over_time((max_over_time(node:gpudash_gpus_active:step{gpudash_sentinel=\"\"}[1h] offset 1ms))[59m59s999ms:1h] offset 24h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"25\", \"\", \"\")",
          },
          {
            // Peak GPU activity (0-1) of each pod over the push window: zero for long enough = an idle GPU
            // that is still billed (idle alerts and the idle report).
            "record": "namespace_pod:gpudash_gpu_activity:max",
            "expr": ("max by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(label_replace(max by (cluster, exported_namespace, exported_pod, modelName) (max_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\"}[4m59s999ms])), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\") and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"modelName\", \"(.*)\")) or on (cluster, namespace, pod) max by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(label_replace(max by (cluster, exported_namespace, exported_pod, modelName) (max_over_time(DCGM_FI_DEV_GPU_UTIL{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\"}[4m59s999ms]) / 100), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\") and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"modelName\", \"(.*)\")) or on (cluster, namespace, pod) max by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(max by (cluster, namespace, pod, node, card_model) (label_replace(max_over_time(gpu_gfx_activity{job=~\"%(amdExporterJob)s" % $._config) + ("\",pod!=\"\",namespace!=\"\"}[4m59s999ms]) / 100, \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"card_model\", \"(.*)\") * on (cluster, node) group_left (gpudash_product) max by (cluster, node, gpudash_product) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdProductLabel)s!=\"\"}, \"gpudash_product\", \"$1\", \"%(amdProductLabel)s\", \"(.+)\")), \"gpu_model\", \"$1\", \"gpudash_product\", \"(.+)\") or on (cluster, namespace, pod) label_replace(max by (cluster, namespace, pod, node, card_model) (label_replace(max_over_time(gpu_gfx_activity{job=~\"%(amdExporterJob)s\",pod!=\"\",namespace!=\"\"}[4m59s999ms]) / 100, \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"card_model\", \"(.*)\"))" % $._config),
          },
          {
            // Mean GPU activity (0-1) of each pod over the push window: allocated-vs-used efficiency panels.
            "record": "namespace_pod:gpudash_gpu_activity:avg",
            "expr": ("avg by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(label_replace(avg by (cluster, exported_namespace, exported_pod, modelName) (avg_over_time(DCGM_FI_PROF_GR_ENGINE_ACTIVE{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\"}[4m59s999ms])), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\") and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"modelName\", \"(.*)\")) or on (cluster, namespace, pod) avg by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(label_replace(avg by (cluster, exported_namespace, exported_pod, modelName) (avg_over_time(DCGM_FI_DEV_GPU_UTIL{job=~\"%(dcgmExporterJob)s\",exported_pod!=\"\",exported_namespace!=\"\"}[4m59s999ms]) / 100), \"namespace\", \"$1\", \"exported_namespace\", \"(.+)\"), \"pod\", \"$1\", \"exported_pod\", \"(.+)\") and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"modelName\", \"(.*)\")) or on (cluster, namespace, pod) avg by (cluster, namespace, pod, gpu_model) (label_replace(label_replace(avg by (cluster, namespace, pod, node, card_model) (label_replace(avg_over_time(gpu_gfx_activity{job=~\"%(amdExporterJob)s" % $._config) + ("\",pod!=\"\",namespace!=\"\"}[4m59s999ms]) / 100, \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"card_model\", \"(.*)\") * on (cluster, node) group_left (gpudash_product) max by (cluster, node, gpudash_product) (label_replace(kube_node_labels{job=\"%(kubeStateMetricsJob)s\",%(amdProductLabel)s!=\"\"}, \"gpudash_product\", \"$1\", \"%(amdProductLabel)s\", \"(.+)\")), \"gpu_model\", \"$1\", \"gpudash_product\", \"(.+)\") or on (cluster, namespace, pod) label_replace(avg by (cluster, namespace, pod, node, card_model) (label_replace(avg_over_time(gpu_gfx_activity{job=~\"%(amdExporterJob)s\",pod!=\"\",namespace!=\"\"}[4m59s999ms]) / 100, \"node\", \"$1\", \"hostname\", \"(.+)\")) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) ((kube_pod_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"} or kube_pod_init_container_resource_requests{job=\"%(kubeStateMetricsJob)s\",resource=~\"nvidia_com_.+|amd_com_.+\",node!=\"\"}) > 0) and on (cluster, namespace, pod) max by (cluster, namespace, pod, uid) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1)), \"gpu_model\", \"$1\", \"card_model\", \"(.*)\"))" % $._config),
          },
          {
            // GPU energy (kWh) of the previous clock hour per namespace: each GPU's counter rise (power x step
            // without a counter) at every spoke step, split among the pods holding it (MIG by compute share);
            // the row without namespace is the unallocated line. Pushed like GPU-hours, with a sentinel row.
            "record": "namespace:gpudash_energy_kwh:previous_hour",
            "expr": "label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h]) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"1\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 1h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"2\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 2h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"3\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 3h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"4\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 4h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"5\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 5h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"6\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 6h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"7\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 7h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"8\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 8h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"9\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 9h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"10\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 10h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"11\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 11h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"12\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 12h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"13\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 13h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"14\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 14h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"15\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 15h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"16\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 16h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"17\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 17h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"18\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 18h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"19\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 19h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"20\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 20h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"21\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 21h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"22\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 22h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"23\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 23h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"24\", \"\", \"\") or label_replace(last_over_time((sum_over_time(namespace:gpudash_energy_joules:step{gpudash_sentinel=\"\"}[1h] offset 1ms) / 3600000.0)[59m59s999ms:1h] offset 24h) or label_replace(vector(0), \"gpudash_sentinel\", \"1\", \"\", \"\"), \"gpudash_lag\", \"25\", \"\", \"\")",
          },
          {
            // A raw input the spoke rules need is absent here (input: init_containers, spoke_tier,
            // gpu_power): the GPU-hours or energy it feeds are under-measured until it returns.
            // Pushed at every push; the hub's GPUBillingInputMissing names the cause and the fix.
            "record": "cluster_input_node:gpudash_input_missing:count",
            "expr": ("sum by (cluster, input, node) ((label_replace(((count by (cluster) (kube_pod_status_phase{job=\"%(kubeStateMetricsJob)s\",phase=\"Running\"} == 1) * 0 + 1) unless on (cluster) count by (cluster) (kube_pod_container_info{job=\"%(kubeStateMetricsJob)s\"})) unless on (cluster) count by (cluster) (kube_pod_init_container_info{job=\"%(kubeStateMetricsJob)s\"}), \"input\", \"init_containers\", \"\", \"\")) or (label_replace((count by (cluster, node) (max by (cluster, node, gpu, UUID) (label_replace(label_replace(DCGM_FI_PROF_GR_ENGINE_ACTIVE{job=~\"%(dcgmExporterJob)s\"} or DCGM_FI_DEV_GPU_UTIL{job=~\"%(dcgmExporterJob)s\"}, \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\"))) unless on (cluster, node) count by (cluster, node) (label_replace(label_replace(DCGM_FI_DEV_POWER_USAGE{job=~\"%(dcgmExporterJob)s\"} or DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION{job=~\"%(dcgmExporterJob)s\"}, \"node\", \"$1\", \"Hostname\", \"(.+)\"), \"node\", \"$1\", \"hostname\", \"(.+)\"))) or (count by (cluster, node) (max by (cluster, node, gpu_id) (label_replace(gpu_gfx_activity{job=~\"%(amdExporterJob)s\"}, \"node\", \"$1\", \"hostname\", \"(.+)\"))) unless on (cluster, node) count by (cluster, node) (label_replace(gpu_package_power{job=~\"%(amdExporterJob)s\"}, \"node\", \"$1\", \"hostname\", \"(.+)\") or label_replace(gpu_energy_consumed{job=~\"%(amdExporterJob)s\"}, \"node\", \"$1\", \"hostname\", \"(.+)\"))), \"input\", \"gpu_power\", \"\", \"\")) or (label_replace((count by (cluster) (up{job=\"%(kubeStateMetricsJob)s\"} == 1) * 0 + 1) unless on (cluster) count by (cluster) (max_over_time(cluster:gpudash_ksm_up:step[4m59s999ms])), \"input\", \"spoke_tier\", \"\", \"\")))" % $._config),
          },
        ],
      },
      {
        // Model constants: prices per SKU, tenants, budgets, thresholds.
        "name": "gpudash-hub-model",
        "interval": "5m",
        "rules": [
          {
            // Price per hour of amd.com/cpx_nps1 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps1",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/cpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps2 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps2",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/cpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps4 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps4",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/cpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps8 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps8",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/cpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps1 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps1",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/dpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps2 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps2",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/dpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps4 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps4",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/dpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps8 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps8",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/dpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/gpu on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_gpu",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/gpu",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps1 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps1",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/qpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps2 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps2",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/qpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps4 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps4",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/qpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps8 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps8",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/qpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/spx_nps1 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps1",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/spx_nps1",
            },
          },
          {
            // Price per hour of amd.com/spx_nps2 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps2",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/spx_nps2",
            },
          },
          {
            // Price per hour of amd.com/spx_nps4 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps4",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/spx_nps4",
            },
          },
          {
            // Price per hour of amd.com/spx_nps8 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps8",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/spx_nps8",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps1 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps1",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/tpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps2 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps2",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/tpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps4 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps4",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/tpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps8 on AMD_Instinct_MI300X_OAM (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps8",
              "product": "AMD_Instinct_MI300X_OAM",
              "resource": "amd.com/tpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps1 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps1",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/cpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps2 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps2",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/cpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps4 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps4",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/cpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/cpx_nps8 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.5125)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_cpx_nps8",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/cpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps1 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps1",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/dpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps2 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps2",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/dpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps4 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps4",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/dpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/dpx_nps8 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.05)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_dpx_nps8",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/dpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/gpu on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_gpu",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/gpu",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps1 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps1",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/qpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps2 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps2",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/qpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps4 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps4",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/qpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/qpx_nps8 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.025)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_qpx_nps8",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/qpx_nps8",
            },
          },
          {
            // Price per hour of amd.com/spx_nps1 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps1",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/spx_nps1",
            },
          },
          {
            // Price per hour of amd.com/spx_nps2 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps2",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/spx_nps2",
            },
          },
          {
            // Price per hour of amd.com/spx_nps4 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps4",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/spx_nps4",
            },
          },
          {
            // Price per hour of amd.com/spx_nps8 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_spx_nps8",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/spx_nps8",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps1 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps1",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/tpx_nps1",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps2 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps2",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/tpx_nps2",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps4 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps4",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/tpx_nps4",
            },
          },
          {
            // Price per hour of amd.com/tpx_nps8 on AMD_Instinct_MI300X_VF (class mi300x).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.3666666666666665)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "mi300x",
              "ksm_resource": "amd_com_tpx_nps8",
              "product": "AMD_Instinct_MI300X_VF",
              "resource": "amd.com/tpx_nps8",
            },
          },
          {
            // Price per hour of nvidia.com/gpu on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/gpu",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_10gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_20gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.914286)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_2g_20gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.6)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_3g_40gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.828571)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_4g_40gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-A100-80GB-PCIe (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_7g_80gb",
              "product": "NVIDIA-A100-80GB-PCIe",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-A100-80GB-PCIe-MIG-1g.10gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-1g.10gb",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-A100-80GB-PCIe-MIG-1g.20gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-1g.20gb",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-A100-80GB-PCIe-MIG-2g.20gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.914286)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-2g.20gb",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-A100-80GB-PCIe-MIG-3g.40gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.6)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-3g.40gb",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-A100-80GB-PCIe-MIG-4g.40gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.828571)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-4g.40gb",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-A100-80GB-PCIe-MIG-7g.80gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-MIG-7g.80gb",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-A100-80GB-PCIe-SHARED (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-80GB-PCIe-SHARED",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/gpu on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/gpu",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_10gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_20gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.914286)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_2g_20gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.6)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_3g_40gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.828571)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_4g_40gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-A100-SXM4-80GB (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_mig_7g_80gb",
              "product": "NVIDIA-A100-SXM4-80GB",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-A100-SXM4-80GB-MIG-1g.10gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.55)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-A100-SXM4-80GB-MIG-1g.20gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-1g.20gb",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-A100-SXM4-80GB-MIG-2g.20gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.914286)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-2g.20gb",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-A100-SXM4-80GB-MIG-3g.40gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.6)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-3g.40gb",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-A100-SXM4-80GB-MIG-4g.40gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.828571)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-4g.40gb",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-A100-SXM4-80GB-MIG-7g.80gb (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-MIG-7g.80gb",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-A100-SXM4-80GB-SHARED (class a100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(3.2)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "a100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-A100-SXM4-80GB-SHARED",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/gpu on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/gpu",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_10gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_10gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-1g.10gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_20gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_1g_20gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-1g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.4)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_2g_20gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.4)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_2g_20gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-2g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.45)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_3g_40gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.45)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_3g_40gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-3g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_4g_40gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_4g_40gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-4g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_7g_80gb",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb.shared on NVIDIA-H100-80GB-HBM3 (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_mig_7g_80gb_shared",
              "product": "NVIDIA-H100-80GB-HBM3",
              "resource": "nvidia.com/mig-7g.80gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb on NVIDIA-H100-80GB-HBM3-MIG-1g.10gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb",
              "resource": "nvidia.com/mig-1g.10gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb.shared on NVIDIA-H100-80GB-HBM3-MIG-1g.10gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb",
              "resource": "nvidia.com/mig-1g.10gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.10gb.shared on NVIDIA-H100-80GB-HBM3-MIG-1g.10gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.10gb-SHARED",
              "resource": "nvidia.com/mig-1g.10gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb on NVIDIA-H100-80GB-HBM3-MIG-1g.20gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.20gb",
              "resource": "nvidia.com/mig-1g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb.shared on NVIDIA-H100-80GB-HBM3-MIG-1g.20gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.20gb",
              "resource": "nvidia.com/mig-1g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-1g.20gb.shared on NVIDIA-H100-80GB-HBM3-MIG-1g.20gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-1g.20gb-SHARED",
              "resource": "nvidia.com/mig-1g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb on NVIDIA-H100-80GB-HBM3-MIG-2g.20gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.4)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-2g.20gb",
              "resource": "nvidia.com/mig-2g.20gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb.shared on NVIDIA-H100-80GB-HBM3-MIG-2g.20gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.4)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-2g.20gb",
              "resource": "nvidia.com/mig-2g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-2g.20gb.shared on NVIDIA-H100-80GB-HBM3-MIG-2g.20gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.4)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-2g.20gb-SHARED",
              "resource": "nvidia.com/mig-2g.20gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb on NVIDIA-H100-80GB-HBM3-MIG-3g.40gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.45)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb",
              "resource": "nvidia.com/mig-3g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb.shared on NVIDIA-H100-80GB-HBM3-MIG-3g.40gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.45)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb",
              "resource": "nvidia.com/mig-3g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-3g.40gb.shared on NVIDIA-H100-80GB-HBM3-MIG-3g.40gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.45)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-3g.40gb-SHARED",
              "resource": "nvidia.com/mig-3g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb on NVIDIA-H100-80GB-HBM3-MIG-4g.40gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-4g.40gb",
              "resource": "nvidia.com/mig-4g.40gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb.shared on NVIDIA-H100-80GB-HBM3-MIG-4g.40gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-4g.40gb",
              "resource": "nvidia.com/mig-4g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-4g.40gb.shared on NVIDIA-H100-80GB-HBM3-MIG-4g.40gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(2.8)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-4g.40gb-SHARED",
              "resource": "nvidia.com/mig-4g.40gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb on NVIDIA-H100-80GB-HBM3-MIG-7g.80gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-7g.80gb",
              "resource": "nvidia.com/mig-7g.80gb",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb.shared on NVIDIA-H100-80GB-HBM3-MIG-7g.80gb (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-7g.80gb",
              "resource": "nvidia.com/mig-7g.80gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/mig-7g.80gb.shared on NVIDIA-H100-80GB-HBM3-MIG-7g.80gb-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(4.9)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-MIG-7g.80gb-SHARED",
              "resource": "nvidia.com/mig-7g.80gb.shared",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-H100-80GB-HBM3-SHARED (class h100-80gb).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.225)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "h100-80gb",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-H100-80GB-HBM3-SHARED",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/gpu on NVIDIA-L40S (class l40s).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(1.1)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "l40s",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-L40S",
              "resource": "nvidia.com/gpu",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-L40S (class l40s).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.275)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "l40s",
              "ksm_resource": "nvidia_com_gpu_shared",
              "product": "NVIDIA-L40S",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Price per hour of nvidia.com/gpu.shared on NVIDIA-L40S-SHARED (class l40s).
            "record": "cluster_product_resource:gpudash_price_per_hour:model",
            "expr": "vector(0.275)",
            "labels": {
              "cluster": "gpudash/model",
              "gpu_class": "l40s",
              "ksm_resource": "nvidia_com_gpu",
              "product": "NVIDIA-L40S-SHARED",
              "resource": "nvidia.com/gpu.shared",
            },
          },
          {
            // Tenants inference to team-b: budget per period (USD), row "<namespace> <tenant> <alert_at>".
            "record": "cluster_row:gpudash_tenant:model",
            "expr": "label_replace(vector(8000.0), \"row\", \"llm-serving inference 0.5,0.9,1\", \"\", \"\") or label_replace(vector(12000.0), \"row\", \"ml-research research 0.8,1\", \"\", \"\") or label_replace(vector(5000.0), \"row\", \"team-a team-a 0.5,0.9,1\", \"\", \"\") or label_replace(vector(2000.0), \"row\", \"team-b team-b 0.5,0.9,1\", \"\", \"\")",
            "labels": {
              "cluster": "gpudash/model",
              "part": "0",
            },
          },
          {
            // Budget of each tenant per billing period, in USD, on cluster prod-east.
            "record": "cluster_namespace:gpudash_budget:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"))",
            "labels": {
              "cluster": "prod-east",
            },
          },
          {
            // Alert when a tenant has spent 50% of its budget (tenants whose alert_at has it), on cluster prod-east.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.5(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.5",
            "labels": {
              "cluster": "prod-east",
              "threshold": "0.5",
            },
          },
          {
            // Alert when a tenant has spent 80% of its budget (tenants whose alert_at has it), on cluster prod-east.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.8(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.8",
            "labels": {
              "cluster": "prod-east",
              "threshold": "0.8",
            },
          },
          {
            // Alert when a tenant has spent 90% of its budget (tenants whose alert_at has it), on cluster prod-east.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.9(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.9",
            "labels": {
              "cluster": "prod-east",
              "threshold": "0.9",
            },
          },
          {
            // Alert when a tenant has spent 100% of its budget (tenants whose alert_at has it), on cluster prod-east.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]1(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 1.0",
            "labels": {
              "cluster": "prod-east",
              "threshold": "1",
            },
          },
          {
            // Budget of each tenant per billing period, in USD, on cluster prod-west.
            "record": "cluster_namespace:gpudash_budget:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"))",
            "labels": {
              "cluster": "prod-west",
            },
          },
          {
            // Alert when a tenant has spent 50% of its budget (tenants whose alert_at has it), on cluster prod-west.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.5(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.5",
            "labels": {
              "cluster": "prod-west",
              "threshold": "0.5",
            },
          },
          {
            // Alert when a tenant has spent 80% of its budget (tenants whose alert_at has it), on cluster prod-west.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.8(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.8",
            "labels": {
              "cluster": "prod-west",
              "threshold": "0.8",
            },
          },
          {
            // Alert when a tenant has spent 90% of its budget (tenants whose alert_at has it), on cluster prod-west.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]0\\\\.9(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 0.9",
            "labels": {
              "cluster": "prod-west",
              "threshold": "0.9",
            },
          },
          {
            // Alert when a tenant has spent 100% of its budget (tenants whose alert_at has it), on cluster prod-west.
            "record": "cluster_namespace:gpudash_budget_threshold:model",
            "expr": "max without (row, part) (label_replace(label_replace(cluster_row:gpudash_tenant:model{cluster=\"gpudash/model\",row=~\".*[ ,]1(,.*)?\"}, \"namespace\", \"$1\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\"), \"tenant\", \"$2\", \"row\", \"([^ ]+) ([^ ]+) ([^ ]*)\")) * 0 + 1.0",
            "labels": {
              "cluster": "prod-west",
              "threshold": "1",
            },
          },
          {
            // Price of one kWh of GPU energy in USD on cluster prod-east.
            "record": "cluster:gpudash_energy_price_per_kwh:model",
            "expr": "vector(0.18)",
            "labels": {
              "cluster": "prod-east",
            },
          },
          {
            // Price of one kWh of GPU energy in USD on cluster prod-west.
            "record": "cluster:gpudash_energy_price_per_kwh:model",
            "expr": "vector(0.24)",
            "labels": {
              "cluster": "prod-west",
            },
          },
          {
            // 1 per tenant (labels namespace, tenant) on every model cluster.
            "record": "cluster_namespace:gpudash_tenant:info",
            "expr": "cluster_namespace:gpudash_budget:model * 0 + 1",
          },
        ],
      },
      {
        // Billing: hourly GPU-hours and cost, burn rates, period-to-date.
        "name": "gpudash-hub-billing",
        "interval": "5m",
        "rules": [
          {
            // The settle of namespace_product_resource:gpudash_gpu_hours:previous_hour: the hour the hub settles now, read once per evaluation; the rules
            // after it read its rows stamped in this clock hour only (calendar.own_hour).
            "record": "cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour",
            "expr": "max by (cluster, namespace, product, resource, gpudash_sentinel) (max by (cluster, namespace, product, resource, gpudash_sentinel, gpudash_lag) ((max_over_time((namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 0))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 0)) or (max_over_time((namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 1))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 1)) or label_replace((namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600)), \"gpudash_part\", \"latest\", \"\", \"\")) or last_over_time((max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"24\"}[1h] offset 1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"23\"}[1h] offset 1h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"22\"}[1h] offset 2h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"21\"}[1h] offset 3h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"20\"}[1h] offset 4h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"19\"}[1h] offset 5h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"18\"}[1h] offset 6h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"17\"}[1h] offset 7h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"16\"}[1h] offset 8h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"15\"}[1h] offset 9h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"14\"}[1h] offset 10h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"13\"}[1h] offset 11h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"12\"}[1h] offset 12h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"11\"}[1h] offset 13h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"10\"}[1h] offset 14h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"9\"}[1h] offset 15h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"8\"}[1h] offset 16h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"7\"}[1h] offset 17h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"6\"}[1h] offset 18h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"5\"}[1h] offset 19h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"4\"}[1h] offset 20h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"3\"}[1h] offset 21h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"2\"}[1h] offset 22h1ms) or max_over_time(namespace_product_resource:gpudash_gpu_hours:previous_hour{gpudash_lag=\"1\"}[1h] offset 23h1ms))[59m59s999ms:1h]))",
          },
          {
            // The settle of namespace:gpudash_energy_kwh:previous_hour: the hour the hub settles now, read once per evaluation; the rules
            // after it read its rows stamped in this clock hour only (calendar.own_hour).
            "record": "cluster_namespace:gpudash_energy_kwh:settled_hour",
            "expr": "max by (cluster, namespace, gpudash_sentinel) (max by (cluster, namespace, gpudash_sentinel, gpudash_lag) ((max_over_time((namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 0))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 0)) or (max_over_time((namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 1))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 1)) or label_replace((namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"} and timestamp(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600)), \"gpudash_part\", \"latest\", \"\", \"\")) or last_over_time((max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"24\"}[1h] offset 1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"23\"}[1h] offset 1h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"22\"}[1h] offset 2h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"21\"}[1h] offset 3h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"20\"}[1h] offset 4h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"19\"}[1h] offset 5h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"18\"}[1h] offset 6h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"17\"}[1h] offset 7h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"16\"}[1h] offset 8h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"15\"}[1h] offset 9h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"14\"}[1h] offset 10h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"13\"}[1h] offset 11h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"12\"}[1h] offset 12h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"11\"}[1h] offset 13h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"10\"}[1h] offset 14h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"9\"}[1h] offset 15h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"8\"}[1h] offset 16h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"7\"}[1h] offset 17h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"6\"}[1h] offset 18h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"5\"}[1h] offset 19h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"4\"}[1h] offset 20h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"3\"}[1h] offset 21h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"2\"}[1h] offset 22h1ms) or max_over_time(namespace:gpudash_energy_kwh:previous_hour{gpudash_lag=\"1\"}[1h] offset 23h1ms))[59m59s999ms:1h]))",
          },
          {
            // The settle of cluster:gpudash_steps_observed:previous_hour: the hour the hub settles now, read once per evaluation; the rules
            // after it read its rows stamped in this clock hour only (calendar.own_hour).
            "record": "cluster:gpudash_steps_observed:settled_hour",
            "expr": "max by (cluster) (max by (cluster, gpudash_lag) ((max_over_time((cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"} and timestamp(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 0))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 0)) or (max_over_time((cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"} and timestamp(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 1))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 1)) or label_replace((cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"} and timestamp(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600)), \"gpudash_part\", \"latest\", \"\", \"\")) or last_over_time((max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"24\"}[1h] offset 1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"23\"}[1h] offset 1h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"22\"}[1h] offset 2h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"21\"}[1h] offset 3h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"20\"}[1h] offset 4h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"19\"}[1h] offset 5h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"18\"}[1h] offset 6h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"17\"}[1h] offset 7h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"16\"}[1h] offset 8h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"15\"}[1h] offset 9h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"14\"}[1h] offset 10h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"13\"}[1h] offset 11h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"12\"}[1h] offset 12h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"11\"}[1h] offset 13h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"10\"}[1h] offset 14h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"9\"}[1h] offset 15h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"8\"}[1h] offset 16h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"7\"}[1h] offset 17h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"6\"}[1h] offset 18h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"5\"}[1h] offset 19h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"4\"}[1h] offset 20h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"3\"}[1h] offset 21h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"2\"}[1h] offset 22h1ms) or max_over_time(cluster:gpudash_steps_observed:previous_hour{gpudash_lag=\"1\"}[1h] offset 23h1ms))[59m59s999ms:1h]))",
          },
          {
            // GPU-hours of the last complete clock hour per billing line (cluster, tenant namespace, class,
            // billed resource). Hour H is read at H+2h with last_over_time(...[1h] offset 1ms).
            "record": "cluster_namespace_class_resource:gpudash_gpu_hours:last_hour",
            "expr": "sum by (cluster, namespace, gpu_class, resource) (label_replace(max by (cluster, namespace, product, resource, gpudash_sentinel) ((cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))), \"ksm_resource\", \"$1\", \"resource\", \"(.*)\") * on (product, ksm_resource) group_left (gpu_class, resource) (cluster_product_resource:gpudash_price_per_hour:model * 0 + 1))",
          },
          {
            // Cost in USD of the last complete clock hour per billing line: what is invoiced.
            "record": "cluster_namespace_class_resource:gpudash_cost:last_hour",
            "expr": "sum by (cluster, namespace, gpu_class, resource) (label_replace(max by (cluster, namespace, product, resource, gpudash_sentinel) ((cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))), \"ksm_resource\", \"$1\", \"resource\", \"(.*)\") * on (product, ksm_resource) group_left (gpu_class, resource) cluster_product_resource:gpudash_price_per_hour:model)",
          },
          {
            // GPU energy (kWh) of the last complete clock hour per namespace and cluster, read like the GPU-hours;
            // the row without namespace is the provider's unallocated line (GPUs held by no pod).
            "record": "cluster_namespace:gpudash_energy_kwh:last_hour",
            "expr": "sum by (cluster, namespace) (max by (cluster, namespace, gpudash_sentinel) ((cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))))",
          },
          {
            // Energy cost in USD of the last complete clock hour per namespace and cluster: the
            // energy line of the statement (kWh x the cluster's price per kWh).
            "record": "cluster_namespace:gpudash_energy_cost:last_hour",
            "expr": "((sum by (cluster, namespace) (max by (cluster, namespace, gpudash_sentinel) ((cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600)))) * on (cluster) group_left () cluster:gpudash_energy_price_per_kwh:model) or (sum by (cluster, namespace) (max by (cluster, namespace, gpudash_sentinel) ((cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600)))) unless on (cluster) cluster:gpudash_energy_price_per_kwh:model) * 0.18)",
          },
          {
            // GPU-hours of the last hour on products or resources the model has no price for: never silently
            // free; alerted and shown to the provider until the model prices them.
            "record": "cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour",
            "expr": "sum by (cluster, namespace, product, resource) (max by (cluster, namespace, product, resource, gpudash_sentinel) ((cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))) unless on (product, resource) label_replace(cluster_product_resource:gpudash_price_per_hour:model, \"resource\", \"$1\", \"ksm_resource\", \"(.*)\"))",
          },
          {
            // Share of the last complete clock hour the cluster's billed figures cover (1: every spoke step;
            // 0: an hourly rule failed in every push, so the hour is missing). Below 1 is under-billing.
            "record": "cluster:gpudash_billing_coverage:last_hour",
            "expr": "(max by (cluster) ((cluster:gpudash_steps_observed:settled_hour and timestamp(cluster:gpudash_steps_observed:settled_hour) >= (time() - time() % 3600))) / 60 and on (cluster) max by (cluster) (max by (cluster, namespace, product, resource, gpudash_sentinel) ((cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"1\"} and timestamp(cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"1\"}) >= (time() - time() % 3600)))) and on (cluster) max by (cluster) (max by (cluster, node, active_from, gpudash_sentinel) (max by (cluster, node, active_from, gpudash_sentinel, gpudash_lag) ((max_over_time((node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 0))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 0)) or (max_over_time((node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 1))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 1)) or label_replace((node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"25\"}) >= (time() - time() % 3600)), \"gpudash_part\", \"latest\", \"\", \"\")) or last_over_time((max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"24\"}[1h] offset 1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"23\"}[1h] offset 1h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"22\"}[1h] offset 2h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"21\"}[1h] offset 3h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"20\"}[1h] offset 4h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"19\"}[1h] offset 5h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"18\"}[1h] offset 6h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"17\"}[1h] offset 7h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"16\"}[1h] offset 8h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"15\"}[1h] offset 9h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"14\"}[1h] offset 10h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"13\"}[1h] offset 11h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"12\"}[1h] offset 12h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"11\"}[1h] offset 13h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"10\"}[1h] offset 14h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"9\"}[1h] offset 15h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"8\"}[1h] offset 16h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"7\"}[1h] offset 17h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"6\"}[1h] offset 18h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"5\"}[1h] offset 19h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"4\"}[1h] offset 20h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"3\"}[1h] offset 21h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"2\"}[1h] offset 22h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_sentinel=\"1\",gpudash_lag=\"1\"}[1h] offset 23h1ms))[59m59s999ms:1h]))) and on (cluster) max by (cluster) (max by (cluster, namespace, gpudash_sentinel) ((cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"1\"} and timestamp(cluster_namespace:gpudash_energy_kwh:settled_hour{gpudash_sentinel=\"1\"}) >= (time() - time() % 3600))))) or on (cluster) (max by (cluster) ((cluster:gpudash_steps_observed:settled_hour and timestamp(cluster:gpudash_steps_observed:settled_hour) >= (time() - time() % 3600))) * 0) or on (cluster) ((label_replace(vector(0), \"cluster\", \"prod-east\", \"\", \"\") or label_replace(vector(0), \"cluster\", \"prod-west\", \"\", \"\")) unless on () last_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=\"\"}[7m30s]))",
          },
          {
            // Cost of the last complete clock hour per namespace and cluster: the input of period-to-date
            // (from the pushed figures, as the billing lines: a line that stops is gone at once).
            "record": "cluster_namespace:gpudash_cost:last_hour",
            "expr": "sum by (cluster, namespace) (label_replace(max by (cluster, namespace, product, resource, gpudash_sentinel) ((cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_namespace_product_resource:gpudash_gpu_hours:settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))), \"ksm_resource\", \"$1\", \"resource\", \"(.*)\") * on (product, ksm_resource) group_left (gpu_class, resource) cluster_product_resource:gpudash_price_per_hour:model)",
          },
          {
            // GPUs allocated now per billing line (latest push).
            "record": "cluster_namespace_class_resource:gpudash_gpus_allocated:current",
            "expr": "sum by (cluster, namespace, gpu_class, resource) (label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running[7m30s]), \"ksm_resource\", \"$1\", \"resource\", \"(.*)\") * on (product, ksm_resource) group_left (gpu_class, resource) (cluster_product_resource:gpudash_price_per_hour:model * 0 + 1))",
          },
          {
            // Burn rate in USD/hour of each pod right now.
            "record": "cluster_namespace_pod:gpudash_cost_per_hour:current",
            "expr": "sum by (cluster, namespace, pod, workload, workload_type) (label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running[7m30s]), \"ksm_resource\", \"$1\", \"resource\", \"(.*)\") * on (product, ksm_resource) group_left (gpu_class, resource) cluster_product_resource:gpudash_price_per_hour:model)",
          },
          {
            // Burn rate in USD/hour of each workload (Deployment, StatefulSet, Job, ...) right now.
            "record": "cluster_namespace_workload:gpudash_cost_per_hour:current",
            "expr": "sum by (cluster, namespace, workload, workload_type) (cluster_namespace_pod:gpudash_cost_per_hour:current)",
          },
          {
            // Burn rate in USD/hour of each namespace per cluster right now.
            "record": "cluster_namespace:gpudash_cost_per_hour:current",
            "expr": "sum by (cluster, namespace) (cluster_namespace_pod:gpudash_cost_per_hour:current)",
          },
          {
            // Average burn rate over billing.burn_rate_window (1h), sampled every push
            // interval, per cluster; time without GPUs counts as zero. Drives the end-of-period projection.
            "record": "cluster_namespace:gpudash_cost_per_hour:avg_window",
            "expr": "sum_over_time(last_over_time(cluster_namespace:gpudash_cost_per_hour:current[5m])[59m59s999ms:5m]) * 300 / 3600",
          },
          {
            // Cost in USD of this billing period (UTC month) so far per cluster: exact to the hour
            // before last, the current burn rate for the rest. Summed over clusters, budgets and alerts compare
            // against it; 0 on every model cluster a tenant has not used.
            "record": "cluster_namespace:gpudash_cost:period_to_date",
            "expr": "(sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_cost:last_hour[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (cluster_namespace:gpudash_cost_per_hour:current * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")) * on (namespace) group_left (tenant) max by (namespace, tenant) (cluster_namespace:gpudash_tenant:info)) or (cluster_namespace:gpudash_tenant:info * 0)",
          },
          {
            // Projected cost at the end of the period per cluster: period-to-date plus the average burn rate
            // for the time left.
            "record": "cluster_namespace:gpudash_cost:period_projection",
            "expr": "(cluster_namespace:gpudash_cost:period_to_date + on (cluster, namespace) group_left () (cluster_namespace:gpudash_cost_per_hour:avg_window * scalar((days_in_month(vector(time())) * 86400 - ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400)))) / 3600)) or cluster_namespace:gpudash_cost:period_to_date",
          },
        ],
      },
      {
        // CCSP: hourly active GPUs per node, active nodes, fleet total.
        "name": "gpudash-hub-ccsp",
        "interval": "5m",
        "rules": [
          {
            // The settle of node:gpudash_gpus_active:max_previous_hour: the hour the hub settles now, read once per evaluation; the rules
            // after it read its rows stamped in this clock hour only (calendar.own_hour).
            "record": "cluster_node_source:gpudash_gpus_active:max_settled_hour",
            "expr": "max by (cluster, node, active_from, gpudash_sentinel) (max by (cluster, node, active_from, gpudash_sentinel, gpudash_lag) ((max_over_time((node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 0))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 0)) or (max_over_time((node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600) + 1e12 * ((time() - time() % 3600) / 3600 % 2 != bool 1))[1h:5m]) and on () (floor(vector(time()) / 3600) % 2 == 1)) or label_replace((node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"} and timestamp(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"25\"}) >= (time() - time() % 3600)), \"gpudash_part\", \"latest\", \"\", \"\")) or last_over_time((max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"24\"}[1h] offset 1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"23\"}[1h] offset 1h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"22\"}[1h] offset 2h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"21\"}[1h] offset 3h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"20\"}[1h] offset 4h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"19\"}[1h] offset 5h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"18\"}[1h] offset 6h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"17\"}[1h] offset 7h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"16\"}[1h] offset 8h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"15\"}[1h] offset 9h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"14\"}[1h] offset 10h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"13\"}[1h] offset 11h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"12\"}[1h] offset 12h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"11\"}[1h] offset 13h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"10\"}[1h] offset 14h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"9\"}[1h] offset 15h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"8\"}[1h] offset 16h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"7\"}[1h] offset 17h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"6\"}[1h] offset 18h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"5\"}[1h] offset 19h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"4\"}[1h] offset 20h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"3\"}[1h] offset 21h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"2\"}[1h] offset 22h1ms) or max_over_time(node:gpudash_gpus_active:max_previous_hour{gpudash_lag=\"1\"}[1h] offset 23h1ms))[59m59s999ms:1h]))",
          },
          {
            // CCSP: most GPUs active at once on each node during the last complete clock hour.
            "record": "cluster_node:gpudash_gpus_active:max_last_hour",
            "expr": "max by (cluster, node) (max by (cluster, node, gpudash_sentinel) ((cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))))",
          },
          {
            // CCSP: the same per source of the count (active_from); exporter_down marks a node counted by the
            // compute-share bound while dcgm-exporter was not seen (possibly low: report nodes flags it).
            "record": "cluster_node_source:gpudash_gpus_active:max_last_hour",
            "expr": "max by (cluster, node, active_from) (max by (cluster, node, active_from, gpudash_sentinel) ((cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600))))",
          },
          {
            // CCSP: worker nodes with at least one active GPU during the last complete clock hour.
            "record": "cluster:gpudash_nodes_active:last_hour",
            "expr": "count by (cluster) (max by (cluster, node) (max by (cluster, node, gpudash_sentinel) ((cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600)))) >= 1)",
          },
          {
            // CCSP: fleet total of the per-node hourly maxima for the last complete clock hour.
            "record": "cluster:gpudash_gpus_active:sum_last_hour",
            "expr": "sum by (cluster) (max by (cluster, node) (max by (cluster, node, gpudash_sentinel) ((cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"} and timestamp(cluster_node_source:gpudash_gpus_active:max_settled_hour{gpudash_sentinel=\"\"}) >= (time() - time() % 3600)))))",
          },
        ],
      },
      {
        // Idle GPUs: the one idle definition (model filters, power veto).
        "name": "gpudash-hub-idle",
        "interval": "5m",
        "rules": [
          {
            // Cost per hour of each pod whose GPUs had zero peak activity over 30m (alerts.idle):
            // billed while doing nothing. GPUAllocatedIdle, dashboards, reports and the pruner read it.
            "record": "cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour",
            "expr": "((max by (cluster, namespace, pod, gpu_model) (max_over_time(namespace_pod:gpudash_gpu_activity:max[29m59s999ms])) == 0) and on (cluster, namespace, pod) last_over_time(namespace_pod:gpudash_gpu_activity:max[7m29s999ms] offset 30m)) + on (cluster, namespace, pod) group_left (workload, workload_type) last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current[7m30s])",
          },
        ],
      },
    ],
  },
}
