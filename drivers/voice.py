"""The table's voice: lines said aloud with espeak-ng, played with ALSA.

A :class:`Speaker` says one line at a time on its own thread, never on
the caller's: :meth:`Speaker.say` only leaves the line in a one-line
mailbox (a newer line replaces one not yet begun) and stops the line being
played, so a newer change always interrupts an unfinished line, and a key
press or a phone's update never waits for a voice.  A line waits
:data:`SETTLE` (50 ms) before it is made, so that the change's frame is
drawn before espeak-ng starts beside it.  Each line is
``espeak-ng --stdout`` (Debian's package, offline, with voices for English,
French and Italian) piped straight into ``aplay`` on the configured ALSA
device (``default``, ``plughw:1,0`` for a USB speaker, the I2S amplifier's
card, or ``null``).

A device that fails (unplugged, missing, busy) is a fault: the speaker
says it once (``on_fault``) and keeps it in :attr:`Speaker.fault` until a
line plays again; it never retries a line by itself, so a broken speaker
costs one failed ``aplay`` per change, no more.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections import deque
from typing import Callable, Sequence

from companion.core.errors import CompanionError

log = logging.getLogger(__name__)

# espeak-ng's voice for each of the table's languages.
VOICES = {"en": "en", "fr": "fr", "it": "it"}
ESPEAK = "espeak-ng"
APLAY = "aplay"
# The longest a line may take (a stuck device must not hold the thread).
LONGEST_LINE = 30.0
# How long a line waits before it is made and synthesized: the change's
# frame and phones' updates go first (on a Pi Zero's one core a fork and
# espeak-ng's first burst would otherwise run beside them), and a change
# that follows at once replaces it unsaid.
SETTLE = 0.05


class SpeakerMissing(CompanionError, OSError):
    """espeak-ng or aplay is not installed."""


def synthesize_command(text: str, lang: str, *, speed: int = 160, volume: int = 100,
                       espeak: str = ESPEAK) -> list[str]:
    """espeak-ng's command that writes ``text`` said in ``lang`` as a WAV
    on its standard output."""
    return [espeak, "-v", VOICES.get(lang, "en"), "-s", str(speed), "-a", str(volume),
            "--stdout", "--", text]


def play_command(device: str, *, aplay: str = APLAY) -> list[str]:
    """aplay's command that plays a WAV from its standard input on ``device``."""
    return [aplay, "-q", "-D", device, "-"]


def render_wav(text: str, lang: str, *, speed: int = 160, volume: int = 100,
               espeak: str = ESPEAK) -> bytes:
    """``text`` said in ``lang`` as WAV bytes (for tests and the benchmark)."""
    done = subprocess.run(synthesize_command(text, lang, speed=speed, volume=volume,
                                             espeak=espeak),
                          capture_output=True, check=True, timeout=LONGEST_LINE)
    return done.stdout


