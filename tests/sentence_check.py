"""What a sentence the companion says must pass, in each language.

- **Spelling**, against Debian's hunspell dictionaries (``hunspell-en-us``,
  ``hunspell-fr``, ``hunspell-it``) read by ``spylls``, with a short
  reviewed list of names printed on the games and game words
  (:data:`ALLOWED`).  Each distinct word is looked up once.
- **Grammar**, as a small table of each language's contractions and
  elisions (:data:`RULES`): Italian "di la" (della), French "de le" (du),
  "que il" (qu'il), a missing "ne" before "aucun", English "a" before a
  vowel sound.  Each rule carries the example it must catch.
- **Leftovers**: no placeholder left unfilled, no raw text key, no machine
  id, no "null", "undefined", "NaN" or "[object Object]".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable

from tests.language_check import raw_keys

HUNSPELL = Path("/usr/share/hunspell")
DICTIONARIES = {"en": "en_GB", "fr": "fr_FR", "it": "it_IT"}
# The Debian packages that hold them (scripts/test installs them).
PACKAGES = {"en": "hunspell-en-gb", "fr": "hunspell-fr", "it": "hunspell-it"}

# The players' names the tests give.
PLAYERS = {"Ana", "Ben", "Cy", "Dee", "Eli", "Fay"}

# Names printed on the games' boxes and cards, the table's buttons and the
# standards, and the games' own words: the same in every language, so no
# dictionary has them.  Bathroom Rush's cards are printed in Italian, and a
# French table names them as printed.  Reviewed: add a word only when it is
# printed on a game or is the name of a thing, never to hide a misspelling.
_PRINTED = {
    # The games and their makers' words.
    "Call", "of", "Nature", "CHIPATSU", "OhShit", "Bathroom", "Rush", "Tabletop", "Companion",
    "pipì", "popò", "Pipì", "Popò", "Persona", "Personas", "Unicorn", "Unicorns",
    # The languages' own names on the language switch.
    "EN", "FR", "IT", "English", "Français", "Italiano",
    # Standards and devices.
    "config",
    "Wi", "Fi", "Wi-Fi", "PIN", "QR", "SSID", "WPA", "CSV", "JSON", "MQTT", "BGStats", "BG",
    "Stats", "Pixels", "OLED", "d6", "d4", "2d6", "GPIO", "BLE", "mDNS", "URL", "IP", "ok", "OK",
    # Call of Nature's cry when an End of Game roll costs Mastery.
    "Ohhh",
}
_ITALIAN_CARDS = {
    # Bathroom Rush's cards as printed (in Italian).
    "Anziano", "Mamma", "con", "pupo", "Avido", "lettore", "Distratto", "Imprenditore", "Infame",
    "Ragazzo", "sperduto", "Cedi", "il", "posto", "Astuzia", "Cambia", "fila", "Addetto",
    "alle", "pulizie", "Bottiglietta", "vuota", "Concentrazione", "Scambio", "Starnuto",
    "Urlo", "disperato", "Difesa", "bagno",
}
ALLOWED: dict[str, frozenset[str]] = {
    "en": frozenset(_PRINTED | {
        # Call of Nature's and OhShit!'s printed words, English by origin.
        "Respite", "Respites", "U-TURN", "TURN", "Frosty", "Fruity", "Grassy", "Spicy", "Sloppy",
        "Décharge", "Toilette", "Suppositoire", "Constipation", "Constipations", "rulebook",
        # The command line's names of OhShit!'s action cards; Bathroom Rush's phase.
        "suppositoire", "toilette", "cleanup", "Cleanup",
    }),
    "fr": frozenset(_PRINTED | _ITALIAN_CARDS | {
        # OhShit!'s French rulebook prints these; Call of Nature's cards too.
        "Décharge", "Drain", "Toilette", "Suppositoire", "Constipation", "U-TURN",
        "Frosty", "Fruity", "Grassy", "Spicy", "Sloppy",
    }),
    "it": frozenset(_PRINTED | _ITALIAN_CARDS | {
        # The game's tokens (the dictionary lacks the word).
        "segnalino", "segnalini", "Segnalino", "Segnalini",
        "Décharge", "Drain", "Toilette", "Suppositoire", "U-TURN",
        "Frosty", "Fruity", "Grassy", "Spicy", "Sloppy",
    }),
}

# Words that end in an apostrophe and stand before the next one.
_ELIDED = {
    "fr": {"d", "l", "qu", "n", "s", "j", "c", "m", "t", "jusqu", "lorsqu", "puisqu"},
    "it": {"l", "d", "un", "dell", "all", "dall", "nell", "sull", "quest", "quell", "c", "s",
           "dev", "po"},
    "en": set(),
}
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*(?:-[^\W\d_]+)*")


@cache
def dictionary(lang: str):
    """The hunspell dictionary of ``lang`` (loaded once: it takes seconds)."""
    from spylls.hunspell import Dictionary

    return Dictionary.from_files(str(HUNSPELL / DICTIONARIES[lang]))


def missing_dictionaries() -> list[str]:
    return [PACKAGES[lang] for lang, name in DICTIONARIES.items()
            if not (HUNSPELL / f"{name}.dic").exists()]


def _known(word: str, lang: str, cache_: dict[str, bool]) -> bool:
    found = cache_.get(word)
    if found is None:
        found = cache_[word] = _spelled(word, lang)
    return found


@cache
def _abbreviations(lang: str) -> frozenset[str]:
    """CLDR's short day and month names in ``lang`` ("mar.", "nov"), as
    the dates are written."""
    from babel import Locale

    locale = Locale.parse(lang)
    names = [*locale.days["format"]["abbreviated"].values(),
             *locale.months["format"]["abbreviated"].values()]
    return frozenset(word for name in names for word in WORD.findall(name))


def _spelled(word: str, lang: str) -> bool:
    if word in ALLOWED[lang] or word in PLAYERS or word in _abbreviations(lang):
        return True
    looked = dictionary(lang).lookup
    if looked(word):
        return True
    word = word.replace("’", "'")
    if looked(word):
        return True
    if "'" in word:
        head, _, tail = word.partition("'")
        if head.lower() in _ELIDED[lang]:
            return _spelled(tail, lang)
    if lang == "en" and word.endswith("'s"):
        return _spelled(word[:-2], lang)
    if "-" in word:
        return all(_spelled(part, lang) for part in word.split("-") if part)
    return False


class Speller:
    """Looks each distinct word of ``lang`` up once."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.seen: dict[str, bool] = {}

    def wrong(self, sentence: str) -> list[str]:
        # A config file's section ("[voice]") is written as the file has it.
        sentence = re.sub(r"\[[a-z_.]+\]", " ", sentence)
        return [w for w in WORD.findall(sentence) if not _known(w, self.lang, self.seen)]


