"""A disk that loses what was not synced: a file system in user space
(FUSE, through mfusepy) that keeps every write in memory until its file is
synced, and every create, delete or rename until its directory is synced;
on a power cut it keeps only what was synced (LazyFS's approach, in Python).

It runs as its own process on a mount point, its contents kept between
mounts in an image file on the real disk::

    python -m tests.lazyfs MOUNTPOINT IMAGE

It prints ``mounted`` once the mount answers.  Sent ``cut`` on its standard
input, it writes to IMAGE only what was synced, prints ``cut``, and goes on
serving until it is unmounted (``fusermount3 -u MOUNTPOINT``); the next
mount on IMAGE sees the disk as after the cut.  Standard input closed
without a cut (the test stopped): the image is left as it was.

The model: a file's contents are the ones at its last ``fsync`` (or
``fdatasync``); a directory's entries (which name is which file or
directory) are the ones at its last ``fsync``.  A file created and synced
but whose directory was not synced is lost; a rename not followed by a sync
of the directories is undone; a file deleted but whose directory was not
synced comes back with its synced contents.  Metadata other than names
(mode, times) is taken as kept.
"""

from __future__ import annotations

import errno
import os
import pickle
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

MOUNTED = "mounted"
CUT = "cut"


class Node:
    """A file (``data``) or a directory (``entries``), with what of it was
    last synced."""

    __slots__ = ("data", "entries", "mode", "mtime", "synced", "synced_entries")

    def __init__(self, mode: int, *, data: bytes | None = None,
                 entries: dict[str, Node] | None = None) -> None:
        self.mode = mode
        self.mtime = time.time_ns()
        if stat.S_ISDIR(mode):
            self.entries: dict[str, Node] = dict(entries or {})
            self.synced_entries: dict[str, Node] = dict(self.entries)
            self.data = bytearray()
            self.synced = b""
        else:
            self.entries = {}
            self.synced_entries = {}
            self.data = bytearray(data or b"")
            self.synced = bytes(self.data)

    @property
    def is_dir(self) -> bool:
        return stat.S_ISDIR(self.mode)


def after_cut(root: Node) -> Any:
    """What survives a power cut, from ``root``: a plain structure, a file
    as ``(mode, bytes)`` and a directory as ``(mode, {name: ...})``."""

    def keep(node: Node, seen: frozenset[int]) -> Any:
        if not node.is_dir:
            return (node.mode, bytes(node.synced))
        if id(node) in seen:  # a directory cannot hold itself; be safe
            return (node.mode, {})
        inside = seen | {id(node)}
        return (node.mode, {name: keep(child, inside)
                            for name, child in node.synced_entries.items()})

    return keep(root, frozenset())


def from_image(image: Any) -> Node:
    mode, content = image
    if isinstance(content, dict):
        return Node(mode, entries={name: from_image(c) for name, c in content.items()})
    return Node(mode, data=content)


def load(path: Path) -> Node:
    if path.exists():
        return from_image(pickle.loads(path.read_bytes()))
    return Node(stat.S_IFDIR | 0o755)


def save(root: Node, path: Path) -> None:
    """The synced part of ``root``, written to ``path`` (on the real disk)."""
    temporary = path.with_name(path.name + ".new")
    temporary.write_bytes(pickle.dumps(after_cut(root)))
    os.replace(temporary, path)


def _error(code: int) -> OSError:
    return OSError(code, os.strerror(code))


