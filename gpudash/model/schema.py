"""The JSON Schema (Draft 2020-12) of gpudash.yaml: the one definition of the model's structure.

The loader (:mod:`gpudash.model.load`) validates every model with it, fills omitted fields from its
``default`` values and words error messages from its ``title`` annotations; ``python -m gpudash schema``
prints it for editors. Rules that span several fields or need computation (duration ranges, unique names,
one class per product, the MIG profiles of a class's GPU model, regular-expression syntax) are checked by
the loader and stated in the ``description`` of the fields they constrain.
"""
from __future__ import annotations

from gpudash.model import mig, partitions, vendors
from gpudash.model.model_version import CURRENT, MODEL_VERSIONS
from gpudash.model.schema_invoicing import billing_identity, issuer
from gpudash.model.schema_types import Schema, closed_object, ref, value_types
from gpudash.model.types import (
    ALL_TARGETS,
    ARGOCD_MODES,
    DAY,
    IDLE_WINDOW,
    MAX_BACKFILL_HOURS,
    MIN_RETENTION,
    PRUNE_CHECK_INTERVAL,
    PRUNE_MAX_ACTIONS,
    PRUNE_RUN_MODES,
    SPOKE_TIERS,
    TARGETS,
    Mco,
)
from gpudash.model.versions import ACM_VERSIONS

SCHEMA_URI = "https://json-schema.org/draft/2020-12/schema"
THANOS_QUERIER_URL = "https://thanos-querier.openshift-monitoring.svc:9092"
PROVIDER_DATASOURCE_URL = "http://rbac-query-proxy.open-cluster-management-observability.svc:8080"
MAX_REPLICAS = 256  # the most time-slicing replicas of a GPU (see "replicas")


def quota_resources() -> list[str]:
    """Every Kubernetes resource name a tenant quota may limit: each registered vendor's (Vendor.quota_resources)."""
    return sorted({r for v in vendors.VENDORS.values() for r in v.quota_resources()})


def _only(feature: str) -> str:
    """"<vendors with the capability> only." for a field of one capability (``mig_labels``, ``partitions``)."""
    return f"{' or '.join(v.title for v in vendors.with_feature(feature))} only."


def _shared() -> list[str]:
    """The time-sliced replicas' resources of the registered vendors."""
    return [r for r in (v.shared_resource for v in vendors.VENDORS.values()) if r]


def _resource_kinds() -> list[str]:
    """Each registered vendor's kinds of GPU resource, for people: whole GPU, replica, MIG profile, partition."""
    return [r for v in vendors.VENDORS.values() for r in (
        v.resource, v.shared_resource, v.mig_resource("<profile>") if v.mig_resource_prefix else None,
        f"{v.domain}/<partition>" if v.partitions else None) if r]


def _defs() -> Schema:
    return {**value_types(), "gpu_class": _gpu_class(), "tenant": _tenant()}


def _billing() -> Schema:
    return closed_object({
        "period": {"description": "Billing period: a calendar month in UTC.", "enum": ["monthly"],
                   "default": "monthly"},
        "resolution": ref("duration", "Spoke sampling step of the allocation integral; 10s to 15m and a divisor "
                                      "of 1h.", default="1m"),
        "mco_interval": ref("duration", "ACM metrics-collector push interval (observabilityAddonSpec.interval); "
                                        "15s to 1h and at least the resolution.", default="5m"),
        "burn_rate_window": ref("duration", "Window of the recent burn rate used by projections and alerts; at "
                                            "least twice the mco_interval.", default="1h"),
        "spoke_tier": {"description": "policy: each managed cluster's Prometheus records the per-step allocation "
                                      "every resolution (delivered as an ACM Policy) and the pushed hourly rules "
                                      "read those samples; none: every push re-derives the hour from raw series "
                                      "(at 10,000 GPUs one push then costs more than a minute of query time). "
                                      "Default policy when outputs.targets include acm, else none.",
                       "enum": list(SPOKE_TIERS)},
        "backfill_hours": {"title": f"a number of hours in [0, {MAX_BACKFILL_HOURS}]", "type": "integer",
                           "minimum": 0, "maximum": MAX_BACKFILL_HOURS,
                           "description": "Each push also carries the hourly figures of this many earlier hours, so "
                                          "an ACM outage up to this long loses no billed hour; the hub settles hour H "
                                          "at H + backfill_hours + 1h. Default 24 with spoke_tier: policy, which it "
                                          "needs (0 without: each push would re-derive every hour from raw series)."},
        "retention": _retention(),
    }, "How GPU time is sampled, pushed and billed.", default={})


