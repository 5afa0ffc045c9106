"""Vision: pure functions from a BGR numpy image to observations (dice values, rat counts),
plus settle logic over frame sequences. ``worker.py`` is the one impure module."""
