"""The config's [broker]: none by default, an address read with its password kept out of
the config, and every mistake named by its key (the password never in a message)."""

from __future__ import annotations

import pytest

from firmware_host.daemon.config import load_config
from firmware_host.errors import ConfigError
from firmware_host.remote.broker import BrokerSettings


def write(tmp_path, text: str) -> str:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_by_default_there_is_no_broker():
    assert load_config(None).broker is None


def test_a_broker_with_its_password_in_a_file_beside_the_config(tmp_path):
    (tmp_path / "broker.password").write_text("s3cret\n", encoding="utf-8")
    (tmp_path / "ca.pem").write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
    text = '[broker]\nurl = "mqtts://nest@broker.example"\npassword_file = "broker.password"\nca_file = "ca.pem"\n'
    broker = load_config(write(tmp_path, text)).broker
    assert broker == BrokerSettings(
        "broker.example", 8883, username="nest", password="s3cret", tls=True, ca_file=str(tmp_path / "ca.pem")
    )
    assert "s3cret" not in repr(broker) and "s3cret" not in broker.to_text()


def test_a_plain_address_takes_the_usual_port(tmp_path):
    assert load_config(write(tmp_path, '[broker]\nurl = "mqtt://192.168.1.20"\n')).broker == BrokerSettings(
        "192.168.1.20", 1883
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('url = "http://broker"', r"broker\.url: broker 'http://broker': the address starts mqtt:// or mqtts://"),
        ('url = "mqtt://"', r"broker\.url: broker 'mqtt://': no host name"),
        ('url = "mqtt://nest:hunter2@broker:99999"', r"broker\.url: broker 'mqtt://nest:\*\*\*@broker:99999': "),
        ("url = 1883", r"broker\.url: expected a string, got an integer"),
        ('url = "mqtt://b"\npassword_file = "missing"', r"broker\.password_file: .*missing: cannot read it"),
        ('url = "mqtts://b"\nca_file = "nowhere.pem"', r"broker\.ca_file: .*nowhere\.pem: no such file"),
        ('url = "mqtt://a:pw@b"\npassword_file = "pw"', r"broker\.password_file: the url has a password already"),
        ('host = "b"', r"broker\.host: unknown key \(expected one of: ca_file, password_file, url\)"),
    ],
)
def test_a_mistake_in_the_broker_is_named_by_its_key(tmp_path, text, message):
    (tmp_path / "pw").write_text("x", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"^{tmp_path}/config\.toml: {message}") as raised:
        load_config(write(tmp_path, f"[broker]\n{text}\n"))
    assert "hunter2" not in str(raised.value)


def test_an_empty_password_file_is_refused(tmp_path):
    (tmp_path / "pw").write_text("\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"broker\.password_file: .*pw: the file is empty"):
        load_config(write(tmp_path, '[broker]\nurl = "mqtt://b"\npassword_file = "pw"\n'))
