"""A config.yaml every check accepts, for the tests that start from a good one."""

from __future__ import annotations

GOOD = """\
game_id: andromeda-7
game: 4000ad
variant: independents-4
mode: sequential
options: {ships_at_start: 12}
gm: gm@example.org
from: "4000 AD referee <referee@example.org>"
powers:
  pavo: {email: ann@example.org, tz: Europe/Paris}
  antares: {email: bob@example.org, key: keys/antares.pub}
  regulus: cy@example.org
  algol: {email: di@example.org}
schedule:
  weekdays: [mon, thu]
  hour: 18:00
  tz: Europe/Paris
  early: true
  grace: 2h
  reminder: 24h
nmr_alert: 3
paused: no
"""
