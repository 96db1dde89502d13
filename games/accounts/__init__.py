"""Accounts beyond Django's own: verification and reset mail, deletion, hourly quotas, closing an
account's sockets, where to go after logging in."""
