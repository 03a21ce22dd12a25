"""A stand-in for NetworkManager's ``nmcli``, put first on PATH by the tests.

It keeps a small world in a JSON file (``$NMCLI_WORLD``): whether
NetworkManager runs, the Wi-Fi device, the networks in reach with their
passwords, the saved connections and the active one.  It answers the
commands the companion runs in nmcli's own output formats (terse ``-t``
with ``\\:`` escapes, ``-g`` values with an empty line between two profiles,
its messages and exit statuses), and appends every call to ``$NMCLI_CALLS``
(one JSON line: the arguments, and the secrets read from a ``passwd-file``
as nmcli reads them).  tests/test_network_manager.py checks each format it
prints against the real nmcli, where NetworkManager can run.
"""

from __future__ import annotations

import io
import json
import os
import sys
import uuid as uuids
from pathlib import Path

EXIT_ERROR, EXIT_ACTIVATION, EXIT_NOT_RUNNING, EXIT_NOT_FOUND = 1, 4, 8, 10

HINT = "Hint: use 'journalctl -xe NM_CONNECTION={uuid} + NM_DEVICE={device}' to get more details."


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


def terse(*fields: str) -> str:
    return ":".join(escape(f) for f in fields)


def read_passwd_file(text: str) -> dict[str, str]:
    """A passwd-file as nmcli reads it (nmc_utils_parse_passwd_file): lines
    ``setting.property:value`` (or ``=``), ``#`` comments; the value's
    unescaped spaces at either end dropped, a backslash escaping the next
    character (``\\n``, ``\\t``... as in C)."""
    secrets = {}
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = line.lstrip(" \t\n\v\f\r")
        if not line or line.startswith("#"):
            continue
        cut = min((i for i in (line.find(":"), line.find("=")) if i >= 0), default=-1)
        if cut < 0:
            fail(EXIT_ERROR, "Error: invalid passwd-file: missing colon")
        key, value = line[:cut].strip(), line[cut + 1:]
        setting, _, prop = key.partition(".")
        if setting in ("wifi", "wifi-sec"):
            setting = "802-11-wireless-security"
        secrets[f"{setting}.{prop}"] = unescape_secret(value)
    return secrets


def unescape_secret(value: str) -> str:
    spaces = " \t\n\v\f\r"
    value = value.lstrip(spaces)
    out, kept, at = [], 0, 0  # kept: the length that an escape protects
    while at < len(value):
        char = value[at]
        if char == "\\" and at + 1 < len(value) and value[at + 1].isdigit():
            code, at = int(value[at + 1]), at + 2
            for _ in range(2):  # up to three octal digits, as in C
                if at < len(value) and value[at] in "01234567":
                    code, at = code * 8 + int(value[at]), at + 1
            out.append(chr(code & 0xFF))
            kept = len(out)
        elif char == "\\" and at + 1 < len(value):
            nxt = value[at + 1]
            out.append({"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t",
                        "v": "\v"}.get(nxt, nxt))
            at += 2
            kept = len(out)
        elif char == "\\":
            break  # a trailing backslash is dropped
        else:
            out.append(char)
            at += 1
    while len(out) > kept and out[-1] in spaces:
        out.pop()
    return "".join(out)