def _retention() -> Schema:
    floor = f"{MIN_RETENTION // DAY}d"
    keep = "How long the hub's object storage keeps {} samples (MCO spec.advanced.retentionConfig.{}); at least " \
           f"{floor} (13 months, for year-over-year disputes){{}}."
    return closed_object({
        "raw": ref("duration", keep.format("raw", "retentionResolutionRaw", ": reports read raw samples"),
                   default=floor),
        "5m": ref("duration", keep.format("5-minute downsampled", "retentionResolution5m", " and at least raw"),
                  default=floor),
        "1h": ref("duration", keep.format("1-hour downsampled", "retentionResolution1h", " and at least 5m"),
                  default=floor),
    }, "Hub retention per resolution, rendered into the MultiClusterObservability settings.", default={})


def _exporter(what: str, job: str, tenant_label: str, why: str) -> Schema:
    return closed_object({
        "job": ref("regex", f"Prometheus job of the {what} (RE2, anchored).", default=job),
        "tenant_label": {
            "description": f"Namespace label on the {what}'s pod-attributed series (pod and container follow "
                           f"it: exported_pod with exported_namespace). Default {tenant_label}: {why}",
            "enum": ["namespace", "exported_namespace"], "default": tenant_label},
    }, f"How the {what}'s series are found and attributed to pods.", default={})


def _sources() -> Schema:
    return closed_object({
        "kube_state_metrics_job": ref("name", "Prometheus job of kube-state-metrics.",
                                      default="kube-state-metrics"),
        # each registered vendor's exporter (its module cites where the defaults come from)
        **{v.source: _exporter(v.exporter_title, v.default_job, v.default_tenant_label, v.default_tenant_label_why)
           for v in vendors.VENDORS.values()},
        **{key: schema for v in vendors.VENDORS.values() for key, schema in v.sources_fields},
        "self_managed": closed_object({
            "namespace": ref("dns_label", "The GPU exporters' namespace: render labels it "
                                          "openshift.io/cluster-monitoring=true and puts the ServiceMonitors there.",
                             default="gpu-monitoring"),
            # each registered vendor's exporter Service (its module cites where the defaults come from)
            **{w.labels_field: ref("k8s_labels", w.labels_description, default=dict(w.labels_default))
               for w in (v.wiring for v in vendors.VENDORS.values()) if w},
        }, "Spokes whose GPU exporters were installed without the GPU Operators' ServiceMonitors: render writes "
           "wiring/ (ServiceMonitors with the honorLabels of each exporter's tenant_label, and kube-state-metrics' "
           "--metric-labels-allowlist). Omit it when the GPU Operators scrape the exporters."),
    }, "Job and label names that differ between installations. kube_node_labels carries node labels only when "
       "kube-state-metrics runs with --metric-labels-allowlist=nodes=[...] (OpenShift: nodes=[*]).", default={})


