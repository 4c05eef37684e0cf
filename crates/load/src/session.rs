//! The slots: each plays one shared game after another until the run
//! stops.

use super::client;
use super::context::{Context, Rng};
use super::game::{End, Game, Player, CLOSE_WAIT};
use super::stats::{ErrorKind, Failure, Latencies};
use std::net::IpAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::time::{sleep, timeout};

/// The wait before a slot whose game failed starts another: a server in
/// trouble is not helped by instant retries.
const RETRY_PAUSE: Duration = Duration::from_millis(250);

/// Plays games in slot `slot` until the run stops; their latencies.
pub async fn run_slot(ctx: Arc<Context>, slot: u64) -> Latencies {
    let mut rng = Rng::new(ctx.seed, slot);
    let mut latencies = Latencies::default();
    let mut stop = ctx.stop.subscribe();
    while !*stop.borrow() {
        match play_game(&ctx, ctx.address_of(slot), &mut rng, &mut latencies).await {
            Ok(End::Finished) => {
                ctx.counters.games.fetch_add(1, Ordering::Relaxed);
            }
            Ok(End::Stopped) => break,
            Ok(End::Capped) => {
                let _ = stop.wait_for(|&stopped| stopped).await;
            }
            Err(failure) => {
                ctx.counters.error(&failure);
                tokio::select! {
                    _ = sleep(RETRY_PAUSE) => {}
                    _ = stop.wait_for(|&stopped| stopped) => {}
                }
            }
        }
    }
    latencies
}

/// Creates a game from `from`, opens its two sockets, plays it and closes
/// them.
async fn play_game(
    ctx: &Context,
    from: Option<IpAddr>,
    rng: &mut Rng,
    latencies: &mut Latencies,
) -> Result<End, Failure> {
    let created = client::create_game(&ctx.target, from, ctx.variant.name()).await?;
    let seats: Vec<(String, String)> = created.seats.into_iter().collect();
    let [(first_side, first_token), (second_side, second_token)] = <[_; 2]>::try_from(seats)
        .map_err(|_| protocol("a new shared game does not have two seat tokens"))?;
    let (first, second) = tokio::join!(
        client::open_socket(&ctx.target, from, &created.id),
        client::open_socket(&ctx.target, from, &created.id)
    );
    let (first, second) = match (first, second) {
        (Ok(first), Ok(second)) => (first, second),
        (Err(failure), Ok(mut socket)) | (Ok(mut socket), Err(failure)) => {
            let _ = timeout(CLOSE_WAIT, client::close_socket(&mut socket)).await;
            return Err(failure);
        }
        (Err(failure), Err(_)) => return Err(failure),
    };
    let now = Instant::now();
    let mut game = Game::new([
        Player::new(first_side, first_token, first, ctx.gap, now),
        Player::new(second_side, second_token, second, ctx.gap, now),
    ]);
    let result = game.play(ctx, rng, latencies).await;
    game.close().await;
    result
}

fn protocol(message: impl Into<String>) -> Failure {
    Failure::new(ErrorKind::Protocol, message)
}
