"""The gpudash model: schema, loading with file:line errors, and the typed immutable model."""
from gpudash.model.load import load_bundled_example, load_model, model_from_dict, resolve_model_path
from gpudash.model.schema import json_schema
from gpudash.model.types import Model

__all__ = ["Model", "json_schema", "load_bundled_example", "load_model", "model_from_dict", "resolve_model_path"]
