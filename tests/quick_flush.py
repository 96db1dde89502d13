"""Emptying the PostgreSQL test database after a transactional test by DELETE, not TRUNCATE.

Django empties the database after each transactional test (and browser test) with one TRUNCATE
of every table. On PostgreSQL a TRUNCATE gives every table and index a new file, which took
170 to 300 ms here for our 25 tables, where a DELETE from each took 17 ms: about a minute of CI
over some 450 such tests. The tables a test leaves behind hold a few rows, where DELETE is the
cheap one. Django's foreign keys on PostgreSQL are checked at commit (DEFERRABLE INITIALLY
DEFERRED), so the order of the deletes does not matter inside the flush's transaction. A flush
that resets sequences or cascades to tables outside its list (`reset_sequences`,
`available_apps`) keeps Django's TRUNCATE, which does both.

The content types and permissions are kept: the flush's post_migrate signal makes them again,
which cost 90 ms a flush when they were emptied, and finds them all there when they were not
(any a test removed it makes again).
"""

from django.db.backends.postgresql.operations import DatabaseOperations

TRUNCATE_FLUSH = DatabaseOperations.sql_flush
# Rows that migrate makes and post_migrate makes again after every flush.
KEPT = frozenset({"django_content_type", "auth_permission"})


def delete_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
    if reset_sequences or allow_cascade:
        return TRUNCATE_FLUSH(
            self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
        )
    delete = style.SQL_KEYWORD("DELETE FROM")
    return [
        f"{delete} {style.SQL_FIELD(self.quote_name(table))};"
        for table in tables
        if table not in KEPT
    ]


def install() -> None:
    DatabaseOperations.sql_flush = delete_flush
