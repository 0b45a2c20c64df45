"""axe-core (from the npm registry, ``package.json``) run inside a Playwright page.

``axe_violations(page)`` injects axe-core through the DevTools protocol (``page.evaluate`` is not
subject to the page's Content-Security-Policy, which forbids inline scripts) and returns the
findings of the given impacts. Each finding keeps axe's rule id, its help text and the selectors of
the offending nodes, so a failing assertion says what to fix.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"


@cache
def _axe_source() -> str:
    if not AXE_JS.exists():
        raise FileNotFoundError(f"{AXE_JS} is missing: run `npm install` in {ROOT} (make install-test does)")
    return AXE_JS.read_text(encoding="utf-8")


def axe_violations(page: Any, impacts: tuple[str, ...] = ("serious", "critical")) -> list[dict[str, Any]]:
    """The axe-core violations on ``page`` whose impact is one of ``impacts``."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source())
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          // Colours are judged at rest: a note fading in or out (CSS transitions, 0.2 s) has a
          // contrast between the page's and its own for a moment, which no reader is asked to read.
          // An update may start such a fade while axe runs (a bot moved): findings of such a run
          // are judged again once the page is still (once in CI under load, a note was half
          // faded in).
          const fading = () => document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity);
          const settle = () => Promise.all(fading().map((a) => a.finished.catch(() => null)));
          let result = null;
          for (let attempt = 0; attempt < 3; attempt++) {
            await settle();
            let moved = false;
            const watch = () => { moved = true; };
            for (const kind of ["transitionstart", "transitionrun", "animationstart"])
              document.addEventListener(kind, watch, true);
            result = await axe.run(document, { resultTypes: ["violations"] });
            for (const kind of ["transitionstart", "transitionrun", "animationstart"])
              document.removeEventListener(kind, watch, true);
            // nothing found, or found on a still page: that is the verdict
            if (result.violations.length === 0 || (!moved && fading().length === 0)) break;
          }
          return result.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
          }));
        }"""
    )
    return [v for v in found if v["impact"] in impacts]


def describe(violations: list[dict[str, Any]]) -> str:
    """One line a finding, for assertion messages."""
    return "\n".join(f"{v['impact']} {v['id']}: {v['help']} at {', '.join(v['nodes'])}" for v in violations)
