"""The Wi-Fi, through NetworkManager's command line (``nmcli``).

:class:`Nmcli` runs ``nmcli`` in terse mode (``-t``: fields separated by
``:``, with ``\\:`` and ``\\\\`` escaping a colon or a backslash inside a
value; ``-g`` escapes its values the same way and, for several profiles,
puts an empty line between them) and parses what it prints: the Wi-Fi
device and its state, the networks in reach, the saved connections.  It connects to a network, opens
the companion's own access point (NetworkManager's ``shared`` mode, with its
dnsmasq for DHCP and DNS) and forgets a network.  It takes the path of
``nmcli`` and the function that runs it as plain arguments, so that a test
hands in a stand-in ``nmcli``.

Secrets never go on the command line, where any user of the machine reads
them in ``/proc/*/cmdline`` and a log of the command would keep them.  A
connection is created without its password, and brought up with
``nmcli connection up ... passwd-file FILE``: the password is in a file
readable by the companion's user only (mode 0600, in its private temporary
directory), removed as soon as ``nmcli`` returns; its values are escaped
as nmcli reads them (a backslash escapes, spaces at either end are
dropped: :func:`passwd_file_value`).  NetworkManager saves a secret an agent
gives it for a connection it owns, so a joined network is remembered.

nmcli runs in the ``C.UTF-8`` locale: its messages stay in English (the
driver reads them) and names that are not ASCII come through as they are
(in the ``C`` locale glib prints them as ``?``).  What it prints is read as
bytes and decoded as UTF-8, a byte that is not UTF-8 becoming U+FFFD.  Each
run has a timeout (:data:`QUERY_TIMEOUT` for a question, longer for
bringing a connection up); a run that does not end in time is a
:class:`NetworkError` like any other.

:class:`SimulatedNetwork` is the same interface over a few made-up networks,
for ``companion serve --simulate`` (as gpiozero ships its mock pins).
"""

from __future__ import annotations

import logging
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from companion.core.errors import CompanionError
from companion.core.keys import ssid_problem

log = logging.getLogger(__name__)

# The companion's own access point: NetworkManager's default shared subnet,
# made explicit so that the DNS drop-in (every name -> the companion) agrees.
HOTSPOT_ADDRESS = "10.42.0.1"
HOTSPOT_CONNECTION = "Companion hotspot"
# How long nmcli waits for a connection to come up (its --wait).
CONNECT_TIMEOUT = 45
# How long a question to NetworkManager (a list, a state) may take.
QUERY_TIMEOUT = 15.0
# The locale nmcli runs in: English messages, UTF-8 names.
NMCLI_LOCALE = "C.UTF-8"
# nmcli's own exit statuses (man nmcli, EXIT STATUS).
EXIT_ACTIVATION_FAILED = 4
EXIT_NOT_RUNNING = 8
EXIT_NOT_FOUND = 10
WIFI_TYPES = ("802-11-wireless", "wifi")
PSK_LENGTHS = range(8, 64)
# How long the list of saved connections is taken as still true.
CONNECTIONS_FRESH = 2.0

# Connectivity states (nmcli networking connectivity).
CONNECTIVITY = ("none", "portal", "limited", "full", "unknown")


class NetworkError(CompanionError, OSError):
    """NetworkManager refused or failed; the message says why, ``fix`` what
    to do about it (empty when there is nothing to do but try again)."""

    fix = ""

    def __init__(self, message: str, fix: str = "") -> None:
        super().__init__(message)
        if fix:
            self.fix = fix


class NoNetworkManager(NetworkError):
    """nmcli is not installed, or NetworkManager (or the system D-Bus it
    answers on) is not running."""

    fix = "sudo systemctl enable --now NetworkManager"


class NoWifiDevice(NetworkError):
    """NetworkManager manages no Wi-Fi device."""


class JoinFailed(NetworkError):
    """A network could not be joined; ``reason`` is a short code
    (``wrong-password``, ``not-found``, ``timeout``, ``failed``)."""

    def __init__(self, message: str, reason: str = "failed") -> None:
        super().__init__(message)
        self.reason = reason


