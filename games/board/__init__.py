"""Condottiere's board as the page draws it: the map's geometry and the board's translated words."""
