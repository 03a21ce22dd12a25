"""scripts/install-pi.sh, run for real against a folder standing for the
Pi's root (``COMPANION_ROOT``), with the system's commands (apt-get,
systemctl, raspi-config, useradd...) replaced by small scripts on the PATH
that note how they were called and fail when a test asks them to."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALLER = ROOT / "scripts" / "install-pi.sh"

# A Raspberry Pi OS Bookworm config.txt as it comes: I2C commented out, a
# model's own section last.
BOOKWORM_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host"""

STUB = """#!/bin/bash
echo "{name} $*" >>"$STUB_LOG"
{body}
"""
STUBS = {
    "apt-get": "",
    "dpkg-query": "echo 'install ok installed'",
    "dpkg": "echo arm64",
    "getent": "",
    "groupadd": "",
    "useradd": "",
    "usermod": "",
    "id": "",
    # The real install, without the owner and group a user cannot give.
    "install": 'args=(); skip=0; for a in "$@"; do '
               'if ((skip)); then skip=0; continue; fi; '
               'case "$a" in -o|-g) skip=1;; *) args+=("$a");; esac; done; '
               'exec /usr/bin/install "${args[@]}"',
    # A virtual environment whose pip notes what it installs; a script on
    # standard input (the config read for the speaker) runs for real.
    "python3": 'if [[ "$1" == -m && "$2" == venv ]]; then mkdir -p "$3/bin"; '
               'printf "#!/bin/bash\\necho \\"pip \\$*\\" >>\\"\\$STUB_LOG\\"\\n" >"$3/bin/pip"; '
               'cp "$3/bin/pip" "$3/bin/python"; chmod +x "$3/bin/pip" "$3/bin/python"; '
               'elif [[ "$1" == - ]]; then exec /usr/bin/python3 "$@"; fi',
    "systemctl": 'if [[ " $* " == *" $STUB_FAIL "* ]]; then '
                 'echo "Job for companion.service failed because the control process exited '
                 'with error code." >&2; exit 1; fi; '
                 '[[ "$1" != is-enabled ]]',
    "journalctl": "echo 'companion: /etc/companion/config.toml: [buttons] up must be a BCM "
                  "GPIO number from 0 to 27, not 99'",
}