@dataclass(frozen=True)
class Rule:
    """A contraction, an elision or a negation a language makes: a
    sentence that ``breaks`` finds something in breaks it; ``planted`` is
    an example it must catch, ``fine`` one it must let pass."""

    lang: str
    name: str
    breaks: Callable[[str], bool]
    planted: str
    fine: str

    def broken(self, sentence: str) -> bool:
        return self.breaks(sentence)


def _pattern(text: str) -> Callable[[str], bool]:
    found = re.compile(text)
    return lambda sentence: found.search(sentence) is not None


_CLAUSE = re.compile(r"[.:;·,()?!«»\n]")


def _negation(negatives: str, particles: str, free: str) -> Callable[[str], bool]:
    """A clause where a word of ``negatives`` follows a verb without a
    word of ``particles`` before it ("Ben a aucune carte"); a negative
    word that starts its clause or follows a word of ``free`` (a
    preposition, a conjunction: "à aucun moment", "quindi nessuna può")
    needs none."""
    negative = re.compile(rf"(?i)^(?:{negatives})$")
    particle = re.compile(rf"(?i)^(?:{particles})$")
    unbound = re.compile(rf"(?i)^(?:{free})$")

    def breaks(sentence: str) -> bool:
        for clause in _CLAUSE.split(sentence):
            words = re.findall(r"[^\W\d_]+['’]?|\d+", clause)
            for i, word in enumerate(words):
                if negative.match(word) and i > 0 and not unbound.match(words[i - 1]) \
                        and not any(particle.match(w) for w in words[:i]):
                    return True
        return False

    return breaks


