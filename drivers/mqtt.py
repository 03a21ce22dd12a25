"""A connection to an MQTT broker, with paho-mqtt 2 (Eclipse's client, the one
Home Assistant, Zigbee2MQTT and OctoPrint's plugin use).

paho runs its network loop on its own thread and reconnects by itself, with
a growing wait; nothing here blocks the caller except :meth:`Link.publish`,
which waits (at most ``timeout``) for the broker's acknowledgement of a
QoS 1 message, and is called from the publisher's own thread.  Plain
arguments, as gpiozero's devices take: the companion's config does not
reach this module.
"""

from __future__ import annotations

import logging
import ssl
import threading
from typing import Callable

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from companion.core.errors import CompanionError

log = logging.getLogger(__name__)

# How long paho waits before reconnecting: from MIN to MAX seconds, doubling.
RECONNECT_MIN, RECONNECT_MAX = 1, 8


class BrokerRefused(CompanionError):
    """The broker took the message but refused it (not authorised)."""


class Link:
    """One client of one broker.

    ``will`` is the last will ``(topic, payload)``, published retained by the
    broker when this client goes away without a word.  ``on_connect`` is
    called (on paho's thread) each time the connection is made, so the
    caller can say it is there again; ``on_message(topic, payload)`` for each
    message of the ``subscriptions``.  With ``session_seconds``, the broker
    keeps this client's subscriptions and queues its messages while it is
    away, that long (a board that restarts misses nothing).
    """

    def __init__(self, host: str, port: int = 1883, *, client_id: str,
                 username: str | None = None, password: str | None = None,
                 tls: bool = False, ca_file: str | None = None,
                 cert_file: str | None = None, key_file: str | None = None,
                 will: tuple[str, bytes] | None = None,
                 subscriptions: tuple[str, ...] = (),
                 on_connect: Callable[[], None] | None = None,
                 on_message: Callable[[str, bytes], None] | None = None,
                 keepalive: int = 30, session_seconds: int = 0) -> None:
        self.host, self.port = host, port
        self._subscriptions = subscriptions
        self._on_connect = on_connect
        self._on_message = on_message
        self._keepalive = keepalive
        self._session = session_seconds
        self._connected = threading.Event()
        self._lock = threading.Lock()
        self._refused: dict[int, ReasonCode] = {}
        self.last_error: str | None = None
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                             protocol=mqtt.MQTTv5)
        if username:
            client.username_pw_set(username, password)
        if tls or ca_file or cert_file:
            client.tls_set(ca_certs=ca_file or None, certfile=cert_file or None,
                           keyfile=key_file or None, cert_reqs=ssl.CERT_REQUIRED)
        if will is not None:
            client.will_set(will[0], will[1], qos=1, retain=True)
        client.reconnect_delay_set(RECONNECT_MIN, RECONNECT_MAX)
        client.on_connect = self._connected_now
        client.on_disconnect = self._gone
        client.on_connect_fail = self._unreachable
        client.on_message = self._message
        client.on_publish = self._acknowledged
        # paho's own log would say every failed reconnection as an error;
        # this link says the connection's coming and going, once each.
        self._client = client

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    def start(self) -> None:
        """Connect in the background (paho's thread): returns at once."""
        properties = None
        if self._session:
            properties = Properties(PacketTypes.CONNECT)
            properties.SessionExpiryInterval = self._session
        self._client.connect_async(self.host, self.port, self._keepalive,
                                   clean_start=not self._session, properties=properties)
        self._client.loop_start()

    def wait_connected(self, timeout: float) -> bool:
        return self._connected.wait(timeout)

    def publish(self, topic: str, payload: bytes, *, qos: int = 1, retain: bool = False,
                timeout: float = 10.0) -> bool:
        """Send one message; for QoS 1, wait for the broker's acknowledgement.
        True once the broker has it; False when it did not answer in time or
        the connection is down (send it again later); :class:`BrokerRefused` when
        the broker said no (this client may not write that topic)."""
        if not self.connected:
            return False
        try:
            info = self._client.publish(topic, payload, qos=qos, retain=retain)
        except (ValueError, RuntimeError) as exc:
            self.last_error = str(exc)
            return False
        if info.rc != mqtt.MQTT_ERR_SUCCESS:
            return False
        if qos == 0:
            return True
        try:
            info.wait_for_publish(timeout)
        except RuntimeError:  # the connection went while it waited
            return False
        if not info.is_published():
            return False
        with self._lock:
            refused = self._refused.pop(info.mid, None)
        if refused is not None:
            raise BrokerRefused(f"the broker refused {topic}: {refused}")
        return True

    def stop(self, farewell: tuple[str, bytes] | None = None) -> None:
        """Say ``farewell`` (retained) if connected, then disconnect."""
        if farewell is not None and self.connected:
            try:
                self._client.publish(farewell[0], farewell[1], qos=1,
                                     retain=True).wait_for_publish(2)
            except (RuntimeError, ValueError):
                pass
        if self.connected:
            self._client.disconnect()
        self._client.loop_stop()
        self._connected.clear()

    # -- paho's callbacks (its thread) --------------------------------------------

    def _connected_now(self, client: mqtt.Client, userdata: object, flags: object,
                       reason: ReasonCode, properties: object) -> None:
        if reason.is_failure:
            self.last_error = str(reason)
            log.warning("the venue's broker %s:%s refused the connection: %s",
                        self.host, self.port, reason)
            return
        log.info("connected to the broker %s:%s%s", self.host, self.port,
                 " again" if self.last_error is not None else "")
        self.last_error = None
        for topic in self._subscriptions:
            client.subscribe(topic, qos=1)
        self._connected.set()
        if self._on_connect is not None:
            self._on_connect()

    def _gone(self, client: mqtt.Client, userdata: object, flags: object,
              reason: ReasonCode, properties: object) -> None:
        was = self._connected.is_set()
        self._connected.clear()
        if reason.is_failure:
            self.last_error = str(reason)
            if was:
                log.warning("the broker %s:%s went away (%s); trying again every %d s at "
                            "most", self.host, self.port, reason, RECONNECT_MAX)

    def _unreachable(self, client: mqtt.Client, userdata: object) -> None:
        """paho could not connect (no broker there, refused, no route...)."""
        self.last_error = f"cannot reach {self.host}:{self.port}"

    def _acknowledged(self, client: mqtt.Client, userdata: object, mid: int,
                      reason: ReasonCode, properties: object) -> None:
        if reason.is_failure:
            with self._lock:
                self._refused[mid] = reason

    def _message(self, client: mqtt.Client, userdata: object,
                 message: mqtt.MQTTMessage) -> None:
        if self._on_message is not None:
            try:
                self._on_message(message.topic, message.payload)
            except Exception:  # one bad message must not stop paho's loop
                log.exception("a message on %s could not be read", message.topic)
