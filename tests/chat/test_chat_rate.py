"""The chat's per-person limit is a sliding window: CHAT_BURST messages in any CHAT_WINDOW
seconds, even across the boundary a fixed window would reset at."""

from games.services import table_talk
from games.services.table_talk import CHAT_BURST, CHAT_WINDOW, allow_rate


def test_a_burst_across_a_window_boundary_is_still_cut(monkeypatch):
    clock = [CHAT_WINDOW * 100 - 0.5]  # just before a multiple of the window
    monkeypatch.setattr(table_talk.time, "time", lambda: clock[0])
    for _ in range(CHAT_BURST):
        assert allow_rate(7)
        clock[0] += 0.2  # the burst straddles the boundary
    assert not allow_rate(7)
    clock[0] += CHAT_WINDOW  # a window after the first message, they may talk again
    assert allow_rate(7)
    assert allow_rate(8)  # another person is counted apart