def fail(status: int, message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(status)


def speak_as_glib() -> None:
    """nmcli prints through glib, which writes in the locale's character
    set: in one that is not UTF-8 (``LC_ALL=C``) every character ASCII cannot
    hold becomes ``?``."""
    locale = next((os.environ[name] for name in ("LC_ALL", "LC_CTYPE", "LANG")
                   if os.environ.get(name)), "C")
    if "utf-8" not in locale.lower() and "utf8" not in locale.lower():
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            setattr(sys, name, io.TextIOWrapper(stream.buffer, encoding="ascii",
                                                errors="replace", line_buffering=True))


def main(argv: list[str]) -> None:
    speak_as_glib()
    world_file, calls_file = Path(os.environ["NMCLI_WORLD"]), Path(os.environ["NMCLI_CALLS"])
    world = json.loads(world_file.read_text())
    args = list(argv)
    secrets = {}
    if "passwd-file" in args:
        at = args.index("passwd-file")
        secrets = read_passwd_file(Path(args[at + 1]).read_text())
    with calls_file.open("a") as calls:
        calls.write(json.dumps({"args": args, "secrets": secrets}) + "\n")
    # Global options: -t, -f FIELDS, -g FIELDS, --wait N.
    options: dict[str, str | bool] = {}
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-f", "-g", "--wait", "--fields", "--get-values"):
            options[option] = args.pop(0)
        else:
            options[option] = True
    if world["running"] == "no-dbus":
        fail(EXIT_ERROR, "Error: Could not create NMClient object: Could not connect: "
                         "No such file or directory.")
    if not world["running"]:
        fail(EXIT_NOT_RUNNING, "Error: NetworkManager is not running.")
    if any(" ".join(args).startswith(command) for command in world.get("garbled", ())):
        # Output that is not UTF-8, after its first line.
        sys.stdout.buffer.write(b"Caf\xe9:0a1b2c3d-0000-4000-8000-00000000000f:\xff\xfe\n")
        sys.exit(0)
    answer(world, args, options, secrets)
    world_file.write_text(json.dumps(world))


def device(world: dict) -> dict | None:
    return world.get("device")


def find(world: dict, kind: str, value: str) -> dict | None:
    for connection in world["connections"]:
        if connection[kind] == value:
            return connection
    return None


def answer(world: dict, args: list[str], options: dict, secrets: dict) -> None:
    wifi = device(world)
    if args[:2] == ["general", "status"]:
        print("running")
    elif args[:2] == ["networking", "connectivity"]:
        print(world.get("connectivity", "full"))
    elif args[:2] == ["device", "status"]:
        if wifi is not None:
            print(terse(wifi["name"], "wifi", wifi["state"], wifi["connection"]))
        print(terse("eth0", "ethernet", "unavailable", ""))
        print(terse("lo", "loopback", "connected (externally)", "lo"))
    elif args[:2] == ["device", "show"]:
        print(f"{world['address']}/24" if world.get("address") else "")
    elif args[:3] == ["device", "wifi", "list"]:
        active = find(world, "uuid", world.get("active") or "")
        for place in world["in_reach"]:
            in_use = "*" if active and active["ssid"] == place["ssid"] and \
                active["mode"] != "ap" else " "
            print(terse(in_use, place["ssid"], str(place["signal"]), place["security"]))
    elif args[:2] == ["connection", "show"] and len(args) == 2:
        for connection in world["connections"]:
            print(terse(connection["name"], connection["uuid"], "802-11-wireless"))
        print(terse("Wired connection 1", "5f2c9a8e-0000-4000-8000-000000000001",
                    "802-3-ethernet"))
    elif args[:2] == ["connection", "show"]:
        # nmcli -g prints each connection's values in turn, one a line,
        # with an empty line between two connections; one it does not know
        # is an error once the others are printed.
        fields = {"connection.uuid": "uuid", "connection.id": "name",
                  "802-11-wireless.ssid": "ssid", "802-11-wireless.mode": "mode"}
        wanted = [fields[name] for name in str(options["-g"]).split(",")]
        blocks, missing = [], []
        for kind, value in zip(args[2::2], args[3::2], strict=True):
            connection = find(world, kind, value)
            if connection is None:
                missing.append(value)
            else:
                blocks.append("\n".join(escape(connection[key]) for key in wanted))
        if blocks:
            print("\n\n".join(blocks))
        if missing:
            fail(EXIT_NOT_FOUND, f"Error: {missing[0]} - no such connection profile.")
    elif args[:2] == ["connection", "add"]:
        add(world, args[2:])
    elif args[:2] == ["connection", "up"]:
        up(world, args[2:], secrets)
    elif args[:2] == ["connection", "down"]:
        connection = find(world, args[2], args[3])
        if connection is None:
            fail(EXIT_NOT_FOUND, f"Error: '{args[3]}' is not an active connection.\n"
                                 "Error: no active connection provided.")
        if world.get("active") == connection["uuid"]:
            disconnect(world)
        print(f"Connection '{connection['name']}' successfully deactivated "
              "(D-Bus active path: /org/freedesktop/NetworkManager/ActiveConnection/7)")
    elif args[:2] == ["connection", "delete"]:
        connection = find(world, args[2], args[3])
        if connection is None:
            fail(EXIT_NOT_FOUND, f"Error: unknown connection '{args[3]}'.\n"
                                 f"Error: cannot delete unknown connection(s): {args[2]} "
                                 f"'{args[3]}'.")
        world["connections"].remove(connection)
        if world.get("active") == connection["uuid"]:
            disconnect(world)
        print(f"Connection '{connection['name']}' ({connection['uuid']}) successfully deleted.")
    else:
        fail(2, f"Error: the stand-in does not know 'nmcli {' '.join(args)}'.")


def add(world: dict, args: list[str]) -> None:
    settings = dict(zip(args[0::2], args[1::2], strict=True))
    if "wifi-sec.psk" in settings or "802-11-wireless-security.psk" in settings:
        fail(EXIT_ERROR, "Error: the stand-in refuses a password on the command line.")
    connection = {
        "name": settings["con-name"], "uuid": str(uuids.uuid4()), "ssid": settings["ssid"],
        "mode": settings.get("802-11-wireless.mode", "infrastructure"),
        "secure": "wifi-sec.key-mgmt" in settings, "psk": None, "settings": settings,
    }
    world["connections"].append(connection)
    print(f"Connection '{connection['name']}' ({connection['uuid']}) successfully added.")


def disconnect(world: dict) -> None:
    world["active"] = None
    world["address"] = ""
    world["device"].update(state="disconnected", connection="")


def up(world: dict, args: list[str], secrets: dict) -> None:
    connection = find(world, args[0], args[1])
    if connection is None:
        fail(EXIT_NOT_FOUND, f"Error: unknown connection '{args[1]}'.")
    wifi = device(world)
    psk = secrets.get("802-11-wireless-security.psk") or connection["psk"]
    failure = HINT.format(uuid=connection["uuid"], device=wifi["name"])
    # Whatever was on the device goes down first, as NetworkManager does.
    disconnect(world)
    if connection["mode"] == "ap":
        if not psk or len(psk) < 8:
            fail(EXIT_ACTIVATION, "Error: Connection activation failed: Secrets were "
                                  f"required, but not provided.\n{failure}")
        world["address"] = "10.42.0.1"
    else:
        place = next((p for p in world["in_reach"] if p["ssid"] == connection["ssid"]), None)
        if place is None:
            fail(EXIT_ACTIVATION, "Error: Connection activation failed: The Wi-Fi network "
                                  f"could not be found.\n{failure}")
        if place.get("password") and psk != place["password"]:
            fail(EXIT_ACTIVATION, "Error: Connection activation failed: Secrets were "
                                  f"required, but not provided.\n{failure}")
        world["address"] = "192.168.1.23"
    # An agent's secret for a system connection is saved (NetworkManager does).
    if psk:
        connection["psk"] = psk
    world["active"] = connection["uuid"]
    wifi.update(state="connected", connection=connection["name"])
    print("Connection successfully activated (D-Bus active path: "
          "/org/freedesktop/NetworkManager/ActiveConnection/8)")


if __name__ == "__main__":
    main(sys.argv[1:])
