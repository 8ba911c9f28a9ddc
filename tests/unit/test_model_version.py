"""The model's ``version:`` key: optional with a default, written by ``gpudash init``, and an unknown version refused
with one line before any other check (docs/model.md, Version and upgrade path)."""
from __future__ import annotations

import pytest
import yaml

from gpudash import cli
from gpudash.base.errors import InputError
from gpudash.model import json_schema, load_model, model_from_dict
from gpudash.model.load import DEFAULT_MODEL
from gpudash.model.model_version import CURRENT, MODEL_VERSIONS
from tests.unit.test_model_load import minimal


def test_without_version_the_model_reads_as_the_current_one():
    assert model_from_dict(minimal()) == model_from_dict(minimal(version=CURRENT))
    assert json_schema()["properties"]["version"]["default"] == CURRENT
    assert json_schema()["properties"]["version"]["enum"] == list(MODEL_VERSIONS)


@pytest.mark.parametrize("version", ["gpudash/v2", "prometheus/v1", "v1", 1, None, ["gpudash/v1"]])
def test_an_unknown_version_is_one_line_before_any_other_check(version, tmp_path):
    path = tmp_path / DEFAULT_MODEL
    path.write_text(yaml.safe_dump({"version": version, "currency": "usd", "renamed_in_v2": {}}, sort_keys=False))
    with pytest.raises(InputError) as err:
        load_model(path)
    assert type(err.value) is InputError  # one error: not the format's other keys, which may mean something else
    assert str(err.value) == (f"{path}:1: version: {version!r} is not a model version this gpudash reads "
                              f"({', '.join(MODEL_VERSIONS)}): a newer model needs a newer gpudash")


def test_init_writes_the_current_version(tmp_path, capsys):
    assert cli.main(["init", "-o", str(tmp_path)]) == 0
    written = tmp_path / DEFAULT_MODEL
    assert yaml.safe_load(written.read_text())["version"] == CURRENT
    load_model(written)