class LazyDisk:
    """The file system's operations (mfusepy's ``Operations``), on paths."""

    use_ns = True

    def __init__(self, root: Node) -> None:
        self.root = root
        self.lock = threading.RLock()
        self.handles: dict[int, Node] = {}
        self.next_handle = 1
        self.syncs = 0
        self.links = True

    # -- paths ---------------------------------------------------------------

    def _find(self, path: str) -> Node:
        node = self.root
        for part in path.strip("/").split("/"):
            if not part:
                continue
            if not node.is_dir or part not in node.entries:
                raise _error(errno.ENOENT)
            node = node.entries[part]
        return node

    def _parent(self, path: str) -> tuple[Node, str]:
        head, _, name = path.rstrip("/").rpartition("/")
        parent = self._find(head or "/")
        if not parent.is_dir:
            raise _error(errno.ENOTDIR)
        return parent, name

    def _node(self, path: str | None, fh: int | None) -> Node:
        if fh is not None and fh in self.handles:
            return self.handles[fh]
        if path is None:
            raise _error(errno.EBADF)
        return self._find(path)

    def _handle(self, node: Node) -> int:
        handle = self.next_handle
        self.next_handle += 1
        self.handles[handle] = node
        return handle

    # -- reading -------------------------------------------------------------

    def getattr(self, path: str | None, fh: int | None = None) -> dict[str, Any]:
        with self.lock:
            node = self._node(path, fh)
            size = len(node.data) if not node.is_dir else 4096
            return {"st_mode": node.mode, "st_nlink": 2 if node.is_dir else 1,
                    "st_size": size, "st_uid": os.getuid(), "st_gid": os.getgid(),
                    "st_atime": node.mtime, "st_mtime": node.mtime, "st_ctime": node.mtime,
                    "st_blksize": 4096, "st_blocks": (size + 511) // 512}

    def readdir(self, path: str, fh: int) -> list[str]:
        with self.lock:
            node = self._node(path, fh)
            return [".", "..", *node.entries]

    def read(self, path: str | None, size: int, offset: int, fh: int) -> bytes:
        with self.lock:
            return bytes(self._node(path, fh).data[offset:offset + size])

    def statfs(self, path: str) -> dict[str, int]:
        return {"f_bsize": 4096, "f_frsize": 4096, "f_blocks": 1 << 20, "f_bfree": 1 << 19,
                "f_bavail": 1 << 19, "f_files": 1 << 16, "f_ffree": 1 << 15,
                "f_favail": 1 << 15, "f_namemax": 255}

    def access(self, path: str, amode: int) -> int:
        with self.lock:
            self._find(path)
        return 0

    # -- opening ---------------------------------------------------------------

    def open(self, path: str, flags: int) -> int:
        with self.lock:
            node = self._find(path)
            if flags & os.O_TRUNC:
                del node.data[:]
            return self._handle(node)

    def opendir(self, path: str) -> int:
        with self.lock:
            node = self._find(path)
            if not node.is_dir:
                raise _error(errno.ENOTDIR)
            return self._handle(node)

    def create(self, path: str, mode: int, flags: int = 0) -> int:
        with self.lock:
            parent, name = self._parent(path)
            existing = parent.entries.get(name)
            if existing is not None:
                if flags & os.O_EXCL:
                    raise _error(errno.EEXIST)
                if flags & os.O_TRUNC:
                    del existing.data[:]
                return self._handle(existing)
            node = Node(stat.S_IFREG | (mode & 0o7777))
            node.synced = b""
            parent.entries[name] = node
            return self._handle(node)

    def release(self, path: str | None, fh: int) -> int:
        with self.lock:
            self.handles.pop(fh, None)
        return 0

    def releasedir(self, path: str | None, fh: int) -> int:
        return self.release(path, fh)

    def flush(self, path: str | None, fh: int) -> int:
        return 0

    # -- writing ---------------------------------------------------------------

    def write(self, path: str | None, data: bytes, offset: int, fh: int) -> int:
        with self.lock:
            node = self._node(path, fh)
            if offset > len(node.data):
                node.data.extend(bytes(offset - len(node.data)))
            node.data[offset:offset + len(data)] = data
            node.mtime = time.time_ns()
            return len(data)

    def truncate(self, path: str | None, length: int, fh: int | None = None) -> int:
        with self.lock:
            node = self._node(path, fh)
            if length < len(node.data):
                del node.data[length:]
            else:
                node.data.extend(bytes(length - len(node.data)))
            return 0

    def fallocate(self, path: str | None, mode: int, offset: int, size: int, fh: int) -> int:
        with self.lock:
            node = self._node(path, fh)
            if mode == 0 and offset + size > len(node.data):
                node.data.extend(bytes(offset + size - len(node.data)))
            return 0

    def mkdir(self, path: str, mode: int) -> int:
        with self.lock:
            parent, name = self._parent(path)
            if name in parent.entries:
                raise _error(errno.EEXIST)
            made = Node(stat.S_IFDIR | (mode & 0o7777))
            parent.entries[name] = made
            return 0

    def rmdir(self, path: str) -> int:
        with self.lock:
            parent, name = self._parent(path)
            node = parent.entries.get(name)
            if node is None:
                raise _error(errno.ENOENT)
            if node.entries:
                raise _error(errno.ENOTEMPTY)
            del parent.entries[name]
            return 0

    def unlink(self, path: str) -> int:
        with self.lock:
            parent, name = self._parent(path)
            if name not in parent.entries:
                raise _error(errno.ENOENT)
            del parent.entries[name]
            return 0

    def rename(self, old: str, new: str) -> int:
        with self.lock:
            source, old_name = self._parent(old)
            target, new_name = self._parent(new)
            if old_name not in source.entries:
                raise _error(errno.ENOENT)
            node = source.entries.pop(old_name)
            target.entries[new_name] = node
            return 0

    def link(self, target: str, source: str) -> int:
        if not self.links:  # as FAT and exFAT (a USB stick) answer
            raise _error(errno.EPERM)
        with self.lock:
            node = self._find(source)
            parent, name = self._parent(target)
            if name in parent.entries:
                raise _error(errno.EEXIST)
            parent.entries[name] = node
            return 0

    def chmod(self, path: str | None, mode: int) -> int:
        with self.lock:
            node = self._find(path or "/")
            node.mode = stat.S_IFMT(node.mode) | (mode & 0o7777)
            return 0

    def chown(self, path: str | None, uid: int, gid: int) -> int:
        return 0

    def utimens(self, path: str | None, times: Any = None) -> int:
        return 0

    # -- syncing -----------------------------------------------------------------

    def fsync(self, path: str | None, datasync: int, fh: int) -> int:
        with self.lock:
            node = self._node(path, fh)
            node.synced = bytes(node.data)
            self.syncs += 1
            return 0

    def fsyncdir(self, path: str | None, datasync: int, fh: int) -> int:
        with self.lock:
            node = self._node(path, fh)
            node.synced_entries = dict(node.entries)
            self.syncs += 1
            return 0


def serve(mountpoint: Path, image: Path) -> int:
    """Mount the disk of ``image`` on ``mountpoint``; at each ``cut``, keep
    what was synced, unmount and mount again on it (one process for every
    mount: a power cut costs no Python start); ``quit`` or the end of the
    standard input unmounts and ends."""
    import mfusepy

    disk = LazyDisk(load(image))
    # LAZYFS_NO_LINKS=1: a file system without hard links.
    disk.links = os.environ.get("LAZYFS_NO_LINKS") != "1"

    class Operations(mfusepy.Operations):
        use_ns = True

    # Each operation of the disk, as mfusepy's Operations wants them.
    for name in ("getattr", "readdir", "read", "statfs", "access", "open", "opendir", "create",
                 "release", "releasedir", "flush", "write", "truncate", "fallocate", "mkdir",
                 "rmdir", "unlink", "rename", "link", "chmod", "chown", "utimens", "fsync",
                 "fsyncdir"):
        setattr(Operations, name, staticmethod(getattr(disk, name)))

    commands: list[str] = []
    wanted = threading.Condition()

    def control() -> None:
        for line in sys.stdin:
            with wanted:
                commands.append(line.strip())
                wanted.notify_all()
            if line.strip() != CUT:
                break
        else:
            with wanted:
                commands.append("quit")
        unmount(mountpoint)

    def announce() -> None:
        # Say when the mount answers; at a cut, unmount (the mount then ends).
        while not os.path.ismount(mountpoint):
            time.sleep(0.005)
        print(MOUNTED, flush=True)
        with wanted:
            wanted.wait_for(lambda: bool(commands))
            if commands[0] == CUT:
                with disk.lock:
                    save(disk.root, image)
                    # Whatever comes after the cut is not kept.
                    disk.root = Node(stat.S_IFDIR | 0o755)
                    disk.handles.clear()
        unmount(mountpoint)

    threading.Thread(target=control, daemon=True).start()
    while True:
        threading.Thread(target=announce, daemon=True).start()
        mfusepy.FUSE(Operations(), str(mountpoint), foreground=True, nothreads=True,
                     hard_remove=True, fsname="lazyfs")
        with wanted:
            command = commands.pop(0) if commands else "quit"
        if command != CUT:
            return 0
        disk.root = load(image)
        disk.handles.clear()
        print(CUT, flush=True)


def unmount(mountpoint: Path) -> None:
    subprocess.run(["fusermount3", "-u", "-z", str(mountpoint)], capture_output=True,
                   check=False)


if __name__ == "__main__":
    sys.exit(serve(Path(sys.argv[1]), Path(sys.argv[2])))
