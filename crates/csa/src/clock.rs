//! The clocks as the server keeps them, the network delay measured from
//! the times it charges, and the `go` command that keeps the engine inside
//! what is left.
//!
//! shogi-server charges each move the whole seconds between sending the
//! previous move and reading this one (at least `Least_Time_Per_Move`),
//! adds the increment, and takes the charge from the mover's time; a move
//! is in time while its charge is below time left + byoyomi + increment.
//! The charge includes the network's delay both ways, which the client
//! cannot see on its own clock: it learns it by comparing the charges with
//! its own measure of its moves.
//!
//! A game whose name ends in a byoyomi with a leading zero (`…-1500-060`)
//! is on shogi-server's stop-watch clock instead (`StopWatchClock`): a
//! move is charged its whole seconds rounded down to a multiple of the
//! "byoyomi" (60: whole minutes), there is no time after the main time,
//! and a move whose charge reaches the time left loses. Its summary says
//! `Time_Unit:1min` while every number in it and every `T` is in seconds,
//! so the summary is read as seconds ([`TimeControl::stop_watch`]).

use koma_rules::Color;
use std::time::Duration;

/// The time control of a game (`BEGIN Time` … `END Time`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// `Time_Unit`: what one unit of the numbers below and of `T` is.
    pub unit: Duration,
    /// `Total_Time`: each side's main time.
    pub total: u64,
    /// `Byoyomi`: the time per move once the main time is spent.
    pub byoyomi: u64,
    /// `Increment`: Fischer's time added at every move.
    pub increment: u64,
    /// `Least_Time_Per_Move`: the least charge for a move.
    pub least_per_move: u64,
    /// shogi-server's stop-watch clock: `byoyomi` is then the step moves
    /// are charged in (rounded down), not time after the main time.
    pub stop_watch: bool,
}

impl TimeControl {
    /// `units` of this control's `Time_Unit`.
    pub fn duration(&self, units: u64) -> Duration {
        self.unit
            .saturating_mul(u32::try_from(units).unwrap_or(u32::MAX))
    }

    /// A short description for people: `300 s + 10 s byoyomi`,
    /// `300 s + 10 s per move (Fischer)`.
    pub fn describe(&self) -> String {
        let seconds = |units| self.duration(units).as_secs_f64();
        let mut text = format!("{} s", seconds(self.total));
        if self.stop_watch {
            text.push_str(&format!(
                ", stop-watch: moves charged in whole {} s",
                seconds(self.byoyomi)
            ));
        } else if self.byoyomi > 0 {
            text.push_str(&format!(" + {} s byoyomi", seconds(self.byoyomi)));
        }
        if self.increment > 0 {
            text.push_str(&format!(
                " + {} s per move (Fischer)",
                seconds(self.increment)
            ));
        }
        text
    }

    /// CSA's `$TIME_LIMIT` (`HH:MM+SS`), for a byoyomi control of whole
    /// minutes and seconds; None for Fischer, which V2.2 cannot say, and
    /// for a main time it cannot write (`20 s`), and for a stop-watch.
    pub fn time_limit_header(&self) -> Option<String> {
        let total = self.duration(self.total).as_secs();
        let byoyomi = self.duration(self.byoyomi).as_secs();
        if self.increment > 0 || self.stop_watch || total % 60 != 0 || byoyomi > 99 {
            return None;
        }
        Some(format!(
            "{:02}:{:02}+{:02}",
            total / 3600,
            total / 60 % 60,
            byoyomi
        ))
    }
}

/// Both sides' time left, as the server counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    control: TimeControl,
    remaining: [Duration; 2],
}

impl Clocks {
    /// Both clocks at the start: the main time.
    pub fn new(control: TimeControl) -> Clocks {
        let total = control.duration(control.total);
        Clocks {
            control,
            remaining: [total, total],
        }
    }

    /// The control.
    pub fn control(&self) -> &TimeControl {
        &self.control
    }

    fn index(color: Color) -> usize {
        color.select(0, 1)
    }

    /// A move of `color` charged `units` (its `T`): the increment is added,
    /// the charge taken, and the clock stops at zero, as shogi-server does.
    /// (A stop-watch's charge, rounded down after the least charge was
    /// applied, may be below that least.)
    pub fn charge(&mut self, color: Color, units: u64) {
        let units = match self.control.stop_watch {
            true => units,
            false => units.max(self.control.least_per_move),
        };
        let clock = &mut self.remaining[Clocks::index(color)];
        *clock = (*clock + self.control.duration(self.control.increment))
            .saturating_sub(self.control.duration(units));
    }

