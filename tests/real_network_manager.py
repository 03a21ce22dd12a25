"""A private NetworkManager for the tests: the real daemon and the real nmcli.

:func:`start` runs a system D-Bus of its own (``dbus-daemon`` with a
configuration that lets root do everything, listening on a socket in a
temporary directory) and Debian's ``NetworkManager`` on it, in network and
mount namespaces of its own (``unshare``): it sees only a loopback and one
veth pair made for it, its run and state directories are empty tmpfs, its
configuration is the one written here (the keyfile plugin with its
profiles in the temporary directory, every device unmanaged but the veth,
no polkit, no DNS or hostname changes).  nmcli reaches it through
``DBUS_SYSTEM_BUS_ADDRESS``.  The machine's own network and NetworkManager
are never touched.

There is no Wi-Fi device: profiles are read, written and deleted for real,
but no Wi-Fi connection comes up.  The veth device, wired with 802.1X, is
what makes NetworkManager ask nmcli's agent for a secret, so that a
``passwd-file`` is read by the real nmcli and the secret saved by the real
daemon.  :meth:`PrivateNetworkManager.saved_secrets` reads a saved secret
back over D-Bus (with systemd's ``busctl``), not with ``nmcli
--show-secrets``, which at times prints it empty (see there).

:func:`unavailable` says why this cannot run here (a program
missing, no namespaces), or None.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# The veth end NetworkManager manages (its peer stays unmanaged).
DEVICE = "nmt0"
PROGRAMS = ("dbus-daemon", "NetworkManager", "nmcli", "unshare", "ip")
# What reads a saved secret back (PrivateNetworkManager.saved_secrets):
# needed by the tests of secrets only.
SECRETS_READER = "busctl"
NM_BUS_NAME = "org.freedesktop.NetworkManager"
START_TIMEOUT = 30.0

BUS_CONFIG = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path={socket}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow own="*"/>
    <allow send_destination="*"/>
    <allow receive_sender="*"/>
  </policy>
</busconfig>
"""

NM_CONFIG = """[main]
plugins=keyfile
no-auto-default=*
auth-polkit=false
dns=none
rc-manager=unmanaged
hostname-mode=none
systemd-resolved=false
dhcp=internal

[keyfile]
path={profiles}
unmanaged-devices=except:interface-name:{device}

[connectivity]
enabled=false
"""

# Run inside the new namespaces: empty run and state directories, a sysfs
# of the new network namespace (read-only, so that NetworkManager does not
# wait for udev, which does not run there), the veth pair, then the daemon.
NAMESPACE_SCRIPT = """set -e
mount -t tmpfs tmpfs /run
if [ -d /var/lib/NetworkManager ]; then mount -t tmpfs tmpfs /var/lib/NetworkManager
else mount -t tmpfs tmpfs /var/lib; fi
mount -t sysfs -o ro sysfs /sys
{ip} link add {device} type veth peer name {device}p
{ip} link set {device}p up
exec {NetworkManager} --no-daemon --debug --config {config} --config-dir {empty} \
    --system-config-dir {empty} --intern-config {state}/intern.conf \
    --state-file {state}/NetworkManager.state --pid-file {state}/NetworkManager.pid
"""


def programs() -> dict[str, str]:
    """Each program's full path: Debian keeps NetworkManager and ip in
    /usr/sbin, which a user's PATH does not name."""
    search = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    found = {name: shutil.which(name, path=search) for name in (*PROGRAMS, SECRETS_READER)}
    return {name: path for name, path in found.items() if path is not None}


def namespaces() -> list[str]:
    """The unshare command that makes the daemon's namespaces: a user
    namespace of its own too when the tests do not run as root, in which it
    is root (Debian lets a user make one)."""
    user = [] if os.geteuid() == 0 else ["--user", "--map-root-user"]
    return [programs()["unshare"], *user, "-n", "-m", "--propagation", "private"]


def as_root() -> list[str]:
    """What runs a program as root in a user namespace of its own when the
    tests do not run as root (nothing when they do).

    The bus and every nmcli run so too, not only the daemon: libnm takes
    NetworkManager for the real one only if the bus says root owns its name,
    and the bus, in a user namespace, sees the user as root.  Each
    program's own uid then matches what the bus sees of it.
    """
    if os.geteuid() == 0:
        return []
    return [programs()["unshare"], "--user", "--map-root-user"]


def unavailable() -> str | None:
    """Why a private NetworkManager cannot run on this machine, or None."""
    missing = [name for name in PROGRAMS if name not in programs()]
    if missing:
        return (f"{', '.join(missing)} not installed (Debian's network-manager, dbus, "
                "util-linux and iproute2; scripts/test installs them)")
    probe = subprocess.run([*namespaces(), "true"], capture_output=True, text=True,
                           check=False)
    if probe.returncode != 0:
        return f"cannot make network and mount namespaces here: {probe.stderr.strip()}"
    return None


def no_secrets_reader() -> str | None:
    """Why a saved secret cannot be read back here, or None."""
    if SECRETS_READER in programs():
        return None
    return f"{SECRETS_READER} not installed (systemd's): it reads the saved secrets back"


