"""A stand-in kube-apiserver on 127.0.0.1 for the endpoints ``gpudash prune`` uses (no real one runs here).

Built from the Kubernetes API reference (kubernetes.io/docs/reference/using-api/api-concepts/: resourceVersion
preconditions answer 409 Conflict; errors are ``meta/v1 Status`` bodies with reason and code; JSON merge patch
``application/merge-patch+json`` works on every kind, strategic merge patch is refused by CRDs with 415).
Objects are plain dicts keyed by their path; ``forbid`` holds (method, path) pairs answered 403;
``written_after_get`` paths change (new resourceVersion) right after each GET, as if another client wrote them.
"""
from __future__ import annotations

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

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


class ApiServer:
    def __init__(self):
        self.objects: dict[str, dict] = {}  # path -> object
        self.events: list[dict] = []
        self.forbid: set[tuple[str, str]] = set()
        self.written_after_get: set[str] = set()  # paths another client writes right after each GET of them
        self.requests: list[tuple[str, str]] = []
        self._rv = itertools.count(100)
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"

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

    def calls(self) -> set[tuple[str, str, str]]:
        """(verb, API group, resource) of every request served: what RBAC would have to allow (the API
        reference's verbs: GET of one object is get, PATCH is patch, POST is create)."""
        verbs = {"GET": "get", "PATCH": "patch", "POST": "create"}
        out = set()
        for method, path in self.requests:
            parts = path.strip("/").split("/")  # api/v1/... or apis/GROUP/VERSION/...
            group, rest = ("", parts[2:]) if parts[0] == "api" else (parts[1], parts[3:])
            if rest[0] == "namespaces" and len(rest) > 2:  # namespaces/NS/RESOURCE[/NAME[/SUBRESOURCE]]
                rest = rest[2:]
            resource = rest[0] + (f"/{rest[2]}" if len(rest) > 2 else "")
            out.add((verbs[method], group, resource))
        return out

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    def kubeconfig(self, path) -> str:
        path.write_text(json.dumps({
            "apiVersion": "v1", "kind": "Config", "current-context": "t",
            "clusters": [{"name": "t", "cluster": {"server": self.url}}],
            "users": [{"name": "t", "user": {"token": "test-token"}}],
            "contexts": [{"name": "t", "context": {"cluster": "t", "user": "t"}}]}))
        return str(path)

    def _handler(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, code: int, body: dict):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self) -> dict:
                return json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")

            def _route(self, method: str):
                path = self.path.split("?")[0]
                server.requests.append((method, path))
                body = self._body() if method in ("PATCH", "POST") else None
                with server._lock:
                    if (method, path) in server.forbid:
                        parts = path.split("/")
                        return self._send(403, status(403, "Forbidden", f'{parts[-2]} "{parts[-1]}" is forbidden: '
                                          'User "system:serviceaccount:gpudash:gpudash-prune" cannot '
                                          f'{method.lower()} this resource'))
                    if method == "POST" and path.endswith("/events"):
                        name = body["metadata"]["generateName"] + str(len(server.events))
                        event = {**body, "metadata": {**body["metadata"], "name": name}}
                        server.events.append(event)
                        return self._send(201, event)
                    scale = path.endswith("/scale")
                    key = path.removesuffix("/scale")
                    obj = server.objects.get(key)
                    if obj is None or (scale and key.split("/")[-2] not in SCALABLE):
                        parts = key.split("/")
                        return self._send(404, status(404, "NotFound", f'{parts[-2]} "{parts[-1]}" not found'))
                    if method == "GET":
                        self._send(200, self._scale(obj) if scale else obj)
                        if path in server.written_after_get:  # a concurrent writer: the copy just sent is stale
                            obj["metadata"]["resourceVersion"] = str(next(server._rv))
                        return None
                    if method != "PATCH":
                        return self._send(405, status(405, "MethodNotAllowed", "the server does not allow this method"))
                    kind = self.headers.get("Content-Type", "")
                    if kind != "application/merge-patch+json" and key.startswith(("/apis/kubeflow.org",
                                                                                   "/apis/serving.kserve.io")):
                        return self._send(415, status(415, "UnsupportedMediaType",
                                                      f"the body of the request was in an unknown format - accepted "
                                                      f"media types include: application/merge-patch+json ({kind})"))
                    wanted = (body.get("metadata") or {}).pop("resourceVersion", None)
                    if wanted is not None and wanted != obj["metadata"]["resourceVersion"]:
                        parts = key.split("/")
                        return self._send(409, status(409, "Conflict", f'Operation cannot be fulfilled on {parts[-2]} '
                                          f'"{parts[-1]}": the object has been modified; please apply your changes '
                                          "to the latest version and try again"))
                    if scale:
                        obj.setdefault("spec", {})["replicas"] = body["spec"]["replicas"]
                    else:
                        _merge(obj, body)
                    obj["metadata"]["resourceVersion"] = str(next(server._rv))
                    return self._send(200, self._scale(obj) if scale else obj)

            def _scale(self, obj):
                meta = obj["metadata"]
                return {"apiVersion": "autoscaling/v1", "kind": "Scale",
                        "metadata": {"name": meta["name"], "namespace": meta["namespace"],
                                     "resourceVersion": meta["resourceVersion"]},
                        "spec": {"replicas": obj["spec"].get("replicas", 1)},
                        "status": {"replicas": obj["spec"].get("replicas", 1)}}

            def do_GET(self):
                self._route("GET")

            def do_PATCH(self):
                self._route("PATCH")

            def do_POST(self):
                self._route("POST")

        return Handler
