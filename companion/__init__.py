"""The Tabletop Companion.  Importing it gives the core's texts CLDR's rules
of each language (plural forms, written numbers; see :mod:`companion.language.cldr`)."""

from companion.language.cldr import install as _install_language_rules

_install_language_rules()
