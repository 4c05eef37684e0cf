//! The match's games shared out: each worker thread holds its own two
//! engines and takes pairs of games (one opening, both colours) until none
//! are left or the match is stopped.

use super::openings::{self, Opening, Rng};
use super::play::{self, Player, Settings, Termination};
use super::records_out;
use koma_records::AnyRecord;
use koma_rules::{Color, Position};
use koma_usi::client::Score;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

/// Where the games' openings come from.
#[derive(Clone, Debug)]
pub enum OpeningSource<P: Position> {
    /// This start position every game (the game's own, or a handicap's).
    Start(P),
    /// The file's openings, in turn.
    List(Arc<Vec<Opening<P>>>),
    /// Random openings that engine 1 finds balanced.
    Random {
        /// Where the random plies start.
        start: P,
        /// Random plies from the start.
        plies: usize,
        /// The seed; each pair draws from `seed` and its number.
        seed: u64,
        /// The largest score (centipawns) of a balanced opening; 0: any.
        balance_cp: i32,
        /// The depth engine 1 judges an opening at.
        balance_depth: u32,
    },
}

/// A finished game, sent by a worker.
pub struct GameReport {
    /// The game's number, from 1.
    pub round: usize,
    /// The pair it belongs to, from 0.
    pub pair: usize,
    /// Engine 1's side.
    pub engine1_color: Color,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended.
    pub termination: Termination,
    /// Its length, opening included.
    pub plies: usize,
    /// The game as a record.
    pub record: AnyRecord,
}

/// What the workers share.
pub struct Shared {
    /// What every game shares.
    pub settings: Settings,
    /// Games to play in all.
    pub games: usize,
    /// The pairs to play, in order (a resumed match leaves out the pairs
    /// it has).
    pub pending: Vec<usize>,
    /// The index in `pending` of the next pair no worker has taken.
    pub next: AtomicUsize,
    /// Raised to end the match: no new game starts, games under way are
    /// abandoned.
    pub stop: AtomicBool,
    /// The event named in the records.
    pub event: String,
    /// The time control named in the records.
    pub time_control: String,
    /// Engine 1's side in every game; `None`: each opening is played
    /// twice, colours swapped.
    pub engine1_color: Option<Color>,
}

/// Starts `concurrency` workers, each with the engines `players` makes;
/// their finished games arrive on the receiver, which closes when all are
/// done.
pub fn spawn<P: Position>(
    shared: &Arc<Shared>,
    concurrency: usize,
    source: &OpeningSource<P>,
    players: impl Fn() -> [Player; 2],
) -> (Vec<std::thread::JoinHandle<()>>, mpsc::Receiver<GameReport>) {
    let (sender, reports) = mpsc::channel();
    let workers = (0..concurrency)
        .map(|_| {
            let shared = Arc::clone(shared);
            let sender = sender.clone();
            let source = source.clone();
            let players = players();
            std::thread::spawn(move || work::<P>(&shared, players, &source, &sender))
        })
        .collect();
    (workers, reports)
}

/// A worker: takes pairs of games until none are left. A pair is one
/// opening played with both colours, engine 1 Sente first; when engine 1
/// keeps one side, each game of the pair has an opening of its own.
fn work<P: Position>(
    shared: &Shared,
    mut players: [Player; 2],
    source: &OpeningSource<P>,
    reports: &mpsc::Sender<GameReport>,
) {
    loop {
        let next = shared.next.fetch_add(1, Ordering::Relaxed);
        let Some(&pair) = shared.pending.get(next) else {
            break;
        };
        if shared.stop.load(Ordering::Relaxed) {
            break;
        }
        let mut pair_opening: Option<Opening<P>> = None;
        let games_in_pair = (shared.games - 2 * pair).min(2);
        for index in 0..games_in_pair {
            let round = 2 * pair + index + 1;
            let engine1_color = match (shared.engine1_color, index) {
                (Some(color), _) => color,
                (None, 0) => Color::Sente,
                (None, _) => Color::Gote,
            };
            // Swapped colours replay the pair's opening; a kept side draws
            // a new one for every game.
            let draw = if shared.engine1_color.is_some() {
                round - 1
            } else {
                pair
            };
            let opening = match &pair_opening {
                Some(opening) if shared.engine1_color.is_none() => opening.clone(),
                _ => choose_opening(source, draw, &mut players[0], &shared.settings),
            };
            pair_opening = Some(opening.clone());
            let [first, second] = &mut players;
            let seats = match engine1_color {
                Color::Sente => [first, second],
                Color::Gote => [second, first],
            };
            let names = [seats[0].name.clone(), seats[1].name.clone()];
            let started = records_out::now();
            let Some(game) = play::play(seats, &opening, &shared.settings, &shared.stop) else {
                break;
            };
            let info = records_out::GameInfo {
                sente: names[0].clone(),
                gote: names[1].clone(),
                event: shared.event.clone(),
                round,
                time_control: shared.time_control.clone(),
                started,
                ended: records_out::now(),
            };
            let report = GameReport {
                round,
                pair,
                engine1_color,
                winner: game.winner,
                termination: game.termination.clone(),
                plies: game.moves.len(),
                record: records_out::record(&game, &info),
            };
            if reports.send(report).is_err() {
                break;
            }
        }
    }
    for player in &mut players {
        player.quit();
    }
}

/// The `draw`th opening of `source`.
fn choose_opening<P: Position>(
    source: &OpeningSource<P>,
    draw: usize,
    judge: &mut Player,
    settings: &Settings,
) -> Opening<P> {
    match source {
        OpeningSource::Start(start) => Opening::at(start.clone()),
        OpeningSource::List(list) => list[draw % list.len()].clone(),
        OpeningSource::Random {
            start,
            plies,
            seed,
            balance_cp,
            balance_depth,
        } => {
            let mut rng = Rng::new(
                seed.wrapping_add(draw as u64)
                    .wrapping_mul(0x2545_f491_4f6c_dd1d),
            );
            balanced_opening::<P>(
                judge,
                &mut rng,
                start,
                *plies,
                *balance_cp,
                *balance_depth,
                settings,
            )
        }
    }
}

/// A random opening that engine 1, searching to `depth`, scores within
/// `balance_cp` without a mate. After 100 tries, the last one drawn.
fn balanced_opening<P: Position>(
    player: &mut Player,
    rng: &mut Rng,
    start: &P,
    plies: usize,
    balance_cp: i32,
    depth: u32,
    settings: &Settings,
) -> Opening<P> {
    let mut last = Opening::at(start.clone());
    for _ in 0..100 {
        let Some(opening) = openings::random::<P>(rng, start, plies) else {
            continue;
        };
        if balance_cp <= 0 {
            return opening;
        }
        let judged = player.engine(settings.variant).ok().and_then(|engine| {
            engine.new_game().ok()?;
            let command = koma_usi::client::position_command(
                &opening.start,
                &opening.moves,
                engine.dialect(),
            );
            Some(engine.think(&command, &format!("depth {depth}"), settings.hang_timeout))
        });
        match judged {
            Some(Ok(thought)) => match thought.score {
                Some(Score::Centipawns(cp)) if cp.abs() <= balance_cp => return opening,
                // No score: nothing to judge by.
                None => return opening,
                Some(_) => last = opening,
            },
            // The engine failed: it will be restarted for the game, and the
            // opening is used unjudged.
            _ => {
                player.discard();
                return opening;
            }
        }
    }
    last
}
