"""The rendered MultiClusterObservability settings: valid against the upstream CRD, driven by the model."""
from __future__ import annotations

import copy

import pytest
import yaml

from gpudash.base import layout
from gpudash.base.errors import InputError
from gpudash.model.load import bundled_example_path, load_bundled_example, model_from_dict
from gpudash.render.targets.acm import settings
from tests import upstream_schemas
from tests.conftest import generate_without_golden
from tests.upstream_schemas import refused

SCHEMA = upstream_schemas.schema(settings.API_VERSION, settings.KIND)


def example(**changes) -> dict:
    """The bundled example's data with ``changes`` ({"a.b": value}) applied."""
    data = yaml.safe_load(bundled_example_path().read_text())
    for path, value in changes.items():
        *parents, leaf = path.split(".")
        node = data
        for p in parents:
            node = node.setdefault(p, {})
        node[leaf] = value
    return data


def problems(obj: dict) -> list[str]:
    return refused(obj, SCHEMA)


@pytest.mark.parametrize("output", ["patch", "resource"])
def test_rendered_settings_validate_against_the_upstream_crd(output):
    files = settings.artifacts(model_from_dict(example(**{"mco.output": output})))
    obj = files[settings.PATCH if output == "patch" else layout.MCO_RESOURCE]
    assert problems(obj) == []
    assert obj["spec"]["observabilityAddonSpec"]["interval"] == 300
    assert obj["spec"]["advanced"]["retentionConfig"] == {
        "retentionResolutionRaw": "397d", "retentionResolution5m": "397d", "retentionResolution1h": "397d"}


def test_the_crd_check_catches_what_the_api_server_would_refuse_or_drop():
    obj = settings.patch(load_bundled_example())
    bad = copy.deepcopy(obj)
    bad["spec"]["observabilityAddonSpec"]["interval"] = 10  # below the CRD's minimum of 15
    assert any("interval" in p for p in problems(bad))
    misplaced = copy.deepcopy(obj)
    misplaced["spec"]["metricObjectStorage"] = misplaced["spec"].pop("storageConfig")["metricObjectStorage"]
    assert any("metricObjectStorage" in p for p in problems(misplaced))


def test_changing_the_push_interval_and_retention_changes_the_settings():
    data = example(**{"billing.mco_interval": "2m", "billing.retention": {"raw": "400d", "5m": "500d", "1h": "3650d"}})
    spec = settings.patch(model_from_dict(data))["spec"]
    assert spec["observabilityAddonSpec"]["interval"] == 120
    assert spec["advanced"]["retentionConfig"] == {
        "retentionResolutionRaw": "400d", "retentionResolution5m": "500d", "retentionResolution1h": "3650d"}
    assert problems(settings.patch(model_from_dict(data))) == []


def test_object_storage_reference_comes_from_the_model():
    data = example(mco={"name": "obs", "object_storage": {"secret": "s3-metrics", "key": "store.yaml"}})
    model = model_from_dict(data)
    obj = settings.patch(model)
    assert obj["metadata"]["name"] == "obs"
    assert obj["spec"]["storageConfig"]["metricObjectStorage"] == {"name": "s3-metrics", "key": "store.yaml"}
    assert "name: s3-metrics" in settings.secret_template(model) and "store.yaml: |" in settings.secret_template(model)


def test_the_patch_is_a_component_never_a_resource(example_files):
    files = example_files
    assert files[layout.kustomization(layout.MCO_SETTINGS)]["kind"] == "Component"
    listed = files["kustomization.yaml"]["resources"] + files[layout.kustomization(layout.MCO)]["resources"]
    assert not any("settings" in r or r.endswith(".patch.yaml") or "template" in r for r in listed)
    whole = generate_without_golden(model_from_dict(example(**{"mco.output": "resource"})))
    assert "multiclusterobservability.yaml" in whole[layout.kustomization(layout.MCO)]["resources"]
    assert settings.PATCH not in whole


def test_the_secret_template_holds_no_credentials():
    text = settings.secret_template(load_bundled_example())
    assert all(line.startswith("#") for line in text.splitlines())
    assert yaml.safe_load(text) is None  # nothing to apply by accident
    body = yaml.safe_load("\n".join(line[2:] for line in text.splitlines()[4:]))
    config = yaml.safe_load(body["stringData"]["thanos.yaml"])["config"]
    assert config["access_key"].startswith("<") and config["secret_key"].startswith("<")


