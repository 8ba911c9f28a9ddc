"""Reports from a live Prometheus, Thanos Querier or ACM hub: billing statements, the CCSP hourly report and
the idle-GPU report (``python -m gpudash report billing|nodes|idle``). See docs/reports.md."""
