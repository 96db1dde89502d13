"""The rows every move reads and writes, with statements written once per database and shape.

Every accepted move reads the game row (locked) and its seats, and writes the game row and one
Action row. Through the ORM, each of those compiled its SQL anew on every move, and the read
also made a Game per seat row (a join) and decoded its JSON fields each time. Here each
statement is built once per database vendor (and, for the game's update, per set of fields
written) and only executed; the game row is read once, the seats by a second light query.

CPU of the process per move, PostgreSQL, 2026-11-29 (ORM: 52b0e37; these statements: b7cb935):

| part                                                  | ORM     | fixed statements |
|-------------------------------------------------------|---------|------------------|
| game row locked and seats read                        | 0.71 ms | 0.24 ms          |
| game row and action row written                       | 0.53 ms | 0.15 ms          |
| submit_action, all of it (3000 moves, parts timed)    | 1.93 ms | 1.00 ms          |
| bench_moves: a person's move, median of 3 runs        | 2.61 ms | 1.50 ms          |
| bench_moves: a bot's turn job, median of 3 runs       | 2.93 ms | 1.80 ms          |

Nothing else changes: rows become instances as the ORM makes them (every concrete column, each
through the converters the ORM applies on this connection: JSON decoded, SQLite's datetimes and
booleans), and every value written is prepared by its field's `get_db_prep_save`, as the ORM
prepares it (JSON adapted, datetimes made naive on SQLite).
"""

from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import signals
from django.db.transaction import TransactionManagementError
from django.utils import timezone

from games.models import Action, Game, Seat

# (vendor, what) -> SQL text: the statements, built on first use.
_statements: dict[tuple, str] = {}


def statement(connection, what, build) -> str:
    """The SQL of `what` on this connection's database, `build(connection)` the first time."""
    key = (connection.vendor, what)
    sql = _statements.get(key)
    if sql is None:
        sql = _statements[key] = build(connection)
    return sql


class Rows:
    """A model's rows read with all its concrete columns, made into instances as the ORM
    makes them."""

    def __init__(self, model):
        self.model = model
        self.fields = model._meta.concrete_fields
        self.table = model._meta.db_table
        # Per connection: the converters are the backend's, bound to that connection.
        self._converters = WeakKeyDictionary()

    def select(self, connection, where: str) -> str:
        """SELECT every column of the table WHERE `where` (column names already quoted)."""
        quote = connection.ops.quote_name
        columns = ", ".join(quote(field.column) for field in self.fields)
        return f"SELECT {columns} FROM {quote(self.table)} WHERE {where}"

    def converters(self, connection) -> list[tuple]:
        """(position, converters, column) of each column the ORM converts after reading."""
        found = self._converters.get(connection)
        if found is None:
            found = []
            for position, field in enumerate(self.fields):
                column = field.get_col(self.table)
                convert = connection.ops.get_db_converters(column)
                convert += column.get_db_converters(connection)
                if convert:
                    found.append((position, convert, column))
            self._converters[connection] = found
        return found

    def instance(self, connection, row):
        values = list(row)
        for position, convert, column in self.converters(connection):
            value = values[position]
            for converter in convert:
                value = converter(value, column, connection)
            values[position] = value
        return self.model.from_db(connection.alias, None, values)


GAMES = Rows(Game)
SEATS = Rows(Seat)


def default_connection():
    return connections[DEFAULT_DB_ALIAS]


def column(connection, model, name: str) -> str:
    """The quoted column of `model`'s field `name`."""
    return connection.ops.quote_name(model._meta.get_field(name).column)


