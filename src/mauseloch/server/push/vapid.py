"""The server's VAPID key pair (RFC 8292): the key a push service checks each push's signature
against. Made on the first start and kept in the database, so every process and every restart
signs with the same key (a browser's subscription is bound to it); a key given by flag or
environment (``serve --vapid-key``, ``MAUSELOCH_VAPID_KEY``: a PEM file or the key itself) wins.
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

from mauseloch.extras import needs
from mauseloch.server.push.store import PushStore

with needs("web", __name__):
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
    from py_vapid import Vapid02 as Vapid

ENV = "MAUSELOCH_VAPID_KEY"


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def load(given: str) -> Vapid:
    """A key given as a PEM file's path, a PEM text, or the base64url private key."""
    path = Path(given)
    if len(given) < 4096 and path.is_file():
        return Vapid.from_file(str(path))
    return Vapid.from_string(given)


def server_key(push: PushStore, given: str | None = None) -> Vapid:
    """``given`` (or the environment's key); else the stored one, made and stored first if
    there is none."""
    given = given or os.environ.get(ENV) or None
    if given:
        return load(given)
    made = Vapid()
    made.generate_keys()
    pem = push.key_pem(made.private_pem().decode())
    return Vapid.from_pem(pem.encode())


def public_key(vapid: Vapid) -> str:
    """The public key as the page's ``applicationServerKey`` takes it (an uncompressed P-256
    point, base64url)."""
    return b64url(vapid.public_key.public_bytes(Encoding.X962, PublicFormat.UncompressedPoint))