    /// `color`'s main time left.
    pub fn remaining(&self, color: Color) -> Duration {
        self.remaining[Clocks::index(color)]
    }

    /// How long `color`'s move may take in all before it is late: time
    /// left, byoyomi and increment (on a stop-watch, less than the time
    /// left).
    pub fn budget(&self, color: Color) -> Duration {
        if self.control.stop_watch {
            return self.remaining(color);
        }
        self.remaining(color)
            + self.control.duration(self.control.byoyomi)
            + self.control.duration(self.control.increment)
    }

    /// The USI `go` arguments for `turn`'s move, the margin kept back from
    /// its own time (taken from the byoyomi or increment first, then from
    /// the main time), and how long to wait for the engine's answer.
    ///
    /// ```
    /// use koma_csa::clock::{Clocks, TimeControl};
    /// use koma_rules::Color;
    /// use std::time::Duration;
    /// let control = TimeControl { unit: Duration::from_secs(1), total: 60, byoyomi: 5, increment: 0, least_per_move: 0, stop_watch: false };
    /// let clocks = Clocks::new(control);
    /// let (go, _) = clocks.go(Color::Sente, Duration::from_millis(500));
    /// assert_eq!(go, "btime 60000 wtime 60000 byoyomi 4500");
    /// ```
    pub fn go(&self, turn: Color, margin: Duration) -> (String, Duration) {
        let usable = self.budget(turn).saturating_sub(margin);
        // On a stop-watch, a move's first step is free (it is rounded
        // away): told as a byoyomi of one step, out of the time left.
        let free = match self.control.stop_watch {
            true => self.control.duration(self.control.byoyomi),
            false => Duration::ZERO,
        };
        let main = self.remaining(turn).saturating_sub(free).min(usable);
        let extra = ms(usable - main);
        let (btime, wtime) = match turn {
            Color::Sente => (ms(main), ms(self.remaining(Color::Gote))),
            Color::Gote => (ms(self.remaining(Color::Sente)), ms(main)),
        };
        let go = if self.control.increment > 0 {
            let theirs = ms(self.control.duration(self.control.increment));
            let (binc, winc) = turn.select((extra, theirs), (theirs, extra));
            format!("btime {btime} wtime {wtime} binc {binc} winc {winc}")
        } else if self.control.byoyomi > 0 {
            format!("btime {btime} wtime {wtime} byoyomi {extra}")
        } else {
            format!("btime {btime} wtime {wtime}")
        };
        // Past the whole budget the move is lost anyway; a little more
        // lets a late answer be read rather than taken for a hang.
        (go, usable + margin + Duration::from_secs(10))
    }
}

fn ms(duration: Duration) -> u128 {
    duration.as_millis()
}

/// The network's delay as the server's charges show it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DelayEstimate {
    worst: Duration,
}

impl DelayEstimate {
    /// A move this client measured at `local` (from reading the previous
    /// move to sending this one) and the server charged `charged`. The
    /// server rounds down, so the charge is a lower bound of its measure,
    /// and what exceeds the local measure is surely delay.
    pub fn observe(&mut self, local: Duration, charged: Duration) {
        self.worst = self.worst.max(charged.saturating_sub(local));
    }

    /// The largest delay seen.
    pub fn worst(&self) -> Duration {
        self.worst
    }

