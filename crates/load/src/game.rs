//! One game as its two players play it: both sockets read by one task,
//! a random legal move chosen on each player's turn and sent at its pace,
//! and each move's latency measured on both sockets.

use super::client::{self, Pace, ServerMessage, Socket, StateView};
use super::context::{Context, Rng};
use super::stats::{micros, ErrorKind, Failure, Latencies};
use futures_util::{SinkExt, StreamExt};
use std::time::{Duration, Instant};
use tokio::time::{sleep_until, timeout};
use tokio_tungstenite::tungstenite::{self, Message};

/// A game that reaches this many moves is replaced by a new one: random
/// games can wander for long, and later states grow with their move list.
pub const PLY_LIMIT: u64 = 200;
/// How long a game may go without a message from the server while it
/// expects one (beyond the player's own pace).
const IDLE_LIMIT: Duration = Duration::from_secs(10);
/// How long closing a game's two sockets may take.
pub const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// How a game left off.
pub enum End {
    /// It ended, or reached [`PLY_LIMIT`].
    Finished,
    /// The run stopped.
    Stopped,
    /// The run's last move was sent elsewhere: nothing more to play.
    Capped,
}

/// One side of a game.
pub struct Player {
    /// Its side's name, as the state's `turn` says it.
    side: String,
    token: String,
    socket: Socket,
    pace: Pace,
    /// The latest ply its socket has seen.
    seen: u64,
    /// The ply at which it last moved.
    moved_at: Option<u64>,
    /// Whether its socket has seen the game end.
    done: bool,
}

impl Player {
    /// The player of `side`, holding its seat's `token`, on `socket`,
    /// moving at most every `gap`.
    pub fn new(side: String, token: String, socket: Socket, gap: Duration, now: Instant) -> Self {
        Player {
            side,
            token,
            socket,
            pace: Pace::new(gap, now),
            seen: 0,
            moved_at: None,
            done: false,
        }
    }
}

/// A move sent and not yet seen played on both sockets.
struct InFlight {
    /// The ply after the move.
    after: u64,
    mover: usize,
    sent: Instant,
    seen: [bool; 2],
}

/// A move chosen and waiting for its player's pace.
struct Scheduled {
    player: usize,
    at: Instant,
    ply: u64,
    text: String,
}

/// A game being played.
pub struct Game {
    players: [Player; 2],
    in_flight: Vec<InFlight>,
    scheduled: Option<Scheduled>,
    /// No move may be sent any more: the game waits for its moves in
    /// flight, then stops.
    capped: bool,
}

type Incoming = Option<Result<Message, tungstenite::Error>>;

enum Event {
    Stop,
    Message(usize, Incoming, Instant),
    Send,
    Idle,
}

impl Game {
    /// A game about to start between `players`.
    pub fn new(players: [Player; 2]) -> Game {
        Game {
            players,
            in_flight: Vec::new(),
            scheduled: None,
            capped: false,
        }
    }

    /// Closes both sockets, waiting a little for the server's answers.
    pub async fn close(&mut self) {
        let [first, second] = &mut self.players;
        let closing = futures_util::future::join(
            client::close_socket(&mut first.socket),
            client::close_socket(&mut second.socket),
        );
        let _ = timeout(CLOSE_WAIT, closing).await;
    }

    /// Plays until the game ends, the run stops or something fails.
    pub async fn play(
        &mut self,
        ctx: &Context,
        rng: &mut Rng,
        latencies: &mut Latencies,
    ) -> Result<End, Failure> {
        let mut stop = ctx.stop.subscribe();
        let idle_limit = IDLE_LIMIT + ctx.gap;
        let mut idle_until = Instant::now() + idle_limit;
        loop {
            if *stop.borrow() {
                return Ok(End::Stopped);
            }
            if self.capped && self.in_flight.is_empty() && self.scheduled.is_none() {
                return Ok(End::Capped);
            }
            let send_at = self.scheduled.as_ref().map(|s| s.at);
            let [first, second] = &mut self.players;
            // One task reads both sockets, so that each message is stamped
            // when it arrives whichever player it is for.
            let event = tokio::select! {
                biased;
                _ = stop.changed() => Event::Stop,
                message = first.socket.next() => Event::Message(0, message, Instant::now()),
                message = second.socket.next() => Event::Message(1, message, Instant::now()),
                _ = sleep_until(send_at.unwrap_or(idle_until).into()), if send_at.is_some() => Event::Send,
                _ = sleep_until(idle_until.into()) => Event::Idle,
            };
            match event {
                Event::Stop => {}
                Event::Idle => {
                    return Err(Failure::new(
                        ErrorKind::TimedOut,
                        format!("a game had no message for {} s", idle_limit.as_secs()),
                    ))
                }
                Event::Send => {
                    self.send().await?;
                    idle_until = Instant::now() + idle_limit;
                }
                Event::Message(index, message, at) => {
                    idle_until = at + idle_limit;
                    let Some(state) = self.read(index, message)? else {
                        continue;
                    };
                    self.measure(index, &state, at, ctx, latencies);
                    if self.advance(index, state, ctx, rng)? {
                        return Ok(End::Finished);
                    }
                }
            }
        }
    }

