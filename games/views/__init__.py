"""The platform's pages, one module per family of views; games/urls.py imports them by module.

accounts (sign up, log out, password), home, players (profiles), tables (the lobby, a table,
"Play now", bots), game (the live board), game_shell (the page of a game whose board is not
drawn yet: Renaissance's), history (history, replay, game records), ratings (the
leaderboard), rules (how to play), staff (the staff dashboard). The forms they use are in
games.forms, the board's words in games.board.words.
"""
