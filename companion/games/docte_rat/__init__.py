"""Le Docte Rat: the pure rules engine, the board and the Que fais-je? deck as data."""
