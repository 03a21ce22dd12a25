"""The rules of each language from CLDR, through Babel: which plural form a
number takes, and how numbers and dates are written.

The core's texts choose their plural forms with these
(:func:`companion.core.text.use_locale_rules`, installed when the
``companion`` package is imported).  Babel and its locale data are loaded on
the first use, not at the start: a table whose texts never count something
never pays for them.
"""

from __future__ import annotations

from datetime import datetime
from functools import cache
from typing import Any


@cache
def _locale(lang: str) -> Any:
    from babel import Locale

    return Locale.parse(lang)


def plural_category(lang: str, number: float) -> str:
    """CLDR's plural category of ``number`` in ``lang`` ("one", "other"...)."""
    found: str = _locale(lang).plural_form(number)
    return found


def number_text(lang: str, number: float) -> str:
    """``number`` as ``lang`` writes it (French: "1 234,5")."""
    from babel.numbers import format_decimal

    text: str = format_decimal(number, locale=_locale(lang))
    return text


def date_text(lang: str, when: float, *, with_time: bool = True) -> str:
    """A moment (seconds since the epoch, local time) as ``lang`` writes a
    date, with the time of day unless ``with_time`` is false."""
    from babel.dates import format_skeleton

    # The weekday, the day, the month in short, the year; the time on 24
    # hours, joined to the date as the language joins them.
    locale = _locale(lang)
    moment = datetime.fromtimestamp(when)
    date: str = format_skeleton("yMMMEd", moment, locale=locale)
    if not with_time:
        return date
    time: str = format_skeleton("Hms", moment, locale=locale)
    joined: str = str(locale.datetime_formats["medium"]).replace("{1}", date).replace("{0}", time)
    return joined


def install() -> None:
    """Make the core's texts use these rules."""
    from companion.core.text import use_locale_rules

    use_locale_rules(plural_category, number_text)
