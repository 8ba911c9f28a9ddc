"""Bad models: every one is an InputError naming the file, the line, the field path and the reason."""
from __future__ import annotations

import pytest

from gpudash.base.errors import InputError
from gpudash.model import load_model, model_from_dict

BASE = """\
currency: USD
billing:
  resolution: 1m
  mco_interval: 5m
sources:
  kube_state_metrics_job: kube-state-metrics
gpu_classes:
  - name: a100
    vendor: nvidia
    products: ["NVIDIA A100-SXM4-80GB"]
    price_per_hour: 3.2
    mig:
      1g.10gb: 0.5
  - name: l40s
    vendor: nvidia
    products: ["NVIDIA L40S"]
    price_per_hour: 1.0
    time_slicing:
      replicas: 4
  - name: mi300x
    vendor: amd
    products: ["AMD Instinct MI300X"]
    price_per_hour: 4.0
tenants:
  - name: team-a
    namespace: team-a
    budget: 100
    alert_at: [0.5, 1.0]
    quota:
      nvidia.com/gpu: 2
  - name: team-b
    namespace: team-b
    budget: 200
clusters: [east, west]
alerts:
  dashboard_url: https://grafana.example.com
  idle:
    window: 30m
grafana:
  tenant_datasource:
    mode: rbac-query-proxy
"""
MINIMAL = {
    "gpu_classes": [{"name": "t4", "vendor": "nvidia", "products": ["Tesla T4"], "price_per_hour": 0.3}],
    "tenants": [{"name": "team-a", "namespace": "team-a", "budget": 100}],
    "clusters": ["east"],
}
CLASSES = BASE[BASE.index("gpu_classes:"):BASE.index("tenants:")]
TENANTS = BASE[BASE.index("tenants:"):BASE.index("clusters:")]
A100_MIG = "    mig:\n      1g.10gb: 0.5\n"
AMD_PRICE = "price_per_hour: 4.0\n"

KSM = "kube_state_metrics_job: kube-state-metrics"  # the base model's sources line

