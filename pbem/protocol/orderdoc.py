"""Signed order documents: sign, find, verify, and only then parse (docs/protocol.md).

The chain every consumer (ingest, audit, the player's checker) goes through::

    raw text --find_signed_blocks--> block (str)
             --verify_orders-------> VerifiedOrders   (signature checked, then exactly the
                                                       signed bytes parsed, envelope checked,
                                                       key registered for that game and power)
             --plugin.normalize_orders(body, view)--> the game's orders

``VerifiedOrders`` can only be made here, so holding one proves the checks ran. Which of several
verified submissions counts is decided by ``replaces`` (highest ``seq`` within a turn), the one seq
rule acceptance, replay and the audit share.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, Protocol, TypeVar

from pbem.errors import Problem, Rejected
from pbem.protocol.armor import (
    BEGIN,
    END,
    Armored,
    armor,
    dearmor,
    find_signed_blocks,
    marker_lines,
    normalize,
)
from pbem.protocol.envelope import STANDING_TURN, check_envelope, parse_envelope
from pbem.protocol.keys import BadSignature, PrivateKey, PublicKey
from pbem.protocol.safeyaml import load_order_yaml
from pbem.record import Record

DOMAIN = "pbem-orders-v1"
PAYLOAD_TYPE = "application/vnd.pbem.orders+yaml"

__all__ = [
    "DOMAIN",
    "PAYLOAD_TYPE",
    "KeysFor",
    "VerifiedOrders",
    "find_signed_blocks",
    "load_order_yaml",
    "ready_of",
    "sign_orders",
    "newest_by_power",
    "replaces",
    "verify_orders",
]

KeysFor = Callable[[str, str], Sequence[PublicKey]]
"""(game, power) -> the public keys registered for that power in that game."""

T = TypeVar("T")

_minting: ContextVar[bool] = ContextVar("_minting", default=False)


class VerifiedOrders(Record):
    """An order document whose signature verified and whose envelope is well-formed.

    ``body`` is the ``orders:`` mapping as loaded (not yet checked by the game);
    ``signed_text`` the exact normalised text that was signed and parsed; ``sha256`` its digest
    (hex), which names the submission; ``block`` the canonical armored form to store or re-verify.
    """

    __slots__ = ("game", "power", "turn", "seq", "body", "signed_text", "sha256",
                 "key_fingerprint", "signature", "ready", "instance", "entropy")
    game: str
    power: str
    turn: int
    seq: int
    body: dict[Any, Any]
    signed_text: str
    sha256: str
    key_fingerprint: str
    signature: bytes  # (not in the repr)
    ready: bool  # the envelope's ``ready`` (absent: true)
    instance: str  # the envelope's game instance (required)
    entropy: Any  # the envelope's fair-chance value or tip (absent: None)

    def __init__(self, game: str, power: str, turn: int, seq: int, body: dict[Any, Any],
                 signed_text: str, sha256: str, key_fingerprint: str, signature: bytes,
                 ready: bool = True, instance: str = "", entropy: Any = None) -> None:
        if not _minting.get():
            raise TypeError("VerifiedOrders is made only by pbem.protocol.orderdoc.verify_orders")
        object.__setattr__(self, "game", game)
        object.__setattr__(self, "power", power)
        object.__setattr__(self, "turn", turn)
        object.__setattr__(self, "seq", seq)
        object.__setattr__(self, "body", body)
        object.__setattr__(self, "signed_text", signed_text)
        object.__setattr__(self, "sha256", sha256)
        object.__setattr__(self, "key_fingerprint", key_fingerprint)
        object.__setattr__(self, "signature", signature)
        object.__setattr__(self, "ready", ready)
        object.__setattr__(self, "instance", instance)
        object.__setattr__(self, "entropy", entropy)

    def __repr__(self) -> str:  # (the signature left out, as the dataclass's field(repr=False))
        return "VerifiedOrders(" + ", ".join(f"{name}={getattr(self, name)!r}"
                                             for name in self.__slots__
                                             if name != "signature") + ")"

    @property
    def standing(self) -> bool:
        """Whether this is a standing file (``turn: standing``, pbem.protocol.envelope)."""
        return self.turn == STANDING_TURN

    @property
    def block(self) -> str:
        return armor(self.signed_text, self.key_fingerprint, self.signature)


class FingerprintLookup(Protocol):
    def by_fingerprint(self, fingerprint: str) -> PublicKey | None: ...


def sign_orders(yaml_text: str, key: PrivateKey, *, check: bool = True) -> str:
    """Normalise ``yaml_text``, sign it with ``key`` and return the armored block.

    With ``check`` (the default) the text must load as an order document with a well-formed
    envelope, so a player never sends what the referee would reject for its form.
    """
    return sign_document(yaml_text, key, DOMAIN, PAYLOAD_TYPE,
                         (lambda doc: parse_envelope(doc)) if check else None)


def sign_document(yaml_text: str, key: PrivateKey, domain: str, payload_type: str,
                  check: Callable[[Any], object] | None, begin: str = BEGIN,
                  end: str = END) -> str:
    """The one signer of pbem's signed documents (orders, press, votes): ``yaml_text``
    normalised, refused whole (Rejected) when it is empty or holds an armor line, given to
    ``check`` as loaded YAML (which raises Rejected for what the referee would refuse), signed
    in ``domain`` and armored between ``begin`` and ``end``."""
    body = normalize(yaml_text)
    problems = [
        Problem("marker", "", f"line {n} looks like a PBEM armor line; remove it")
        for n in marker_lines(body)
    ]
    if not body:
        problems.append(Problem("empty", "", "there is nothing to sign"))
    if problems:
        raise Rejected(problems)
    if check is not None:
        check(load_order_yaml(body))
    signature = key.sign(domain, payload_type, body.encode("utf-8"))
    return armor(body, key.public.fingerprint, signature, begin, end)


def find_key(
    armored: Armored,
    keys_for: KeysFor,
    fingerprints: Mapping[str, PublicKey] | FingerprintLookup | None,
    game: str | None,
    power: str | None,
) -> PublicKey:
    """The registered key the block names by fingerprint (in ``fingerprints`` if given, else by
    ``keys_for.by_fingerprint``, else among ``keys_for(game, power)``); Rejected if none."""
    lookup = fingerprints if fingerprints is not None else keys_for
    key: PublicKey | None = None
    if isinstance(lookup, Mapping):
        key = lookup.get(armored.key)
    elif hasattr(lookup, "by_fingerprint"):
        key = lookup.by_fingerprint(armored.key)
    elif game is not None and power is not None:
        key = next((k for k in keys_for(game, power) if k.fingerprint == armored.key), None)
    else:
        raise TypeError("verify_orders needs a fingerprint lookup or the expected game and power")
    if key is None or key.fingerprint != armored.key:
        raise Rejected([Problem("unknown-signer", "signature.key", f"no registered key has "
                                f"fingerprint {armored.key}; send your .pub to the referee")])
    return key


def check_signature(key: PublicKey, armored: Armored, domain: str, payload_type: str,
                    what: str, hint: str = "") -> None:
    """Raise Rejected unless ``key`` signed the block's normalised body under ``domain`` (the
    signature is checked before anything of the body is parsed)."""
    try:
        key.verify(domain, payload_type, armored.body.encode("utf-8"), armored.signature)
    except BadSignature:
        raise Rejected([Problem("bad-signature", "signature.sig", f"the signature does not "
                                f"match the {what} (key {key.fingerprint}): the text was changed "
                                f"after signing, or signed with another key{hint}")]) from None


def registration_problems(doc: Mapping[Any, Any], key: PublicKey,
                          keys_for: KeysFor) -> list[Problem]:
    """The signing key must be registered for the game and power the document names."""
    claimed_game, claimed_power = doc.get("game"), doc.get("power")
    if (isinstance(claimed_game, str) and isinstance(claimed_power, str)
            and key not in keys_for(claimed_game, claimed_power)):
        return [Problem("not-registered", "power", f"key {key.fingerprint} is not registered "
                        f"for {claimed_power} in game {claimed_game}")]
    return []


def open_document(block: str, keys_for: KeysFor,
                  fingerprints: Mapping[str, PublicKey] | FingerprintLookup,
                  begin: str, end: str, domain: str, payload_type: str, what: str, hint: str,
                  check: Callable[[Any], tuple[T | None, list[Problem]]],
                  ) -> tuple[T, Armored, PublicKey]:
    """The one verifier of pbem's signed press and vote blocks: dearmored, its signature by a
    registered key checked over the normalised body before anything is parsed, that body
    loaded and ``check``-ed, the key held to the game and power it names; Rejected with every
    problem otherwise. Returns (what ``check`` made of it, the armored block, the key)."""
    armored = dearmor(block, begin, end)
    key = find_key(armored, keys_for, fingerprints, None, None)
    check_signature(key, armored, domain, payload_type, what, hint)
    doc = load_order_yaml(armored.body)
    checked, problems = check(doc)
    problems += registration_problems(doc, key, keys_for)
    if checked is None or problems:
        raise Rejected(problems)
    return checked, armored, key


def refusing(check: Callable[[Any], tuple[object, list[Problem]]]) -> Callable[[Any], None]:
    """``check`` as :func:`sign_document` takes it: raising Rejected with what it found."""
    def checked(doc: Any) -> None:
        _, found = check(doc)
        if found:
            raise Rejected(found)
    return checked


class SignedRejected(Rejected):
    """A block whose signature verified with a key registered for the game and power it names,
    refused for its envelope (no ``instance``, the wrong turn, ...): the power's own file, so
    its problems may be told to the power as they are (a stranger's are told by code only)."""

    def __init__(self, problems: list[Problem], game: str, power: str, sha256: str) -> None:
        super().__init__(problems)
        self.game, self.power, self.sha256 = game, power, sha256


def verify_orders(
    block: str,
    keys_for: KeysFor,
    *,
    fingerprints: Mapping[str, PublicKey] | FingerprintLookup | None = None,
    game: str | None = None,
    power: str | None = None,
    turn: int | None = None,
) -> VerifiedOrders:
    """Verify one armored block (as found by ``find_signed_blocks``); raise Rejected otherwise.

    The key is found by the block's fingerprint: in ``fingerprints`` if given, else by
    ``keys_for.by_fingerprint`` (a :class:`Keyring`), else among ``keys_for(game, power)``.
    The signature is checked over the normalised body first; only those bytes are parsed. The
    envelope must be well-formed and match ``game``/``power``/``turn`` when given, and the key
    must be one of ``keys_for(envelope game, envelope power)``.
    """
    armored = dearmor(block)
    key = find_key(armored, keys_for, fingerprints, game, power)
    check_signature(key, armored, DOMAIN, PAYLOAD_TYPE, "orders")
    doc = load_order_yaml(armored.body)
    envelope, problems = check_envelope(doc, game=game, power=power, turn=turn)
    problems += registration_problems(doc, key, keys_for)
    if envelope is None or problems:
        game_, power_ = doc.get("game"), doc.get("power")
        if (isinstance(game_, str) and isinstance(power_, str)
                and key in keys_for(game_, power_)):
            raise SignedRejected(problems, game_, power_,
                                 hashlib.sha256(armored.body.encode("utf-8")).hexdigest())
        raise Rejected(problems)
    token = _minting.set(True)
    try:
        return VerifiedOrders(
            game=envelope.game,
            power=envelope.power,
            turn=envelope.turn,
            seq=envelope.seq,
            body=envelope.orders,
            signed_text=armored.body,
            sha256=hashlib.sha256(armored.body.encode("utf-8")).hexdigest(),
            key_fingerprint=key.fingerprint,
            signature=armored.signature,
            ready=envelope.ready,
            instance=envelope.instance,
            entropy=envelope.entropy,
        )
    finally:
        _minting.reset(token)


def ready_of(block: str) -> bool:
    """The ``ready`` flag of an order block verified before (a logged submission's ``text``):
    read again from the signed text, so the log entry needs no field of its own. A body that
    holds neither the word nor a backslash (no escape can spell it) has no ``ready`` key: it
    is not parsed again (every visit asks this of every power's standing orders)."""
    body = dearmor(block).body
    if "ready" not in body and "\\" not in body:
        return True
    value = load_order_yaml(body).get("ready", True)
    return value is not False


def replaces(seq: int, standing_seq: int | None) -> bool:
    """The one seq rule: a submission replaces the accepted one of its power and turn only with
    a higher ``seq`` (an equal or lower one is a replay and is refused). Acceptance
    (pbem.host.accept), replay (pbem.store.replay) and the audit all ask this function."""
    return standing_seq is None or seq > standing_seq


def newest_by_power(items: Iterable[T], power: Callable[[T], str],
                    seq: Callable[[T], int]) -> dict[str, T]:
    """The item that stands for each power among ``items`` (in log order) by :func:`replaces`:
    the highest seq; of equal seqs the first, since a later equal one would have been refused."""
    best: dict[str, T] = {}
    for item in items:
        current = best.get(power(item))
        if replaces(seq(item), None if current is None else seq(current)):
            best[power(item)] = item
    return best
