//! Game clocks kept by the server: main time, then byoyomi (a fixed time
//! for each move once the main time is spent) and/or an increment added
//! after each move. The server decides when a flag falls; pages only draw
//! the countdown from what the server says.
//!
//! As on lishogi, the clocks start once each side has made its first move:
//! a player who opens the game late does not lose time for it.
//!
//! Games played over the CSA protocol (`crate::csa`) keep shogi-server's
//! clock instead ([`ClockRule::Csa`]): it runs from the start, each move is
//! charged in whole seconds rounded down, and the increment counts toward
//! the move's time, so that the time the server keeps is the time the CSA
//! clients compute from the `T` they are told, over any number of moves.

use super::names;
use koma_rules::{Color, Variant};
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// The longest main time, byoyomi or increment accepted: a day. Longer
/// games are correspondence games, which Koma does not time.
pub const MAX_CONTROL_MS: u64 = 24 * 60 * 60 * 1000;

/// From this ply on (each side has moved once) the clock runs.
const FIRST_TIMED_PLY: usize = 2;

/// Milliseconds since 1970-01-01 UTC, the time every clock is read against.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// A time control, in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TimeControl {
    /// Main time per side.
    pub initial_ms: u64,
    /// Added to the mover's main time after each move (Fischer).
    pub increment_ms: u64,
    /// Time for each move once the main time is spent.
    pub byoyomi_ms: u64,
}

impl TimeControl {
    /// A control from seconds as the API takes them (`{"initial": 300,
    /// "byoyomi": 10}`), or a sentence on what is wrong.
    pub fn from_seconds(
        initial: Option<&serde_json::Value>,
        increment: Option<&serde_json::Value>,
        byoyomi: Option<&serde_json::Value>,
    ) -> Result<TimeControl, String> {
        let ms = |value: Option<&serde_json::Value>, what: &str| -> Result<u64, String> {
            let Some(value) = value else { return Ok(0) };
            let seconds = value
                .as_f64()
                .filter(|s| s.is_finite() && *s >= 0.0)
                .ok_or_else(|| format!("The clock's {what} must be a number of seconds."))?;
            let ms = (seconds * 1000.0).round();
            if ms > MAX_CONTROL_MS as f64 {
                return Err(format!("The clock's {what} can be at most a day."));
            }
            Ok(ms as u64)
        };
        let control = TimeControl {
            initial_ms: ms(initial, "main time")?,
            increment_ms: ms(increment, "increment")?,
            byoyomi_ms: ms(byoyomi, "byoyomi")?,
        };
        if control.initial_ms == 0 && control.increment_ms == 0 && control.byoyomi_ms == 0 {
            return Err(
                "A clock needs some time: a main time, an increment or a byoyomi.".to_owned(),
            );
        }
        if control.initial_ms == 0 && control.byoyomi_ms == 0 {
            return Err(
                "With no main time the clock needs a byoyomi: an increment alone gives no time for the first timed move."
                    .to_owned(),
            );
        }
        Ok(control)
    }

    /// `5m+10s`-like words for records and people: `300+10s byoyomi`.
    pub fn describe(&self) -> String {
        let seconds = |ms: u64| {
            if ms % 1000 == 0 {
                format!("{}", ms / 1000)
            } else {
                format!("{:.1}", ms as f64 / 1000.0)
            }
        };
        let mut text = format!("{}s", seconds(self.initial_ms));
        if self.increment_ms > 0 {
            text.push_str(&format!(" +{}s per move", seconds(self.increment_ms)));
        }
        if self.byoyomi_ms > 0 {
            text.push_str(&format!(" then {}s byoyomi", seconds(self.byoyomi_ms)));
        }
        text
    }
}

/// How a clock counts, kept with it (so that a restart keeps it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClockRule {
    /// The board's: milliseconds, running once each side has moved.
    #[default]
    Board,
    /// shogi-server's (`ChessClockWithLeastZero` in its `time_clock.rb`):
    /// running from the start; a move is charged its time in whole seconds
    /// rounded down; the flag falls when that reaches the main time left
    /// plus the byoyomi plus the increment.
    Csa,
}

impl ClockRule {
    fn is_board(&self) -> bool {
        *self == ClockRule::Board
    }
}

/// A game's clocks as stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Clock {
    /// The time control.
    pub control: TimeControl,
    /// Main time left per side, first mover's first (after the last move
    /// each side made; the running side's elapsed time is not taken yet).
    pub main_ms: [u64; 2],
    /// When the side to move's time began to run (see [`now_ms`]); `None`
    /// while the clocks stand (before each side's first move, after the end).
    pub running_since: Option<i64>,
    /// How it counts; left out of the stored JSON for the board's rule,
    /// so that the clocks kept before the CSA rule read as they were.
    #[serde(default, skip_serializing_if = "ClockRule::is_board")]
    pub rule: ClockRule,
    /// Under the CSA rule, what the last move was charged (whole seconds,
    /// in milliseconds): the `T` its players are told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_charge_ms: Option<u64>,
}