def _gpu_class() -> Schema:
    price = "Price of one whole GPU per hour, in the model's currency."
    return closed_object({
        "name": ref("dns_label", "Class name, unique among classes."),
        "vendor": {"description": "GPU vendor.", "enum": list(vendors.VENDORS)},
        "products": {
            "description": "Product names: the human name (spaces allowed) or the exact node label value. "
                           "Compared as the vendor's node label value: " + "; ".join(
                               f"{v.title} as {v.labeller}'s {v.product_label_key} ({v.product_value_doc})"
                               for v in vendors.VENDORS.values()) +
                           ". A product belongs to one class only.",
            "type": "array", "minItems": 1, "uniqueItems": True, "items": {"$ref": "#/$defs/product"}},
        "price_per_hour": ref("amount", price),
        "mig_model": {
            "description": "MIG-capable GPU model of the class; inferred from the products when omitted (all "
                           "products must then name the same model, or none). " + _only("mig_labels"),
            "enum": sorted(mig.PROFILES)},
        "mig": {
            "description": "Price per hour of MIG profiles, e.g. 1g.10gb: 0.55; each must be a profile of the "
                           "class's MIG model. Unpriced profiles cost price_per_hour x max(compute share, memory "
                           "share). Media-extension variants (1g.10gb+me, -me, +me.all, +gfx) are priced only when "
                           "listed, else reported unpriced. " + _only("mig_labels"),
            "type": "object",
            "propertyNames": {"title": "a MIG profile name such as 1g.10gb, or a media-extension variant such as "
                                       "1g.10gb+me", "pattern": mig.VARIANT.pattern},
            "additionalProperties": {"$ref": "#/$defs/amount"}},
        "partitions": {
            "description": "".join(
                f"Price per hour of {v.title} compute partitions, e.g. cpx_nps4: 0.60 (the device plugin's "
                f"mixed-strategy resource {v.domain}/<compute>_<memory>, and the node label "
                f"{v.partition_label_key} under the single strategy). " for v in vendors.with_feature("partitions"))
            + "Unpriced partitions cost price_per_hour x their compute share (CPX on MI300X: 1/8). "
            + _only("partitions"),
            "type": "object",
            "propertyNames": {"title": "a partition such as cpx_nps4",
                              "pattern": f"^({'|'.join(partitions.COMPUTE_MODES)})_"
                                         f"({'|'.join(partitions.MEMORY_MODES)})$"},
            "additionalProperties": {"$ref": "#/$defs/amount"}},
        "time_slicing": closed_object({
            # at most MAX_REPLICAS: the energy rule keys one table row per replica count up to the largest
            "replicas": {"description": f"Replicas each GPU is advertised as ({', '.join(_shared())}); 2 to "
                                        f"{MAX_REPLICAS}.", "type": "integer", "minimum": 2, "maximum": MAX_REPLICAS},
            "price_per_hour": ref("amount", "Price of one replica per hour; default price_per_hour / replicas."),
        }, f"GPU time-slicing of this class ({_only('time_slicing').rstrip('.')}). Without it a time-sliced replica "
           "bills as a whole GPU.",
            required=("replicas",)),
    }, "A GPU class: the products it covers and their prices.",
        required=("name", "vendor", "products", "price_per_hour"))


def _tenant() -> Schema:
    return closed_object({
        "name": ref("dns_label", "Tenant name, unique among tenants."),
        "namespace": ref("dns_label", "The tenant's one Kubernetes namespace; unique among tenants.", **{"not": {
            "title": "a platform namespace (openshift, openshift-*, kube-*, default are never tenants)",
            "pattern": "^(openshift|openshift-.*|kube-.*|default)$"}}),
        "budget": ref("amount", "Budget per billing period, in the model's currency."),
        "alert_at": {
            "description": "Budget fractions that trigger alerts, ascending, at most 6 significant digits each.",
            "type": "array", "minItems": 1, "uniqueItems": True, "default": [0.5, 0.9, 1.0],
            "items": {"title": "a budget fraction in (0, 10]", "type": "number", "exclusiveMinimum": 0,
                      "maximum": 10}},
        "quota": {
            "description": "Maximum requested quantity per GPU resource; omitted = no quota.",
            "type": "object",
            "propertyNames": {
                "title": f"a GPU resource name ({', '.join(_resource_kinds())})",
                "enum": quota_resources()},
            "additionalProperties": {"title": "a non-negative integer", "type": "integer", "minimum": 0}},
        "receiver": ref("receiver", "Alertmanager receiver of the tenant's alerts; default tenant-<name>."),
        "clusters": {"description": "The clusters the tenant's namespace exists on (its quota, pruner Role and "
                                    "RoleBinding go only there); default every cluster of the model.",
                     "type": "array", "minItems": 1, "uniqueItems": True, "items": {"$ref": "#/$defs/dns_subdomain"}},
        "billing": billing_identity(),
    }, "A tenant: exactly one namespace with a budget.", required=("name", "namespace", "budget"))


# Alertmanager receiver integrations the model accepts, in Alertmanager's own YAML shape
# (prometheus/alertmanager config/notifiers.go); Alertmanager itself validates each entry (`amtool check-config`).
RECEIVER_INTEGRATIONS = ("email_configs", "slack_configs", "webhook_configs", "pagerduty_configs", "msteams_configs")
# Per integration, the fields that would inline a secret -> the field that references it by file instead
# (a file mounted into Alertmanager); HTTP_SECRETS apply anywhere in an integration's http_config
# (prometheus/common config/http_config.go: authorization, basic_auth, oauth2).
INLINE_SECRETS = {"email_configs": {"auth_password": "auth_password_file", "auth_secret": "auth_password_file"},
                  "slack_configs": {"api_url": "api_url_file"}, "webhook_configs": {"url": "url_file"},
                  "pagerduty_configs": {"service_key": "service_key_file", "routing_key": "routing_key_file"},
                  "msteams_configs": {"webhook_url": "webhook_url_file"}}
