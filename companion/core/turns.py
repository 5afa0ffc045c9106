"""Turn-order helpers shared by the games. Seats are numbered 0..n-1 clockwise."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from .errors import InvalidAction


def next_seat(current: int, n_seats: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise (negative: anticlockwise) from ``current``."""
    if n_seats <= 0:
        raise InvalidAction(f"a table needs at least one seat, got {n_seats}")
    return (current + step) % n_seats


def next_active_seat(
    current: int, n_seats: int, skip: Callable[[int], bool], step: int = 1
) -> int | None:
    """The next seat clockwise (or anticlockwise with step=-1) that ``skip`` does not reject.

    Returns None when every other seat is skipped and ``current`` itself is skipped too.
    """
    seat = current
    for _ in range(n_seats):
        seat = next_seat(seat, n_seats, step)
        if not skip(seat):
            return seat
    return None


def round_from(start: int, n_seats: int, step: int = 1) -> list[int]:
    """Every seat once, starting at ``start`` and going round the table."""
    return [next_seat(start, n_seats, step * i) for i in range(n_seats)]


def lowest(scores: Mapping[int, int]) -> list[int]:
    """The seats sharing the lowest score (a roll-off: one winner, or the tied to re-roll)."""
    if not scores:
        return []
    low = min(scores.values())
    return sorted(seat for seat, value in scores.items() if value == low)


def highest(scores: Mapping[int, int]) -> list[int]:
    """The seats sharing the highest score."""
    if not scores:
        return []
    high = max(scores.values())
    return sorted(seat for seat, value in scores.items() if value == high)


def check_dice(
    dice: Iterable[object], count: int | Sequence[int], faces: int = 6
) -> tuple[int, ...]:
    """Validate dice values from outside (camera or keypad) and return them as a tuple.

    ``count`` is the number of dice expected, or a sequence of acceptable counts.
    """
    if isinstance(dice, str | bytes) or not isinstance(dice, Iterable):
        raise InvalidAction(f"dice must be a list of numbers, got {dice!r}")
    values = tuple(dice)
    counts = (count,) if isinstance(count, int) else tuple(count)
    if len(values) not in counts:
        want = " or ".join(str(c) for c in counts)
        raise InvalidAction(f"expected {want} dice, got {len(values)}: {list(values)}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= faces:
            raise InvalidAction(f"a die shows 1 to {faces}, got {v!r}")
    return values  # type: ignore[return-value]