@dataclass
class PrivateNetworkManager:
    folder: Path
    address: str
    profiles: Path
    bus: subprocess.Popen
    daemon: subprocess.Popen
    log: Path
    # The nmcli the tests and the driver run: the real one, through a script
    # of the same name in ``bin`` that runs it as :func:`as_root` says.
    bin: Path

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": self.address, "LC_ALL": "C.UTF-8"}

    def nmcli(self, *args: str, check: bool = True,
              env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
        done = subprocess.run([str(self.bin / "nmcli"), *args], capture_output=True,
                              timeout=60, env=env or self.env, check=False)
        if check and done.returncode != 0:
            raise AssertionError(f"nmcli {' '.join(args)}: {done.returncode} "
                                 f"{done.stderr.decode(errors='replace')}")
        return done

    def out(self, *args: str) -> str:
        return self.nmcli(*args).stdout.decode()

    def call(self, path: str, interface: str, method: str, signature: str = "",
             *args: str) -> list[Any]:
        """What a method of NetworkManager's on the private bus returns (its
        values, as ``busctl --json`` gives them), called as root the way
        nmcli is (:func:`as_root`)."""
        done = subprocess.run(
            [*as_root(), programs()[SECRETS_READER], f"--address={self.address}",
             "--json=short", "call", NM_BUS_NAME, path, f"{NM_BUS_NAME}.{interface}", method,
             *([signature, *args] if signature else [])],
            capture_output=True, timeout=60, env=self.env, check=False)
        if done.returncode != 0:
            raise AssertionError(f"{interface}.{method}{args}: {done.returncode} "
                                 f"{done.stderr.decode(errors='replace')}")
        values: list[Any] = json.loads(done.stdout)["data"]
        return values

    def saved_secrets(self, uuid: str, setting: str) -> dict[str, Any]:
        """The secrets of a profile's ``setting`` as the daemon holds them:
        its answer to GetSecrets, which ``nmcli --show-secrets`` calls too.

        Not read with nmcli: nmcli (1.42, and upstream's still) puts the
        secrets GetSecrets returns into libnm's own copy of the profile and
        prints that copy (update_secrets_in_connection in
        src/nmcli/connections.c).  But the daemon, answering GetSecrets,
        updates the profile with the secrets it returns (get_secrets_done_cb
        in nm-settings-connection.c), and an update emits the profile's
        Updated signal (nm-settings.c) before the answer goes out; on that
        signal libnm asks for the settings again (GetSettings, which carries
        no secrets) and replaces its copy with them (nm-client.c,
        nm-remote-connection.c).  When both answers have come before nmcli
        runs again, as on a loaded machine, one turn of its main loop handles
        both, and the copy has lost its secrets when nmcli prints it: an
        empty secret, although the profile holds it.  busctl keeps no copy."""
        path = self.call("/org/freedesktop/NetworkManager/Settings", "Settings",
                         "GetConnectionByUuid", "s", uuid)[0]
        settings = self.call(path, "Settings.Connection", "GetSecrets", "s", setting)[0]
        return {name: value["data"] for name, value in settings.get(setting, {}).items()}

    def uuids(self) -> list[str]:
        return self.out("-g", "UUID", "connection", "show").split()

    def clear(self) -> None:
        """Delete every profile."""
        for uuid in self.uuids():
            self.nmcli("connection", "delete", "uuid", uuid, check=False)

    def stop(self) -> None:
        for process in (self.daemon, self.bus):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def start(folder: Path) -> PrivateNetworkManager:
    """The private bus and NetworkManager, once NetworkManager answers."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("profiles", "state", "empty"):
        (folder / name).mkdir(exist_ok=True)
    bus_config = folder / "bus.conf"
    bus_config.write_text(BUS_CONFIG.format(socket=folder / "bus"))
    nm_config = folder / "NetworkManager.conf"
    nm_config.write_text(NM_CONFIG.format(profiles=folder / "profiles", device=DEVICE))
    found = programs()
    bin_folder = folder / "bin"
    bin_folder.mkdir(exist_ok=True)
    wrapper = bin_folder / "nmcli"
    wrapper.write_text("#!/bin/sh\nexec " + " ".join([*as_root(), found["nmcli"]]) + ' "$@"\n')
    wrapper.chmod(0o755)
    bus = subprocess.Popen([*as_root(), found["dbus-daemon"], f"--config-file={bus_config}",
                            "--nofork", "--print-address"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    assert bus.stdout is not None
    address = bus.stdout.readline().strip()
    if not address:
        bus.wait(10)
        raise RuntimeError(f"dbus-daemon did not start: {bus.stderr.read() if bus.stderr else ''}")
    log = folder / "NetworkManager.log"
    script = NAMESPACE_SCRIPT.format(device=DEVICE, config=nm_config, empty=folder / "empty",
                                     state=folder / "state", ip=found["ip"],
                                     NetworkManager=found["NetworkManager"])
    with log.open("w") as out:
        daemon = subprocess.Popen(
            [*namespaces(), "sh", "-c", script],
            stdout=out, stderr=subprocess.STDOUT,
            env={**os.environ, "DBUS_SYSTEM_BUS_ADDRESS": address})
    manager = PrivateNetworkManager(folder, address, folder / "profiles", bus, daemon, log,
                                    bin_folder)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        done = manager.nmcli("-t", "-f", "RUNNING", "general", "status", check=False)
        if done.returncode == 0 and done.stdout.strip() == b"running":
            break
        if daemon.poll() is not None or time.monotonic() > deadline:
            manager.stop()
            raise RuntimeError(f"NetworkManager did not start: {log.read_text()[-2000:]}")
        time.sleep(0.1)  # waiting for a daemon to come up, not racing it
    return manager