# (id, old text, new text, field path, reason fragment, line)
CASES = [
    # top level and currency
    ("currency-lowercase", "currency: USD", "currency: usd", "currency", "'usd' is not an ISO 4217 currency code", 1),
    ("currency-number", "currency: USD", "currency: 840", "currency", "expected a string, got number 840", 1),
    ("currency-unknown", "currency: USD", "currency: ABC", "currency", "'ABC' is not an ISO 4217 currency code", 1),
    ("currency-no-minor-unit", "currency: USD", "currency: XAU", "currency", "'XAU' has no minor unit in ISO 4217",
     1),
    ("unknown-top-key", "currency: USD", "curency: USD", "curency", "unknown key (did you mean 'currency'?)", 1),
    ("unknown-key-no-hint", "currency: USD", "currency: USD\nzzz: 1", "zzz", "unknown key", 2),
    ("section-null", "sources:\n  " + KSM + "\n", "sources:\n", "sources",
     "expected a mapping, got null", 5),
    ("gpu-classes-missing", CLASSES, "", "gpu_classes", "required key is missing", None),
    ("tenants-missing", TENANTS, "", "tenants", "required key is missing", None),
    # billing
    ("period-enum", "  resolution: 1m", "  period: weekly\n  resolution: 1m", "billing.period",
     "'weekly' is not one of monthly", 3),
    ("duration-bare-int", "resolution: 1m", "resolution: 60", "billing.resolution",
     "expected a string, got number 60 (durations need a unit: write 60s or 1m)", 3),
    ("duration-bad-unit", "resolution: 1m", "resolution: 1min", "billing.resolution", "'1min' is not a duration", 3),
    ("duration-ms", "resolution: 1m", "resolution: 500ms", "billing.resolution", "'500ms' is not a duration", 3),
    ("duration-empty", "resolution: 1m", "resolution: ''", "billing.resolution", "'' is not a duration", 3),
    ("resolution-too-small", "resolution: 1m", "resolution: 5s", "billing.resolution",
     "5s must be between 10s and 15m", 3),
    ("resolution-not-divisor", "resolution: 1m", "resolution: 7m", "billing.resolution", "must divide 1h exactly", 3),
    ("mco-interval-too-long", "mco_interval: 5m", "mco_interval: 2h", "billing.mco_interval",
     "2h must be between 15s and 1h", 4),
    ("mco-below-resolution", "resolution: 1m", "resolution: 15m", "billing.mco_interval",
     "5m must be at least billing.resolution (15m)", 4),
    ("burn-window-default-too-short", "mco_interval: 5m", "mco_interval: 45m", "billing.burn_rate_window",
     "1h must be at least 2 x billing.mco_interval (1h30m) (the default value; set it explicitly)", 2),
    # sources
    ("tenant-label-enum", KSM, KSM + "\n  dcgm:\n    tenant_label: ns", "sources.dcgm.tenant_label",
     "'ns' is not one of namespace, exported_namespace", 8),
    ("job-regex", KSM, KSM + "\n  amd:\n    job: '(a'", "sources.amd.job",
     "'(a' is not a valid regular expression", 8),
    ("job-empty", KSM, "kube_state_metrics_job: ''", "sources.kube_state_metrics_job",
     "must not be empty", 6),
    ("job-control-char", KSM, 'kube_state_metrics_job: "a\\tb"',
     "sources.kube_state_metrics_job", "is not a non-empty name without control characters", 6),
    ("amd-prefix-pattern", KSM, KSM + "\n  amd_metric_prefix: amd-",
     "sources.amd_metric_prefix", "'amd-' is not a metric name prefix", 7),
    ("product-label-name", KSM, KSM + "\n  nvidia_product_label: gpu.product",
     "sources.nvidia_product_label", "'gpu.product' is not a Prometheus label name", 7),
    # gpu classes
    ("classes-empty", CLASSES, "gpu_classes: []\n", "gpu_classes", "needs at least 1 item", 7),
    ("class-name-uppercase", "name: a100", "name: A100", "gpu_classes[0].name", "'A100' is not a DNS-1123 label", 8),
    ("class-name-too-long", "name: a100", "name: " + "a" * 64, "gpu_classes[0].name", "longer than 63 characters", 8),
    ("class-name-duplicate", "name: l40s", "name: a100", "gpu_classes[1].name",
     "class name 'a100' is already used by gpu_classes[0]", 14),
    ("class-missing-price", "    price_per_hour: 1.0\n", "", "gpu_classes[1].price_per_hour", "required key is missing",
     14),
    ("vendor-enum", "vendor: amd", "vendor: intel", "gpu_classes[2].vendor", "'intel' is not one of nvidia, amd", 21),
    ("products-empty", '["NVIDIA L40S"]', "[]", "gpu_classes[1].products", "needs at least 1 item", 16),
    ("products-not-list", '["NVIDIA L40S"]', "NVIDIA L40S", "gpu_classes[1].products",
     "expected a list, got string 'NVIDIA L40S'", 16),
    ("product-quote", '["NVIDIA L40S"]', "['NVIDIA \"L40S\"']", "gpu_classes[1].products[0]",
     "is not a GPU product name", 16),
    ("product-empty", '["NVIDIA L40S"]', '[""]', "gpu_classes[1].products[0]", "must not be empty", 16),
    ("product-too-long", '["NVIDIA L40S"]', f'["{"X" * 129}"]', "gpu_classes[1].products[0]",
     "longer than 128 characters", 16),
    ("product-mig-slice", '["NVIDIA L40S"]', '["NVIDIA-A100-SXM4-80GB-MIG-1g.10gb"]', "gpu_classes[1].products[0]",
     "is a MIG slice or time-sliced value", 16),
    ("product-shared", '["NVIDIA L40S"]', '["NVIDIA L40S-SHARED"]', "gpu_classes[1].products[0]",
     "list the whole GPU's product only", 16),
    ("product-no-label-chars", '["NVIDIA L40S"]', '["!!!"]', "gpu_classes[1].products[0]",
     "'!!!' keeps no characters as a node label value", 16),
    ("product-two-classes", '["NVIDIA L40S"]', '["NVIDIA L40S", "NVIDIA A100-SXM4-80GB"]', "gpu_classes[1].products[1]",
     "already belongs to class 'a100'", 16),
    ("product-two-classes-sanitised", '["NVIDIA L40S"]', '["NVIDIA A100-SXM4-80GB!"]', "gpu_classes[1].products[0]",
     "(node label 'NVIDIA-A100-SXM4-80GB') already belongs to class 'a100'", 16),
    ("price-string", "price_per_hour: 1.0", 'price_per_hour: "1.0"', "gpu_classes[1].price_per_hour",
     "expected a number, got string '1.0'", 17),
    ("price-negative", "price_per_hour: 1.0", "price_per_hour: -1", "gpu_classes[1].price_per_hour",
     "must be >= 0, got -1", 17),
    ("price-bool", "price_per_hour: 1.0", "price_per_hour: yes", "gpu_classes[1].price_per_hour",
     "got boolean true (YAML reads yes/no/on/off/true/false as booleans)", 17),
    ("price-inf", "price_per_hour: 1.0", "price_per_hour: .inf", "gpu_classes[1].price_per_hour",
     "must be <= 1000000000000, got inf", 17),
    ("price-nan", "price_per_hour: 1.0", "price_per_hour: .nan", "gpu_classes[1].price_per_hour",
     "nan is not a finite number", 17),
    ("mig-model-enum", A100_MIG, A100_MIG + "    mig_model: A100\n", "gpu_classes[0].mig_model",
     "'A100' is not one of A100-40GB", 14),
    ("mig-profile-of-other-model", "1g.10gb: 0.5", "7g.40gb: 0.5", "gpu_classes[0].mig['7g.40gb']",
     "'7g.40gb' is not a MIG profile of A100-80GB (valid: 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb)", 13),
    ("mig-profile-shape", "1g.10gb: 0.5", "one-g: 0.5", "gpu_classes[0].mig['one-g']",
     "'one-g' is not a MIG profile name such as 1g.10gb", 13),
    ("mig-variant-same-resource", "1g.10gb: 0.5", "1g.10gb: 0.5\n      1g.10gb+me: 0.6\n      1g.10gb-me: 0.6",
     "gpu_classes[0].mig['1g.10gb-me']", "'1g.10gb-me' and '1g.10gb+me' are the same kube-state-metrics resource", 15),
    ("mig-price-negative", "1g.10gb: 0.5", "1g.10gb: -0.5", "gpu_classes[0].mig['1g.10gb']", "must be >= 0", 13),
    ("mig-not-mapping", A100_MIG, "    mig: [1g.10gb]\n", "gpu_classes[0].mig", "expected a mapping, got a list", 12),
    ("mig-on-amd", AMD_PRICE, AMD_PRICE + "    mig: {1g.10gb: 1.0}\n", "gpu_classes[2].mig",
     "not supported for vendor amd", 24),
    ("mig-model-on-amd", AMD_PRICE, AMD_PRICE + "    mig_model: A30-24GB\n", "gpu_classes[2].mig_model",
     "not supported for vendor amd", 24),
    ("time-slicing-on-amd", AMD_PRICE, AMD_PRICE + "    time_slicing: {replicas: 2}\n",
     "gpu_classes[2].time_slicing", "not supported for vendor amd", 24),
    ("partitions-on-nvidia", A100_MIG, A100_MIG + "    partitions: {cpx_nps4: 0.5}\n", "gpu_classes[0].partitions",
     "only for vendor amd", 14),
    ("partition-name", AMD_PRICE, AMD_PRICE + "    partitions: {cpx: 0.5}\n", "gpu_classes[2].partitions.cpx",
     "'cpx' is not a partition such as cpx_nps4", 24),
    ("mig-without-model", "      replicas: 4\n", "      replicas: 4\n    mig: {1g.10gb: 0.1}\n", "gpu_classes[1].mig",
     "cannot tell the MIG model from the products; set mig_model", 20),
    ("products-mixed-mig-models", '["NVIDIA A100-SXM4-80GB"]', '["NVIDIA A100-SXM4-80GB", "NVIDIA L4"]',
     "gpu_classes[0].products", "products name different MIG models", 10),
    ("replicas-one", "replicas: 4", "replicas: 1", "gpu_classes[1].time_slicing.replicas", "must be >= 2, got 1", 19),
    ("replicas-fraction", "replicas: 4", "replicas: 2.5", "gpu_classes[1].time_slicing.replicas",
     "expected an integer, got number 2.5", 19),
    ("replicas-missing", "replicas: 4", "price_per_hour: 0.3", "gpu_classes[1].time_slicing.replicas",
     "required key is missing", 18),
    ("replicas-typo", "replicas: 4", "replica: 4", "gpu_classes[1].time_slicing.replica",
     "unknown key (did you mean 'replicas'?)", 19),
    # tenants
    ("tenant-name-missing", "- name: team-b\n    namespace", "- namespace", "tenants[1].name",
     "required key is missing", 31),
    ("tenant-budget-typo", "budget: 200", "budgett: 200", "tenants[1].budgett", "unknown key (did you mean 'budget'?)",
     33),
    ("tenant-budget-negative", "budget: 200", "budget: -5", "tenants[1].budget", "must be >= 0, got -5", 33),
    ("tenant-budget-bool", "budget: 200", "budget: on", "tenants[1].budget", "booleans", 33),
    ("namespace-openshift-star", "namespace: team-b", "namespace: openshift-gpu", "tenants[1].namespace",
     "'openshift-gpu' is a platform namespace (openshift, openshift-*, kube-*, default are never tenants)", 32),
    ("namespace-openshift", "namespace: team-b", "namespace: openshift", "tenants[1].namespace",
     "is a platform namespace", 32),
    ("namespace-kube", "namespace: team-b", "namespace: kube-system", "tenants[1].namespace",
     "is a platform namespace", 32),
    ("namespace-default", "namespace: team-b", "namespace: default", "tenants[1].namespace",
     "is a platform namespace", 32),
    ("namespace-invalid", "namespace: team-b", "namespace: Team_B", "tenants[1].namespace",
     "'Team_B' is not a DNS-1123 label", 32),
    ("namespace-duplicate", "namespace: team-b", "namespace: team-a", "tenants[1].namespace",
     "namespace 'team-a' is already used by tenants[0]", 32),
    ("tenant-name-duplicate", "- name: team-b", "- name: team-a", "tenants[1].name",
     "tenant name 'team-a' is already used by tenants[0]", 31),
    ("alert-at-descending", "[0.5, 1.0]", "[1.0, 0.5]", "tenants[0].alert_at[1]",
     "0.5 is not above 1.0: alert_at must be strictly ascending", 28),
    ("alert-at-duplicate", "[0.5, 1.0]", "[0.5, 0.5]", "tenants[0].alert_at[1]", "duplicate item 0.5", 28),
    # 0.5 and 0.50000001 would both be threshold "0.5": one series name and label set from two rules
    ("alert-at-too-precise", "[0.5, 1.0]", "[0.5, 0.50000001]", "tenants[0].alert_at[1]",
     "0.50000001 has more than 6 significant digits: the rules write a threshold as 0.5, which would merge it", 28),
    ("alert-at-zero", "[0.5, 1.0]", "[0, 1.0]", "tenants[0].alert_at[0]", "must be > 0, got 0", 28),
    ("alert-at-too-big", "[0.5, 1.0]", "[0.5, 11]", "tenants[0].alert_at[1]", "must be <= 10, got 11", 28),
    ("alert-at-empty", "[0.5, 1.0]", "[]", "tenants[0].alert_at", "needs at least 1 item", 28),
    ("alert-at-scalar", "[0.5, 1.0]", "0.5", "tenants[0].alert_at", "expected a list, got number 0.5", 28),
    ("quota-unknown-resource", "nvidia.com/gpu: 2", "nvidia.com/gpus: 2", "tenants[0].quota['nvidia.com/gpus']",
     "is not a GPU resource name (nvidia.com/gpu, nvidia.com/gpu.shared, nvidia.com/mig-<profile>, amd.com/gpu, "
     "amd.com/<partition>) (did you mean 'nvidia.com/gpu'?)", 30),
    ("quota-unknown-mig", "nvidia.com/gpu: 2", "nvidia.com/mig-9g.99gb: 2",
     "tenants[0].quota['nvidia.com/mig-9g.99gb']",
     "is not a GPU resource name", 30),
    ("quota-mig-no-class-has", "nvidia.com/gpu: 2", "nvidia.com/mig-1g.12gb: 2",
     "tenants[0].quota['nvidia.com/mig-1g.12gb']",
     "no GPU class of the model has MIG profile nvidia.com/mig-1g.12gb (classes offer: nvidia.com/mig-1g.10gb, ", 30),
    ("quota-negative", "nvidia.com/gpu: 2", "nvidia.com/gpu: -2", "tenants[0].quota['nvidia.com/gpu']",
     "must be >= 0, got -2", 30),
    ("quota-fraction", "nvidia.com/gpu: 2", "nvidia.com/gpu: 1.5", "tenants[0].quota['nvidia.com/gpu']",
     "expected an integer, got number 1.5", 30),
    ("receiver-pattern", "budget: 200", "budget: 200\n    receiver: team b", "tenants[1].receiver",
     "'team b' is not an Alertmanager receiver name", 34),
    # clusters
    ("clusters-empty", "[east, west]", "[]", "clusters", "needs at least 1 item", 34),
    ("clusters-duplicate", "[east, west]", "[east, east]", "clusters[1]", "duplicate item 'east'", 34),
    ("cluster-invalid", "[east, west]", "[east, West_1]", "clusters[1]", "'West_1' is not a DNS-1123 subdomain", 34),
    ("cluster-number", "[east, west]", "[east, 42]", "clusters[1]", "expected a string, got number 42 (quote it)", 34),
    ("clusters-mapping", "clusters: [east, west]", "clusters: {east: 1}", "clusters", "expected a list, got a mapping",
     34),
    # alerts
    ("runbook-no-alertname", "  dashboard_url", "  runbook_url: https://x.example.com/runbook\n  dashboard_url",
     "alerts.runbook_url", "is not an http(s) URL containing {alertname}", 36),
    ("runbook-ftp", "  dashboard_url", "  runbook_url: ftp://x/{alertname}\n  dashboard_url", "alerts.runbook_url",
     "is not an http(s) URL containing {alertname}", 36),
    ("dashboard-url", "https://grafana.example.com", "grafana.example.com", "alerts.dashboard_url",
     "'grafana.example.com' is not an http:// or https:// URL", 36),
    ("burn-jump-factor", "  idle:", "  burn_jump_factor: 1\n  idle:", "alerts.burn_jump_factor",
     "must be > 1, got 1", 37),
    ("idle-window-short", "window: 30m", "window: 5m", "alerts.idle.window",
     "5m must be at least 2 x billing.mco_interval (10m)", 38),
    ("idle-lookahead", "window: 30m", "window: 30m\n    namespace_regex: '(?!kube-).*'", "alerts.idle.namespace_regex",
     "uses '(?!', which RE2 (Prometheus) does not support", 39),
    ("idle-backreference", "window: 30m", "window: 30m\n    model_regex: '(a)\\1'", "alerts.idle.model_regex",
     "uses '\\\\1', which RE2 (Prometheus) does not support", 39),
    ("idle-regex-invalid", "window: 30m", "window: 30m\n    model_regex: 'A100['", "alerts.idle.model_regex",
     "'A100[' is not a valid regular expression", 39),
    ("idle-power-negative", "window: 30m", "window: 30m\n    power_veto_watts: -1", "alerts.idle.power_veto_watts",
     "must be >= 0, got -1", 39),
    # grafana
    ("datasource-mode", "mode: rbac-query-proxy", "mode: thanos", "grafana.tenant_datasource.mode",
     "'thanos' is not one of thanos-querier, rbac-query-proxy (did you mean 'thanos-querier'?)", 41),
    ("datasource-url", "mode: rbac-query-proxy", "mode: rbac-query-proxy\n    url: localhost:9092",
     "grafana.tenant_datasource.url", "is not an http:// or https:// URL", 42),
    ("token-env", "mode: rbac-query-proxy", "mode: rbac-query-proxy\n    token_env: my-token",
     "grafana.tenant_datasource.token_env", "'my-token' is not an environment variable name", 42),
    ("provider-folder-empty", "grafana:\n", "grafana:\n  provider_folder: ''\n", "grafana.provider_folder",
     "must not be empty", 40),
    # YAML structure
    ("duplicate-key", "budget: 200", "budget: 200\n    budget: 300", "tenants[1].budget",
     "duplicate key (first on line 33)", 34),
    ("duplicate-top-key", "clusters: [east, west]", "clusters: [east, west]\nclusters: [north]", "clusters",
     "duplicate key (first on line 34)", 35),
    ("integer-key", "currency: USD", "currency: USD\n1: x", "", "key '1' is not a string (YAML reads it as int)", 2),
    ("boolean-key", "budget: 200", "budget: 200\n    yes: 1", "tenants[1]", "key 'yes' is not a string", 34),
    ("syntax-error", "clusters: [east, west]", "clusters: [east, west", "",
     "invalid YAML: expected ',' or ']', but got ':' (while parsing a flow sequence that starts on line 34)", 35),
    ("tab-indent", "  " + KSM, "\t" + KSM, "", "invalid YAML", 6),
    ("invalid-date", "currency: USD", "currency: 2024-13-45", "", "invalid value '2024-13-45'", 1),
    ("unknown-tag", "currency: USD", "currency: !money USD", "",
     "could not determine a constructor for the tag '!money'", 1),
    ("python-tag", "currency: USD", "currency: !!python/object:os.system x", "",
     "could not determine a constructor", 1),
    ("recursive-alias", "clusters: [east, west]", "clusters: &c [east, *c]", "clusters[1]", "a value contains itself",
     34),
    ("self-managed-namespace", "  kube_state_metrics_job: kube-state-metrics", "  kube_state_metrics_job: "
     "kube-state-metrics\n  self_managed: {namespace: GPU_Mon}", "sources.self_managed.namespace", "DNS-1123", 7),
    ("self-managed-custom-label", "  kube_state_metrics_job: kube-state-metrics", "  kube_state_metrics_job: "
     "kube-state-metrics\n  nvidia_product_label: label_gpu_model\n  self_managed: {}", "sources.nvidia_product_label",
     "is not kube-state-metrics' name of a node label gpudash knows", 7),
    ("self-managed-service-labels", "  kube_state_metrics_job: kube-state-metrics", "  kube_state_metrics_job: "
     "kube-state-metrics\n  self_managed: {amd_service_labels: {app: 'not a value'}}",
     "sources.self_managed.amd_service_labels.app", "is not a Kubernetes label value", 7),
]


