"""The New game section: a rematch of the game on screen with the same
players, variants and options, or a game of the box for the first few of
the menu's player names."""

from __future__ import annotations

from functools import partial
from typing import Any, Mapping, Sequence

from ..engine import Game
from ..errors import BadSetup, StaleVersion
from ..games import available
from .game import game_of
from .levels import Choice, Confirm, ListLevel
from .state import MenuState


class NewGameSection:
    def __init__(self, state: MenuState) -> None:
        self.state = state

    def choices(self) -> list[Choice]:
        return [Choice(self.state.t("new-game"), self.open)]

    def open(self) -> None:
        state = self.state
        choices = []
        if state.update is not None:
            choices.append(Choice(state.t("rematch-of", title=state.update.title),
                                  self._ask_rematch))
        for cls in available():
            choices.append(Choice(cls.title, partial(self._choose_players, cls)))
        state.push(ListLevel(state, state.t("new-game"), choices))

    def _ask_rematch(self) -> None:
        state = self.state
        update = state.shown()
        game = game_of(state.table)
        setup = game.setup if game is not None and game.key == update.game_key else None
        players = tuple(setup.players) if setup else tuple(update.players)
        variants = tuple(sorted(setup.variants)) if setup else ()
        options = dict(setup.options) if setup else {}
        state.push(Confirm(
            state, state.t("rematch"), state.t("rematch-ask", title=update.title,
                                               players=", ".join(players)),
            partial(self.start, update.game_key, players, variants, options)))

    def _choose_players(self, cls: type[Game]) -> None:
        state = self.state
        names = state.settings.player_names
        choices = []
        for count in range(cls.min_players, min(cls.max_players, len(names)) + 1):
            seated = names[:count]
            ask = Confirm(state, state.t("new-game"),
                          state.t("new-game-ask", title=cls.title, players=", ".join(seated)),
                          partial(self.start, cls.key, seated, (), {}))
            choices.append(Choice(f"{count}: {', '.join(seated)}", partial(state.push, ask)))
        state.push(ListLevel(state, state.t("players-of", title=cls.title), choices))

    def start(self, key: str, players: Sequence[str], variants: Sequence[str],
              options: Mapping[str, Any]) -> None:
        """Start the game against the state on screen; a refusal is shown in
        the table's language, a state changed meanwhile is shown again."""
        state = self.state
        state.clear()
        try:
            update = state.table.new_game(key, list(players), variants, options,
                                          expected_game=state.game_id,
                                          expected_version=state.version)
        except StaleVersion:
            state.refresh()
            state.say(state.t("changed"), state.t("changed-no-game"))
        except BadSetup as refused:
            state.say(state.t("new-game"), refused.say(state.language))
        else:
            state.adopt(update)
