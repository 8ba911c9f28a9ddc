"""Create gpudash's Grafana orgs, folders, folder permissions and service accounts (idempotent).

``python -m gpudash grafana-bootstrap [-c FILE] --grafana-url URL [--dry-run] [--env-file FILE]``

Grafana cannot create organisations from provisioning files, so this command does it through the HTTP API,
from the same description that ``render`` writes to ``grafana/bootstrap.json``
(:func:`gpudash.render.grafana.provisioning.bootstrap`). Every object is read before it is written: a second run
makes no POST (nothing is created twice), and only differences are written (a renamed folder, changed
permissions, a service-account role). Service accounts are created without tokens.

It prints the org ids as ``GPUDASH_ORG_ID_<TENANT>=<id>`` lines (also written to ``--env-file``): Grafana's
tenant provisioning files read them from its environment.

Auth: ``GRAFANA_TOKEN`` (a bearer token), else ``GRAFANA_USER``/``GRAFANA_PASSWORD`` (basic auth). Creating
orgs needs a Grafana server admin, which service-account tokens never are: use basic auth for the first run.
``--dry-run`` performs only the reads and prints every call it would make. Without a reachable Grafana (no
``--grafana-url``, no credentials, or no answer) it prints the plan for an empty Grafana instead: the orgs,
folders, permissions and service accounts it would create, and the datasource each org gets from the
provisioning files (gpudash creates no teams: an org is the unit of access). Errors (Grafana unreachable,
401/403, an unexpected status) are one line on stderr and exit code 2.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from urllib.parse import quote

from gpudash.base.errors import GpudashError, redact, userinfo
from gpudash.base.terminal import printable
from gpudash.model.load import load_model_from_args
from gpudash.ops import httpread
from gpudash.ops.cliargs import add_model_options, byte_count, duration

TIMEOUT = 15
WRITES = ("POST", "PUT", "PATCH", "DELETE")


def add_arguments(parser) -> None:
    add_model_options(parser)
    parser.add_argument("--grafana-url", help="Grafana base URL, e.g. https://grafana.example.com (required "
                                              "unless --dry-run)")
    parser.add_argument("--dry-run", action="store_true", help="read only: print the calls that would be made")
    parser.add_argument("--env-file", help="also write the GPUDASH_ORG_ID_* lines to this file")
    parser.add_argument("--timeout", type=duration, default=TIMEOUT, metavar="DURATION",
                        help=f"per request, in total: connect and the whole answer (default: {TIMEOUT}s)")
    parser.add_argument("--max-response-bytes", type=byte_count, default=httpread.DEFAULT_MAX_BYTES, metavar="N",
                        help=f"refuse a larger answer (default: {httpread.DEFAULT_MAX_BYTES})")


class Unreachable(GpudashError):
    """Grafana did not answer."""


@dataclass
class Call:
    method: str
    path: str
    org: int | None
    body: dict | None = None
    status: int | None = None  # None when not sent (dry run)

    def __str__(self) -> str:
        org = f" [org {self.org}]" if self.org is not None else ""
        body = f" {json.dumps(self.body, sort_keys=True)}" if self.body is not None else ""
        sent = "" if self.status is not None else "  (dry run: not sent)"
        return f"{self.method} {self.path}{org}{body}{sent}"


@dataclass
class Client:
    """A minimal Grafana HTTP API client that records every call; every answer is read through
    :mod:`gpudash.ops.httpread` (total deadline, size and depth caps) and checked before use."""

    url: str
    auth_header: dict
    dry_run: bool = False
    offline: bool = False  # plan against an empty Grafana: nothing is sent, reads find nothing
    calls: list[Call] = field(default_factory=list)
    session: object = None
    timeout: float = TIMEOUT
    max_bytes: int = httpread.DEFAULT_MAX_BYTES
    secrets: tuple = ()  # the token or password: never in a message

    def __post_init__(self):
        import requests

        self.url = self.url.rstrip("/")
        self.session = requests.Session()
        self.session.headers.update({"Accept": "application/json", **self.auth_header})

    def request(self, method: str, path: str, org: int | None = None, body: dict | None = None,
                ok: tuple[int, ...] = (200,), missing_ok: bool = False, kind: type = dict):
        """(status, JSON of type ``kind``) of a call; a write in dry-run mode is recorded and not sent (status
        None)."""
        call = Call(method, path, org, body)
        self.calls.append(call)
        if (self.dry_run or self.offline) and method in WRITES:
            return None, None
        if self.offline:
            return (404, None) if missing_ok else (200, None)
        headers = {"X-Grafana-Org-Id": str(org)} if org is not None else {}
        shown = redact(self.url)
        try:
            resp = httpread.fetch(self.session, method, self.url + path, timeout=self.timeout,
                                  max_bytes=self.max_bytes, json=body, headers=headers)
        except httpread.Deadline:
            raise Unreachable(f"Grafana at {shown} did not answer {method} {path} within {self.timeout:g}s "
                              "(--timeout)") from None
        except httpread.TooLarge as err:
            raise GpudashError(f"Grafana at {shown} answered {method} {path} with more than {err.limit} bytes "
                               "(--max-response-bytes)") from None
        except httpread.Transport as err:
            raise Unreachable(f"cannot reach Grafana at {shown} ({self._redact(err.reason)})") from None
        call.status = resp.status
        if resp.status == 401:
            raise GpudashError(f"Grafana rejected the credentials (401) on {method} {path}: check GRAFANA_TOKEN "
                               "or GRAFANA_USER/GRAFANA_PASSWORD")
        if resp.status == 403:
            hint = " (creating orgs needs a Grafana server admin: use GRAFANA_USER/GRAFANA_PASSWORD)" \
                if path.startswith("/api/orgs") else ""
            raise GpudashError(f"Grafana refused {method} {path} (403 Forbidden){hint}: {self._message(resp)}")
        if resp.status == 404 and missing_ok:
            return 404, None
        if resp.status not in ok:  # a 5xx is an error whatever its body says
            raise GpudashError(f"unexpected HTTP {resp.status} from Grafana on {method} {path}: "
                               f"{self._message(resp)}")
        if not resp.body.strip():
            return resp.status, None
        try:
            data = resp.json()
        except httpread.NotJSON as err:
            raise GpudashError(f"Grafana answered {method} {path} with non-JSON content ({err}): "
                               f"{self._redact(resp.snippet(80))!r}") from None
        if not isinstance(data, kind):
            raise GpudashError(f"Grafana answered {method} {path} with a JSON {type(data).__name__}, not the "
                               f"{'object' if kind is dict else 'array'} its HTTP API returns")
        return resp.status, data

    def _redact(self, text: str) -> str:
        return redact(text, self.url, self.secrets)

    def _message(self, resp: httpread.Answer) -> str:
        """Grafana's error ``message`` (or the start of the body), printable, without secrets."""
        try:
            data = resp.json()
            text = data["message"] if isinstance(data, dict) and isinstance(data.get("message"), str) else None
        except httpread.NotJSON:
            text = None
        return self._redact(printable(text)[:200] if text is not None else resp.snippet(200))


