"""PromQL: expression building with escaping (build) and parsing/linting (lint)."""
