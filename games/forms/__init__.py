"""The site's forms, one module per family of pages: accounts (sign up, display name), tables
(create a table, "Play now", "Play against bots", and the optional rules' labels) and history
(the history's filters, importing a game record). Import them from their module."""
