//! The JSON the API answers with: GameState and the description of each
//! game (see `docs/API.md`).

use super::clock::ClockView;
use super::names::{self, Opponent};
use super::seats::Mode;
use koma_records::notation::MoveNotations;
use koma_records::Headers;
use koma_rules::{
    Handicap, Minishogi, PawnsPosition, Position, PromotionRule, Shogi, ShogiPosition,
    ShogiVariant, Spear, Variant,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A standard shogi handicap, by each of its names.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct HandicapJson {
    /// As the API reads it: `two-piece`.
    pub name: &'static str,
    /// In English: `Two pieces`.
    pub title: &'static str,
    /// In Japanese, as KIF writes it: `二枚落ち`.
    pub japanese: &'static str,
}

impl From<Handicap> for HandicapJson {
    fn from(handicap: Handicap) -> HandicapJson {
        HandicapJson {
            name: handicap.name(),
            title: handicap.title(),
            japanese: handicap.japanese(),
        }
    }
}

/// A shogi game's impasse rule, and what a declaration by the side to
/// move would give now.
#[derive(Clone, Debug, Serialize)]
pub struct ImpasseJson {
    /// The rule's points: 27 (CSA) or 24 (JSA amateur rule).
    pub rule: u32,
    /// `"win"` or `"draw"` when the side to move may declare now (the
    /// Declare button), `None` when it may not.
    pub declaration: Option<&'static str>,
    /// Why it may not, as a sentence; `None` when it may, and once the
    /// game is over.
    pub shortfall: Option<String>,
}

/// A game as the page sees it.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GameState {
    /// The game's id.
    pub id: String,
    /// Which game.
    pub variant: &'static str,
    /// Counts the changes to the game.
    pub version: u64,
    /// Moves played.
    pub ply: usize,
    /// Start position (SFEN or FEN).
    pub start: String,
    /// The shogi handicap the game starts from, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub handicap: Option<HandicapJson>,
    /// The impasse rule and the declaration now: shogi only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub impasse: Option<ImpasseJson>,
    /// Current position (SFEN or FEN).
    pub position: String,
    /// Side to move.
    pub turn: &'static str,
    /// Whether the side to move is in check.
    pub check: bool,
    /// Pieces in hand by side and SFEN letter; `None` for pawns.
    pub hands: Option<BTreeMap<&'static str, BTreeMap<String, u8>>>,
    /// Every legal move, USI/UCI text.
    pub legal_moves: Vec<String>,
    /// The moves played.
    pub moves: Vec<MoveJson>,
    /// The last move's text.
    pub last_move: Option<String>,
    /// How the game ended.
    pub outcome: Option<OutcomeJson>,
    /// Names and other facts about the game.
    pub headers: HeadersView,
    /// Who plays the other side.
    pub opponent: Opponent,
    /// `"local"` or `"shared"`.
    pub mode: Mode,
    /// Whether changes need a seat token: `false` only for a game kept
    /// before seats existed, which anyone may change.
    pub guarded: bool,
    /// In a shared game, the side that asked to take a move back.
    pub takeback: Option<&'static str>,
    /// The clocks of a timed game, as at the moment of this state.
    pub clock: Option<ClockView>,
    /// A finished game's rematch: the offer waiting, the last one
    /// dropped, the new game once made. Left out before anyone asks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch: Option<crate::games::rematch_record::Rematch>,
    /// The seat tokens by side: only in the answer that creates the game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seats: Option<BTreeMap<&'static str, String>>,
    /// The imported record's comments before the first move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// The engine's review of the moves, once one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewJson>,
    /// The computer's move waiting for one of the server's engines (all
    /// busy with other games' moves), as at the moment of this state.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer_waiting: Option<ComputerWaitingJson>,
}

/// The computer's move in the queue for an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ComputerWaitingJson {
    /// When it began to wait, in milliseconds since the Unix epoch.
    pub since: i64,
    /// Other games' computer moves before it in the queue.
    pub ahead: usize,
    /// The engines the computer opponents share (`--computer-engines`).
    pub engines: usize,
}

