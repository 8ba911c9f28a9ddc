"""Load gpudash.yaml into the typed :class:`~gpudash.model.types.Model`.

Steps: read and parse the YAML (:mod:`~gpudash.model.parse`: safe semantics, duplicate keys rejected, a line
recorded per field path), validate against :func:`~gpudash.model.schema.json_schema` and fill defaults from it
(:mod:`~gpudash.model.validate`), check the rules that span fields, then build the sorted, immutable model
(:mod:`~gpudash.model.sections`, :mod:`~gpudash.model.gpu_classes`, :mod:`~gpudash.model.tenants`). Every bad
input raises :class:`~gpudash.base.errors.InputError` naming the file, the line where known, the field path and
the reason.
"""
from __future__ import annotations

import os
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from gpudash.base import collector, kube
from gpudash.base.errors import GpudashError, InputError
from gpudash.model import sections
from gpudash.model.context import Ctx, short
from gpudash.model.gpu_classes import gpu_classes
from gpudash.model.model_version import check_version
from gpudash.model.parse import not_a_mapping, parse_yaml, read_text
from gpudash.model.schema import json_schema
from gpudash.model.tenants import tenants
from gpudash.model.types import ALL_TARGETS, ARGOCD_PULL_REFUSED, ArgoCD, Energy, Model, Outputs
from gpudash.model.validate import check_numbers, check_plain, fill_defaults, tree_copy, validate
from gpudash.model.versions import ACM_CEL_SELECTOR, has_cel_selector

BUNDLED_SOURCE = "<bundled example>"
DEFAULT_MODEL = "gpudash.yaml"  # looked for in the current folder; ``gpudash init`` writes it


# --- public API ----------------------------------------------------------------------------------------------

def bundled_example_path() -> Traversable:
    """The bundled example model (a :class:`pathlib.Path` for a regular install)."""
    return resources.files("gpudash").joinpath("examples", "gpudash.yaml")


def resolve_model_path(arg: str | os.PathLike[str] | None, example: bool = False) -> Path | Traversable:
    """The model to load: the bundled example if asked for, else ``arg``, else ``./gpudash.yaml``.

    Never falls back to the example silently: a render or report from someone else's model is worse than none.
    """
    if example:
        return bundled_example_path()
    if arg:
        return Path(arg)
    if not Path(DEFAULT_MODEL).exists():
        raise GpudashError(f"no {DEFAULT_MODEL} here: pass -c FILE, or run `gpudash init` to start from the example")
    return Path(DEFAULT_MODEL)


def load_model(path: str | os.PathLike[str] | Traversable) -> Model:
    """Load and validate the model in ``path`` (a path or an importlib.resources Traversable)."""
    file = BUNDLED_SOURCE if path == bundled_example_path() else str(path)
    with collector.paused():  # a fifth of the load at 1,000 tenants (gpudash.base.collector)
        data, lines = parse_yaml(read_text(path, file), file)
        return _build(data, Ctx(file, lines))


def load_model_from_args(args: Any) -> Model:
    """The model a command's ``-c FILE`` / ``--example`` options name (``args.config``, ``args.example``): a clear
    error (exit 2) when there is none."""
    return load_model(resolve_model_path(args.config, example=args.example))


def load_bundled_example() -> Model:
    """The bundled example model (``--example``)."""
    return load_model(bundled_example_path())


def model_from_dict(data: Any, file: str = "<dict>") -> Model:
    """Validate already-parsed data (no line numbers) and build the model; ``data`` is not modified."""
    return _build(data, Ctx(file, {}))


# --- building the model ----------------------------------------------------------------------------------------

def _build(data: Any, ctx: Ctx) -> Model:
    try:
        return _build_model(data, ctx)
    except RecursionError:
        raise InputError(ctx.file, "", "values nested too deeply") from None