def field_of(data: dict, key: str, kind: type, what: str):
    """``data[key]`` of a Grafana answer, checked to be a ``kind``. An id is a positive integer, as a number or a
    decimal string: grafana/grafana docs/sources/developers/http_api/org.md shows POST /api/orgs answering
    ``"orgId":"1"``, while Grafana itself answers a number."""
    value = data.get(key) if isinstance(data, dict) else None
    if kind is int:
        if isinstance(value, str) and value.isdigit() and len(value) < 19:
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**63:
            return value
    elif isinstance(value, kind) and not isinstance(value, bool):
        return value
    expected = "a positive id" if kind is int else f"a {kind.__name__}"
    raise GpudashError(f"Grafana answered {what} without a valid {key!r} ({expected} expected): not the Grafana "
                       "HTTP API")


def auth_from_env(env=os.environ) -> dict:
    token = env.get("GRAFANA_TOKEN")
    if token:
        return {"Authorization": f"Bearer {token}"}
    user, password = env.get("GRAFANA_USER"), env.get("GRAFANA_PASSWORD")
    if user and password is not None:
        import base64

        cred = base64.b64encode(f"{user}:{password}".encode()).decode()
        return {"Authorization": f"Basic {cred}"}
    raise GpudashError("no Grafana credentials: set GRAFANA_TOKEN, or GRAFANA_USER and GRAFANA_PASSWORD")