def apply(old: str, new: str) -> str:
    assert old in BASE, old
    return BASE.replace(old, new, 1)


def test_base_is_valid(tmp_path):
    path = tmp_path / "gpudash.yaml"
    path.write_text(BASE)
    load_model(path)


def test_enough_cases():
    assert len(CASES) >= 45
    assert len({case[0] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("old,new,path,reason,line", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_model(tmp_path, old, new, path, reason, line):
    file = tmp_path / "gpudash.yaml"
    file.write_text(apply(old, new))
    with pytest.raises(InputError) as info:
        load_model(file)
    # the case's error, among any others the same edit causes elsewhere (every error is reported at once)
    err = next((e for e in getattr(info.value, "errors", [info.value]) if e.path == path), info.value)
    assert (err.file, err.path, err.line) == (str(file), path, line), str(info.value)
    assert reason in err.reason
    where = f"{file}:{line}" if line else str(file)
    assert str(err) == (f"{where}: {path}: {err.reason}" if path else f"{where}: {err.reason}")
    assert "\n" not in str(err)


def test_message_format(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gpudash.yaml").write_text(apply("namespace: team-b", "namespace: openshift-gpu"))
    with pytest.raises(InputError) as info:
        load_model("gpudash.yaml")
    assert str(info.value) == ("gpudash.yaml:32: tenants[1].namespace: 'openshift-gpu' is a platform namespace "
                               "(openshift, openshift-*, kube-*, default are never tenants)")
    assert info.value.exit_code == 2


def test_dict_errors_have_no_line():
    with pytest.raises(InputError) as info:
        model_from_dict({"gpu_classes": [], "tenants": [], "clusters": []}, file="test")
    assert (info.value.file, info.value.path, info.value.line) == ("test", "gpu_classes", None)
    assert str(info.value) == ("test: 3 errors:\n  test: gpu_classes: needs at least 1 item\n"
                               "  test: tenants: needs at least 1 item\n  test: clusters: needs at least 1 item")


def test_every_error_at_once(tmp_path):
    """Errors in three unrelated places of the file: all three reported, in file order, exit 2. (Checks across
    fields run once the file matches the schema: they read values the schema vouches for.)"""
    file = tmp_path / "gpudash.yaml"
    file.write_text(apply("currency: USD", "currency: usd").replace("name: l40s", "name: L40S")
                    .replace("budget: 100", "budget: 1e400"))
    with pytest.raises(InputError) as info:
        load_model(file)
    lines = str(info.value).splitlines()
    assert lines[0] == f"{file}: 3 errors:" and info.value.exit_code == 2
    assert [line.split(": ")[1] for line in lines[1:]] == ["currency", "gpu_classes[1].name", "tenants[0].budget"]
    assert "out of range" in lines[3]


@pytest.mark.parametrize("data,path,reason", [
    ([], "", "the top level must be a mapping"),
    ("text", "", "the top level must be a mapping"),
    ({1: "x"}, "", "key 1 is not a string"),
    ({"tenants": [{("a", "b"): 1}]}, "tenants[0]", "key ('a', 'b') is not a string"),
    ({**MINIMAL, "clusters": {"a", "b"}}, "clusters", "expected a list, got set"),
], ids=["list", "string", "int-key", "tuple-key", "set"])
def test_bad_dicts(data, path, reason):
    with pytest.raises(InputError) as info:
        model_from_dict(data)
    assert info.value.path == path and reason in info.value.reason


def test_dict_reference_cycle():
    data: dict = {"clusters": ["a"]}
    data["clusters"].append(data)
    with pytest.raises(InputError, match="a value contains itself"):
        model_from_dict(data)


# --- files that are no model at all ----------------------------------------------------------------------------

@pytest.mark.parametrize("content,reason,line", [
    (b"", "the file is empty", None),
    (b"   \n\n", "the file is empty", None),
    (b"# only a comment\n", "the file is empty", None),
    (b"- a\n- b\n", "the top level must be a mapping with gpu_classes, tenants and clusters, got a list", 1),
    (b"hello\n", "got string 'hello'", 1),
    (b"42\n", "got number 42", 1),
    (b"a: 1\n---\nb: 2\n", "expected a single document in the stream", 2),
    (b"\xff\xfe\x00junk", "not UTF-8 text (byte 0xff at offset 0)", 1),
    (b"a: 1\nb: \xc3(\n", "not UTF-8 text (byte 0xc3 at offset 8)", 2),
    (b"a: 1\nb: \x00\x01\x02\n", "not a YAML text: character #x0000 is not allowed", 2),
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "not UTF-8 text", 1),
    (b"a: [" * 400, "invalid YAML", None),
], ids=["empty", "blank", "comment", "list", "scalar", "number", "two-documents", "utf16-bom", "bad-utf8",
        "control-chars", "png", "deep-nesting"])
def test_not_a_model_file(tmp_path, content, reason, line):
    file = tmp_path / "gpudash.yaml"
    file.write_bytes(content)
    with pytest.raises(InputError) as info:
        load_model(file)
    assert reason in info.value.reason
    assert info.value.line == line and info.value.path == ""
    assert "\n" not in str(info.value)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="no such file") as info:
        load_model(tmp_path / "absent.yaml")
    assert str(info.value) == f"{tmp_path / 'absent.yaml'}: no such file"
    with pytest.raises(InputError, match="is a directory"):
        load_model(tmp_path)


@pytest.mark.parametrize("kind", ["large", "fifo"])
def test_a_model_file_too_large_or_no_regular_file_is_refused_in_one_line(tmp_path, kind, monkeypatch):
    """Read within a cap, never a FIFO (a plain read would wait for a writer for ever) or a device to its end."""
    import os

    from gpudash.model import parse

    file = tmp_path / "gpudash.yaml"
    if kind == "fifo":
        os.mkfifo(file)
    else:
        file.write_text("currency: USD\n" + "#" * parse.MAX_MODEL_BYTES)
    with pytest.raises(InputError) as info:
        load_model(file)
    assert str(info.value).startswith(f"{file}: ") and "\n" not in str(info.value)
    assert ("is not a regular file" if kind == "fifo" else f"larger than {parse.MAX_MODEL_BYTES} bytes") in str(
        info.value)


def test_alias_bomb_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, 8)]
    file = tmp_path / "bomb.yaml"
    file.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match="more than 100000 values"):
        load_model(file)


