#!/usr/bin/env bash
# Install the Tabletop Companion as a service on Raspberry Pi OS (Bookworm).
#
#     sudo ./scripts/install-pi.sh
#
# Run it from a checkout of the project; run it again after 'git pull' to
# upgrade.  Safe to run any number of times: it changes only what is not yet
# as it should be, and never overwrites /etc/companion/config.toml.
set -euo pipefail

CHECKOUT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PREFIX=/opt/companion
VENV="$PREFIX/venv"
CONFIG_DIR=/etc/companion
DATA_DIR=/var/lib/companion
UNIT=/etc/systemd/system/companion.service
SERVICE_USER=companion
I2C_SPEED=400000
REBOOT_NEEDED=no

say() { printf '==> %s\n' "$*"; }
die() {
    printf 'install-pi: %s\n' "$*" >&2
    exit 1
}

# The system packages the companion needs, one a line.
system_packages() {
    printf '%s\n' python3-venv python3-dev i2c-tools
    # The Wi-Fi and the companion's own hotspot: NetworkManager (Bookworm's
    # default) and the dnsmasq its shared mode runs for DHCP and DNS.
    printf '%s\n' network-manager dnsmasq-base
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
        apt-get update
        apt-get install -y --no-install-recommends "${missing[@]}"
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
    install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 0750 "$DATA_DIR"
}

install_companion() {
    install -d -m 0755 "$PREFIX"
    [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
    if ! "$VENV/bin/pip" install --quiet --upgrade "${CHECKOUT}[pi,pixels]"; then
        # No lgpio wheel for this Python: build it against the system's library.
        apt-get install -y --no-install-recommends swig liblgpio-dev
        "$VENV/bin/pip" install --quiet --upgrade "${CHECKOUT}[pi,pixels]"
    fi
    ln -sfn "$VENV/bin/companion" /usr/local/bin/companion
}

# The firmware's config.txt: /boot/firmware on Bookworm, /boot before it.
boot_config() {
    local candidate
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [[ -f "$candidate" ]]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    return 0  # none: the caller says what to do
}

# Set the I2C bus speed in a config.txt; prints "changed" when it did.
set_i2c_speed() {
    local file="$1" speed="$2"
    if grep -Eq "^[[:space:]]*dtparam=i2c_arm_baudrate=${speed}[[:space:]]*$" "$file"; then
        return
    elif grep -Eq '^[[:space:]]*dtparam=i2c_arm_baudrate=' "$file"; then
        sed -i -E "s/^([[:space:]]*dtparam=i2c_arm_baudrate=)[0-9]*/\\1${speed}/" "$file"
    else
        # Under [all], whatever conditional section the file ends with.
        printf '\n[all]\ndtparam=i2c_arm_baudrate=%s\n' "$speed" >>"$file"
    fi
    echo changed
}

enable_i2c() {
    local config
    if command -v raspi-config >/dev/null; then
        if [[ "$(raspi-config nonint get_i2c)" != 0 ]]; then
            raspi-config nonint do_i2c 0
            REBOOT_NEEDED=yes
        fi
    else
        say "no raspi-config: enable I2C yourself (dtparam=i2c_arm=on in config.txt)"
    fi
    config="$(boot_config)"
    if [[ -z "$config" ]]; then
        say "no config.txt found: add dtparam=i2c_arm_baudrate=$I2C_SPEED to yours"
    elif [[ "$(set_i2c_speed "$config" "$I2C_SPEED")" == changed ]]; then
        REBOOT_NEEDED=yes
    fi
}

install_config() {
    install -d -m 0755 "$CONFIG_DIR"
    if [[ ! -e "$CONFIG_DIR/config.toml" ]]; then
        install -m 0640 -o root -g "$SERVICE_USER" "$CHECKOUT/config.example.toml" \
            "$CONFIG_DIR/config.toml"
    else
        say "keeping your $CONFIG_DIR/config.toml (the example: $CHECKOUT/config.example.toml)"
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
    install_network_files ""
    if ! systemctl is-enabled --quiet NetworkManager 2>/dev/null; then
        say "NetworkManager is not enabled: the companion cannot open its own Wi-Fi"
        say "enable it with: sudo systemctl enable --now NetworkManager"
    fi
}

install_service() {
    install -m 0644 "$CHECKOUT/systemd/companion.service" "$UNIT"
    systemctl daemon-reload
    systemctl enable companion.service
    systemctl restart companion.service
}

main() {
    [[ $EUID -eq 0 ]] || die "run as root: sudo $0"
    [[ -f "$CHECKOUT/pyproject.toml" && -f "$CHECKOUT/systemd/companion.service" ]] ||
        die "$CHECKOUT is not a checkout of the companion"
    python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
        die "Python 3.11 or later is needed (Raspberry Pi OS Bookworm has it)"

    say "system packages"
    install_packages
    say "user $SERVICE_USER"
    create_user
    say "the companion in $VENV"
    install_companion
    say "I2C at $((I2C_SPEED / 1000)) kHz"
    enable_i2c
    say "config $CONFIG_DIR/config.toml"
    install_config
    say "Wi-Fi: the hotspot's DNS and the service's right to manage the Wi-Fi"
    install_network
    say "service companion"
    install_service

    say "done"
    if [[ "$REBOOT_NEEDED" == yes ]]; then
        say "reboot to switch the I2C bus on at full speed: sudo reboot"
    fi
    say "check the set-up: sudo -u $SERVICE_USER companion doctor --config $CONFIG_DIR/config.toml"
    say "follow the log: journalctl -u companion -f"
}

# Sourced (by the tests), it only defines its functions.
if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
    main "$@"
fi
