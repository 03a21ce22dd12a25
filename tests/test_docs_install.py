"""docs/install.md says what the code does: its wiring table is the default
config's wires as companion.commands.wiring draws them (the builder's guide's
picture and ``companion wiring`` too), and it names every step of the
installer."""

from __future__ import annotations

import re
from pathlib import Path

from companion.commands.wiring import table
from companion.host.config import Config

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "install.md").read_text()


def test_the_wiring_table_is_the_default_configs_wires():
    shown = DOC.split("<!-- wiring: drawn by companion.commands.wiring.table() from the "
                      "default config -->\n")[1]
    shown = shown.split("<!-- /wiring -->")[0]
    assert shown == table(Config())
    assert "| 2 | Keys | GND | 30 (GND) |" in shown


def test_every_step_of_the_installer_is_in_the_doc():
    script = (ROOT / "scripts" / "install-pi.sh").read_text()
    values = {"$SERVICE_USER": "companion", "$VENV": "/opt/companion/venv",
              "$((I2C_SPEED / 1000))": "400", "$CONFIG_FILE": "/etc/companion/config.toml"}
    steps = re.findall(r'^\s*step "([^"]+)"', script, flags=re.M)
    assert len(steps) == 8
    for step in steps:
        for name, value in values.items():
            step = step.replace(name, value)
        assert f"| `{step}` |" in DOC, step
