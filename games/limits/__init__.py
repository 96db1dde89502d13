"""Fences around shared resources: atomic sliding-window throttles, the client's address group,
and answering 503 when the database has no connection to give."""