class BadPassphrase(CompanionError, ValueError):
    """A Wi-Fi password that WPA2 cannot take (or a network name Wi-Fi
    cannot take: :class:`BadSsid`)."""


class BadSsid(BadPassphrase):
    """A network name that is not 1 to 32 bytes of UTF-8."""


# -- values ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class WifiNetwork:
    """A network in reach: its name, signal (0-100), security as nmcli says
    it ("WPA2", "WPA1 WPA2", "" for an open one), whether a connection for
    it is saved, and whether the companion is on it now."""

    ssid: str
    signal: int
    security: str = ""
    known: bool = False
    in_use: bool = False

    @property
    def secure(self) -> bool:
        return self.security not in ("", "--")

    def to_json(self) -> dict[str, Any]:
        return {"ssid": self.ssid, "signal": self.signal, "secure": self.secure,
                "security": self.security, "known": self.known, "in_use": self.in_use}


@dataclass(frozen=True)
class WifiState:
    """Where the Wi-Fi is: ``kind`` is ``connected`` (to ``ssid``),
    ``hotspot`` (the companion's own, ``ssid``), ``connecting``,
    ``disconnected``, ``no-device`` or ``no-manager``; ``address`` is the
    device's IPv4 address, ``detail`` what nmcli said when it matters."""

    kind: str
    ssid: str = ""
    device: str = ""
    address: str = ""
    detail: str = ""


@dataclass(frozen=True)
class SavedConnection:
    name: str
    uuid: str
    ssid: str
    mode: str = "infrastructure"

    @property
    def is_hotspot(self) -> bool:
        return self.mode == "ap"


# -- terse output ---------------------------------------------------------------------------


def split_terse(line: str) -> list[str]:
    """One line of ``nmcli -t``: fields split at each ``:`` that is not
    escaped, and ``\\:`` and ``\\\\`` turned back into ``:`` and ``\\``."""
    fields, current, chars = [], [], iter(line)
    for char in chars:
        if char == "\\":
            escaped = next(chars, "")
            current.append(escaped)
        elif char == ":":
            fields.append("".join(current))
            current = []
        else:
            current.append(char)
    fields.append("".join(current))
    return fields


def unescape(value: str) -> str:
    """A single value of ``nmcli -g`` (its colons escaped all the same)."""
    return "".join(split_terse(value)) if "\\" in value else value


def check_ssid(ssid: Any) -> str:
    """A network name: 1 to 32 bytes of UTF-8 (what Wi-Fi allows: 32 ASCII
    letters, 16 accented ones), no control characters."""
    problem = ssid_problem(ssid)
    if problem is not None:
        raise BadSsid(problem)
    return str(ssid)


def check_passphrase(passphrase: Any) -> str:
    """A WPA2 passphrase: 8 to 63 printable ASCII characters (or 64 hex
    digits, the key itself).  Its value is never put in the message."""
    if not isinstance(passphrase, str):
        raise BadPassphrase("the Wi-Fi password must be text")
    if len(passphrase) == 64 and re.fullmatch(r"[0-9a-fA-F]{64}", passphrase):
        return passphrase
    if len(passphrase) not in PSK_LENGTHS:
        raise BadPassphrase(f"a Wi-Fi password has 8 to 63 characters, not {len(passphrase)}")
    if not all(32 <= ord(c) < 127 for c in passphrase):
        raise BadPassphrase("a Wi-Fi password holds printable ASCII characters only "
                            "(letters, digits, spaces and punctuation)")
    return passphrase


# How nmcli reads a passwd-file value (nm_utils_buf_utf8safe_unescape with
# STRIP_SPACES): a backslash escapes the next character (\\n, \\t... as in C),
# and the whitespace at either end that is not escaped is dropped.
_PASSWD_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t",
                   "\v": "\\v", "\f": "\\f", "\b": "\\b"}


