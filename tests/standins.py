"""Stand-ins for HTTP APIs no real server of runs here: one small server (:class:`StandIn`) and the two stateful
APIs built on it, each from its upstream API reference.

- :class:`ApiServer`, the kube-apiserver endpoints ``gpudash prune`` uses, from the Kubernetes API reference
  (kubernetes.io/docs/reference/using-api/api-concepts/: resourceVersion preconditions answer 409 Conflict;
  errors are ``meta/v1 Status`` bodies with reason and code; JSON merge patch ``application/merge-patch+json``
  works on every kind, strategic merge patch is refused by CRDs with 415; a GET of a collection is a ``list``
  answering a ``<Kind>List``). Objects are plain dicts keyed by their path; ``forbid`` holds (method, path) pairs
  answered 403; ``written_after_get`` paths change (new resourceVersion) right after each GET, as if another
  client wrote them; ``hang`` paths accept the request and never answer (until the server stops). Its
  controllers delete the pods of a stopped workload after each PATCH (the ReplicaSet/StatefulSet controllers at 0
  replicas, the Kubeflow notebook controller and KServe on their stop annotations, see
  gpudash.queries.prune_plan), except for the workloads in ``ignore_stop`` (an old KServe, a broken controller).
- :class:`Grafana`, the Grafana 10/11 HTTP API endpoints ``gpudash grafana-bootstrap`` calls: ``/api/orgs``
  (server admin only), ``/api/orgs/name/:name``, ``/api/folders``, ``/api/folders/:uid``,
  ``/api/folders/:uid/permissions``, ``/api/serviceaccounts`` (+ ``/search``, PATCH ``/:id``), org selection by
  the ``X-Grafana-Org-Id`` header, 401 for bad credentials, 403 for a token that is not a server admin. A
  stand-in for the contract the client relies on (status codes, bodies, org scoping, idempotency), not an emulator.
"""
from __future__ import annotations

import base64
import copy
import itertools
import json
import ssl
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass(frozen=True)
class Request:
    method: str
    path: str  # without the query string
    query: dict[str, list[str]]
    headers: object  # email.message.Message: case-insensitive ``get``
    body: bytes


# an answer: (status, JSON-serialisable payload) or (status, bytes, content type)
Answer = Callable[[Request], tuple]


class StandIn:
    """An HTTP server on 127.0.0.1 (ephemeral port), in a daemon thread while used as a context manager, that
    answers every request with ``answer(request)``; ``tls`` (a folder holding cert.pem and key.pem) serves HTTPS."""

    def __init__(self, answer: Answer, tls: Path | None = None):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(answer))
        self.server.daemon_threads = True
        scheme = "http"
        if tls is not None:
            ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            ctx.load_cert_chain(tls / "cert.pem", tls / "key.pem")
            self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"

    def start(self):
        threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def _handler(answer: Answer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def _serve(self):
            url = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            reply = answer(Request(self.command, url.path, parse_qs(url.query), self.headers,
                                   self.rfile.read(length) if length else b""))
            status, payload, kind = reply if len(reply) == 3 else (*reply, "application/json")
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):  # the client gave up (a timeout test)
                pass

        do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _serve  # noqa: N815

        def log_message(self, *args):  # keep test output clean
            pass

    return Handler


# --- kube-apiserver ---------------------------------------------------------------------------------------------
CORE = ("", "v1")
SCALABLE = {"deployments", "statefulsets", "replicasets"}


def _merge(target: dict, patch: dict) -> dict:
    """RFC 7386 JSON merge patch."""
    for k, v in patch.items():
        if v is None:
            target.pop(k, None)
        elif isinstance(v, dict) and isinstance(target.get(k), dict):
            _merge(target[k], v)
        else:
            target[k] = v
    return target


def status(code: int, reason: str, message: str) -> dict:
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message,
            "reason": reason, "code": code}


