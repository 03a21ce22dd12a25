"""The commands a person types: ``companion`` and its subcommands (cli),
the checks of a set-up (doctor), the wiring drawn from the config (wiring),
and which running companion they speak to (running)."""
