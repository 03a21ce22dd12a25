"""A real Mosquitto broker for the venue's tests: Debian's ``mosquitto`` on a
free loopback port, with a password file and an ACL, that a test can stop
and start again on the same port (a broker that goes away mid-game)."""

from __future__ import annotations

import getpass
import shutil
import socket
import subprocess
import time
from pathlib import Path

from companion.venue.names import acl

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


def available() -> str | None:
    """Why the broker cannot run here (``None``: it can)."""
    if not Path(MOSQUITTO).exists() or not Path(MOSQUITTO_PASSWD).exists():
        return "Debian's mosquitto is not installed (scripts/test installs it)"
    return None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def table_acl(user: str, venue: str, table: str) -> str:
    """What a table may do, as the ACL ``companion venue acl`` writes for it
    (``companion.venue.names.acl``): write its own topics (and its Home
    Assistant discovery), read Home Assistant's birth message; nothing else."""
    block = acl(venue, [table], home_assistant=None).split("\n\n")[0] + "\n\n"
    assert block.startswith(f"user {user}\n"), block
    return block


class Broker:
    """One Mosquitto: ``users`` maps a user to its password, ``acl`` is the
    ACL file's text."""

    def __init__(self, folder: Path, users: dict[str, str], acl: str,
                 tls: tuple[Path, Path, Path] | None = None,
                 client_certificates: bool = False) -> None:
        """``tls``: (CA, certificate, key) for a TLS listener instead;
        ``client_certificates``: every client shows a certificate of that CA,
        whose common name is its user (no password then)."""
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        passwords = folder / "passwd"
        passwords.touch(mode=0o600)
        for user, password in users.items():
            subprocess.run([MOSQUITTO_PASSWD, "-b", str(passwords), user, password], check=True)
        (folder / "acl").write_text(acl)
        secure = "" if tls is None else (
            f"cafile {tls[0]}\ncertfile {tls[1]}\nkeyfile {tls[2]}\n")
        if client_certificates:
            secure += "require_certificate true\nuse_identity_as_username true\n"
        (folder / "mosquitto.conf").write_text(
            f"listener {self.port} 127.0.0.1\n{secure}"
            "allow_anonymous false\n"
            f"password_file {passwords}\n"
            f"acl_file {folder / 'acl'}\n"
            "persistence true\n"
            f"persistence_location {folder}/\n"
            "log_dest stderr\n"
            "log_type error\n"
            # Run as whoever runs the tests: as root, mosquitto would become
            # the mosquitto user, who cannot read the test's own folder.
            f"user {getpass.getuser()}\n")

    def start(self) -> None:
        with open(self.folder / "broker.log", "ab") as log:
            self.process = subprocess.Popen(
                [MOSQUITTO, "-c", str(self.folder / "mosquitto.conf")],
                stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError((self.folder / "broker.log").read_text()) from None
                time.sleep(0.05)
        raise RuntimeError(f"mosquitto did not listen on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def _openssl(*args: str) -> None:
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A CA and a certificate it signed for 127.0.0.1, made with openssl:
    (CA, certificate, key)."""
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
             "/CN=Test venue CA", "-keyout", str(ca_key), "-out", str(ca))
    cert, key = signed(folder, "broker", "127.0.0.1", "subjectAltName = IP:127.0.0.1\n")
    return ca, cert, key


def signed(folder: Path, name: str, common_name: str,
           extensions: str = "extendedKeyUsage = clientAuth\n") -> tuple[Path, Path]:
    """A key and a certificate for ``common_name`` signed by the CA that
    :func:`certificates` made in ``folder``: (certificate, key)."""
    cert, key, request = folder / f"{name}.crt", folder / f"{name}.key", folder / f"{name}.csr"
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", f"/CN={common_name}", "-keyout",
             str(key), "-out", str(request))
    (folder / f"{name}.cnf").write_text(extensions)
    _openssl("x509", "-req", "-in", str(request), "-CA", str(folder / "ca.crt"), "-CAkey",
             str(folder / "ca.key"), "-CAcreateserial", "-days", "2", "-extfile",
             str(folder / f"{name}.cnf"), "-out", str(cert))
    return cert, key

