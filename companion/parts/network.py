"""The Wi-Fi as a part of the daemon: a known network, else its own.

At start the companion waits up to ``[network] wait`` seconds for
NetworkManager to join a Wi-Fi it knows; when none connects (at once when it
knows none) it opens its own access point, ``Companion-NNNN`` with a WPA2
password made once for this device and kept in the data directory (mode
0600).  While it is the hotspot it looks, every minute, whether a network it
knows is in reach, and offers it (the table's menu and the panel); it never
leaves the hotspot on its own, since phones are on it.  A controller can
join another network from the panel: the companion connects and remembers
it, or, if that fails, goes back to its hotspot and says why.

The network manager (``drivers.network.Nmcli``, or ``SimulatedNetwork``) is
given; every call to it runs on this part's own thread, one at a time,
because a connection takes up to 45 seconds: never on the daemon's main
loop, whose watchdog pings a hung ``nmcli`` must not delay (each nmcli run
has its own timeout besides).  Whatever a call raises is a fault of the
Wi-Fi, never the end of the thread.  Passwords pass through a job
and are dropped with it: never logged, kept or answered.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.core.keys import WIFI_FAILURES
from companion.core.text import say
from companion.parts.bus import NetworkChanged
from companion.parts.lifecycle import Component, Setup

log = logging.getLogger(__name__)

IDENTITY_FILE = "hotspot.json"
MACHINE_ID = Path("/etc/machine-id")
# How often the part looks again, by what the Wi-Fi is doing.
WAITING_CHECK = 5.0
CONNECTED_CHECK = 60.0
HOTSPOT_CHECK = 60.0
UNAVAILABLE_CHECK = 60.0
CONNECTING_CHECK = 3.0

# The part's modes, as the panel shows them.
MODES = ("starting", "waiting", "connected", "hotspot", "joining", "disconnected",
         "unavailable")

@dataclass(frozen=True)
class HotspotIdentity:
    """The companion's own Wi-Fi: its name and password."""

    ssid: str
    passphrase: str


def hotspot_identity(directory: Path, name: str = "auto", *,
                     machine_id: Path = MACHINE_ID) -> HotspotIdentity:
    """The hotspot's name and password, made once and kept in
    ``directory/hotspot.json`` (0600).  The number of ``Companion-NNNN``
    comes from the machine id (the same after a fresh data directory), or
    is random where there is none."""
    from drivers.network import check_passphrase, new_passphrase

    path = directory / IDENTITY_FILE
    kept: dict[str, Any] = {}
    try:
        kept = json.loads(path.read_text())
        check_passphrase(kept.get("passphrase"))
        if not str(kept.get("number", "")).isdigit():
            raise ValueError("no number")
    except FileNotFoundError:
        kept = {}
    except (ValueError, OSError):
        log.warning("%s cannot be read: making a new hotspot password", path)
        kept = {}
    if not kept:
        kept = {"number": _device_number(machine_id), "passphrase": new_passphrase()}
        _write_private(path, json.dumps(kept) + "\n")
    ssid = name if name != "auto" else f"Companion-{kept['number']}"
    return HotspotIdentity(ssid, kept["passphrase"])


def _device_number(machine_id: Path) -> str:
    try:
        seed = machine_id.read_text().strip()
    except OSError:
        seed = ""
    if not seed:
        import secrets

        return f"{secrets.randbelow(9000) + 1000}"
    digest = hashlib.sha256(b"companion-hotspot:" + seed.encode()).digest()
    return f"{int.from_bytes(digest[:4], 'big') % 9000 + 1000}"


def _write_private(path: Path, text: str) -> None:
    from companion.host.storage import keep_file

    keep_file(path, text, mode=0o600)


