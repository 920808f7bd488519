"""Labelled streams: uniform (a chi-square test over fixed seeds that a modulo-biased sampler and
a naive shuffle fail), exact at the edges of rejection sampling, independent per label, and
identical on replay."""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from pbem import canonical
from pbem.chance.errors import ChanceError
from pbem.chance.step import StepChance
from pbem.chance.stream import Stream
from pbem.framing import field

# Fixed seeds: the statistics below are computed on the same bytes every run, so the test is
# deterministic (it cannot flake); a fair implementation passes at p = 0.001 and the biased
# ones fail by a wide margin.
SEEDS = [hashlib.sha256(b"pbem-chance-statistics-%d" % i).digest() for i in range(1000)]
D6_CRITICAL = 20.515      # chi-square, 5 degrees of freedom, p = 0.001
PERM4_CRITICAL = 49.728   # chi-square, 23 degrees of freedom, p = 0.001
ROLLS_PER_SEED = 300
SHUFFLES_PER_SEED = 24


def chi_square(counts: Counter[object], outcomes: list[object]) -> float:
    total = sum(counts.values())
    expected = total / len(outcomes)
    assert set(counts) <= set(outcomes)
    return sum((counts[o] - expected) ** 2 / expected for o in outcomes)


def stream_bytes(seed: bytes, label: str) -> Iterator[int]:
    """The documented byte stream re-implemented: block_i = H(seed, field(label), u64be(i))."""
    for i in itertools.count():
        yield from hashlib.sha256(seed + field(label.encode()) + i.to_bytes(8, "big")).digest()


