"""``gpudash demo``: a local Prometheus holding a synthetic cluster's recent history and the rendered rules,
then the reports on it."""