/// One played move.
#[derive(Clone, Debug, Serialize)]
pub struct MoveJson {
    /// USI/UCI text.
    pub usi: String,
    /// For people: `☗７六歩(77)`, `1. e4`.
    pub notation: String,
    /// Who played it.
    pub color: &'static str,
    /// The position after it.
    pub position: String,
    /// Whether the position after it is check.
    pub check: bool,
    /// Spear only: the move as its seed writes it, `K 11 12`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<String>,
    /// The shogi games only: the move in every notation a player may
    /// choose, for the page to show the one chosen.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notations: Option<MoveNotationsJson>,
    /// The imported record's comments after it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    /// The time its player spent on it, in milliseconds, as the imported
    /// record gives it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub milliseconds: Option<u64>,
}

/// A move of a shogi game in each notation (`koma_records::notation::MoveNotations`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MoveNotationsJson {
    /// As KI2 writes it: `▲７六歩`, `△同　銀`, `▲５八金右`.
    pub japanese: String,
    /// As KIF writes it, with the origin square: `▲７六歩(77)`.
    pub japanese_origin: String,
    /// Western (Hodges): `P-7f`, `Sx5c+`, `B*5e`; not in Spear.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub western: Option<String>,
    /// USI: `7g7f`.
    pub usi: String,
    /// Kitao–Kawasaki as lishogi writes it: `歩-76`; not in Spear.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kitao_kawasaki: Option<String>,
}

impl From<MoveNotations> for MoveNotationsJson {
    fn from(notations: MoveNotations) -> MoveNotationsJson {
        MoveNotationsJson {
            japanese: notations.japanese,
            japanese_origin: notations.japanese_origin,
            western: notations.western,
            usi: notations.usi,
            kitao_kawasaki: notations.kitao_kawasaki,
        }
    }
}

/// An evaluation as the page reads it, from the first player's view, with
/// its expected score so that the page need not know each game's scale.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct EvaluationJson {
    /// Centipawns, when the evaluation is not a mate.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cp: Option<i32>,
    /// Plies to mate, positive when the first player mates (0: the game
    /// is over).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate: Option<i32>,
    /// The first player's expected score, 0 to 1 (win 1, draw ½).
    pub expected: f64,
}

/// One position of the review.
#[derive(Clone, Debug, Serialize)]
pub struct PositionReviewJson {
    /// Moves played before it (0: the start).
    pub ply: usize,
    /// The engine's evaluation.
    pub evaluation: EvaluationJson,
    /// The engine's move there, `None` where the game is over.
    pub best: Option<MoveJson>,
    /// The depth searched.
    pub depth: u32,
}

/// One move of the review.
#[derive(Clone, Debug, Serialize)]
pub struct MoveReviewJson {
    /// Its number: 1 for the first move.
    pub ply: usize,
    /// The expected score its player gave up, 0 to 1.
    pub loss: f64,
    /// `"inaccuracy"`, `"mistake"` or `"blunder"`; `None` for a good move.
    pub label: Option<&'static str>,
    /// Its accuracy, 0 to 100.
    pub accuracy: f64,
    /// The engine's move in its place, when this one lost something.
    pub better: Option<MoveJson>,
}

/// One side's figures.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SideReviewJson {
    /// Moves played.
    pub moves: usize,
    /// Moves labelled inaccuracy.
    pub inaccuracies: usize,
    /// Moves labelled mistake.
    pub mistakes: usize,
    /// Moves labelled blunder.
    pub blunders: usize,
    /// Mean accuracy, 0 to 100.
    pub accuracy: f64,
    /// Mean expected score lost per move, 0 to 1.
    pub average_loss: f64,
}