    /// The state in a message to player `index`, if it carries one.
    fn read(&mut self, index: usize, message: Incoming) -> Result<Option<StateView>, Failure> {
        let side = self.players[index].side.clone();
        let text = match message {
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Close(frame))) => {
                let why = frame.map_or_else(String::new, |f| format!(": {} {}", f.code, f.reason));
                return Err(Failure::new(
                    ErrorKind::Disconnected,
                    format!("the server closed {side}'s WebSocket{why}"),
                ));
            }
            // Pings are answered by tungstenite; nothing else is expected.
            Some(Ok(_)) => return Ok(None),
            Some(Err(e)) => {
                return Err(Failure::new(
                    ErrorKind::Disconnected,
                    format!("{side}'s WebSocket failed: {e}"),
                ))
            }
            None => {
                return Err(Failure::new(
                    ErrorKind::Disconnected,
                    format!("{side}'s WebSocket ended"),
                ))
            }
        };
        let message: ServerMessage = serde_json::from_str(text.as_str())
            .map_err(|e| protocol(format!("a WebSocket message is not the API's JSON: {e}")))?;
        match message.kind.as_str() {
            "state" => {}
            "error" => {
                return Err(Failure::new(
                    ErrorKind::Refused,
                    format!(
                        "the server refused {side}'s message: {}",
                        message.error.as_deref().unwrap_or("(no reason)")
                    ),
                ))
            }
            // Kinds the API may add later concern no player here.
            _ => return Ok(None),
        }
        let state = message
            .state
            .ok_or_else(|| protocol("a state message carries no state"))?;
        let player = &mut self.players[index];
        if state.ply < player.seen {
            return Err(protocol(format!(
                "{side}'s WebSocket went back from move {} to move {}",
                player.seen, state.ply
            )));
        }
        player.seen = state.ply;
        Ok(Some(state))
    }

    /// Records the latency of every move in flight that `state`, seen by
    /// player `index` at `at`, shows played.
    fn measure(
        &mut self,
        index: usize,
        state: &StateView,
        at: Instant,
        ctx: &Context,
        latencies: &mut Latencies,
    ) {
        for flight in &mut self.in_flight {
            if flight.seen[index] || state.ply < flight.after {
                continue;
            }
            flight.seen[index] = true;
            let latency = micros(at.saturating_duration_since(flight.sent));
            if flight.mover == index {
                latencies.mover.push(latency);
                ctx.confirm_move();
            } else {
                latencies.opponent.push(latency);
            }
        }
        self.in_flight.retain(|flight| flight.seen != [true, true]);
    }

    /// Chooses player `index`'s move if `state` says it is its turn;
    /// whether the game is over for both players.
    fn advance(
        &mut self,
        index: usize,
        state: StateView,
        ctx: &Context,
        rng: &mut Rng,
    ) -> Result<bool, Failure> {
        if state.outcome.is_some() || state.ply >= PLY_LIMIT {
            self.players[index].done = true;
            return Ok(self.players.iter().all(|player| player.done));
        }
        if !self.players.iter().any(|player| player.side == state.turn) {
            return Err(protocol(format!(
                "the side to move, {:?}, has no seat",
                state.turn
            )));
        }
        let player = &mut self.players[index];
        let to_move = state.turn == player.side && player.moved_at != Some(state.ply);
        if !to_move || self.scheduled.is_some() || self.capped {
            return Ok(false);
        }
        let text = rng
            .pick(&state.legal_moves)
            .ok_or_else(|| protocol("the game goes on but has no legal move"))?
            .clone();
        if !ctx.reserve_move() {
            self.capped = true;
            return Ok(false);
        }
        self.scheduled = Some(Scheduled {
            player: index,
            at: player.pace.ready_at(Instant::now()),
            ply: state.ply,
            text,
        });
        Ok(false)
    }

    /// Sends the scheduled move.
    async fn send(&mut self) -> Result<(), Failure> {
        let Some(scheduled) = self.scheduled.take() else {
            return Ok(());
        };
        let player = &mut self.players[scheduled.player];
        let message = serde_json::json!({
            "type": "move",
            "move": scheduled.text,
            "ply": scheduled.ply,
            "token": player.token,
        })
        .to_string();
        let now = Instant::now();
        player.pace.take(now);
        player.moved_at = Some(scheduled.ply);
        self.in_flight.push(InFlight {
            after: scheduled.ply + 1,
            mover: scheduled.player,
            sent: now,
            seen: [false; 2],
        });
        player
            .socket
            .send(Message::text(message))
            .await
            .map_err(|e| {
                Failure::new(
                    ErrorKind::Disconnected,
                    format!("{}'s move could not be sent: {e}", player.side),
                )
            })
    }
}

fn protocol(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Protocol, message)
}