def passwd_file_value(value: str) -> str:
    """``value`` as a line of nmcli's ``passwd-file`` must hold it for nmcli
    to read back exactly ``value``: backslashes and control characters
    escaped, and a space escaped at either end (nmcli strips those)."""
    if "\0" in value:
        raise BadPassphrase("a secret may not hold a NUL character")
    text = "".join(_PASSWD_ESCAPES.get(char, char) for char in value)
    body = text.strip(" ")
    leading = len(text) - len(text.lstrip(" "))
    trailing = len(text) - leading - len(body)
    return "\\ " * leading + body + "\\ " * trailing


def passwd_file_text(passwords: dict[str, str]) -> str:
    """The lines of a ``passwd-file``: ``setting.property:value``."""
    lines = []
    for key, value in passwords.items():
        if not re.fullmatch(r"[\w-]+\.[\w-]+", key):
            raise ValueError(f"not a setting's property: {key!r}")
        lines.append(f"{key}:{passwd_file_value(value)}\n")
    return "".join(lines)


# The hotspot's passphrase: no 0/o, 1/l/i to misread on a small screen.
PASSPHRASE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
PASSPHRASE_LENGTH = 10


def new_passphrase(length: int = PASSPHRASE_LENGTH) -> str:
    """A passphrase to read off the table's screen and type: lowercase
    letters and digits that cannot be mistaken for one another (10 of 31
    symbols: about 49 bits)."""
    return "".join(secrets.choice(PASSPHRASE_ALPHABET) for _ in range(length))


# -- nmcli ------------------------------------------------------------------------------------


Runner = Callable[..., subprocess.CompletedProcess]


