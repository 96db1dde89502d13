"""Ratings: OpenSkill updates from finished games, and the scale people read."""
