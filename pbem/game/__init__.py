"""What a game is: the plugin contract (docs/plugins.md). The shapes at its boundary with pbem
(pbem.game.shapes) are re-exported here, so a game imports them from ``pbem.game``."""

from pbem.game.shapes import (
    Context,
    EventData,
    EventIn,
    EventKeys,
    GameEndContext,
    GameHeader,
    GameResult,
    GameState,
    GameView,
    GmSummaryContext,
    Information,
    Keepsake,
    MailCommon,
    MailFacts,
    OrderBody,
    OrdersIn,
    PlayerHeader,
    PlayerInfo,
    PowerFacts,
    ReportContext,
    ReportFacts,
    StandingUse,
    StateIn,
    StepFacts,
    ViewFacts,
    ViewIn,
    WelcomeContext,
    When,
)

__all__ = ["Context", "EventData", "EventIn", "EventKeys", "GameEndContext", "GameHeader",
           "GameResult", "GameState", "GameView", "GmSummaryContext", "Information", "Keepsake",
           "MailCommon", "MailFacts", "OrderBody", "OrdersIn", "PlayerHeader", "PlayerInfo",
           "PowerFacts", "ReportContext", "ReportFacts", "StandingUse", "StateIn", "StepFacts",
           "ViewFacts", "ViewIn", "WelcomeContext", "When"]
