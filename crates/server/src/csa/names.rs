//! The names of the CSA side, read as shogi-server reads them: a player's
//! name, a game name (`koma-300-10` is 300 s and 10 s byoyomi,
//! `koma-300-10F` 300 s and 10 s added at every move), and the password
//! of a plain CSA login, which names the game wanted (`koma-300-10,secret`).

use crate::games::clock::{TimeControl, MAX_CONTROL_MS};
use koma_csa::message::TurnPreference;
use koma_rules::Handicap;

/// shogi-server's `Default_Max_Identifier_Length`.
const MAX_IDENTIFIER: usize = 32;

/// The game a plain CSA login asks for when its password names none
/// (shogi-server's `Default_Game_Name`).
pub const DEFAULT_GAME: &str = "default-1500-0";

/// Whether `text` may be a player's name or a game name's first part:
/// 1 to 32 letters, digits, `_`, `@`, `-` or `.` (shogi-server's
/// `good_identifier?`, ASCII only).
pub fn good_identifier(text: &str) -> bool {
    (1..=MAX_IDENTIFIER).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'@' | b'-' | b'.'))
}

/// A game name read: its time control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameName {
    /// The name as given, which players are matched by.
    pub name: String,
    /// Its clock.
    pub control: TimeControl,
    /// shogi-server's handicap the name asks for (`hc2p_…`), if any.
    pub handicap: Option<Handicap>,
}

/// Why a game name cannot be played, as shogi-server's `##[ERROR]` says it.
pub fn read_game_name(name: &str) -> Result<GameName, String> {
    let bad = || {
        format!(
            "bad game name: {name}.\n##[ERROR] game name should consist of three parts like \
             game-1500-60."
        )
    };
    let mut parts = name.rsplitn(3, '-');
    let (Some(last), Some(total), Some(event)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad());
    };
    let (byoyomi, fischer) = match last.strip_suffix('F') {
        Some(increment) => (increment, true),
        None => (last, false),
    };
    let digits = |text: &str| !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    if !digits(total) || !digits(byoyomi) {
        return Err(bad());
    }
    if !good_identifier(event) {
        return Err(format!(
            "bad game name: {name}.\n##[ERROR] invalid identifiers are found or too many \
             characters are used."
        ));
    }
    if !fischer && byoyomi.len() > 1 && byoyomi.starts_with('0') {
        return Err(format!(
            "Koma does not offer shogi-server's stop-watch clocks ({name}): name the byoyomi \
             without a leading 0."
        ));
    }
    let seconds = |text: &str| -> Result<u64, String> {
        text.parse::<u64>()
            .ok()
            .and_then(|s| s.checked_mul(1000))
            .filter(|&ms| ms <= MAX_CONTROL_MS)
            .ok_or_else(|| format!("the times of {name} can be at most a day."))
    };
    let total = seconds(total)?;
    let per_move = seconds(byoyomi)?;
    let control = TimeControl {
        initial_ms: total,
        increment_ms: if fischer { per_move } else { 0 },
        byoyomi_ms: if fischer { 0 } else { per_move },
    };
    if total + per_move == 0 {
        return Err(format!("{name} gives no time at all."));
    }
    Ok(GameName {
        name: name.to_owned(),
        control,
        handicap: handicap_of(event),
    })
}

/// shogi-server's handicapped games (its `Login.handicapped_game_name?`):
/// a game name's prefix and the handicap it asks for.
const HANDICAPS: [(&str, Handicap); 9] = [
    ("hclance_", Handicap::Lance),
    ("hcbishop_", Handicap::Bishop),
    ("hcrook_", Handicap::Rook),
    ("hcrooklance_", Handicap::RookLance),
    ("hc2p_", Handicap::TwoPiece),
    ("hc4p_", Handicap::FourPiece),
    ("hc6p_", Handicap::SixPiece),
    ("hc8p_", Handicap::EightPiece),
    ("hc10p_", Handicap::TenPiece),
];

/// The handicap a game name's first part asks for (`hc2p_koma`: two
/// pieces), if any.
fn handicap_of(event: &str) -> Option<Handicap> {
    HANDICAPS
        .iter()
        .find(|(prefix, _)| event.starts_with(prefix))
        .map(|&(_, handicap)| handicap)
}

/// What the password of a plain CSA login asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainLogin {
    /// The game name (the default one when the password names none).
    pub game: String,
    /// The side asked for with `-B` or `-W` after the name.
    pub turn: TurnPreference,
    /// The password proper (what follows the comma), if any.
    pub password: Option<String>,
}

