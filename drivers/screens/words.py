"""The screens' own short words, in each of the table's languages.

A game's words (its cards, colours, prompts) come from the core's
sentences (:func:`companion.core.text.say`); what is here is only what the
OLED alone says: a few words of layout ("next", "PIN", "OK to confirm").
A word missing in a language falls back to English.
"""

from __future__ import annotations

from typing import Any

from companion.core.text import DEFAULT_LANGUAGE, LANGUAGES, say

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "next": "next {threshold}",
        "all-passed": "all passed",
        "respite": "Respite: d6",
        "end-rolls": "End: 2d6",
        "game-over": "Game over",
        "ok-to-confirm": "OK to confirm",
        "pin": "PIN",
        "join-pin": "Join: PIN",
        "scan-to": "Scan to",
        "join": "join",
        "home-title": "Tabletop Companion",
        "home-keys": "OK: new game  UP: QR",
        "home-keys-no-panel": "No game: press OK",
        "off": "Companion is off",
        "wifi": "Wi-Fi",
        "password": "Password",
        "ok-panel": "OK: panel",
        "total": "total {total}",
        "constipated": "C",
        "dead": "dead",
        "nothing-here": "(nothing here)",
        "check": "Check",
        "sure": "Sure?",
        "die-range": "{die}: 1 to {high}",
    },
    "fr": {
        "next": "puis {threshold}",
        "all-passed": "tous passés",
        "respite": "Répit : d6",
        "end-rolls": "Fin : 2d6",
        "game-over": "Partie finie",
        "ok-to-confirm": "OK pour valider",
        "pin": "PIN",
        "join-pin": "Rejoindre : PIN",
        "scan-to": "Scanner pour",
        "join": "rejoindre",
        "home-title": "Tabletop Companion",
        "home-keys": "OK : partie  HAUT : QR",
        "home-keys-no-panel": "Pas de partie : OK",
        "off": "Companion éteint",
        "wifi": "Wi-Fi",
        "password": "Mot de passe",
        "ok-panel": "OK : panneau",
        "total": "total {total}",
        "constipated": "C",
        "dead": "mort",
        "nothing-here": "(rien ici)",
        "check": "Vérifier",
        "sure": "Sûr ?",
        "die-range": "{die} : 1 à {high}",
    },
    "it": {
        "next": "poi {threshold}",
        "all-passed": "tutte passate",
        "respite": "Tregua: d6",
        "end-rolls": "Fine: 2d6",
        "game-over": "Partita finita",
        "ok-to-confirm": "OK per confermare",
        "pin": "PIN",
        "join-pin": "Entra: PIN",
        "scan-to": "Inquadra per",
        "join": "entrare",
        "home-title": "Tabletop Companion",
        "home-keys": "OK: partita  SU: QR",
        "home-keys-no-panel": "Nessuna partita: OK",
        "off": "Companion spento",
        "wifi": "Wi-Fi",
        "password": "Password",
        "ok-panel": "OK: pannello",
        "total": "totale {total}",
        "constipated": "C",
        "dead": "morto",
        "nothing-here": "(niente qui)",
        "check": "Controlla",
        "sure": "Sicuro?",
        "die-range": "{die}: da 1 a {high}",
    },
}


def word(key: str, lang: str = DEFAULT_LANGUAGE, **fields: Any) -> str:
    """The screen's word for ``key`` in ``lang`` (English when missing)."""
    phrases = WORDS.get(lang if lang in LANGUAGES else DEFAULT_LANGUAGE, {})
    found = phrases.get(key) or WORDS[DEFAULT_LANGUAGE][key]
    return found.format(**fields) if fields else found


def game_word(key: str, lang: str, game: str, default: str) -> str:
    """A game's word from the core's sentences (``card.spicy``...), or
    ``default`` when the game has none in any language."""
    return say(key, lang, game=game, default=default)
