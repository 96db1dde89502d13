"""Playing for Points: a match is a series of games among the same seats up to a score."""