/// The clock of the side that was to move ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged;

impl Clock {
    /// Full clocks, standing.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            main_ms: [control.initial_ms; 2],
            running_since: None,
            rule: ClockRule::Board,
            last_charge_ms: None,
        }
    }

    /// Full clocks under shogi-server's rule ([`ClockRule::Csa`]),
    /// standing until the game is created.
    pub fn csa(control: TimeControl) -> Clock {
        Clock {
            rule: ClockRule::Csa,
            ..Clock::new(control)
        }
    }

    /// The increment that counts toward a move's time: under the CSA rule
    /// only, as shogi-server counts it.
    fn increment_counted(&self) -> u64 {
        match self.rule {
            ClockRule::Board => 0,
            ClockRule::Csa => self.control.increment_ms,
        }
    }

    /// Milliseconds `side` has had since its time began to run at `now`.
    fn elapsed(&self, now: i64) -> u64 {
        self.running_since.map_or(0, |since| {
            u64::try_from(now.saturating_sub(since)).unwrap_or(0)
        })
    }

    /// When the running side's flag falls, if the clock runs.
    pub fn deadline(&self, turn: Color) -> Option<i64> {
        let since = self.running_since?;
        // shogi-server's flag: `mytime - t + byoyomi + fischer <= 0`.
        let allowed =
            self.main_ms[turn.index()] + self.control.byoyomi_ms + self.increment_counted();
        Some(since.saturating_add(i64::try_from(allowed).unwrap_or(i64::MAX)))
    }

    /// Whether `turn`'s flag has fallen at `now`.
    pub fn flagged(&self, turn: Color, now: i64) -> bool {
        self.deadline(turn).is_some_and(|deadline| now >= deadline)
    }

    /// Charges `mover` for a move made at `now`: its main time goes down by
    /// the time taken (byoyomi covers the rest), then the increment is
    /// added. `Err` if the flag had fallen before the move.
    pub fn charge(&mut self, mover: Color, now: i64) -> Result<(), Flagged> {
        if self.running_since.is_none() {
            return Ok(());
        }
        if self.flagged(mover, now) {
            return Err(Flagged);
        }
        let elapsed = self.elapsed(now);
        let main = &mut self.main_ms[mover.index()];
        if self.rule == ClockRule::Csa {
            // shogi-server: the increment first, then the whole seconds.
            let charged = elapsed / 1000 * 1000;
            *main = (*main + self.control.increment_ms)
                .saturating_sub(charged)
                .min(MAX_CONTROL_MS * 2);
            self.last_charge_ms = Some(charged);
            return Ok(());
        }
        *main = main.saturating_sub(elapsed);
        *main = (*main + self.control.increment_ms).min(MAX_CONTROL_MS * 2);
        Ok(())
    }

    /// Starts the side to move's time at `now` if the game goes on and each
    /// side has moved, else stops the clocks.
    pub fn restart(&mut self, ply: usize, over: bool, now: i64) {
        let first_timed = match self.rule {
            ClockRule::Board => FIRST_TIMED_PLY,
            ClockRule::Csa => 0,
        };
        self.running_since = (!over && ply >= first_timed).then_some(now);
    }

    /// The clocks as the page shows them at `now`, with `turn` to move.
    pub fn view(&self, variant: Variant, turn: Color, now: i64) -> ClockView {
        let side = |color: Color| {
            let main = self.main_ms[color.index()];
            let (main, byoyomi) = if self.running_since.is_some() && color == turn {
                let elapsed = self.elapsed(now);
                (
                    main.saturating_sub(elapsed),
                    self.control
                        .byoyomi_ms
                        .saturating_sub(elapsed.saturating_sub(main)),
                )
            } else {
                (main, self.control.byoyomi_ms)
            };
            SideClock {
                main_ms: main,
                byoyomi_ms: byoyomi,
            }
        };
        ClockView {
            last_charge_ms: self.last_charge_ms,
            left_ms: [Color::Sente, Color::Gote].map(|color| {
                let side = side(color);
                side.main_ms + side.byoyomi_ms + self.increment_counted()
            }),
            initial_ms: self.control.initial_ms,
            increment_ms: self.control.increment_ms,
            byoyomi_ms: self.control.byoyomi_ms,
            running: self.running_since.map(|_| names::color_name(variant, turn)),
            first: side(Color::Sente),
            second: side(Color::Gote),
            first_name: names::color_name(variant, Color::Sente),
            second_name: names::color_name(variant, Color::Gote),
        }
    }
}

