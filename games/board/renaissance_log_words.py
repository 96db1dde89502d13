"""The words of the Renaissance table's log parts, translated into the request's language.

Rendered into the page with json_script; the client fills placeholders in braces.
"""


def log_labels() -> dict:
    """Every log word the client shows, keyed by what it names."""
    return {}