class ApiServer(StandIn):
    def __init__(self):
        self.objects: dict[str, dict] = {}  # path -> object
        self.events: list[dict] = []
        self.forbid: set[tuple[str, str]] = set()
        self.written_after_get: set[str] = set()  # paths another client writes right after each GET of them
        self.requests: list[tuple[str, str]] = []
        self.hang: set[str] = set()
        self.ignore_stop: set[str] = set()  # workload paths whose stop the cluster ignores
        self._released = threading.Event()
        self._rv = itertools.count(100)
        self._lock = threading.Lock()
        super().__init__(self._answer)

    def stop(self) -> None:
        self._released.set()
        super().stop()

    def add(self, api_version: str, plural: str, obj: dict) -> dict:
        group, _, version = api_version.rpartition("/")
        ns, name = obj["metadata"].get("namespace"), obj["metadata"]["name"]
        base = "/api/v1" if not group else f"/apis/{group}/{version}"
        path = f"{base}/namespaces/{ns}/{plural}/{name}" if ns else f"{base}/{plural}/{name}"
        obj = {"apiVersion": api_version, **obj}
        obj["metadata"] = {"uid": f"uid-{name}", **obj["metadata"], "resourceVersion": str(next(self._rv))}
        self.objects[path] = obj
        return obj

    def get(self, path: str) -> dict:
        return self.objects[path]

    def calls(self) -> set[tuple[str, str, str, str]]:
        """(verb, API group, resource, namespace) of every request served: what RBAC would have to allow (the API
        reference's verbs: GET of one object is get, of a collection list, PATCH is patch, POST is create; a
        namespace object is authorised in its own namespace, kubernetes/kubernetes staging/src/k8s.io/apiserver/
        pkg/endpoints/request/requestinfo.go)."""
        verbs = {"PATCH": "patch", "POST": "create"}
        out = set()
        for method, path in self.requests:
            parts = path.strip("/").split("/")  # api/v1/... or apis/GROUP/VERSION/...
            group, rest = ("", parts[2:]) if parts[0] == "api" else (parts[1], parts[3:])
            namespace = ""
            if rest[0] == "namespaces" and len(rest) > 1:
                namespace = rest[1]
                if len(rest) > 2:  # namespaces/NS/RESOURCE[/NAME[/SUBRESOURCE]]
                    rest = rest[2:]
            resource = rest[0] + (f"/{rest[2]}" if len(rest) > 2 else "")
            verb = verbs.get(method) or ("get" if len(rest) > 1 else "list")
            out.add((verb, group, resource, namespace))
        return out

    def _pods_of(self, path: str) -> list[str]:
        """Paths of the pods whose owner chain (or KServe label) ends at the workload at ``path``."""
        ns, plural, name = path.split("/")[-3:]
        out = []
        for pod_path, pod in self.objects.items():
            if pod_path.split("/")[-2] != "pods" or pod["metadata"].get("namespace") != ns:
                continue
            if plural == "inferenceservices":
                if (pod["metadata"].get("labels") or {}).get("serving.kserve.io/inferenceservice") == name:
                    out.append(pod_path)
                continue
            obj = pod
            for _ in range(3):
                ref = next((r for r in obj["metadata"].get("ownerReferences") or [] if r.get("controller")), None)
                owner = ref and next((p for p in self.objects if p.split("/")[-3:] == [
                    ns, ref["kind"].lower() + "s", ref["name"]]), None)  # Deployment -> deployments, ...
                if owner is None:
                    break
                if owner == path:
                    out.append(pod_path)
                    break
                obj = self.objects[owner]
        return out

    def _reconcile(self) -> None:
        """The controllers: every stopped workload's pods are deleted."""
        for path, obj in list(self.objects.items()):
            plural = path.split("/")[-2]
            notes = obj["metadata"].get("annotations") or {}
            stopped = ((plural in SCALABLE and (obj.get("spec") or {}).get("replicas") == 0)
                       or (plural == "notebooks" and "kubeflow-resource-stopped" in notes)
                       or (plural == "inferenceservices" and str(notes.get("serving.kserve.io/stop")).lower()
                           == "true"))
            if stopped and path not in self.ignore_stop:
                for pod in self._pods_of(path):
                    self.objects.pop(pod, None)

    def kubeconfig(self, path) -> str:
        path.write_text(json.dumps({
            "apiVersion": "v1", "kind": "Config", "current-context": "t",
            "clusters": [{"name": "t", "cluster": {"server": self.url}}],
            "users": [{"name": "t", "user": {"token": "test-token"}}],
            "contexts": [{"name": "t", "context": {"cluster": "t", "user": "t"}}]}))
        return str(path)

    def _answer(self, request: Request) -> tuple[int, dict]:
        method, path = request.method, request.path
        self.requests.append((method, path))
        if path in self.hang:
            self._released.wait()
            return 503, status(503, "ServiceUnavailable", "stopped")
        body = json.loads(request.body or b"{}") if method in ("PATCH", "POST") else None
        with self._lock:
            if (method, path) in self.forbid:
                parts = path.split("/")
                return 403, status(403, "Forbidden", f'{parts[-2]} "{parts[-1]}" is forbidden: '
                                   'User "system:serviceaccount:gpudash:gpudash-prune" cannot '
                                   f'{method.lower()} this resource')
            if method == "POST" and path.endswith("/events"):
                name = body["metadata"]["generateName"] + str(len(self.events))
                event = {**body, "metadata": {**body["metadata"], "name": name}}
                self.events.append(event)
                return 201, event
            if method == "GET" and self._collection(path):
                prefix = path + "/"
                items = [copy.deepcopy(o) for p, o in sorted(self.objects.items())
                         if p.startswith(prefix) and "/" not in p[len(prefix):]]
                kind = {"pods": "Pod", "horizontalpodautoscalers": "HorizontalPodAutoscaler"}.get(
                    path.split("/")[-1], "Object")
                return 200, {"kind": f"{kind}List", "apiVersion": "v1",
                             "metadata": {"resourceVersion": str(next(self._rv))}, "items": items}
            scale = path.endswith("/scale")
            key = path.removesuffix("/scale")
            obj = self.objects.get(key)
            if obj is None or (scale and key.split("/")[-2] not in SCALABLE):
                parts = key.split("/")
                return 404, status(404, "NotFound", f'{parts[-2]} "{parts[-1]}" not found')
            if method == "GET":
                sent = copy.deepcopy(_scale(obj) if scale else obj)
                if path in self.written_after_get:  # a concurrent writer: the copy just sent is stale
                    obj["metadata"]["resourceVersion"] = str(next(self._rv))
                return 200, sent
            if method != "PATCH":
                return 405, status(405, "MethodNotAllowed", "the server does not allow this method")
            kind = request.headers.get("Content-Type", "")
            if kind != "application/merge-patch+json" and key.startswith(("/apis/kubeflow.org",
                                                                           "/apis/serving.kserve.io")):
                return 415, status(415, "UnsupportedMediaType",
                                   f"the body of the request was in an unknown format - accepted "
                                   f"media types include: application/merge-patch+json ({kind})")
            wanted = (body.get("metadata") or {}).pop("resourceVersion", None)
            if wanted is not None and wanted != obj["metadata"]["resourceVersion"]:
                parts = key.split("/")
                return 409, status(409, "Conflict", f'Operation cannot be fulfilled on {parts[-2]} '
                                   f'"{parts[-1]}": the object has been modified; please apply your changes '
                                   "to the latest version and try again")
            if scale:
                obj.setdefault("spec", {})["replicas"] = body["spec"]["replicas"]
            else:
                _merge(obj, body)
            obj["metadata"]["resourceVersion"] = str(next(self._rv))
            answer = copy.deepcopy(_scale(obj) if scale else obj)
            self._reconcile()
            return 200, answer

    @staticmethod
    def _collection(path: str) -> bool:
        """``/api/v1/namespaces/NS/PLURAL`` or ``/apis/G/V/namespaces/NS/PLURAL``: a list."""
        parts = path.strip("/").split("/")
        rest = parts[2:] if parts[0] == "api" else parts[3:]
        return len(rest) == 3 and rest[0] == "namespaces"


