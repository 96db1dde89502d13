"""A join racing the account's deletion, on PostgreSQL, the two sent together: they serialise on
the account's row, so either the join comes first (and the deletion is refused: a game to
finish) or the deletion does (and the join is refused). A deleted account never holds a seat,
and a table never waits for one."""

import threading
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import pytest
from django.db import connections

from games.accounts.deletion import DeletionRefused, delete_account
from games.lobby import tables as lobby
from games.lobby.tables import LobbyError, SeatPlan
from games.models import Game, Seat, User
from tests.services import require_postgresql

ROUNDS = 6


def together(*calls):
    """Each call on a thread of its own, all released at once; what each returned or raised."""
    barrier = threading.Barrier(len(calls))

    def run(call):
        try:
            barrier.wait(timeout=30)
            return call()
        except (LobbyError, DeletionRefused) as refused:
            return refused
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("announced")  # the started games' jobs: recorded, not sent
def test_a_join_racing_a_deletion_never_seats_the_deleted_account(make_user):
    require_postgresql()
    host = make_user("host")
    outcomes = []
    for round_number in range(ROUNDS):
        table = lobby.create_table(host, 2, [SeatPlan("me"), SeatPlan("open")])
        person = make_user(f"leaving{round_number}")
        joined, deleted = together(
            partial(lobby.join_table, table.pk, person),
            partial(delete_account, User.objects.get(pk=person.pk)),
        )
        person.refresh_from_db()
        seated = Seat.objects.filter(game=table, user=person).exists()
        status = Game.objects.get(pk=table.pk).status
        if person.deleted_at:
            assert not seated, f"round {round_number}: the deleted account holds a seat"
            assert isinstance(joined, LobbyError) and joined.code == "account_closed"
            assert status == Game.Status.OPEN, "the table still waits, for someone else"
        else:
            assert isinstance(deleted, DeletionRefused)
            assert seated and status == Game.Status.PLAYING, "a full table starts"
        outcomes.append("deleted" if person.deleted_at else "joined")
        if status == Game.Status.OPEN:
            lobby.leave_table(table.pk, host)  # the host may open another
    print("outcomes:", outcomes)
