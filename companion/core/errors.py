"""Every error the core raises, under one root.

Each leaf also subclasses the built-in that fits it, so callers may catch
``ValueError`` for anything a player typed wrong, or ``CompanionError`` for
anything of ours.  Messages say what was wrong and what is allowed.

A refusal players read (:class:`Refusal`: a refused command, a bad setup, no
game, a stale version) is made from a text key and its fields, so that each
phone and the table screen say it in their own language::

    raise WrongPlayer("refusal.not-your-turn", player="Ana", turn="Ben")
    err.say("fr")  # "Ce n'est pas le tour d'Ana ..."
    str(err)       # the English sentence, for logs and the command line

Keys are ``refusal.<name>``: common ones in :data:`companion.core.text.COMMON`,
a game's own in its ``text.py`` (raised with ``game=<its key>``).  A field
that is a word (a card, a colour, a command) is a
:class:`~companion.core.text.Word`.  A key the texts do not know is said as
it is, so a plain English sentence still works where no phone reads it.
"""

from __future__ import annotations

from typing import Any

from .text import Word, say


class CompanionError(Exception):
    """Root of every error raised by the companion."""


class Refusal(CompanionError):
    """An error players read: ``key`` and ``fields`` said in their language
    (:meth:`say`); ``str()`` is the English sentence.  ``game`` names the
    game whose texts hold the key (``None``: the common texts)."""

    def __init__(self, key: str, /, *, game: str | None = None, **fields: Any) -> None:
        self.key = key
        self.game = game
        self.fields = fields
        super().__init__(self.say("en"))

    def say(self, lang: str) -> str:
        """The refusal as a sentence in ``lang`` (English where it has none)."""
        return say(self.key, lang, game=self.game, default=self.key, **self.fields)


class IllegalCommand(Refusal, ValueError):
    """A command that the rules or the table refuse.  Nothing was changed.

    ``rule`` names the rule (or the check) that refused it, in a short
    machine-readable form such as ``"wrong-player"``.
    """

    rule = "illegal"

    def __init__(self, key: str, /, *, rule: str | None = None, game: str | None = None,
                 **fields: Any) -> None:
        super().__init__(key, game=game, **fields)
        if rule is not None:
            self.rule = rule

    def to_json(self, lang: str = "en") -> dict[str, str]:
        return {"error": self.rule, "message": self.say(lang)}


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

    @property
    def player(self) -> str:
        return str(self.fields["player"])

    @property
    def seat(self) -> str | None:
        seat = self.fields.get("seat")
        return None if seat is None else str(seat)


class NotExpected(IllegalCommand):
    """The command is valid in general but not what the game waits for now."""

    rule = "not-expected"


class GameIsOver(IllegalCommand):
    rule = "game-over"


class BadSetting(CompanionError, ValueError):
    """A table setting that does not exist, or a value it does not take."""


class BadSetup(Refusal, ValueError):
    """A game cannot start from this setup (players, variants, options)."""


class NoGame(Refusal, LookupError):
    """There is no game at the table yet."""


class StaleVersion(Refusal, ValueError):
    """The command was made against another state than the current one: an
    older version, or another game (every game starts at version 0, so the
    version alone cannot tell game 44 from game 45).  Without games, the
    message speaks of versions only; ``None`` for a game is "no game"."""

    def __init__(self, expected: int | None, current: int | None, *,
                 expected_game: int | None = None, current_game: int | None = None
                 ) -> None:
        if expected_game is None and current_game is None:
            made = Word("refusal.at-version", version=expected)
            now = Word("refusal.at-version", version=current)
        else:
            made, now = _at(expected_game, expected), _at(current_game, current)
        super().__init__("refusal.stale-version", made=made, now=now)
        self.expected = expected
        self.current = current
        self.expected_game = expected_game
        self.current_game = current_game


def _at(game: int | None, version: int | None) -> Word:
    if game is None:
        return Word("refusal.at-no-game")
    if version is None:
        return Word("refusal.at-game", number=game)
    return Word("refusal.at-game-version", number=game, version=version)


class NothingToUndo(IllegalCommand):
    rule = "nothing-to-undo"


class NothingToRedo(IllegalCommand):
    rule = "nothing-to-redo"


class JournalError(CompanionError, RuntimeError):
    """The journal database cannot be used."""


class JournalInUse(JournalError):
    """Another process (the running companion) holds the journal."""


class ForeignDatabase(JournalError):
    """The file exists but is not a companion journal (or is damaged)."""


class CardFault(Refusal, JournalError):
    """A write the card could not take: the command was refused, and
    everything acknowledged before is safe.  ``detail`` is SQLite's word
    for it (for the log)."""

    key_name = "refusal.card-failing"

    def __init__(self, detail: str) -> None:
        super().__init__(self.key_name)
        self.detail = detail

    def __str__(self) -> str:
        return f"{self.say('en')} ({self.detail})"


class CardFull(CardFault):
    """The memory card is full."""

    key_name = "refusal.card-full"


class CardFailing(CardFault):
    """The memory card (or its file system) turned read-only or fails."""


class UnknownKey(CompanionError, ValueError):
    """A key or a kind of press that the table's menu does not have."""


class BadBackoff(CompanionError, ValueError):
    """A backoff whose waits are not positive, or whose longest is the shorter."""


class BadMessage(CompanionError, ValueError):
    """A message on the venue's broker that the venue board does not take
    (not well formed, or naming another table than its topic), and why."""


class VenueChangeRefused(CompanionError, ValueError):
    """A change of the table's venue settings that is not made: ``code``
    says why (``venue-locked``: nobody allowed it at the table;
    ``password-needed``: a kept password would go to another broker;
    ``no-topic``: a name with no letter or digit)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

