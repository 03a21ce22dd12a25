"""The language machinery outside the core: CLDR's rules of each language
(cldr), the messages as gettext catalogs for translators (catalogs), and the
table said in sentences in a terminal (state_text)."""