def locked_game_row(game_id: int) -> Game | None:
    """The game row, locked until the transaction ends (`FOR UPDATE`: PostgreSQL queues the
    next writer there; SQLite has no row locks, its IMMEDIATE transaction holds the file's
    write lock instead), or None if there is no such game."""
    connection = default_connection()
    locks = connection.features.has_select_for_update
    if locks and connection.get_autocommit():  # as the ORM's select_for_update refuses
        raise TransactionManagementError(
            "select_for_update cannot be used outside of a transaction."
        )
    sql = statement(connection, "locked game", locked_game_sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        row = cursor.fetchone()
    return None if row is None else GAMES.instance(connection, row)


def locked_game_sql(connection) -> str:
    sql = GAMES.select(connection, f"{column(connection, Game, 'id')} = %s")
    if connection.features.has_select_for_update:
        sql += " " + connection.ops.for_update_sql()
    return sql


def seats_of_game(game: Game) -> list[Seat]:
    """The game's seats in order, each holding `game` as `seat.game` (no query to reach it)."""
    connection = default_connection()
    sql = statement(connection, "seats", seats_sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        seats = [SEATS.instance(connection, row) for row in cursor.fetchall()]
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return seats


def seats_sql(connection) -> str:
    where = f"{column(connection, Seat, 'game')} = %s"
    return SEATS.select(connection, where) + f" ORDER BY {column(connection, Seat, 'index')}"


def game_and_seats_unlocked(game_id: int) -> tuple[Game, list[Seat], str] | None:
    """On PostgreSQL, outside a transaction: the game row, its seats in order (each holding the
    game as `seat.game`) and the row's version stamp (`xmin`, the transaction that last wrote
    it), in one statement and so one snapshot; None if there is no such game. A move planned on
    them is written only if the row is still the one read (`update_game_and_insert_action`'s
    `unchanged_since`), so no lock is taken: any write to the game row since the read makes the
    move fall back to the locked way."""
    connection = default_connection()
    sql = statement(connection, "game and seats", game_and_seats_sql)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id])
        rows = cursor.fetchall()
    if not rows:
        return None
    width = len(GAMES.fields)
    game = GAMES.instance(connection, rows[0][:width])
    stamp = rows[0][width]
    # A game with no seat comes back as one row whose seat columns are all NULL, its id too.
    seats = [SEATS.instance(connection, row[width + 1 :]) for row in rows if row[width + 1]]
    for seat in seats:
        Seat.game.field.set_cached_value(seat, game)
    return game, seats, stamp


def game_and_seats_sql(connection) -> str:
    quote = connection.ops.quote_name

    def columns(rows: Rows, alias: str) -> str:
        return ", ".join(f"{alias}.{quote(field.column)}" for field in rows.fields)

    game_id, seat_game = column(connection, Game, "id"), column(connection, Seat, "game")
    return (
        f"SELECT {columns(GAMES, 'g')}, g.xmin::text, {columns(SEATS, 's')} "
        f"FROM {quote(Game._meta.db_table)} g "
        f"LEFT JOIN {quote(Seat._meta.db_table)} s ON s.{seat_game} = g.{game_id} "
        f"WHERE g.{game_id} = %s ORDER BY s.{column(connection, Seat, 'index')}"
    )


def plain_game_fields(fields: dict) -> list[tuple] | None:
    """(field, value) of each of Game's `fields`, or None if a value is not a plain one (an
    expression, a related row): the ORM's update is the one to write that."""
    written = [(Game._meta.get_field(name), value) for name, value in fields.items()]
    if any(field.is_relation or hasattr(value, "resolve_expression") for field, value in written):
        return None
    return written


def update_game_at(game_id: int, version: int, fields: dict) -> int | None:
    """UPDATE the game row with `fields` if it is still at `version`: the number of rows
    changed (0 or 1); None if a value needs the ORM (`plain_game_fields`)."""
    written = plain_game_fields(fields)
    if written is None:
        return None
    columns = [field for field, _ in written]
    connection = default_connection()
    sql = statement(connection, ("update game", *fields), lambda c: update_game_sql(c, columns))
    values = [field.get_db_prep_save(value, connection) for field, value in written]
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(sql, [*values, game_id, version])
        return cursor.rowcount


