"""Names valid in the model become valid, distinct paths and Kubernetes object names (issue #47, item 5): every
cluster, tenant, namespace and class name the schema takes either renders objects Kubernetes accepts and paths a
filesystem holds apart, or is refused by validation with one line. The limits: gpudash/base/kube.py (from
kubernetes/apimachinery pkg/util/validation/validation.go, a Deployment's from its ReplicaSet's name)."""
from __future__ import annotations

import re
import string

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gpudash.base import kube
from gpudash.base.errors import InputError
from gpudash.model import schema_types
from gpudash.model.load import model_from_dict
from gpudash.model.versions import ACM_CEL_SELECTOR
from tests.conftest import generate_without_golden

TYPES = schema_types.value_types()
LABEL, SUBDOMAIN = (re.compile(TYPES[t]["pattern"]) for t in ("dns_label", "dns_subdomain"))
LABEL_VALUE = re.compile(TYPES["k8s_label_value"]["pattern"])
CONFIG_KEY = re.compile(r"^[-._a-zA-Z0-9]+$")  # apimachinery validation.go IsConfigMapKey (configMapKeyFmt)
SHORT_NAMES = {"Namespace", "Service"}  # names that are DNS-1123 labels (become hostnames)
NAME_MAX = 255  # bytes of one path component on Linux filesystems


def _label(max_size: int = TYPES["dns_label"]["maxLength"]) -> st.SearchStrategy[str]:
    alnum = string.ascii_lowercase + string.digits
    inner = st.text(alnum + "-", max_size=max_size - 2)
    return st.one_of(st.sampled_from(alnum), st.tuples(st.sampled_from(alnum), inner, st.sampled_from(alnum)).map(
        "".join)).filter(LABEL.match)


SUBDOMAINS = st.one_of(
    st.lists(_label(), min_size=1, max_size=5).map(".".join),
    st.tuples(st.lists(_label().map(lambda s: s.ljust(63, "x")), min_size=3, max_size=3), _label(61)).map(
        lambda parts: ".".join([*parts[0], parts[1].ljust(61, "x")])),  # the longest: 253 characters
).filter(lambda s: len(s) <= TYPES["dns_subdomain"]["maxLength"])


def _objects(data):
    if isinstance(data, dict):
        if "kind" in data and isinstance(data.get("metadata"), dict):
            yield data
        for value in data.values():
            yield from _objects(value)
    elif isinstance(data, list):
        for value in data:
            yield from _objects(value)


def problems(files: dict[str, object]) -> list[str]:
    """Every object name, namespace, label value, ConfigMap key and path of a render Kubernetes or a filesystem
    would refuse, or two paths that would collide."""
    found = []
    folded: dict[str, str] = {}
    for path, data in files.items():
        found += [f"{path}: component of {len(p.encode())} bytes" for p in path.split("/")
                  if len(p.encode()) > NAME_MAX]
        if folded.setdefault(path.casefold(), path) != path:
            found.append(f"{path} and {folded[path.casefold()]} differ only in case")
        parts = path.split("/")
        found += [f"{path} is below the file {'/'.join(parts[:i])}" for i in range(1, len(parts))
                  if "/".join(parts[:i]) in files]
        for obj in _objects(data):
            meta, kind = obj["metadata"], obj["kind"]
            name = meta.get("name", "")
            short = kind in SHORT_NAMES
            most = {"Deployment": kube.DEPLOYMENT_MAX}.get(kind, kube.LABEL_MAX if short else kube.SUBDOMAIN_MAX)
            if not (LABEL if short else SUBDOMAIN).match(name) or len(name) > most:
                found.append(f"{path}: {kind} name {name[:40]!r}... ({len(name)})")
            namespace = meta.get("namespace", "")
            if namespace and not (LABEL.match(namespace) and len(namespace) <= kube.LABEL_MAX):
                found.append(f"{path}: {kind} namespace {namespace!r}")
            found += [f"{path}: {kind} label {k}={v!r}" for k, v in (meta.get("labels") or {}).items()
                      if not (LABEL_VALUE.match(str(v)) and len(str(v)) <= kube.LABEL_MAX)]
            if kind == "ConfigMap":
                found += [f"{path}: ConfigMap key {k!r}" for k in obj.get("data") or {}
                          if not (CONFIG_KEY.match(k) and len(k) <= kube.SUBDOMAIN_MAX)]
    return found


def _named(example_data: dict, clusters: list[str], tenant: str, namespace: str, klass: str) -> dict:
    """The example with these names, every feature that renders per name turned on (the pruner, ArgoCD)."""
    data = {**example_data, "clusters": clusters}
    data["energy"] = {k: v for k, v in data["energy"].items() if k != "clusters"}
    data["tenants"] = [{**data["tenants"][0], "name": tenant, "namespace": namespace}, *data["tenants"][1:]]
    old = data["gpu_classes"][0]["name"]
    data["gpu_classes"] = [{**data["gpu_classes"][0], "name": klass}, *data["gpu_classes"][1:]]
    data["tenants"] = [{**t, **({"gpu_classes": [klass if c == old else c for c in t["gpu_classes"]]}
                                if "gpu_classes" in t else {})} for t in data["tenants"]]
    # ACM 2.14: the spoke tier's Placement selects by name, not by a 63-character label (refused before: test below)
    data["outputs"] = {**data.get("outputs", {}), "argocd": {"repo_url": "https://git.example.com/gpu.git"},
                       "acm_version": ACM_CEL_SELECTOR}
    return data


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(clusters=st.lists(SUBDOMAINS, min_size=1, max_size=3, unique=True), tenant=_label(), namespace=_label(),
       klass=_label())
