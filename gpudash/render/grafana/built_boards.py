"""The dashboards a render builds from the model: the provider dashboards and each tenant's, with their own
datasources or the hub Grafana's, every tenant dashboard proven isolated as built."""
from __future__ import annotations

import dataclasses

from gpudash.base.errors import GenerationError
from gpudash.model.types import Model, Tenant
from gpudash.render.grafana import isolation, tenant_board, uids
from gpudash.render.grafana import provisioning as prov


def rendered(model: Model, acm: bool = False) -> tuple[dict[str, dict], dict[str, dict[str, dict]]]:
    """(provider dashboards by file stem, {tenant name: tenant dashboards by file stem}) as Grafana JSON.

    ``acm`` selects the hub Grafana's datasource instead of gpudash's own. Tenant dashboards are proven
    isolated here, each variant as returned.
    """
    provider, tenants = boards(model, acm)
    return provider, {name: {b.stem: b.data} for name, b in tenants.items()}


def boards(model: Model, acm: bool = False) -> tuple[dict[str, dict], dict[str, tenant_board.Board]]:
    """(provider dashboards by file stem, {tenant name: its board}): :func:`rendered` without parsing the tenant
    boards (what a render holds). A file stem is the dashboard's uid (``dashboards.file_name``): no two alike."""
    provider, tenants = provider_boards(model, acm), tenant_boards(model, acm)
    seen: dict[str, str] = {}
    for stem, owner in [*((s, "provider") for s in provider), *((b.stem, n) for n, b in tenants.items())]:
        if stem in seen:
            raise GenerationError(f"dashboards of {seen[stem]!r} and {owner!r} have the same uid {stem}")
        seen[stem] = owner
    return provider, tenants


def provider_boards(model: Model, acm: bool = False) -> dict[str, dict]:
    """The provider dashboards by file stem (the provider datasource, or with ``acm`` the hub Grafana's)."""
    # grafanalib is loaded only to build dashboards: `gpudash --help` and the runtime tools that import
    # gpudash.render.grafana.uids or .bootstrap never pay for it
    from gpudash.render.grafana import dashboards
    from gpudash.render.grafana import panels as P

    ds = prov.datasource_ref(uids.ACM_DATASOURCE_UID if acm else uids.provider_datasource_uid())
    return {dashboards.file_name(dash): P.render(dash, ds) for dash in dashboards.provider_dashboards(model)}


def tenant_boards(model: Model, acm: bool = False) -> dict[str, tenant_board.Board]:
    """{tenant name: its dashboard} with the tenant's own datasource, or with ``acm`` the hub Grafana's; each
    variant proven isolated as written."""
    own = _tenant_boards(model)
    return {t.name: hub_board(model, t, own[t.name]) for t in model.tenants} if acm else own


def hub_board(model: Model, t: Tenant, own: tenant_board.Board) -> tenant_board.Board:
    """``own`` (``t``'s board with its own datasource) querying the hub Grafana's datasource, proven isolated (a
    render builds each when the writer reaches its ConfigMap: :attr:`gpudash.render.content.Content.hub_tenants`)."""
    b = tenant_board.variant(own, uids.tenant_datasource_uid(t.name), uids.ACM_DATASOURCE_UID)
    isolation.prove(b.data, t.namespace, uids.ACM_DATASOURCE_UID, model.clusters)
    return b


def _tenant_boards(model: Model) -> dict[str, tenant_board.Board]:
    """Each tenant's dashboard with its own datasource, proven isolated and serialised: a render builds them once
    (:func:`gpudash.render.content.build`) and its targets (the Grafana and mixin families, the ACM variant) read them
    from its content. Tenants alike
    (:func:`gpudash.render.grafana.tenant_board.alike`) are written into one checked template, the others built through
    grafanalib.

    They are built from the model without its ``sources`` (a tenant dashboard reads recorded series only, as the
    isolation proof requires, never a raw exporter's job or labels), so they are the same for every ``sources``:
    the mixin's probe render relies on it."""
    from gpudash.render.grafana import dashboards

    # deliberately no Sources: a tenant dashboard that read them would fail the render here
    blind = dataclasses.replace(model, sources=None)  # type: ignore[arg-type]
    alike: dict[Tenant, list[Tenant]] = {}
    for t in model.tenants:
        alike.setdefault(tenant_board.alike(t), []).append(t)
    built = {}
    for group in alike.values():
        template = (tenant_board.template(group[0], lambda t: built_board(blind, t), dashboards.tenant_values)
                    if len(group) > 2 else None)  # a template costs two builds
        for t in group:
            b = template.specialise(dashboards.tenant_values(t)) if template else built_board(blind, t)
            isolation.prove(b.data, t.namespace, uids.tenant_datasource_uid(t.name), model.clusters)
            built[t.name] = b
    return {t.name: built[t.name] for t in model.tenants}  # the model's order


def built_board(model: Model, t: Tenant) -> tenant_board.Board:
    """``t``'s dashboard with its own datasource, built through grafanalib (no template, no proof)."""
    from gpudash.render.grafana import dashboards
    from gpudash.render.grafana import panels as P

    dash = dashboards.tenant(model, t)
    data = P.render(dash, prov.datasource_ref(uids.tenant_datasource_uid(t.name)))
    return tenant_board.board(dashboards.file_name(dash), data)