HTTP_SECRETS = {"credentials": "credentials_file", "password": "password_file",
                "client_secret": "client_secret_file"}


def _receivers() -> Schema:
    integration = {"title": "a list of Alertmanager integration configurations", "type": "array",
                   "items": {"title": "a mapping in Alertmanager's configuration format", "type": "object"}}
    return {
        "description": "Alertmanager receivers by name: their integrations in Alertmanager's own format. Secrets "
                       "are referenced by file (api_url_file, routing_key_file, ...), never inlined.",
        "type": "object", "default": {},
        "propertyNames": {"$ref": "#/$defs/receiver"},
        "additionalProperties": closed_object({k: integration for k in RECEIVER_INTEGRATIONS},
                                              "One receiver's integrations."),
    }


def _alerts() -> Schema:
    idle = closed_object({
        "window": ref("duration", "Time with zero activity before a GPU counts as idle; at least twice the "
                                  "mco_interval.", default=IDLE_WINDOW),
        "namespace_regex": ref("regex", "Namespaces watched for idle GPUs (RE2, anchored).", default=".*"),
        "model_regex": ref("regex", "GPU models watched for idleness (RE2 on the exporter's model name).",
                           default=".*"),
        "power_veto_watts": ref("amount", "A GPU drawing at least this power is never idle; 0 = off.", default=0),
    }, "Idle-GPU alert.", default={})
    return closed_object({
        "runbook_url": {
            "title": "an http(s) URL containing {alertname}", "type": "string",
            "pattern": "^https?://\\S*\\{alertname\\}\\S*$",
            "description": "Runbook link of every alert; {alertname} is replaced by the alert name.",
            "default": "https://github.com/gpudash/gpudash/blob/main/docs/alerts.md#alert-{alertname}"},
        "dashboard_url": ref("url", "Grafana base URL for dashboard links (a trailing slash is dropped).",
                             default="http://localhost:3000"),
        "provider_receiver": ref("receiver", "Alertmanager receiver of the provider's alerts.",
                                 default="gpu-provider"),
        "burn_jump_factor": {"description": "Burn-rate jump alert: the current rate is at least this factor times "
                                            "the window's average.",
                             "title": "a number > 1", "type": "number", "exclusiveMinimum": 1, "default": 2.0},
        "idle": idle,
        "receivers": _receivers(),
    }, "Alerting settings.", default={})


def _grafana() -> Schema:
    datasource = closed_object({
        "mode": {"description": "How tenant dashboards query: thanos-querier (single cluster, tenancy port) or "
                                "rbac-query-proxy (ACM hub).",
                 "enum": ["thanos-querier", "rbac-query-proxy"], "default": "rbac-query-proxy"},
        "url": ref("url", f"Tenant datasource URL; default {THANOS_QUERIER_URL} for thanos-querier, "
                          "the provider datasource URL for rbac-query-proxy."),
        "token_env": {"title": "an environment variable name (uppercase letters, digits and '_')",
                      "description": "Environment variable prefix of tenant bearer tokens: provisioning reads "
                                     "${<token_env>_<TENANT_UPPER_SNAKE>}.",
                      "type": "string", "pattern": "^[A-Z_][A-Z0-9_]*$", "default": "GF_TENANT_TOKEN"},
    }, "Datasource of tenant dashboards.", default={})
    return closed_object({
        "provider_datasource_url": ref("url", "Datasource URL of provider dashboards.",
                                      default=PROVIDER_DATASOURCE_URL),
        "provider_folder": ref("name", "Grafana folder of provider dashboards.", default="GPU Provider"),
        "tenant_datasource": datasource,
    }, "Grafana settings.", default={})


