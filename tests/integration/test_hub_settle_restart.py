"""The hub reads each settle only while its latest sample is stamped in the current clock hour
(gpudash.promql.calendar.own_hour): after a restart-like gap an earlier hour's settle row, which no staleness marker
followed (a restarted Ruler or a failed evaluation writes none: prometheus/prometheus rules/manager.go
``Group.Eval``), is never billed as this hour's. promtool writes a marker whenever a series leaves a rule's output,
so no golden scenario can show this: here the earlier Ruler's row is input, stamped at the previous hour's last
evaluation, and the first evaluation of the next hour finds no push yet."""
import shutil
from pathlib import Path

import pytest
import yaml

from e2e import toolsets
from gpudash.base import layout
from gpudash.model import series as names
from gpudash.model.pricing import skus
from gpudash.ops.promtest import run_file
from gpudash.render.golden.emit import GROUP_ORDER, HUB_RULES
from tests.conftest import EXAMPLE_RENDERED

RESTART_TEST = "hub-settle-restart.test.yaml"
# The earlier hour's last evaluation, where the earlier Ruler wrote the settle; the rules run every minute, so the next
# hour's first evaluation is 1 minute later, within the lookback of Prometheus 2 and 3 alike (3's is left-open: a
# sample exactly 5 minutes old is out of it).
LAST_MINUTE, EVERY = 59, "1m"


def write_restart_test(folder: Path, model) -> Path:
    """The test file, in the rendered tree's tests folder ``folder``: the settle's row at LAST_MINUTE is this hour's
    figure there (read), and at the next hour's first evaluation no billed series has it."""
    sku, cluster, tenant = skus(model)[0], model.clusters[0], model.tenants[0]
    row = {"cluster": cluster, "namespace": tenant.namespace, "product": sku.product, "resource": sku.ksm_resource}
    settle = names.SETTLED_GPU_HOURS + "{" + ",".join(f'{k}="{v}"' for k, v in sorted(row.items())) + "}"
    line = {"cluster": cluster, "gpu_class": sku.gpu_class, "namespace": tenant.namespace, "resource": sku.resource}
    billed = ",".join(f'{k}="{v}"' for k, v in sorted(line.items()))
    hour = (LAST_MINUTE // 60 + 1) * 60
    checks = [{"expr": names.HOUR_GPU_HOURS, "eval_time": f"{LAST_MINUTE}m",
               "exp_samples": [{"labels": f"{names.HOUR_GPU_HOURS}{{{billed}}}", "value": 2}]}]
    checks += [{"expr": series, "eval_time": f"{hour}m", "exp_samples": []}
               for series in (names.HOUR_GPU_HOURS, names.HOUR_COST, names.UNPRICED_GPU_HOURS, names.TENANT_HOUR_COST)]
    data = {"rule_files": [HUB_RULES], "evaluation_interval": EVERY, "group_eval_order": GROUP_ORDER[1:],
            "tests": [{"name": "an earlier hour's settle, not followed by a staleness marker, is not this hour's",
                       "interval": "1m", "input_series": [{"series": settle, "values": f"_x{LAST_MINUTE} 2"}],
                       "promql_expr_test": checks}]}
    path = folder / RESTART_TEST
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


@pytest.mark.parametrize("toolset", toolsets.params())
def test_an_earlier_hours_settle_is_not_billed_after_a_restart(tmp_path, example_model, toolset):
    shutil.copytree(EXAMPLE_RENDERED / layout.RULES, tmp_path / layout.RULES)
    (tmp_path / layout.TESTS).mkdir()
    result = run_file(write_restart_test(tmp_path / layout.TESTS, example_model), toolsets.require(toolset).promtool)
    assert result.ok, str(result)
