"""The impure middle: the SQLite journal and the referee (the one door to the engines)."""
