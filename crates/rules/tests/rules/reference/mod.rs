//! A deliberately simple reference move generator for Spear, Minishogi, Shogi
//! and Pawns-Only Chess, written from the rules texts alone.
//!
//! It is slow on purpose and easy to check by eye: a mailbox board (one
//! `Option<Piece>` per square), moves found by walking each direction square by
//! square, and legality decided by playing the move on a copy and looking for
//! an attack on the mover's king. Property tests compare the fast generator
//! with it.
//!
//! Board layout, for every variant: index = row × size + column, row 0 at the
//! top (rank `a` in shogi, rank 8 in chess), column 0 at the left (file 9/5 in
//! shogi, file `a` in chess). The first player (sente, White in chess) sits at
//! the bottom and moves up, towards row 0.
#![allow(dead_code)]

/// The game a [`RefPosition`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefVariant {
    Spear,
    Minishogi,
    Shogi,
    Pawns,
}

impl RefVariant {
    /// Number of rows (and columns) of the board.
    fn size(self) -> usize {
        match self {
            RefVariant::Shogi => 9,
            RefVariant::Pawns => 8,
            RefVariant::Spear | RefVariant::Minishogi => 5,
        }
    }

    /// Whether pieces of this role exist in the variant.
    fn has_role(self, role: Role) -> bool {
        match self {
            RefVariant::Shogi => true,
            RefVariant::Minishogi => !matches!(role, Role::Knight | Role::Lance),
            RefVariant::Spear => !matches!(role, Role::Knight | Role::Rook),
            RefVariant::Pawns => role == Role::Pawn,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Color {
    /// Sente in the shogi family, White in chess: at the bottom, moves up.
    First,
    /// Gote in the shogi family, Black in chess: at the top, moves down.
    Second,
}

impl Color {
    fn other(self) -> Color {
        match self {
            Color::First => Color::Second,
            Color::Second => Color::First,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    /// SFEN/FEN letters: upper case for the first player.
    fn of_letter(letter: char) -> Color {
        if letter.is_ascii_uppercase() {
            Color::First
        } else {
            Color::Second
        }
    }

    /// `letter` (upper case) in this colour's case.
    fn cased(self, letter: char) -> char {
        match self {
            Color::First => letter,
            Color::Second => letter.to_ascii_lowercase(),
        }
    }

    /// Row step of "forward" for this colour.
    fn forward(self) -> i32 {
        match self {
            Color::First => -1,
            Color::Second => 1,
        }
    }
}

/// The kind of a piece. The declaration order is the order of hands in SFEN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    King,
    Rook,
    Bishop,
    Gold,
    Silver,
    Knight,
    Lance,
    Pawn,
}

/// Every role, in hand order.
const ROLES: [Role; 8] = {
    use Role::*;
    [King, Rook, Bishop, Gold, Silver, Knight, Lance, Pawn]
};

impl Role {
    fn index(self) -> usize {
        self as usize
    }

    /// Upper-case SFEN/USI letter (Spear's elephant is `B`, its spear `L`).
    fn letter(self) -> char {
        ['K', 'R', 'B', 'G', 'S', 'N', 'L', 'P'][self.index()]
    }

    fn from_letter(letter: char) -> Option<Role> {
        let upper = letter.to_ascii_uppercase();
        ROLES.into_iter().find(|role| role.letter() == upper)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    color: Color,
    role: Role,
    promoted: bool,
}

impl Piece {
    fn unpromoted(color: Color, role: Role) -> Piece {
        Piece {
            color,
            role,
            promoted: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Move {
    Board {
        from: usize,
        to: usize,
        promote: bool,
    },
    Drop {
        role: Role,
        to: usize,
    },
}

/// Further than any board: "slides any distance".
const FAR: usize = 9;
const ORTHOGONAL: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
const DIAGONAL: [(i32, i32); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
/// Forward, both forward diagonals, left, right, back.
const GOLD: [(i32, i32); 6] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)];
/// Forward, both forward diagonals, both back diagonals.
const SILVER: [(i32, i32); 5] = [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)];

/// Directions with a common reach: `(row step, column step, most steps)`.
fn rays(directions: &[(i32, i32)], reach: usize) -> Vec<(i32, i32, usize)> {
    directions.iter().map(|&(dr, dc)| (dr, dc, reach)).collect()
}

/// How a shogi-family piece moves, for the first player (forward = row − 1).
/// Every pattern is symmetric left–right, so the second player's patterns are
/// these with the row step negated.
fn patterns(variant: RefVariant, piece: Piece) -> Vec<(i32, i32, usize)> {
    let spear = variant == RefVariant::Spear;
    let all_eight = [ORTHOGONAL, DIAGONAL].concat();
    match (piece.role, piece.promoted, spear) {
        (Role::King, _, _) => rays(&all_eight, 1),
        (Role::Pawn, false, _) => rays(&[(-1, 0)], 1),
        (Role::Knight, false, _) => rays(&[(-2, -1), (-2, 1)], 1),
        (Role::Lance, false, _) => rays(&[(-1, 0)], FAR),
        (Role::Lance, true, true) => rays(&ORTHOGONAL, FAR),
        (Role::Silver, false, _) => rays(&SILVER, 1),
        (Role::Silver, true, true) => rays(&all_eight, 2),
        (Role::Bishop, false, false) => rays(&DIAGONAL, FAR),
        (Role::Bishop, false, true) => rays(&[(-1, -1), (-1, 1)], FAR),
        (Role::Bishop, true, _) => [rays(&DIAGONAL, FAR), rays(&ORTHOGONAL, 1)].concat(),
        (Role::Rook, false, _) => rays(&ORTHOGONAL, FAR),
        (Role::Rook, true, _) => [rays(&ORTHOGONAL, FAR), rays(&DIAGONAL, 1)].concat(),
        // Gold; promoted pawn everywhere; shogi's promoted silver, knight, lance.
        _ => rays(&GOLD, 1),
    }
}

/// A position of one of the four variants, with its side to move.
#[derive(Clone, Debug)]
pub struct RefPosition {
    variant: RefVariant,
    size: usize,
    board: Vec<Option<Piece>>,
    side: Color,
    /// Pieces in hand, by colour index then role index (shogi family only).
    hands: [[u32; 8]; 2],
    /// The square a pawn just passed with a double step (Pawns only).
    en_passant: Option<usize>,
}

impl RefPosition {
    /// Parses SFEN (shogi family; "sfen" keyword absent, e.g.
    /// `"lbsgk/4p/5/P4/KGSBL b - 1"`, with or without the move number) or FEN
    /// (Pawns, e.g. `"8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1"`, 4 to 6 fields,
    /// or the 3 fields of [`RefPosition::to_text`]).
    pub fn parse(variant: RefVariant, text: &str) -> Result<RefPosition, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let size = variant.size();
        let mut position = RefPosition {
            variant,
            size,
            board: vec![None; size * size],
            side: Color::First,
            hands: [[0; 8]; 2],
            en_passant: None,
        };
        let pawns = variant == RefVariant::Pawns;
        let field_counts = if pawns { 3..=6 } else { 3..=4 };
        if !field_counts.contains(&fields.len()) {
            return Err(format!("wrong number of fields in {text:?}"));
        }
        position.parse_board(fields[0])?;
        position.side = match (fields[1], pawns) {
            ("b", false) | ("w", true) => Color::First,
            ("w", false) | ("b", true) => Color::Second,
            (other, _) => return Err(format!("bad side to move {other:?}")),
        };
        if pawns {
            // Three fields is the canonical text; FEN has castling before en passant.
            let en_passant = if fields.len() == 3 {
                fields[2]
            } else {
                fields[3]
            };
            if en_passant != "-" {
                let square = position
                    .parse_chess_square(en_passant)
                    .ok_or_else(|| format!("bad en passant square {en_passant:?}"))?;
                if position.board[square].is_some() {
                    return Err(format!("en passant square {en_passant} is occupied"));
                }
                position.en_passant = Some(square);
            }
        } else {
            position.parse_hands(fields[2])?;
        }
        Ok(position)
    }

    fn parse_board(&mut self, text: &str) -> Result<(), String> {
        let rows: Vec<&str> = text.split('/').collect();
        if rows.len() != self.size {
            return Err(format!("board {text:?} does not have {} rows", self.size));
        }
        for (row, row_text) in rows.iter().enumerate() {
            let mut column = 0;
            let mut promoted = false;
            for ch in row_text.chars() {
                if let Some(empties) = ch.to_digit(10) {
                    column += empties as usize;
                    continue;
                }
                if ch == '+' && self.variant != RefVariant::Pawns {
                    promoted = true;
                    continue;
                }
                let role = Role::from_letter(ch)
                    .filter(|&role| self.variant.has_role(role))
                    .ok_or_else(|| format!("bad piece letter {ch:?}"))?;
                if promoted && matches!(role, Role::King | Role::Gold) {
                    return Err(format!("{ch:?} cannot be promoted"));
                }
                if column >= self.size {
                    return Err(format!("row {row_text:?} is too long"));
                }
                let color = Color::of_letter(ch);
                self.board[row * self.size + column] = Some(Piece {
                    color,
                    role,
                    promoted,
                });
                column += 1;
                promoted = false;
            }
            if column != self.size || promoted {
                return Err(format!(
                    "row {row_text:?} does not have {} squares",
                    self.size
                ));
            }
        }
        Ok(())
    }

    fn parse_hands(&mut self, text: &str) -> Result<(), String> {
        if text == "-" {
            return Ok(());
        }
        let mut count: u32 = 0;
        for ch in text.chars() {
            if let Some(digit) = ch.to_digit(10) {
                count = count * 10 + digit;
                continue;
            }
            let role = Role::from_letter(ch)
                .filter(|&role| self.variant.has_role(role))
                .filter(|&role| role != Role::King || self.variant == RefVariant::Spear)
                .ok_or_else(|| format!("bad hand piece {ch:?}"))?;
            self.hands[Color::of_letter(ch).index()][role.index()] += count.max(1);
            count = 0;
        }
        if count != 0 {
            return Err(format!("hands {text:?} end with a count"));
        }
        Ok(())
    }

    /// Canonical text: `"<board> <b|w> <hands>"` for the shogi family, hands
    /// sente first, each in the order K R B G S N L P, `-` when both are empty;
    /// `"<board> <w|b> <en passant square or ->"` for Pawns.
    pub fn to_text(&self) -> String {
        let mut text = String::new();
        for row in 0..self.size {
            if row > 0 {
                text.push('/');
            }
            let mut empties = 0;
            for column in 0..self.size {
                let Some(piece) = self.board[row * self.size + column] else {
                    empties += 1;
                    continue;
                };
                if empties > 0 {
                    text.push_str(&empties.to_string());
                    empties = 0;
                }
                if piece.promoted {
                    text.push('+');
                }
                text.push(piece.color.cased(piece.role.letter()));
            }
            if empties > 0 {
                text.push_str(&empties.to_string());
            }
        }
        if self.variant == RefVariant::Pawns {
            let side = if self.side == Color::First { "w" } else { "b" };
            let en_passant = match self.en_passant {
                Some(square) => self.square_name(square),
                None => "-".to_string(),
            };
            return format!("{text} {side} {en_passant}");
        }
        let side = if self.side == Color::First { "b" } else { "w" };
        let mut hands = String::new();
        for color in [Color::First, Color::Second] {
            for role in ROLES {
                let count = self.hands[color.index()][role.index()];
                if count > 1 {
                    hands.push_str(&count.to_string());
                }
                if count > 0 {
                    hands.push(color.cased(role.letter()));
                }
            }
        }
        if hands.is_empty() {
            hands.push('-');
        }
        format!("{text} {side} {hands}")
    }

    /// All legal moves as USI strings (shogi family) or from-to strings such as
    /// `"e2e4"` (Pawns), sorted ascending, without duplicates.
    pub fn legal_moves(&self) -> Vec<String> {
        let mut texts: Vec<String> = self
            .legal()
            .into_iter()
            .map(|m| self.move_text(m))
            .collect();
        texts.sort();
        texts.dedup();
        texts
    }

    /// The position after `text`, if it names a legal move; `None` otherwise.
    pub fn play(&self, text: &str) -> Option<RefPosition> {
        self.legal()
            .into_iter()
            .find(|&m| self.move_text(m) == text)
            .map(|m| self.apply(m))
    }

    /// Number of legal move sequences of exactly `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| self.apply(m).perft(depth - 1))
            .sum()
    }

    // ----- squares -------------------------------------------------------

    /// The square `dr` rows and `dc` columns away, if it is on the board.
    fn offset(&self, square: usize, dr: i32, dc: i32) -> Option<usize> {
        let row = (square / self.size) as i32 + dr;
        let column = (square % self.size) as i32 + dc;
        let size = self.size as i32;
        if (0..size).contains(&row) && (0..size).contains(&column) {
            Some((row * size + column) as usize)
        } else {
            None
        }
    }

    /// How many rows `square` lies from the far edge as `color` sees it: 0 on
    /// that colour's last rank.
    fn rows_from_far_edge(&self, color: Color, square: usize) -> usize {
        let row = square / self.size;
        match color {
            Color::First => row,
            Color::Second => self.size - 1 - row,
        }
    }

    /// USI square (`"7g"`) in the shogi family, chess square (`"e4"`) in Pawns.
    fn square_name(&self, square: usize) -> String {
        let (row, column) = (square / self.size, square % self.size);
        if self.variant == RefVariant::Pawns {
            format!("{}{}", (b'a' + column as u8) as char, self.size - row)
        } else {
            format!("{}{}", self.size - column, (b'a' + row as u8) as char)
        }
    }

    fn parse_chess_square(&self, text: &str) -> Option<usize> {
        let bytes = text.as_bytes();
        if bytes.len() != 2 {
            return None;
        }
        let column = bytes[0].checked_sub(b'a')? as usize;
        let rank = bytes[1].checked_sub(b'0')? as usize;
        if column >= self.size || !(1..=self.size).contains(&rank) {
            return None;
        }
        Some((self.size - rank) * self.size + column)
    }

    fn move_text(&self, m: Move) -> String {
        match m {
            Move::Board { from, to, promote } => format!(
                "{}{}{}",
                self.square_name(from),
                self.square_name(to),
                if promote { "+" } else { "" }
            ),
            Move::Drop { role, to } => format!("{}*{}", role.letter(), self.square_name(to)),
        }
    }

    // ----- move generation ------------------------------------------------

    /// The legal moves of the side to move, in no particular order.
    fn legal(&self) -> Vec<Move> {
        match self.variant {
            RefVariant::Pawns => self.pawn_moves(),
            RefVariant::Spear => {
                let both_kings = self.king_square(Color::First).is_some()
                    && self.king_square(Color::Second).is_some();
                if both_kings {
                    self.pseudo_legal_moves()
                } else {
                    Vec::new()
                }
            }
            RefVariant::Minishogi | RefVariant::Shogi => self
                .pseudo_legal_moves()
                .into_iter()
                .filter(|&m| self.is_legal_shogi_move(m))
                .collect(),
        }
    }

    /// Shogi legality of a pseudo-legal move: the mover's king is not left in
    /// check, and a pawn drop does not checkmate (uchifuzume).
    fn is_legal_shogi_move(&self, m: Move) -> bool {
        let next = self.apply(m);
        if next.king_attacked(self.side) {
            return false;
        }
        let pawn_drop = matches!(
            m,
            Move::Drop {
                role: Role::Pawn,
                ..
            }
        );
        !(pawn_drop && next.king_attacked(next.side) && !next.has_move_out_of_check())
    }

    /// Whether the side to move has some move that leaves its king safe. (A
    /// pawn drop never answers a check by a pawn, so uchifuzume does not
    /// matter here.)
    fn has_move_out_of_check(&self) -> bool {
        self.pseudo_legal_moves()
            .into_iter()
            .any(|m| !self.apply(m).king_attacked(self.side))
    }

    /// Board moves and drops of the side to move, shogi family, without the
    /// check rules.
    fn pseudo_legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        for from in 0..self.board.len() {
            let Some(piece) = self.board[from] else {
                continue;
            };
            if piece.color != self.side {
                continue;
            }
            for to in self.targets(from) {
                for &promote in self.promotion_choices(piece, from, to) {
                    moves.push(Move::Board { from, to, promote });
                }
            }
        }
        for role in ROLES {
            if self.hands[self.side.index()][role.index()] == 0 {
                continue;
            }
            for to in 0..self.board.len() {
                if self.drop_allowed(role, to) {
                    moves.push(Move::Drop { role, to });
                }
            }
        }
        moves
    }

    /// Squares the shogi-family piece on `from` can move to: empty squares and
    /// the first enemy piece along each direction.
    fn targets(&self, from: usize) -> Vec<usize> {
        let piece = self.board[from].expect("a piece on the from-square");
        let row_sign = match piece.color {
            Color::First => 1,
            Color::Second => -1,
        };
        let mut targets = Vec::new();
        for (dr, dc, reach) in patterns(self.variant, piece) {
            let mut square = from;
            for _ in 0..reach {
                let Some(next) = self.offset(square, dr * row_sign, dc) else {
                    break;
                };
                square = next;
                match self.board[square] {
                    None => targets.push(square),
                    Some(other) => {
                        if other.color != piece.color {
                            targets.push(square);
                        }
                        break;
                    }
                }
            }
        }
        targets
    }

    /// `[false]`, `[true]` or `[false, true]`: the allowed promotion choices of
    /// a board move of `piece` from `from` to `to`.
    fn promotion_choices(&self, piece: Piece, from: usize, to: usize) -> &'static [bool] {
        if piece.promoted || matches!(piece.role, Role::King | Role::Gold) {
            return &[false];
        }
        let to_far = self.rows_from_far_edge(piece.color, to);
        if self.variant == RefVariant::Spear {
            // Compulsory on ending in the last two rows, and only then.
            return if to_far < 2 { &[true] } else { &[false] };
        }
        let zone = match self.variant {
            RefVariant::Shogi => 3,
            _ => 1,
        };
        let from_far = self.rows_from_far_edge(piece.color, from);
        let forced = match piece.role {
            Role::Pawn | Role::Lance => to_far == 0,
            Role::Knight => to_far < 2,
            _ => false,
        };
        if forced {
            &[true]
        } else if to_far < zone || from_far < zone {
            &[false, true]
        } else {
            &[false]
        }
    }

    /// Whether the side to move may drop `role` on `to` (uchifuzume aside).
    fn drop_allowed(&self, role: Role, to: usize) -> bool {
        if self.board[to].is_some() {
            return false;
        }
        if self.variant == RefVariant::Spear {
            return true;
        }
        let far = self.rows_from_far_edge(self.side, to);
        match role {
            Role::Pawn => far > 0 && !self.has_unpromoted_pawn_on_column(self.side, to % self.size),
            Role::Lance => far > 0,
            Role::Knight => far > 1,
            _ => true,
        }
    }

    fn has_unpromoted_pawn_on_column(&self, color: Color, column: usize) -> bool {
        let pawn = Some(Piece::unpromoted(color, Role::Pawn));
        (0..self.size).any(|row| self.board[row * self.size + column] == pawn)
    }

    fn king_square(&self, color: Color) -> Option<usize> {
        let king = Some(Piece::unpromoted(color, Role::King));
        (0..self.board.len()).find(|&square| self.board[square] == king)
    }

    /// Whether some piece of the other colour can move onto `color`'s king.
    /// False when `color` has no king on the board.
    fn king_attacked(&self, color: Color) -> bool {
        let Some(king) = self.king_square(color) else {
            return false;
        };
        (0..self.board.len()).any(|square| {
            matches!(self.board[square], Some(piece) if piece.color != color)
                && self.targets(square).contains(&king)
        })
    }

    /// Pawns-Only Chess moves: none once the game is over.
    fn pawn_moves(&self) -> Vec<Move> {
        let me = self.side;
        let my_pawn = Some(Piece::unpromoted(me, Role::Pawn));
        let their_pawn = Some(Piece::unpromoted(me.other(), Role::Pawn));
        let has_pawns = self.board.contains(&my_pawn);
        let they_arrived = (0..self.board.len()).any(|square| {
            self.board[square] == their_pawn && self.rows_from_far_edge(me.other(), square) == 0
        });
        if !has_pawns || they_arrived {
            return Vec::new();
        }
        let forward = me.forward();
        let mut moves = Vec::new();
        for from in 0..self.board.len() {
            if self.board[from] != my_pawn {
                continue;
            }
            let mut targets = Vec::new();
            let empty = |square: &usize| self.board[*square].is_none();
            if let Some(one) = self.offset(from, forward, 0).filter(empty) {
                targets.push(one);
                // The double step, from the start rank (one in front of the back rank).
                if self.rows_from_far_edge(me.other(), from) == 1 {
                    targets.extend(self.offset(one, forward, 0).filter(empty));
                }
            }
            for side_step in [-1, 1] {
                let Some(to) = self.offset(from, forward, side_step) else {
                    continue;
                };
                // En passant: the pawn that passed `to` stands just behind it.
                let behind = self
                    .offset(to, -forward, 0)
                    .and_then(|square| self.board[square]);
                let en_passant = self.en_passant == Some(to) && behind == their_pawn;
                if self.board[to] == their_pawn || en_passant {
                    targets.push(to);
                }
            }
            for to in targets {
                moves.push(Move::Board {
                    from,
                    to,
                    promote: false,
                });
            }
        }
        moves
    }

    /// The position after `m`, which must be pseudo-legal.
    fn apply(&self, m: Move) -> RefPosition {
        let mut next = self.clone();
        next.en_passant = None;
        match m {
            Move::Board { from, to, promote } => {
                let mut piece = next.board[from].take().expect("a piece on the from-square");
                if self.variant == RefVariant::Pawns {
                    let (from_row, to_row) = (from / self.size, to / self.size);
                    if from_row.abs_diff(to_row) == 2 {
                        next.en_passant = Some((from + to) / 2);
                    }
                    let diagonal = from % self.size != to % self.size;
                    if diagonal && self.board[to].is_none() {
                        // En passant: the captured pawn is beside the from-square.
                        next.board[from_row * self.size + to % self.size] = None;
                    }
                } else if let Some(captured) = self.board[to] {
                    next.hands[self.side.index()][captured.role.index()] += 1;
                }
                piece.promoted |= promote;
                next.board[to] = Some(piece);
            }
            Move::Drop { role, to } => {
                next.hands[self.side.index()][role.index()] -= 1;
                next.board[to] = Some(Piece::unpromoted(self.side, role));
            }
        }
        next.side = self.side.other();
        next
    }
}

#[cfg(test)]
mod tests {
    use super::RefVariant::{Minishogi, Pawns, Shogi, Spear};
    use super::*;

    /// The positions of a `.perft` file: (id, SFEN or FEN, [(depth, nodes)]).
    type PerftCase = (String, String, Vec<(u32, u64)>);

    fn load(file: &str) -> Vec<PerftCase> {
        let path = format!("{}/../../testdata/perft/{file}", env!("CARGO_MANIFEST_DIR"));
        let content = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut cases: Vec<PerftCase> = Vec::new();
        for line in content.lines().map(str::trim) {
            if let Some(id) = line.strip_prefix("id ") {
                cases.push((id.to_string(), String::new(), Vec::new()));
            } else if let Some(text) = line.strip_prefix("sfen ").or(line.strip_prefix("fen ")) {
                cases.last_mut().expect("id first").1 = text.to_string();
            } else if let Some(rest) = line.strip_prefix("perft ") {
                let (depth, nodes) = rest.split_once(' ').expect("perft DEPTH NODES");
                let count = (depth.parse().unwrap(), nodes.trim().parse().unwrap());
                cases.last_mut().expect("id first").2.push(count);
            }
        }
        cases
    }

    /// Checks every count of `file` with depth <= `max_depth` and at most
    /// `max_nodes` nodes; returns the "id/depth" of each count checked.
    fn check_perft(variant: RefVariant, file: &str, max_depth: u32, max_nodes: u64) -> Vec<String> {
        let mut checked = Vec::new();
        for (id, text, counts) in load(file) {
            let position = RefPosition::parse(variant, &text).unwrap();
            for (depth, expected) in counts {
                if depth > max_depth || expected > max_nodes {
                    eprintln!("{file} {id} perft {depth}: skipped");
                    continue;
                }
                assert_eq!(position.perft(depth), expected, "{file} {id} perft {depth}");
                if depth == 1 {
                    assert_eq!(position.legal_moves().len() as u64, expected);
                }
                checked.push(format!("{id}/{depth}"));
            }
        }
        checked
    }

    #[test]
    fn spear_perft() {
        let checked = check_perft(Spear, "spear.perft", 4, u64::MAX);
        assert_eq!(
            checked,
            ["startpos/1", "startpos/2", "startpos/3", "startpos/4"]
        );
    }

    #[test]
    fn minishogi_perft() {
        let checked = check_perft(Minishogi, "minishogi.perft", 4, u64::MAX);
        assert_eq!(
            checked,
            ["startpos/1", "startpos/2", "startpos/3", "startpos/4"]
        );
    }

    #[test]
    fn shogi_perft() {
        let checked = check_perft(Shogi, "shogi.perft", 3, 100_000);
        let expected = "startpos/1 startpos/2 startpos/3 max-moves/1 early-middlegame/3 \
                        pins-and-checks/1 pins-and-checks/2 double-check/2";
        assert_eq!(checked.join(" "), expected);
    }

    #[test]
    fn pawns_perft() {
        let checked = check_perft(Pawns, "pawns.perft", 4, u64::MAX);
        assert_eq!(checked.len(), 6 * 4);
    }

    /// Deeper counts (matsuri 3, shogi startpos 4, spear 6, ...); slow, run
    /// with `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn deep_perft() {
        check_perft(Spear, "spear.perft", 6, 15_000_000);
        check_perft(Minishogi, "minishogi.perft", 6, 5_000_000);
        check_perft(Shogi, "shogi.perft", 4, 5_000_000);
        check_perft(Pawns, "pawns.perft", 6, 15_000_000);
    }

    #[test]
    fn text_round_trips() {
        let mut all = vec![
            (Spear, "lbsgk/4p/5/P4/KGSBL b - 1".to_string()),
            (Minishogi, "rbsgk/4p/5/P4/KGSBR b - 1".to_string()),
            (
                Shogi,
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1".into(),
            ),
            (Pawns, "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1".to_string()),
        ];
        for (variant, file) in [
            (Spear, "spear.perft"),
            (Minishogi, "minishogi.perft"),
            (Shogi, "shogi.perft"),
            (Pawns, "pawns.perft"),
        ] {
            all.extend(load(file).into_iter().map(|(_, text, _)| (variant, text)));
        }
        for (variant, text) in all {
            // Canonical: the SFEN without move number; FEN board, side, en passant.
            let fields: Vec<&str> = text.split_whitespace().collect();
            let canonical = match variant {
                Pawns => format!("{} {} {}", fields[0], fields[1], fields[3]),
                _ => fields[..3].join(" "),
            };
            let position = RefPosition::parse(variant, &text).unwrap();
            assert_eq!(position.to_text(), canonical);
            let again = RefPosition::parse(variant, &canonical).unwrap();
            assert_eq!(again.to_text(), canonical);
        }
    }

    #[test]
    fn rejects_bad_text() {
        assert!(RefPosition::parse(Spear, "lbsgk/4p/5/P4 b - 1").is_err());
        assert!(RefPosition::parse(Minishogi, "lbsgk/4p/5/P4/KGSBL b - 1").is_err());
        assert!(RefPosition::parse(Shogi, "9/9/9/9/4k4/9/9/9/4K4 b K 1").is_err());
        assert!(RefPosition::parse(Spear, "5/5/2k2/5/2K2 b K 1").is_ok());
        assert!(RefPosition::parse(Pawns, "8/8/8/8/8/8/8/8 x - - 0 1").is_err());
    }

    fn moves(variant: RefVariant, text: &str) -> Vec<String> {
        RefPosition::parse(variant, text).unwrap().legal_moves()
    }

    #[test]
    fn spear_rules() {
        // The elephant slides along its two forward diagonals only, and must
        // promote on ending in the last two rows.
        let expected = ["3c1a+", "3c2b+", "3c4b+", "3c5a+", "5e4d", "5e4e", "5e5d"];
        assert_eq!(moves(Spear, "4k/5/2B2/5/K4 b - 1"), expected);
        let position = RefPosition::parse(Spear, "4k/5/4P/5/K4 b - 1").unwrap();
        assert_eq!(position.legal_moves(), ["1c1b+", "5e4d", "5e4e", "5e5d"]);
        assert!(position.play("1c1b").is_none());
        let captured = position.play("1c1b+").unwrap().play("1a1b").unwrap();
        assert_eq!(captured.to_text(), "5/4k/5/5/K4 b p");
        // Capturing the king puts it in hand and ends the game.
        let position = RefPosition::parse(Spear, "4k/4P/5/5/K4 b - 1").unwrap();
        let over = position.play("1b1a+").unwrap();
        assert_eq!(over.to_text(), "4+P/5/5/5/K4 w K");
        assert!(over.legal_moves().is_empty());
    }

    #[test]
    fn shogi_rules() {
        // Uchifuzume: P*1b mates when the gote lance blocks 2a, so it is illegal.
        let mate = moves(Shogi, "7lk/9/8K/9/9/9/9/9/9 b P 1");
        assert!(!mate.contains(&"P*1b".to_string()) && mate.contains(&"P*2b".to_string()));
        assert!(moves(Shogi, "8k/9/8K/9/9/9/9/9/9 b P 1").contains(&"P*1b".to_string()));
        // Optional promotion entering the zone, forced on the last rank.
        let optional = moves(Shogi, "4k4/9/9/P8/9/9/9/9/4K4 b - 1");
        assert!(optional.contains(&"9d9c".to_string()) && optional.contains(&"9d9c+".to_string()));
        let forced = moves(Shogi, "4k4/P8/9/9/9/9/9/9/4K4 b - 1");
        assert!(!forced.contains(&"9b9a".to_string()) && forced.contains(&"9b9a+".to_string()));
    }

    #[test]
    fn pawns_rules() {
        let position = RefPosition::parse(Pawns, "8/8/8/3pP3/8/8/8/8 w - d6 0 1").unwrap();
        assert_eq!(position.legal_moves(), ["e5d6", "e5e6"]);
        assert_eq!(
            position.play("e5d6").unwrap().to_text(),
            "8/8/3P4/8/8/8/8/8 b -"
        );
        let start = RefPosition::parse(Pawns, "8/pppppppp/8/8/8/8/PPPPPPPP/8 w - - 0 1").unwrap();
        let after = start.play("e2e4").unwrap();
        assert_eq!(after.to_text(), "8/pppppppp/8/8/4P3/8/PPPP1PPP/8 b e3");
    }
}
