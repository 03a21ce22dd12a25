"""docs/install.md says what the code does: its wiring table is the default
config's pins in wiring order, and it names every step of the installer."""

from __future__ import annotations

import re
from pathlib import Path

from companion.host.config import Config, wiring_pins

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "install.md").read_text()


def test_the_wiring_table_is_the_default_configs_pins_in_wiring_order():
    table = DOC.split("<!-- wiring: the pins of the default config, in wiring order -->")[1]
    table = table.split("<!-- /wiring -->")[0]
    rows = re.findall(r"^\| (\d+) \| (.+?) \|$", table, flags=re.M)
    assert [(int(pin), role) for pin, role in rows] == wiring_pins(Config())


def test_every_step_of_the_installer_is_in_the_doc():
    script = (ROOT / "scripts" / "install-pi.sh").read_text()
    values = {"$SERVICE_USER": "companion", "$VENV": "/opt/companion/venv",
              "$((I2C_SPEED / 1000))": "400", "$CONFIG_FILE": "/etc/companion/config.toml"}
    steps = re.findall(r'^\s*step "([^"]+)"', script, flags=re.M)
    assert len(steps) == 7
    for step in steps:
        for name, value in values.items():
            step = step.replace(name, value)
        assert f"| `{step}` |" in DOC, step
