"""``gpudash grafana-bootstrap`` against a stand-in for Grafana's HTTP API (no Grafana binary can be installed
here): :class:`tests.standins.Grafana`, built from the documented contract of the endpoints the client calls."""
from __future__ import annotations

import pytest

from gpudash import cli
from gpudash.ops import grafana_bootstrap as bootstrap
from gpudash.render.grafana import provisioning, uids
from tests.standins import ADMIN, TOKEN, Grafana


@pytest.fixture()
def grafana_server():
    with Grafana() as server:
        yield server


@pytest.fixture()
def admin_env(monkeypatch):
    monkeypatch.delenv("GRAFANA_TOKEN", raising=False)
    monkeypatch.setenv("GRAFANA_USER", "admin")
    monkeypatch.setenv("GRAFANA_PASSWORD", "secret")


def run_cli(*args) -> int:
    return cli.main(["grafana-bootstrap", "--example", *args])


def test_first_run_creates_everything(grafana_server, admin_env, example_model, capsys, tmp_path):
    env_file = tmp_path / "grafana.env"
    assert run_cli("--grafana-url", grafana_server.url, "--env-file", str(env_file)) == 0
    out = capsys.readouterr().out
    g = grafana_server
    assert sorted(g.orgs.values()) == sorted(["Main Org.", *(provisioning.org_name(t) for t in example_model.tenants)])
    for t in example_model.tenants:
        oid = next(i for i, n in g.orgs.items() if n == provisioning.org_name(t))
        assert f"{provisioning.org_id_env(t)}={oid}\n" in out
        assert g.folders[(oid, uids.tenant_folder_uid(t.name))]["title"] == provisioning.tenant_folder_title(t)
        assert {(i["role"], i["permission"]) for i in g.permissions[(oid, uids.tenant_folder_uid(t.name))]} == \
            {(p["role"], p["permission"]) for p in provisioning.TENANT_FOLDER_PERMISSIONS}
        assert [a["name"] for a in g.service_accounts[oid]] == [provisioning.SERVICE_ACCOUNT]
        # a tenant's folder lives only in the tenant's own org
        assert [k[0] for k in g.folders if k[1] == uids.tenant_folder_uid(t.name)] == [oid]
    assert env_file.read_text() == out
    provider_folder = g.folders[(1, "gpudash-folder-provider")]
    assert provider_folder["title"] == example_model.grafana.provider_folder
    assert {(i["role"], i["permission"]) for i in g.permissions[(1, "gpudash-folder-provider")]} == \
        {(p["role"], p["permission"]) for p in provisioning.PROVIDER_FOLDER_PERMISSIONS}
    # every org-scoped write went to the org it belongs to
    assert all(org in g.orgs for _, _, org in g.log)


def test_second_run_makes_no_writes(grafana_server, admin_env, capsys):
    assert run_cli("--grafana-url", grafana_server.url) == 0
    first = capsys.readouterr().out
    grafana_server.log.clear()
    assert run_cli("--grafana-url", grafana_server.url) == 0
    assert capsys.readouterr().out == first  # same org ids
    assert grafana_server.writes() == []
    assert grafana_server.log  # it did read


def test_drift_is_repaired_and_nothing_else(grafana_server, admin_env, example_model, capsys):
    assert run_cli("--grafana-url", grafana_server.url) == 0
    g = grafana_server
    g.folders[(1, "gpudash-folder-provider")]["title"] = "renamed by hand"
    g.permissions[(1, "gpudash-folder-provider")].append({"role": "Viewer", "permission": 2})
    g.service_accounts[1][0]["role"] = "Viewer"
    g.log.clear()
    assert run_cli("--grafana-url", g.url) == 0
    assert sorted((m, p) for m, p, _ in g.writes()) == sorted([
        ("PUT", "/api/folders/gpudash-folder-provider"),
        ("POST", "/api/folders/gpudash-folder-provider/permissions"),
        ("PATCH", f"/api/serviceaccounts/{g.service_accounts[1][0]['id']}"),
    ])
    assert g.folders[(1, "gpudash-folder-provider")]["title"] == example_model.grafana.provider_folder
    assert g.service_accounts[1][0]["role"] == "Editor"


def test_dry_run_prints_the_calls_and_changes_nothing(grafana_server, admin_env, example_model, capsys):
    assert run_cli("--grafana-url", grafana_server.url, "--dry-run") == 0
    captured = capsys.readouterr()
    assert grafana_server.writes() == []
    assert grafana_server.orgs == {1: "Main Org."}
    lines = captured.out.splitlines()
    assert any(line.startswith('POST /api/orgs {"name": "GPU tenant team-a"}') for line in lines)
    assert any(line.startswith("POST /api/folders [org 1]") for line in lines)
    assert any(line.startswith("GET /api/folders/gpudash-folder-provider [org 1]") for line in lines)
    assert "(dry run: not sent)" in captured.out
    for t in example_model.tenants:
        assert f"{provisioning.org_id_env(t)}=<created on apply>" in captured.out
    assert "write(s) would be made" in captured.err
    # after a real run, a dry run finds nothing to do
    assert run_cli("--grafana-url", grafana_server.url) == 0
    capsys.readouterr()
    assert run_cli("--grafana-url", grafana_server.url, "--dry-run") == 0
    assert "0 write(s) would be made" in capsys.readouterr().err


