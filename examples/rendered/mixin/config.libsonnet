// Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file.

{
  _config+:: {
    // job label of kube-state-metrics (sources.kube_state_metrics_job)
    kubeStateMetricsJob: "kube-state-metrics",
    // RE2 regex on the NVIDIA DCGM exporter's job (sources.dcgm.job)
    dcgmExporterJob: "nvidia-dcgm-exporter",
    // RE2 regex on the AMD device-metrics-exporter's job (sources.amd.job)
    amdExporterJob: ".+-metrics-exporter",
    // kube_node_labels label holding the NVIDIA product (sources.nvidia_product_label)
    nvidiaProductLabel: "label_nvidia_com_gpu_product",
    // kube_node_labels label holding the AMD product (sources.amd_product_label)
    amdProductLabel: "label_amd_com_gpu_product_name",
    // kube_node_labels label holding the AMD partition (sources.amd_partition_label)
    amdPartitionLabel: "label_amd_com_gpu_compute_memory_partition",
    // From gpudash.yaml and built into the rules: read them, change them only in the model.
    currency: "USD",
    prices: {
      "a100-80gb": {
        "vendor": "nvidia",
        "products": [
          "NVIDIA A100 80GB PCIe",
          "NVIDIA A100-SXM4-80GB",
        ],
        "pricePerHour": 3.2,
        "sharedPricePerHour": 3.2,
        "mig": {
          "1g.10gb": 0.55,
          "1g.20gb": 0.8,
          "2g.20gb": 0.914286,
          "3g.40gb": 1.6,
          "4g.40gb": 1.828571,
          "7g.80gb": 3.2,
        },
      },
      "h100-80gb": {
        "vendor": "nvidia",
        "products": [
          "NVIDIA H100 80GB HBM3",
        ],
        "pricePerHour": 4.9,
        "sharedPricePerHour": 1.225,
        "mig": {
          "1g.10gb": 0.8,
          "1g.20gb": 1.225,
          "2g.20gb": 1.4,
          "3g.40gb": 2.45,
          "4g.40gb": 2.8,
          "7g.80gb": 4.9,
        },
      },
      "l40s": {
        "vendor": "nvidia",
        "products": [
          "NVIDIA L40S",
        ],
        "pricePerHour": 1.1,
        "sharedPricePerHour": 0.275,
        "mig": {},
      },
      "mi300x": {
        "vendor": "amd",
        "products": [
          "AMD Instinct MI300X OAM",
          "AMD_Instinct_MI300X_VF",
        ],
        "pricePerHour": 4.1,
        "sharedPricePerHour": 4.1,
        "mig": {},
      },
    },
    tenants: {
      "inference": {
        "namespace": "llm-serving",
        "budget": 8000.0,
        "alertAt": [
          0.5,
          0.9,
          1.0,
        ],
      },
      "research": {
        "namespace": "ml-research",
        "budget": 12000.0,
        "alertAt": [
          0.8,
          1.0,
        ],
      },
      "team-a": {
        "namespace": "team-a",
        "budget": 5000.0,
        "alertAt": [
          0.5,
          0.9,
          1.0,
        ],
      },
      "team-b": {
        "namespace": "team-b",
        "budget": 2000.0,
        "alertAt": [
          0.5,
          0.9,
          1.0,
        ],
      },
    },
    clusters: [
      "prod-east",
      "prod-west",
    ],
  },
}
