"""Information Set Monte Carlo Tree Search over the engine's fast API."""
