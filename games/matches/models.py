"""Models of the matches app."""
