"""What a game is: the plugin contract (docs/plugins.md). The shapes at its boundary with pbem
(pbem.game.shapes) are re-exported here, so a game imports them from ``pbem.game``."""

from pbem.game.shapes import (
    Context,
    EventData,
    EventIn,
    EventKeys,
    GameHeader,
    GameResult,
    GameState,
    GameView,
    Keepsake,
    MailFacts,
    OrderBody,
    OrdersIn,
    PlayerHeader,
    PlayerInfo,
    StandingUse,
    StateIn,
    StepFacts,
    ViewFacts,
    ViewIn,
    When,
)

__all__ = ["Context", "EventData", "EventIn", "EventKeys", "GameHeader", "GameResult",
           "GameState", "GameView", "Keepsake", "MailFacts", "OrderBody", "OrdersIn",
           "PlayerHeader", "PlayerInfo", "StandingUse", "StateIn", "StepFacts", "ViewFacts",
           "ViewIn", "When"]
