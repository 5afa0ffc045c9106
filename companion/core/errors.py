"""The one error hierarchy. Every message names the offending value and what was expected."""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error Table Companion raises on purpose.

    ``str(err)`` is a one-line message fit for a player or a terminal.
    """


class InvalidAction(CompanionError):
    """The action is malformed: unknown type, missing or out-of-range argument."""


class IllegalAction(CompanionError):
    """The action is well formed but not allowed now (wrong phase, wrong player...)."""


class AmbiguousObservation(CompanionError):
    """A sensor reading (dice, tag) could not be decided; the table must confirm it."""


class JournalError(CompanionError):
    """The journal on disk is damaged, of a newer schema, or unusable."""


class ConfigError(CompanionError):
    """A configuration value is wrong; the message says which key and what to write."""


class DeviceError(CompanionError):
    """A device (camera, button, buzzer, display) is missing or failed."""
