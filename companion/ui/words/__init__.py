"""Words of the screens, one module per feature (each has an ``FR`` and an ``EN`` dict with
the same keys and placeholders). ``companion.ui.i18n`` merges them into its tables and
refuses a key defined twice."""

from __future__ import annotations

from . import dice, docte_rat, docte_rat_setup, settings

PARTS = (dice, docte_rat, docte_rat_setup, settings)
