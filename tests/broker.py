"""A real Mosquitto broker for the tests (Debian's, installed by ``.ci/mosquitto``):
started on a free port of 127.0.0.1 with a config written for the test, optionally
with a password file and TLS on a self-signed certificate made with openssl; stopped
at the end."""

from __future__ import annotations

import socket
import subprocess
import threading
from dataclasses import dataclass, field
from pathlib import Path

MOSQUITTO = "/usr/sbin/mosquitto"
START_TIMEOUT_S = 10.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and its key, made with openssl."""
    cert, key = folder / "broker.crt", folder / "broker.key"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


@dataclass
class Broker:
    folder: Path
    port: int = field(default_factory=free_port)
    users: dict[str, str] = field(default_factory=dict)
    tls: bool = False
    acl: str = ""
    """An ACL file's lines (``pattern write nestref/+/%u/#``...); empty: none."""
    extra: tuple[str, ...] = ()
    """More lines of the config (``message_size_limit 262144``...)."""
    process: subprocess.Popen[bytes] | None = None
    cert: Path | None = None
    log: list[str] = field(default_factory=list)
    _reader: threading.Thread = field(init=False, repr=False)

    def _config(self) -> Path:
        lines = [f"listener {self.port} 127.0.0.1", "persistence false", "user root", "log_dest stderr"]
        lines.append("set_tcp_nodelay true")  # as docs/remote-play.md's config: a move is sent at once
        if self.users:
            passwords = self.folder / "passwords"
            passwords.write_text("")
            for user, password in self.users.items():
                subprocess.run(["mosquitto_passwd", "-b", str(passwords), user, password], check=True)
            lines += ["allow_anonymous false", f"password_file {passwords}"]
        else:
            lines.append("allow_anonymous true")
        if self.acl:
            acl = self.folder / "acl"
            acl.write_text(self.acl)
            lines.append(f"acl_file {acl}")
        lines += self.extra
        if self.tls:
            self.cert, key = self_signed_certificate(self.folder)
            lines += [f"certfile {self.cert}", f"keyfile {key}"]
        config = self.folder / "mosquitto.conf"
        config.write_text("\n".join(lines) + "\n")
        return config

    def start(self) -> None:
        """Start mosquitto and wait (with a timeout) for it to say it runs."""
        config = self._config()
        self.process = process = subprocess.Popen(
            [MOSQUITTO, "-c", str(config)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        running = threading.Event()

        def read_log() -> None:  # also keeps the pipe drained while the broker runs
            assert process.stderr is not None
            for line in process.stderr:
                self.log.append(line.decode(errors="replace"))
                if b" running" in line:
                    running.set()

        self._reader = threading.Thread(target=read_log, daemon=True)
        self._reader.start()
        if not running.wait(START_TIMEOUT_S):
            self.stop()
            raise RuntimeError(f"mosquitto did not start within {START_TIMEOUT_S} s: {''.join(self.log)}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self._reader.join(timeout=10)  # the log read to its end
            assert self.process.stderr is not None
            self.process.stderr.close()
            self.process = None

    @property
    def url(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://127.0.0.1:{self.port}"