def _build_model(data: Any, ctx: Ctx) -> Model:
    if not isinstance(data, dict):
        raise not_a_mapping(ctx.file, data, None)
    check_plain(data, ctx)
    check_version(data, ctx)
    validate(data, ctx)
    data = tree_copy(data)
    check_numbers(data, (), ctx)
    ctx.raise_errors()
    schema = json_schema()
    fill_defaults(data, schema, schema, (), ctx)
    try:
        model = _semantic(data, ctx)
    except InputError as err:  # a check that cannot go on: report it with those found before
        ctx.raise_errors(err)
        raise
    except Exception:  # a later step tripped over a value already found wrong: report what was found
        ctx.raise_errors()
        raise
    ctx.raise_errors()
    return model


def _placement_labels(clusters: list[str], ctx: Ctx) -> None:
    """Before ACM 2.14 the spoke tier's Placement selects clusters by their ``name`` label, whose value holds at
    most 63 characters (render/targets/acm/spoke_tier.py label_selector): a longer cluster name could never get the
    tier."""
    for i, cluster in enumerate(clusters):
        ctx.check(len(cluster) <= kube.LABEL_MAX, ("clusters", i),
                  f"{len(cluster)} characters, longer than a label value ({kube.LABEL_MAX}): the spoke tier's "
                  f"Placement selects clusters by their name label before ACM {ACM_CEL_SELECTOR}; with every hub on "
                  f"{ACM_CEL_SELECTOR} or later, set outputs.acm_version: '{ACM_CEL_SELECTOR}'")


def _spoke_applications(clusters: list[str], ctx: Ctx) -> None:
    """The spokes' ApplicationSet names each cluster's Application gpudash-<its nameNormalized>
    (render/targets/gitops.py spokes), an object name of at most 253 characters: a longer one is never created."""
    for i, cluster in enumerate(clusters):
        name = kube.spoke_application_name(cluster)
        ctx.check(len(name) <= kube.SUBDOMAIN_MAX, ("clusters", i),
                  f"{short(cluster)}: its ArgoCD Application {name[:20]}... would be {len(name)} characters; "
                  f"Kubernetes takes at most {kube.SUBDOMAIN_MAX}: a cluster name of at most "
                  f"{kube.SUBDOMAIN_MAX - len(kube.ARGOCD_APP_PREFIX)} characters with outputs.argocd")


def _semantic(data: dict[str, Any], ctx: Ctx) -> Model:
    ctx.check(data["outputs"].get("argocd", {}).get("mode") != "pull", ("outputs", "argocd", "mode"),
              ARGOCD_PULL_REFUSED)
    acm = "acm" in data["outputs"]["targets"]
    billing = sections.billing(data["billing"], acm, ctx)
    if acm and billing.tier and not has_cel_selector(data["outputs"]["acm_version"]):
        _placement_labels(data["clusters"], ctx)
    classes = gpu_classes(data["gpu_classes"], ctx)
    issuer = sections.issuer(data["issuer"], ctx)
    model = Model(
        currency=sections.currency(data["currency"], ctx),
        billing=billing,
        sources=sections.sources(data["sources"], ctx),
        gpu_classes=classes,
        tenants=tenants(data["tenants"], classes, data["clusters"], issuer.tax, ctx),
        clusters=tuple(sorted(data["clusters"])),
        alerts=sections.alerts(data["alerts"], billing, acm, ctx),
        grafana=sections.grafana(data["grafana"]),
        mco=sections.mco(data["mco"]),
        issuer=issuer,
        prune=sections.prune(data["prune"], data["clusters"], ctx) if "prune" in data else None,
        outputs=Outputs(targets=tuple(t for t in ALL_TARGETS if t in data["outputs"]["targets"]),
                        argocd=ArgoCD(**data["outputs"]["argocd"]) if "argocd" in data["outputs"] else None,
                        acm_version=data["outputs"]["acm_version"]),
        energy=sections.energy(data["energy"], data["clusters"], ctx) if "energy" in data else Energy(),
        source=ctx.file,
        tenant_order=tuple(t["name"] for t in data["tenants"]),
    )
    if model.outputs.argocd:  # after the pruner's check: its shorter limit is the one to name for a cluster
        _spoke_applications(data["clusters"], ctx)
    return model
