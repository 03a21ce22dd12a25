"""How phones find the panel: the address they can reach, and an mDNS name.

The QR code on the table and the mDNS record must carry an address that a
phone on the same Wi-Fi can reach, never loopback.  :func:`phone_address`
asks the kernel which source address it would use towards a private-range
address: ``connect()`` on a UDP socket picks the route and sends nothing, so
this works offline of the destination and costs no packet.  A Pi that is
itself the hotspot (NetworkManager's shares 10.42.0.1/24) has no route
beyond its own network: then the address of its Wi-Fi interface is used.

:class:`PanelAdvertiser` registers the panel as an ``_http._tcp`` service
(``Tabletop Companion._http._tcp.local.``) with ``path=/`` in its TXT record,
so that phones and computers list it by name.  The ``zeroconf`` instance is
made by a factory that tests replace, so that no test multicasts onto a real
network; zeroconf itself is imported only when advertising starts.
"""

from __future__ import annotations

import fcntl
import ipaddress
import logging
import socket
import struct
import threading
from typing import Any, Callable, Sequence

log = logging.getLogger(__name__)

SERVICE_TYPE = "_http._tcp.local."
# One address in each private range: the route towards whichever the
# machine's network uses gives the address phones on that network reach.
PROBE_ADDRESSES = ("192.168.255.255", "10.255.255.255", "172.31.255.255")
LOOPBACK = "127.0.0.1"
# linux/sockios.h: the IPv4 address of the interface named in the request.
SIOCGIFADDR = 0x8915
IFNAMSIZ = 16


def is_loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def route_source(destination: str) -> str | None:
    """The local address the kernel would send from towards ``destination``
    (``None`` when there is no route)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect((destination, 9))  # UDP: chooses a route, sends nothing
            return probe.getsockname()[0]
        except OSError:
            return None


def hostname_address() -> str | None:
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return None


def interface_addresses() -> list[tuple[str, str]]:
    """Each network interface that has an IPv4 address, as (name, address),
    asked of the kernel (no packet is sent)."""
    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:IFNAMSIZ - 1])
            try:
                answer = fcntl.ioctl(probe.fileno(), SIOCGIFADDR, request)
            except OSError:
                continue  # down, or no IPv4 address
            found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def _wifi_first(interface: tuple[str, str]) -> tuple[bool, bool]:
    name = interface[0]
    return not name.startswith("wl"), not name.startswith(("eth", "en"))


def phone_address(
    *,
    probes: Sequence[str] = PROBE_ADDRESSES,
    route: Callable[[str], str | None] = route_source,
    interfaces: Callable[[], list[tuple[str, str]]] = interface_addresses,
    by_hostname: Callable[[], str | None] = hostname_address,
) -> str:
    """The address phones on the local network reach this machine at: the
    source address of the route to a private network, else the address of
    its Wi-Fi (then wired) interface, else what the host name resolves to,
    else loopback (only this machine can then reach it)."""
    for destination in probes:
        address = route(destination)
        if address and not is_loopback(address) and address != "0.0.0.0":
            return address
    for _, address in sorted(interfaces(), key=_wifi_first):
        if not is_loopback(address) and address != "0.0.0.0":
            return address
    address = by_hostname()
    if address and not is_loopback(address):
        return address
    return LOOPBACK


def reachable_host(listen_host: str, **finder: Any) -> str:
    """The host to put in links for a server listening on ``listen_host``:
    the phone address when it listens everywhere, else the address itself."""
    if listen_host in ("0.0.0.0", "::", ""):
        return phone_address(**finder)
    return listen_host


def panel_url(host: str, port: int) -> str:
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def service_info(name: str, address: str, port: int, *, server: str | None = None) -> Any:
    """The mDNS record of the panel: ``<name>._http._tcp.local.`` on
    ``address:port`` with ``path=/``."""
    from zeroconf import ServiceInfo

    host = server or f"{_label(socket.gethostname())}.local."
    return ServiceInfo(
        SERVICE_TYPE,
        f"{name}.{SERVICE_TYPE}",
        addresses=[ipaddress.ip_address(address).packed],
        port=port,
        properties={"path": "/"},
        server=host,
    )


def _label(hostname: str) -> str:
    return hostname.split(".")[0] or "companion"


def _zeroconf() -> Any:
    from zeroconf import IPVersion, Zeroconf

    return Zeroconf(ip_version=IPVersion.V4Only)


class PanelAdvertiser:
    """Keeps the panel advertised over mDNS while the companion runs.

    Registering probes the network for a name clash (about a second), so it
    runs on its own short-lived thread and never delays the panel.  A clash
    is resolved by zeroconf, which renames the instance (``... (2)``).
    ``zeroconf_factory`` makes the object that registers (a fake in tests).
    """

    def __init__(self, name: str, port: int, *,
                 zeroconf_factory: Callable[[], Any] = _zeroconf,
                 server: str | None = None) -> None:
        self.name = name
        self.port = port
        self.server = server
        self._factory = zeroconf_factory
        self._lock = threading.Lock()
        self._zeroconf: Any = None
        self._info: Any = None
        self._closed = False
        self.address: str | None = None
        self.status = "not advertised yet"

    def advertise(self, address: str, *, wait: bool = False) -> threading.Thread | None:
        """Advertise the panel at ``address`` (again, if the address
        changed); returns the registering thread, joined when ``wait``."""
        if is_loopback(address):
            status = "not advertised: the machine has no network address"
            if status != self.status:  # said once, not on every tick of the main loop
                log.warning("mDNS: not advertising %s, only this machine could reach it",
                            address)
            self.status = status
            return None
        if address == self.address:
            return None
        thread = threading.Thread(target=self._register, args=(address,),
                                  name="mdns", daemon=True)
        thread.start()
        if wait:
            thread.join()
        return thread

    def _register(self, address: str) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                if self._zeroconf is None:
                    self._zeroconf = self._factory()
                info = service_info(self.name, address, self.port, server=self.server)
                if self._info is not None:
                    self._zeroconf.unregister_service(self._info)
                # allow_name_change: a second companion on the network becomes "... (2)".
                self._zeroconf.register_service(info, allow_name_change=True)
            except Exception as exc:  # mDNS is a convenience: the QR code still works
                self.status = f"not advertised over mDNS: {exc}"
                log.warning("mDNS: cannot advertise the panel (%s); phones can still "
                            "join with the QR code", exc)
                return
            self._info = info
            self.address = address
            self.status = f"advertised as {info.name} on {address}:{self.port}"
            log.info("mDNS: %s", self.status)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            zc, self._zeroconf = self._zeroconf, None
            if zc is None:
                return
            try:
                if self._info is not None:
                    zc.unregister_service(self._info)
            except Exception as exc:
                log.info("mDNS: the goodbye was not sent (%s)", exc)
            finally:
                zc.close()
