"""The platform's pages, one module per family of views; games/urls.py imports them by module.

accounts (sign up, log out, password), home, players (profiles), tables (the lobby, a table,
"Play now", bots), game (the live board: Condottiere's, or renaissance_table's for a Renaissance
game), history (history, replay, game records), ratings (the leaderboard), rules (how to play
either game), staff (the staff dashboard). The forms they use are in games.forms, the boards'
words in games.board.words and games.board.renaissance_*_words.
"""
