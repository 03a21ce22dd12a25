"""The panel's server builds on waitress beyond its documented interface
(``web/server.py`` says why): every attribute it names in
``WAITRESS_INTERNALS`` is still there on the installed waitress, on real
objects of each class (a server bound to a free port, a connection over a
socket pair, a request's task, the thread pool)."""

from __future__ import annotations

import importlib
import socket

import pytest
from waitress.parser import HTTPRequestParser

from web import PanelSettings, create_app
from web.server import WAITRESS_INTERNALS, serve


@pytest.fixture
def objects(table):
    """One live object for each of waitress's classes and modules named."""
    app = create_app(table, PanelSettings(secret_key="test"))
    panel = serve(app, "127.0.0.1", 0)
    server = panel._server
    ours, theirs = socket.socketpair()
    channel = server.channel_class(server, ours, ("127.0.0.1", 50000), server.adj, map={})
    task = channel.task_class(channel, HTTPRequestParser(server.adj))
    found = {
        "waitress.server.TcpWSGIServer": server,
        "waitress.channel.HTTPChannel": channel,
        "waitress.task.WSGITask": task,
        "waitress.task.ThreadedTaskDispatcher": server.task_dispatcher,
        "waitress.wasyncore": importlib.import_module("waitress.wasyncore"),
        "waitress.trigger.trigger": server.trigger,
    }
    yield found
    channel.del_channel()
    ours.close()
    theirs.close()
    panel.close()


def _waitress_class(dotted: str) -> type | None:
    module, _, name = dotted.rpartition(".")
    try:
        found = getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError):
        return None
    return found if isinstance(found, type) else None


def test_every_waitress_internal_the_server_uses_is_still_there(objects) -> None:
    assert set(objects) == set(WAITRESS_INTERNALS)
    missing = [f"{owner}.{name}" for owner, names in WAITRESS_INTERNALS.items()
               for name in names if not hasattr(objects[owner], name)]
    assert not missing, f"waitress no longer has: {missing}"


def test_the_server_s_objects_are_waitress_s_own_classes(objects) -> None:
    for owner, found in objects.items():
        cls = _waitress_class(owner)
        if cls is not None:
            assert isinstance(found, cls), owner