def _mco() -> Schema:
    d = Mco()
    return closed_object({
        "output": {"description": "patch: a kustomize Component patching your MultiClusterObservability (mco/"
                                  "settings); resource: the whole CR as an mco/ resource.",
                   "enum": ["patch", "resource"], "default": d.output},
        "name": ref("dns_subdomain", "Name of the MultiClusterObservability CR.", default=d.name),
        "object_storage": closed_object({
            "secret": ref("dns_subdomain", "Secret (in open-cluster-management-observability) holding the Thanos "
                                           "object storage config.", default=d.storage_secret),
            "key": {"title": "a Secret key (letters, digits, '-', '_' and '.')", "type": "string",
                    "pattern": "^[-._a-zA-Z0-9]+$", "maxLength": 253,
                    "description": "Key of that Secret holding the config.", "default": d.storage_key},
        }, "The metricObjectStorage Secret reference.", default={}),
        "alertmanager_config": {
            "description": "render: mco/ holds the hub Alertmanager's Secret alertmanager-config, MCO's default "
                           "configuration with gpudash's route added (for a hub still on MCO's default); merge: no "
                           "Secret, you merge gpudash's route from alerts/alertmanager.yml into the hub's own "
                           "configuration (docs/alerts.md, Routing).",
            "enum": ["render", "merge"], "default": d.alertmanager_config},
    }, "ACM MultiClusterObservability settings gpudash renders (push interval and retention come from billing).",
        default={})


def _outputs() -> Schema:
    return closed_object({
        "targets": {"description": "Delivery targets to write besides the rules, alerts, quotas and golden tests "
                                   "(always written): " + "; ".join(f"{k}: {v}" for k, v in TARGETS.items()) + ".",
                    "type": "array", "uniqueItems": True, "items": {"enum": list(ALL_TARGETS)},
                    "default": list(ALL_TARGETS)},
        "argocd": closed_object({
            "repo_url": {"type": "string", "minLength": 1, "pattern": "^[^\\s]+$",
                         "description": "The Git repository ArgoCD reads the rendered output from."},
            "revision": {"type": "string", "minLength": 1, "default": "HEAD",
                         "description": "The branch, tag or commit ArgoCD syncs."},
            "path": {"type": "string", "minLength": 1, "pattern": "^[^/\\s][^\\s]*$", "default": ".",
                     "description": "The output folder within the repository (relative, no leading '/')."},
            "namespace": {"$ref": "#/$defs/dns_label", "default": "openshift-gitops",
                          "description": "The namespace of the ArgoCD instance the Applications go to."},
            "instance": {"$ref": "#/$defs/dns_label", "default": "openshift-gitops",
                         "description": "The name of the ArgoCD instance (its CR): its application controller runs "
                                        "as the ServiceAccount <instance>-argocd-application-controller."},
            "controller_rbac": {"type": "boolean", "default": False,
                                "description": "Render, beside the Applications, the least-privilege Roles and "
                                               "ClusterRole its application controller needs to sync them (a stock "
                                               "OpenShift GitOps controller cannot write Secrets, Services, "
                                               "Deployments or the ACM, Grafana and monitoring kinds)."},
            "mode": {"enum": list(ARGOCD_MODES), "default": ARGOCD_MODES[0],
                     "description": "How the spokes get their Applications: push (the hub's ArgoCD applies them "
                                    "through the cluster secrets of ACM's GitOpsCluster); pull is not supported."},
        }, "Render ArgoCD Applications (deploy/argocd/) for the deploy/ folders: present when the output is "
           "committed to a Git repository ArgoCD reads.", required=("repo_url",)),
        "acm_version": {"description": "The oldest ACM hub the output is applied on (docs/outputs.md, supported "
                                       "versions); from 2.14 the spoke tier's Placement selects the clusters by "
                                       "name, before by their `name` label.",
                        "enum": list(ACM_VERSIONS), "default": ACM_VERSIONS[0]},
    }, "What render writes. The default writes every target; see docs/outputs.md for the minimal sets.", default={})


