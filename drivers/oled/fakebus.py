"""A serial interface that records what a luma device sends, for tests, the
benchmarks and the simulation; it can be told to fail as an unplugged
display does."""

from __future__ import annotations

from collections import deque
from typing import Sequence

# On the wire each command() or data() call is one I2C write: the address
# byte and a control byte, then the payload.
I2C_WRITE_OVERHEAD = 2


class RecordingInterface:
    """A stand-in for luma's ``i2c`` that records what a device sends.

    ``writes`` holds ``("command", bytes)`` and ``("data", bytes)`` in order
    (the last ``keep`` of them, all when ``keep`` is None).  Setting
    ``fault`` to an exception makes every write raise it, as an unplugged
    display does; ``refused`` counts those writes.
    """

    def __init__(self, keep: int | None = None) -> None:
        self.writes: deque[tuple[str, bytes]] = deque(maxlen=keep)
        self.fault: BaseException | None = None
        self.refused = 0
        self.cleaned_up = False

    def command(self, *cmd: int) -> None:
        if len(cmd) > 32:
            # luma's i2c sends commands in one SMBus block, which holds 32 bytes.
            raise ValueError(f"{len(cmd)} command bytes in one write; I2C takes at most 32")
        self._write("command", bytes(cmd))

    def data(self, data: Sequence[int] | bytes) -> None:
        self._write("data", bytes(data))

    def cleanup(self) -> None:
        self.cleaned_up = True

    def _write(self, kind: str, payload: bytes) -> None:
        if self.fault is not None:
            self.refused += 1
            raise self.fault
        self.writes.append((kind, payload))

    def clear(self) -> None:
        self.writes.clear()

    @property
    def command_bytes(self) -> int:
        return sum(len(p) for kind, p in self.writes if kind == "command")

    @property
    def data_bytes(self) -> int:
        return sum(len(p) for kind, p in self.writes if kind == "data")

    @property
    def wire_bytes(self) -> int:
        """Bytes on an I2C bus: each write adds the address and control bytes."""
        return sum(len(p) + I2C_WRITE_OVERHEAD for _, p in self.writes)
