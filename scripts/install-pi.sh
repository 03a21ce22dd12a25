#!/usr/bin/env bash
# Install the Tabletop Companion as a service on Raspberry Pi OS (Bookworm).
#
#     sudo ./scripts/install-pi.sh
#
# Run it from a checkout of the project; run it again after 'git pull' to
# upgrade.  Safe to run any number of times: it changes only what is not yet
# as it should be, and never overwrites /etc/companion/config.toml.
#
# Each step is named as it starts; when one fails, the installer says which,
# why, and what to do, and stops.  It ends with "done" and the command that
# checks the set-up (the doctor).
#
# COMPANION_ROOT=DIR installs into DIR instead of / (the files only; the
# system's commands are whatever PATH gives): the tests run it that way.
set -Eeuo pipefail

CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="${COMPANION_ROOT:-}"
PREFIX=/opt/companion
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/companion
CONFIG_FILE="$CONFIG_DIR/config.toml"
DATA_DIR=/var/lib/companion
UNIT=/etc/systemd/system/companion.service
SERVICE_USER=companion
I2C_SPEED=400000
REBOOT_NEEDED=no
DOCTOR="sudo -u $SERVICE_USER companion doctor --config $CONFIG_FILE"

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'install-pi: %s\n' "$*" >&2
    exit 1
}

# -- steps, and what to say when one fails --------------------------------------

STEP="the checks before installing"
STEP_HELP="read the message above"
WHY=""

# Start a step: its name (said now, and again if it fails) and what to do
# when it fails.
step() {
    STEP="$1"
    STEP_HELP="$2"
    WHY=""
    say "$STEP"
}

# Fail the current step with a reason in our own words (instead of the
# command that failed).
fail() {
    WHY="$1"
    return 1
}

step_failed() {
    local status=$? command="$BASH_COMMAND"
    trap - ERR
    {
        printf '\n'
        printf 'install-pi: the step "%s" failed.\n' "$STEP"
        if [[ -n "$WHY" ]]; then
            printf 'install-pi: why: %s\n' "$WHY"
        else
            printf "install-pi: why: '%s' ended with status %d (its own message is above).\n" \
                "$command" "$status"
        fi
        printf 'install-pi: what to do: %s\n' "$STEP_HELP"
        printf 'install-pi: then run this installer again: it keeps what is done and goes on.\n'
    } >&2
    exit 1
}

# The system packages the companion needs, one a line.
system_packages() {
    printf '%s\n' python3-venv python3-dev i2c-tools
    # The Wi-Fi and the companion's own hotspot: NetworkManager (Bookworm's
    # default) and the dnsmasq its shared mode runs for DHCP and DNS.
    printf '%s\n' network-manager dnsmasq-base
    # The caller's voice ([voice]): speech synthesized offline, played with ALSA.
    printf '%s\n' espeak-ng alsa-utils
    # A 32-bit system (armhf, also on a 64-bit kernel, where 'uname -m' says
    # aarch64) gets Pillow from piwheels, built against these libraries;
    # 64-bit wheels carry their own.
    case "$(dpkg --print-architecture)" in
        armhf | armel)
            printf '%s\n' libopenjp2-7 libtiff6 libxcb1 liblcms2-2 libwebp7 libwebpdemux2 \
                libwebpmux3 libfreetype6 libjpeg62-turbo
            ;;
    esac
}