class Speaker:
    """Says lines on ``device``, one at a time, the newest first.

    ``player`` replaces aplay's command (a test's or the benchmark's
    stand-in that reads the WAV on its standard input); ``on_fault(message)``
    is told each new fault once, and ``on_fault(None)`` when a line plays
    again."""

    def __init__(self, device: str = "default", *, speed: int = 160, volume: int = 100,
                 espeak: str = ESPEAK, player: Sequence[str] | None = None,
                 on_fault: Callable[[str | None], None] | None = None,
                 settle: float = SETTLE) -> None:
        self.device = device
        self.speed = speed
        self.volume = volume
        self.espeak = espeak
        self.player = list(player) if player is not None else play_command(device)
        self.on_fault = on_fault
        self.settle = settle
        self.fault: str | None = None
        # How many lines played to their end, and the last few (text, lang).
        self.said = 0
        self.last: deque[tuple[str, str]] = deque(maxlen=8)
        self._lock = threading.Condition()
        self._pending: tuple[str | Callable[[], str | None], str] | None = None
        self._playing: list[subprocess.Popen[bytes]] = []
        self._closed = False
        self._idle = True
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)

    def check(self) -> None:
        """Raise :class:`SpeakerMissing` unless espeak-ng and the player are there."""
        for program in (self.espeak, self.player[0]):
            if shutil.which(program) is None:
                raise SpeakerMissing(f"{program} is not installed (apt-get install "
                                     f"{'espeak-ng' if program == self.espeak else 'alsa-utils'})")

    def start(self) -> None:
        self.check()
        self._thread.start()

    def say(self, text: str | Callable[[], str | None], lang: str) -> None:
        """Say ``text`` in ``lang`` as soon as possible: a line not yet
        begun is dropped, one being played is stopped.  ``text`` may be a
        function that makes the line (``None``: nothing to say), called on
        the speaker's thread, so that the caller's thread does not wait for
        the words either."""
        with self._lock:
            if self._closed:
                return
            self._pending = (text, lang)
            self._stop_playing()
            self._lock.notify()

    def quiet(self) -> None:
        """Stop the line being played and forget the one waiting."""
        with self._lock:
            self._pending = None
            self._stop_playing()

    def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no line waits or plays (tests, the benchmark)."""
        with self._lock:
            return self._lock.wait_for(lambda: self._idle and self._pending is None, timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._pending = None
            self._stop_playing()
            self._lock.notify_all()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    # -- the speaker's thread ---------------------------------------------------------

    def _stop_playing(self) -> None:
        for process in self._playing:
            if process.poll() is None:
                process.kill()

    def _run(self) -> None:
        while True:
            with self._lock:
                self._idle = True
                self._lock.notify_all()
                self._lock.wait_for(lambda: self._closed or self._pending is not None)
                if self._closed:
                    return
                self._idle = False
                self._wait_settled()
                if self._closed:
                    return
                if self._pending is None:  # quieted meanwhile
                    continue
                words, lang = self._pending
                self._pending = None
                self._idle = False
            # Made and started outside the lock: say() never waits for a fork.
            try:
                text = words() if callable(words) else words
            except Exception:
                log.exception("the caller's line could not be made")
                text = None
            if not text:
                continue
            started = self._start_line(text, lang)
            if started is None:
                continue
            with self._lock:
                self._playing = list(started)
                if self._pending is not None or self._closed:
                    self._stop_playing()  # a newer line came while it started
            if self._finish(*started):
                with self._lock:
                    self.last.append((text, lang))

    def _wait_settled(self) -> None:
        """Called with the lock held: wait until no newer line has come for
        ``settle`` seconds (the condition's timed wait, never a busy loop)."""
        while not self._closed:
            waiting = self._pending
            self._lock.wait(self.settle)
            if self._pending is waiting:
                return

    def _start_line(self, text: str, lang: str
                    ) -> tuple[subprocess.Popen[bytes], subprocess.Popen[bytes]] | None:
        try:
            espeak = subprocess.Popen(
                synthesize_command(text, lang, speed=self.speed, volume=self.volume,
                                   espeak=self.espeak),
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        except OSError as exc:
            with self._lock:
                self._failed(f"cannot run {self.espeak}: {exc.strerror or exc}")
            return None
        try:
            player = subprocess.Popen(self.player, stdin=espeak.stdout,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        except OSError as exc:
            espeak.kill()
            espeak.wait()
            with self._lock:
                self._failed(f"cannot run {self.player[0]}: {exc.strerror or exc}")
            return None
        finally:
            assert espeak.stdout is not None
            espeak.stdout.close()  # the player holds the pipe now
        return espeak, player

    def _finish(self, espeak: subprocess.Popen[bytes], player: subprocess.Popen[bytes]) -> bool:
        """Wait for the line to end; whether it played to its end."""
        try:
            _, errors = player.communicate(timeout=LONGEST_LINE)
        except subprocess.TimeoutExpired:
            player.kill()
            _, errors = player.communicate()
        espeak.wait()
        with self._lock:
            self._playing = []
            interrupted = player.returncode is not None and player.returncode < 0
            if player.returncode == 0:
                self.said += 1
                if self.fault is not None:
                    log.info("the speaker plays again")
                    self.fault = None
                    self._tell(None)
            elif not interrupted:
                said = errors.decode("utf-8", "replace").strip().splitlines()
                self._failed(said[-1] if said else f"{self.player[0]} exited with "
                                                   f"status {player.returncode}")
            return player.returncode == 0

    def _failed(self, message: str) -> None:
        """Called with the lock held: a new fault is logged and told once."""
        if message != self.fault:
            log.error("the speaker cannot play on %s: %s", self.device, message)
            self.fault = message
            self._tell(message)

    def _tell(self, message: str | None) -> None:
        if self.on_fault is not None:
            try:
                self.on_fault(message)
            except Exception:
                log.exception("the speaker's fault listener failed")
