"""The config file: its defaults are the wiring of docs/build.md, the example
file says exactly the defaults, and a bad value is refused by name."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from companion.host import config
from companion.host.config import Config, ConfigError, MissingConfig

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "config.example.toml"


def test_default_buttons_are_the_reference_wiring():
    buttons = Config().buttons
    assert (buttons.up, buttons.down, buttons.ok, buttons.back, buttons.roll) == (5, 6, 13, 19, 26)


def test_default_encoder_is_off_on_its_reference_pins():
    encoder = Config().encoder
    assert (encoder.enabled, encoder.a, encoder.b, encoder.push) == (False, 17, 27, 22)


def test_default_outputs_are_the_buzzer_on_12_and_the_die_face_leds():
    defaults = Config()
    assert defaults.buzzer.pin == 12
    assert defaults.leds.pins == (16, 20, 21, 23, 24, 25, 18)


def test_default_display_is_an_ssd1306_at_0x3c_on_bus_1():
    display = Config().display
    assert (display.controller, display.width, display.height, display.i2c_bus,
            display.address) == ("ssd1306", 128, 64, 1, 0x3C)


def test_default_serial_dice_device_is_the_one_under_by_id_at_9600_baud():
    assert (Config().serial.port, Config().serial.baud) == ("auto", 9600)


def test_default_panel_listens_everywhere_on_8080_in_english_with_the_roll_button():
    defaults = Config()
    assert (defaults.web.host, defaults.web.port) == ("0.0.0.0", 8080)
    assert (defaults.language, defaults.dice.source) == ("en", "button")
    assert defaults.data_dir is None


def test_the_example_file_says_exactly_the_defaults():
    assert config.parse(EXAMPLE.read_text(), str(EXAMPLE)) == Config()


def test_a_file_names_only_what_differs():
    loaded = config.parse('language = "fr"\n[display]\ncontroller = "sh1106"\naddress = 0x3D\n')
    assert loaded == Config(language="fr",
                            display=config.DisplaySettings(controller="sh1106", address=0x3D))


@pytest.mark.parametrize("text, named", [
    ("[buttons]\nup = 40\n", "[buttons] up"),
    ('[buttons]\nroll = "26"\n', "[buttons] roll"),
    ("[display]\naddress = 0x80\n", "[display] address"),
    ('[display]\ncontroller = "ssd1309"\n', "[display] controller"),
    ("[display]\nwidth = 96\n", "[display] width"),
    ("[serial]\nbaud = 9601\n", "[serial] baud"),
    ("[web]\nport = 70000\n", "[web] port"),
    ('[web]\nhost = "my-pi"\n', "[web] host"),
    ("[encoder]\nenabled = 1\n", "[encoder] enabled"),
    ('[dice]\nsource = "cup"\n', "[dice] source"),
    ('language = "de"\n', "language"),
    ("[leds]\npins = [16, 20, 21]\n", "[leds] pins"),
])
def test_a_bad_value_is_refused_naming_the_key(text, named):
    with pytest.raises(ConfigError) as refused:
        config.parse(text)
    assert f"{named} must be" in str(refused.value)


def test_a_refusal_says_what_is_allowed():
    with pytest.raises(ConfigError,
                       match=r"one of 'button', 'manual', 'serial', 'pixels', not 'cup'"):
        config.parse('[dice]\nsource = "cup"\n')


def test_an_unknown_key_is_refused_with_the_keys_of_its_section():
    with pytest.raises(ConfigError, match=r"unknown key 'rol' in \[buttons\]; the keys of "
                                          r"\[buttons\] are: up, down, ok, back, roll"):
        config.parse("[buttons]\nrol = 26\n")


def test_an_unknown_section_is_refused():
    with pytest.raises(ConfigError, match=r"unknown key 'screen'"):
        config.parse("[screen]\naddress = 0x3C\n")


def test_a_button_on_the_displays_i2c_pin_is_refused():
    with pytest.raises(ConfigError, match=r"\[buttons\] ok must be a pin other than 3 "
                                          r"\(GPIO 3 is SCL"):
        config.parse("[buttons]\nok = 3\n")


def test_one_pin_for_two_roles_is_refused_naming_both():
    with pytest.raises(ConfigError, match="GPIO 12 is given to both the button up and the buzzer"):
        config.parse("[buttons]\nup = 12\n")


def test_a_pin_shared_with_a_disabled_encoder_is_allowed():
    assert config.parse("[buttons]\nup = 17\n").buttons.up == 17


def test_the_same_pin_for_the_enabled_encoder_is_refused():
    with pytest.raises(ConfigError, match="GPIO 17 is given to both the button back and the "
                                          "encoder a"):
        config.parse("[buttons]\nback = 17\n[encoder]\nenabled = true\n")


def test_the_encoder_push_may_take_the_pin_of_the_ok_button_it_replaces():
    settings = config.parse("[encoder]\nenabled = true\npush = 13\n")
    assert settings.pins()["encoder push"] == 13
    assert not {"button up", "button down", "button ok"} & set(settings.pins())


def test_broken_toml_is_refused_naming_the_file():
    with pytest.raises(ConfigError, match=r"/etc/x.toml is not valid TOML"):
        config.parse("[buttons\n", "/etc/x.toml")


def test_a_missing_named_file_is_an_error(tmp_path):
    with pytest.raises(MissingConfig, match="no config file at"):
        config.load(tmp_path / "nowhere.toml")


def test_a_missing_default_file_gives_the_defaults_and_says_so(monkeypatch, tmp_path, caplog):
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "config.toml")
    with caplog.at_level(logging.INFO, logger="companion.host.config"):
        assert config.load(None) == Config()
    assert "using the built-in defaults" in caplog.text


def test_a_named_file_is_read(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[web]\nport = 9000\n")
    assert config.load(path).web.port == 9000


def test_the_command_line_overrides_the_web_address():
    moved = Config().with_web(host="127.0.0.1", port=0)
    assert (moved.web.host, moved.web.port) == ("127.0.0.1", 0)


def test_a_bad_port_on_the_command_line_is_refused():
    with pytest.raises(ConfigError, match=r"--port: \[web\] port must be"):
        Config().with_web(port=-1)


def test_pins_by_role_follow_what_is_enabled():
    pins = config.parse("[leds]\nenabled = false\n[encoder]\nenabled = true\n").pins()
    assert pins["encoder push"] == 22 and pins["buzzer"] == 12
    assert not any(role.startswith("led") for role in pins)


@pytest.mark.parametrize(
    "setting, simulate, announced",
    [
        ('"auto"', False, True),
        ('"auto"', True, False),
        ("true", True, True),
        ("false", False, False),
    ],
)
def test_the_panel_is_announced_by_the_service_but_not_by_a_simulation(setting, simulate,
                                                                         announced):
    from companion.parts.lifecycle import Setup
    from companion.parts.web import DiscoveryPart

    settings = config.parse(f"[web]\nmdns = {setting}\n", "test")
    part = DiscoveryPart(Setup(config=settings, simulate=simulate), panel=None, address=None)
    assert part.enabled is announced


def test_mdns_takes_true_false_or_auto():
    with pytest.raises(ConfigError, match="mdns"):
        config.parse('[web]\nmdns = "sometimes"\n', "test")


# -- the Wi-Fi ----------------------------------------------------------------------------


def test_by_default_the_hotspot_opens_when_no_known_wifi_connects_within_45_s():
    network = Config().network
    assert (network.hotspot, network.wait, network.name) == ("auto", 45, "auto")


def test_the_network_section_is_read():
    loaded = config.parse('[network]\nhotspot = false\nwait = 90\nname = "Games table"\n')
    assert (loaded.network.hotspot, loaded.network.wait, loaded.network.name) == (
        False, 90, "Games table")


@pytest.mark.parametrize("text, allowed", [
    ('[network]\nhotspot = "sometimes"\n', 'true (always its own Wi-Fi), false (never) or "auto"'),
    ("[network]\nwait = -1\n", "a number of seconds from 0 to 3600"),
    ('[network]\nwait = "45"\n', "a number of seconds from 0 to 3600"),
    ('[network]\nname = "a name far longer than thirty-two bytes"\n', "1 to 32 bytes"),
])
def test_a_bad_network_value_says_what_is_allowed(text, allowed):
    with pytest.raises(ConfigError) as refused:
        config.parse(text)
    assert "[network]" in str(refused.value) and allowed in str(refused.value)
