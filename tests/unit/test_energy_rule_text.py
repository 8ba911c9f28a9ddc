"""The energy split's rule text holds each part as few times as PromQL allows: Prometheus prints and parses a rule
again at every evaluation (prometheus/prometheus rules/recording.go ``RecordingRule.Eval``), so a copy is paid for
at every step on every spoke (issue #45)."""
from gpudash.model import load_bundled_example, vendors
from gpudash.render.rules import energy
from gpudash.render.rules.pods import gpu_holders


def test_the_holders_filter_and_the_replica_share_appear_once_per_holders_copy():
    model = load_bundled_example()
    text = energy.step_joules(model)
    # two copies of the holders: each pod's share, and inside the share no pod holds
    assert text.count(gpu_holders(model)) == 2
    for v in vendors.VENDORS.values():
        if v.time_slicing:
            assert text.count(energy._replica_share(model, v)) == 2