class Pi:
    """A folder standing for a Pi's root, and the commands the installer runs."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "root"
        self.bin = tmp_path / "bin"
        self.log = tmp_path / "calls.log"
        (self.root / "boot" / "firmware").mkdir(parents=True)
        self.config_txt.write_text(BOOKWORM_CONFIG_TXT)
        self.bin.mkdir()
        for name, body in STUBS.items():
            self.stub(name, body)

    @property
    def config_txt(self) -> Path:
        return self.root / "boot" / "firmware" / "config.txt"

    def stub(self, name: str, body: str) -> None:
        path = self.bin / name
        path.write_text(STUB.format(name=name, body=body))
        path.chmod(0o755)

    def install(self, fail: str = "") -> subprocess.CompletedProcess[str]:
        # The stubs first; the rest of the system for bash's own tools.
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "COMPANION_ROOT": str(self.root),
               "STUB_LOG": str(self.log), "STUB_FAIL": fail, "HOME": str(self.root)}
        return subprocess.run(["bash", str(INSTALLER)], env=env, capture_output=True,
                              text=True, timeout=60)

    def calls(self, program: str) -> list[str]:
        if not self.log.exists():
            return []
        return [line for line in self.log.read_text().splitlines()
                if line.split(" ", 1)[0] == program]


@pytest.fixture
def pi(tmp_path):
    return Pi(tmp_path)


def test_a_good_install_ends_with_done_and_the_doctors_command(pi):
    done = pi.install()
    assert done.returncode == 0, done.stderr
    last = done.stdout.splitlines()[-1]
    assert last == ("==> done: check the set-up with: "
                    "sudo -u companion companion doctor --config /etc/companion/config.toml")
    assert (pi.root / "etc/companion/config.toml").read_text() == \
        (ROOT / "config.example.toml").read_text()
    assert (pi.root / "etc/systemd/system/companion.service").exists()
    assert "systemctl restart companion.service" in pi.calls("systemctl")


def test_it_switches_i2c_on_in_config_txt_under_all(pi):
    assert pi.install().returncode == 0
    text = pi.config_txt.read_text()
    assert text.startswith(BOOKWORM_CONFIG_TXT)
    assert text[len(BOOKWORM_CONFIG_TXT):] == \
        "\n\n[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n"
    # Without raspi-config, i2c-dev is loaded at boot by a file of its own.
    assert (pi.root / "etc/modules-load.d/companion-i2c.conf").read_text().endswith("i2c-dev\n")


def test_a_second_install_changes_nothing_in_config_txt_and_needs_no_reboot(pi):
    first = pi.install()
    assert "sudo reboot" in first.stdout
    after_first = pi.config_txt.read_text()
    again = pi.install()
    assert again.returncode == 0, again.stderr
    assert pi.config_txt.read_text() == after_first
    assert "sudo reboot" not in again.stdout


def test_a_config_with_an_i2s_amplifier_switches_its_overlay_on_once(pi):
    config = pi.root / "etc/companion/config.toml"
    config.parent.mkdir(parents=True)
    config.write_text((ROOT / "config.speaker.example.toml").read_text())
    first = pi.install()
    assert first.returncode == 0, first.stderr
    assert pi.config_txt.read_text().endswith("dtoverlay=max98357a\n")
    assert "sudo reboot" in first.stdout
    assert any("espeak-ng" in call for call in pi.calls("dpkg-query"))
    again = pi.install()
    assert again.returncode == 0, again.stderr
    assert pi.config_txt.read_text().count("dtoverlay=max98357a") == 1
    assert "sudo reboot" not in again.stdout


def test_the_example_config_switches_no_amplifier_on(pi):
    done = pi.install()
    assert done.returncode == 0, done.stderr
    assert "dtoverlay" not in pi.config_txt.read_text()[len(BOOKWORM_CONFIG_TXT):]
    assert "no I2S amplifier in the config" in done.stdout


def test_settings_already_there_are_kept_or_corrected_in_place(pi):
    pi.config_txt.write_text("dtparam=audio=on\ndtparam=i2c_arm=off\n"
                             "dtparam=i2c_arm_baudrate=100000  # slow\n")
    assert pi.install().returncode == 0
    assert pi.config_txt.read_text() == ("dtparam=audio=on\ndtparam=i2c_arm=on\n"
                                         "dtparam=i2c_arm_baudrate=400000  # slow\n")


def test_i2c_on_among_other_settings_of_one_line_is_recognised(pi):
    pi.config_txt.write_text("[all]\ndtparam=audio=on,i2c_arm=on,i2c_arm_baudrate=400000\n")
    assert pi.install().returncode == 0
    assert pi.config_txt.read_text() == \
        "[all]\ndtparam=audio=on,i2c_arm=on,i2c_arm_baudrate=400000\n"


def test_raspi_config_switches_i2c_on_where_there_is_one(pi):
    pi.stub("raspi-config", '[[ "$2" == get_i2c ]] && echo 1; true')
    assert pi.install().returncode == 0
    assert pi.calls("raspi-config") == ["raspi-config nonint get_i2c",
                                        "raspi-config nonint do_i2c 0"]
    assert "dtparam=i2c_arm=on" in pi.config_txt.read_text()


def test_a_service_that_does_not_start_is_said_in_words_with_its_log(pi):
    done = pi.install(fail="restart")
    assert done.returncode == 1
    err = done.stderr
    assert "Job for companion.service failed" not in err + done.stdout
    assert 'the step "service companion" failed' in err
    assert "why: the companion service did not start" in err
    # The companion's own log names the cause, and the doctor is offered.
    assert "[buttons] up must be a BCM GPIO number" in err
    assert "sudo -u companion companion doctor --config /etc/companion/config.toml" in err
    assert "done" not in done.stdout.splitlines()[-1]


def test_a_package_that_cannot_be_installed_names_the_step_and_what_to_do(pi):
    pi.stub("dpkg-query", "exit 1")  # nothing installed yet
    pi.stub("apt-get", '[[ "$1" == install ]] && { echo "E: Unable to locate package" >&2; '
                       "exit 100; }; true")
    done = pi.install()
    assert done.returncode == 1
    assert 'the step "system packages" failed' in done.stderr
    assert "why: apt-get cannot install python3-venv" in done.stderr
    assert "what to do: check the network" in done.stderr
    # Nothing after the failed step was done.
    assert not (pi.root / "etc/companion/config.toml").exists()


def test_a_command_that_fails_without_words_of_ours_is_named_with_its_status(pi):
    pi.stub("useradd", "exit 9")
    pi.stub("id", "exit 1")  # no such user yet
    done = pi.install()
    assert done.returncode == 1
    assert 'the step "user companion" failed' in done.stderr
    assert "ended with status 9" in done.stderr and "useradd --system" in done.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="no shellcheck here")
def test_the_installer_still_passes_shellcheck():
    done = subprocess.run(["shellcheck", str(INSTALLER)], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stdout

