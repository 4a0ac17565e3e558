"""Where the MQTT broker is and how to log in (``[broker]`` in the config, ``--broker``
on the commands). Kept apart from :mod:`~firmware_host.remote.link`, so that reading a
config loads neither paho nor ``ssl``: a nest that plays no one at a distance never does.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from firmware_host.errors import NestrefError


class LinkError(NestrefError, ValueError):
    """A broker address or option cannot be used; the message says which part and why
    (never the password)."""


@dataclass(frozen=True)
class BrokerSettings:
    """Where the broker is and how to log in. ``password`` never appears in a repr or a log."""

    host: str
    port: int = 1883
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    tls: bool = False
    ca_file: str | None = None
    """The certificate authority that signed the broker's certificate (None: the
    system's own authorities, as for a broker with a public certificate)."""
    keepalive_s: int = 15

    @classmethod
    def from_url(cls, url: str, *, ca_file: str | None = None) -> BrokerSettings:
        """Settings from ``mqtt://[user[:password]@]host[:port]`` (plain, port 1883) or
        ``mqtts://...`` (TLS, port 8883). Raises :class:`LinkError`.

        >>> BrokerSettings.from_url("mqtts://nest:secret@broker.example:8884")
        BrokerSettings(host='broker.example', port=8884, username='nest', tls=True, ca_file=None, keepalive_s=15)
        """
        from urllib.parse import unquote, urlsplit  # here: a nest without a broker loads no urllib

        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError as error:
            raise LinkError(f"broker {_without_password(url)!r}: {error}") from None
        if parts.scheme not in ("mqtt", "mqtts"):
            raise LinkError(f"broker {_without_password(url)!r}: the address starts mqtt:// or mqtts://")
        if not parts.hostname:
            raise LinkError(f"broker {_without_password(url)!r}: no host name")
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise LinkError(f"broker {_without_password(url)!r}: an address has no path, query or fragment")
        tls = parts.scheme == "mqtts"
        return cls(
            host=parts.hostname,
            port=port or (8883 if tls else 1883),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            tls=tls,
            ca_file=ca_file,
        )

    def to_text(self) -> str:
        """The address for a log or a screen, without the password."""
        user = f"{self.username}@" if self.username else ""
        return f"{'mqtts' if self.tls else 'mqtt'}://{user}{self.host}:{self.port}"


def _without_password(url: str) -> str:
    head, at, tail = url.rpartition("@")
    if not at:
        return url
    scheme, _, credentials = head.partition("://")
    user = credentials.split(":", 1)[0]
    return f"{scheme}://{user}:***@{tail}"
