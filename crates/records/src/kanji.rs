//! The Japanese notation that KIF and KI2 share (and boards drawn in
//! kanji): full-width file digits, kanji numerals for ranks and counts, and
//! the names of the pieces.

use koma_rules::{Role, Variant};

/// Full-width digits as KIF writes files: `１` is file 1.
const FILE_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];

/// Kanji numerals one to nine, as KIF writes ranks and counts.
pub const NUMERALS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The full-width digit of a 0-based file.
pub fn file_digit(file: u8) -> char {
    FILE_DIGITS[file as usize]
}

/// The 0-based file of a full-width or ASCII digit 1-9.
pub fn parse_file_digit(c: char) -> Option<u8> {
    FILE_DIGITS
        .iter()
        .position(|&d| d == c)
        .or_else(|| ('1'..='9').position(|d| d == c))
        .map(|index| index as u8)
}

/// The 0-based rank of a kanji numeral 一-九 (or a digit, which some
/// writers use).
pub fn parse_rank_numeral(c: char) -> Option<u8> {
    NUMERALS
        .iter()
        .position(|&n| n == c)
        .or_else(|| parse_file_digit(c).map(usize::from))
        .map(|index| index as u8)
}

/// A count in kanji as hands write it: `二`, `十`, `十八`.
pub fn count(n: u32) -> String {
    let mut out = String::new();
    if n >= 20 {
        out.push(NUMERALS[(n / 10 - 1) as usize % 9]);
    }
    if n >= 10 {
        out.push('十');
    }
    if n % 10 > 0 {
        out.push(NUMERALS[(n % 10 - 1) as usize]);
    }
    out
}

/// Reads a kanji count (`十七`) or ASCII digits; `None` if it is neither.
pub fn parse_count(text: &str) -> Option<u32> {
    if !text.is_empty() && text.len() <= 3 && text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse().ok();
    }
    let digit = |c: char| NUMERALS.iter().position(|&n| n == c).map(|i| i as u32 + 1);
    let chars: Vec<char> = text.chars().collect();
    match chars.as_slice() {
        [one] if *one == '十' => Some(10),
        [one] => digit(*one),
        ['十', unit] => Some(10 + digit(*unit)?),
        [tens, '十'] => Some(10 * digit(*tens)?),
        [tens, '十', unit] => Some(10 * digit(*tens)? + digit(*unit)?),
        _ => None,
    }
}

/// The one-character name of a piece, as board diagrams draw it. Spear
/// names its elephant and spear after the seed; its promoted spear moves
/// as a rook and is drawn as one.
pub fn piece_char(variant: Variant, role: Role) -> char {
    match (variant, role) {
        (Variant::Spear, Role::Bishop) => '象',
        (Variant::Spear, Role::Lance) => '槍',
        (Variant::Spear, Role::PromotedLance) => '飛',
        (_, Role::Pawn) => '歩',
        (_, Role::Lance) => '香',
        (_, Role::Knight) => '桂',
        (_, Role::Silver) => '銀',
        (_, Role::Gold) => '金',
        (_, Role::Bishop) => '角',
        (_, Role::Rook) => '飛',
        (_, Role::King) => '玉',
        (_, Role::Tokin) => 'と',
        (_, Role::PromotedLance) => '杏',
        (_, Role::PromotedKnight) => '圭',
        (_, Role::PromotedSilver) => '全',
        (_, Role::Horse) => '馬',
        (_, Role::Dragon) => '龍',
    }
}

/// The name of a piece in a move: promoted lances, knights and silvers take
/// two characters there (`成香`), as KIF writers spell them.
pub fn piece_name(variant: Variant, role: Role) -> &'static str {
    match (variant, role) {
        (Variant::Spear, Role::Bishop) => "象",
        (Variant::Spear, Role::Lance) => "槍",
        (Variant::Spear, Role::PromotedLance) => "飛",
        (_, Role::PromotedLance) => "成香",
        (_, Role::PromotedKnight) => "成桂",
        (_, Role::PromotedSilver) => "成銀",
        (_, role) => match role {
            Role::Pawn => "歩",
            Role::Lance => "香",
            Role::Knight => "桂",
            Role::Silver => "銀",
            Role::Gold => "金",
            Role::Bishop => "角",
            Role::Rook => "飛",
            Role::King => "玉",
            Role::Tokin => "と",
            Role::Horse => "馬",
            _ => "龍",
        },
    }
}

/// Every spelling readers meet, longest first so that `成香` is not read
/// as a promotion mark.
const NAMES: [(&str, Role); 25] = [
    ("成香", Role::PromotedLance),
    ("成桂", Role::PromotedKnight),
    ("成銀", Role::PromotedSilver),
    ("成槍", Role::PromotedLance),
    ("成象", Role::Horse),
    ("成角", Role::Horse),
    ("成飛", Role::Dragon),
    ("歩", Role::Pawn),
    ("香", Role::Lance),
    ("槍", Role::Lance),
    ("桂", Role::Knight),
    ("銀", Role::Silver),
    ("金", Role::Gold),
    ("角", Role::Bishop),
    ("象", Role::Bishop),
    ("飛", Role::Rook),
    ("玉", Role::King),
    ("王", Role::King),
    ("と", Role::Tokin),
    ("杏", Role::PromotedLance),
    ("圭", Role::PromotedKnight),
    ("全", Role::PromotedSilver),
    ("馬", Role::Horse),
    ("龍", Role::Dragon),
    ("竜", Role::Dragon),
];

/// The piece named at the start of `text` and the bytes its name takes.
/// Spear has no rook: there `飛` (and `成飛`) is the promoted spear.
pub fn parse_piece(variant: Variant, text: &str) -> Option<(Role, usize)> {
    let (name, role) = NAMES.iter().find(|(name, _)| text.starts_with(name))?;
    let role = match (variant, role) {
        (Variant::Spear, Role::Rook | Role::Dragon) => Role::PromotedLance,
        _ => *role,
    };
    Some((role, name.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_round_trip() {
        for n in 1..=40 {
            assert_eq!(parse_count(&count(n)), Some(n), "{n} is {}", count(n));
        }
        assert_eq!(count(18), "十八");
        assert_eq!(count(1), "一");
        assert_eq!(parse_count("十七"), Some(17));
        assert_eq!(parse_count("歩"), None);
    }

    #[test]
    fn names_read_back_in_every_game() {
        for variant in [Variant::Shogi, Variant::Minishogi, Variant::Spear] {
            for role in Role::ALL {
                if variant == Variant::Spear && matches!(role, Role::Rook | Role::Dragon) {
                    continue;
                }
                let name = piece_name(variant, role);
                assert_eq!(parse_piece(variant, name), Some((role, name.len())));
                let drawn = piece_char(variant, role).to_string();
                assert_eq!(parse_piece(variant, &drawn).map(|p| p.0), Some(role));
            }
        }
    }
}