def test_bad_credentials_exit_2(grafana_server, monkeypatch, capsys):
    monkeypatch.delenv("GRAFANA_TOKEN", raising=False)
    monkeypatch.setenv("GRAFANA_USER", "admin")
    monkeypatch.setenv("GRAFANA_PASSWORD", "wrong")
    assert run_cli("--grafana-url", grafana_server.url) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rejected the credentials (401)" in err
    assert grafana_server.writes() == []


def test_token_without_server_admin_gets_a_clear_403(grafana_server, monkeypatch, capsys):
    monkeypatch.setenv("GRAFANA_TOKEN", TOKEN.removeprefix("Bearer "))
    assert run_cli("--grafana-url", grafana_server.url) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "403" in err and "server admin" in err and "/api/orgs" in err


def test_unexpected_status_exit_2(grafana_server, admin_env, capsys):
    grafana_server.fail_with = 500
    assert run_cli("--grafana-url", grafana_server.url) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unexpected HTTP 500" in err and "internal error" in err


def test_unreachable_grafana_exit_2(admin_env, capsys):
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert run_cli("--grafana-url", f"http://127.0.0.1:{port}") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot reach Grafana" in err


def test_missing_credentials_exit_2(monkeypatch, capsys):
    for var in ("GRAFANA_TOKEN", "GRAFANA_USER", "GRAFANA_PASSWORD"):
        monkeypatch.delenv(var, raising=False)
    assert run_cli("--grafana-url", "http://127.0.0.1:1") == 2
    assert "no Grafana credentials" in capsys.readouterr().err


def test_auth_headers():
    assert bootstrap.auth_from_env({"GRAFANA_TOKEN": "t"}) == {"Authorization": "Bearer t"}
    assert bootstrap.auth_from_env({"GRAFANA_USER": "admin", "GRAFANA_PASSWORD": "secret"}) == \
        {"Authorization": ADMIN}


def free_port() -> int:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.split(" ", 1)[0] in bootstrap.WRITES]


@pytest.mark.parametrize("args, why", [
    ((), "no --grafana-url"),
    (("--grafana-url", "http://grafana.invalid"), "no Grafana credentials"),
    (("--grafana-url", f"http://127.0.0.1:{free_port()}"), "cannot reach Grafana at http://127.0.0.1"),
])
def test_dry_run_offline_prints_the_plan(args, why, admin_env, monkeypatch, example_model, capsys):
    if "credentials" in why:
        for var in ("GRAFANA_USER", "GRAFANA_PASSWORD"):
            monkeypatch.delenv(var)
    assert run_cli("--dry-run", *args) == 0
    out, err = capsys.readouterr()
    assert why in err and "the plan for an empty Grafana" in err and "secret" not in out + err
    for t in example_model.tenants:
        assert f'org "{provisioning.org_name(t)}" (created; its id goes to {provisioning.org_id_env(t)})' in out
        assert f'folder "{provisioning.tenant_folder_title(t)}" (uid {uids.tenant_folder_uid(t.name)};' in out
        assert f'datasource "gpudash {t.name}" (uid {uids.tenant_datasource_uid(t.name)},' in out
        assert f"{provisioning.org_id_env(t)}=<created on apply>" in out
    assert f'folder "{example_model.grafana.provider_folder}" (uid {uids.provider_folder_uid()};' in out
    assert out.count(f"service account {provisioning.SERVICE_ACCOUNT} (Editor, no token)") == \
        1 + len(example_model.tenants)
    assert f"{len(write_lines(out))} write(s) would be made to an empty Grafana" in err


def test_offline_plan_makes_the_writes_a_first_run_makes(grafana_server, admin_env, capsys):
    """The offline plan assumes an empty Grafana: its writes are those of a dry run against one."""
    assert run_cli("--dry-run") == 0
    offline = write_lines(capsys.readouterr().out)
    assert run_cli("--dry-run", "--grafana-url", grafana_server.url) == 0
    assert write_lines(capsys.readouterr().out) == offline and offline
    assert run_cli("--grafana-url", grafana_server.url) == 0
    assert len(grafana_server.writes()) == len(offline)


def test_grafana_url_is_required_without_dry_run(admin_env, capsys):
    assert run_cli() == 2
    err = capsys.readouterr().err
    assert err == "gpudash: grafana-bootstrap needs --grafana-url (or --dry-run for the plan alone)\n"
