"""The pins a config uses, as a person wires them on the 40-pin header, and
the configs whose pins cannot be wired, refused naming both roles."""

from __future__ import annotations

import pytest

from companion.host import config
from companion.host.config import (
    HEADER_GROUND,
    HEADER_PIN_OF_GPIO,
    Config,
    ConfigError,
    header_pin,
    wiring_pins,
)


def test_the_reference_kit_is_wired_display_first_then_keys_then_outputs():
    wired = wiring_pins(Config())
    assert wired[:4] == [(1, "display VCC (SSD1306, 3.3 V)"), (3, "display SDA"),
                         (5, "display SCL"), (9, "display GND")]
    roles = [role for _, role in wired]
    assert roles.index("button roll") < roles.index("buzzer") < roles.index("led 1")
    assert (29, "button up") in wired and (32, "buzzer") in wired and (12, "led 7") in wired


def test_every_configured_gpio_is_on_its_header_pin_and_no_pin_twice():
    settings = Config()
    wired = dict(wiring_pins(settings))
    assert len(wired) == len(wiring_pins(settings))
    for role, gpio in settings.pins().items():
        assert wired[header_pin(gpio)] == role


def test_the_encoder_replaces_three_buttons_and_needs_3v3():
    wired = wiring_pins(config.parse("[encoder]\nenabled = true\n"))
    roles = [role for _, role in wired]
    assert "button up" not in roles and "encoder a" in roles
    assert (17, "encoder + (3.3 V)") in wired


def test_no_leds_and_no_buzzer_need_no_ground_of_their_own():
    wired = wiring_pins(config.parse("[leds]\nenabled = false\n[buzzer]\nenabled = false\n"
                                     "[display]\ncontroller = \"sh1106\"\n"))
    assert [pin for pin, _ in wired if pin in HEADER_GROUND] == [9, 39]
    assert wired[0] == (1, "display VCC (SH1106, 3.3 V)")


def test_a_dice_device_on_the_pis_uart_is_wired_to_txd_and_rxd():
    wired = wiring_pins(config.parse('[serial]\nport = "/dev/serial0"\n'))
    assert (8, "dice device RX (the Pi's TXD)") in wired
    assert (10, "dice device TX (the Pi's RXD)") in wired


def test_the_header_map_covers_every_gpio_once():
    assert sorted(HEADER_PIN_OF_GPIO) == list(range(28))
    assert len(set(HEADER_PIN_OF_GPIO.values())) == 28


# -- what cannot be wired -------------------------------------------------------------


def test_a_key_on_the_uart_is_refused_while_the_dice_device_uses_it():
    with pytest.raises(ConfigError, match=r"GPIO 14 is given to the button up, but it is TXD "
                                          r"of the Pi's serial port, which \[serial\] port = "
                                          r"\"/dev/serial0\" uses"):
        config.parse('[buttons]\nup = 14\n[serial]\nport = "/dev/serial0"\n')


def test_an_led_on_rxd_is_refused_naming_the_led():
    with pytest.raises(ConfigError, match="GPIO 15 is given to the led 2, but it is RXD"):
        config.parse('[leds]\npins = [16, 15, 21, 23, 24, 25, 18]\n'
                     '[serial]\nport = "/dev/ttyAMA0"\n')


def test_the_uart_pins_are_free_for_keys_when_the_dice_device_is_on_usb():
    assert config.parse('[buttons]\nup = 14\n[serial]\nport = "auto"\n').buttons.up == 14


def test_a_key_on_an_i2c_pin_is_refused_naming_the_display():
    with pytest.raises(ConfigError, match=r"\[buttons\] roll must be a pin other than 2 "
                                          r"\(GPIO 2 is SDA of the display's I2C bus\)"):
        config.parse("[buttons]\nroll = 2\n")


def test_a_pin_that_does_not_exist_is_refused():
    with pytest.raises(ConfigError, match=r"\[buzzer\] pin must be a BCM GPIO number from 0 "
                                          r"to 27, not 40"):
        config.parse("[buzzer]\npin = 40\n")


def test_two_leds_on_one_pin_are_refused_naming_both():
    with pytest.raises(ConfigError, match="GPIO 16 is given to both the led 1 and the led 2"):
        config.parse("[leds]\npins = [16, 16, 21, 23, 24, 25, 18]\n")
