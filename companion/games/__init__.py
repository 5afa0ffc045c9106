"""One package per game (docte_rat, rats_in_the_walls, ratjack, debrouille), all pure."""