# --- the steps ----------------------------------------------------------------------------------------------------

def ensure_org(c: Client, org: dict) -> int | None:
    """The org's id, creating the org when missing (None in a dry run when it would be created)."""
    if org["id"] is not None:
        return org["id"]
    path = f"/api/orgs/name/{quote(org['name'], safe='')}"
    status, data = c.request("GET", path, missing_ok=True)
    if status == 200:
        return field_of(data, "id", int, f"GET {path}")
    _, created = c.request("POST", "/api/orgs", body={"name": org["name"]})
    return None if created is None else field_of(created, "orgId", int, "POST /api/orgs")


def _role_items(items: list, what: str) -> set[tuple[str, int]]:
    """The (role, permission) items of a folder's permission list that are not inherited."""
    out = set()
    for i in items or []:
        if not isinstance(i, dict):
            raise GpudashError(f"Grafana answered {what} with a list item that is not an object")
        if i.get("role") and not i.get("inherited"):
            out.add((field_of(i, "role", str, what), field_of(i, "permission", int, what)))
    return out


def ensure_folder(c: Client, org_id: int | None, folder: dict) -> None:
    uid = folder["uid"]
    exists = False
    if org_id is not None:
        path = f"/api/folders/{quote(uid, safe='')}"
        status, data = c.request("GET", path, org=org_id, missing_ok=True)
        exists = status == 200
        if exists and field_of(data, "title", str, f"GET {path}") != folder["title"]:
            c.request("PUT", path, org=org_id,
                      body={"title": folder["title"], "version": data.get("version"), "overwrite": True})
    if not exists:
        c.request("POST", "/api/folders", org=org_id, body={"uid": uid, "title": folder["title"]})
    want = {(p["role"], p["permission"]) for p in folder["permissions"]}
    if exists:
        path = f"/api/folders/{quote(uid, safe='')}/permissions"
        _, current = c.request("GET", path, org=org_id, kind=list)
        if _role_items(current, f"GET {path}") == want:
            return
    c.request("POST", f"/api/folders/{quote(uid, safe='')}/permissions", org=org_id,
              body={"items": [dict(p) for p in folder["permissions"]]})


def ensure_service_account(c: Client, org_id: int | None, sa: dict) -> None:
    if org_id is not None:
        path = f"/api/serviceaccounts/search?query={quote(sa['name'], safe='')}"
        _, data = c.request("GET", path, org=org_id)
        accounts = (data or {}).get("serviceAccounts") or []
        if not isinstance(accounts, list) or not all(isinstance(a, dict) for a in accounts):
            raise GpudashError(f"Grafana answered GET {path} with serviceAccounts that is not a list of objects")
        found = [a for a in accounts if a.get("name") == sa["name"]]
        if found:
            if found[0].get("role") != sa["role"]:
                account = field_of(found[0], "id", int, f"GET {path}")
                c.request("PATCH", f"/api/serviceaccounts/{account}", org=org_id, body={"role": sa["role"]})
            return
    c.request("POST", "/api/serviceaccounts", org=org_id, ok=(200, 201),
              body={"name": sa["name"], "role": sa["role"], "isDisabled": False})


def apply(c: Client, description: dict) -> dict[str, int | None]:
    """Make Grafana match ``description``; returns {org id variable: org id} for tenant orgs."""
    env: dict[str, int | None] = {}
    for org in description["orgs"]:
        org_id = ensure_org(c, org)
        for folder in org["folders"]:
            ensure_folder(c, org_id, folder)
        for sa in org["serviceAccounts"]:
            ensure_service_account(c, org_id, sa)
        if org.get("orgIdEnv"):
            env[org["orgIdEnv"]] = org_id
    return env


def env_lines(env: dict[str, int | None]) -> str:
    return "".join(f"{k}={'<created on apply>' if v is None else v}\n" for k, v in sorted(env.items()))


_PERMISSION = {1: "View", 2: "Edit", 4: "Admin"}


