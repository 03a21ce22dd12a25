"""Schemathesis hooks for tests/test_api_fuzz.py (loaded by ``st run`` through
SCHEMATHESIS_HOOKS): every request is sent as a controller of the panel, who
joined with the join token of the table's QR code, read where the companion
keeps it (so a request that signed every phone out is followed by a fresh
join, as a phone would scan the new code)."""

from __future__ import annotations

import os

import requests
import schemathesis

from companion.core.access import AccessStore

PANEL = os.environ.get("COMPANION_PANEL", "http://127.0.0.1:8080")
ACCESS_FILE = os.environ.get("COMPANION_ACCESS_FILE", "")


@schemathesis.auth(refresh_interval=None)
class Controller:
    """A controller's session cookie and CSRF token: joined once, and again
    whenever the join token has changed (every phone signed out)."""

    def __init__(self) -> None:
        self.joined: tuple[str, tuple[str, str]] | None = None

    def get(self, case, ctx):
        store = AccessStore(ACCESS_FILE)
        try:
            token = store.keys().token
        finally:
            store.close()
        if self.joined is None or self.joined[0] != token:
            with requests.Session() as phone:
                phone.get(f"{PANEL}/?join={token}", allow_redirects=False, timeout=10)
                csrf = phone.get(f"{PANEL}/api/session", timeout=10).json()["csrf"]
                self.joined = (token, (phone.cookies["companion"], csrf))
        return self.joined[1]

    def set(self, case, data, ctx):
        cookie, csrf = data
        case.cookies = {**(case.cookies or {}), "companion": cookie}
        case.headers = {**(case.headers or {}), "X-CSRF-Token": csrf}