class NetworkPart(Component):
    """Known Wi-Fi or the companion's own; see the module's docstring.

    It tells on the bus (:class:`~companion.parts.bus.NetworkChanged`, from the
    part's thread) ``hotspot`` (the hotspot opened), ``joined`` (a network
    was joined), ``join-failed`` (``reason`` is why, one of
    :data:`~companion.core.keys.WIFI_FAILURES`; the hotspot is back),
    ``offer`` (a known network is in reach) and ``lost``, each with the
    network's name where there is one.  What is shown of them is said in
    the table's language by whoever shows it.  ``manager`` is
    NetworkManager's driver (nmcli's, or a made-up neighbourhood in
    simulation, made when the part starts).
    """

    name = "network"
    provides = ("network",)

    def __init__(self, setup: Setup, *, manager: Any = None,
                 clock: Callable[[], float] = time.monotonic,
                 machine_id: Path = MACHINE_ID) -> None:
        self.settings = setup.config.network
        self.directory = setup.directory
        self.simulate = setup.simulate
        self.manager = manager
        self.bus = setup.bus
        self._clock = clock
        self._machine_id = machine_id
        self.identity: HotspotIdentity | None = None
        self._lock = threading.Lock()
        self._jobs: queue.Queue[tuple[Any, ...] | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._next_check = 0.0
        self._waiting_since: float | None = None
        self._first = True
        # What the panel and the menu read, under the lock.
        self.mode = "starting"
        self.state: Any = None
        self.offer: str | None = None
        self.error: str | None = None
        # The last join that failed: {"ssid", "reason"} (one of WIFI_FAILURES),
        # for the panel to say in its language.
        self.failed: dict[str, str] | None = None
        self.joining: str | None = None
        self._fault: str | None = None
        self._networks: list[Any] = []

    # -- life --------------------------------------------------------------

    def start(self) -> None:
        if self.manager is None:
            self.manager = network_manager(self.simulate)
        self.identity = hotspot_identity(self.directory, self.settings.name,
                                         machine_id=self._machine_id)
        # Even the first look is the thread's: nmcli may hang (up to its
        # timeout), and the caller is the daemon's main loop.
        self._jobs.put(("check",))
        self._thread = threading.Thread(target=self._run, name="network", daemon=True)
        self._thread.start()
        if self.simulate:
            # The made-up Wi-Fi answers at once: the virtual table starts on it.
            self.settled(5.0)

    def stop(self) -> None:
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(5)

    def fault(self) -> str | None:
        with self._lock:
            return self._fault

    def check_now(self) -> None:
        """Look at the Wi-Fi now rather than at the next planned look."""
        self._jobs.put(("check",))

    def settled(self, timeout: float = 10.0) -> bool:
        """True once every job asked for is done (for tests and tools)."""
        done = threading.Event()
        self._jobs.put(("mark", done))
        return done.wait(timeout)

    # -- asked by the panel and the menu (any thread) ----------------------

    def status(self) -> dict[str, Any]:
        """What every phone may know: never a password."""
        with self._lock:
            state = self.state
            return {
                "mode": self.mode,
                "ssid": getattr(state, "ssid", "") or None,
                "address": getattr(state, "address", "") or None,
                "hotspot": self.identity.ssid if self.identity else None,
                "offer": self.offer,
                "joining": self.joining,
                "error": self.error,
                "failed": self.failed,
            }

    def networks(self) -> list[dict[str, Any]]:
        """The networks in reach (the last list when the Wi-Fi is busy)."""
        self._jobs.put(("scan",))
        self.settled(15.0)
        with self._lock:
            return [n.to_json() for n in self._networks]

    def join(self, ssid: str, password: str | None = None) -> None:
        """Join ``ssid`` (with ``password``, or as it is known), on the
        part's thread.  Raises ValueError at once for a password WPA2
        cannot take.  A name no network can have (longer than 32 bytes
        in UTF-8) is tried all the same and fails as not found, as any name
        not in reach does."""
        from drivers.network import check_passphrase

        _check_name(ssid)
        if password is not None:
            check_passphrase(password)
        with self._lock:
            self.joining = ssid
            self.error = None
            self.failed = None
        self._jobs.put(("join", ssid, password))

    def switch(self) -> str | None:
        """Join the known network on offer; its name, or None."""
        with self._lock:
            offer = self.offer
        if offer is not None:
            self.join(offer)
        return offer

    def forget(self, ssid: str) -> None:
        """Forget ``ssid``; a name no network can have was never known."""
        if not _check_name(ssid):
            return
        self._jobs.put(("forget", ssid))

    def wifi_join(self) -> tuple[str, str] | None:
        """(name, password) of the companion's own Wi-Fi while it is the
        hotspot, for the table's screen only."""
        with self._lock:
            if self.mode != "hotspot" or self.identity is None:
                return None
            return self.identity.ssid, self.identity.passphrase

    def offered(self) -> str | None:
        with self._lock:
            return self.offer if self.mode == "hotspot" else None

    # -- the part's thread ---------------------------------------------------

    def _run(self) -> None:
        while True:
            wait = max(0.0, self._next_check - self._clock())
            try:
                job = self._jobs.get(timeout=wait)
            except queue.Empty:
                job = ("check",)
            if job is None:
                return
            self._run_job(job)
            job = None  # a join's password goes with it

    def _run_job(self, job: tuple[Any, ...]) -> None:
        try:
            if job[0] == "mark":
                job[1].set()
            elif job[0] == "check":
                self._check()
            elif job[0] == "open-hotspot":
                self._open_hotspot()
            elif job[0] == "scan":
                self._scan()
            elif job[0] == "join":
                self._join(job[1], job[2])
            elif job[0] == "forget":
                self._forget(job[1])
        except Exception as exc:
            # Never the job itself in the log: it may hold a password.
            log.error("the Wi-Fi's %s failed: %s", job[0], exc)
            self._set(fault=f"Wi-Fi: {exc}", joining=None)
            with self._lock:
                if self.mode == "joining":
                    self.mode = "disconnected"
            self._next_check = self._clock() + UNAVAILABLE_CHECK

    def _tell(self, what: str, ssid: str = "", reason: str = "") -> None:
        self.bus.tell(NetworkChanged(what, ssid, reason))

    def _set(self, **values: Any) -> None:
        with self._lock:
            for key, value in values.items():
                setattr(self, "_fault" if key == "fault" else key, value)

    def _check(self) -> None:
        now = self._clock()
        state = self.manager.state()
        first, self._first = self._first, False
        if state.kind in ("no-manager", "no-device"):
            what = ("NetworkManager is missing" if state.kind == "no-manager"
                    else "no Wi-Fi device")
            self._set(mode="unavailable", state=state,
                      fault=f"Wi-Fi: {what}" + (f" ({state.detail})" if state.detail else ""))
            self._next_check = now + UNAVAILABLE_CHECK
            return
        self._set(fault=None, state=state)
        if first and self.settings.hotspot is True and state.kind != "hotspot":
            self._open_hotspot()
            return
        if state.kind == "connected":
            self._waiting_since = None
            self._set(mode="connected", offer=None)
            self._next_check = now + CONNECTED_CHECK
        elif state.kind == "hotspot":
            self._set(mode="hotspot")
            self._look_for_known()
            self._next_check = now + HOTSPOT_CHECK
        elif state.kind == "connecting":
            self._set(mode="waiting")
            self._waiting_since = self._waiting_since or now
            self._next_check = now + CONNECTING_CHECK
        else:
            self._disconnected(now)

    def _disconnected(self, now: float) -> None:
        was = self.mode
        if self.settings.hotspot is False:
            self._set(mode="disconnected")
            self._next_check = now + WAITING_CHECK
            if was == "connected":
                self._tell("lost")
            return
        if self._waiting_since is None:
            self._waiting_since = now
        waited = now - self._waiting_since
        if not self.manager.known() or waited >= self.settings.wait:
            log.info("no known Wi-Fi connected%s: opening the companion's own",
                     f" within {waited:.0f} s" if self.manager.known() else " (none is known)")
            self._open_hotspot()
            return
        self._set(mode="waiting")
        self._next_check = now + min(WAITING_CHECK, self.settings.wait - waited)

    def _open_hotspot(self) -> None:
        from drivers.network import NetworkError

        assert self.identity is not None
        try:
            state = self.manager.hotspot(self.identity.ssid, self.identity.passphrase)
        except NetworkError as exc:
            log.error("the hotspot did not open: %s", exc)
            self._set(mode="disconnected", fault=f"Wi-Fi: the hotspot did not open: {exc}")
            self._next_check = self._clock() + UNAVAILABLE_CHECK
            return
        self._waiting_since = None
        log.info("the companion is its own Wi-Fi: %s at %s", self.identity.ssid,
                 state.address)
        self._set(mode="hotspot", state=state, offer=None, fault=None)
        self._next_check = self._clock() + HOTSPOT_CHECK
        self._tell("hotspot", self.identity.ssid)

    def _look_for_known(self) -> None:
        self._scan()
        with self._lock:
            known = [n for n in self._networks if n.known and not n.in_use]
            before = self.offer
            self.offer = known[0].ssid if known else None
            offer = self.offer
        if offer is not None and offer != before:
            log.info("a known Wi-Fi is in reach: %s", offer)
            self._tell("offer", offer)

    def _scan(self) -> None:
        found = self.manager.networks("auto")
        with self._lock:
            self._networks = found

    def _join(self, ssid: str, password: str | None) -> None:
        from drivers.network import JoinFailed, NetworkError

        secure = None
        with self._lock:
            seen = next((n for n in self._networks if n.ssid == ssid), None)
            if seen is not None:
                secure = seen.secure
            self.mode = "joining"
        log.info("joining the Wi-Fi %s", ssid)
        try:
            if not _check_name(ssid):
                raise JoinFailed("no network in reach has that name", "not-found")
            state = self.manager.connect(ssid, password, secure=secure)
        except Exception as exc:
            # Any failure ends the join (never left "joining"): NetworkManager's
            # own, or one of the driver (output it could not read...).
            if not isinstance(exc, NetworkError):
                log.error("joining %s failed: %s: %s", ssid, type(exc).__name__, exc)
            reason = exc.reason if isinstance(exc, JoinFailed) else "failed"
            if reason not in WIFI_FAILURES:
                reason = "failed"
            why = str(exc) if reason == "failed" else say(f"menu.wifi-why-{reason}", "en")
            log.warning("could not join %s: %s", ssid, why)
            self._set(joining=None, error=f"Could not join {ssid}: {why}",
                      failed={"ssid": ssid, "reason": reason})
            if self.settings.hotspot is not False:
                self._open_hotspot()
            else:
                self._check()
            self._tell("join-failed", ssid, reason)
            return
        finally:
            password = None
        self._waiting_since = None
        self._set(mode="connected" if state.kind == "connected" else self.mode, state=state,
                  joining=None, error=None, failed=None, offer=None)
        self._next_check = self._clock() + CONNECTED_CHECK
        log.info("joined %s at %s", ssid, state.address)
        self._tell("joined", ssid)

    def _forget(self, ssid: str) -> None:
        self.manager.forget(ssid)
        log.info("forgot the Wi-Fi %s", ssid)
        with self._lock:
            if self.offer == ssid:
                self.offer = None
        self._scan()
        self._check()


def _check_name(ssid: str) -> bool:
    """Whether ``ssid`` can be a network's name (at most 32 bytes in UTF-8);
    raises ValueError for one that is no name at all (empty, control
    characters)."""
    from companion.core.keys import MAX_SSID_BYTES, ssid_problem

    if len(ssid.encode("utf-8", "surrogatepass")) > MAX_SSID_BYTES:
        if any(ord(c) < 32 or ord(c) == 127 for c in ssid):
            raise ValueError("a network name may not hold control characters")
        return False
    problem = ssid_problem(ssid)
    if problem is not None:
        raise ValueError(problem)
    return True


class PortalPart(Component):
    """The captive portal's listener on port 80 (web/portal.py): phones
    that join the hotspot are sent to the panel.  The service may bind the
    port through its unit's CAP_NET_BIND_SERVICE; without it this part is a
    fault, and phones open the panel from the QR code all the same."""

    name = "captive portal"
    needs = ("address",)

    def __init__(self, setup: Setup, *, address: Any, port: int = 80) -> None:
        config = setup.config
        self.host = config.web.host
        self.port = port
        self.panel_url = address.panel_url
        # Not in simulation (no capability to bind it), not when the panel
        # itself is on 80 (it answers the phones' checks) or the hotspot is off.
        self.enabled = (not setup.simulate and config.web.port not in (0, port)
                        and config.network.hotspot is not False)
        self.server: Any = None
        self._fault: str | None = None

    def start(self) -> None:
        if not self.enabled:
            return
        from web.portal import create_portal_app, serve_portal

        try:
            self.server = serve_portal(create_portal_app(self.panel_url), self.host, self.port)
        except OSError as exc:
            self._fault = (f"captive portal: cannot listen on port {self.port} "
                           f"({exc.strerror or exc}); phones join by the QR code")
            log.warning("%s", self._fault)

    def fault(self) -> str | None:
        return self._fault

    def stop(self) -> None:
        if self.server is not None:
            self.server.close()


def network_manager(simulate: bool) -> Any:
    """NetworkManager through nmcli; a made-up neighbourhood in simulation."""
    from drivers.network import Nmcli, SimulatedNetwork

    return SimulatedNetwork() if simulate else Nmcli()
