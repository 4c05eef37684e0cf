//! Accepting CSA connections, counted with the HTTP ones (in all and per
//! client, `http::connections`), so that one address cannot hold more
//! sockets through the CSA port than through the HTTP one.

use super::lines;
use super::lobby::Lobby;
use super::session;
use super::CsaLimits;
use crate::games::service::Games;
use crate::http::client::ClientKey;
use crate::http::connections::Connections;
use crate::http::network::{is_connection_error, REFUSALS_AT_ONCE};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

/// Serves the CSA protocol on `listener` until `stopping` turns true
/// (every session closes then).
pub async fn serve(
    listener: TcpListener,
    games: Arc<Games>,
    connections: Arc<Connections>,
    limits: CsaLimits,
    mut stopping: watch::Receiver<bool>,
) {
    let lobby = Lobby::new(games);
    let refusals = Arc::new(Semaphore::new(REFUSALS_AT_ONCE));
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            _ = stopping.wait_for(|&stop| stop) => break,
        };
        let (mut stream, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                // Out of descriptors: wait for some to close rather than
                // spin on the error.
                if !is_connection_error(&e) {
                    eprintln!("koma: cannot accept a CSA connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                continue;
            }
        };
        match connections.admit(ClientKey::of(peer.ip())) {
            Ok(ticket) => {
                let (lobby, stopping) = (lobby.clone(), stopping.clone());
                tokio::spawn(session::run(stream, lobby, limits, stopping, ticket));
            }
            Err(crowded) => {
                // Told why, in shogi-server's words for an error, and
                // closed; a flood of refusals is closed without a word.
                if let Ok(permit) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        let text = format!("##[ERROR] {}\n", crowded.sentence());
                        let _ = tokio::time::timeout(
                            Duration::from_secs(1),
                            lines::write(&mut stream, &text),
                        )
                        .await;
                        drop(permit);
                    });
                }
            }
        }
    }
}
