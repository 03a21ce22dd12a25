"""The pure core of the companion: the game engines, the table that
serialises commands and writes them to the journal before acknowledging, and
the button menu.  It imports only the standard library."""
