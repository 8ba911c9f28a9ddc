"""The tenants' GPU ResourceQuotas and the model's Alertmanager receivers (tests/integration/test_alerts_routing.py
checks the routing with the real amtool)."""
from __future__ import annotations

import pytest
import yaml

from gpudash.base import layout
from gpudash.model import alert_names as an
from gpudash.model import model_from_dict
from gpudash.render import quotas
from gpudash.render.alerts import quotas as quota_alert
from tests.unit.test_alerts import ODD


def test_quotas_per_tenant(rendered, example_model):
    files = sorted(p.name for p in (rendered / layout.QUOTAS).glob("*.resourcequota.yaml"))
    assert files == sorted(f"{t.name}.resourcequota.yaml" for t in example_model.tenants if t.quota)
    team_a = yaml.safe_load((rendered / layout.quota("team-a")).read_text())
    assert team_a["apiVersion"] == "v1" and team_a["kind"] == "ResourceQuota"
    assert team_a["metadata"]["name"] == an.QUOTA_NAME and team_a["metadata"]["namespace"] == "team-a"
    assert team_a["spec"] == {"hard": {"requests.nvidia.com/gpu": "8", "requests.nvidia.com/mig-1g.10gb": "4"}}
    research = yaml.safe_load((rendered / layout.quota("research")).read_text())
    assert research["metadata"]["namespace"] == "ml-research"
    assert research["spec"] == {"hard": {"requests.amd.com/gpu": "4"}}
    assert (rendered / layout.quota("team-a")).read_text().count("# GPU quota of tenant team-a") == 1


@pytest.mark.parametrize("quota", [{}, {"nvidia.com/gpu.shared": 16, "nvidia.com/mig-3g.40gb": 2},
                                   {"amd.com/gpu": 2, "amd.com/cpx_nps4": 8}])  # partitions: every vendor's kinds
def test_quota_objects_follow_the_model(quota):
    data = {**ODD, "tenants": [{**ODD["tenants"][0], "quota": quota}, ODD["tenants"][1]]}
    model = model_from_dict(data)
    objects = quotas.objects(model)
    if not quota:
        assert objects == {} and quota_alert.group(model) is None
        return
    (path, obj), = objects.items()
    assert path == layout.quota(model.tenants[0].name)
    assert obj["spec"]["hard"] == {f"requests.{k}": str(v) for k, v in quota.items()}


# --- receivers from the model -----------------------------------------------------------------------------------

def _with_receivers(example_model_data: dict, receivers: dict) -> dict:
    data = {**example_model_data, "alerts": {**example_model_data.get("alerts", {}), "receivers": receivers}}
    return data


@pytest.mark.parametrize("kind, entry, field, instead", [
    ("slack_configs", {"api_url": "https://hooks.slack.com/services/T/B/secret"}, "api_url", "api_url_file"),
    ("pagerduty_configs", {"routing_key": "abc"}, "routing_key", "routing_key_file"),
    ("webhook_configs", {"url": "https://hook.example.com/token"}, "url", "url_file"),
    ("email_configs", {"to": "a@example.com", "auth_password": "pw"}, "auth_password", "auth_password_file"),
    ("msteams_configs", {"webhook_url": "https://x.example.com/secret"}, "webhook_url", "webhook_url_file"),
    ("webhook_configs", {"url_file": "/etc/alertmanager/secrets/hook/url",
                         "http_config": {"authorization": {"credentials": "tok"}}},
     "http_config.authorization.credentials", "credentials_file"),
])
def test_inlined_secrets_are_refused(example_data, kind, entry, field, instead):
    from gpudash.base.errors import InputError

    with pytest.raises(InputError) as err:
        model_from_dict(_with_receivers(example_data, {"gpu-provider": {kind: [entry]}}))
    assert err.value.path == f"alerts.receivers['gpu-provider'].{kind}[0].{field}"
    assert err.value.reason.endswith(f"with {instead} instead") and "secret" in err.value.reason


def test_unknown_integration_is_refused(example_data):
    from gpudash.base.errors import InputError

    with pytest.raises(InputError, match=r"alerts.receivers\['gpu-provider'\]"):
        model_from_dict(_with_receivers(example_data, {"gpu-provider": {"carrier_pigeon_configs": []}}))


@pytest.mark.parametrize("where", ["alerts.provider_receiver", "tenants[0].receiver"])
def test_null_is_mcos_receiver_never_gpudashs(example_data, where):
    """The rendered root keeps MCO's default receiver ``null`` for every alert not gpudash's: a gpudash receiver
    of that name would drop gpudash's alerts, or (given integrations) send every platform alert on."""
    from gpudash.base.errors import InputError

    if where.startswith("alerts"):
        example_data["alerts"]["provider_receiver"] = "null"
    else:
        example_data["tenants"][0]["receiver"] = "null"
    with pytest.raises(InputError) as err:
        model_from_dict(example_data)
    assert err.value.path == where and "MCO's default receiver" in err.value.reason