def update_game_sql(connection, columns, stamped: bool = False) -> str:
    """UPDATE the game row's `columns` where it is at a version (and, `stamped`, at a version
    stamp, PostgreSQL's `xmin`: no transaction has written the row since it was read)."""
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    guard = f"{column(connection, Game, 'id')} = %s AND {column(connection, Game, 'version')} = %s"
    if stamped:
        guard += " AND xmin = %s::xid"
    return f"UPDATE {quote(Game._meta.db_table)} SET {assignments} WHERE {guard}"


ACTION_FIELDS = tuple(field for field in Action._meta.concrete_fields if not field.primary_key)
ACTION_NAMES = frozenset(field.attname for field in ACTION_FIELDS)


def action_saves_heard() -> bool:
    """Whether anyone listens for an Action's save: then the ORM saves it, so that they hear."""
    return signals.pre_save.has_listeners(Action) or signals.post_save.has_listeners(Action)


def action_values(values: dict, connection) -> list:
    """The Action row's values in ACTION_FIELDS' order, prepared for `connection` (by the
    fields' attribute names: `game_id`, not `game`; a field not given has its default),
    stamped `created_at` now as its auto_now_add stamps it."""
    unknown = set(values) - ACTION_NAMES
    if unknown:
        raise TypeError(f"Action has no field {', '.join(sorted(unknown))}")
    values = {**values, "created_at": timezone.now()}
    return [
        field.get_db_prep_save(
            values[field.attname] if field.attname in values else field.get_default(), connection
        )
        for field in ACTION_FIELDS
    ]


def insert_action(**values) -> None:
    """INSERT one Action row (`action_values`); nobody reads its id back."""
    if action_saves_heard():
        Action.objects.create(**values)
        return
    connection = default_connection()
    sql = statement(connection, "insert action", insert_action_sql)
    prepared = action_values(values, connection)
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(sql, prepared)


def insert_action_sql(connection) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in ACTION_FIELDS)
    places = ", ".join(["%s"] * len(ACTION_FIELDS))
    return f"INSERT INTO {quote(Action._meta.db_table)} ({columns}) VALUES ({places})"


def update_game_and_insert_action(
    game_id: int, version: int, fields: dict, action: dict, unchanged_since: str | None = None
):
    """On PostgreSQL, the game row's update (`update_game_at`) and the move's Action row
    (`insert_action`) in one statement, the insert taking its row from the update's: so the
    action is written only if the game row was, one round trip and one statement fewer (70 us
    of this process's CPU per move, 2026-11-29). The number of rows written (1, or 0: the game
    was not at `version`, nothing written); None where it cannot be one statement (SQLite has
    no UPDATE in a WITH; a value needs the ORM; someone listens for an Action's save). With
    `unchanged_since` (a version stamp, `game_and_seats_unlocked`), written only if no
    transaction has written the game row since it was read."""
    connection = default_connection()
    if connection.vendor != "postgresql" or action_saves_heard():
        return None
    written = plain_game_fields(fields)
    if written is None:
        return None
    columns = [field for field, _ in written]
    stamped = unchanged_since is not None
    sql = statement(connection, ("move", stamped, *fields), lambda c: move_sql(c, columns, stamped))
    values = [field.get_db_prep_save(value, connection) for field, value in written]
    guard = [game_id, version, unchanged_since] if stamped else [game_id, version]
    params = [*values, *guard, *action_values(action, connection)]
    with transaction.mark_for_rollback_on_error(), connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.rowcount


def move_sql(connection, columns, stamped: bool = False) -> str:
    quote = connection.ops.quote_name
    action_columns = ", ".join(quote(field.column) for field in ACTION_FIELDS)
    places = ", ".join(["%s"] * len(ACTION_FIELDS))
    return (
        f"WITH moved AS ({update_game_sql(connection, columns, stamped)} RETURNING 1) "
        f"INSERT INTO {quote(Action._meta.db_table)} ({action_columns}) "
        f"SELECT {places} FROM moved"
    )
