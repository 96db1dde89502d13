"""Each write to a table writes every index of it, so an index no read needs is paid on every
write: each move's Action row pays for every index of `games_action`. An index whose columns
begin another's (a unique constraint is kept as an index too) serves no lookup that the longer
one does not serve as well, since a btree is searched by any leading part of its columns."""

import pytest
from django.db import connection

from tests.services import require_postgresql
from tests.web.conftest import site_models

pytestmark = pytest.mark.django_db

# Per index of the table: its name, whether it is unique, and per column its number and
# operator class (a text column's `_like` twin has another class: it serves LIKE, which the
# plain index cannot). Indexes on expressions or with a condition are left out.
PLAIN_BTREES = """
    SELECT c.relname, i.indisunique, i.indkey::int2[], i.indclass::oid[]
    FROM pg_index i
    JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am am ON am.oid = c.relam
    WHERE i.indrelid = %s::regclass AND am.amname = 'btree'
      AND i.indexprs IS NULL AND i.indpred IS NULL AND NOT i.indisprimary
"""


def begins(short: tuple, long: tuple) -> bool:
    return long[: len(short)] == short


def redundant_indexes(table: str) -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(PLAIN_BTREES, [connection.ops.quote_name(table)])
        indexes = [
            (name, unique, tuple(zip(keys, classes, strict=True)))
            for name, unique, keys, classes in cursor.fetchall()
        ]
    return [
        f"{table}: {name} begins {other}"
        for name, unique, columns in indexes
        if not unique
        for other, other_unique, other_columns in indexes
        if other != name
        and begins(columns, other_columns)
        # Longer, or unique, or (two alike) the other of the pair: one of each pair is reported.
        and (len(other_columns) > len(columns) or other_unique or other < name)
    ]


def test_no_index_of_ours_begins_another():
    require_postgresql()  # it reads PostgreSQL's catalogue
    assert [
        line
        for table in sorted(model._meta.db_table for model in site_models())
        for line in redundant_indexes(table)
    ] == []