    /// The margin to keep back: `base` (for what the charges cannot
    /// show: their rounding, the engine's answer reaching this client)
    /// plus the worst delay seen.
    pub fn margin(&self, base: Duration) -> Duration {
        base + self.worst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn control(total: u64, byoyomi: u64, increment: u64) -> TimeControl {
        TimeControl {
            unit: Duration::from_secs(1),
            total,
            byoyomi,
            increment,
            least_per_move: 0,
            stop_watch: false,
        }
    }

    #[test]
    fn charges_follow_shogi_server() {
        let mut clocks = Clocks::new(control(60, 5, 0));
        clocks.charge(Color::Sente, 10);
        assert_eq!(clocks.remaining(Color::Sente), Duration::from_secs(50));
        assert_eq!(clocks.remaining(Color::Gote), Duration::from_secs(60));
        clocks.charge(Color::Sente, 70);
        assert_eq!(clocks.remaining(Color::Sente), Duration::ZERO);
        assert_eq!(clocks.budget(Color::Sente), Duration::from_secs(5));
        // Fischer: the increment comes before the charge.
        let mut fischer = Clocks::new(control(300, 0, 10));
        fischer.charge(Color::Gote, 3);
        assert_eq!(fischer.remaining(Color::Gote), Duration::from_secs(307));
        assert_eq!(fischer.budget(Color::Gote), Duration::from_secs(317));
        // The least charge per move.
        let mut least = Clocks::new(TimeControl {
            least_per_move: 1,
            ..control(60, 0, 0)
        });
        least.charge(Color::Sente, 0);
        assert_eq!(least.remaining(Color::Sente), Duration::from_secs(59));
    }

    #[test]
    fn the_engine_is_told_what_is_left_less_the_margin() {
        let half = Duration::from_millis(500);
        let mut clocks = Clocks::new(control(60, 5, 0));
        clocks.charge(Color::Gote, 58);
        let (go, patience) = clocks.go(Color::Gote, half);
        assert_eq!(go, "btime 60000 wtime 2000 byoyomi 4500");
        assert_eq!(patience, Duration::from_secs(17));
        // A margin larger than the byoyomi comes out of the main time.
        let (go, _) = clocks.go(Color::Gote, Duration::from_secs(6));
        assert_eq!(go, "btime 60000 wtime 1000 byoyomi 0");
        // Fischer: the opponent's increment as it is, ours less the margin
        // once the main time cannot pay it.
        let mut fischer = Clocks::new(control(300, 0, 10));
        let (go, _) = fischer.go(Color::Sente, half);
        assert_eq!(go, "btime 300000 wtime 300000 binc 9500 winc 10000");
        fischer.charge(Color::Sente, 310);
        let (go, _) = fischer.go(Color::Sente, half);
        assert_eq!(go, "btime 0 wtime 300000 binc 9500 winc 10000");
        let (go, _) = Clocks::new(control(600, 0, 0)).go(Color::Sente, half);
        assert_eq!(go, "btime 599500 wtime 600000");
    }

    /// `…-1500-060`: 25 minutes, moves charged in whole minutes.
    #[test]
    fn a_stop_watch_charges_whole_steps_and_has_nothing_after_the_time() {
        let control = TimeControl {
            stop_watch: true,
            least_per_move: 1,
            ..control(1500, 60, 0)
        };
        let mut clocks = Clocks::new(control);
        // 59 s is rounded down to nothing, whatever the least charge.
        clocks.charge(Color::Sente, 0);
        assert_eq!(clocks.remaining(Color::Sente), Duration::from_secs(1500));
        clocks.charge(Color::Sente, 1440);
        assert_eq!(clocks.remaining(Color::Sente), Duration::from_secs(60));
        // A move must end before the time left: no byoyomi after it.
        assert_eq!(clocks.budget(Color::Sente), Duration::from_secs(60));
        let half = Duration::from_millis(500);
        let (go, _) = clocks.go(Color::Sente, half);
        assert_eq!(go, "btime 0 wtime 1500000 byoyomi 59500");
        // With time in hand: the free minute as byoyomi, the rest as main
        // time, so that the engine never reaches the time left.
        let (go, _) = clocks.go(Color::Gote, half);
        assert_eq!(go, "btime 60000 wtime 1440000 byoyomi 59500");
        assert_eq!(
            control.describe(),
            "1500 s, stop-watch: moves charged in whole 60 s"
        );
        assert_eq!(control.time_limit_header(), None);
    }

    #[test]
    fn delay_is_what_the_server_charged_beyond_our_measure() {
        let mut delay = DelayEstimate::default();
        delay.observe(Duration::from_millis(2300), Duration::from_secs(2));
        assert_eq!(delay.worst(), Duration::ZERO);
        delay.observe(Duration::from_millis(1700), Duration::from_secs(3));
        assert_eq!(delay.worst(), Duration::from_millis(1300));
        delay.observe(Duration::from_millis(900), Duration::from_secs(1));
        assert_eq!(delay.worst(), Duration::from_millis(1300));
        assert_eq!(
            delay.margin(Duration::from_millis(200)),
            Duration::from_millis(1500)
        );
    }

    #[test]
    fn controls_describe_themselves() {
        assert_eq!(control(300, 10, 0).describe(), "300 s + 10 s byoyomi");
        assert_eq!(
            control(300, 0, 10).describe(),
            "300 s + 10 s per move (Fischer)"
        );
        assert_eq!(
            control(3600, 60, 0).time_limit_header().as_deref(),
            Some("01:00+60")
        );
        assert_eq!(control(300, 0, 10).time_limit_header(), None);
        assert_eq!(control(20, 1, 0).time_limit_header(), None);
    }
}
