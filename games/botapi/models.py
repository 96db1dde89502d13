"""Models of the botapi app."""
