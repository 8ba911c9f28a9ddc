"""The base every layer stands on: errors, output paths, Kubernetes object helpers, the one serialiser, deferred
files, progress and terminal output. Imports nothing else of gpudash."""
