"""Models of the chat app."""
