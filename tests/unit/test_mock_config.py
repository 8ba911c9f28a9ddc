"""Mock files bound to a model: ``tenant: N`` is the N-th tenant as the model file lists them (#14)."""
from __future__ import annotations

import pytest

from gpudash.base.errors import InputError
from gpudash.model import model_from_dict
from gpudash.ops.mock.config import compile_mock
from tests.unit.test_model_load import example_dict

MOCK = {
    "start": "2026-10-01T00:00:00Z", "duration": "2h",
    "node_pools": [{"name": "a100", "class": "a100-80gb", "nodes": 1, "gpus": 8}],
    "workload": [
        {"name": f"w{i}", "tenant": i, "pool": "a100", "requests": {"gpu": 1},
         "lifecycle": [{"at": "0m", "phase": "Running"}]} for i in range(4)
    ] + [{"jobs": {"name": "etl", "tenant": 1, "pool": "a100", "every": "30m", "run": "10m", "until": "1h"}}],
}


def namespaces(model) -> dict[str, str]:
    return {p.name: p.namespace for p in compile_mock(MOCK, model).scenario.pods}


def test_tenant_index_follows_the_model_files_order_not_the_names():
    data = example_dict()
    listed = [t["namespace"] for t in data["tenants"]]
    assert [t["name"] for t in data["tenants"]] != sorted(t["name"] for t in data["tenants"])  # the point
    found = namespaces(model_from_dict(data))
    assert [found[f"w{i}"] for i in range(4)] == listed
    assert {found["etl-00000"], found["etl-00001"]} == {listed[1]}
    data["tenants"].reverse()  # the same tenants listed the other way round
    assert [namespaces(model_from_dict(data))[f"w{i}"] for i in range(4)] == listed[::-1]


@pytest.mark.parametrize("index", [4, -1, "team-a", True])
def test_a_tenant_index_outside_the_model_is_a_clear_error(index):
    raw = {**MOCK, "workload": [{**MOCK["workload"][0], "tenant": index}]}
    with pytest.raises(InputError, match=r"workload w0: tenant .* is no index into the model's tenants "
                                         r"\(0 = team-a, 1 = team-b, 2 = research, 3 = inference\)"):
        compile_mock(raw, model_from_dict(example_dict()))


@pytest.mark.parametrize("kind", ["large", "fifo", "absent"])
def test_a_mock_file_too_large_absent_or_no_regular_file_is_refused_in_one_line(tmp_path, kind, example_model):
    """Read within a cap and only as a regular file: a FIFO would wait for a writer for ever."""
    import os

    from gpudash.base.errors import InputError
    from gpudash.ops.mock import config

    path = tmp_path / "mock.yaml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "large":
        path.write_text("#" * (config.MAX_BYTES + 1))
    with pytest.raises(InputError) as info:
        config.load(path, example_model)
    reason = {"large": f"larger than {config.MAX_BYTES} bytes", "fifo": "not a regular file",
              "absent": "No such file or directory"}[kind]
    assert str(info.value).startswith(f"{path}: cannot read the mock file") and reason in str(info.value)
    assert "\n" not in str(info.value)
