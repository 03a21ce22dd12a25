"""Light tracking: a scorekeeper, not a referee.

For tables that keep the queues on the table and want the companion only
for the tokens: the reserves, five pipì becoming a popò, elimination, the
Decompression rolls, what each player takes at the cleanup (one entry per
player), the end and its final count (one entry per player still queuing),
the score and the tie-break.  There are no queues, no Personas and no
reveals; a turn is one tap (its end), or a decompression and its die.

A player reaching the bathroom says so (``reached``): during a turn, through
a card, the rest of the round is the final turns; at the cleanup, as the
queues move up, the game ends once the cleanup's tokens are taken.
"""

from __future__ import annotations

from ...engine import Event
from ...errors import IllegalCommand
from ...text import Word
from .model import Phase
from .rounds import Rounds
from .sentences import GAME


class LightTracking(Rounds):
    """``do_*`` for the commands only light tracking asks for."""

    def _light_end_round(self, events: list[Event]) -> None:
        """The last turn of a round is over: the cleanup's entries, or the
        final count after the final turns."""
        if self.final_round:
            self._light_count(events)
            return
        self.phase = Phase.CLEANUP
        self.step = ""
        self.pending = self.live_clockwise(self.first_player)
        events.append(self._event("phase", {"phase": Phase.CLEANUP, "round": self.round}))

    def _light_count(self, events: list[Event]) -> None:
        self.phase = Phase.COUNT
        self.step = ""
        self.pending = [s for s in self.live_clockwise(self.first_player)
                        if s not in self.arrived]
        events.append(self._event("phase", {"phase": Phase.COUNT, "how": "light"}))
        if not self.pending:
            self._decide(self.live_seats(), events)

    def _need_pending(self, seat: int, key: str) -> None:
        """Refuse a second entry (``key``: the refusal that says which)."""
        if seat not in self.pending:
            waiting: str | Word = (", ".join(self.players[s] for s in self.pending)
                                   or Word("board.nobody"))
            raise IllegalCommand(key, rule="already-entered", game=GAME,
                                 player=self.players[seat], waiting=waiting)

    def do_bathroom_tokens(self, player: int, pipi: int, popo: int) -> list[Event]:
        """At the cleanup, the tokens a player takes from their bathroom."""
        self._need_pending(player, "refusal.already-entered.tokens")
        events: list[Event] = []
        self.pending.remove(player)
        self._change_reserve(player, pipi, popo, events, "cleanup")
        if len(self.live_seats()) <= 1:
            self._last_standing(events)
            return events
        self.pending = [s for s in self.pending if not self.reserves[s]["eliminated"]]
        if not self.pending:
            self._light_after_cleanup(events)
        return events

    def _light_after_cleanup(self, events: list[Event]) -> None:
        if self.arrived:
            self._light_count(events)
            return
        self.first_player = self.live_clockwise(self.first_player + 1)[0]
        events.append(self._event("first-player", {**self._who(self.first_player),
                                                   "first_player": self.first_player}))
        self._start_round(events)

    def do_count_tokens(self, player: int, pipi: int, popo: int) -> list[Event]:
        """At the final count, the tokens between a player and the door."""
        self._need_pending(player, "refusal.already-entered.count")
        events: list[Event] = []
        self.pending.remove(player)
        self._change_reserve(player, pipi, popo, events, "count-light")
        self.pending = [s for s in self.pending if not self.reserves[s]["eliminated"]]
        if not self.pending:
            self._decide(self.live_seats(), events)
        return events

    def do_reached(self, player: int) -> list[Event]:
        """A player reaches the bathroom: through a card during a turn (the
        rest of the round is the final turns), or as the queues move up at
        the cleanup (the game ends once its tokens are taken)."""
        self._need_live(player)
        if player in self.arrived:
            raise IllegalCommand("refusal.already-arrived", rule="already-arrived", game=GAME,
                                 player=self.players[player])
        self.arrived.append(player)
        if self.phase == Phase.CLEANUP:
            return [self._event("reached", {**self._who(player), "how": "cleanup"},
                                alert=True)]
        how = "too" if self.final_round else "turn"
        self.final_round = True
        return [self._event("reached", {**self._who(player), "how": how}, alert=True)]