# --- user:password in a URL of the model (issue 26, defect 7) ----------------------------------------------------

USERINFO_URLS = [
    ("alerts.dashboard_url", "https://admin:s3cr3t-pw@grafana.example.com"),
    ("grafana.provider_datasource_url", "https://admin:s3cr3t-pw@thanos.example.com"),
    ("grafana.tenant_datasource.url", "https://admin:s3cr3t-pw@thanos.example.com:9091/"),
    ("prune.prometheus_url", "https://bot:s3cr3t-pw@thanos.example.com"),
    ("alerts.receivers.team.webhook_configs[0].http_config.proxy_url", "http://proxy:s3cr3t-pw@proxy.example.com"),
    ("alerts.dashboard_url", "https://admin:s3 cr3t-pw@grafana.example.com"),  # unparsable: a space
    ("alerts.dashboard_url", "https://admin:s3/cr3t-pw@grafana.example.com"),  # unparsable: a slash
    ("alerts.runbook_url", "htps://admin:s3cr3t-pw@runbooks.example.com/{alertname}"),  # not even a URL here
]


def _with(path: str, value: str) -> dict:
    data = {**MINIMAL, "prune": {"image": "quay.io/x/gpudash:1", "prometheus_url": "https://thanos.example.com",
                                 "token_secret": "hub-token"},
            "alerts": {"receivers": {"team": {"webhook_configs": [{"url_file": "/etc/alertmanager/secrets/am/url",
                                                                   "http_config": {}}]}}}}
    node, keys = data, path.replace("[0]", ".0").split(".")
    for key in keys[:-1]:
        node = node[int(key)] if key.isdigit() else node.setdefault(key, {})
    node[keys[-1]] = value
    return data