def test_names_the_model_takes_render_valid_distinct_paths_and_objects(example_data, clusters, tenant, namespace,
                                                                        klass):
    try:
        model = model_from_dict(_named(example_data, clusters, tenant, namespace, klass))
    except InputError as err:  # refused in validation: one line per error, each saying why
        assert all(line.strip() and "Traceback" not in line for line in str(err).splitlines())
        event("refused")
        return
    event("rendered")
    assert problems(generate_without_golden(model)) == []


def _cluster(length: int) -> str:
    """A valid cluster name of ``length`` characters (not a multiple of 64)."""
    name = ".".join(["c" * 63] * (length // 64) + ["c" * (length % 64)])
    assert len(name) == length and SUBDOMAIN.match(name)
    return name


def test_the_longest_cluster_name_the_pruner_takes_renders_valid_objects(example_data):
    name = _cluster(kube.DEPLOYMENT_MAX - len(kube.prune_deployment_name("")))
    files = generate_without_golden(model_from_dict(_named(example_data, [name], "team-a", "team-a", "a100-80gb")))
    assert problems(files) == [] and len(kube.prune_deployment_name(name)) == kube.DEPLOYMENT_MAX


@pytest.mark.parametrize("clusters", [
    [("a" * 63 + ".") * 3 + "b" * 61, ("a" * 63 + ".") * 3 + "c" * 61],  # the issue's: 253 characters each
    ["namespace.yaml"], ["team-a.role.yaml"], ["kustomization.yaml"],  # a folder where the pruner writes a file
    [_cluster(kube.DEPLOYMENT_MAX - len(kube.prune_deployment_name("")) + 1)],  # one character too many
])
def test_a_cluster_name_the_pruner_cannot_be_rendered_for_is_refused_in_one_line(example_data, clusters):
    with pytest.raises(InputError) as err:
        model_from_dict(_named(example_data, clusters, "team-a", "team-a", "a100-80gb"))
    lines = str(err.value).splitlines()
    assert all(("characters" in line and str(kube.DEPLOYMENT_MAX) in line) or "a file the pruner writes" in line
               for line in (lines[1:] or lines)), lines


def test_a_cluster_name_no_placement_label_can_hold_is_refused_before_acm_2_14(example_data):
    data = _named(example_data, ["c" * 30 + "." + "c" * 33], "team-a", "team-a", "a100-80gb")
    data["outputs"] = {**data["outputs"], "acm_version": "2.13"}
    with pytest.raises(InputError, match=r"clusters\[0\]: 64 characters, longer than a label value \(63\)"):
        model_from_dict(data)


def _without_pruner(example_data: dict, cluster: str) -> dict:
    """The example with one cluster named ``cluster``, ArgoCD on and no pruner (whose Deployment would cap it)."""
    data = _named(example_data, [cluster], "team-a", "team-a", "a100-80gb")
    return {k: v for k, v in data.items() if k != "prune"}


def test_the_longest_cluster_name_an_argocd_application_holds_is_taken(example_data):
    name = _cluster(kube.SUBDOMAIN_MAX - len(kube.ARGOCD_APP_PREFIX))
    files = generate_without_golden(model_from_dict(_without_pruner(example_data, name)))
    assert problems(files) == [] and len(kube.spoke_application_name(name)) == kube.SUBDOMAIN_MAX


@pytest.mark.parametrize("length", [kube.SUBDOMAIN_MAX - len(kube.ARGOCD_APP_PREFIX) + 1, kube.SUBDOMAIN_MAX])
def test_a_cluster_name_too_long_for_its_argocd_application_is_refused_in_one_line(example_data, length):
    data = _without_pruner(example_data, _cluster(length))
    with pytest.raises(InputError) as err:
        model_from_dict(data)
    assert str(err.value).count("\n") == 0 and "clusters[0]" in str(err.value), str(err.value)
    assert f"{length + len(kube.ARGOCD_APP_PREFIX)} characters" in str(err.value)
    assert f"at most {kube.SUBDOMAIN_MAX}" in str(err.value)
    del data["outputs"]["argocd"]  # no ArgoCD, no Application: the name is taken
    model_from_dict(data)


def test_argocd_name_normalized_follows_the_cluster_generator():
    # argoproj/argo-cd applicationset/generators/cluster.go sanitizeName: lowered, [^-a-z0-9.] -> "-", cut, trimmed
    assert kube.argocd_name_normalized("Prod_GPU.East-") == "prod-gpu.east"
    assert kube.argocd_name_normalized("a" * 300) == "a" * kube.SUBDOMAIN_MAX
