"""What a power's order file contributes to a step's fair chance (docs/protocol.md, "Fair
chance"), as a StrEnum whose members are the wire words: an envelope's ``entropy`` is a ``tip``
(``{tip: 64 hex}``, the set-up commitment) or a ``value`` (64 hex, the chain's value for the
step), and view.json's ``chance.contribute`` says which one the coming step needs, or ``offer``
(a listened power may send his value)."""

from __future__ import annotations

from enum import StrEnum


class Contribution(StrEnum):
    """A file's contribution to a step's chance."""

    TIP = "tip"
    VALUE = "value"
    OFFER = "offer"
