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


class NotExpected(IllegalCommand):
    """The command is valid in general but not what the game waits for now."""

    rule = "not-expected"


class GameIsOver(IllegalCommand):
    rule = "game-over"


class BadSetup(CompanionError, ValueError):
    """A game cannot start from this setup (players, variants, options)."""


class NoGame(CompanionError, LookupError):
    """There is no game at the table yet."""


class StaleVersion(CompanionError, ValueError):
    """The command was made against an older state than the current one."""

    def __init__(self, expected: int, current: int) -> None:
        super().__init__(
            f"the command was made against version {expected}, but the table is at "
            f"version {current}: look at the table again and resend if still wanted"
        )
        self.expected = expected
        self.current = current


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