install_packages() {
    local missing=() package
    while read -r package; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "ok installed" ||
            missing+=("$package")
    done < <(system_packages)
    if ((${#missing[@]})); then
        apt-get update || fail "apt-get cannot read the package lists"
        apt-get install -y --no-install-recommends "${missing[@]}" ||
            fail "apt-get cannot install ${missing[*]}"
    fi
}

create_user() {
    local group
    for group in gpio i2c dialout; do
        getent group "$group" >/dev/null || groupadd --system "$group"
    done
    if ! id -u "$SERVICE_USER" >/dev/null 2>&1; then
        useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Tabletop Companion" "$SERVICE_USER"
    fi
    # The unit grants these groups too; membership here lets
    # 'sudo -u companion companion doctor' see what the service sees.
    usermod --append --groups gpio,i2c,dialout "$SERVICE_USER"
    install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$ROOT$DATA_DIR"
}

install_companion() {
    install -d -m 0755 "$ROOT$PREFIX" "$ROOT/usr/local/bin"
    [[ -x "$ROOT$VENV/bin/python" ]] || python3 -m venv "$ROOT$VENV" ||
        fail "python3 cannot make a virtual environment in $VENV"
    "$ROOT$VENV/bin/pip" install --quiet --upgrade pip ||
        fail "pip cannot reach the package index"
    if ! "$ROOT$VENV/bin/pip" install --quiet --upgrade "${CHECKOUT}[pi,pixels]"; then
        # No lgpio wheel for this Python: build it against the system's library.
        say "no ready-made lgpio for this Python: building it (swig, liblgpio-dev)"
        apt-get install -y --no-install-recommends swig liblgpio-dev ||
            fail "apt-get cannot install swig and liblgpio-dev, which building lgpio needs"
        "$ROOT$VENV/bin/pip" install --quiet --upgrade "${CHECKOUT}[pi,pixels]" ||
            fail "pip cannot install the companion and its libraries into $VENV"
    fi
    ln -sfn "$VENV/bin/companion" "$ROOT/usr/local/bin/companion"
}

# The firmware's config.txt: /boot/firmware on Bookworm, /boot before it.
boot_config() {
    local candidate
    for candidate in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        if [[ -f "$candidate" ]]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 0  # none: the caller says what to do
}

# Add a line at the end of a config.txt, under [all] (a line after a
# conditional section such as [cm4] would apply to that model only).
append_under_all() {
    local file="$1" line="$2" last
    if [[ -s "$file" && -n "$(tail -c 1 "$file")" ]]; then
        printf '\n' >>"$file"
    fi
    last="$(grep -E '^[[:space:]]*\[' "$file" | tail -n 1 | tr -d '[:space:]' || true)"
    if [[ -n "$last" && "$last" != "[all]" ]]; then
        printf '\n[all]\n' >>"$file"
    fi
    printf '%s\n' "$line" >>"$file"
}

# Set "dtparam=NAME=VALUE" in a config.txt; prints "changed" when it did.
# A setting already there (alone or among others on a dtparam= line) is
# kept; a line giving NAME another value is changed; else one is added.
set_dtparam() {
    local file="$1" name="$2" value="$3"
    if grep -Eq "^[[:space:]]*dtparam=([^#]*,)?${name}=${value}[[:space:]]*(,|#|\$)" "$file"; then
        return 0
    elif grep -Eq "^[[:space:]]*dtparam=${name}=[^,#[:space:]]*[[:space:]]*(#.*)?\$" "$file"; then
        sed -i -E "s/^([[:space:]]*dtparam=${name}=)[^,#[:space:]]*/\\1${value}/" "$file"
    else
        append_under_all "$file" "dtparam=${name}=${value}"
    fi
    echo changed
}

# Set the I2C bus speed in a config.txt; prints "changed" when it did.
set_i2c_speed() {
    set_dtparam "$1" i2c_arm_baudrate "$2"
}

# Without raspi-config, nothing loads i2c-dev (the /dev/i2c-N devices) at boot.
load_i2c_dev_at_boot() {
    local file="$ROOT/etc/modules-load.d/companion-i2c.conf"
    [[ -f "$file" ]] && return 0
    install -d -m 0755 "$(dirname "$file")"
    printf '# Installed by the Tabletop Companion: its display is on the I2C bus.\ni2c-dev\n' >"$file"
    REBOOT_NEEDED=yes
}

enable_i2c() {
    local config
    if command -v raspi-config >/dev/null; then
        if [[ "$(raspi-config nonint get_i2c || true)" != 0 ]]; then
            raspi-config nonint do_i2c 0 || fail "raspi-config cannot switch I2C on"
            REBOOT_NEEDED=yes
        fi
    else
        load_i2c_dev_at_boot
    fi
    config="$(boot_config)"
    if [[ -z "$config" ]]; then
        say "no config.txt in /boot/firmware or /boot (is this Raspberry Pi OS?):"
        say "add dtparam=i2c_arm=on and dtparam=i2c_arm_baudrate=$I2C_SPEED to the firmware's config.txt"
        return 0
    fi
    [[ -w "$config" ]] || fail "$config cannot be written"
    if [[ "$(set_dtparam "$config" i2c_arm on)" == changed ]]; then
        REBOOT_NEEDED=yes
    fi
    if [[ "$(set_i2c_speed "$config" "$I2C_SPEED")" == changed ]]; then
        REBOOT_NEEDED=yes
    fi
}

# The I2S amplifier the config asks for: "none" unless [voice] is enabled
# with an amplifier (read by the companion's own config code, which only
# needs the standard library).
configured_amplifier() {
    PYTHONPATH="$CHECKOUT" python3 - "$ROOT$CONFIG_FILE" <<'PY' 2>/dev/null || echo none
import sys
from companion.host.config import load
voice = load(sys.argv[1]).voice
print(voice.amplifier if voice.enabled else "none")
PY
}

# The amplifier's overlay in config.txt (dtoverlay=max98357a or
# hifiberry-dac: the I2S sound card on GPIO 18, 19 and 21).
enable_speaker() {
    local amplifier config
    amplifier="$(configured_amplifier)"
    if [[ -z "$amplifier" || "$amplifier" == none ]]; then
        say "no I2S amplifier in the config: nothing to switch on"
        return 0
    fi
    config="$(boot_config)"
    if [[ -z "$config" ]]; then
        say "no config.txt in /boot/firmware or /boot: add dtoverlay=$amplifier to the firmware's config.txt"
        return 0
    fi
    [[ -w "$config" ]] || fail "$config cannot be written"
    if ! grep -Eq "^[[:space:]]*dtoverlay=${amplifier}[[:space:]]*(,|#|\$)" "$config"; then
        append_under_all "$config" "dtoverlay=$amplifier"
        REBOOT_NEEDED=yes
    fi
}

install_config() {
    install -d -m 0755 "$ROOT$CONFIG_DIR"
    if [[ ! -e "$ROOT$CONFIG_FILE" ]]; then
        install -m 0640 -o root -g "$SERVICE_USER" "$CHECKOUT/config.example.toml" \
            "$ROOT$CONFIG_FILE"
    else
        say "keeping your $CONFIG_FILE (the example: $CHECKOUT/config.example.toml)"
    fi
}

# The companion's own Wi-Fi: while it is the hotspot, NetworkManager's
# dnsmasq answers every name with the companion (phones' connectivity checks
# then reach its captive portal); and polkit lets the service's user, which
# has no login session, manage the Wi-Fi through NetworkManager.
# The argument is where the files go ("" for /; the tests give a folder).
HOTSPOT_ADDRESS=10.42.0.1
install_network_files() {
    local root="${1:-}"
    local dns="$root/etc/NetworkManager/dnsmasq-shared.d/companion-portal.conf"
    local rule="$root/etc/polkit-1/rules.d/50-companion-network.rules"
    install -d -m 0755 "$(dirname "$dns")"
    [[ -d "$(dirname "$rule")" ]] || install -d -m 0700 "$(dirname "$rule")"
    {
        echo "# Installed by the Tabletop Companion: while it is its own Wi-Fi (shared"
        echo "# mode), every name resolves to it, so that phones find its captive portal."
        echo "address=/#/$HOTSPOT_ADDRESS"
    } >"$dns"
    {
        echo "// Installed by the Tabletop Companion: its service user may manage the"
        echo "// Wi-Fi (join a network, open its hotspot, forget a network)."
        echo "polkit.addRule(function (action, subject) {"
        echo "    if (action.id.indexOf(\"org.freedesktop.NetworkManager.\") === 0 &&"
        echo "        subject.user === \"$SERVICE_USER\") {"
        echo "        return polkit.Result.YES;"
        echo "    }"
        echo "});"
    } >"$rule"
    chmod 0644 "$dns" "$rule"
}

install_network() {
    install_network_files "$ROOT"
    if ! systemctl is-enabled --quiet NetworkManager 2>/dev/null; then
        say "NetworkManager is not enabled: the companion cannot open its own Wi-Fi"
        say "enable it with: sudo systemctl enable --now NetworkManager"
    fi
}

install_service() {
    install -d -m 0755 "$(dirname "$ROOT$UNIT")"
    install -m 0644 "$CHECKOUT/systemd/companion.service" "$ROOT$UNIT"
    systemctl daemon-reload || fail "systemd cannot read the companion's unit"
    systemctl enable --quiet companion.service ||
        fail "systemd cannot enable companion.service"
    # systemd's own message only says where to look: the companion's log says why.
    if ! systemctl restart companion.service 2>/dev/null; then
        echo "install-pi: the last lines of the companion's log (journalctl -u companion):" >&2
        journalctl -u companion.service -n 12 -o cat --no-pager >&2 || true
        fail "the companion service did not start (its log, above, says why)"
    fi
}

main() {
    [[ $EUID -eq 0 || -n "$ROOT" ]] || die "run as root: sudo $0"
    [[ -f "$CHECKOUT/pyproject.toml" && -f "$CHECKOUT/systemd/companion.service" ]] ||
        die "$CHECKOUT is not a checkout of the companion"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "Python 3.11 or later is needed (Raspberry Pi OS Bookworm has it)"
    trap step_failed ERR

    step "system packages" \
        "check the network ('ping -c 1 deb.debian.org') and that no other apt-get runs, then 'sudo apt-get update'"
    install_packages
    step "user $SERVICE_USER" \
        "the message above names what was refused ('getent passwd $SERVICE_USER' shows the user)"
    create_user
    step "the companion in $VENV" \
        "check the network (pip needs pypi.org, or piwheels.org on a 32-bit system) and the free space ('df -h $PREFIX')"
    install_companion
    step "I2C on, at $((I2C_SPEED / 1000)) kHz" \
        "switch I2C on with 'sudo raspi-config' (Interface Options, I2C) and add dtparam=i2c_arm_baudrate=$I2C_SPEED to config.txt"
    enable_i2c
    step "config $CONFIG_FILE" \
        "check that $CONFIG_DIR can be written ('ls -ld $CONFIG_DIR')"
    install_config
    step "the speaker's I2S amplifier, when the config has one" \
        "add dtoverlay=max98357a (or hifiberry-dac) to config.txt by hand, then reboot"
    enable_speaker
    step "Wi-Fi: the hotspot's DNS and the service's right to manage the Wi-Fi" \
        "check that /etc/NetworkManager and /etc/polkit-1 can be written"
    install_network
    step "service companion" \
        "fix what its log says (a config error names the key), check with '$DOCTOR', then 'sudo systemctl restart companion'"
    install_service
    trap - ERR

    if [[ "$REBOOT_NEEDED" == yes ]]; then
        say "reboot to switch the I2C bus (and the speaker's amplifier) on: sudo reboot"
    fi
    say "follow the log: journalctl -u companion -f"
    say "done: check the set-up with: $DOCTOR"
}

# Sourced (by the tests), it only defines its functions.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
