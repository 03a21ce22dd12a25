"""The venue board: every table of a venue live, and its league, from the
venue's MQTT broker (``companion venue --broker HOST``).  It only reads."""
