"""What the companion needs from the machine it runs on: its configuration
file (config), its data directory and durable files (storage), systemd's
side of a service (service) and the installed version (version)."""
