"""Every error the core raises, under one root.

Each leaf also subclasses the built-in that fits it, so callers may catch
``ValueError`` for anything a player typed wrong, or ``CompanionError`` for
anything of ours.  Messages say what was wrong and what is allowed.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Root of every error raised by the companion."""


class IllegalCommand(CompanionError, ValueError):
    """A command that the rules or the table refuse.  Nothing was changed.

    ``rule`` names the rule (or the check) that refused it, in a short
    machine-readable form such as ``"wrong-player"``.
    """

    rule = "illegal"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule

    def to_json(self) -> dict[str, str]:
        return {"error": self.rule, "message": str(self)}


class UnknownCommand(IllegalCommand):
    rule = "unknown-command"


class BadArgument(IllegalCommand):
    """A command's argument is missing, of the wrong type or out of range."""

    rule = "bad-argument"


class WrongPlayer(IllegalCommand):
    rule = "wrong-player"


class NotYourSeat(IllegalCommand):
    """With the table's setting "turns only from the player's own phone"
    on, a phone played for a seat that is not its own.  ``player`` is the
    seat's name, ``seat`` the name the phone is seated as (``None``: none)."""

    rule = "not-your-seat"

    def __init__(self, player: str, seat: str | None) -> None:
        mine = f"this phone is {seat}'s" if seat else "this phone has no seat"
        super().__init__(
            f"only {player}'s own phone may play {player}'s turn ({mine}): the table's "
            f"setting 'Turns only from the player's own phone' is on")
        self.player = player
        self.seat = seat


class NotExpected(IllegalCommand):
    """The command is valid in general but not what the game waits for now."""

    rule = "not-expected"


class GameIsOver(IllegalCommand):
    rule = "game-over"


class BadSetting(CompanionError, ValueError):
    """A table setting that does not exist, or a value it does not take."""


class BadSetup(CompanionError, ValueError):
    """A game cannot start from this setup (players, variants, options)."""


class NoGame(CompanionError, LookupError):
    """There is no game at the table yet."""


class StaleVersion(CompanionError, ValueError):
    """The command was made against another state than the current one: an
    older version, or another game (every game starts at version 0, so the
    version alone cannot tell game 44 from game 45).  Without games, the
    message speaks of versions only; ``None`` for a game is "no game"."""

    def __init__(self, expected: int | None, current: int | None, *,
                 expected_game: int | None = None, current_game: int | None = None
                 ) -> None:
        if expected_game is None and current_game is None:
            made, now = f"version {expected}", f"version {current}"
        else:
            made, now = _at(expected_game, expected), _at(current_game, current)
        super().__init__(
            f"the command was made against {made}, but the table is at {now}: "
            f"look at the table again and resend if still wanted"
        )
        self.expected = expected
        self.current = current
        self.expected_game = expected_game
        self.current_game = current_game


def _at(game: int | None, version: int | None) -> str:
    if game is None:
        return "no game"
    return f"game {game}" + ("" if version is None else f" at version {version}")


class NothingToUndo(IllegalCommand):
    rule = "nothing-to-undo"


class NothingToRedo(IllegalCommand):
    rule = "nothing-to-redo"


class JournalError(CompanionError, RuntimeError):
    """The journal database cannot be used."""


class ForeignDatabase(JournalError):
    """The file exists but is not a companion journal (or is damaged)."""


class UnknownKey(CompanionError, ValueError):
    """A key or a kind of press that the table's menu does not have."""


class BadBackoff(CompanionError, ValueError):
    """A backoff whose waits are not positive, or whose longest is the shorter."""
