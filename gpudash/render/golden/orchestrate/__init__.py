"""How a render, validate and test get their golden tests: the golden cache (cache.py), forked workers
(workers.py, which also spread a render's writer over every core), and the emission schedule that uses both and
hands the files to the writer (schedule.py)."""
from gpudash.render.golden.orchestrate.schedule import ForRender, jobs, texts
from gpudash.render.golden.orchestrate.workers import spread

__all__ = ["ForRender", "jobs", "spread", "texts"]
