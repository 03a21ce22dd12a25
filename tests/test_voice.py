"""The table's voice with the real espeak-ng and ALSA: a game's lines
rendered to WAV (each heard, and as long as its words), played through
ALSA's null device by the running simulated companion, a newer line
interrupting an unfinished one, and a missing device shown as one fault."""

from __future__ import annotations

import array
import io
import shutil
import sys
import time
import wave
from pathlib import Path

import pytest

from companion.core.caller import line
from companion.core.journal import Journal
from companion.core.table import Table
from companion.host.config import Config, Voice
from drivers.voice import Speaker, render_wav

pytestmark = pytest.mark.skipif(
    shutil.which("espeak-ng") is None or shutil.which("aplay") is None,
    reason="needs Debian's espeak-ng and alsa-utils (scripts/test installs them)")

NAMES = ["Ana", "Ben", "Cy"]


def scripted_lines(lang: str) -> list[str]:
    """The caller's lines of a short game of Call of Nature."""
    table = Table(Journal.open(":memory:"))
    updates = [table.new_game("call-of-nature", NAMES)]
    for words in ("card +5", "card 30", "special u-turn", "card 15"):
        updates.append(table.submit_words(words))
    updates.append(table.undo())
    table.close()
    return [said for update in updates if (said := line(update, lang)) is not None]


def samples(wav: bytes) -> tuple[array.array, float]:
    # espeak-ng writes its WAV as a stream: the header's length is unknown
    # (the most a WAV can say), so the length is that of the samples read.
    with wave.open(io.BytesIO(wav)) as read:
        assert read.getsampwidth() == 2 and read.getnchannels() == 1
        frames = read.readframes(read.getnframes())
        rate = read.getframerate()
    found = array.array("h")
    found.frombytes(frames[:len(frames) // 2 * 2])
    return found, len(found) / rate


@pytest.mark.parametrize("lang", ["en", "fr", "it"])
def test_each_line_of_a_game_renders_to_a_heard_wav_as_long_as_its_words(lang):
    lines = scripted_lines(lang)
    assert len(lines) == 6
    for said in lines:
        sound, seconds = samples(render_wav(said, lang))
        loud = sum(1 for s in sound if abs(s) > 1000)
        assert loud > len(sound) // 20, f"{said!r} is silent"
        words = len(said.split())
        # 160 words a minute: about 0.4 s a word, with pauses at the stops.
        assert 0.15 * words < seconds < 1.2 * words + 1.0, (said, seconds)


def test_a_longer_line_takes_longer():
    short, _ = samples(render_wav("Ana's turn", "en"))
    long, _ = samples(render_wav("Threshold 61! Ben loses 2 levels of Mastery, down to 4. "
                                 "Cy's turn, pressure 62.", "en"))
    assert len(long) > 3 * len(short)


def test_lines_play_through_alsas_null_device():
    faults: list[str | None] = []
    speaker = Speaker("null", on_fault=faults.append)
    speaker.start()
    try:
        for said in scripted_lines("fr")[:3]:
            speaker.say(said, "fr")
            assert speaker.wait_idle(30)
        assert speaker.said == 3 and speaker.fault is None and faults == []
        assert [lang for _, lang in speaker.last] == ["fr"] * 3
    finally:
        speaker.close()


def test_a_missing_device_is_one_fault_not_a_storm():
    faults: list[str | None] = []
    speaker = Speaker("no-such-card", on_fault=faults.append)
    speaker.start()
    try:
        for said in ("Ana's turn", "Ben's turn", "Cy's turn"):
            speaker.say(said, "en")
            assert speaker.wait_idle(30)
        assert speaker.said == 0
        # aplay's own last word, told once for the three lines.
        assert faults == [speaker.fault] and "audio open error" in faults[0]
    finally:
        speaker.close()


def test_a_device_that_comes_back_clears_the_fault():
    faults: list[str | None] = []
    speaker = Speaker("no-such-card", on_fault=faults.append)
    speaker.start()
    try:
        speaker.say("Ana's turn", "en")
        assert speaker.wait_idle(30) and speaker.fault is not None
        speaker.player = ["aplay", "-q", "-D", "null", "-"]  # plugged in again
        speaker.say("Ben's turn", "en")
        assert speaker.wait_idle(30)
        assert speaker.fault is None and faults[-1] is None and speaker.said == 1
    finally:
        speaker.close()


HELD = """
import pathlib, sys, time
folder = pathlib.Path(sys.argv[1])
number = len(list(folder.glob("*.wav"))) + 1
(folder / f"{number}.wav").write_bytes(sys.stdin.buffer.read())
while not (folder / "go").exists():
    time.sleep(0.01)
"""


def test_a_newer_line_interrupts_an_unfinished_one(tmp_path):
    """A player that holds each line until told to go: the first line is
    stopped when the second comes, and only the second plays to its end."""
    script = tmp_path / "held.py"
    script.write_text(HELD)
    out = tmp_path / "out"
    out.mkdir()
    speaker = Speaker("null", player=[sys.executable, str(script), str(out)])
    speaker.start()
    try:
        speaker.say("one two three four five six seven eight nine ten", "en")
        wait_for(lambda: (out / "1.wav").exists())
        speaker.say("Ana's turn", "en")
        wait_for(lambda: (out / "2.wav").exists())
        (out / "go").touch()
        assert speaker.wait_idle(30)
        assert speaker.said == 1 and speaker.fault is None
        assert list(speaker.last) == [("Ana's turn", "en")]
        first, _ = samples((out / "1.wav").read_bytes())
        second, _ = samples((out / "2.wav").read_bytes())
        assert len(first) > len(second) > 0
    finally:
        speaker.close()


def wait_for(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        time.sleep(0.01)


# -- the running simulated companion ----------------------------------------------------


def companion_with_voice(tmp_path: Path, device: str):
    from companion.daemon import Daemon

    config = Config(data_dir=str(tmp_path / "data"),
                    voice=Voice(enabled=True, device=device)).with_web(host="127.0.0.1", port=0)
    running = Daemon(config, simulate=True, environ={}, out=io.StringIO())
    running.start()
    return running


def test_the_simulated_companion_says_each_change_through_alsas_null_device(tmp_path):
    running = companion_with_voice(tmp_path, "null")
    try:
        table, speaker = running.part("table"), running.part("voice").speaker
        table.new_game("ohshit", NAMES)
        assert speaker.wait_idle(30)
        table.change_setting("language", "it")
        table.submit({"name": "poop", "args": {"player": 0, "target": 1, "colour": "spicy"}})
        assert speaker.wait_idle(30)
        assert [said for said, _ in speaker.last] == [
            "New game of OhShit!: Ana, Ben and Cy. Ana starts.", "Tocca a Ben."]
        assert speaker.last[-1][1] == "it"
        assert running.faults() == []
        # Turned off from the table's settings: nothing more is said.
        table.change_setting("caller", False)
        table.undo()
        time.sleep(0.2)
        assert speaker.wait_idle(30) and speaker.said == 2
    finally:
        running.stop()


def test_the_simulated_companion_shows_a_missing_speaker_as_a_fault(tmp_path):
    running = companion_with_voice(tmp_path, "no-such-card")
    try:
        table, speaker = running.part("table"), running.part("voice").speaker
        table.new_game("call-of-nature", NAMES)
        assert speaker.wait_idle(30)
        faults = running.faults()
        assert len(faults) == 1 and faults[0].startswith("speaker: ")
        table.submit_words("card +5")
        assert speaker.wait_idle(30)
        assert running.faults() == faults  # the same fault, once
    finally:
        running.stop()
