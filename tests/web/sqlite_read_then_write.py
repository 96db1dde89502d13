"""Run by tests/web/test_sqlite_settings.py in a process of its own, on the embedded default's
settings (tests/web/embedded_site_settings.py): a transaction that reads, then writes, while
another connection holds the write lock, as a match's job does while a finished game's rating is
written. Prints one JSON line: {"error": the error met or null, "total": the counter at the end}.
"""

import json
import threading
import time

import django

HOLD_SECONDS = 0.5


def hold_the_write_lock(holding: threading.Event) -> None:
    """Another thread's transaction: it writes, then keeps the lock a while before committing."""
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE counter SET total = total + 1")
        holding.set()
        time.sleep(HOLD_SECONDS)
    connection.close()


def read_then_write() -> None:
    from django.db import connection, transaction

    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT total FROM counter")
        (total,) = cursor.fetchone()
        cursor.execute("UPDATE counter SET total = %s", [total + 1])


def main() -> None:
    django.setup()
    from django.db import OperationalError, connection

    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE counter (total INTEGER NOT NULL)")
        cursor.execute("INSERT INTO counter VALUES (0)")
    holding = threading.Event()
    other = threading.Thread(target=hold_the_write_lock, args=(holding,))
    other.start()
    holding.wait(10)
    error = None
    try:
        read_then_write()
    except OperationalError as refused:
        error = str(refused)
    other.join()
    with connection.cursor() as cursor:
        cursor.execute("SELECT total FROM counter")
        (total,) = cursor.fetchone()
    print(json.dumps({"error": error, "total": total}))


if __name__ == "__main__":
    main()
