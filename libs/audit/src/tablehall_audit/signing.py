"""The server's export key (Ed25519): every export file is signed with it, so
an auditor can prove a file came from this server and was not re-chained.

The private key is read from TABLEHALL_SIGNING_KEY_FILE (PEM, PKCS#8), else
from `signing-key.pem` in the data folder, generated there (mode 0600) on
first use. The public key is published by the projection's
`GetSigningKey` RPC and by `tablehall signing-key`.
"""

from __future__ import annotations

import base64
import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from tablehall_platform.kept_files import kept_file

ALGORITHM = "ed25519"
KEY_FILE_NAME = "signing-key.pem"


def key_file(data_dir: Path) -> Path:
    given = os.environ.get("TABLEHALL_SIGNING_KEY_FILE")
    return Path(given) if given else data_dir / KEY_FILE_NAME


def public_pem(key: Ed25519PublicKey) -> str:
    return key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def key_id(key: Ed25519PublicKey) -> str:
    """A short fingerprint: the first 16 hex digits of sha256 of the raw public key."""
    raw = key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey

    @property
    def public(self) -> Ed25519PublicKey:
        return self.private.public_key()

    @property
    def key_id(self) -> str:
        return key_id(self.public)

    @property
    def public_pem(self) -> str:
        return public_pem(self.public)

    def sign(self, message: bytes) -> str:
        return base64.b64encode(self.private.sign(message)).decode()

    @classmethod
    def load(cls, path: Path) -> Signer:
        """The key at `path`, generated there first if the file does not exist."""
        pem = kept_file(
            path,
            lambda: Ed25519PrivateKey.generate().private_bytes(
                serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
            ),
        )
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} does not hold an Ed25519 private key")
        return cls(key)


def load_public(pem: str) -> Ed25519PublicKey:
    key = serialization.load_pem_public_key(pem.encode())
    if not isinstance(key, Ed25519PublicKey):
        raise ValueError("not an Ed25519 public key")
    return key


def signature_holds(public: Ed25519PublicKey, message: bytes, signature: str) -> bool:
    try:
        public.verify(base64.b64decode(signature.encode(), validate=True), message)
    except (InvalidSignature, ValueError):
        return False
    return True
