//! The board, hands and side to move of a shogi-like game, generic over the
//! game ([`ShogiVariant`]). Copy-make: [`ShogiPosition::play_unchecked`]
//! changes a position in place; the previous position is just a clone.

use crate::attacks::{
    attacks, attacks_given_slides, between, bishop_attacks, pseudo_slides, rook_attacks, Movement,
};
use crate::bitboard::Bitboard;
use crate::color::Color;
use crate::moves::{Move, MoveSet};
use crate::outcome::Outcome;
use crate::role::{Piece, Role};
use crate::spec::Spec;
use crate::square::Square;
use crate::variant::Variant;
use crate::zobrist;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::marker::PhantomData;

/// A shogi-like game: its data ([`Spec`]) and the rules that are code.
pub trait ShogiVariant: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// Which game this is.
    const VARIANT: Variant;
    /// Its parameters.
    const SPEC: Spec;
    /// The board's squares.
    const BOARD: Bitboard = Self::SPEC.board();
    /// Grid squares off the board; sliders treat them as occupied.
    const OFF_BOARD: Bitboard = Bitboard(Bitboard::FULL.0 & !Self::SPEC.board().0);
    /// Whether kings are captured like other pieces (and may then sit in a
    /// hand), as in Spear, rather than protected by the rule of check.
    const KINGS_ARE_CAPTURED: bool = false;
    /// Roles by movement, as masks over role indices (see [`Spec::movement_roles`]).
    const MOVEMENT_ROLES: [u16; Movement::NUM] = Self::SPEC.movement_roles();
    /// The furthest 0, 1 and 2 ranks by colour.
    const FAR_RANKS: [[Bitboard; 3]; 2] = Self::SPEC.far_rank_table();
    /// Promotion zones, by colour.
    const ZONES: [Bitboard; 2] = [Self::SPEC.zone(Color::Sente), Self::SPEC.zone(Color::Gote)];

    /// Hands every legal move to `listener`, grouped in [`MoveSet`]s, until
    /// it returns `true`; returns whether it did.
    fn generate<F: FnMut(MoveSet) -> bool>(
        position: &ShogiPosition<Self>,
        listener: &mut F,
    ) -> bool;

    /// Whether `m` is legal: one of the moves [`ShogiVariant::generate`]
    /// gives. A game may answer for the one move without the others.
    fn is_legal(position: &ShogiPosition<Self>, m: Move) -> bool {
        Self::generate(position, &mut |set| set.contains(m))
    }

    /// Recomputes what the generator caches after each move (checkers, pins).
    fn refresh(position: &mut ShogiPosition<Self>);

    /// The end of the game as the position alone shows it.
    fn outcome(position: &ShogiPosition<Self>) -> Option<Outcome>;

    /// Whether the side to move is in check (never, in games without check).
    fn is_check(position: &ShogiPosition<Self>) -> bool;
}

/// The pieces in one side's hand, counted by hand role.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Hand([u8; 8]);

impl Hand {
    /// How many pieces of `role` (an unpromoted role).
    #[inline(always)]
    pub fn count(&self, role: Role) -> u8 {
        self.0[role.index()]
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Roles held with their counts, in index order (pawn first).
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::HAND
            .iter()
            .map(|&role| (role, self.count(role)))
            .filter(|&(_, n)| n > 0)
    }

    pub(crate) fn set(&mut self, role: Role, count: u8) {
        self.0[role.index()] = count;
    }
}

/// A position of a shogi-like game.
#[derive(Clone, Copy)]
pub struct ShogiPosition<V: ShogiVariant> {
    by_color: [Bitboard; 2],
    by_role: [Bitboard; Role::NUM],
    /// Piece index + 1 per square, 0 for empty.
    squares: [u8; 81],
    hands: [Hand; 2],
    turn: Color,
    move_number: u32,
    hash: u64,
    /// The part of `hash` from the pawns on the board.
    pawns_hash: u64,
    /// The parts of `hash` from each side's other pieces on the board.
    pieces_hashes: [u64; 2],
    checkers: Bitboard,
    pinned: Bitboard,
    variant: PhantomData<V>,
}

impl<V: ShogiVariant> ShogiPosition<V> {
    /// An empty board, Sente to move, move number 1.
    pub fn empty() -> Self {
        ShogiPosition {
            by_color: [Bitboard::EMPTY; 2],
            by_role: [Bitboard::EMPTY; Role::NUM],
            squares: [0; 81],
            hands: [Hand::default(); 2],
            turn: Color::Sente,
            move_number: 1,
            hash: 0,
            pawns_hash: 0,
            pieces_hashes: [0; 2],
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            variant: PhantomData,
        }
    }

