"""Envelope encryption of a package: one random 256-bit data key, wrapped either by the
installation's key set (MEMORY_CONSOLE_ENCRYPTION_KEYS, through apps.memory.crypto, so a
package made before a key rotation still opens after it) or by a passphrase (scrypt).
The header records how: the installation key's id, or the scrypt parameters and salt.
"""

import base64
import os
from typing import Any

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

from apps.memory import crypto
from apps.snapshots.package import PackageError

DATA_KEY_BYTES = 32
# scrypt cost for new packages (about 0.1 s and 32 MiB), and the most a header may ask for
# (a crafted header must not make the reader spend minutes or gigabytes).
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**15, 8, 1
MAX_SCRYPT_N, MAX_SCRYPT_R, MAX_SCRYPT_P = 2**20, 16, 4
_WRAP_AAD = b"mcpkg data key"
MIN_PASSPHRASE = 8


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode("ascii")


def _unb64(text: Any, what: str) -> bytes:
    try:
        return base64.b64decode(str(text), validate=True)
    except ValueError as error:
        raise PackageError(f"The header's {what} is not valid base64.") from error


def _kek(passphrase: str, *, salt: bytes, n: int, r: int, p: int) -> bytes:
    return Scrypt(salt=salt, length=32, n=n, r=r, p=p).derive(passphrase.encode())


def new_data_key() -> bytes:
    return AESGCM.generate_key(bit_length=256)


def wrap_data_key(data_key: bytes, *, passphrase: str | None) -> dict[str, Any]:
    """The header's `key` member: how the data key is wrapped, and the wrapped key."""
    if passphrase is None:
        return {
            "wrap": "installation",
            "key_id": crypto.configured_key_ids()[0],
            "wrapped": crypto.seal(_b64(data_key)),
        }
    if len(passphrase) < MIN_PASSPHRASE:
        raise PackageError(f"A passphrase needs at least {MIN_PASSPHRASE} characters.")
    salt, nonce = os.urandom(16), os.urandom(12)
    kek = _kek(passphrase, salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P)
    return {
        "wrap": "passphrase",
        "kdf": "scrypt",
        "n": SCRYPT_N,
        "r": SCRYPT_R,
        "p": SCRYPT_P,
        "salt": _b64(salt),
        "nonce": _b64(nonce),
        "wrapped": _b64(AESGCM(kek).encrypt(nonce, data_key, _WRAP_AAD)),
    }


def unwrap_data_key(key: Any, *, passphrase: str | None) -> bytes:
    """The data key, or a PackageError saying why it cannot be had (wrong key, no passphrase)."""
    if not isinstance(key, dict):
        raise PackageError("The header has no key description.")
    wrap = key.get("wrap")
    if wrap == "installation":
        key_id = str(key.get("key_id", "?"))
        try:
            raw = crypto.unseal(str(key.get("wrapped", "")))
        except (crypto.InvalidToken, ValueError) as error:
            known = ", ".join(crypto.configured_key_ids())
            raise PackageError(
                f"Wrong key: the package was sealed with installation key {key_id}, which is "
                f"not in this installation's key set ({known}).",
                code="wrong_key",
            ) from error
        return _unb64(raw, "wrapped data key")
    if wrap == "passphrase":
        if not passphrase:
            raise PackageError(
                "This package is protected by a passphrase; give it (--passphrase-env VAR).",
                code="passphrase_required",
            )
        try:
            n, r, p = int(key["n"]), int(key["r"]), int(key["p"])
        except (KeyError, TypeError, ValueError) as error:
            raise PackageError("The header's scrypt parameters are missing.") from error
        if not (2 <= n <= MAX_SCRYPT_N and n & (n - 1) == 0) or not (
            1 <= r <= MAX_SCRYPT_R and 1 <= p <= MAX_SCRYPT_P
        ):
            raise PackageError("The header asks for scrypt parameters beyond this reader's limits.")
        kek = _kek(passphrase, salt=_unb64(key.get("salt"), "salt"), n=n, r=r, p=p)
        try:
            return AESGCM(kek).decrypt(
                _unb64(key.get("nonce"), "nonce"),
                _unb64(key.get("wrapped"), "wrapped key"),
                _WRAP_AAD,
            )
        except InvalidTag as error:
            raise PackageError(
                "Wrong passphrase: it does not open this package's data key.", code="wrong_key"
            ) from error
    raise PackageError(f"Unknown key wrapping {wrap!r}.")
