"""The delivery targets' registry (:data:`DELIVER`, in the order of ``TARGETS``) and how a render splits its files
by target and merges them back."""
from __future__ import annotations

from collections.abc import Callable

from gpudash.model.types import ALL_TARGETS, Model
from gpudash.render.content import Content
from gpudash.render.targets import acm, files, grafana_operator, grafana_provisioning, mixin, prometheus_rule

ALWAYS = "always"  # the key of the content's own files in split()

DELIVER = {"files": files.deliver, "prometheus-rule": prometheus_rule.deliver, "acm": acm.deliver,
           "grafana-provisioning": grafana_provisioning.deliver, "grafana-operator": grafana_operator.deliver,
           "mixin": mixin.deliver}
assert tuple(DELIVER) == ALL_TARGETS, "every target the model may choose is delivered here, in the same order"


def split(model: Model, content: Content, step: Callable[[str], object] = lambda what: None
          ) -> dict[str, dict[str, object]]:
    """{ALWAYS: the content's files, each chosen target: its files}; ``step(target)`` as each starts."""
    out = {ALWAYS: content.files}
    for name in model.outputs.targets:
        step(name)
        out[name] = DELIVER[name](model, content)
    return out


def merge(parts: dict[str, dict[str, object]]) -> dict[str, object]:
    """One {path: data}; two targets may deliver a file (the plain dashboards) only with the same data."""
    out: dict[str, object] = {}
    for name, part in parts.items():
        for path, data in part.items():
            if path in out and out[path] != data:
                raise AssertionError(f"{name} writes {path} differently from another target")
            out[path] = data
    return out