@pytest.mark.parametrize(("path", "url"), USERINFO_URLS)
def test_a_password_in_any_url_is_refused_and_never_echoed(path, url):
    with pytest.raises(InputError) as err:
        model_from_dict(_with(path, url))
    text = str(err.value)
    assert f"{path}: a user name or password in a URL" in text and "secret" in text, text
    assert "s3" not in text and "cr3t" not in text and "admin" not in text and "bot:" not in text, text


def test_a_url_with_an_at_sign_in_its_path_is_no_secret():
    model_from_dict(_with("alerts.dashboard_url", "https://grafana.example.com:3000/d/@team"))


@pytest.mark.parametrize("text", ["cannot reach https://u:pw-secret@host/x", "'http://u:pw-secret@h' is bad",
                                  "bad URL htps://u:pw/secret@h"])
def test_no_error_line_shows_a_url_password(text):
    from gpudash.base.errors import GpudashError

    shown = str(GpudashError(text))
    assert "pw" not in shown and "***@" in shown, shown


@pytest.mark.parametrize(("path", "value"), [("gpu_classes.0.price_per_hour", 1.7e308), ("tenants.0.budget", 1e300),
                                             ("energy.price_per_kwh", 1e13), ("gpu_classes.0.mig.1g.10gb", 2e12)])
