"""Reserves and the end of the game: tokens taken and discarded, five pipì
becoming a popò, elimination at the popò limit, the Decompression roll, the
final count, the tie-break and the result."""

from __future__ import annotations

from typing import Any

from ...engine import Event
from .cards import PIPI_PER_POPO, POPO_LIMIT, POPO_LIMIT_TWO_PLAYERS, RED_DIE
from .model import Phase
from .places import Places
from .queues import is_player, tokens_ahead


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
        total: int = r["pipi"] + PIPI_PER_POPO * r["popo"]
        return total

    # -- reserves --------------------------------------------------------------

    def _change_reserve(self, seat: int, pipi: int, popo: int, events: list[Event],
                        how: str, **data: Any) -> None:
        """Tokens into (or out of) a reserve; ``how`` and ``data`` say why,
        as the event's sentence tells it."""
        r = self.reserves[seat]
        had = r["popo"]
        r["pipi"] = max(0, r["pipi"] + pipi)
        r["popo"] = max(0, r["popo"] + popo)
        converted = 0
        while r["pipi"] >= PIPI_PER_POPO:
            r["pipi"] -= PIPI_PER_POPO
            r["popo"] += 1
            converted += 1
        events.append(self._event("reserve-changed", {
            **self._who(seat), "took_pipi": pipi, "took_popo": popo, "reserve_pipi": r["pipi"],
            "reserve_popo": r["popo"], "how": how, **data}))
        if converted:
            events.append(self._event("popo-converted", {
                **self._who(seat), "count": converted,
                **({"how": "many"} if converted > 1 else {})}))
        if r["popo"] >= self.popo_limit:
            if self.keep_playing:
                if had < self.popo_limit:
                    events.append(self._event("limit-reached", {
                        **self._who(seat), "limit": self.popo_limit}, alert=True))
            else:
                self._eliminate(seat, events)

    def _eliminate(self, seat: int, events: list[Event]) -> None:
        where = self.locate(seat)
        self.reserves[seat]["eliminated"] = True
        data: dict[str, Any] = {**self._who(seat), "limit": self.popo_limit, "queue": None}
        if where:
            queue = self.queues[where[0] - 1]
            personas = [slot for slot in queue["slots"] if not is_player(slot)]
            count = len(personas)
            self._discard(personas)
            queue.update({"door": False, "slots": [], "permanents": []})
            data.update(queue=where[0], count_personas=count, how="queue")
        if seat in self.tie_pending:
            self.tie_pending.remove(seat)
        if seat in self.pending:
            self.pending.remove(seat)
        events.append(self._event("player-eliminated", data, alert=True))

    def _decompress(self, seat: int, value: int, concentration: bool,
                    events: list[Event]) -> None:
        """A Decompression roll: pipì discarded, or on the top face a popò
        taken (unless with Concentration, when every pipì goes)."""
        r = self.reserves[seat]
        who = self._who(seat)
        if value < RED_DIE.sides or concentration:
            gone = r["pipi"] if value == RED_DIE.sides else min(value, r["pipi"])
            how = "concentration" if value == RED_DIE.sides else "pipi"
            events.append(self._event("decompressed", {**who, "roll": value, "gone": gone,
                                                       "how": how}))
            if gone:
                self._change_reserve(seat, -gone, 0, events, "discards", gone=gone)
        else:
            events.append(self._event("decompressed", {**who, "roll": value, "how": "popo"}))
            self._change_reserve(seat, 0, 1, events, "popo")

    # -- the end -------------------------------------------------------------

    def _start_count(self, events: list[Event]) -> None:
        self.phase = Phase.COUNT
        self.step = ""
        self.effects = []
        pending = self._pending_reveals()
        if pending:
            events.append(self._event("phase", {"phase": Phase.COUNT, "how": "reveal",
                                                "count": len(pending)}))
            return
        self._final_count(events)

    def _final_count(self, events: list[Event]) -> None:
        for seat in self.live_seats():
            q, position = self._where(seat)
            if position == 1:
                continue
            queue = self.queues[q - 1]
            pipi, popo = tokens_ahead(queue, position - 1)
            how = "count-cards" if queue["permanents"] else "count"
            self._change_reserve(seat, pipi, popo, events, how, queue=q,
                                 count_personas=position - 1)
        self._decide(self.live_seats(), events)

    def _decide(self, contenders: list[int], events: list[Event]) -> None:
        alive = [s for s in contenders if not self.reserves[s]["eliminated"]]
        if not alive:
            self._finish([], {"how": "no-winner"}, events)
            return
        best = min(self.score(s) for s in alive)
        tied = [s for s in alive if self.score(s) == best]
        if len(tied) == 1:
            self._finish(tied, {**self._who(tied[0]), "score": best, "how": "wins"}, events)
            return
        self.phase = Phase.TIE_BREAK
        self.tie_group = tied
        # Rolled in seating order (the setup's, from the game's first player).
        self.tie_pending = list(tied)
        events.append(self._event("tie-break", {
            "tied": tied, "names": [self.players[s] for s in tied], "score": best},
            alert=True))

    def _last_standing(self, events: list[Event]) -> None:
        live = self.live_seats()
        if live:
            said: dict[str, Any] = {**self._who(live[0]), "how": "last"}
        else:
            said = {"how": "nobody"}
        self._finish(live, said, events)

    def _finish(self, winners: list[int], said: dict[str, Any], events: list[Event]) -> None:
        self.phase = Phase.OVER
        self.step = ""
        self.tie_pending = []
        self.winners = list(winners)
        self.scores = [None if r["eliminated"] else self.score(s)
                       for s, r in enumerate(self.reserves)]
        event = self._event("game-over", {**said, "winners": self.winners,
                                          "scores": self.scores}, alert=True)
        self.outcome = event.message
        events.append(event)
