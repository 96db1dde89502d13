"""Those who act for a seat through the one way in (`games.services.submit_action`).

A bot plays its seat's turn (`bot_turn`), and a turn timer moves for a person whose time ran out
(`turn_expiry`). Both choose from the seat's view only (`choosing`), both are jobs run by the job
port (`games.jobs`, registered in `games.tasks`), and both sit above the services: the services
announce that a turn is due and never import them.
"""
