"""Tables, seats, invitations, Play now, autofill and rematch."""
