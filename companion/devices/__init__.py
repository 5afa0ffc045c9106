"""Devices at the edge: GPIO buttons and buzzer, frame sources. Real ones behind a factory,
simulated ones first-class. Callbacks and workers only put small events on one queue."""
