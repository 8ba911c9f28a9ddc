// Rendered by gpudash from the model (gpudash.yaml): edit the model and re-render, not this file.
{
  grafanaDashboards+:: {
    "gpudash-provider.json": {
      "annotations": {
        "list": [],
      },
      "description": "Fleet GPU allocation, utilisation, revenue, idle GPUs and billing-data health (provider only).",
      "editable": false,
      "graphTooltip": 1,
      "links": [
        {
          "asDropdown": true,
          "icon": "external link",
          "includeVars": false,
          "keepTime": true,
          "tags": [
            "gpudash-provider",
          ],
          "targetBlank": false,
          "title": "GPU billing",
          "type": "dashboards",
        },
      ],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "Fleet now",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Whole GPUs (nvidia.com/gpu, amd.com/gpu) allocated right now to Running pods on all selected clusters: the quantity billed per hour at the class price.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "mappings": [],
              "unit": "short",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{cluster=~\"$cluster\",resource=~\"nvidia\\\\.com/gpu|amd\\\\.com/gpu\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Whole GPUs allocated",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "MIG instances (nvidia.com/mig-*) allocated right now; each is billed at its profile price, not the whole-GPU price.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "mappings": [],
              "unit": "short",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{cluster=~\"$cluster\",resource=~\"nvidia\\\\.com/mig-.+\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "MIG slices allocated",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Time-sliced GPU replicas (nvidia.com/gpu.shared) allocated right now; each is billed at the class's shared price.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "mappings": [],
              "unit": "short",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 1,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{cluster=~\"$cluster\",resource=\"nvidia.com/gpu.shared\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Shared GPU replicas allocated",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "What all namespaces on the selected clusters are billed per hour right now (USD/h), from the pods' GPU requests and the model's prices.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 1,
          },
          "id": 5,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Revenue rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Cost of this billing period (UTC month) so far, summed over all tenants (all clusters): exact to the hour before last, estimated since. In USD.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 5,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{cluster=~\"$cluster\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Period-to-date revenue",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Period-to-date revenue plus every tenant's average burn rate over billing.burn_rate_window for the time left in the month.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 5,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_projection{cluster=~\"$cluster\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Projected period revenue",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Burn rate (USD/h) of pods whose GPUs showed zero activity for the whole idle window (30m): money spent on allocated but unused GPUs.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.01,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 5,
          },
          "id": 8,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{cluster=~\"$cluster\"}[7m30s])))) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Idle GPUs cost",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "GPU-hours of the last complete clock hour on products or resources the model has no price for. Never silently free: should be 0; price them in gpudash.yaml.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "red",
                    "value": 1e-09,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: GPU-h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 5,
          },
          "id": 9,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour{cluster=~\"$cluster\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Unpriced GPU-hours, last hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 10,
          "title": "Allocation and utilisation",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Units of each billed resource (whole GPUs, MIG slices, shared replicas) allocated to Running pods, per cluster and GPU class.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 10,
          },
          "id": 11,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{cluster=~\"$cluster\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "GPUs allocated by cluster and class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Allocation-weighted mean GPU activity (0-100 %) of the pods holding GPUs: low values mean GPUs are paid for but not used. Pods without GPU activity metrics are left out.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 10,
          },
          "id": 12,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class) (sum by (cluster, namespace, pod, gpu_class) ((last_over_time(namespace_pod:gpudash_gpus_allocated:running{cluster=~\"$cluster\"}[7m30s]) * on (product, resource) group_left (gpu_class) max by (product, resource, gpu_class) (label_replace(cluster_product_resource:gpudash_price_per_hour:model * 0 + 1, \"resource\", \"$1\", \"ksm_resource\", \"(.*)\"))) or on (cluster, namespace, pod, resource) label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running{cluster=~\"$cluster\"}[7m30s]), \"gpu_class\", \"unpriced\", \"\", \"\")) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{cluster=~\"$cluster\"}[7m30s]))) / sum by (cluster, gpu_class) (sum by (cluster, namespace, pod, gpu_class) ((last_over_time(namespace_pod:gpudash_gpus_allocated:running{cluster=~\"$cluster\"}[7m30s]) * on (product, resource) group_left (gpu_class) max by (product, resource, gpu_class) (label_replace(cluster_product_resource:gpudash_price_per_hour:model * 0 + 1, \"resource\", \"$1\", \"ksm_resource\", \"(.*)\"))) or on (cluster, namespace, pod, resource) label_replace(last_over_time(namespace_pod:gpudash_gpus_allocated:running{cluster=~\"$cluster\"}[7m30s]), \"gpu_class\", \"unpriced\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "GPU utilisation by cluster and class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Burn rate of all namespaces per cluster (USD/h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 18,
          },
          "id": 13,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Revenue rate by cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Invoiced cost of each complete clock hour per cluster, in USD. A bar at T is the hour [T-26h, T-25h): an hour is complete on the hub 26 hours after it starts.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 18,
          },
          "id": 14,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace_class_resource:gpudash_cost:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Revenue per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 26,
          },
          "id": 15,
          "title": "Tenants",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Per tenant: cost of this billing period so far, projected cost at the end of the period and budget (all USD), and the share of the budget spent. Sorted by spend.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Budget used",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "percentunit",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 9,
            "w": 14,
            "x": 0,
            "y": 27,
          },
          "id": 16,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (tenant, namespace) (last_over_time(cluster_namespace:gpudash_cost:period_to_date{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "sum by (tenant, namespace) (last_over_time(cluster_namespace:gpudash_cost:period_projection{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "max by (tenant, namespace) (last_over_time(cluster_namespace:gpudash_budget:model{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "C",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "sum by (tenant, namespace) (last_over_time(cluster_namespace:gpudash_cost:period_to_date{cluster=~\"$cluster\"}[7m30s])) / max by (tenant, namespace) (last_over_time(cluster_namespace:gpudash_budget:model{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "D",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Tenants by period-to-date spend",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "Period to date",
                  "Value #B": "Projected",
                  "Value #C": "Budget",
                  "Value #D": "Budget used",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Period to date",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "The ten namespaces billed most per hour right now (USD/h), all clusters.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 9,
            "w": 10,
            "x": 14,
            "y": 27,
          },
          "id": 17,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "topk(10, sum by (namespace) (last_over_time(cluster_namespace:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "{{namespace}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Top 10 tenants by burn rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Namespaces that hold GPUs but are no tenant of the model: their burn rate (USD/h) is not invoiced to anyone. Add them as tenants or stop them.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD/h",
              "decimals": 2,
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 36,
          },
          "id": 18,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, namespace) (last_over_time(cluster_namespace:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s])) unless on (namespace) last_over_time(cluster_namespace:gpudash_tenant:info{cluster=~\"$cluster\"}[7m30s])",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "GPU spend outside any tenant",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value": "Burn rate",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 42,
          },
          "id": 19,
          "title": "Idle GPUs",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Pods whose GPUs showed zero activity during the whole idle window (30m) while still allocated: GPUs held and their burn rate (USD/h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Burn rate",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "suffix: USD/h",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 8,
            "w": 14,
            "x": 0,
            "y": 43,
          },
          "id": 20,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, namespace, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{cluster=~\"$cluster\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{cluster=~\"$cluster\"}[7m30s]))))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "sum by (cluster, namespace, pod, workload) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{cluster=~\"$cluster\"}[7m30s]))))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Idle but allocated GPUs",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "GPUs",
                  "Value #B": "Burn rate",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Burn rate of idle-but-allocated pods per cluster (USD/h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 10,
            "x": 14,
            "y": 43,
          },
          "id": 21,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{cluster=~\"$cluster\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{cluster=~\"$cluster\"}[7m30s]))))",
              "format": "time_series",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Idle GPUs cost over time",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 51,
          },
          "id": 22,
          "title": "MIG and unpriced usage",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "MIG instances allocated per cluster, class and profile (billed resource nvidia.com/mig-<profile>).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 52,
          },
          "id": 23,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{cluster=~\"$cluster\",resource=~\"nvidia\\\\.com/mig-.+\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "MIG slices allocated by profile",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "GPU-hours of MIG slices per complete clock hour, per profile. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: GPU-h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 52,
          },
          "id": 24,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{cluster=~\"$cluster\",resource=~\"nvidia\\\\.com/mig-.+\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "MIG GPU-hours per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "GPU-hours of the last complete clock hour per cluster, namespace, node product and resource that the model has no price for (unknown product or no product label). Add the product to a GPU class in gpudash.yaml.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: GPU-h",
              "decimals": 3,
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 60,
          },
          "id": 25,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, namespace, product, resource) (last_over_time(cluster_namespace_product_resource:gpudash_unpriced_gpu_hours:last_hour{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Unpriced usage, last hour",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value": "GPU-hours",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "GPU-hours",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 66,
          },
          "id": 26,
          "title": "Energy",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "kWh the GPUs drew for these pods this month, complete hours up to the hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute share, a time-sliced replica by 1/replicas).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "kwatth",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 67,
          },
          "id": 27,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by () (sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (vector(0) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "GPU energy this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "kWh per GPU-hour over the complete hours of the selected range: busy GPUs draw more than idle ones.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 3,
              "mappings": [],
              "unit": "suffix: kWh/GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 67,
          },
          "id": 28,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by () (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))[$__range:1h]))) / sum(sum by () (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))[$__range:1h])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Energy per GPU-hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Mean power (W) of each complete clock hour (its kWh x 1000), priced at 0.18 USD/kWh unless a cluster has its own tariff. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 0,
              "unit": "watt",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 67,
          },
          "id": 29,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "label_replace(sum by (cluster, namespace) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms)) * 1000, \"namespace\", \"unallocated\", \"namespace\", \"\")",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}} {{namespace}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Average GPU power per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 75,
          },
          "id": 30,
          "title": "Billing data health",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Clusters that pushed gpudash's spoke series (the billed-hour marker every push carries) within the hub's freshness window (1.5 push intervals, as every hub read). The model lists 2: fewer means billing data is missing (a lost push is recovered only within the hour).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "red",
                    "value": null,
                  },
                  {
                    "color": "green",
                    "value": 2.0,
                  },
                ],
              },
              "custom": {},
              "mappings": [],
              "unit": "short",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 4,
            "x": 0,
            "y": 76,
          },
          "id": 31,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "count(count by (cluster) (last_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=~\"$cluster\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Clusters pushing",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Clusters named in gpudash.yaml with no pushed data in the hub's freshness window (1.5 push intervals): their usage is not being billed until pushes resume.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 8,
            "x": 4,
            "y": 76,
          },
          "id": 32,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "(label_replace(vector(1), \"cluster\", \"prod-east\", \"\", \"\") or label_replace(vector(1), \"cluster\", \"prod-west\", \"\", \"\")) unless on (cluster) count by (cluster) (last_over_time(cluster:gpudash_billed_hour:start_timestamp{cluster=~\"$cluster\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Clusters of the model not pushing",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                  "Value": true,
                },
                "indexByName": {},
                "renameByName": {},
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Seconds since the newest sample each cluster pushed (timestamp() of the pushed series): gpudash's billed-hour marker and kube-state-metrics' up. It should stay below the push interval; after an hour without pushes a clock hour is lost.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 600.0,
                  },
                  {
                    "color": "red",
                    "value": 3600.0,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "s",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 76,
          },
          "id": 33,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "time() - max by (cluster) (max_over_time(timestamp(cluster:gpudash_billed_hour:start_timestamp{cluster=~\"$cluster\"})[1h:1m]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} gpudash series",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": ("time() - max by (cluster) (max_over_time(timestamp(up{cluster=~\"$cluster\",job=\"%(kubeStateMetricsJob)s\"})[1h:1m]))" % $._config),
              "format": "time_series",
              "legendFormat": "{{cluster}} kube-state-metrics",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Push age per cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Share of scrape targets up per cluster and job: kube-state-metrics (allocation, the billing source) and the GPU exporters (utilisation only).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 84,
          },
          "id": 34,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": ("avg by (cluster, job) (last_over_time(up{cluster=~\"$cluster\",job=~\"(?:%(kubeStateMetricsJob)s)|(?:%(dcgmExporterJob)s)|(?:%(amdExporterJob)s)\"}[7m30s]))" % $._config),
              "format": "time_series",
              "legendFormat": "{{cluster}} {{job}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Exporter targets up",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Billing lines (cluster x namespace x class x resource) in the last complete clock hour, per cluster: a sudden drop means usage stopped or data is missing.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 84,
          },
          "id": 35,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "count by (cluster) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{cluster=~\"$cluster\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Billing lines per hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
      ],
      "refresh": "5m",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-provider",
      ],
      "templating": {
        "list": [
          {
            "name": "datasource",
            "label": "Datasource",
            "type": "datasource",
            "query": "prometheus",
            "current": {
              "selected": true,
              "text": "gpudash-ds-provider",
              "value": "gpudash-ds-provider",
            },
            "options": [],
            "hide": 0,
            "includeAll": false,
            "multi": false,
            "refresh": 1,
            "regex": "",
            "skipUrlSync": false,
          },
          {
            "allValue": ".*",
            "current": {
              "selected": true,
              "text": [
                "All",
              ],
              "value": [
                "$__all",
              ],
            },
            "hide": 0,
            "includeAll": true,
            "label": "Cluster",
            "multi": true,
            "name": "cluster",
            "options": [
              {
                "selected": false,
                "text": "prod-east",
                "value": "prod-east",
              },
              {
                "selected": false,
                "text": "prod-west",
                "value": "prod-west",
              },
            ],
            "query": "prod-east,prod-west",
            "type": "custom",
          },
        ],
      },
      "title": "GPU billing: provider",
      "time": {
        "from": "now-7d",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-provider",
    },
    "gpudash-ccsp.json": {
      "annotations": {
        "list": [],
      },
      "description": "Hourly active worker nodes and GPUs (per node and fleet total) for the CCSP report.",
      "editable": false,
      "graphTooltip": 1,
      "links": [
        {
          "asDropdown": true,
          "icon": "external link",
          "includeVars": false,
          "keepTime": true,
          "tags": [
            "gpudash-provider",
          ],
          "targetBlank": false,
          "title": "GPU billing",
          "type": "dashboards",
        },
      ],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "Hourly activity",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Worker nodes with at least one GPU allocated to a Running pod at some spoke step of the clock hour, per cluster. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster:gpudash_nodes_active:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Active worker nodes per hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Sum over nodes of each node's most GPUs active at once in the clock hour (MIG slices by compute share, time-sliced replicas by 1/replicas, rounded up), per cluster. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster:gpudash_gpus_active:sum_last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "sum(sum by (cluster) (last_over_time(cluster:gpudash_gpus_active:sum_last_hour{cluster=~\"$cluster\"}[1h] offset 1ms)))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "fleet total",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Active GPUs per hour (fleet total)",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "Most GPUs active at once on each node during the clock hour. A point at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 10,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "last_over_time(cluster_node:gpudash_gpus_active:max_last_hour{cluster=~\"$cluster\"}[1h] offset 1ms)",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}/{{node}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Active GPUs per node per hour (max in the hour)",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 19,
          },
          "id": 5,
          "title": "Export (one row per hour; use Inspect > Data > Download CSV)",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "CCSP report lines: per cluster and clock hour, the active worker nodes and the fleet total of active GPUs. Each clock hour is read once, at T = hour start + 26 h (when the hub has it complete); the 'Hour (UTC)' column is the hour the row reports.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Hour (UTC)",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "dateTimeAsIso",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 10,
            "w": 24,
            "x": 0,
            "y": 20,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster:gpudash_nodes_active:last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))",
              "format": "table",
              "interval": "1h",
              "legendFormat": "",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "sum by (cluster) (last_over_time(cluster:gpudash_gpus_active:sum_last_hour{cluster=~\"$cluster\"}[1h] offset 1ms))",
              "format": "table",
              "interval": "1h",
              "legendFormat": "",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "vector(time() - 93600)",
              "format": "table",
              "interval": "1h",
              "legendFormat": "",
              "refId": "C",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Per cluster and hour: active nodes and GPUs",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {},
                "indexByName": {},
                "renameByName": {
                  "Time": "Read at (UTC)",
                  "Value #A": "Active nodes",
                  "Value #B": "Active GPUs",
                  "Value #C": "Hour (UTC)",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "${datasource}",
          },
          "description": "CCSP report lines: per node and clock hour, the most GPUs active at once. Each clock hour is read once, at T = hour start + 26 h (when the hub has it complete); the 'Hour (UTC)' column is the hour the row reports.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Hour (UTC)",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "dateTimeAsIso",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 12,
            "w": 24,
            "x": 0,
            "y": 30,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "last_over_time(cluster_node:gpudash_gpus_active:max_last_hour{cluster=~\"$cluster\"}[1h] offset 1ms)",
              "format": "table",
              "interval": "1h",
              "legendFormat": "",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
            {
              "expr": "vector(time() - 93600)",
              "format": "table",
              "interval": "1h",
              "legendFormat": "",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "${datasource}",
              },
            },
          ],
          "title": "Per node and hour: active GPUs",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "__name__": true,
                  "clusterID": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Time": "Read at (UTC)",
                  "Value #A": "Active GPUs (max in hour)",
                  "Value #B": "Hour (UTC)",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
      ],
      "refresh": "1h",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-provider",
        "ccsp",
      ],
      "templating": {
        "list": [
          {
            "name": "datasource",
            "label": "Datasource",
            "type": "datasource",
            "query": "prometheus",
            "current": {
              "selected": true,
              "text": "gpudash-ds-provider",
              "value": "gpudash-ds-provider",
            },
            "options": [],
            "hide": 0,
            "includeAll": false,
            "multi": false,
            "refresh": 1,
            "regex": "",
            "skipUrlSync": false,
          },
          {
            "allValue": ".*",
            "current": {
              "selected": true,
              "text": [
                "All",
              ],
              "value": [
                "$__all",
              ],
            },
            "hide": 0,
            "includeAll": true,
            "label": "Cluster",
            "multi": true,
            "name": "cluster",
            "options": [
              {
                "selected": false,
                "text": "prod-east",
                "value": "prod-east",
              },
              {
                "selected": false,
                "text": "prod-west",
                "value": "prod-west",
              },
            ],
            "query": "prod-east,prod-west",
            "type": "custom",
          },
        ],
      },
      "title": "GPU billing: CCSP hourly report",
      "time": {
        "from": "now-2d/d",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-ccsp",
    },
    "gpudash-tenant-inference.json": {
      "annotations": {
        "list": [],
      },
      "description": "GPU consumption, cost, budget and burn rate of tenant inference (namespace llm-serving).",
      "editable": false,
      "graphTooltip": 1,
      "links": [],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "This billing period (UTC month)",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "What inference has been billed this month so far, in USD: exact for complete hours up to the hour before last, the current burn rate since. Budget 8000 USD; colours change at the alert thresholds.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 4000.0,
                  },
                  {
                    "color": "orange",
                    "value": 7200.0,
                  },
                  {
                    "color": "red",
                    "value": 8000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Cost this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Cost this period as a share of the budget of 8000 USD per period. Alerts fire at 50%, 90%, 100%.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 0.5,
                  },
                  {
                    "color": "orange",
                    "value": 0.9,
                  },
                  {
                    "color": "red",
                    "value": 1.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"llm-serving\"}[7m30s])) / max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Budget used",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Cost this period plus the average burn rate over the last 1h for the rest of the month, in USD: where the bill lands if usage continues.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 4000.0,
                  },
                  {
                    "color": "orange",
                    "value": 7200.0,
                  },
                  {
                    "color": "red",
                    "value": 8000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 1,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_projection{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Projected at period end",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "GPU-hours allocated this month so far (all classes and clusters; a MIG slice or a shared replica counts as one unit): exact for complete hours up to the hour before last, the current allocation since.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "suffix: GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 1,
          },
          "id": 5,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (namespace) (label_replace(sum by (namespace) (sum by (namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (namespace) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"llm-serving\"}[7m30s]) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU-hours this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "What inference's running pods cost per hour right now (USD/h), all clusters.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 5,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"llm-serving\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Burn rate now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Budget per billing period, in USD.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 5,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Budget",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Share of allocated GPUs actually busy: allocation-weighted mean GPU activity of your pods (pods without GPU activity metrics are left out). You pay for allocation, not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "red",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.3,
                  },
                  {
                    "color": "green",
                    "value": 0.6,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 5,
          },
          "id": 8,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"llm-serving\"}[7m30s]))) / sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s])) and on (cluster, namespace, pod) max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"llm-serving\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU efficiency now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Burn rate (USD/h) of your pods whose GPUs showed zero activity for the whole last 30m: you pay for these GPUs without using them.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.01,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 5,
          },
          "id": 9,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"llm-serving\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{namespace=\"llm-serving\"}[7m30s])))) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Idle GPUs cost",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 10,
          "title": "Burn rate",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Cost per hour of all your running pods (USD/h) and the average over billing.burn_rate_window that the projection uses.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 10,
          },
          "id": 11,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "now",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "average over 1h",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Burn rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Cost per hour of each workload (Deployment, StatefulSet, Job, InferenceService, Notebook, or a bare pod), in USD/h.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 10,
          },
          "id": 12,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (workload_type, workload) (last_over_time(cluster_namespace_workload:gpudash_cost_per_hour:current{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{workload_type}}/{{workload}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Burn rate per workload",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Cost per hour of each running pod now (USD/h), with its GPUs and mean GPU activity over the last push interval.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD/h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPUs",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "short",
                  },
                ],
              },
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPU activity",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "percentunit",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 9,
            "w": 24,
            "x": 0,
            "y": 18,
          },
          "id": 13,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"llm-serving\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
            {
              "expr": "max by (cluster, pod, workload) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"llm-serving\"}[7m30s])) * on (cluster, namespace, pod) group_left (workload) (max by (cluster, namespace, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s])) * 0 + 1))",
              "format": "table",
              "legendFormat": "",
              "refId": "C",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Burn rate per pod",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "Burn rate",
                  "Value #B": "GPUs",
                  "Value #C": "GPU activity",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 27,
          },
          "id": 14,
          "title": "GPU-hours",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "GPU-hours allocated in each complete clock hour, per cluster, GPU class and billed resource. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: GPU-h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 28,
          },
          "id": 15,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU-hours per clock hour by class and cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Complete clock hours in the selected time range (shifted back by the two-hour reporting delay): GPU-hours and cost in USD per cluster, GPU class and billed resource. The default range is this month.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: GPU-h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Cost",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "suffix: USD",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 28,
          },
          "id": 16,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_cost:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU-hours and cost by class and cluster (selected range)",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "GPU-hours",
                  "Value #B": "Cost",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Cost",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Units of each billed resource allocated to your Running pods right now, per cluster and GPU class.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 36,
          },
          "id": 17,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"llm-serving\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPUs allocated by class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 44,
          },
          "id": 18,
          "title": "Efficiency",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "GPUs allocated to your pods (what you pay for) and the GPU-equivalents actually busy (allocation x mean activity).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 45,
          },
          "id": 19,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "allocated",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"llm-serving\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"llm-serving\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "used",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Allocated vs used GPUs",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Mean GPU activity (0-100 %) of each pod over the push interval: pods near zero hold GPUs they do not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 45,
          },
          "id": 20,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max by (cluster, pod) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"llm-serving\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "{{cluster}}/{{pod}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU activity per pod",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 53,
          },
          "id": 21,
          "title": "Energy",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "kWh the GPUs drew for these pods this month, complete hours up to the hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute share, a time-sliced replica by 1/replicas).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "kwatth",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 54,
          },
          "id": 22,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by () (sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (vector(0) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "GPU energy this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "kWh per GPU-hour over the complete hours of the selected range: busy GPUs draw more than idle ones.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 3,
              "mappings": [],
              "unit": "suffix: kWh/GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 54,
          },
          "id": 23,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by () (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms))[$__range:1h]))) / sum(sum by () (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms))[$__range:1h])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Energy per GPU-hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Mean power (W) of each complete clock hour (its kWh x 1000), priced at 0.18 USD/kWh unless a cluster has its own tariff. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 0,
              "unit": "watt",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 54,
          },
          "id": 24,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"llm-serving\"}[1h] offset 1ms)) * 1000",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Average GPU power per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 62,
          },
          "id": 25,
          "title": "Alerts",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-inference",
          },
          "description": "Alerts for namespace llm-serving that are pending or firing now (budget, burn rate, idle GPUs...).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 63,
          },
          "id": 26,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "last_over_time(ALERTS{namespace=\"llm-serving\"}[7m30s])",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-inference",
              },
            },
          ],
          "title": "Active alerts",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                  "Value": true,
                  "__name__": true,
                },
                "indexByName": {},
                "renameByName": {},
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
      ],
      "refresh": "5m",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-tenant",
      ],
      "templating": {
        "list": [],
      },
      "title": "GPU usage and cost: inference",
      "time": {
        "from": "now/M",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-tenant-inference",
    },
    "gpudash-tenant-research.json": {
      "annotations": {
        "list": [],
      },
      "description": "GPU consumption, cost, budget and burn rate of tenant research (namespace ml-research).",
      "editable": false,
      "graphTooltip": 1,
      "links": [],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "This billing period (UTC month)",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "What research has been billed this month so far, in USD: exact for complete hours up to the hour before last, the current burn rate since. Budget 12000 USD; colours change at the alert thresholds.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 9600.0,
                  },
                  {
                    "color": "red",
                    "value": 12000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Cost this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Cost this period as a share of the budget of 12000 USD per period. Alerts fire at 80%, 100%.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 0.8,
                  },
                  {
                    "color": "red",
                    "value": 1.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"ml-research\"}[7m30s])) / max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Budget used",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Cost this period plus the average burn rate over the last 1h for the rest of the month, in USD: where the bill lands if usage continues.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 9600.0,
                  },
                  {
                    "color": "red",
                    "value": 12000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 1,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_projection{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Projected at period end",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "GPU-hours allocated this month so far (all classes and clusters; a MIG slice or a shared replica counts as one unit): exact for complete hours up to the hour before last, the current allocation since.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "suffix: GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 1,
          },
          "id": 5,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (namespace) (label_replace(sum by (namespace) (sum by (namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"ml-research\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (namespace) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"ml-research\"}[7m30s]) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU-hours this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "What research's running pods cost per hour right now (USD/h), all clusters.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 5,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"ml-research\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Burn rate now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Budget per billing period, in USD.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 5,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Budget",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Share of allocated GPUs actually busy: allocation-weighted mean GPU activity of your pods (pods without GPU activity metrics are left out). You pay for allocation, not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "red",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.3,
                  },
                  {
                    "color": "green",
                    "value": 0.6,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 5,
          },
          "id": 8,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"ml-research\"}[7m30s]))) / sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s])) and on (cluster, namespace, pod) max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"ml-research\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU efficiency now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Burn rate (USD/h) of your pods whose GPUs showed zero activity for the whole last 30m: you pay for these GPUs without using them.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.01,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 5,
          },
          "id": 9,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"ml-research\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{namespace=\"ml-research\"}[7m30s])))) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Idle GPUs cost",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 10,
          "title": "Burn rate",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Cost per hour of all your running pods (USD/h) and the average over billing.burn_rate_window that the projection uses.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 10,
          },
          "id": 11,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "now",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "average over 1h",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Burn rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Cost per hour of each workload (Deployment, StatefulSet, Job, InferenceService, Notebook, or a bare pod), in USD/h.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 10,
          },
          "id": 12,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (workload_type, workload) (last_over_time(cluster_namespace_workload:gpudash_cost_per_hour:current{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{workload_type}}/{{workload}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Burn rate per workload",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Cost per hour of each running pod now (USD/h), with its GPUs and mean GPU activity over the last push interval.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD/h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPUs",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "short",
                  },
                ],
              },
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPU activity",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "percentunit",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 9,
            "w": 24,
            "x": 0,
            "y": 18,
          },
          "id": 13,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"ml-research\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
            {
              "expr": "max by (cluster, pod, workload) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"ml-research\"}[7m30s])) * on (cluster, namespace, pod) group_left (workload) (max by (cluster, namespace, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s])) * 0 + 1))",
              "format": "table",
              "legendFormat": "",
              "refId": "C",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Burn rate per pod",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "Burn rate",
                  "Value #B": "GPUs",
                  "Value #C": "GPU activity",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 27,
          },
          "id": 14,
          "title": "GPU-hours",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "GPU-hours allocated in each complete clock hour, per cluster, GPU class and billed resource. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: GPU-h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 28,
          },
          "id": 15,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"ml-research\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU-hours per clock hour by class and cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Complete clock hours in the selected time range (shifted back by the two-hour reporting delay): GPU-hours and cost in USD per cluster, GPU class and billed resource. The default range is this month.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: GPU-h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Cost",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "suffix: USD",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 28,
          },
          "id": 16,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"ml-research\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_cost:last_hour{namespace=\"ml-research\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU-hours and cost by class and cluster (selected range)",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "GPU-hours",
                  "Value #B": "Cost",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Cost",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Units of each billed resource allocated to your Running pods right now, per cluster and GPU class.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 36,
          },
          "id": 17,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"ml-research\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPUs allocated by class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 44,
          },
          "id": 18,
          "title": "Efficiency",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "GPUs allocated to your pods (what you pay for) and the GPU-equivalents actually busy (allocation x mean activity).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 45,
          },
          "id": 19,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "allocated",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"ml-research\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"ml-research\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "used",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Allocated vs used GPUs",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Mean GPU activity (0-100 %) of each pod over the push interval: pods near zero hold GPUs they do not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 45,
          },
          "id": 20,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max by (cluster, pod) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"ml-research\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "{{cluster}}/{{pod}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU activity per pod",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 53,
          },
          "id": 21,
          "title": "Energy",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "kWh the GPUs drew for these pods this month, complete hours up to the hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute share, a time-sliced replica by 1/replicas).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "kwatth",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 54,
          },
          "id": 22,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by () (sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"ml-research\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (vector(0) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "GPU energy this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "kWh per GPU-hour over the complete hours of the selected range: busy GPUs draw more than idle ones.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 3,
              "mappings": [],
              "unit": "suffix: kWh/GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 54,
          },
          "id": 23,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by () (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"ml-research\"}[1h] offset 1ms))[$__range:1h]))) / sum(sum by () (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"ml-research\"}[1h] offset 1ms))[$__range:1h])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Energy per GPU-hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Mean power (W) of each complete clock hour (its kWh x 1000), priced at 0.18 USD/kWh unless a cluster has its own tariff. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 0,
              "unit": "watt",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 54,
          },
          "id": 24,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"ml-research\"}[1h] offset 1ms)) * 1000",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Average GPU power per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 62,
          },
          "id": 25,
          "title": "Alerts",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-research",
          },
          "description": "Alerts for namespace ml-research that are pending or firing now (budget, burn rate, idle GPUs...).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 63,
          },
          "id": 26,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "last_over_time(ALERTS{namespace=\"ml-research\"}[7m30s])",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-research",
              },
            },
          ],
          "title": "Active alerts",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                  "Value": true,
                  "__name__": true,
                },
                "indexByName": {},
                "renameByName": {},
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
      ],
      "refresh": "5m",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-tenant",
      ],
      "templating": {
        "list": [],
      },
      "title": "GPU usage and cost: research",
      "time": {
        "from": "now/M",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-tenant-research",
    },
    "gpudash-tenant-team-a.json": {
      "annotations": {
        "list": [],
      },
      "description": "GPU consumption, cost, budget and burn rate of tenant team-a (namespace team-a).",
      "editable": false,
      "graphTooltip": 1,
      "links": [],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "This billing period (UTC month)",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "What team-a has been billed this month so far, in USD: exact for complete hours up to the hour before last, the current burn rate since. Budget 5000 USD; colours change at the alert thresholds.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 2500.0,
                  },
                  {
                    "color": "orange",
                    "value": 4500.0,
                  },
                  {
                    "color": "red",
                    "value": 5000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Cost this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Cost this period as a share of the budget of 5000 USD per period. Alerts fire at 50%, 90%, 100%.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 0.5,
                  },
                  {
                    "color": "orange",
                    "value": 0.9,
                  },
                  {
                    "color": "red",
                    "value": 1.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"team-a\"}[7m30s])) / max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Budget used",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Cost this period plus the average burn rate over the last 1h for the rest of the month, in USD: where the bill lands if usage continues.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 2500.0,
                  },
                  {
                    "color": "orange",
                    "value": 4500.0,
                  },
                  {
                    "color": "red",
                    "value": 5000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 1,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_projection{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Projected at period end",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "GPU-hours allocated this month so far (all classes and clusters; a MIG slice or a shared replica counts as one unit): exact for complete hours up to the hour before last, the current allocation since.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "suffix: GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 1,
          },
          "id": 5,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (namespace) (label_replace(sum by (namespace) (sum by (namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-a\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (namespace) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"team-a\"}[7m30s]) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU-hours this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "What team-a's running pods cost per hour right now (USD/h), all clusters.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 5,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"team-a\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Burn rate now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Budget per billing period, in USD.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 5,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Budget",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Share of allocated GPUs actually busy: allocation-weighted mean GPU activity of your pods (pods without GPU activity metrics are left out). You pay for allocation, not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "red",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.3,
                  },
                  {
                    "color": "green",
                    "value": 0.6,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 5,
          },
          "id": 8,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-a\"}[7m30s]))) / sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s])) and on (cluster, namespace, pod) max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-a\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU efficiency now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Burn rate (USD/h) of your pods whose GPUs showed zero activity for the whole last 30m: you pay for these GPUs without using them.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.01,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 5,
          },
          "id": 9,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"team-a\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{namespace=\"team-a\"}[7m30s])))) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Idle GPUs cost",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 10,
          "title": "Burn rate",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Cost per hour of all your running pods (USD/h) and the average over billing.burn_rate_window that the projection uses.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 10,
          },
          "id": 11,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "now",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "average over 1h",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Burn rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Cost per hour of each workload (Deployment, StatefulSet, Job, InferenceService, Notebook, or a bare pod), in USD/h.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 10,
          },
          "id": 12,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (workload_type, workload) (last_over_time(cluster_namespace_workload:gpudash_cost_per_hour:current{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{workload_type}}/{{workload}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Burn rate per workload",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Cost per hour of each running pod now (USD/h), with its GPUs and mean GPU activity over the last push interval.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD/h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPUs",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "short",
                  },
                ],
              },
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPU activity",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "percentunit",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 9,
            "w": 24,
            "x": 0,
            "y": 18,
          },
          "id": 13,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"team-a\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
            {
              "expr": "max by (cluster, pod, workload) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-a\"}[7m30s])) * on (cluster, namespace, pod) group_left (workload) (max by (cluster, namespace, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s])) * 0 + 1))",
              "format": "table",
              "legendFormat": "",
              "refId": "C",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Burn rate per pod",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "Burn rate",
                  "Value #B": "GPUs",
                  "Value #C": "GPU activity",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 27,
          },
          "id": 14,
          "title": "GPU-hours",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "GPU-hours allocated in each complete clock hour, per cluster, GPU class and billed resource. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: GPU-h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 28,
          },
          "id": 15,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-a\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU-hours per clock hour by class and cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Complete clock hours in the selected time range (shifted back by the two-hour reporting delay): GPU-hours and cost in USD per cluster, GPU class and billed resource. The default range is this month.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: GPU-h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Cost",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "suffix: USD",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 28,
          },
          "id": 16,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-a\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_cost:last_hour{namespace=\"team-a\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU-hours and cost by class and cluster (selected range)",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "GPU-hours",
                  "Value #B": "Cost",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Cost",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Units of each billed resource allocated to your Running pods right now, per cluster and GPU class.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 36,
          },
          "id": 17,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"team-a\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPUs allocated by class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 44,
          },
          "id": 18,
          "title": "Efficiency",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "GPUs allocated to your pods (what you pay for) and the GPU-equivalents actually busy (allocation x mean activity).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 45,
          },
          "id": 19,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "allocated",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-a\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-a\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "used",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Allocated vs used GPUs",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Mean GPU activity (0-100 %) of each pod over the push interval: pods near zero hold GPUs they do not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 45,
          },
          "id": 20,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max by (cluster, pod) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-a\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "{{cluster}}/{{pod}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU activity per pod",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 53,
          },
          "id": 21,
          "title": "Energy",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "kWh the GPUs drew for these pods this month, complete hours up to the hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute share, a time-sliced replica by 1/replicas).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "kwatth",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 54,
          },
          "id": 22,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by () (sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-a\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (vector(0) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "GPU energy this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "kWh per GPU-hour over the complete hours of the selected range: busy GPUs draw more than idle ones.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 3,
              "mappings": [],
              "unit": "suffix: kWh/GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 54,
          },
          "id": 23,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by () (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-a\"}[1h] offset 1ms))[$__range:1h]))) / sum(sum by () (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-a\"}[1h] offset 1ms))[$__range:1h])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Energy per GPU-hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Mean power (W) of each complete clock hour (its kWh x 1000), priced at 0.18 USD/kWh unless a cluster has its own tariff. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 0,
              "unit": "watt",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 54,
          },
          "id": 24,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-a\"}[1h] offset 1ms)) * 1000",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Average GPU power per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 62,
          },
          "id": 25,
          "title": "Alerts",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-a",
          },
          "description": "Alerts for namespace team-a that are pending or firing now (budget, burn rate, idle GPUs...).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 63,
          },
          "id": 26,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "last_over_time(ALERTS{namespace=\"team-a\"}[7m30s])",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-a",
              },
            },
          ],
          "title": "Active alerts",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                  "Value": true,
                  "__name__": true,
                },
                "indexByName": {},
                "renameByName": {},
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
      ],
      "refresh": "5m",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-tenant",
      ],
      "templating": {
        "list": [],
      },
      "title": "GPU usage and cost: team-a",
      "time": {
        "from": "now/M",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-tenant-team-a",
    },
    "gpudash-tenant-team-b.json": {
      "annotations": {
        "list": [],
      },
      "description": "GPU consumption, cost, budget and burn rate of tenant team-b (namespace team-b).",
      "editable": false,
      "graphTooltip": 1,
      "links": [],
      "panels": [
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 0,
          },
          "id": 1,
          "title": "This billing period (UTC month)",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "What team-b has been billed this month so far, in USD: exact for complete hours up to the hour before last, the current burn rate since. Budget 2000 USD; colours change at the alert thresholds.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 1000.0,
                  },
                  {
                    "color": "orange",
                    "value": 1800.0,
                  },
                  {
                    "color": "red",
                    "value": 2000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 1,
          },
          "id": 2,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Cost this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Cost this period as a share of the budget of 2000 USD per period. Alerts fire at 50%, 90%, 100%.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 0.5,
                  },
                  {
                    "color": "orange",
                    "value": 0.9,
                  },
                  {
                    "color": "red",
                    "value": 1.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 1,
          },
          "id": 3,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_to_date{namespace=\"team-b\"}[7m30s])) / max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Budget used",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Cost this period plus the average burn rate over the last 1h for the rest of the month, in USD: where the bill lands if usage continues.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "yellow",
                    "value": 1000.0,
                  },
                  {
                    "color": "orange",
                    "value": 1800.0,
                  },
                  {
                    "color": "red",
                    "value": 2000.0,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 1,
          },
          "id": 4,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost:period_projection{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Projected at period end",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "GPU-hours allocated this month so far (all classes and clusters; a MIG slice or a shared replica counts as one unit): exact for complete hours up to the hour before last, the current allocation since.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "suffix: GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 1,
          },
          "id": 5,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (namespace) (label_replace(sum by (namespace) (sum by (namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-b\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (namespace) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"team-b\"}[7m30s]) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU-hours this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "What team-b's running pods cost per hour right now (USD/h), all clusters.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 5,
          },
          "id": 6,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"team-b\"}[7m30s])) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Burn rate now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Budget per billing period, in USD.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 5,
          },
          "id": 7,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max(last_over_time(cluster_namespace:gpudash_budget:model{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Budget",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Share of allocated GPUs actually busy: allocation-weighted mean GPU activity of your pods (pods without GPU activity metrics are left out). You pay for allocation, not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "red",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.3,
                  },
                  {
                    "color": "green",
                    "value": 0.6,
                  },
                ],
              },
              "custom": {},
              "decimals": 1,
              "mappings": [],
              "unit": "percentunit",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 12,
            "y": 5,
          },
          "id": 8,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-b\"}[7m30s]))) / sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s])) and on (cluster, namespace, pod) max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-b\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU efficiency now",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Burn rate (USD/h) of your pods whose GPUs showed zero activity for the whole last 30m: you pay for these GPUs without using them.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                  {
                    "color": "orange",
                    "value": 0.01,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "suffix: USD/h",
              "noValue": "0",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 18,
            "y": 5,
          },
          "id": 9,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"team-b\"}[7m30s]) and on (cluster, namespace, pod) (max by (cluster, namespace, pod) (last_over_time(cluster_namespace_pod:gpudash_gpu_idle:cost_per_hour{namespace=\"team-b\"}[7m30s])))) or vector(0)",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Idle GPUs cost",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 9,
          },
          "id": 10,
          "title": "Burn rate",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Cost per hour of all your running pods (USD/h) and the average over billing.burn_rate_window that the projection uses.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 10,
          },
          "id": 11,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:current{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "now",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
            {
              "expr": "sum(last_over_time(cluster_namespace:gpudash_cost_per_hour:avg_window{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "average over 1h",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Burn rate",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Cost per hour of each workload (Deployment, StatefulSet, Job, InferenceService, Notebook, or a bare pod), in USD/h.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: USD/h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 10,
          },
          "id": 12,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (workload_type, workload) (last_over_time(cluster_namespace_workload:gpudash_cost_per_hour:current{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{workload_type}}/{{workload}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Burn rate per workload",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Cost per hour of each running pod now (USD/h), with its GPUs and mean GPU activity over the last push interval.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: USD/h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPUs",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "short",
                  },
                ],
              },
              {
                "matcher": {
                  "id": "byName",
                  "options": "GPU activity",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "percentunit",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 9,
            "w": 24,
            "x": 0,
            "y": 18,
          },
          "id": 13,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(cluster_namespace_pod:gpudash_cost_per_hour:current{namespace=\"team-b\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
            {
              "expr": "sum by (cluster, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
            {
              "expr": "max by (cluster, pod, workload) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-b\"}[7m30s])) * on (cluster, namespace, pod) group_left (workload) (max by (cluster, namespace, pod, workload) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s])) * 0 + 1))",
              "format": "table",
              "legendFormat": "",
              "refId": "C",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Burn rate per pod",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "Burn rate",
                  "Value #B": "GPUs",
                  "Value #C": "GPU activity",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Burn rate",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 27,
          },
          "id": 14,
          "title": "GPU-hours",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "GPU-hours allocated in each complete clock hour, per cluster, GPU class and billed resource. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 2,
              "unit": "suffix: GPU-h",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 28,
          },
          "id": 15,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-b\"}[1h] offset 1ms))",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU-hours per clock hour by class and cluster",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Complete clock hours in the selected time range (shifted back by the two-hour reporting delay): GPU-hours and cost in USD per cluster, GPU class and billed resource. The default range is this month.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "suffix: GPU-h",
              "decimals": 2,
            },
            "overrides": [
              {
                "matcher": {
                  "id": "byName",
                  "options": "Cost",
                },
                "properties": [
                  {
                    "id": "unit",
                    "value": "suffix: USD",
                  },
                ],
              },
            ],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 28,
          },
          "id": 16,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-b\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
            {
              "expr": "sum by (cluster, gpu_class, resource) (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_cost:last_hour{namespace=\"team-b\"}[1h] offset 1ms))[$__range:1h]))",
              "format": "table",
              "legendFormat": "",
              "refId": "B",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU-hours and cost by class and cluster (selected range)",
          "transparent": false,
          "transformations": [
            {
              "id": "merge",
              "options": {},
            },
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                },
                "indexByName": {},
                "renameByName": {
                  "Value #A": "GPU-hours",
                  "Value #B": "Cost",
                },
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [
              {
                "displayName": "Cost",
                "desc": true,
              },
            ],
          },
          "type": "table",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Units of each billed resource allocated to your Running pods right now, per cluster and GPU class.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 36,
          },
          "id": 17,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by (cluster, gpu_class, resource) (last_over_time(cluster_namespace_class_resource:gpudash_gpus_allocated:current{namespace=\"team-b\"}[7m30s]))",
              "format": "time_series",
              "legendFormat": "{{cluster}} {{gpu_class}} {{resource}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPUs allocated by class",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 44,
          },
          "id": 18,
          "title": "Efficiency",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "GPUs allocated to your pods (what you pay for) and the GPU-equivalents actually busy (allocation x mean activity).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 0,
            "y": 45,
          },
          "id": 19,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "allocated",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
            {
              "expr": "sum(sum by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpus_allocated:running{namespace=\"team-b\"}[7m30s])) * on (cluster, namespace, pod) group_left () max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-b\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "used",
              "refId": "B",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Allocated vs used GPUs",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Mean GPU activity (0-100 %) of each pod over the push interval: pods near zero hold GPUs they do not use.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "line",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 10,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "none",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "min": 0,
              "max": 1,
              "unit": "percentunit",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 45,
          },
          "id": 20,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "max by (cluster, pod) (max by (cluster, namespace, pod) (last_over_time(namespace_pod:gpudash_gpu_activity:avg{namespace=\"team-b\"}[7m30s])))",
              "format": "time_series",
              "legendFormat": "{{cluster}}/{{pod}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU activity per pod",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 53,
          },
          "id": 21,
          "title": "Energy",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "kWh the GPUs drew for these pods this month, complete hours up to the hour before last: each GPU's energy split among the pods holding it (a MIG slice by its compute share, a time-sliced replica by 1/replicas).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 2,
              "mappings": [],
              "unit": "kwatth",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 0,
            "y": 54,
          },
          "id": 22,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum by () (sum by (cluster, namespace) (label_replace(sum by (cluster, namespace) (sum by (cluster, namespace, gpudash_month) (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-b\"}[1h] offset 1ms) * on () group_left (gpudash_month) count_values(\"gpudash_month\", month(vector(time() - 93600)) % 3))[31d:1h])) * on (gpudash_month) group_left () count_values(\"gpudash_month\", month(vector(time())) % 3)), \"gpudash_part\", \"hours\", \"\", \"\") or label_replace(sum by (cluster, namespace) (vector(0) * scalar((vector(time() % 3600 + 90000) < ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) or ((day_of_month(vector(time())) - 1) * 86400 + vector(time() % 86400))) / 3600), \"gpudash_part\", \"estimate\", \"\", \"\")))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "GPU energy this period",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "kWh per GPU-hour over the complete hours of the selected range: busy GPUs draw more than idle ones.",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "blue",
                    "value": null,
                  },
                ],
              },
              "custom": {},
              "decimals": 3,
              "mappings": [],
              "unit": "suffix: kWh/GPU-h",
              "noValue": "no data",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 4,
            "w": 6,
            "x": 6,
            "y": 54,
          },
          "id": 23,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "sum(sum by () (sum_over_time((last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-b\"}[1h] offset 1ms))[$__range:1h]))) / sum(sum by () (sum_over_time((last_over_time(cluster_namespace_class_resource:gpudash_gpu_hours:last_hour{namespace=\"team-b\"}[1h] offset 1ms))[$__range:1h])))",
              "format": "time_series",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Energy per GPU-hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "textMode": "auto",
            "colorMode": "value",
            "graphMode": "none",
            "justifyMode": "auto",
            "orientation": "auto",
            "reduceOptions": {
              "calcs": [
                "lastNotNull",
              ],
              "fields": "",
              "values": false,
            },
          },
          "type": "stat",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Mean power (W) of each complete clock hour (its kWh x 1000), priced at 0.18 USD/kWh unless a cluster has its own tariff. A bar at T is the hour [T-26h, T-25h).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "color": {
                "mode": "palette-classic",
              },
              "custom": {
                "axisPlacement": "auto",
                "axisLabel": "",
                "drawStyle": "bars",
                "lineInterpolation": "linear",
                "barAlignment": 0,
                "lineWidth": 1,
                "fillOpacity": 80,
                "gradientMode": "none",
                "spanNulls": false,
                "showPoints": "never",
                "pointSize": 5,
                "stacking": {
                  "mode": "normal",
                  "group": "A",
                },
                "scaleDistribution": {
                  "type": "linear",
                  "log": 2,
                },
                "hideFrom": {
                  "tooltip": false,
                  "viz": false,
                  "legend": false,
                },
                "thresholdsStyle": {
                  "mode": "off",
                },
              },
              "mappings": [],
              "decimals": 0,
              "unit": "watt",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 8,
            "w": 12,
            "x": 12,
            "y": 54,
          },
          "id": 24,
          "links": [],
          "maxDataPoints": 11000,
          "targets": [
            {
              "expr": "sum by (cluster) (last_over_time(cluster_namespace:gpudash_energy_kwh:last_hour{namespace=\"team-b\"}[1h] offset 1ms)) * 1000",
              "format": "time_series",
              "interval": "1h",
              "legendFormat": "{{cluster}}",
              "refId": "A",
              "instant": false,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Average GPU power per clock hour",
          "transparent": false,
          "transformations": [],
          "options": {
            "legend": {
              "displayMode": "table",
              "placement": "bottom",
              "calcs": [
                "lastNotNull",
                "max",
              ],
            },
            "tooltip": {
              "mode": "multi",
              "sort": "desc",
            },
          },
          "type": "timeseries",
        },
        {
          "gridPos": {
            "h": 1,
            "w": 24,
            "x": 0,
            "y": 62,
          },
          "id": 25,
          "title": "Alerts",
          "collapsed": false,
          "panels": [],
          "type": "row",
        },
        {
          "datasource": {
            "type": "prometheus",
            "uid": "gpudash-ds-tenant-team-b",
          },
          "description": "Alerts for namespace team-b that are pending or firing now (budget, burn rate, idle GPUs...).",
          "fieldConfig": {
            "defaults": {
              "thresholds": {
                "mode": "absolute",
                "steps": [
                  {
                    "color": "green",
                    "value": null,
                  },
                ],
              },
              "custom": {
                "align": "auto",
                "displayMode": "auto",
                "filterable": true,
              },
              "unit": "short",
            },
            "overrides": [],
          },
          "gridPos": {
            "h": 6,
            "w": 24,
            "x": 0,
            "y": 63,
          },
          "id": 26,
          "links": [],
          "maxDataPoints": 1000,
          "targets": [
            {
              "expr": "last_over_time(ALERTS{namespace=\"team-b\"}[7m30s])",
              "format": "table",
              "legendFormat": "",
              "refId": "A",
              "instant": true,
              "datasource": {
                "type": "prometheus",
                "uid": "gpudash-ds-tenant-team-b",
              },
            },
          ],
          "title": "Active alerts",
          "transparent": false,
          "transformations": [
            {
              "id": "organize",
              "options": {
                "excludeByName": {
                  "Time": true,
                  "Value": true,
                  "__name__": true,
                },
                "indexByName": {},
                "renameByName": {},
              },
            },
          ],
          "options": {
            "showHeader": true,
            "sortBy": [],
          },
          "type": "table",
        },
      ],
      "refresh": "5m",
      "schemaVersion": 39,
      "tags": [
        "gpudash",
        "gpudash-tenant",
      ],
      "templating": {
        "list": [],
      },
      "title": "GPU usage and cost: team-b",
      "time": {
        "from": "now/M",
        "to": "now",
      },
      "timepicker": {
        "refresh_intervals": [
          "1m",
          "5m",
          "15m",
          "30m",
          "1h",
        ],
      },
      "timezone": "utc",
      "uid": "gpudash-tenant-team-b",
    },
  },
}
