"""Sealing content with MultiFernet: round trips, rotation keeps old items readable."""

import pytest
from cryptography.fernet import Fernet
from django.test import override_settings

from apps.memory import crypto


def test_sealed_text_round_trips_and_hides_the_plaintext():
    token = crypto.seal("卡号 4111 1111 1111 1111")
    assert "4111" not in token
    assert crypto.unseal(token) == "卡号 4111 1111 1111 1111"


def test_sealed_content_round_trips_as_json():
    content = {"text": "password: hunter2", "tags": ["a", 1]}
    assert crypto.unseal_content(crypto.seal_content(content)) == content


def test_key_rotation_keeps_old_tokens_readable_and_rotate_moves_them_to_the_new_key():
    old_key, new_key = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    with override_settings(MEMORY_CONSOLE_ENCRYPTION_KEYS=[old_key]):
        old_token = crypto.seal("secret")
    with override_settings(MEMORY_CONSOLE_ENCRYPTION_KEYS=[new_key, old_key]):
        assert crypto.unseal(old_token) == "secret"
        new_token = crypto.seal("secret")
        rotated = crypto.rotate_token(old_token)
        assert crypto.unseal(rotated) == "secret"
    # New writes and rotated tokens are under the new key alone.
    assert Fernet(new_key.encode()).decrypt(new_token.encode()) == b"secret"
    assert Fernet(new_key.encode()).decrypt(rotated.encode()) == b"secret"
    with override_settings(MEMORY_CONSOLE_ENCRYPTION_KEYS=[new_key]):
        assert crypto.unseal(rotated) == "secret"
        with pytest.raises(crypto.InvalidToken):
            crypto.unseal(old_token)


def test_a_token_from_an_unknown_key_is_refused():
    foreign = Fernet(Fernet.generate_key()).encrypt(b"x").decode()
    with pytest.raises(crypto.InvalidToken):
        crypto.unseal(foreign)
