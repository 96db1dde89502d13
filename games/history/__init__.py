"""A stored game read back: its action log, records (export and import) and replay."""