def reference_below(source: Iterator[int], n: int) -> tuple[int, int]:
    """below(n) as docs/protocol.md states it; returns (value, how many tries were rejected)."""
    if n == 1:
        return 0, 0
    k = (n - 1).bit_length()
    rejected = 0
    while True:
        raw = int.from_bytes(bytes(next(source) for _ in range((k + 7) // 8)), "big")
        value = raw & ((1 << k) - 1)
        if value < n:
            return value, rejected
        rejected += 1


def d6_counts(sampler: Callable[[bytes], list[int]]) -> Counter[object]:
    counts: Counter[object] = Counter()
    for seed in SEEDS:
        counts.update(sampler(seed))
    return counts


def test_d6_rolls_are_uniform_and_a_modulo_biased_sampler_is_caught():
    faces = [1, 2, 3, 4, 5, 6]
    fair = d6_counts(lambda seed: Stream(seed, "stat:d6").roll(faces, ROLLS_PER_SEED))
    assert sum(fair.values()) == len(SEEDS) * ROLLS_PER_SEED
    assert chi_square(fair, list(faces)) < D6_CRITICAL

    def modulo_biased(seed: bytes) -> list[int]:
        """One byte mod 6 on the same bytes: faces 1-4 get 43/256, faces 5-6 get 42/256."""
        source = stream_bytes(seed, "stat:d6")
        return [faces[next(source) % 6] for _ in range(ROLLS_PER_SEED)]

    biased = d6_counts(modulo_biased)
    assert chi_square(biased, list(faces)) > D6_CRITICAL


def test_shuffles_of_four_are_uniform_and_a_naive_shuffle_is_caught():
    perms: list[object] = list(itertools.permutations("abcd"))
    fair: Counter[object] = Counter()
    naive: Counter[object] = Counter()
    for seed in SEEDS:
        s = Stream(seed, "stat:shuffle4")
        fair.update(tuple(s.shuffle("abcd")) for _ in range(SHUFFLES_PER_SEED))
        t = Stream(seed, "stat:naive4")
        for _ in range(SHUFFLES_PER_SEED):
            items = list("abcd")
            for i in range(4):  # the classic mistake: swap with any position, not one below i+1
                j = t.below(4)
                items[i], items[j] = items[j], items[i]
            naive[tuple(items)] += 1
    assert chi_square(fair, perms) < PERM4_CRITICAL
    assert chi_square(naive, perms) > PERM4_CRITICAL


@pytest.mark.parametrize("n", [1, 2, 3, 5, 6, 7, 52, 255, 256, 257, 2**16, 2**32 - 1, 2**63,
                               2**64 - 1, 2**64, 2**64 + 1, 10**30])
def test_below_matches_the_documented_construction(n):
    seed = hashlib.sha256(b"edges").digest()
    s = Stream(seed, f"edge:{n}")
    source = stream_bytes(seed, f"edge:{n}")
    for _ in range(40):
        value = s.below(n)
        assert value == reference_below(source, n)[0]
        assert 0 <= value < n


def test_below_one_reads_nothing():
    seed = hashlib.sha256(b"one").digest()
    s = Stream(seed, "x")
    assert [s.below(1) for _ in range(5)] == [0] * 5
    assert s.blocks_used == 0
    assert s.below(6) == Stream(seed, "x").below(6)


@pytest.mark.parametrize("k", [1, 3, 8, 16, 64])
def test_a_power_of_two_is_never_rejected(k):
    """below(2^k) takes the low k bits of each ceil(k/8)-byte chunk, in order, with no retry."""
    seed = hashlib.sha256(b"pow2").digest()
    s, source = Stream(seed, "p"), stream_bytes(seed, "p")
    for _ in range(50):
        value, rejected = reference_below(source, 2**k)
        assert rejected == 0 and s.below(2**k) == value


def test_rejected_tries_are_skipped():
    """below(3) keeps the low 2 bits and rejects 3: find seeds where that happens and check the
    draw took the next try."""
    rejections = 0
    for seed in SEEDS[:50]:
        source = stream_bytes(seed, "r")
        s = Stream(seed, "r")
        for _ in range(10):
            value, rejected = reference_below(source, 3)
            rejections += rejected
            assert s.below(3) == value
    assert rejections > 50  # a quarter of the tries are rejected


@pytest.mark.parametrize("bad", [0, -1, 1.5, True, "6", None])
def test_a_bad_bound_is_a_clear_error(bad):
    with pytest.raises(ChanceError, match="below\\(n\\) needs a whole number"):
        Stream(bytes(32), "x").below(bad)


def test_bad_dice_and_labels_are_clear_errors():
    s = Stream(bytes(32), "x")
    with pytest.raises(ChanceError, match="non-empty list of whole-number faces"):
        s.roll([])
    with pytest.raises(ChanceError, match="whole-number faces"):
        s.roll([1, "2"])  # type: ignore[list-item]
    with pytest.raises(ChanceError, match="number of rolls"):
        s.roll([1, 2], -1)
    with pytest.raises(ChanceError, match="label must be a non-empty string"):
        Stream(bytes(32), "")


def test_custom_faces_and_trivial_shuffles():
    s = Stream(hashlib.sha256(b"faces").digest(), "custom")
    rolls = s.roll([0, 0, 1, 1, 2, 3], 600)
    assert set(rolls) == {0, 1, 2, 3}
    assert rolls.count(0) > rolls.count(3)  # two faces show 0, one shows 3
    before = s.blocks_used
    assert s.shuffle([]) == [] and s.shuffle(["only"]) == ["only"]
    assert s.blocks_used == before


def inputs(step: int = 4) -> tuple[str, int, bytes, dict[str, bytes | None], bytes]:
    return ("andromeda-7", step, hashlib.sha256(b"r").digest(),
            {"algol": hashlib.sha256(b"a").digest(), "regulus": None},
            hashlib.sha256(b"k").digest())


def test_labels_are_independent():
    alone = StepChance(*inputs())
    b_alone = alone.public("B").roll([1, 2, 3, 4, 5, 6], 20)
    mixed = StepChance(*inputs())
    mixed.public("A").roll([1, 2, 3, 4, 5, 6], 17)
    mixed.secret("B").shuffle(range(30))
    b_mixed = mixed.public("B").roll([1, 2, 3, 4, 5, 6], 20)
    mixed.public("A").below(1000)
    assert b_mixed == b_alone
    assert [d.label for d in mixed.draws] == ["A", "B", "B", "A"]
    # The same label in the two scopes is two unrelated streams.
    other = StepChance(*inputs())
    assert other.secret("B").roll([1, 2, 3, 4, 5, 6], 20) != b_alone


def test_asking_again_for_a_label_continues_its_stream():
    chance = StepChance(*inputs())
    first = chance.public("x").below(10**6)
    second = chance.public("x").below(10**6)
    s = Stream(chance.public_seed, "x")
    assert [first, second] == [s.below(10**6), s.below(10**6)]


def script(chance: StepChance) -> None:
    chance.public("battle:Vega:attacker").roll([1, 2, 3, 4, 5, 6], 12)
    chance.secret("deal:deck").shuffle([f"card-{i}" for i in range(52)])
    chance.public("first-player").below(4)
    chance.public("battle:Vega:attacker").roll([1, 2, 3, 4, 5, 6], 3)


def test_replay_gives_byte_identical_draws():
    runs = []
    for _ in range(2):
        chance = StepChance(*inputs())
        script(chance)
        runs.append(canonical.encode([chance.draws.to_json("public"),
                                      chance.draws.to_json("secret")]))
    assert runs[0] == runs[1]
    later = StepChance(*inputs(step=5))
    script(later)
    assert canonical.encode([later.draws.to_json("public"),
                             later.draws.to_json("secret")]) != runs[0]


def test_the_shuffle_record_holds_the_permutation_not_the_cards():
    chance = StepChance(*inputs())
    deck = [f"secret-card-{i}" for i in range(10)]
    dealt = chance.secret("deal").shuffle(deck)
    (draw,) = chance.draws.of("secret")
    assert [deck[i] for i in draw.result] == dealt
    assert "secret-card" not in canonical.dumps(chance.draws.to_json("secret"))
    assert chance.published()["draws"] == []  # secret draws are never in the public block


@pytest.mark.parametrize("sides", [1, 2, 6, 7, 20, 200, 256, 257, 1000])
def test_many_rolls_and_mixed_draws_match_the_documented_construction(sides):
    """Dice take a fast path over whole blocks; across block boundaries and mixed with wide
    draws it must give exactly the byte-by-byte construction."""
    seed = hashlib.sha256(b"mixed").digest()
    faces = list(range(100, 100 + sides))
    s, source = Stream(seed, "m"), stream_bytes(seed, "m")
    for count in (1, 31, 500, 0, 3):
        assert s.roll(faces, count) == [faces[reference_below(source, sides)[0]]
                                        for _ in range(count)]
        assert s.below(2**64 + 1) == reference_below(source, 2**64 + 1)[0]
        assert s.below(5) == reference_below(source, 5)[0]
