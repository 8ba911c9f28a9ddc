"""Synthetic GPU cluster (the "GPU Mock design" seed): a topology and a workload become the series that
kube-state-metrics, the NVIDIA DCGM exporter and the AMD device-metrics-exporter expose, either served live
(:mod:`gpudash.ops.mock.server`) or written as month-scale OpenMetrics history (:mod:`gpudash.ops.mock.history`).

A mock file (:mod:`gpudash.ops.mock.config`) compiles into a :class:`~gpudash.simulation.scenario.Scenario`,
so the same independent reference model (:mod:`gpudash.simulation.reference`) gives the expected bill, and the
series come from the series synthesiser (:mod:`gpudash.simulation.series`), evaluated only at the minutes where
something changes (:mod:`gpudash.ops.mock.timeline`), which makes months of history take seconds.
"""