/// One side's time left, as the page shows it.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SideClock {
    /// Main time left.
    pub main_ms: u64,
    /// Byoyomi left for the current move (the whole byoyomi when waiting).
    pub byoyomi_ms: u64,
}

/// The clocks in a game's state: the control, whose time runs, and each
/// side's time left at the moment the state was made.
#[derive(Clone, Debug)]
pub struct ClockView {
    /// Under the CSA rule, what the last move was charged (not sent to
    /// pages: the CSA players are told it as `T`).
    last_charge_ms: Option<u64>,
    /// The time each side may still take for its move before its flag
    /// falls, as at the moment of the view (not sent to pages).
    left_ms: [u64; 2],
    initial_ms: u64,
    increment_ms: u64,
    byoyomi_ms: u64,
    running: Option<&'static str>,
    first: SideClock,
    second: SideClock,
    first_name: &'static str,
    second_name: &'static str,
}

impl ClockView {
    /// Under the CSA rule, what the last move was charged, in whole seconds.
    pub fn last_charge_seconds(&self) -> Option<u64> {
        self.last_charge_ms.map(|ms| ms / 1000)
    }

    /// The time `color` may still take for its move before its flag falls,
    /// as at the moment of the view.
    pub fn left_ms(&self, color: Color) -> u64 {
        self.left_ms[color.index()]
    }

    /// `color`'s main time left, as at the moment of the view.
    pub fn main_ms(&self, color: Color) -> u64 {
        match color {
            Color::Sente => self.first.main_ms,
            Color::Gote => self.second.main_ms,
        }
    }
}

impl Serialize for ClockView {
    /// `{"initialMs", "incrementMs", "byoyomiMs", "running", "sente": {...},
    /// "gote": {...}}`, the sides under their game's names.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(6))?;
        map.serialize_entry("initialMs", &self.initial_ms)?;
        map.serialize_entry("incrementMs", &self.increment_ms)?;
        map.serialize_entry("byoyomiMs", &self.byoyomi_ms)?;
        map.serialize_entry("running", &self.running)?;
        map.serialize_entry(self.first_name, &self.first)?;
        map.serialize_entry(self.second_name, &self.second)?;
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn control(initial: u64, increment: u64, byoyomi: u64) -> TimeControl {
        TimeControl {
            initial_ms: initial,
            increment_ms: increment,
            byoyomi_ms: byoyomi,
        }
    }

    #[test]
    fn controls_are_read_from_seconds_and_checked() {
        let read = |i: serde_json::Value, n: serde_json::Value, b: serde_json::Value| {
            let some = |v: &serde_json::Value| (!v.is_null()).then_some(v.clone());
            let (i, n, b) = (some(&i), some(&n), some(&b));
            TimeControl::from_seconds(i.as_ref(), n.as_ref(), b.as_ref())
        };
        assert_eq!(
            read(json!(300), json!(null), json!(10)),
            Ok(control(300_000, 0, 10_000))
        );
        assert_eq!(
            read(json!(0.5), json!(2), json!(null)),
            Ok(control(500, 2_000, 0))
        );
        assert!(read(json!(-1), json!(null), json!(null)).is_err());
        assert!(read(json!("5"), json!(null), json!(null)).is_err());
        assert!(read(json!(1e300), json!(null), json!(null)).is_err());
        assert!(read(json!(0), json!(0), json!(0)).is_err());
        assert!(read(json!(0), json!(5), json!(0)).is_err());
        assert_eq!(
            control(300_000, 0, 10_000).describe(),
            "300s then 10s byoyomi"
        );
        assert_eq!(control(60_500, 2_000, 0).describe(), "60.5s +2s per move");
    }

    #[test]
    fn the_clock_stands_until_each_side_has_moved_and_after_the_end() {
        let mut clock = Clock::new(control(1_000, 0, 0));
        clock.restart(0, false, 0);
        assert_eq!(clock.deadline(Color::Sente), None);
        clock.restart(1, false, 0);
        assert!(!clock.flagged(Color::Gote, 1_000_000));
        clock.restart(2, false, 5_000);
        assert_eq!(clock.deadline(Color::Sente), Some(6_000));
        assert!(clock.flagged(Color::Sente, 6_000));
        clock.restart(3, true, 7_000);
        assert_eq!(clock.deadline(Color::Gote), None);
    }