def _prune() -> Schema:
    return closed_object({
        "image": {"title": "a container image reference", "type": "string", "minLength": 1, "pattern": "^\\S+$",
                  "description": "Image with gpudash and its prune extra (pip install 'gpudash[prune]')."},
        "prometheus_url": ref("url", "Where the pruner reads the recorded idle series: the hub's Thanos Querier "
                                     "(reachable from the cluster) or the cluster's own Prometheus."),
        "clusters": {"description": "Clusters a pruner is rendered for (prune/<cluster>/, each acting on its own "
                                    "cluster's workloads); default every cluster of the model.",
                     "type": "array", "minItems": 1, "uniqueItems": True, "items": {"$ref": "#/$defs/dns_subdomain"}},
        "namespace": ref("dns_label", "Namespace the pruner runs in (rendered as prune/namespace.yaml).",
                         default="gpudash-prune"),
        "run_mode": {"description": "dry-run: log what would be done; scale-down: do it.",
                     "enum": list(PRUNE_RUN_MODES), "default": PRUNE_RUN_MODES[0]},
        "check_interval": ref("duration", "Time between cycles; 15s to 1d.", default=PRUNE_CHECK_INTERVAL),
        "duration": ref("duration", "Extra time a pod must already have been recorded idle, beyond "
                                    "alerts.idle.window.", default="0s"),
        "max_actions": {"title": "a non-negative integer", "type": "integer", "minimum": 0,
                        "description": "Most workloads stopped per cycle.", "default": PRUNE_MAX_ACTIONS},
        "token_secret": ref("dns_subdomain", "Secret in the pruner's namespace whose key token is the bearer token "
                                             "for prometheus_url (a hub token: see docs/prune.md); default: the "
                                             "pruner's service account token, only for a prometheus_url that is a "
                                             "Service of its own cluster (*.svc)."),
        "trusted_ca_bundle": {"type": "boolean", "default": False,
                              "description": "Verify prometheus_url with the cluster's trusted CA bundle (OpenShift's "
                                             "Cluster Network Operator injects it into a ConfigMap gpudash renders), "
                                             "for a hub route whose CA is not in the image's trust store."},
    }, "The idle-GPU pruner (gpudash prune --daemon) deployed on each cluster: rendered under prune/ only when "
       "this section is present.", required=("image", "prometheus_url"))


def _energy() -> Schema:
    price = {"$ref": "#/$defs/amount"}
    return closed_object({
        "price_per_kwh": {**price, "default": 0,
                          "description": "Price of one kWh of GPU energy in the model's currency (0: energy is "
                                         "metered and shown on every surface, not charged)."},
        "clusters": {"type": "object", "propertyNames": {"$ref": "#/$defs/dns_subdomain"},
                     "additionalProperties": price,
                     "description": "Price per kWh of a cluster whose tariff differs (keys: the model's clusters)."},
        "unallocated_alert_ratio": {"title": "a number in (0, 1]", "type": "number", "exclusiveMinimum": 0,
                                    "maximum": 1, "default": 0.5,
                                    "description": "GPUEnergyUnallocated fires when at least this share of a "
                                                   "cluster's GPU energy in an hour went to GPUs held by no pod."},
        "in_budget": {"type": "boolean", "default": False,
                      "description": "Budgets (period-to-date, projection, thresholds) include the energy cost of "
                                     "each complete hour."},
    }, "GPU energy per tenant (kWh from the GPU exporters' energy counters, else their power): its price and the "
       "idle-fleet alert. Without this section energy is not metered: no energy rule is rendered or pushed, "
       "which spares the spoke its costliest hourly rule.")


def json_schema() -> Schema:
    """The JSON Schema of gpudash.yaml (a fresh dict on every call)."""
    return {
        "$schema": SCHEMA_URI,
        "title": "gpudash model",
        **closed_object({
            "version": {"title": f"a model version ({', '.join(MODEL_VERSIONS)})", "type": "string",
                        "enum": list(MODEL_VERSIONS), "default": CURRENT,
                        "description": "Format of this file; a gpudash that does not read it refuses the model "
                                       "(docs/model.md, Upgrade path)."},
            "currency": {"title": "an ISO 4217 currency code (three uppercase letters)",
                         "description": "Currency of prices and budgets.", "type": "string",
                         "pattern": "^[A-Z]{3}$", "default": "USD"},
            "billing": _billing(),
            "sources": _sources(),
            "gpu_classes": {"description": "GPU classes; names unique.", "type": "array", "minItems": 1,
                            "items": {"$ref": "#/$defs/gpu_class"}},
            "tenants": {"description": "Tenants; names and namespaces unique.", "type": "array", "minItems": 1,
                        "items": {"$ref": "#/$defs/tenant"}},
            "clusters": {"description": "Managed cluster names (the cluster label MCO adds).", "type": "array",
                         "minItems": 1, "uniqueItems": True, "items": {"$ref": "#/$defs/dns_subdomain"}},
            "alerts": _alerts(),
            "grafana": _grafana(),
            "mco": _mco(),
            "issuer": issuer(),
            "prune": _prune(),
            "energy": _energy(),
            "outputs": _outputs(),
        }, "GPU classes and prices, tenants (one namespace each) with budgets, and clusters: the one input from "
           "which gpudash renders rules, allowlists and dashboards.", required=("gpu_classes", "tenants", "clusters")),
        "$defs": _defs(),
    }
