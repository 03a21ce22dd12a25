"""Corrections: the table's state fixed by hand, always accepted and never
firing a rule (a reserve set back under the popò limit, tokens on a card,
a Persona's printed values, a Persona turned back up, a line of history)."""

from __future__ import annotations

from ...engine import Event
from ...errors import IllegalCommand
from .places import Places
from .sentences import GAME


class Corrections(Places):
    """``do_*`` for the correction commands."""

    def do_set_reserve(self, player: int, pipi: int, popo: int) -> list[Event]:
        self._need_live(player)
        self.reserves[player].update({"pipi": pipi, "popo": popo})
        return [self._event("correction", {**self._who(player), "reserve_pipi": pipi,
                                           "reserve_popo": popo, "how": "reserve"})]

    def do_set_tokens(self, queue: int, position: int, pipi: int, popo: int) -> list[Event]:
        p = self._need_persona(queue, position)
        p["tokens"] = [pipi, popo]
        return [self._event("correction", {**self._of(p, queue, position - 1), "pipi": pipi,
                                           "popo": popo, "how": "tokens"})]

    def do_set_persona(self, queue: int, position: int, pipi: int, popo: int, colour: str,
                       name: str | None) -> list[Event]:
        p = self._need_persona(queue, position)
        if not p["revealed"]:
            raise IllegalCommand("refusal.face-down-reveal", rule="face-down", game=GAME,
                                 place=self._place_word(queue, position - 1))
        p.update({"pipi": pipi, "popo": popo, "colour": colour, "name": name or p["name"]})
        return [self._event("correction", {**self._of(p, queue, position - 1), "pipi": pipi,
                                           "popo": popo, "how": "persona"})]

    def do_unflip(self, queue: int, position: int) -> list[Event]:
        p = self._need_persona(queue, position)
        if not p["flipped"]:
            raise IllegalCommand("refusal.not-flipped", rule="not-flipped", game=GAME,
                                 place=self._place_word(queue, position - 1))
        p["flipped"] = False
        return [self._event("correction", {**self._of(p, queue, position - 1),
                                           "how": "unflip"})]

    def do_note(self, text: str) -> list[Event]:
        return [self._event("note", {"text": text})]
