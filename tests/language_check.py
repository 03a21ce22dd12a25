"""What a page in a language may not show: an English word (in French or
Italian) that is not a name printed on the games' cards and boxes, a raw text
key (``dice.source.pixels``, ``call-of-nature:event.turn``), a placeholder
left unfilled (``{player}``, ``{n, plural, ...}``).

The English vocabulary is read from the companion's own English texts (the
pages', every game's and the engines' English sentences as the crawl meets
them are covered by the words they share with these), less every word the
other language's texts use too: a word is English when it is in an English
text and in no French (or Italian) one.  New texts extend both sides by
themselves.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from companion.core.games import available
from companion.core.text import COMMON, game_phrases

I18N = Path(__file__).resolve().parent.parent / "web" / "static" / "i18n"

# Names printed on the games' boxes and cards, the buttons' and the
# standards' names: the same on a French or Italian table.
PRINTED = {
    "ohshit", "call", "nature", "bathroom", "rush", "wi-fi", "wifi", "ok", "pin", "qr", "csv",
    "json", "roll", "pixels", "lost", "young", "man", "english", "français", "italiano",
    "persona", "personas", "suppositoire", "toilette", "suspense", "tabletop", "companion",
    "bg", "stats", "bgg", "d6", "ssid", "wpa", "ip", "http", "https", "url",
}
# English words too short or too common to come up from the texts alone.
ENGLISH = {"the", "and", "you", "your", "with", "from", "plays", "rolls", "wins", "turn",
           "player", "players", "game", "games", "card", "cards", "nobody", "keeps",
           "loses", "bravo", "saved", "dignity", "kinds", "pressure", "cleanup"}
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]+(?:['’-][A-Za-zÀ-ÖØ-öø-ÿ]+)*")
PLACEHOLDER = re.compile(r"\{\s*\w+\s*(?:[,:][^{}]*)?\}|\{\s*\w+\s*,\s*(?:plural|select)\b")


def _words(text: str) -> set[str]:
    """The words of a template, not its placeholders' names nor its
    choices' (``{n, plural, one {# game} other {# games}}``: game, games)."""
    text = re.sub(r"\{\s*\w+\s*(?::[^{}]*)?\}", " ", text)
    text = re.sub(r"\{\s*\w+\s*,\s*(?:plural|select)\s*,", " ", text)
    text = re.sub(r"(?:=?[\w.-]+)\s*\{", " ", text)
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÖØ-öø-ÿ]+", text)}


def _texts(lang: str) -> list[str]:
    out = list(json.loads((I18N / f"{lang}.json").read_text()).values())
    out += COMMON.get(lang, {}).values()
    for game in available():
        out += game_phrases(game.key).get(lang, {}).values()
        if lang == "en":
            described = game.describe()
            out += list(described["variants"].values())
            out += [c["help"] for c in described["commands"]]
    return out


@cache
def vocabulary(lang: str) -> frozenset[str]:
    """The words the companion's texts in ``lang`` use."""
    return frozenset(w for text in _texts(lang) for w in _words(text))


@cache
def english_only(lang: str) -> frozenset[str]:
    """Words that are English in a ``lang`` page: in an English text and in
    none of ``lang``'s, names printed on the games left out."""
    words = (vocabulary("en") | ENGLISH) - vocabulary(lang) - PRINTED
    return frozenset(w for w in words if len(w) >= 3)


@cache
def key_prefixes() -> frozenset[str]:
    """The first parts of the texts' keys (``dice``, ``event``, ``stats``)
    and the games' keys, which start a key shown raw."""
    keys = set(json.loads((I18N / "en.json").read_text()))
    keys |= set(COMMON["en"])
    games = set()
    for game in available():
        games.add(game.key)
        for lang in ("en", "fr", "it"):
            keys |= set(game_phrases(game.key).get(lang, {}))
    return frozenset({k.split(".")[0] for k in keys if "." in k} | games)


def raw_keys(line: str) -> list[str]:
    """Text keys and unfilled placeholders shown as they are in ``line``."""
    found = [m.group(0) for m in PLACEHOLDER.finditer(line)]
    for match in re.finditer(r"(?<![\w/.:@-])([a-z][a-z0-9_-]*)([.:][a-z0-9_-]+)+", line):
        token = match.group(0)
        first = re.split(r"[.:]", token)[0]
        if first in key_prefixes() and ("." in token or ":" in token):
            found.append(token)
    return found


def english_words(line: str, lang: str) -> list[str]:
    """The English words of ``line`` on a ``lang`` page."""
    english = english_only(lang)
    return [w for w in WORD.findall(line) if w.lower() in english]


def problems(lines: list[str], lang: str, names: set[str] = frozenset()) -> list[str]:
    """Each line with a raw key, or (in French and Italian) an English word
    that is not one of ``names`` (the players'), said with what is wrong."""
    out = []
    for line in lines:
        keys = raw_keys(line)
        if keys:
            out.append(f"raw key {keys}: {line}")
        if lang != "en":
            english = [w for w in english_words(line, lang) if w not in names]
            if english:
                out.append(f"English {english}: {line}")
    return out
