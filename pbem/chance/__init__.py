"""Fair chance: dice and shuffles that nobody, the referee included, can choose, and that every
player can re-check (docs/protocol.md, "Fair chance").

Modules, each holding one idea:

* ``errors``     ``ChanceError`` (bad input) and ``ChanceMismatch`` (a value that does not verify)
* ``chain``      hash chains ``x_j = H^j(start)`` with checkpoints, and the one chain check
* ``stream``     labelled streams: below(n) by rejection, dice, Fisher–Yates, the draw record
* ``referee``    K from the referee key, the referee's chain, its genesis commitments
* ``player``     a player's chain from the seed kept in the vault
* ``step``       a step's seeds (S_pub, S_sec) and ``StepChance``, the object ``resolve`` receives
* ``published``  the JSON block a report carries, and recomputing its draws (``pbem dice verify``)

This package sits beside ``pbem.protocol`` and imports only the base modules: it is pure (no
clock, no I/O, no global randomness except where a fresh secret is asked for by name).
"""
