"""The HMAC key that aliases devices and withholds a secret seed is never a well-known default."""

from __future__ import annotations

import os

import pytest

from backend import SECRET_KEY_FILE, create_app


def _app(tmp_path, **config):
    return create_app(
        {
            "INSTANCE_PATH": tmp_path / "instance",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'k.sqlite'}",
            **config,
        }
    )


def test_a_random_key_is_generated_once_into_the_instance_folder(tmp_path):
    first = _app(tmp_path).config["SECRET_KEY"]
    path = tmp_path / "instance" / SECRET_KEY_FILE
    assert len(first) >= 48 and first != "dev"
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    assert _app(tmp_path).config["SECRET_KEY"] == first  # a restart keeps it (withheld digests stay stable)
    assert _app(tmp_path / "other").config["SECRET_KEY"] != first


@pytest.mark.parametrize("weak", ["dev", "secret", "short-but-not-known"])
def test_a_weak_configured_key_is_refused_outside_tests(tmp_path, weak):
    with pytest.raises(RuntimeError, match="SECRET_KEY is too weak"):
        _app(tmp_path, SECRET_KEY=weak)
    assert _app(tmp_path, SECRET_KEY=weak, TESTING=True).config["SECRET_KEY"] == weak


def test_a_long_configured_key_is_used(tmp_path):
    key = "k" * 40
    assert _app(tmp_path, SECRET_KEY=key).config["SECRET_KEY"] == key