    /// The side to move.
    #[inline(always)]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The move number as SFEN counts it (1 at the start, +1 per ply).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `square`, if any.
    #[inline(always)]
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        Piece::from_code(self.squares[square.index() as usize])
    }

    /// The role `m` leaves on its target square: the dropped role, or the
    /// moving piece's, promoted if the move promotes. `None` for a board
    /// move from an empty square.
    ///
    /// ```
    /// use koma_rules::{Position, Role, StandardShogiPosition};
    /// let start = StandardShogiPosition::start();
    /// let m = StandardShogiPosition::parse_move_syntax("8h2b+").unwrap();
    /// assert_eq!(start.role_after(m), Some(Role::Horse));
    /// ```
    #[inline(always)]
    pub fn role_after(&self, m: Move) -> Option<Role> {
        match m {
            Move::Board { from, promote, .. } => {
                let role = self.piece_at(from)?.role;
                Some(if promote {
                    role.promoted().unwrap_or(role)
                } else {
                    role
                })
            }
            Move::Drop { role, .. } => Some(role),
        }
    }

    /// `color`'s hand.
    #[inline(always)]
    pub fn hand(&self, color: Color) -> &Hand {
        &self.hands[color.index()]
    }

    /// Squares holding `color`'s pieces.
    #[inline(always)]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding pieces of `role`, both sides.
    #[inline(always)]
    pub fn by_role(&self, role: Role) -> Bitboard {
        self.by_role[role.index()]
    }

    /// Squares holding `color`'s pieces of `role`.
    #[inline(always)]
    pub fn pieces(&self, color: Color, role: Role) -> Bitboard {
        self.by_role[role.index()] & self.by_color[color.index()]
    }

    /// Every occupied square.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Occupied squares plus the off-board part of the grid, as sliders see it.
    #[inline(always)]
    pub fn blockers(&self) -> Bitboard {
        self.occupied() | V::OFF_BOARD
    }

    /// Where `color`'s king stands, if it is on the board.
    #[inline(always)]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.pieces(color, Role::King).first()
    }

    /// Pieces giving check to the side to move (cached; empty in Spear).
    #[inline(always)]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// The side to move's pieces pinned to its king (cached; empty in Spear).
    #[inline(always)]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// A Zobrist hash of board, hands and side to move.
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// A Zobrist hash of the pawns on the board, both sides': positions
    /// with the same pawn structure share it (an engine's correction
    /// history learns by it).
    ///
    /// ```
    /// use koma_rules::{Color, Position, StandardShogiPosition};
    /// let start = StandardShogiPosition::start();
    /// let rook_moved = start.play(start.parse_move("2h5h").unwrap()).unwrap();
    /// assert_eq!(start.pawns_hash(), rook_moved.pawns_hash());
    /// assert_ne!(start.pieces_hash(Color::Sente), rook_moved.pieces_hash(Color::Sente));
    /// assert_eq!(start.pieces_hash(Color::Gote), rook_moved.pieces_hash(Color::Gote));
    /// ```
    #[inline(always)]
    pub fn pawns_hash(&self) -> u64 {
        self.pawns_hash
    }

    /// A Zobrist hash of `color`'s pieces on the board other than pawns.
    #[inline(always)]
    pub fn pieces_hash(&self, color: Color) -> u64 {
        self.pieces_hashes[color.index()]
    }

    /// A Zobrist hash of the board and the side to move, the hands left
    /// out: positions that differ only in what the hands hold share it. A
    /// mate solver keys its table by it and compares the hands itself.
    ///
    /// ```
    /// use koma_rules::{Position, StandardShogiPosition};
    /// let one = StandardShogiPosition::from_text("4k4/9/4P4/9/9/9/9/9/4K4 b G 1").unwrap();
    /// let two = StandardShogiPosition::from_text("4k4/9/4P4/9/9/9/9/9/4K4 b 2GS 1").unwrap();
    /// assert_eq!(one.board_hash(), two.board_hash());
    /// assert_ne!(one.hash(), two.hash());
    /// ```
    pub fn board_hash(&self) -> u64 {
        let mut hash = self.hash;
        for color in Color::ALL {
            for (role, count) in self.hands[color.index()].iter() {
                hash ^= zobrist::hand_key(color, role, count);
            }
        }
        hash
    }

    /// Squares a piece of `role` and `color` on `square` attacks now.
    #[inline(always)]
    pub fn attacks_from(&self, role: Role, color: Color, square: Square) -> Bitboard {
        attacks(V::SPEC.movement(role), color, square, self.blockers()) & V::BOARD
    }

    /// `color`'s pieces that move as `movement`.
    #[inline(always)]
    pub fn movement_pieces(&self, movement: Movement, color: Color) -> Bitboard {
        self.movement_pieces_of_both(movement) & self.by_color[color.index()]
    }

    /// The pieces of either colour that move as `movement`.
    #[inline(always)]
    fn movement_pieces_of_both(&self, movement: Movement) -> Bitboard {
        let mask = V::MOVEMENT_ROLES[movement as usize];
        let mut pieces = Bitboard::EMPTY;
        let mut role = 0;
        // The mask is a constant of the game: this loop folds away.
        while role < Role::NUM {
            if mask & (1 << role) != 0 {
                pieces |= self.by_role[role];
            }
            role += 1;
        }
        pieces
    }

    /// `color`'s pieces that slide along lines ([`Movement::SLIDERS`]).
    #[inline(always)]
    pub fn slider_pieces(&self, color: Color) -> Bitboard {
        let mut pieces = Bitboard::EMPTY;
        for movement in Movement::SLIDERS {
            if V::MOVEMENT_ROLES[movement as usize] != 0 {
                pieces |= self.movement_pieces(movement, color);
            }
        }
        pieces
    }

    /// `color`'s attackers of `square` split the way legality needs them:
    /// pieces that attack it from next door or by a jump (whatever else
    /// stands around), and sliders on a line through it that would attack it
    /// on an empty board (the snipers), which attack it when nothing stands
    /// between and pin the one piece that does. `blockers` matters only to
    /// Spear's two-step piece, which is neither.
    #[inline(always)]
    pub(crate) fn near_attackers_and_snipers(
        &self,
        square: Square,
        color: Color,
        blockers: Bitboard,
    ) -> (Bitboard, Bitboard) {
        // A piece attacks `square` exactly when a piece of the other colour on
        // `square` would attack it: every pattern is symmetric.
        let mut near = Bitboard::EMPTY;
        macro_rules! steppers {
            ($($movement:ident)*) => {$(
                if V::MOVEMENT_ROLES[Movement::$movement as usize] != 0 {
                    near |= attacks(Movement::$movement, !color, square, blockers)
                        & self.movement_pieces(Movement::$movement, color);
                }
            )*};
        }
        steppers!(Pawn Knight Silver Gold TwoStep);
        // A king, horse or dragon next door always attacks.
        let mut adjacent = self.movement_pieces(Movement::King, color);
        let mut snipers = Bitboard::EMPTY;
        // The game's movements are constants: the loop unrolls and the
        // tests fold away.
        for movement in Movement::SLIDERS {
            if V::MOVEMENT_ROLES[movement as usize] != 0 {
                let pieces = self.movement_pieces(movement, color);
                if matches!(movement, Movement::Horse | Movement::Dragon) {
                    adjacent |= pieces;
                }
                snipers |= pseudo_slides(movement, !color, square) & pieces;
            }
        }
        near |= attacks(Movement::King, color, square, Bitboard::EMPTY) & adjacent;
        (near, snipers)
    }

    /// Every piece of either colour that attacks `square` when only the
    /// squares in `blockers` are occupied (off-board squares must be in it,
    /// as in [`ShogiPosition::blockers`]). Pieces off `blockers` are left
    /// out: static exchange evaluation takes captured pieces off this way.
    pub fn attackers_to(&self, square: Square, blockers: Bitboard) -> Bitboard {
        self.attackers_moving(square, blockers, false)
    }

    /// The attackers of [`ShogiPosition::attackers_to`] whose reach depends
    /// on `blockers`: the sliders and Spear's two-step piece (a horse or a
    /// dragon counts whole). Taking a piece off `blockers` can only add
    /// attackers of these kinds, so static exchange asks for these alone
    /// after each capture rather than for every attacker again.
    pub fn blockable_attackers_to(&self, square: Square, blockers: Bitboard) -> Bitboard {
        self.attackers_moving(square, blockers, true)
    }

    #[inline(always)]
    fn attackers_moving(
        &self,
        square: Square,
        blockers: Bitboard,
        blockable_only: bool,
    ) -> Bitboard {
        let has = |movement: Movement| V::MOVEMENT_ROLES[movement as usize] != 0;
        // The slides from the square, once for every kind that slides so
        // (the tests of the game's pieces fold away).
        let rook = if has(Movement::Lance) || has(Movement::Rook) || has(Movement::Dragon) {
            rook_attacks(square, blockers)
        } else {
            Bitboard::EMPTY
        };
        let bishop = if has(Movement::Bishop) || has(Movement::Horse) {
            bishop_attacks(square, blockers)
        } else {
            Bitboard::EMPTY
        };
        let mut result = Bitboard::EMPTY;
        // Written out a movement at a time, so that each test of the game's
        // pieces folds away and each movement's attacks are its own code: a
        // loop over the movements was not unrolled, and chose each
        // movement's attacks at run time.
        macro_rules! each_movement {
            ($($movement:ident)*) => {$(
                let movement = Movement::$movement;
                if has(movement) && (!blockable_only || movement.is_blockable()) {
                    // Every pattern is symmetric: a piece attacks `square`
                    // exactly when the same piece of the other colour there
                    // would attack it; for a movement the same both ways,
                    // when the same piece of its own colour would.
                    if movement.same_for_both_colors() {
                        result |= attacks_given_slides(movement, Color::Sente, square, blockers, rook, bishop)
                            & self.movement_pieces_of_both(movement);
                    } else {
                        for color in Color::ALL {
                            result |= attacks_given_slides(movement, !color, square, blockers, rook, bishop)
                                & self.movement_pieces(movement, color);
                        }
                    }
                }
            )*};
        }
        each_movement!(Pawn Lance Knight Silver Gold King Bishop Rook Horse Dragon ForwardBishop TwoStep);
        result & blockers & V::BOARD
    }

    /// Whether `m` leaves the opponent's king attacked: whether it gives
    /// check, told without playing it, or in Spear, where kings are
    /// captured, whether it threatens the king (a move that takes the king
    /// does not: no king is left to threaten). For many moves of one
    /// position, [`Self::check_squares`] once and [`Self::gives_check_with`]
    /// for each cost less.
    pub fn gives_check(&self, m: Move) -> bool {
        self.gives_check_with(&self.check_squares(), m)
    }

    /// Whether `color` attacks `square`, with `blockers` as occupancy.
    /// A slider is only traced when it stands on a line through `square`,
    /// which is rare.
    #[inline(always)]
    pub fn is_attacked(&self, square: Square, color: Color, blockers: Bitboard) -> bool {
        let (near, snipers) = self.near_attackers_and_snipers(square, color, blockers);
        near.any()
            || snipers
                .iter()
                .any(|sniper| (between(square, sniper) & blockers).is_empty())
    }

    /// Puts a piece on an empty square (set-up; no legality check).
    pub fn put(&mut self, square: Square, piece: Piece) {
        debug_assert!(self.piece_at(square).is_none());
        self.by_color[piece.color.index()].insert(square);
        self.by_role[piece.role.index()].insert(square);
        self.squares[square.index() as usize] = piece.index() as u8 + 1;
        self.toggle_hashes(piece, square);
    }

    /// Takes the piece off a square (set-up; no legality check).
    pub fn take(&mut self, square: Square) -> Option<Piece> {
        let piece = self.piece_at(square)?;
        self.by_color[piece.color.index()].remove(square);
        self.by_role[piece.role.index()].remove(square);
        self.squares[square.index() as usize] = 0;
        self.toggle_hashes(piece, square);
        Some(piece)
    }

    /// Adds or takes away `piece` on `square` in the hashes.
    #[inline(always)]
    fn toggle_hashes(&mut self, piece: Piece, square: Square) {
        let key = zobrist::piece_key(piece, square);
        self.hash ^= key;
        if piece.role == Role::Pawn {
            self.pawns_hash ^= key;
        } else {
            self.pieces_hashes[piece.color.index()] ^= key;
        }
    }

    /// Sets how many pieces of `role` `color` holds (set-up).
    pub fn set_hand_count(&mut self, color: Color, role: Role, count: u8) {
        let old = self.hands[color.index()].count(role);
        self.hash ^= zobrist::hand_key(color, role, old) ^ zobrist::hand_key(color, role, count);
        self.hands[color.index()].set(role, count);
    }

    /// Sets the side to move (set-up).
    pub fn set_turn(&mut self, color: Color) {
        if self.turn != color {
            self.hash ^= zobrist::turn_key();
            self.turn = color;
        }
    }

    /// Sets the move number (set-up).
    pub fn set_move_number(&mut self, number: u32) {
        self.move_number = number;
    }

    /// Recomputes cached data after a set-up change.
    pub fn refresh(&mut self) {
        V::refresh(self);
    }

    /// Plays a move that the caller knows to be legal.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.turn;
        match m {
            Move::Board { from, to, promote } => {
                let piece = self.take(from).expect("a legal move starts on a piece");
                if let Some(captured) = self.take(to) {
                    let role = captured.role.unpromoted();
                    let count = self.hands[us.index()].count(role);
                    self.set_hand_count(us, role, count + 1);
                }
                let role = if promote {
                    piece
                        .role
                        .promoted()
                        .expect("only promotable pieces promote")
                } else {
                    piece.role
                };
                self.put(to, Piece::new(us, role));
            }
            Move::Drop { role, to } => {
                let count = self.hands[us.index()].count(role);
                self.set_hand_count(us, role, count - 1);
                self.put(to, Piece::new(us, role));
            }
        }
        self.turn = !us;
        self.hash ^= zobrist::turn_key();
        self.move_number += 1;
        V::refresh(self);
    }

    /// Calls `listener` with each group of legal moves until it returns
    /// `true`; returns whether it did.
    #[inline]
    pub fn generate<F: FnMut(MoveSet) -> bool>(&self, mut listener: F) -> bool {
        V::generate(self, &mut listener)
    }

    /// Board moves of each piece of `us` as [`MoveSet`]s, with targets limited to
    /// `targets` and to the pin line for pinned pieces; kings excluded.
    /// Shared by every shogi-like game.
    #[inline(always)]
    pub(crate) fn generate_piece_moves<F: FnMut(MoveSet) -> bool>(
        &self,
        targets: Bitboard,
        listener: &mut F,
    ) -> bool {
        let us = self.turn;
        let blockers = self.blockers();
        let king = self.king(us);
        for &role in V::SPEC.board_roles {
            if role == Role::King {
                continue;
            }
            for from in self.pieces(us, role) {
                let to = self.piece_targets(role, from, targets, blockers, king);
                if to.is_empty() {
                    continue;
                }
                let set = self.promotion_split(role, from, to);
                if listener(set) {
                    return true;
                }
            }
        }
        false
    }

    /// The squares of `targets` that the side to move's `role` on `from`
    /// reaches past `blockers`, kept to the line through `king` if the
    /// piece is pinned (the king's square is `king`, if it has one).
    #[inline(always)]
    pub(crate) fn piece_targets(
        &self,
        role: Role,
        from: Square,
        targets: Bitboard,
        blockers: Bitboard,
        king: Option<Square>,
    ) -> Bitboard {
        let mut to = attacks(V::SPEC.movement(role), self.turn, from, blockers) & targets;
        if self.pinned.any() && self.pinned.contains(from) {
            if let Some(king) = king {
                to &= crate::attacks::line(king, from);
            }
        }
        to
    }

    /// Splits a piece's targets by whether it may or must promote there.
    #[inline(always)]
    pub(crate) fn promotion_split(&self, role: Role, from: Square, to: Bitboard) -> MoveSet {
        let us = self.turn;
        let (mut optional, mut forced) = (Bitboard::EMPTY, Bitboard::EMPTY);
        if role.promoted().is_some() {
            let zone = V::ZONES[us.index()];
            match V::SPEC.promotion {
                crate::spec::PromotionRule::Optional => {
                    let may = if zone.contains(from) { to } else { to & zone };
                    let immobile = V::SPEC.movement(role).immobile_ranks() as usize;
                    forced = may & V::FAR_RANKS[us.index()][immobile];
                    optional = may & !forced;
                }
                crate::spec::PromotionRule::OnArrival => forced = to & zone,
            }
        }
        MoveSet::Board {
            role,
            from,
            to,
            promote_optional: optional,
            promote_forced: forced,
        }
    }

    /// Computes checkers and pinned pieces of the side to move; for games
    /// with check.
    pub(crate) fn compute_checks_and_pins(&mut self) {
        let us = self.turn;
        let them = !us;
        self.checkers = Bitboard::EMPTY;
        self.pinned = Bitboard::EMPTY;
        let Some(king) = self.king(us) else {
            return;
        };
        let (near, snipers) = self.near_attackers_and_snipers(king, them, self.blockers());
        let (unblocked, lone_blockers) = self.lone_blockers(king, snipers);
        self.checkers = near | unblocked;
        self.pinned = lone_blockers & self.by_color(us);
    }

    /// Of `snipers` (sliders on lines through `king`), those with nothing
    /// between them and `king`, and the pieces, of either colour, that
    /// stand alone between a sniper and `king`. Those of the king's side
    /// are pinned; those of the snipers' side uncover a check by moving
    /// off the line.
    #[inline(always)]
    pub(crate) fn lone_blockers(&self, king: Square, snipers: Bitboard) -> (Bitboard, Bitboard) {
        let occupied = self.occupied();
        let mut unblocked = Bitboard::EMPTY;
        let mut lone = Bitboard::EMPTY;
        for sniper in snipers {
            let blocking = between(king, sniper) & occupied;
            if blocking.is_empty() {
                unblocked.insert(sniper);
            } else if !blocking.has_more_than_one() {
                lone |= blocking;
            }
        }
        (unblocked, lone)
    }

    /// Calls `listener` with each group of legal captures until it returns
    /// `true`; returns whether it did. The same moves as [`Self::generate`]
    /// keeps when only moves onto an enemy piece are wanted, found without
    /// generating the rest (drops above all): a search's quiescence needs
    /// nothing else.
    #[inline]
    pub fn generate_captures<F: FnMut(MoveSet) -> bool>(&self, mut listener: F) -> bool {
        let us = self.turn;
        let them = !us;
        let enemies = self.by_color(them);
        let Some(king) = self.king(us) else {
            return !V::KINGS_ARE_CAPTURED && self.generate_piece_moves(enemies, &mut listener);
        };
        if V::KINGS_ARE_CAPTURED && self.king(them).is_none() {
            return false;
        }
        let mut king_targets = crate::attacks::king_attacks(king) & enemies & V::BOARD;
        if !V::KINGS_ARE_CAPTURED {
            king_targets = self.safe_king_steps(king, king_targets);
        }
        if king_targets.any() && listener(Self::king_moves(king, king_targets)) {
            return true;
        }
        let targets = if V::KINGS_ARE_CAPTURED {
            enemies
        } else if self.checkers.has_more_than_one() {
            return false;
        } else {
            self.checkers.first().map_or(enemies, Bitboard::from_square)
        };
        self.generate_piece_moves(targets, &mut listener)
    }

    /// The squares of `targets` (next to the king of the side to move, on
    /// `king`) that the enemy does not attack once the king has left `king`.
    #[inline(always)]
    pub(crate) fn safe_king_steps(&self, king: Square, targets: Bitboard) -> Bitboard {
        self.king_steps_safe_from(king, targets, !self.turn)
    }

    /// The squares of `targets` (next to a king on `king`, of either side)
    /// that `attacker` does not attack once the king has left `king`.
    #[inline(always)]
    pub(crate) fn king_steps_safe_from(
        &self,
        king: Square,
        targets: Bitboard,
        attacker: Color,
    ) -> Bitboard {
        let blockers = self.blockers().without(king);
        let mut safe = Bitboard::EMPTY;
        for target in targets {
            if !self.is_attacked(target, attacker, blockers) {
                safe.insert(target);
            }
        }
        safe
    }

    /// The king's moves from `king` to `to`, as one set.
    #[inline(always)]
    pub(crate) fn king_moves(king: Square, to: Bitboard) -> MoveSet {
        MoveSet::Board {
            role: Role::King,
            from: king,
            to,
            promote_optional: Bitboard::EMPTY,
            promote_forced: Bitboard::EMPTY,
        }
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        self.generate(|set| !set.is_empty())
    }

    /// The number of legal moves, counted without listing them.
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut count = 0u64;
        self.generate(|set| {
            count += set.len() as u64;
            false
        });
        count
    }
}

impl<V: ShogiVariant> PartialEq for ShogiPosition<V> {
    /// Same board, hands and side to move (the move number is ignored).
    fn eq(&self, other: &Self) -> bool {
        self.squares == other.squares && self.hands == other.hands && self.turn == other.turn
    }
}

impl<V: ShogiVariant> Eq for ShogiPosition<V> {}

impl<V: ShogiVariant> Hash for ShogiPosition<V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}
