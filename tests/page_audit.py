"""What a page shown in Chromium must not do to its words, and what axe-core,
the accessibility audit, finds in it.

- :func:`cut_words`: a word broken inside across two lines ("Joueu/r"), a
  text cut at its box's edge (an ellipsis, a clipped overflow, a scrolled
  strip such as the tabs) without its whole text in a title or label, a
  page or a strip that scrolls sideways.
- :func:`axe_violations`: the WCAG 2.0/2.1 A and AA rules axe-core finds
  broken, one line each (rule, impact, the elements).

axe-core comes from npm, installed once into ``test-artifacts/axe`` (ignored
by git) at the version pinned here; without npm the tests that need it are
skipped, and fail under CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

AXE_VERSION = "4.14.1"
AXE_HOME = Path(__file__).resolve().parent.parent / "test-artifacts" / "axe"
AXE_SCRIPT = AXE_HOME / "node_modules" / "axe-core" / "axe.min.js"
# The rules of the standard the panel keeps: WCAG 2.0 and 2.1, levels A and AA.
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def axe_source() -> str:
    """axe-core's script, installed with npm the first time."""
    if not AXE_SCRIPT.exists():
        npm = shutil.which("npm")
        if npm is None:
            message = "npm is missing: install Debian's npm to run the accessibility audit"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
        AXE_HOME.mkdir(parents=True, exist_ok=True)
        subprocess.run([npm, "install", "--prefix", str(AXE_HOME), "--no-save", "--no-audit",
                        "--no-fund", "--loglevel=error", f"axe-core@{AXE_VERSION}"],
                       check=True, timeout=300, capture_output=True)
    return AXE_SCRIPT.read_text()


def axe_violations(page, source: str) -> list[str]:
    """The WCAG A/AA violations axe-core finds in the page as it is (an
    open sheet included), one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        # Evaluated as the devtools do: the page's script policy is the panel's.
        page.evaluate(source)
    found = page.evaluate("""async (tags) => {
        const result = await axe.run(document, {runOnly: {type: "tag", values: tags},
                                               resultTypes: ["violations"]});
        return result.violations.map((v) => `${v.id} (${v.impact}): ` + v.nodes
            .map((n) => n.target.join(" ") + " "
                 + n.failureSummary.replace(/\\s+/g, " ").slice(0, 160))
            .join(" | "));
    }""", AXE_TAGS)
    return list(found)


CUT_WORDS = """() => {
  const found = [];
  const shown = (el) => el && el.getClientRects().length > 0
      && getComputedStyle(el).visibility !== "hidden";
  // A word broken across two lines: its letters on more than one line.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!shown(el) || el.closest("script, style, svg, [aria-hidden=true]")) continue;
    for (const word of node.data.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
        .map((r) => Math.round(r.bottom)));
      const said = el.textContent.trim().slice(0, 60);
      if (tops.size > 1) found.push(`word broken: "${word[0]}" in "${said}"`);
    }
  }
  // A text cut at its box's edge without its whole text in a title or
  // label (an ellipsis says it is cut; a clip does not, and is never right),
  // a strip that scrolls sideways, a text spilling out of its box.
  const reachable = (el) => {
    const text = el.textContent.replace(/\\s+/g, " ").trim();
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      const said = `${at.getAttribute("title") || ""} ${at.getAttribute("aria-label") || ""}`;
      if (said.includes(text)) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    if (!shown(el) || !el.textContent.trim() || el.closest("svg")) continue;
    // Said to a screen reader, not shown (the sr-only box).
    if (el.clientWidth <= 1 && el.clientHeight <= 1) continue;
    const style = getComputedStyle(el);
    const wide = el.scrollWidth > el.clientWidth + 1;
    const tall = el.scrollHeight > el.clientHeight + 1;
    const clipsX = style.overflowX !== "visible";
    const clipsY = style.overflowY !== "visible" && el.tagName !== "DIALOG" && el.tagName !== "HTML"
        && style.overflowY !== "auto" && style.overflowY !== "scroll";
    if (clipsX && wide && ["auto", "scroll"].includes(style.overflowX)) {
      const name = `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}.${el.className}`;
      found.push(`scrolls sideways: ${name} (${el.scrollWidth} px in ${el.clientWidth})`);
    } else if ((clipsX && wide) || (clipsY && tall)) {
      if (style.textOverflow !== "ellipsis" || !reachable(el)) {
        found.push(`cut: "${el.textContent.trim().slice(0, 60)}" `
          + `(${el.tagName.toLowerCase()}.${el.className})`);
      }
    } else if (wide && !clipsX && style.display !== "inline"
               && [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.data.trim())) {
      found.push(`spills out of its box: "${el.textContent.trim().slice(0, 60)}" `
        + `(${el.tagName.toLowerCase()}.${el.className})`);
    }
  }
  const width = document.documentElement.scrollWidth;
  if (width > innerWidth) found.push(`the page is ${width} px wide in ${innerWidth}`);
  return found;
}"""


def cut_words(page) -> list[str]:
    """Words broken inside, texts cut without their whole text reachable,
    sideways scrolling, in the page as shown."""
    return list(page.evaluate(CUT_WORDS))