def plan(description: dict, datasources: dict[str, dict]) -> str:
    """The objects of ``description`` as readable lines; ``datasources`` maps an org key to its provisioned
    datasource."""
    lines = []
    for org in description["orgs"]:
        where = f"org {org['id']} (exists)" if org["id"] is not None else \
            f"org \"{org['name']}\" (created; its id goes to {org['orgIdEnv']})"
        lines.append(where)
        for f in org["folders"]:
            perms = ", ".join(f"{p['role']}: {_PERMISSION[p['permission']]}" for p in f["permissions"])
            lines.append(f"  folder \"{f['title']}\" (uid {f['uid']}; {perms})")
        for sa in org["serviceAccounts"]:
            lines.append(f"  service account {sa['name']} ({sa['role']}, no token)")
        ds = datasources[org["key"]]
        lines.append(f"  datasource \"{ds['name']}\" (uid {ds['uid']}, {redact(ds['url'])}): from the "
                     "provisioning files")
    return "".join(f"{line}\n" for line in lines)


def _connect(args) -> Client:
    """A client for ``--grafana-url``; in a dry run without a Grafana to read, an offline one."""
    if not args.grafana_url and not args.dry_run:
        raise GpudashError("grafana-bootstrap needs --grafana-url (or --dry-run for the plan alone)")
    why = None if args.grafana_url else "no --grafana-url"
    try:
        auth = auth_from_env()
    except GpudashError as err:
        if not args.dry_run:
            raise
        auth, why = {}, why or str(err)
    if why:
        return _offline(args.grafana_url or "", why)
    secrets = tuple(os.environ.get(v) for v in ("GRAFANA_TOKEN", "GRAFANA_PASSWORD") if os.environ.get(v))
    if userinfo(args.grafana_url):
        raise GpudashError(f"--grafana-url {redact(args.grafana_url)!r} carries a user:password: pass the "
                           "credentials as GRAFANA_USER/GRAFANA_PASSWORD or GRAFANA_TOKEN instead")
    for w in httpread.transport_warnings(args.grafana_url, True, False, "Grafana token or password"):
        print(f"gpudash: warning: {w}", file=sys.stderr)
    return Client(args.grafana_url, auth, dry_run=args.dry_run, timeout=args.timeout,
                  max_bytes=args.max_response_bytes, secrets=secrets)


def _offline(url: str, why: str) -> Client:
    print(f"gpudash: dry run without Grafana ({why}): the plan for an empty Grafana", file=sys.stderr)
    return Client(url, {}, dry_run=True, offline=True)


def _datasources(model) -> dict[str, dict]:
    from gpudash.render.grafana import provisioning as prov

    out = {"provider": prov.provider_datasource(model)}
    out.update({t.name: prov.tenant_datasource(model, t, None) for t in model.tenants})
    return out


def run(args) -> int:
    from gpudash.render.grafana.provisioning import bootstrap
    model = load_model_from_args(args)
    description = bootstrap(model)
    client = _connect(args)
    try:
        env = apply(client, description)
    except Unreachable as err:
        if not args.dry_run:
            raise
        client = _offline(client.url, str(err))
        env = apply(client, description)
    writes = [call for call in client.calls if call.method in WRITES]
    if client.offline:
        print(plan(description, _datasources(model)), end="")
        for call in writes:
            print(call)
        print(f"gpudash: dry run: {len(writes)} write(s) would be made to an empty Grafana", file=sys.stderr)
    elif args.dry_run:
        for call in client.calls:
            print(call)
        print(f"gpudash: dry run: {len(writes)} write(s) would be made to {redact(client.url)}",
              file=sys.stderr)
    else:
        for call in writes:
            print(f"gpudash: {call.method} {call.path} -> {call.status}", file=sys.stderr)
        print(f"gpudash: Grafana at {redact(client.url)} is bootstrapped ({len(writes)} change(s))",
              file=sys.stderr)
    text = env_lines(env)
    print(text, end="")
    if args.env_file and not args.dry_run:
        try:
            with open(args.env_file, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as err:
            raise GpudashError(f"{args.env_file}: cannot write: {err.strerror}") from None
    return 0