def test_an_absurd_amount_is_refused(example_data, path, value):
    """A price or budget no currency has (above 10^12) is refused: 1.7e308 per hour overflowed the billing
    arithmetic to infinity and ended render in a traceback (found by tests/integration/test_render_property.py)."""
    node, *keys, last = path.split(".")
    target = example_data.setdefault(node, {})
    if last == "10gb":  # a MIG profile name holds a dot
        keys, last = keys[:-1], f"{keys[-1]}.{last}"
    for key in keys:
        target = target[int(key)] if key.isdigit() else target[key]
    target[last] = value
    with pytest.raises(InputError, match=r"10\^12|1000000000000"):
        model_from_dict(example_data)


def test_time_slicing_replicas_have_a_ceiling(example_data):
    """100,000 replicas was valid and made render build the energy rule's per-count table for ever (a hang, then
    out of memory; found by tests/integration/test_render_property.py): at most 256."""
    example_data["gpu_classes"][1]["time_slicing"]["replicas"] = 100000
    with pytest.raises(InputError, match=r"time_slicing\.replicas: must be <= 256"):
        model_from_dict(example_data)
    example_data["gpu_classes"][1]["time_slicing"]["replicas"] = 256
    model_from_dict(example_data)


INVOICE_FIELDS = [("issuer", "name"), ("issuer", "tax_id"), ("issuer", "email"), ("issuer", "address"),
                  ("issuer", "payment"), ("billing", "legal_name"), ("billing", "customer_id"),
                  ("billing", "purchase_order"), ("billing", "tax_id"), ("billing", "email"), ("billing", "address")]


