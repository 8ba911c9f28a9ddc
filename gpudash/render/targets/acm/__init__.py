"""``acm``: the ACM hub: the MCO allowlist, Thanos Ruler rules and settings, the spoke tier's Policy (mco/:
:mod:`.mco`, :mod:`.settings`, :mod:`.spoke_tier`), the Alertmanager routing Secret (unless
``mco.alertmanager_config`` is ``merge``: the hub admin merges gpudash's route into their own Secret) and the hub
Grafana's ConfigMaps (dashboards/acm/: :mod:`.dashboards`). Packages the content only; pure, no I/O."""
from gpudash.render.targets.acm.hub import SECRET_KEY, SECRET_NAME, deliver, secret

__all__ = ["SECRET_KEY", "SECRET_NAME", "deliver", "secret"]