class Nmcli:
    """NetworkManager through ``nmcli``.  ``path`` is the program (found on
    PATH when a bare name), ``run`` runs it like :func:`subprocess.run`,
    ``interface`` is the Wi-Fi device (``None``: the first NetworkManager
    manages), ``secret_dir`` where the short-lived password files go."""

    def __init__(self, path: str = "nmcli", run: Runner = subprocess.run, *,
                 interface: str | None = None, secret_dir: str | None = None,
                 timeout: float = CONNECT_TIMEOUT + 15,
                 query_timeout: float = QUERY_TIMEOUT) -> None:
        self.path = path
        self._run_process = run
        self.interface = interface
        self.secret_dir = secret_dir
        self.timeout = timeout
        self.query_timeout = query_timeout
        self._connections: tuple[float, list[SavedConnection]] | None = None

    # -- running nmcli ----------------------------------------------------------

    def program(self) -> str | None:
        if os.sep in self.path:
            return self.path if os.access(self.path, os.X_OK) else None
        return shutil.which(self.path)

    def _run(self, *args: str, check: bool = True, passwords: dict[str, str] | None = None,
             timeout: float | None = None) -> subprocess.CompletedProcess[str]:
        """Run nmcli with ``args``; its output decoded (UTF-8, a byte that is
        not UTF-8 becoming U+FFFD).  ``timeout``: the question's by default."""
        program = self.program()
        if program is None:
            raise NoNetworkManager(
                "nmcli is not installed",
                "'sudo apt install network-manager' (NetworkManager runs the Wi-Fi on "
                "Raspberry Pi OS Bookworm), then 'sudo systemctl enable --now NetworkManager'")
        timeout = self.query_timeout if timeout is None else timeout
        argv = [program, *args]
        if args and args[0] in ("connection", "--wait"):
            self._connections = None  # it may change them
        secret_file = None
        if passwords:
            secret_file = self._secret_file(passwords)
            argv += ["passwd-file", secret_file]
        # The arguments never hold a secret (those are in the file): safe to log.
        log.debug("nmcli %s", " ".join(args))
        try:
            ran = self._run_process(argv, capture_output=True, timeout=timeout, check=False,
                                    env=nmcli_environment())
        except subprocess.TimeoutExpired:
            said = f"nmcli did not answer within {timeout:.0f} s"
            if "up" in args[:4]:  # bringing a connection up
                raise JoinFailed(said, "timeout") from None
            raise NetworkError(f"{said}: NetworkManager is busy or hung",
                               "sudo systemctl restart NetworkManager") from None
        except OSError as exc:
            raise NoNetworkManager(f"cannot run nmcli ({exc.strerror or exc})",
                                   "sudo apt install --reinstall network-manager") from None
        finally:
            if secret_file is not None:
                _remove(secret_file)
        done = subprocess.CompletedProcess(ran.args, ran.returncode, _text(ran.stdout),
                                           _text(ran.stderr))
        if check and done.returncode != 0:
            raise self._error(done)
        return done

    def _secret_file(self, passwords: dict[str, str]) -> str:
        text = passwd_file_text(passwords)
        fd, path = tempfile.mkstemp(prefix="companion-nm-", dir=self.secret_dir)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:  # mkstemp makes it 0600
                file.write(text)
        except BaseException:
            _remove(path)
            raise
        return path

    def _error(self, done: subprocess.CompletedProcess[str]) -> NetworkError:
        said = _said(done)
        if done.returncode == EXIT_NOT_RUNNING or "NetworkManager is not running" in said:
            return NoNetworkManager("NetworkManager is not running",
                                    "sudo systemctl enable --now NetworkManager")
        if "Could not create NMClient object" in said:
            return NoNetworkManager(
                f"the system D-Bus does not answer, so NetworkManager cannot be asked ({said})",
                "sudo systemctl start dbus, then sudo systemctl restart NetworkManager "
                "(or reboot)")
        if "Not authorized" in said or "not authorized" in said:
            return NetworkError(
                f"NetworkManager refused the companion ({said})",
                "run scripts/install-pi.sh again: it lets the 'companion' user manage the Wi-Fi")
        return NetworkError(f"nmcli failed: {said}")

    def _lines(self, *args: str) -> list[list[str]]:
        out = self._run("-t", *args).stdout
        return [split_terse(line) for line in out.splitlines() if line.strip()]

    # -- what is there --------------------------------------------------------------

    def running(self) -> bool:
        """True when nmcli is there and NetworkManager answers."""
        return self._not_running() is None

    def _not_running(self) -> NoNetworkManager | None:
        """Why NetworkManager cannot be asked, or None when it answers."""
        try:
            rows = self._lines("-f", "RUNNING", "general", "status")
        except NoNetworkManager as exc:
            return exc
        if rows and rows[0][0] == "running":
            return None
        return NoNetworkManager("NetworkManager is not running")

    def wifi_device(self) -> tuple[str, str, str] | None:
        """``(device, state, connection)`` of the Wi-Fi device, or None."""
        for row in self._lines("-f", "DEVICE,TYPE,STATE,CONNECTION", "device", "status"):
            if len(row) < 4:
                continue
            device, kind, state, connection = row[:4]
            if kind == "wifi" and (self.interface is None or device == self.interface):
                return device, state, connection
        return None

    def connections(self, fresh: bool = False) -> list[SavedConnection]:
        """The saved Wi-Fi connections, with their network's name and mode
        (one ``nmcli`` for the list, one for the settings of them all; kept
        until the next change, or a few seconds)."""
        cached = self._connections
        if not fresh and cached is not None and \
                time.monotonic() - cached[0] < CONNECTIONS_FRESH:
            return list(cached[1])
        listed = [row for row in self._lines("-f", "NAME,UUID,TYPE", "connection", "show")
                  if len(row) >= 3 and row[2] in WIFI_TYPES]
        found = []
        if listed:
            ids = [word for row in listed for word in ("uuid", row[1])]
            done = self._run("-g", "connection.uuid,802-11-wireless.ssid,802-11-wireless.mode",
                             "connection", "show", *ids, check=False)
            # A profile deleted since the list is missing (exit status 10);
            # any other failure is NetworkManager's.
            if done.returncode not in (0, EXIT_NOT_FOUND):
                raise self._error(done)
            settings = profile_values(done.stdout, [row[1] for row in listed], 3)
            for name, uuid, *_ in listed:
                if uuid in settings:
                    ssid, mode = settings[uuid][1:]
                    found.append(SavedConnection(name, uuid, ssid or name,
                                                 mode or "infrastructure"))
        self._connections = (time.monotonic(), found)
        return list(found)

    def address(self, device: str) -> str:
        out = self._run("-g", "IP4.ADDRESS", "device", "show", device, check=False).stdout
        first = out.strip().split("|")[0].strip()
        return unescape(first).split("/")[0] if first else ""

    def state(self) -> WifiState:
        absent = self._not_running()
        if absent is not None:
            return WifiState("no-manager", detail=str(absent))
        found = self.wifi_device()
        if found is None:
            return WifiState("no-device")
        device, state, connection = found
        if state == "connected":
            saved = {c.name: c for c in self.connections()}
            used = saved.get(connection)
            ssid = used.ssid if used else connection
            kind = "hotspot" if used is not None and used.is_hotspot else "connected"
            return WifiState(kind, ssid, device, self.address(device))
        if state.startswith("connecting"):
            return WifiState("connecting", connection, device)
        if state == "unavailable":
            return WifiState("no-device", device=device,
                             detail="the Wi-Fi is switched off (rfkill) or has no country set")
        return WifiState("disconnected", device=device)

    def networks(self, rescan: str = "auto") -> list[WifiNetwork]:
        """The networks in reach, strongest first, one line per name.
        ``rescan``: ``auto`` (nmcli scans when its list is old), ``yes`` or ``no``.
        NetworkManager does not scan while it is an access point: then the
        list is the one it saw last."""
        args = ["-f", "IN-USE,SSID,SIGNAL,SECURITY", "device", "wifi", "list"]
        if self.interface:
            args += ["ifname", self.interface]
        args += ["--rescan", rescan]
        known = {c.ssid for c in self.connections() if not c.is_hotspot}
        best: dict[str, WifiNetwork] = {}
        for row in self._lines(*args):
            if len(row) < 4 or not row[1]:
                continue  # a hidden network has no name to show
            in_use, ssid, signal, security = row[0], row[1], row[2], row[3]
            network = WifiNetwork(ssid, _int(signal), "" if security == "--" else security,
                                  ssid in known, in_use.strip() == "*")
            held = best.get(ssid)
            if held is None or network.signal > held.signal or network.in_use:
                best[ssid] = WifiNetwork(ssid, max(network.signal, held.signal if held else 0),
                                         network.security, network.known,
                                         network.in_use or bool(held and held.in_use))
        return sorted(best.values(), key=lambda n: (-n.signal, n.ssid))

    def connectivity(self) -> str:
        rows = self._lines("networking", "connectivity")
        return rows[0][0] if rows and rows[0][0] in CONNECTIVITY else "unknown"

    # -- changing it ----------------------------------------------------------------

    def _device(self) -> str:
        found = self.wifi_device()
        if found is None:
            raise NoWifiDevice("NetworkManager has no Wi-Fi device: check 'nmcli device' "
                               "and 'rfkill list'")
        return found[0]

    def _delete(self, name_or_uuid: str, by: str = "id") -> None:
        self._run("connection", "delete", by, name_or_uuid, check=False)

    def _up(self, uuid: str, password: str | None) -> None:
        passwords = {"802-11-wireless-security.psk": password} if password else None
        done = self._run("--wait", str(CONNECT_TIMEOUT), "connection", "up", "uuid", uuid,
                         check=False, passwords=passwords, timeout=self.timeout)
        if done.returncode == 0:
            return
        said = _said(done)
        if done.returncode == EXIT_NOT_FOUND:
            raise JoinFailed("the saved connection is gone", "not-found")
        if done.returncode != EXIT_ACTIVATION_FAILED:
            raise self._error(done)
        lowered = said.lower()
        if "secrets were required" in lowered or "802.1x supplicant" in lowered or \
                "no secrets" in lowered:
            raise JoinFailed("the password is wrong", "wrong-password")
        if "timeout" in lowered or "timed out" in lowered:
            raise JoinFailed("the network did not answer in time", "timeout")
        if "not found" in lowered or "no network with ssid" in lowered:
            raise JoinFailed("the network is not in reach", "not-found")
        raise JoinFailed(f"NetworkManager could not connect: {said}", "failed")

    def _add(self, name: str, *settings: str) -> str:
        done = self._run("connection", "add", "type", "wifi", "ifname", self._device(),
                         "con-name", name, *settings)
        match = re.search(r"\(([0-9a-f-]{36})\)", done.stdout)
        if match:
            return match.group(1)
        for saved in self.connections():
            if saved.name == name:
                return saved.uuid
        raise NetworkError(f"nmcli added the connection {name!r} but did not say its id")

    def connect(self, ssid: str, password: str | None = None, *,
                secure: bool | None = None) -> WifiState:
        """Join ``ssid``.  With a password: a new connection (any saved
        one of that name is replaced), remembered once it works, deleted
        when it does not.  Without: the saved connection, or an open network."""
        check_ssid(ssid)
        if password is not None:
            check_passphrase(password)
        saved = [c for c in self.connections(fresh=True)
                 if c.ssid == ssid and not c.is_hotspot]
        if password is None and saved:
            self._up(saved[0].uuid, None)
            return self.state()
        if password is None and secure:
            raise JoinFailed(f"{ssid} needs a password", "wrong-password")
        for old in saved:
            self._delete(old.uuid, "uuid")
        settings = ["ssid", ssid, "connection.autoconnect", "yes"]
        if password is not None:
            settings += ["wifi-sec.key-mgmt", "wpa-psk"]
        uuid = self._add(ssid, *settings)
        try:
            self._up(uuid, password)
        except NetworkError:
            self._delete(uuid, "uuid")  # a wrong password is not remembered
            raise
        return self.state()

    def hotspot(self, ssid: str, passphrase: str) -> WifiState:
        """Open the companion's own access point: WPA2 (RSN, CCMP), IPv4
        shared at :data:`HOTSPOT_ADDRESS` (NetworkManager runs dnsmasq for
        DHCP and DNS), no IPv6, never started by NetworkManager on its own.
        The connection ``nmcli device wifi hotspot`` would make, but made
        here so that its password goes through a file, not the command line."""
        check_ssid(ssid)
        check_passphrase(passphrase)
        for old in self.connections(fresh=True):
            if old.is_hotspot and old.name == HOTSPOT_CONNECTION:
                self._delete(old.uuid, "uuid")
        uuid = self._add(
            HOTSPOT_CONNECTION, "ssid", ssid, "connection.autoconnect", "no",
            "802-11-wireless.mode", "ap", "802-11-wireless.band", "bg",
            "ipv4.method", "shared", "ipv4.addresses", f"{HOTSPOT_ADDRESS}/24",
            "ipv6.method", "disabled",
            "wifi-sec.key-mgmt", "wpa-psk", "wifi-sec.proto", "rsn",
            "wifi-sec.pairwise", "ccmp", "wifi-sec.group", "ccmp",
            # Protected management frames are optional in WPA2 and trip up
            # the access-point mode of some chips (the Pi's brcmfmac).
            "wifi-sec.pmf", "disable")
        try:
            self._up(uuid, passphrase)
        except JoinFailed as exc:
            raise JoinFailed(f"the hotspot did not start: {exc}", exc.reason) from None
        return self.state()

    def stop_hotspot(self) -> None:
        for saved in self.connections():
            if saved.is_hotspot and saved.name == HOTSPOT_CONNECTION:
                self._run("connection", "down", "uuid", saved.uuid, check=False)

    def forget(self, ssid: str) -> bool:
        """Delete every saved connection to ``ssid``; False when none was."""
        check_ssid(ssid)
        gone = False
        for saved in self.connections(fresh=True):
            if saved.ssid == ssid and not saved.is_hotspot:
                self._delete(saved.uuid, "uuid")
                gone = True
        return gone

    def known(self) -> list[str]:
        return sorted({c.ssid for c in self.connections() if not c.is_hotspot})