/// Reads a plain login's password as shogi-server's `LoginCSA` does:
/// `koma-300-10` (a game name and no password), `koma-300-10,secret`,
/// `koma-300-10-B,secret` (sente asked for), or a password alone (the
/// default game).
pub fn read_plain_password(password: &str) -> PlainLogin {
    let is_game = |text: &str| read_game_name(text).is_ok() || with_turn(text).is_some();
    let (mut game, password) = if is_game(password) {
        (password.to_owned(), None)
    } else if let Some((game, rest)) = password.split_once(',') {
        (game.to_owned(), Some(rest.to_owned()))
    } else {
        (DEFAULT_GAME.to_owned(), Some(password.to_owned()))
    };
    let mut turn = TurnPreference::Either;
    if let Some((name, side)) = with_turn(&game) {
        (game, turn) = (name, side);
    }
    if read_game_name(&game).is_err() {
        game = DEFAULT_GAME.to_owned();
    }
    PlainLogin {
        game,
        turn,
        password: password.filter(|p| !p.trim().is_empty()),
    }
}

/// `koma-300-10-B` → `koma-300-10` and sente (`-W`: gote).
fn with_turn(text: &str) -> Option<(String, TurnPreference)> {
    let (name, side) = text.rsplit_once('-')?;
    let turn = match side {
        "B" | "b" => TurnPreference::Sente,
        "W" | "w" => TurnPreference::Gote,
        _ => return None,
    };
    read_game_name(name).ok()?;
    Some((name.to_owned(), turn))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_names_give_their_clocks() {
        let byoyomi = read_game_name("koma-300-10").unwrap();
        assert_eq!(
            byoyomi.control,
            TimeControl {
                initial_ms: 300_000,
                increment_ms: 0,
                byoyomi_ms: 10_000
            }
        );
        let fischer = read_game_name("floodgate-600-10F").unwrap().control;
        assert_eq!(
            (fischer.initial_ms, fischer.increment_ms),
            (600_000, 10_000)
        );
        assert_eq!(
            read_game_name("a-b-c-0-5").unwrap().control.byoyomi_ms,
            5_000
        );
        for bad in [
            "koma",
            "koma-300",
            "koma-x-10",
            "-300-10",
            "koma-300-10G",
            "koma-300-",
        ] {
            assert!(read_game_name(bad).is_err(), "{bad}");
        }
        assert!(read_game_name("koma-0-0").is_err());
        assert!(read_game_name("koma-99999999999999999999-0").is_err());
        assert!(read_game_name("koma-30-060")
            .unwrap_err()
            .contains("stop-watch"));
        assert_eq!(
            read_game_name("hc2p_koma-30-1").unwrap().handicap,
            Some(Handicap::TwoPiece)
        );
        assert_eq!(
            read_game_name("hcrooklance_a-30-1").unwrap().handicap,
            Some(Handicap::RookLance)
        );
        assert_eq!(
            read_game_name("hcrook_a-30-1").unwrap().handicap,
            Some(Handicap::Rook)
        );
        assert_eq!(read_game_name("koma-30-1").unwrap().handicap, None);
        assert_eq!(read_game_name("xhc2p_koma-30-1").unwrap().handicap, None);
        assert!(read_game_name(&format!("{}-30-1", "a".repeat(33))).is_err());
        assert!(read_game_name("kömä-30-1").is_err());
    }

    #[test]
    fn a_plain_login_names_its_game_in_the_password() {
        let read = read_plain_password;
        assert_eq!(
            read("koma-60-5"),
            PlainLogin {
                game: "koma-60-5".into(),
                turn: TurnPreference::Either,
                password: None
            }
        );
        assert_eq!(
            read("koma-60-5,secret"),
            PlainLogin {
                game: "koma-60-5".into(),
                turn: TurnPreference::Either,
                password: Some("secret".into())
            }
        );
        assert_eq!(read("koma-60-5-W,a,b").turn, TurnPreference::Gote);
        assert_eq!(read("koma-60-5-W,a,b").password.as_deref(), Some("a,b"));
        assert_eq!(read("koma-60-5-B").game, "koma-60-5");
        assert_eq!(read("secret").game, DEFAULT_GAME);
        assert_eq!(read("secret").password.as_deref(), Some("secret"));
        assert_eq!(read("nonsense,secret").game, DEFAULT_GAME);
    }
}
