"""Reserves and the end of the game: tokens taken and discarded, five pipì
becoming a popò, elimination at the popò limit, the Decompression roll, the
final count, the tie-break and the result."""

from __future__ import annotations

from ...engine import Event
from .cards import PIPI_PER_POPO, POPO_LIMIT, POPO_LIMIT_TWO_PLAYERS, RED_DIE
from .places import Places
from .queues import is_player, join, personas_text, tokens_ahead, tokens_text


class Scoring(Places):
    """What changes a reserve, and how the game is decided."""

    @property
    def popo_limit(self) -> int:
        return POPO_LIMIT_TWO_PLAYERS if len(self.players) == 2 else POPO_LIMIT

    @property
    def keep_playing(self) -> bool:
        """Reaching the popò limit no longer eliminates (the rulebook's tip
        for tables that dislike leaving the game early)."""
        return "keep-playing" in self.setup.variants

    def score(self, seat: int) -> int:
        r = self.reserves[seat]
        return r["pipi"] + PIPI_PER_POPO * r["popo"]

    # -- reserves --------------------------------------------------------------

    def _change_reserve(self, seat: int, pipi: int, popo: int, events: list[Event],
                        why: str) -> None:
        r = self.reserves[seat]
        name = self.players[seat]
        had = r["popo"]
        r["pipi"] = max(0, r["pipi"] + pipi)
        r["popo"] = max(0, r["popo"] + popo)
        converted = 0
        while r["pipi"] >= PIPI_PER_POPO:
            r["pipi"] -= PIPI_PER_POPO
            r["popo"] += 1
            converted += 1
        now = tokens_text(r["pipi"], r["popo"], zero="empty")
        events.append(Event("reserve-changed", f"{name} {why}: reserve {now}",
                            {"player": seat, "pipi": r["pipi"], "popo": r["popo"]}))
        if converted:
            times = "" if converted == 1 else f" ({converted} times)"
            events.append(Event("popo-converted", f"Five of {name}'s pipì become one "
                                                  f"popò{times}",
                                {"player": seat, "count": converted}))
        if r["popo"] >= self.popo_limit:
            if self.keep_playing:
                if had < self.popo_limit:
                    events.append(Event("limit-reached", f"{name} reaches {self.popo_limit} "
                                                         f"popò and keeps playing",
                                        {"player": seat, "popo": r["popo"]}, alert=True))
            else:
                self._eliminate(seat, events)

    def _eliminate(self, seat: int, events: list[Event]) -> None:
        where = self.locate(seat)
        self.reserves[seat]["eliminated"] = True
        name = self.players[seat]
        closed = ""
        if where:
            queue = self.queues[where[0] - 1]
            count = sum(1 for slot in queue["slots"] if not is_player(slot))
            self.persona_discard += count
            queue.update(door=False, slots=[], permanents=[])
            closed = (f": queue {where[0]} is closed, its door removed and its "
                      f"{personas_text(count)} discarded")
        if seat in self.tie_pending:
            self.tie_pending.remove(seat)
        events.append(Event("player-eliminated", f"{name} has {self.popo_limit} popò and is "
                                                 f"eliminated{closed}",
                            {"player": seat, "queue": where[0] if where else None},
                            alert=True))

    def _decompress(self, seat: int, value: int, concentration: bool,
                    events: list[Event]) -> None:
        """A Decompression roll: pipì discarded, or on the top face a popò
        taken (unless with Concentration, when every pipì goes)."""
        r = self.reserves[seat]
        name = self.players[seat]
        if value < RED_DIE.sides or concentration:
            gone = r["pipi"] if value == RED_DIE.sides else min(value, r["pipi"])
            how = " with Concentration" if value == RED_DIE.sides else ""
            events.append(Event("decompressed", f"{name} rolls {value}{how}: discards "
                                                f"{gone} pipì",
                                {"player": seat, "roll": value, "pipi": -gone}))
            if gone:
                self._change_reserve(seat, -gone, 0, events, f"discards {gone} pipì")
        else:
            events.append(Event("decompressed", f"{name} rolls {value}: takes one popò",
                                {"player": seat, "roll": value, "popo": 1}))
            self._change_reserve(seat, 0, 1, events, "takes one popò")

    # -- the end -------------------------------------------------------------

    def _start_count(self, events: list[Event]) -> None:
        self.phase = "count"
        self.step = ""
        self.effects = []
        pending = self._pending_reveals()
        if pending:
            events.append(Event("phase", f"Final count: reveal the {len(pending)} face-down "
                                         f"Personas between the players and the doors",
                                {"phase": "count"}))
            return
        self._final_count(events)

    def _final_count(self, events: list[Event]) -> None:
        for seat in self.live_seats():
            q, position = self.locate(seat)
            if position == 1:
                continue
            queue = self.queues[q - 1]
            pipi, popo = tokens_ahead(queue, position - 1)
            with_cards = " and the permanent cards" if queue["permanents"] else ""
            self._change_reserve(seat, pipi, popo, events,
                                 f"takes {tokens_text(pipi, popo)} for the "
                                 f"{personas_text(position - 1)} between them and the door of "
                                 f"queue {q}{with_cards}")
        self._decide(self.live_seats(), events)

    def _decide(self, contenders: list[int], events: list[Event]) -> None:
        alive = [s for s in contenders if not self.reserves[s]["eliminated"]]
        if not alive:
            self._finish([], "Every player in contention was eliminated: the game has no "
                             "winner", events)
            return
        best = min(self.score(s) for s in alive)
        tied = [s for s in alive if self.score(s) == best]
        if len(tied) == 1:
            self._finish(tied, f"{self.players[tied[0]]} wins with {best} "
                               f"(pipì + 5 × popò)", events)
            return
        self.phase = "tie-break"
        self.tie_group = tied
        self.tie_pending = list(tied)
        events.append(Event("tie-break", f"{join([self.players[s] for s in tied])} are tied at "
                                         f"{best}: each makes a Decompression roll (red die)",
                            {"tied": tied, "score": best}, alert=True))

    def _last_standing(self, events: list[Event]) -> None:
        live = self.live_seats()
        if live:
            message = f"{self.players[live[0]]} is the last player standing and wins"
        else:
            message = "Every player was eliminated: the game has no winner"
        self._finish(live, message, events)

    def _finish(self, winners: list[int], message: str, events: list[Event]) -> None:
        self.phase = "over"
        self.step = ""
        self.tie_pending = []
        self.winners = list(winners)
        self.scores = [None if r["eliminated"] else self.score(s)
                       for s, r in enumerate(self.reserves)]
        self.outcome = message
        events.append(Event("game-over", message, {"winners": self.winners,
                                                   "scores": self.scores}, alert=True))