def nmcli_environment(environ: Any = None) -> dict[str, str]:
    """The environment nmcli runs in: the C.UTF-8 locale (English messages,
    names as UTF-8), no translation asked for."""
    env = dict(os.environ if environ is None else environ)
    env.pop("LANGUAGE", None)
    env["LC_ALL"] = NMCLI_LOCALE
    return env


def _text(output: Any) -> str:
    """What nmcli printed, as text: UTF-8, a byte that is not UTF-8 as U+FFFD."""
    if output is None:
        return ""
    if isinstance(output, str):
        return output
    return bytes(output).decode("utf-8", "replace")


def profile_values(output: str, uuids: Sequence[str], fields: int) -> dict[str, list[str]]:
    """What ``nmcli -g connection.uuid,... connection show uuid A uuid B ...``
    prints: for each profile its ``fields`` values (the uuid first), one a
    line and escaped as in terse mode, with an empty line between two
    profiles.  Keyed by uuid, each value unescaped; a profile is found by
    its uuid's line, so a value that is empty (or holds a line break) does
    not shift the next profile's."""
    lines = output.split("\n")
    wanted = set(uuids)
    found: dict[str, list[str]] = {}
    at = 0
    while at < len(lines):
        if lines[at] in wanted and lines[at] not in found and at + fields <= len(lines):
            found[lines[at]] = [unescape(line) for line in lines[at:at + fields]]
            at += fields
        else:
            at += 1
    return found


