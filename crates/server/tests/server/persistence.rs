//! Games kept in a SQLite file (`--db`, issue 7): two servers on one file
//! see each other's games and never both win a race for one ply, and the
//! games are all there when a server starts again on the file. (That no
//! acknowledged move is lost to `kill -9` is crates/koma/tests/koma/serve_process.rs.)

use crate::common::{start_with, usi_list, Server, TempDir};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// The games file, in a folder the server must create.
fn db_in_new_folder(dir: &TempDir) -> PathBuf {
    dir.path().join("data").join("games.sqlite3")
}

fn serve(db: &Path) -> Server {
    let server = start_with(&["--db", db.to_str().unwrap()]);
    assert_eq!(server.kept, format!("Games are kept in {}", db.display()));
    server
}

fn state(server: &Server, id: &str) -> Value {
    let reply = server.get(&format!("/api/games/{id}"));
    assert_eq!(
        reply.status,
        200,
        "{id}: {}",
        String::from_utf8_lossy(&reply.body)
    );
    reply.json()
}

#[test]
fn two_servers_on_one_file_see_each_others_games() {
    let dir = TempDir::new("two");
    let db = db_in_new_folder(&dir);
    let one = serve(&db);
    let two = serve(&db);
    let id = one.create("shogi")["id"].as_str().unwrap().to_owned();
    assert_eq!(state(&two, &id), state(&one, &id));
    two.play(&id, 0, &["7g7f"]);
    assert_eq!(state(&one, &id)["ply"], 1);
    one.play(&id, 1, &["3c3d"]);
    assert_eq!(usi_list(&state(&two, &id)), ["7g7f", "3c3d"]);
    let stale = two.post(
        &format!("/api/games/{id}/moves"),
        &json!({ "move": "2g2f", "ply": 1 }),
    );
    assert_eq!(stale.status, 409);
    assert_eq!(stale.json()["state"]["ply"], 2);

    // Both at once, at the same ply: the file lets one change at a time,
    // so exactly one of the two is played and the other is told it is late.
    for round in 0..12 {
        let now = state(&one, &id);
        let ply = now["ply"].as_u64().unwrap();
        let first = now["legalMoves"][0].clone();
        let racers: Vec<_> = [one.client(), two.client()]
            .into_iter()
            .map(|client| {
                let (path, body) = (
                    format!("/api/games/{id}/moves"),
                    json!({ "move": first, "ply": ply }),
                );
                std::thread::spawn(move || client.try_post(&path, &body).unwrap().status)
            })
            .collect();
        let mut statuses: Vec<u16> = racers.into_iter().map(|r| r.join().unwrap()).collect();
        statuses.sort();
        assert_eq!(statuses, [200, 409], "round {round}");
        assert_eq!(state(&two, &id)["ply"].as_u64().unwrap(), ply + 1);
    }
    // A game made by the second is seen by the first, and survives both.
    let other = two.create("pawns")["id"].as_str().unwrap().to_owned();
    two.play(&other, 0, &["e2e4"]);
    let (kept, other_kept) = (state(&one, &id), state(&one, &other));
    assert_eq!(other_kept["ply"], 1);
    one.stop();
    two.stop();
    let again = serve(&db);
    assert_eq!(state(&again, &id), kept);
    assert_eq!(state(&again, &other), other_kept);
}