    #[test]
    fn main_time_then_byoyomi_then_the_flag() {
        let mut clock = Clock::new(control(10_000, 0, 3_000));
        clock.restart(2, false, 0);
        assert_eq!(clock.charge(Color::Sente, 4_000), Ok(()));
        assert_eq!(clock.main_ms, [6_000, 10_000]);
        clock.restart(3, false, 4_000);
        assert_eq!(clock.charge(Color::Gote, 14_500), Ok(()), "into byoyomi");
        assert_eq!(clock.main_ms, [6_000, 0]);
        clock.restart(4, false, 14_500);
        let view = clock.view(Variant::Shogi, Color::Sente, 20_000);
        let json = serde_json::to_value(&view).unwrap();
        assert_eq!(json["running"], "sente");
        assert_eq!(json["sente"]["mainMs"], 500);
        assert_eq!(json["sente"]["byoyomiMs"], 3_000);
        assert_eq!(json["gote"]["mainMs"], 0);
        assert_eq!(json["gote"]["byoyomiMs"], 3_000);
        let later = serde_json::to_value(clock.view(Variant::Shogi, Color::Sente, 21_500)).unwrap();
        assert_eq!(later["sente"]["mainMs"], 0);
        assert_eq!(later["sente"]["byoyomiMs"], 2_000);
        assert_eq!(clock.deadline(Color::Sente), Some(14_500 + 6_000 + 3_000));
        assert_eq!(clock.charge(Color::Sente, 23_500), Err(Flagged));
        assert_eq!(
            clock.main_ms,
            [6_000, 0],
            "a refused charge changes nothing"
        );
    }

    #[test]
    fn the_csa_clock_runs_from_the_start_in_whole_seconds() {
        let mut clock = Clock::csa(control(10_000, 0, 3_000));
        clock.restart(0, false, 0);
        assert_eq!(clock.deadline(Color::Sente), Some(13_000), "from the start");
        assert_eq!(clock.charge(Color::Sente, 2_999), Ok(()));
        assert_eq!(clock.main_ms, [8_000, 10_000], "2.999 s is charged 2 s");
        assert_eq!(clock.last_charge_ms, Some(2_000));
        clock.restart(1, false, 2_999);
        assert_eq!(clock.charge(Color::Gote, 2_999 + 12_500), Ok(()));
        assert_eq!(clock.main_ms[1], 0, "into byoyomi: the main time is spent");
        assert_eq!(clock.last_charge_ms, Some(12_000));
        // Fischer: the increment counts toward the move's time.
        let mut fischer = Clock::csa(control(5_000, 2_000, 0));
        fischer.restart(0, false, 0);
        assert_eq!(fischer.deadline(Color::Sente), Some(7_000));
        assert_eq!(fischer.charge(Color::Sente, 6_900), Ok(()));
        assert_eq!(fischer.main_ms[0], 1_000, "5 + 2 - 6");
        fischer.restart(1, false, 6_900);
        assert!(fischer.flagged(Color::Gote, 6_900 + 7_000));
        // Stored as the board's clocks were, with the rule beside them.
        let json = serde_json::to_value(&fischer).unwrap();
        assert_eq!(json["rule"], "csa");
        assert_eq!(json["lastChargeMs"], 6_000);
        let back: Clock = serde_json::from_value(json).unwrap();
        assert_eq!(back, fischer);
    }

    #[test]
    fn clocks_kept_before_the_csa_rule_read_as_the_boards() {
        let old = r#"{"control":{"initialMs":300000,"incrementMs":0,"byoyomiMs":10000},"mainMs":[299000,12],"runningSince":1790000000000}"#;
        let clock: Clock = serde_json::from_str(old).unwrap();
        assert_eq!(clock.rule, ClockRule::Board);
        assert_eq!(clock.last_charge_ms, None);
        assert_eq!(
            serde_json::to_string(&clock).unwrap(),
            old,
            "written back the same"
        );
    }

    #[test]
    fn the_increment_comes_after_the_move() {
        let mut clock = Clock::new(control(5_000, 2_000, 0));
        clock.restart(2, false, 0);
        assert_eq!(clock.charge(Color::Sente, 4_999), Ok(()));
        assert_eq!(clock.main_ms[0], 2_001);
        clock.restart(3, false, 4_999);
        assert_eq!(clock.charge(Color::Gote, 9_999), Err(Flagged));
        let pawns = serde_json::to_value(clock.view(Variant::Pawns, Color::Gote, 5_000)).unwrap();
        assert_eq!(pawns["running"], "black");
        assert_eq!(pawns["white"]["mainMs"], 2_001);
        assert_eq!(pawns["black"]["mainMs"], 4_999);
    }
}
