"""A venue's and a table's names as MQTT topic levels, and the broker's ACL
and password lines made from the very same names.

A name is what a person types on a sign ("Table 4", "Café des Jeux",
"Größe"): it is transliterated to ASCII by AnyAscii (``é`` → ``e``, ``ß`` →
``ss``, ``ø`` → ``o``), lowercased, and every run of what is not a letter or a
digit becomes one dash: ``cafe-des-jeux``, ``table-4``, ``grosse``.  MQTT's
wildcards and separators (``+ # /``) never reach a topic.  The table's
config, the panel, the board's ``--venue``, the documentation's example
and :func:`acl` all use :func:`topic_level`, so that they cannot disagree.
"""

from __future__ import annotations

import re
from typing import Iterable

from anyascii import anyascii

from companion.core.venue import ROOT, Topics

# The longest topic level a name makes.
MAX_NAME = 40
_NOT_NAME = re.compile(r"[^a-z0-9]+")


def topic_level(name: str) -> str:
    """``name`` as one topic level ("Café des Jeux" is ``cafe-des-jeux``), or
    :class:`ValueError` when nothing of it is left."""
    ascii_name = anyascii(name).lower()
    level = _NOT_NAME.sub("-", ascii_name).strip("-")[:MAX_NAME].strip("-")
    if not level:
        raise ValueError(f"a name of letters or digits, not {name!r}")
    return level


def topics(venue: str, table: str) -> Topics:
    """The topics of table ``table`` of venue ``venue`` (names as typed)."""
    return Topics(topic_level(venue), topic_level(table))


def user_of(table: str) -> str:
    """A table's user on the broker: its topic level ("Table 1" is ``table-1``)."""
    return topic_level(table)


def acl(venue: str, tables: Iterable[str], *, board: str = "board",
        home_assistant: str | None = "homeassistant") -> str:
    """The ACL (Mosquitto's ``acl_file``) for ``tables`` of ``venue``: each
    table writes its own topics and its own Home Assistant discovery, and
    reads Home Assistant's birth message; the board reads every table; Home
    Assistant reads the tables and owns its discovery."""
    blocks = []
    for table in tables:
        t = topics(venue, table)
        blocks.append(f"user {user_of(table)}\n"
                      f"topic readwrite {t.base}/#\n"
                      f"topic write homeassistant/sensor/{t.device_id}/#\n"
                      f"topic write homeassistant/event/{t.device_id}/#\n"
                      "topic read homeassistant/status\n")
    blocks.append(f"# The venue board reads every table.\nuser {board}\n"
                  f"topic read {ROOT}/#\n")
    if home_assistant:
        blocks.append("# Home Assistant reads the tables and its own discovery.\n"
                      f"user {home_assistant}\ntopic read {ROOT}/#\n"
                      "topic readwrite homeassistant/#\n")
    return "\n".join(blocks)


def password_lines(tables: Iterable[str], *, board: str = "board") -> str:
    """The ``mosquitto_passwd`` commands that give the board and each table
    its user (each asks for its password: none is on a command line)."""
    lines = [f"sudo mosquitto_passwd -c /etc/mosquitto/companion.passwd {board}"]
    lines += [f"sudo mosquitto_passwd /etc/mosquitto/companion.passwd {user_of(t)}"
              for t in tables]
    return "\n".join(lines) + "\n"
