"""Command line options subcommands share: ``-c FILE`` and ``--example`` (every one that reads the model), and the
Prometheus bearer token (report, doctor, prune)."""
from __future__ import annotations

import argparse
import os

from gpudash.promql.read import TOKEN_ENV


def add_model_options(parser: argparse.ArgumentParser, fallback: str = "") -> None:
    """``-c/--config`` and ``--example`` (mutually exclusive); without either, ./gpudash.yaml is required (or,
    for a command that has one, ``fallback`` is named in the help)."""
    group = parser.add_mutually_exclusive_group()
    otherwise = f", else {fallback}" if fallback else ""
    group.add_argument("-c", "--config", metavar="FILE", help=f"model file (default: ./gpudash.yaml{otherwise})")
    group.add_argument("--example", action="store_true",
                       help="use the bundled example model instead (`gpudash init` copies it here)")


def add_token_option(parser: argparse.ArgumentParser, flag: str = "--token", otherwise: str = "") -> None:
    """``flag``: the bearer token sent to Prometheus, by default ``$GPUDASH_TOKEN`` (``otherwise``: what the
    command falls back to without either, for the help text)."""
    parser.add_argument(flag, default=os.environ.get(TOKEN_ENV) or None,
                        help=f"bearer token (default: ${TOKEN_ENV}{otherwise})")


def load_model_from_args(args: argparse.Namespace):
    """The model the options name: a clear error (exit 2) when there is none."""
    from gpudash.model import load_model, resolve_model_path

    return load_model(resolve_model_path(args.config, example=args.example))
