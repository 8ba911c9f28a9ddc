"""Command line options every subcommand that reads the model shares: ``-c FILE`` and ``--example``."""
from __future__ import annotations

import argparse


def add_model_options(parser: argparse.ArgumentParser) -> None:
    """``-c/--config`` and ``--example`` (mutually exclusive); without either, ./gpudash.yaml is required."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("-c", "--config", metavar="FILE", help="model file (default: ./gpudash.yaml)")
    group.add_argument("--example", action="store_true",
                       help="use the bundled example model instead (`gpudash init` copies it here)")


def load_model_from_args(args: argparse.Namespace):
    """The model the options name: a clear error (exit 2) when there is none."""
    from gpudash.model import load_model, resolve_model_path

    return load_model(resolve_model_path(args.config, example=args.example))
