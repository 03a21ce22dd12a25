"""The companion's messages as gettext catalogs, for translators' tools.

The runtime keeps its messages where the code reads them: the panel's in
``web/static/i18n/<lang>.json``, the table's in ``companion/core/text.py``
and ``companion/core/refusals.py``, each game's in its folder (``text.py``,
``refusals.py``, ``sentences.py``).  This module writes them as one gettext
catalog per domain and language, ``locale/<lang>/LC_MESSAGES/<domain>.po``
(and the English templates ``locale/<domain>.pot``), which Poedit, Weblate,
Lokalize or ``msgfmt --check`` open; a test keeps the catalogs and the
sources the same.  Each message's context (``msgctxt``) is its key, its
``msgid`` the English text, its ``msgstr`` the translation; plurals and
choices are written in ICU's message format inside the text
(``{n, plural, one {# game} other {# games}}``), with CLDR's categories.

    python -m companion.language.catalogs export   # the sources -> locale/*.po
    python -m companion.language.catalogs check    # exit 1 if they differ
    python -m companion.language.catalogs import   # translators' locale/*.po -> the sources

``import`` writes each changed translation back where the runtime reads it:
a JSON file keeps its order and format (a new key goes at its end), a
Python text has the string of its entry replaced.  A key a Python text does
not have yet is listed for a developer to add.

Babel is used here only, by the people who run these commands; the
companion itself never imports this module.
"""

from __future__ import annotations

import ast
import io
import json
import re
import string
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Mapping

from companion.core.games import available
from companion.core.refusals import ENGLISH_READS_OTHER_FIELDS
from companion.core.text import COMMON, LANGUAGES, game_phrases

ROOT = Path(__file__).resolve().parents[2]
LOCALE = "locale"
PANEL = Path("web/static/i18n")
TRANSLATED = tuple(lang for lang in LANGUAGES if lang != "en")
# Catalogs say when they were made; a fixed date keeps them the same from
# one export to the next.
_DATE = datetime(2026, 1, 1, tzinfo=UTC)
_CHOICE = re.compile(r"\{\s*(\w+)\s*,\s*(?:plural|select)\s*,")
_SIMPLE = re.compile(r"\{\s*(\w+)\s*(?::[^{}]*)?\}")


@dataclass(frozen=True)
class Domain:
    """A set of messages kept together: ``files`` are where its sources
    are (relative to the project), ``texts`` its messages by language."""

    name: str
    files: tuple[str, ...]
    texts: Mapping[str, Mapping[str, str]]
    # English for keys whose English the engines say themselves (a
    # command's help, a variant's description).
    english: Mapping[str, str]


def domains(root: Path = ROOT) -> list[Domain]:
    """Every domain: the panel's pages, the table's own words, each game."""
    panel = {lang: json.loads((root / PANEL / f"{lang}.json").read_text(encoding="utf-8"))
             for lang in LANGUAGES}
    out = [Domain("panel", tuple(str(PANEL / f"{lang}.json") for lang in LANGUAGES), panel, {}),
           Domain("companion", ("companion/core/text.py", "companion/core/refusals.py"),
                  COMMON, {})]
    for game in available():
        folder = Path("companion/core/games") / game.key.replace("-", "_")
        files = tuple(str(folder / name) for name in ("text.py", "refusals.py", "sentences.py",
                                                       "caller.py")
                      if (root / folder / name).exists())
        described = game.describe()
        english = {f"variant.{name}.help": text for name, text in described["variants"].items()}
        english |= {f"help.{c['name']}": c["help"] for c in described["commands"]}
        out.append(Domain(game.key, files, game_phrases(game.key), english))
    return out


def placeholders(template: str) -> set[str]:
    """The fields a template reads: ``{name}``, ``{name:+d}`` and the
    number or value of a choice (``{n, plural, ...}``)."""
    return set(_CHOICE.findall(template)) | set(_SIMPLE.findall(template))


def check_syntax(template: str) -> None:
    """Raise ``ValueError`` unless ``template`` is well formed: its braces
    balanced, its choices with an ``other``, its fields plain names."""
    from companion.core.text import fill

    fields = dict.fromkeys(placeholders(template), 1)
    fill(template, "en", fields)
    rest = _SIMPLE.sub("", _CHOICE.sub("", template))
    for _, field, _, _ in string.Formatter().parse(rest.replace("{", "{{").replace("}", "}}")):
        if field:
            raise ValueError(f"a field that is not a name in {template!r}")


