"""The words of the Renaissance table's battle parts, translated into the request's language.

Rendered into the page with json_script; the client fills placeholders in braces.
"""


def battle_labels() -> dict:
    """Every battle word the client shows, keyed by what it names."""
    return {}
