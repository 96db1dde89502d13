"""Table talk: chat per game (seats and spectators apart) and per lobby table."""
