"""The board's geographic data and the plane geometry that turns it into the map (stdlib only)."""
