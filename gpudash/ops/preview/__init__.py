"""``gpudash preview``: every rendered dashboard drawn with data from a Prometheus, as an HTML page and a PNG,
without a Grafana (Grafana's variables from grafana_vars.py, the queries run by evaluate.py, the page by page.py,
the files by draw.py)."""