@pytest.mark.parametrize("retention,field,reason", [
    ({"raw": "365d"}, "billing.retention.raw", "must be at least 397d (13 months"),
    ({"raw": "400d", "5m": "397d"}, "billing.retention['5m']", "must be at least raw (400d)"),
    ({"5m": "500d", "1h": "400d"}, "billing.retention['1h']", "must be at least 5m (500d)"),
    ({"raw": "13mo"}, "billing.retention.raw", "is not a duration"),
    ({"2h": "400d"}, "billing.retention['2h']", "unknown key"),
])
def test_bad_retention_is_a_clear_error(retention, field, reason):
    with pytest.raises(InputError) as err:
        model_from_dict(example(**{"billing.retention": retention}))
    assert field in str(err.value) and reason in str(err.value)


def test_bad_mco_settings_are_clear_errors():
    for mco, field in (({"output": "cr"}, "mco.output"), ({"object_storage": {"key": "a/b"}}, "mco.object_storage.key"),
                       ({"name": "Obs"}, "mco.name")):
        with pytest.raises(InputError) as err:
            model_from_dict(example(mco=mco))
        assert field in str(err.value)


# --- the Secrets the hub Alertmanager's receivers read (issue #43 item 5) ---------------------------------------

def _mounted(spec: dict) -> dict[str, str]:
    """Where MCO mounts each listed Secret: /etc/alertmanager/secrets/<secret> (stolostron/
    multicluster-observability-operator operators/multiclusterobservability/pkg/rendering/renderer_alertmanager.go,
    MountPath: fmt.Sprintf("/etc/alertmanager/secrets/%s", secret)), stated here as upstream writes it."""
    listed = spec["advanced"].get("alertmanager", {}).get("secrets", [])
    return {f"/etc/alertmanager/secrets/{s}": s for s in listed}


def _files(config: dict) -> list[str]:
    """Every ``*_file`` value of the rendered Alertmanager configuration's receivers."""
    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                yield from [value] if key.endswith("_file") else walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)
    return list(walk(config["receivers"]))


@pytest.mark.parametrize("output", ["patch", "resource"])
def test_every_file_a_rendered_receiver_reads_is_in_a_secret_mco_mounts(output):
    from gpudash.render.alerts import routing
    from gpudash.render.targets import acm

    model = model_from_dict(example(**{"mco.output": output}))
    files = settings.artifacts(model)
    obj = files[settings.PATCH if output == "patch" else layout.MCO_RESOURCE]
    assert problems(obj) == []
    mounted = _mounted(obj["spec"])
    secret = acm.secret(routing.artifacts(model)[layout.ALERTMANAGER])
    read = _files(yaml.safe_load(secret["stringData"][acm.SECRET_KEY]))
    assert len(read) == 3  # the example's SMTP password, PagerDuty key and Slack URL
    for file in read:
        directory, key = file.rsplit("/", 1)
        assert directory in mounted, f"{file}: no listed Secret is mounted at {directory}"
    assert sorted(mounted.values()) == ["pagerduty", "slack-team-a", "smtp"]  # and nothing else


def test_no_receiver_file_no_alertmanager_settings():
    data = example(**{"alerts.receivers": {}})
    assert "alertmanager" not in settings.spec(model_from_dict(data))["advanced"]  # the hub's own list untouched


@pytest.mark.parametrize("file", [
    "/etc/alertmanager/secret/smtp/password",         # not where MCO mounts
    "/etc/alertmanager/secrets/smtp",                 # the Secret's folder, no key
    "/etc/alertmanager/secrets/smtp/sub/password",    # a key holds no folder
    "/etc/alertmanager/secrets/SMTP/password",        # not a DNS-1123 label: no volume secret-SMTP
    "/etc/alertmanager/secrets/" + "s" * 57 + "/key",  # volume name over 63 characters
    "/etc/alertmanager/secrets/smtp/..password",      # not a Secret key
])
def test_a_file_mco_cannot_mount_is_refused_for_the_hub(file):
    hook = {"url_file": "/etc/alertmanager/secrets/hook/url",
            "http_config": {"authorization": {"credentials_file": file}}}
    receivers = {"gpu-provider": {"webhook_configs": [hook]}}
    data = example(**{"alerts.receivers": receivers})
    with pytest.raises(InputError) as err:
        model_from_dict(data)
    assert err.value.path == ("alerts.receivers['gpu-provider'].webhook_configs[0].http_config.authorization"
                              ".credentials_file")
    assert "Secrets MCO mounts" in err.value.reason and "/etc/alertmanager/secrets/<secret>/<key>" in err.value.reason
    without_acm = example(**{"alerts.receivers": receivers, "outputs.targets": ["prometheus-rule"]})
    assert model_from_dict(without_acm).alerts.receivers  # any path, where no MCO mounts the files
