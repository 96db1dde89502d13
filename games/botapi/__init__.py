"""The public Bot API: bot accounts, personal access tokens, the event stream and moves."""
