"""The caller on the table's own speaker: a part of the daemon's plan.

With ``[voice] enabled`` in the config, each change of the table is said
aloud (:func:`companion.core.caller.line`, in the table's language) by
:class:`drivers.voice.Speaker`, on the speaker's own thread: the table's
listener only hands it the update, so a key press, a frame or a phone's
update never waits for a voice.  The table's settings turn the caller off
and on and choose its moments (the table's menu, the panel's setup page);
until a controller sets them, the config's ``[voice] moments`` are said.

A speaker that cannot play (no espeak-ng, no aplay, an ALSA device that
does not open) is a fault shown once on the panel and the table's screen,
until a line plays again; nothing is retried by itself (a line is tried
once, when the table changes), so a broken speaker never storms.
"""

from __future__ import annotations

import logging
from typing import Any

from companion.core.caller import line
from companion.core.settings import Settings
from companion.core.table import Table
from companion.core.updates import Action, Update
from companion.host.config import Voice
from companion.parts.lifecycle import Component, Setup

log = logging.getLogger(__name__)

# The changes the caller speaks of (the table as it is never: a restart or
# a reconnect says nothing again).
SPOKEN = frozenset({Action.NEW, Action.COMMAND, Action.UNDO, Action.REDO})


def caller_on(settings: Settings) -> bool:
    """The table's speaker speaks: on unless a controller turned it off."""
    return settings.caller is not False


def caller_moments(settings: Settings, voice: Voice) -> tuple[str, ...]:
    """The moments the caller says: the table's choice, else the config's."""
    if settings.caller_moments is not None:
        return settings.caller_moments
    return voice.moments


class VoicePart(Component):
    """The table's speaker (``[voice]``): espeak-ng through ALSA."""

    name = "speaker"

    needs = ("table",)
    provides = ("voice",)

    def __init__(self, setup: Setup, *, table: Table, player: Any = None) -> None:
        self.voice = setup.config.voice
        self.language = setup.config.language
        self.table = table
        self.player = player
        self.speaker: Any = None
        self._missing: str | None = None
        self._unsubscribe: Any = None

    def start(self) -> None:
        if not self.voice.enabled:
            return
        from drivers.voice import Speaker

        speaker = Speaker(self.voice.device, speed=self.voice.speed, volume=self.voice.volume,
                          player=self.player)
        try:
            speaker.start()
        except OSError as exc:
            self._missing = str(exc)
            raise
        self.speaker = speaker
        self._unsubscribe = self.table.subscribe(self.on_update)

    def stop(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.speaker is not None:
            self.speaker.close()
            self.speaker = None

    def fault(self) -> str | None:
        """What the players are shown: espeak-ng or aplay missing, or the
        device that failed the last line (until a line plays again)."""
        found = self._missing or (self.speaker.fault if self.speaker is not None else None)
        return f"speaker: {found}" if found else None

    def on_update(self, update: Update) -> None:
        """The table's listener: hand the update to the speaker's thread
        (the line is made there)."""
        speaker = self.speaker
        if speaker is None or update.action not in SPOKEN:
            return
        settings = self.table.settings()
        if not caller_on(settings):
            return
        lang = settings.language or self.language
        moments = caller_moments(settings, self.voice)
        speaker.say(lambda: line(update, lang, moments), lang)
