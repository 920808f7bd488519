"""The audit of players' votes (pbem.host.votes): every ``vote`` (and ``prefs``) entry holds a
file its power really signed, and every operation a vote made (a ``gm`` entry with ``votes``)
had the signed votes it needed.

The walk hands each gm entry to :class:`VoteBook` in log order, with the keys registered at that
point. A vote-made act must list, by log seq, standing votes of its kind (each power's latest
vote file of that kind since the last act of that kind, not withdrawn), one per power, from
powers still in the game, as many as its recorded rule needs: every such power
(``unanimous``), more than half (``majority``); ``concede``: the conceding power's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.errors import Rejected
from pbem.protocol.keys import PublicKey
from pbem.protocol.votedoc import verify_vote

if TYPE_CHECKING:
    from pbem.store.records import LogBody

#: The operation each vote kind makes (as pbem.host.votes.ACTS).
ACTS = {"draw": "end", "cancel": "cancel", "pause": "pause", "resume": "resume",
        "concede": "concede"}
RULES = ("unanimous", "majority")
Problem = tuple[str, str, str]  # (field, expected, found) for the audit's failure line


class VoteBook:
    """The votes seen so far in the walk, and the powers that conceded."""

    def __init__(self, game_id: str, powers: list[str]) -> None:
        self.game_id = game_id
        self.powers = powers
        self.conceded: set[str] = set()
        self.votes: dict[int, dict[str, Any]] = {}  # log seq -> vote entry body
        self.spent: dict[str, int] = {}  # kind -> log seq of its last act

    def visit(self, seq: int, body: object, keys: Mapping[str, PublicKey]) -> Problem | None:
        """Check one gm entry (log seq ``seq``); None if sound."""
        if not isinstance(body, dict):
            return None
        op = body.get("op")
        if op in ("vote", "prefs"):  # a player's signed file: a vote, or his own settings
            return self._vote(seq, body, keys)
        problem = self._act(body) if "votes" in body else None
        if problem is None and "votes" in body:
            self.spent[str(body["vote"])] = seq
        if op == "concede":
            self.conceded.add(str(body.get("power")))
        return problem

    def _vote(self, seq: int, body: LogBody,
              keys: Mapping[str, PublicKey]) -> Problem | None:
        power = body.get("power")
        if power not in keys:
            return "power", f"one of {', '.join(keys)}", str(power)
        by_fp = {k.fingerprint: k for k in keys.values()}

        def keys_for(game: str, p: str) -> tuple[PublicKey, ...]:
            return (keys[p],) if game == self.game_id and p in keys else ()

        try:
            v = verify_vote(str(body.get("text")), keys_for, fingerprints=by_fp)
        except Rejected as exc:
            return "text", f"a vote file signed by {power}", "; ".join(map(str, exc.problems))
        what = ({"kind": v.vote, "withdraw": v.withdraw} if v.vote is not None
                else {"prefs": dict(v.prefs or {})})
        if body["op"] != ("vote" if v.vote is not None else "prefs"):
            return "op", "the kind of file signed", str(body["op"])
        signed = {"power": v.power, "seq": v.seq, "sha256": v.sha256, **what}
        for name, value in signed.items():
            if body.get(name) != value:
                return name, f"{value} (as the signed file says)", f"{body.get(name)} recorded"
        if v.vote is not None:
            self.votes[seq] = body
        return None

    def _act(self, body: LogBody) -> Problem | None:
        kind, rule, seqs = body.get("vote"), body.get("rule", "unanimous"), body.get("votes")
        if kind not in ACTS or ACTS[kind] != body.get("op"):
            return "vote", f"the vote kind of a {body.get('op')} operation", str(kind)
        if rule not in RULES or (kind == "concede" and rule != "unanimous"):
            return "rule", " or ".join(RULES), str(rule)
        if not isinstance(seqs, list) or not seqs:
            return "votes", "the log seqs of the votes that made it", str(seqs)
        voters = ([str(body.get("power"))] if kind == "concede"
                  else [p for p in self.powers if p not in self.conceded])
        after = self.spent.get(str(kind), 0)
        standing: dict[str, int] = {}
        for seq, earlier in self.votes.items():
            if seq > after and earlier["kind"] == kind:
                standing[str(earlier["power"])] = seq
        yes = {p: s for p, s in standing.items() if not self.votes[s]["withdraw"]}
        for seq in seqs:
            vote = self.votes.get(seq)
            if vote is None or vote["kind"] != kind:
                return "votes", f"signed {kind} votes", f"log entry {seq} is none"
            if yes.get(str(vote["power"])) != seq or vote["power"] not in voters:
                return "votes", f"standing {kind} votes of powers in the game", \
                    f"log entry {seq} ({vote['power']}) is withdrawn, replaced or spent"
        count = len({str(self.votes[s]["power"]) for s in seqs})
        need = len(voters) if rule == "unanimous" else len(voters) // 2 + 1
        if count != len(seqs) or count < need:
            return "votes", f"{need} {kind} votes of distinct powers ({rule})", \
                f"{count} from {len(seqs)} entries"
        return None
