"""``gpudash preview --prometheus-url URL [-o DIR]``: every dashboard the model renders, drawn with data."""
from __future__ import annotations

import sys
import time
from pathlib import Path

DEFAULT_DIR = "gpudash-preview"


def add_arguments(parser) -> None:
    from gpudash.ops.cliargs import add_model_options, add_prometheus_options

    add_model_options(parser)
    parser.add_argument("--prometheus-url", required=True, metavar="URL",
                        help="the Prometheus (or Thanos Querier) the dashboards' datasource reads")
    parser.add_argument("-o", "--output", default=DEFAULT_DIR, metavar="DIR",
                        help=f"folder for one <uid>.html and <uid>.png per dashboard (default: ./{DEFAULT_DIR})")
    parser.add_argument("--no-png", action="store_true", help="write the HTML pages only (no Chromium needed)")
    add_prometheus_options(parser)


def run(args) -> int:
    """Exit 0 when every panel shows data, 1 when some panel is empty, NaN or an error (each named on stderr)."""
    from gpudash.base.errors import GpudashError
    from gpudash.model.load import load_model_from_args
    from gpudash.ops.cliargs import prometheus_from_args
    from gpudash.ops.preview.draw import draw, have_browser
    from gpudash.ops.report.pdf import BROWSERS

    if not args.no_png and not have_browser():
        raise GpudashError(f"the pictures are drawn by headless Chromium: install one of {', '.join(BROWSERS)}, "
                           "or use --no-png for the HTML pages only")
    model = load_model_from_args(args)
    try:
        written = draw(prometheus_from_args(args), model, Path(args.output), time.time(), png=not args.no_png)
    except OSError as err:
        raise GpudashError(f"-o {args.output}: cannot write: {err.strerror or err}") from None
    bad = 0
    for page, problems in written:
        print(f"dashboard: {page}")
        for line in problems:
            print(f"gpudash preview: {line}", file=sys.stderr)
        bad += len(problems)
    return 1 if bad else 0
