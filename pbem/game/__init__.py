"""What a game is: the plugin contract (docs/plugins.md). The shapes at its boundary with pbem
(pbem.game.shapes) are re-exported here, so a game imports them from ``pbem.game``, and so is
``Record`` (pbem.record), the frozen value record a game may use instead of a dataclass."""

from pbem.game.shapes import (
    ChanceAsk,
    ChanceFacts,
    Context,
    EventData,
    EventIn,
    EventKeys,
    GameEndContext,
    GameHeader,
    GameResult,
    GameState,
    GameView,
    GmNotice,
    GmSummaryContext,
    Information,
    Keepsake,
    MailCommon,
    MailFacts,
    Manifest,
    MissedTurn,
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
    ViewExtra,
    ViewFacts,
    ViewIn,
    WelcomeContext,
    When,
)
from pbem.record import Record

__all__ = ["ChanceAsk", "ChanceFacts", "Context", "EventData", "EventIn", "EventKeys",
           "GameEndContext", "GameHeader", "GameResult", "GameState", "GameView", "GmNotice",
           "GmSummaryContext", "Information", "Keepsake", "MailCommon", "MailFacts", "Manifest",
           "MissedTurn", "OrderBody", "OrdersIn", "PlayerHeader", "PlayerInfo", "PowerFacts",
           "Record", "ReportContext", "ReportFacts", "StandingUse", "StateIn", "StepFacts",
           "ViewExtra", "ViewFacts", "ViewIn", "WelcomeContext", "When"]
