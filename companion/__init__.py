"""Table Companion: a Raspberry Pi referee for four physical board games."""

__version__ = "0.1.0"