def _said(done: subprocess.CompletedProcess[str]) -> str:
    text = (done.stderr or done.stdout or "").strip()
    lines = [line.removeprefix("Error: ").strip() for line in text.splitlines()
             if line.strip() and not line.startswith("Hint:")]
    return " ".join(lines) or f"exit status {done.returncode}"


def _int(text: str) -> int:
    try:
        return max(0, min(100, int(text)))
    except ValueError:
        return 0


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


# -- the simulation's stand-in ----------------------------------------------------------------


@dataclass
class _Place:
    ssid: str
    signal: int
    password: str | None  # None: open


@dataclass
class SimulatedNetwork:
    """A made-up neighbourhood for ``companion serve --simulate``: the same
    methods as :class:`Nmcli`, no program run.  Nothing is known at first,
    so the companion opens its own hotspot; joining a network with its
    password works, a wrong one fails (and the companion goes back to its
    hotspot), as on a Pi."""

    places: Sequence[_Place] = (
        _Place("Café Libre", 74, "croissant"),
        _Place("Library guests", 51, None),
        _Place("Neighbours 5G", 23, "not-for-you"),
    )
    interface: str = "wlan0"
    _known: dict[str, str | None] = field(default_factory=dict)
    _state: WifiState = field(default_factory=lambda: WifiState("disconnected", device="wlan0"))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def program(self) -> str | None:
        return "simulated"

    def running(self) -> bool:
        return True

    def state(self) -> WifiState:
        with self._lock:
            return self._state

    def networks(self, rescan: str = "auto") -> list[WifiNetwork]:
        with self._lock:
            current = self._state.ssid if self._state.kind == "connected" else ""
            return [WifiNetwork(p.ssid, p.signal, "WPA2" if p.password else "",
                                p.ssid in self._known, p.ssid == current)
                    for p in self.places]

    def connectivity(self) -> str:
        return "full" if self.state().kind == "connected" else "none"

    def known(self) -> list[str]:
        with self._lock:
            return sorted(self._known)

    def connect(self, ssid: str, password: str | None = None, *,
                secure: bool | None = None) -> WifiState:
        check_ssid(ssid)
        if password is not None:
            check_passphrase(password)
        place = next((p for p in self.places if p.ssid == ssid), None)
        with self._lock:
            if place is None:
                raise JoinFailed(f"{ssid} is not in reach", "not-found")
            given = password if password is not None else self._known.get(ssid)
            if place.password is not None and given != place.password:
                if password is not None:
                    self._known.pop(ssid, None)
                raise JoinFailed("the password is wrong", "wrong-password")
            self._known[ssid] = given
            self._state = WifiState("connected", ssid, self.interface, "192.168.1.57")
            return self._state

    def hotspot(self, ssid: str, passphrase: str) -> WifiState:
        check_ssid(ssid)
        check_passphrase(passphrase)
        with self._lock:
            self._state = WifiState("hotspot", ssid, self.interface, HOTSPOT_ADDRESS)
            return self._state

    def stop_hotspot(self) -> None:
        with self._lock:
            if self._state.kind == "hotspot":
                self._state = WifiState("disconnected", device=self.interface)

    def forget(self, ssid: str) -> bool:
        with self._lock:
            return self._known.pop(ssid, 0) != 0