def _scale(obj: dict) -> dict:
    meta = obj["metadata"]
    return {"apiVersion": "autoscaling/v1", "kind": "Scale",
            "metadata": {"name": meta["name"], "namespace": meta["namespace"],
                         "resourceVersion": meta["resourceVersion"]},
            "spec": {"replicas": obj["spec"].get("replicas", 1)},
            "status": {"replicas": obj["spec"].get("replicas", 1)}}


# --- Grafana ------------------------------------------------------------------------------------------------------
ADMIN = "Basic " + base64.b64encode(b"admin:secret").decode()
TOKEN = "Bearer org1-editor-token"


class Grafana(StandIn):
    def __init__(self):
        self.orgs = {1: "Main Org."}
        self.folders: dict[tuple[int, str], dict] = {}
        self.permissions: dict[tuple[int, str], list[dict]] = {}
        self.service_accounts: dict[int, list[dict]] = {}
        self.log: list[tuple[str, str, int]] = []
        self.fail_with: int | None = None  # answer every request with this status
        self.next_id = 100
        self.lock = threading.Lock()
        super().__init__(self._answer)

    def _answer(self, request: Request) -> tuple[int, object]:
        with self.lock:
            return self.handle(request.method, request.path, request.query, request.headers,
                               json.loads(request.body) if request.body else None)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def writes(self) -> list[tuple[str, str, int]]:
        return [entry for entry in self.log if entry[0] in ("POST", "PUT", "PATCH", "DELETE")]

    def handle(self, method: str, path: str, query: dict, headers, body) -> tuple[int, object]:
        if self.fail_with:
            return self.fail_with, {"message": "internal error"}
        auth = headers.get("Authorization", "")
        if auth not in (ADMIN, TOKEN):
            return 401, {"message": "invalid username or password"}
        org = int(headers.get("X-Grafana-Org-Id") or 1)
        if auth == TOKEN and org != 1:
            return 401, {"message": "token is not valid for this organization"}
        if org not in self.orgs:
            return 403, {"message": "user is not a member of the organization"}
        self.log.append((method, path, org))
        parts = [unquote(p) for p in path.strip("/").split("/")]

        if parts[:2] == ["api", "orgs"]:
            if auth != ADMIN:
                return 403, {"message": "Permission denied: server admin required"}
            if method == "GET" and len(parts) == 4 and parts[2] == "name":
                for oid, name in self.orgs.items():
                    if name == parts[3]:
                        return 200, {"id": oid, "name": name, "address": {}}
                return 404, {"message": "Organization not found"}
            if method == "POST" and len(parts) == 2:
                if body["name"] in self.orgs.values():
                    return 409, {"message": "Organization name taken"}
                oid = max(self.orgs) + 1
                self.orgs[oid] = body["name"]
                self.service_accounts[oid] = []
                return 200, {"orgId": oid, "message": "Organization created"}

        if parts[:2] == ["api", "folders"]:
            if method == "POST" and len(parts) == 2:
                key = (org, body["uid"])
                if key in self.folders:
                    return 409, {"message": "a folder with the same uid already exists"}
                folder = {"id": self.new_id(), "uid": body["uid"], "title": body["title"], "version": 1}
                self.folders[key] = folder
                # Grafana's defaults for a folder created through the API: its creator, Editor, Viewer.
                self.permissions[key] = [{"userId": 1, "userLogin": "admin", "permission": 4},
                                         {"role": "Editor", "permission": 2}, {"role": "Viewer", "permission": 1}]
                return 200, folder
            key = (org, parts[2]) if len(parts) >= 3 else None
            if key not in self.folders:
                return 404, {"message": "folder not found"}
            if len(parts) == 3 and method == "GET":
                return 200, self.folders[key]
            if len(parts) == 3 and method == "PUT":
                folder = self.folders[key]
                folder.update(title=body["title"], version=folder["version"] + 1)
                return 200, folder
            if len(parts) == 4 and parts[3] == "permissions":
                if method == "GET":
                    return 200, [{**i, "uid": key[1], "inherited": False} for i in self.permissions[key]]
                if method == "POST":
                    self.permissions[key] = [dict(i) for i in body["items"]]
                    return 200, {"message": "Folder permissions updated"}

        if parts[:2] == ["api", "serviceaccounts"]:
            accounts = self.service_accounts.setdefault(org, [])
            if method == "GET" and parts[2:] == ["search"]:
                text = query.get("query", [""])[0]
                found = [a for a in accounts if text in a["name"]]
                return 200, {"totalCount": len(found), "serviceAccounts": found, "page": 1, "perPage": 1000}
            if method == "POST" and len(parts) == 2:
                if any(a["name"] == body["name"] for a in accounts):
                    return 400, {"message": "service account already exists"}
                account = {"id": self.new_id(), "name": body["name"], "login": f"sa-{body['name']}",
                           "orgId": org, "role": body["role"], "isDisabled": body.get("isDisabled", False)}
                accounts.append(account)
                return 201, account
            if method == "PATCH" and len(parts) == 3:
                for a in accounts:
                    if a["id"] == int(parts[2]):
                        a.update(body)
                        return 200, {"message": "Service account updated", "serviceaccount": a}
                return 404, {"message": "service account not found"}
        return 404, {"message": "not found"}
