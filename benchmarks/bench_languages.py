"""What the languages' rules cost: importing the companion (Babel is not
imported then), the first sentence that counts something (Babel and the
language's CLDR data loaded), and a counted sentence afterwards.  Each start
is a fresh interpreter, best of five.

    .venv/bin/python benchmarks/bench_languages.py
"""

from __future__ import annotations

import subprocess
import sys
import time

RUNS = 5
ROUNDS = 20_000

IMPORT = "import companion.core.text, sys; assert 'babel' not in sys.modules"
FIRST = ("import companion.core.text as t, time; s = time.perf_counter(); "
         "t.say('cli.game-games', '{lang}', title='x', n=2); "
         "print(time.perf_counter() - s)")


def best_start(code: str) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        best = min(best, time.perf_counter() - start)
    return best


def best_printed(code: str) -> float:
    return min(float(subprocess.run([sys.executable, "-c", code], check=True,
                                    capture_output=True, text=True).stdout)
               for _ in range(RUNS))


def per_call_us(action) -> float:
    best = float("inf")
    for _ in range(RUNS):
        start = time.perf_counter()
        for _ in range(ROUNDS):
            action()
        best = min(best, time.perf_counter() - start)
    return best / ROUNDS * 1e6


def main() -> None:
    from companion.core.text import say

    bare = best_start("pass")
    print(f"python itself: {bare * 1000:.1f} ms")
    print(f"import companion.core.text (Babel not imported): "
          f"{(best_start(IMPORT) - bare) * 1000:.1f} ms over python itself")
    for lang in ("en", "fr", "it"):
        first = best_printed(FIRST.replace("{lang}", lang))
        print(f"first counted sentence in {lang} (imports Babel, loads CLDR's {lang}): "
              f"{first * 1000:.1f} ms")
    for lang in ("en", "fr", "it"):
        plain = per_call_us(lambda lang=lang: say("cli.won-of", lang, won=2, played=3))
        counted = per_call_us(lambda lang=lang: say("cli.game-games", lang, title="x", n=2))
        print(f"{lang}: a sentence {plain:.1f} µs, a counted sentence {counted:.1f} µs")


if __name__ == "__main__":
    main()
