"""Where the companion keeps its data, and how it keeps a file durably.

The data directory holds the journal (every game, every command), the key
that signs the phones' session cookies, and the panel's keys (the PIN, the
join token, the generation of controller sessions and the wrong PINs: see
:mod:`companion.core.access`), which ``companion sign-out`` changes while
the service runs (the part that opens the journal and the table there is
:class:`companion.parts.table.TablePart`).

Everything the companion keeps is durable before it is acknowledged, by
one of two ways: in an SQLite file (the journal, with the table's settings
and its saved box; the panel's keys), in WAL mode with
``synchronous=FULL``, or as a whole file written by :func:`keep_file`,
which writes a temporary file, syncs it, renames it over the old one and
syncs the directory (the players' colours and profiles, the Pixels dice
paired at the table, the hotspot's name and password, the key that signs
the phones' cookies).  A power cut then leaves the old file or the new
one, never nothing and never a part.
"""

from __future__ import annotations

import errno
import logging
import os
from pathlib import Path
from typing import Mapping

from companion.host import config as config_module
from companion.host.config import Config

log = logging.getLogger(__name__)

JOURNAL_FILE = "companion.db"
SECRET_FILE = "panel-secret"
ACCESS_FILE = "panel-access.db"


def data_dir(config: Config, simulate: bool, environ: Mapping[str, str] | None = None) -> Path:
    """The config's data directory; else systemd's state directory; else
    /var/lib/companion, unless this is a simulation or a user who cannot
    write there (the companion started by hand): their own data directory,
    the one the CLI uses too."""
    env = os.environ if environ is None else environ
    if config.data_dir:
        return Path(config.data_dir).expanduser()
    if env.get("STATE_DIRECTORY"):
        return Path(env["STATE_DIRECTORY"].split(":")[0])
    service = config_module.SERVICE_DATA_DIR
    if not simulate and _can_write(service):
        return service
    from platformdirs import user_data_dir

    own = Path(user_data_dir("companion", appauthor=False))
    if not simulate:
        log.warning("cannot write %s: keeping the journal in %s (set data_dir in the "
                    "config to choose)", service, own)
    return own


def _can_write(directory: Path) -> bool:
    """True when ``directory`` is writable, or can be created."""
    while not directory.exists():
        if directory == directory.parent:
            return False
        directory = directory.parent
    return directory.is_dir() and os.access(directory, os.W_OK | os.X_OK)


# -- keeping a file ----------------------------------------------------------------------


def keep_file(path: Path, data: bytes | str, *, mode: int = 0o600,
              exclusive: bool = False) -> None:
    """Make ``data`` the whole of the file ``path``, durably: once this
    returns, a power cut leaves the new file; before, the old one (or none),
    never a part of either.  It writes a temporary file beside ``path``,
    syncs it, renames it over ``path`` and syncs the directory (the rename
    is an entry of the directory: without that sync a cut can take it
    back).  ``exclusive``: only if ``path`` does not exist yet (else
    :class:`FileExistsError`, and nothing changed), for files that several
    processes may make at once.  Its folders are made if missing."""
    import tempfile

    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    make_directory(path.parent)
    fd, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    temporary = Path(name)
    try:
        try:
            os.fchmod(fd, mode)
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            _sync_file(fd)
        finally:
            os.close(fd)
        if exclusive:
            _place_new(temporary, path)  # FileExistsError when it is there
        else:
            os.replace(temporary, path)
    except BaseException:
        try:
            temporary.unlink()
        except OSError:
            pass
        raise
    sync_directory(path.parent)


# What link() says on a file system without hard links (FAT, exFAT: a USB
# stick as the data directory).
_NO_LINKS = (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK)
_RENAME_NOREPLACE = 1
_AT_FDCWD = -100


def _place_new(temporary: Path, path: Path) -> None:
    """Give ``temporary`` the name ``path`` only if nothing has it
    (:class:`FileExistsError` else): a hard link where the file system has
    them, else a rename that refuses to replace (``renameat2``, which FAT
    takes too)."""
    try:
        os.link(temporary, path)
    except OSError as exc:
        if exc.errno not in _NO_LINKS:
            raise
    else:
        temporary.unlink()
        return
    _rename_no_replace(temporary, path)


def _rename_no_replace(source: Path, target: Path) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is not None:
        if renameat2(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target),
                     _RENAME_NOREPLACE) == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.EINVAL, errno.ENOSYS, *_NO_LINKS):
            raise OSError(code, os.strerror(code), str(target))
    # Neither: a check and a rename (two processes making the file in the
    # same instant could both succeed; the later one's file is kept whole).
    if target.exists():
        raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target))
    os.replace(source, target)


def card_read_only(directory: Path, exc: BaseException | None = None) -> bool:
    """True when the file system holding ``directory`` cannot be written:
    mounted read-only (an SD card turns so after an error) or failing."""
    cause: BaseException | None = exc
    while cause is not None:
        if isinstance(cause, OSError) and cause.errno in (errno.EROFS, errno.EIO):
            return True
        cause = cause.__cause__ or cause.__context__
    probe = directory
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    try:
        return bool(os.statvfs(probe).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def make_directory(directory: Path) -> None:
    """``mkdir -p`` that a power cut does not undo: the folder of each
    directory made is synced."""
    missing = []
    while not directory.exists():
        missing.append(directory)
        if directory == directory.parent:
            break
        directory = directory.parent
    if not missing:
        return
    missing[0].mkdir(parents=True, exist_ok=True)
    for made in reversed(missing):
        sync_directory(made.parent)


def sync_directory(directory: Path) -> None:
    """Sync ``directory``'s entries: what was created, renamed or removed
    in it survives a power cut."""
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        _sync_file(fd)
    finally:
        os.close(fd)


def _sync_file(fd: int) -> None:
    os.fsync(fd)


def panel_secret(directory: Path) -> str:
    """The key that signs the phones' session cookies, kept in the data
    directory so that joined phones stay joined across restarts."""
    path = directory / SECRET_FILE
    try:
        secret = path.read_text().strip()
    except FileNotFoundError:
        secret = ""
    if len(secret) >= 32:
        return secret
    import secrets

    made = secrets.token_hex(32)
    try:
        keep_file(path, made + "\n", exclusive=not path.exists())
    except FileExistsError:
        # Another process made it first: its key is the one.
        return panel_secret(directory)
    return made