/// A game's review as the page and the API give it.
#[derive(Clone, Debug, Serialize)]
pub struct ReviewJson {
    /// The engine that reviewed it: `"koma"` or a registered one's name.
    pub engine: String,
    /// The engine's budget per position, in nodes.
    pub nodes: u64,
    /// Every position, the start's first: the graph's points.
    pub positions: Vec<PositionReviewJson>,
    /// Every move reviewed.
    pub moves: Vec<MoveReviewJson>,
    /// Each side's figures, by side name.
    pub sides: BTreeMap<&'static str, SideReviewJson>,
}

/// The end of a game.
#[derive(Clone, Debug, Serialize)]
pub struct OutcomeJson {
    /// The winner's side, `None` for a draw.
    pub winner: Option<&'static str>,
    /// Machine word for why.
    pub reason: &'static str,
    /// A sentence for people.
    pub message: String,
}

/// A record's headers in JSON: the usual ones by name, the rest in `other`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HeadersView {
    /// Sente's (White's in pawns) name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sente: Option<String>,
    /// Gote's (Black's in pawns) name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gote: Option<String>,
    /// The event.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site: Option<String>,
    /// When it started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// When it ended.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_time: Option<String>,
    /// The time control.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_control: Option<String>,
    /// The opening.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<String>,
    /// Everything else, key and value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub other: Vec<(String, String)>,
}

impl From<Headers> for HeadersView {
    fn from(h: Headers) -> HeadersView {
        HeadersView {
            sente: h.sente,
            gote: h.gote,
            event: h.event,
            site: h.site,
            start_time: h.start_time,
            end_time: h.end_time,
            time_control: h.time_control,
            opening: h.opening,
            other: h.other,
        }
    }
}

impl From<HeadersView> for Headers {
    fn from(h: HeadersView) -> Headers {
        Headers {
            sente: h.sente,
            gote: h.gote,
            event: h.event,
            site: h.site,
            start_time: h.start_time,
            end_time: h.end_time,
            time_control: h.time_control,
            opening: h.opening,
            other: h.other,
        }
    }
}

/// What the page needs to draw one game (`GET /api/variants`).
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VariantInfo {
    /// Name used in the API.
    pub name: &'static str,
    /// Name for people.
    pub title: &'static str,
    /// Board width.
    pub files: u8,
    /// Board height.
    pub ranks: u8,
    /// Start position.
    pub start: String,
    /// The sides' names, first mover first.
    pub colors: [&'static str; 2],
    /// SFEN letters of the pieces that can be dropped.
    pub hand_roles: Vec<String>,
    /// `"optional"`, `"compulsory"` or `"none"`.
    pub promotion: &'static str,
    /// Whether the game has check.
    pub check: bool,
}

fn shogi_info<V: ShogiVariant>(has_check: bool) -> VariantInfo
where
    ShogiPosition<V>: Position,
{
    let spec = V::SPEC;
    VariantInfo {
        name: V::VARIANT.name(),
        title: names::variant_title(V::VARIANT),
        files: spec.files,
        ranks: spec.ranks,
        start: ShogiPosition::<V>::start().to_text(),
        colors: ["sente", "gote"],
        hand_roles: spec
            .hand_roles
            .iter()
            .map(|r| r.letter().to_string())
            .collect(),
        promotion: match spec.promotion {
            PromotionRule::Optional => "optional",
            PromotionRule::OnArrival => "compulsory",
        },
        check: has_check,
    }
}

/// Every game's description, in the order the page offers them.
pub fn variants() -> Vec<VariantInfo> {
    vec![
        shogi_info::<Spear>(false),
        shogi_info::<Minishogi>(true),
        shogi_info::<Shogi>(true),
        VariantInfo {
            name: Variant::Pawns.name(),
            title: names::variant_title(Variant::Pawns),
            files: 8,
            ranks: 8,
            start: PawnsPosition::start().to_text(),
            colors: ["white", "black"],
            hand_roles: Vec::new(),
            promotion: "none",
            check: false,
        },
    ]
}