_VOWEL = "aeiouyàâäéèêëîïôöùûüæœAEIOUYÀÂÄÉÈÊËÎÏÔÖÙÛÜ"
RULES: tuple[Rule, ...] = (
    # Italian: a preposition and an article are one word.
    Rule("it", "articulated preposition",
         _pattern(r"(?i)\b(?:di|a|da|in|su) (?:il|lo|la|i|gli|le|l['’])(?=\W|$)"),
         "L'effetto di la Persona", "L'effetto della Persona"),
    Rule("it", "negation needs non",
         _negation("nessun|nessuno|nessuna|niente|mai", "non|né",
                   "a|di|da|in|per|senza|e|o|con|su|che|più|ancora|quasi|quindi|ma|se|"
                   "perché|poiché|quando|dove|così|mentre|è|ora|oggi|qui|adesso"),
         "Chiara scarta nessun segnalino", "Chiara non scarta nessun segnalino"),
    # French: "de le" is "du", "à les" is "aux"...
    Rule("fr", "contracted article",
         _pattern(r"(?i)\b(?:de|à) (?:le|les)\b(?! (?:[a-zé]+er|[a-zé]+ir|[a-zé]+re)\b)"),
         "La pile de le joueur", "La pile du joueur"),
    Rule("fr", "elision",
         _pattern(r"\b(?:[Dd]e|[Qq]ue|[Ll]e|[Ll]a|[Nn]e|[Jj]e|[Ss]e|[Mm]e|[Tt]e)"
                  rf" (?=[{_VOWEL}])(?!un\b|une\b|onze\b|ouate\b|yaourt\b)"),
         "contre le Addetto alle pulizie", "contre l'Addetto alle pulizie"),
    Rule("fr", "elision of si il", _pattern(r"\b[Ss]i ils?\b"), "si il joue", "s'il joue"),
    Rule("fr", "negation needs ne",
         _negation("aucun|aucune|jamais|rien|personne", "ne|n'|n’|ni",
                   "à|de|d'|d’|pour|sans|en|et|ou|par|sur|avec|que|qu'|qu’|plus|encore|"
                   "presque|donc|mais|si|s'|s’|quand|où|la|une"),
         "Ben a aucune carte", "Ben n'a aucune carte"),
    Rule("fr", "negation needs ne (plus)",
         _pattern(r"^(?:(?!\b(?:[Nn]e\b|[Nn]['’])).)*?\b(?:a|ont|est|sont|peut|joue|prend|reste)"
                  r" plus (?:de|d['’]|aucun|rien)\b"),
         "Ben a plus de cartes", "Ben n'a plus de cartes"),
    # English: "a" before a vowel sound, "an" before a consonant.
    Rule("en", "a or an",
         _pattern(r"\b[Aa] (?!(?i:one\b|one-|once\b|uni|use|usu|euro))(?=[aeiouAEIOU]|hour\b"
                  r"|honest|8\b|11\b|18\b)|\b[Aa]n (?!h(?:our|onest|onour|eir))"
                  r"(?=[bcdfghjklmnpqrstvwxz])"),
         "a Action card", "an Action card"),
)

_LEFTOVER = re.compile(r"\b(?:null|undefined|NaN|None)\b|\[object \w+\]")
# A machine's id shown as it is ("colour:yellow", "name:Bob", "face-down").
_MACHINE = re.compile(r"(?<![\w/.:@-])(?:colour|name|card|seat|queue|kind):[\w-]+")


def leftovers(sentence: str) -> list[str]:
    """Placeholders, raw keys, machine ids and programs' words left in."""
    return (raw_keys(sentence) + _LEFTOVER.findall(sentence) + _MACHINE.findall(sentence))


def broken_rules(sentence: str, lang: str) -> list[str]:
    return [rule.name for rule in RULES if rule.lang == lang and rule.broken(sentence)]


def problems(sentences, lang: str) -> dict[str, list[str]]:
    """Each sentence of ``lang`` that fails a check, with what fails."""
    speller = Speller(lang)
    found: dict[str, list[str]] = {}
    for sentence in sentences:
        wrong = [f"spelling {w!r}" for w in speller.wrong(sentence)]
        wrong += [f"rule: {name}" for name in broken_rules(sentence, lang)]
        wrong += [f"left in: {left!r}" for left in leftovers(sentence)]
        if wrong:
            found[sentence] = wrong
    return found