@pytest.mark.parametrize("char", ["\b", "\x00", "\n", "\x1b", "\x7f", "\x85", "\ud800", "\ufffe", "\uffff"])
@pytest.mark.parametrize("section,field", INVOICE_FIELDS)
def test_a_character_xml_cannot_carry_is_refused_in_an_invoice_field(example_data, section, field, char):
    """U+0008 in an invoice field ended --format xml and facturx in lxml XMLSyntaxError tracebacks (issue 47):
    refused by validation, one line naming the field."""
    where = example_data["issuer"] if section == "issuer" else example_data["tenants"][0].setdefault("billing", {})
    text = f"Acme{char} GmbH"
    where[field] = [text] if field in ("address", "payment") else text
    with pytest.raises(InputError) as info:
        model_from_dict(example_data)
    path = f"{'issuer' if section == 'issuer' else 'tenants[0].billing'}.{field}" + \
        ("[0]" if field in ("address", "payment") else "")
    (err,) = getattr(info.value, "errors", [info.value])
    why = "lone surrogate" if char == "\ud800" else "without control characters"
    assert err.path == path and why in err.reason and "\n" not in str(err), str(err)


def test_an_invoice_field_keeps_any_other_character(example_data):
    example_data["issuer"]["name"] = "Ça & Cie — 株式会社 <Ltd> \"x\" \u2028 \U0001F600 \t"[:-2]
    assert model_from_dict(example_data).issuer.name.startswith("Ça & Cie")


@pytest.mark.parametrize("field,value", [("invoice_prefix", "DRAFT"), ("invoice_prefix", "draft-x"),
                                         ("invoice_series", "Draft2026"), ("invoice_prefix", "A/B"),
                                         ("invoice_series", "../x"), ("invoice_prefix", "")])
def test_an_invoice_number_part_is_a_safe_name_never_read_as_a_draft(example_data, field, value):
    """A final number never starts DRAFT (a draft's), and prefix and series name the ledger's file (issue 46)."""
    example_data["issuer"][field] = value
    with pytest.raises(InputError) as info:
        model_from_dict(example_data)
    (err,) = getattr(info.value, "errors", [info.value])
    assert err.path == f"issuer.{field}" and "\n" not in str(err), str(err)
    example_data["issuer"][field] = "ACME-2026"
    assert getattr(model_from_dict(example_data).issuer, field) == "ACME-2026"
