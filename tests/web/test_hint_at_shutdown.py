"""A move's hint sent while the process stops (the embedded default stopped mid-game: a job thread
finishes a bot's move after the server's loops are gone) is a note in the log, not an error; any
other failure to send stays an error."""

import logging

import pytest
from channels.layers import InMemoryChannelLayer

from games.services import notify


@pytest.fixture
def in_memory_layer_without_a_running_loop(monkeypatch):
    monkeypatch.setattr(notify, "get_channel_layer", lambda: InMemoryChannelLayer())
    monkeypatch.setattr(notify, "_socket_loop", None)


def failing_with(message: str):
    def async_to_sync(_coroutine_function):
        def call(*_args):
            raise RuntimeError(message)

        return call

    return async_to_sync


def test_a_hint_sent_after_interpreter_shutdown_began_is_noted_not_an_error(
    in_memory_layer_without_a_running_loop, monkeypatch, caplog
):
    stopping = "cannot schedule new futures after interpreter shutdown"  # CPython's own words
    monkeypatch.setattr(notify, "async_to_sync", failing_with(stopping))

    with caplog.at_level(logging.INFO, logger=notify.log.name):
        notify.group_send_now("game-1", notify.version_message(3))

    assert [r.levelno for r in caplog.records] == [logging.INFO]
    assert "the process is stopping" in caplog.records[0].getMessage()


def test_any_other_failure_to_send_a_hint_is_logged_as_an_error(
    in_memory_layer_without_a_running_loop, monkeypatch, caplog
):
    monkeypatch.setattr(notify, "async_to_sync", failing_with("Event loop is closed"))

    with caplog.at_level(logging.INFO, logger=notify.log.name):
        notify.group_send_now("game-1", notify.version_message(3))

    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    assert caplog.records[0].exc_info is not None