def keys(domain: Domain) -> list[str]:
    """The domain's keys, in the order the English (then the others) has them."""
    seen: dict[str, None] = {}
    for lang in LANGUAGES:
        seen.update(dict.fromkeys(domain.texts.get(lang, {})))
    # Every variant's description is shown on the setup page, in every language.
    seen.update(dict.fromkeys(k for k in domain.english if k.startswith("variant.")))
    return list(seen)


def source_text(domain: Domain, key: str) -> str:
    """The English a translator reads for ``key``."""
    found = domain.texts.get("en", {}).get(key) or domain.english.get(key)
    if found:
        return found
    if key.startswith("command."):
        # A command the English pages name by its own name.
        return key.removeprefix("command.").replace("-", " ").capitalize()
    if key.startswith("event."):
        # An engine's own English sentence: the other languages show its shape.
        return f"[{key}] (English: the game's own sentence)"
    return f"[{key}]"


def catalog(domain: Domain, lang: str | None) -> Any:
    """The domain's gettext catalog in ``lang`` (``None``: the template)."""
    from babel.messages.catalog import Catalog

    made = Catalog(locale=lang, domain=domain.name, project="Tabletop Companion",
                   version="1", copyright_holder="Tabletop Companion", charset="utf-8",
                   creation_date=_DATE, revision_date=_DATE, fuzzy=False,
                   language_team=f"{lang or 'LANGUAGE'} <>", last_translator="<>")
    ordered = keys(domain)
    for key in ordered:
        english = source_text(domain, key)
        # gettext's tools check that a translation reads the English's fields.
        checked = (_SIMPLE.search(english) and not _CHOICE.search(english)
                   and key not in ENGLISH_READS_OTHER_FIELDS)
        flags = ["python-brace-format"] if checked else []
        translated = domain.texts.get(lang, {}).get(key, "") if lang else ""
        message = made.add(english, translated, context=key, flags=flags,
                           auto_comments=[", ".join(domain.files)] if key == ordered[0] else [])
        # Babel flags any text with braces itself; not those gettext cannot check.
        if not checked:
            message.flags.discard("python-brace-format")
    return made


def po_text(domain: Domain, lang: str | None) -> str:
    from babel.messages.pofile import write_po

    out = io.BytesIO()
    write_po(out, catalog(domain, lang), width=100, sort_output=False, include_lineno=False)
    return out.getvalue().decode("utf-8")


def po_path(root: Path, domain: str, lang: str | None) -> Path:
    if lang is None:
        return root / LOCALE / f"{domain}.pot"
    return root / LOCALE / lang / "LC_MESSAGES" / f"{domain}.po"


def export(root: Path = ROOT) -> list[Path]:
    """Write every catalog from the sources; the paths written."""
    written = []
    for domain in domains(root):
        for lang in (None, *TRANSLATED):
            path = po_path(root, domain.name, lang)
            path.parent.mkdir(parents=True, exist_ok=True)
            text = po_text(domain, lang)
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                written.append(path)
    return written


def differences(root: Path = ROOT) -> list[str]:
    """The catalogs that are not what the sources make (missing or stale)."""
    out = []
    for domain in domains(root):
        for lang in (None, *TRANSLATED):
            path = po_path(root, domain.name, lang)
            if not path.exists() or path.read_text(encoding="utf-8") != po_text(domain, lang):
                out.append(str(path.relative_to(root)))
    return out


def problems(found: list[Domain] | None = None) -> list[str]:
    """Messages that are missing from a language, read other fields than
    the English, or are not well formed (in ``found``, by default every
    domain)."""
    out = []
    for domain in domains() if found is None else found:
        for key in keys(domain):
            out += _message_problems(domain, key)
    return out


def _message_problems(domain: Domain, key: str) -> list[str]:
    """What is wrong with one message of ``domain`` (see :func:`problems`)."""
    out = []
    english = domain.texts.get("en", {}).get(key) or domain.english.get(key)
    said = {lang: domain.texts.get(lang, {}).get(key) for lang in TRANSLATED}
    for lang, text in said.items():
        if text is None:
            out.append(f"{domain.name}: {key} has no {lang} text")
    for lang, text in {"en": domain.texts.get("en", {}).get(key), **said}.items():
        if text is None:
            continue
        try:
            check_syntax(text)
        except (ValueError, KeyError, IndexError) as exc:
            out.append(f"{domain.name}: {key} in {lang} is not well formed: {exc}")
    if key in ENGLISH_READS_OTHER_FIELDS:
        english = None
    reference = placeholders(english) if english and english in domain.texts.get(
        "en", {}).values() else None
    for lang, text in said.items():
        if text is None:
            continue
        if reference is None:
            reference = placeholders(text)
        elif placeholders(text) != reference:
            out.append(f"{domain.name}: {key} in {lang} reads "
                       f"{sorted(placeholders(text))}, not {sorted(reference)}")
    return out


