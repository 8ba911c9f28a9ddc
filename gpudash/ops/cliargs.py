"""Command line options subcommands share: ``-c FILE`` and ``--example`` (every one that reads the model), the
Prometheus bearer token (report, doctor, prune) and the connection to Prometheus (report, doctor); the model those
options name is loaded by :func:`gpudash.model.load.load_model_from_args`."""
from __future__ import annotations

import argparse
import os
import re
import sys

from gpudash.base.environ import TOKEN_ENV
from gpudash.base.errors import GpudashError
from gpudash.ops.httpread import DEFAULT_MAX_BYTES, transport_warnings

EXAMPLES_HEADING = "examples:"  # the last part of every (sub)command's --help: command lines the parser accepts


def add_command(sub, name: str, summary: str, examples: tuple[str, ...]) -> argparse.ArgumentParser:
    """The (sub)command ``name`` of the subparsers ``sub``: ``summary`` in the commands' list and atop its help,
    which ends with ``examples``."""
    return sub.add_parser(name, help=summary, description=summary,
                          epilog="\n".join((EXAMPLES_HEADING, *(f"  {line}" for line in examples))),
                          formatter_class=argparse.RawDescriptionHelpFormatter)


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


def duration(text: str) -> int:
    """``30m``, ``1h30m``, ``90s``, ``7d`` or plain seconds -> seconds (an argparse type)."""
    text = text.strip()
    if re.fullmatch(r"\d+", text):
        seconds = int(text)
    else:
        parts = re.fullmatch(r"(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?", text)
        if not text or not parts or not any(parts.groups()):
            raise argparse.ArgumentTypeError(f"{text!r} is not a duration such as 30m, 1h or 90s")
        d, h, m, s = (int(g or 0) for g in parts.groups())
        seconds = ((d * 24 + h) * 60 + m) * 60 + s
    if seconds <= 0:
        raise argparse.ArgumentTypeError("a duration must be positive")
    return seconds


def byte_count(text: str) -> int:
    """A positive number of bytes (an argparse type)."""
    if not re.fullmatch(r"[1-9]\d{0,12}", text.strip()):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of bytes")
    return int(text)


def add_prometheus_options(parser: argparse.ArgumentParser, timeout: int = 60) -> None:
    """How to reach Prometheus: the token (``--token``, ``--token-file`` or ``$GPUDASH_TOKEN``), TLS, the total
    deadline of each request and the largest answer read."""
    token = parser.add_mutually_exclusive_group()
    token.add_argument("--token-file", metavar="FILE",
                       help=f"read the bearer token from this file (default: ${TOKEN_ENV})")
    token.add_argument("--token", help="bearer token: discouraged, every user of the machine sees it in the "
                                       f"process list (use ${TOKEN_ENV} or --token-file)")
    parser.add_argument("--ca-file", metavar="F", help="CA bundle that signed the server certificate")
    parser.add_argument("--insecure-skip-verify", action="store_true",
                        help="do not verify the TLS certificate (test systems only; warned on stderr)")
    parser.add_argument("--timeout", type=duration, default=timeout, metavar="DURATION",
                        help=f"per request, in total: connect and the whole answer; also sent as the server-side "
                             f"query timeout (default: {timeout}s)")
    parser.add_argument("--max-response-bytes", type=byte_count, default=DEFAULT_MAX_BYTES, metavar="N",
                        help=f"refuse a larger answer (default: {DEFAULT_MAX_BYTES})")


def token_from_args(args: argparse.Namespace) -> str | None:
    """The bearer token of ``--token``, ``--token-file`` or else ``$GPUDASH_TOKEN``."""
    path = args.token_file
    if not path:
        return args.token or os.environ.get(TOKEN_ENV) or None
    try:
        with open(path, encoding="utf-8") as fh:
            token = fh.read(65536).strip()
    except (OSError, UnicodeDecodeError) as err:
        raise GpudashError(f"--token-file {path}: cannot read: {getattr(err, 'strerror', None) or err}") from None
    if not token or any(c.isspace() or not c.isprintable() for c in token):
        raise GpudashError(f"--token-file {path}: not one token on one line")
    return token


def prometheus_from_args(args: argparse.Namespace):
    """The Prometheus client the options describe; warns on stderr when the token travels unprotected."""
    from gpudash.ops.prometheus_client import Prometheus

    if args.ca_file and not os.path.isfile(args.ca_file):
        raise GpudashError(f"--ca-file {args.ca_file}: no such file")
    token = token_from_args(args)
    prom = Prometheus(args.prometheus_url, token=token, ca_file=args.ca_file,
                      insecure_skip_verify=args.insecure_skip_verify, timeout=args.timeout,
                      max_response_bytes=args.max_response_bytes)
    for w in transport_warnings(prom.url, bool(token), args.insecure_skip_verify):
        print(f"gpudash: warning: {w}", file=sys.stderr)
    return prom
