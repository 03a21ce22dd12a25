"""A stand-in for NetworkManager's ``nmcli``, put first on PATH by the tests.

It keeps a small world in a JSON file (``$NMCLI_WORLD``): whether
NetworkManager runs, the Wi-Fi device, the networks in reach with their
passwords, the saved connections and the active one.  It answers the
commands the companion runs in nmcli's own output formats (terse ``-t``
with ``\\:`` escapes, ``-g`` values, its messages and exit statuses), and
appends every call to ``$NMCLI_CALLS`` (one JSON line: the arguments, and
the secrets read from a ``passwd-file``).
"""

from __future__ import annotations

import json
import os
import sys
import uuid as uuids
from pathlib import Path

WORLD = Path(os.environ["NMCLI_WORLD"])
CALLS = Path(os.environ["NMCLI_CALLS"])
EXIT_ERROR, EXIT_ACTIVATION, EXIT_NOT_RUNNING, EXIT_NOT_FOUND = 1, 4, 8, 10

HINT = "Hint: use 'journalctl -xe NM_CONNECTION={uuid} + NM_DEVICE={device}' to get more details."


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace(":", "\\:")


def terse(*fields: str) -> str:
    return ":".join(escape(f) for f in fields)


def fail(status: int, message: str) -> None:
    print(message, file=sys.stderr)
    sys.exit(status)


def main(argv: list[str]) -> None:
    world = json.loads(WORLD.read_text())
    args = list(argv)
    secrets = {}
    if "passwd-file" in args:
        at = args.index("passwd-file")
        for line in Path(args[at + 1]).read_text().splitlines():
            key, _, value = line.partition(":")
            secrets[key] = value
    with CALLS.open("a") as calls:
        calls.write(json.dumps({"args": args, "secrets": secrets}) + "\n")
    # Global options: -t, -f FIELDS, -g FIELDS, --wait N.
    options: dict[str, str | bool] = {}
    while args and args[0].startswith("-"):
        option = args.pop(0)
        if option in ("-f", "-g", "--wait", "--fields", "--get-values"):
            options[option] = args.pop(0)
        else:
            options[option] = True
    if not world["running"]:
        fail(EXIT_NOT_RUNNING, "Error: NetworkManager is not running.")
    answer(world, args, options, secrets)
    WORLD.write_text(json.dumps(world))


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
        # nmcli -g prints each connection's values in turn, one a line.
        for kind, value in zip(args[2::2], args[3::2], strict=True):
            connection = find(world, kind, value)
            if connection is None:
                fail(EXIT_NOT_FOUND, f"Error: {value} - no such connection profile.")
            print(escape(connection["ssid"]))
            print(connection["mode"])
    elif args[:2] == ["connection", "add"]:
        add(world, args[2:])
    elif args[:2] == ["connection", "up"]:
        up(world, args[2:], secrets)
    elif args[:2] == ["connection", "down"]:
        connection = find(world, args[2], args[3])
        if connection is None:
            fail(EXIT_NOT_FOUND, f"Error: '{args[3]}' is not an active connection.")
        if world.get("active") == connection["uuid"]:
            disconnect(world)
        print(f"Connection '{connection['name']}' successfully deactivated "
              "(D-Bus active path: /org/freedesktop/NetworkManager/ActiveConnection/7)")
    elif args[:2] == ["connection", "delete"]:
        connection = find(world, args[2], args[3])
        if connection is None:
            fail(EXIT_NOT_FOUND, f"Error: {args[3]} - no such connection profile.")
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