# -- translators' catalogs back into the sources ----------------------------------------


def import_catalogs(root: Path = ROOT) -> tuple[list[str], list[str]]:
    """Write the translations of ``locale/<lang>/*.po`` into the sources.
    Returns what was changed and what must be added by hand."""
    from babel.messages.pofile import read_po

    changed: list[str] = []
    by_hand: list[str] = []
    for domain in domains(root):
        for lang in TRANSLATED:
            path = po_path(root, domain.name, lang)
            if not path.exists():
                continue
            with path.open("rb") as po:
                read = read_po(po, locale=lang, domain=domain.name)
            current = domain.texts.get(lang, {})
            for message in read:
                key, text = message.context, message.string
                if (not key or not text or not isinstance(text, str) or message.fuzzy
                        or current.get(key) == text):
                    # Untranslated, marked as needing work, or unchanged.
                    continue
                if domain.name == "panel":
                    _json_set(root / PANEL / f"{lang}.json", key, text)
                    changed.append(f"{PANEL / f'{lang}.json'}: {key}")
                elif key in current and _python_set(root, domain.files, key, current[key], text):
                    changed.append(f"{domain.name}: {key} ({lang})")
                else:
                    by_hand.append(f"{domain.name}: {key} ({lang}) = {text!r}")
    return changed, by_hand


def _json_set(path: Path, key: str, text: str) -> None:
    """Set ``key`` in a flat JSON file of two-space lines, keeping the
    others as they are; a new key goes last."""
    lines = path.read_text(encoding="utf-8").split("\n")
    entry = f"  {json.dumps(key, ensure_ascii=False)}: {json.dumps(text, ensure_ascii=False)}"
    start = f"  {json.dumps(key, ensure_ascii=False)}:"
    for i, line in enumerate(lines):
        if line.startswith(start):
            lines[i] = entry + ("," if line.rstrip().endswith(",") else "")
            break
    else:
        last = max(i for i, line in enumerate(lines) if line.startswith('  "'))
        lines[last] += ","
        lines.insert(last + 1, entry)
    path.write_text("\n".join(lines), encoding="utf-8")
    json.loads(path.read_text(encoding="utf-8"))


def _python_set(root: Path, files: tuple[str, ...], key: str, old: str, text: str) -> bool:
    """Replace the string of the dict entry ``key: old`` in one of ``files``
    with ``text``; false when no single such entry is found."""
    found = []
    for name in files:
        source = (root / name).read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Dict):
                continue
            for k, v in zip(node.keys, node.values, strict=True):
                if (isinstance(k, ast.Constant) and k.value == key
                        and isinstance(v, ast.Constant) and v.value == old):
                    found.append((name, source, k, v))
    if len(found) != 1:
        return False
    name, source, k, v = found[0]
    lines = source.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")) + 1)
    raw = source.encode("utf-8")
    start = offsets[v.lineno - 1] + v.col_offset
    end = offsets[v.end_lineno - 1] + v.end_col_offset  # type: ignore[operator]
    literal = _literal(text, k.col_offset, len(json.dumps(key, ensure_ascii=False)) + 2)
    new = raw[:start] + literal.encode("utf-8") + raw[end:]
    (root / name).write_text(new.decode("utf-8"), encoding="utf-8")
    return True


def _literal(text: str, indent: int, key_width: int, width: int = 100) -> str:
    """``text`` as a Python string, split over lines in parentheses when
    it would not fit on the entry's line."""
    one = json.dumps(text, ensure_ascii=False)
    if indent + key_width + len(one) + 1 <= width:
        return one
    pad = " " * (indent + 4)
    room = width - len(pad) - 2
    chunks, line = [], ""
    for word in re.split(r"(?<= )", text):
        if line and len(json.dumps(line + word, ensure_ascii=False)) > room:
            chunks.append(line)
            line = ""
        line += word
    chunks.append(line)
    body = "\n".join(pad + json.dumps(chunk, ensure_ascii=False) for chunk in chunks)
    return f"(\n{body}\n{' ' * indent})"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    action = args[0] if args else "check"
    if action == "export":
        for path in export():
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    if action == "check":
        stale = differences()
        wrong = problems()
        for line in stale:
            print("not as the sources say (run: python -m companion.language.catalogs "
                  f"export): {line}")
        for line in wrong:
            print(line)
        return 1 if stale or wrong else 0
    if action == "import":
        changed, by_hand = import_catalogs()
        for line in changed:
            print(f"changed {line}")
        for line in by_hand:
            print(f"add by hand: {line}")
        return 1 if by_hand else 0
    print("usage: python -m companion.language.catalogs export|check|import", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
