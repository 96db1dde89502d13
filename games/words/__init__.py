"""Translated words the table shows: bot names, table talk phrases, the engines' refusals."""
