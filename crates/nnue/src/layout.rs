//! Which inputs a game's network has, and where each one sits.
//!
//! Each side has its own view of the board (its *perspective*): the board
//! turned so that the side plays up the board, then mirrored left to right
//! when its king stands on the right half, so that a king on 2h and one on
//! 8h share their inputs. In that view an input is
//!
//! - a piece on a square: whose it is (the perspective's or the other
//!   side's), its role, and the square;
//! - a piece in a hand as a count: "this side holds at least `k` of this
//!   role", one input for each `k` up to the most the game's pieces allow;
//!
//! and every input comes once for each *king bucket*, a coarse zone of the
//! perspective's own king (its file from the edge, and whether it is still
//! near its own back rank). A few buckets, not one per square: they let the
//! network value the same piece differently in front of a castled king
//! and an uncastled one, while each input still sees enough positions to
//! be trained from a few hundred thousand games' positions.

use koma_rules::{Color, Piece, Role, ShogiPosition, ShogiVariant, Square, Variant};

/// Roles a game can have, the index of [`Role`].
const ROLES: usize = 14;

/// Where the inputs of one game sit; one per network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The game.
    pub variant: Variant,
    /// Files (and ranks) of the square board.
    size: u8,
    /// Compact index of each role that can stand on the board (by
    /// [`Role::index`]), `u16::MAX` for one that cannot.
    board_role: [u16; ROLES],
    /// How many roles can stand on the board.
    board_roles: usize,
    /// The first hand input of each role (relative to the side's hand block).
    hand_offset: [u16; ROLES],
    /// The most of each role a hand can be counted to.
    hand_cap: [u8; ROLES],
    /// Hand inputs of one side.
    hand_inputs: usize,
    /// Inputs in one king bucket.
    bucket_inputs: usize,
    /// King buckets.
    buckets: usize,
}

impl Layout {
    /// The layout of the game `V`.
    pub fn of<V: ShogiVariant>() -> Layout {
        let spec = V::SPEC;
        let mut board_role = [u16::MAX; ROLES];
        for (i, role) in spec.board_roles.iter().enumerate() {
            board_role[role.index()] = i as u16;
        }
        // A hand can hold at most every piece of a role the game has.
        let start = koma_rules::parse_sfen::<V>(spec.start).expect("the start position parses");
        let mut hand_cap = [0u8; ROLES];
        for square in V::BOARD {
            if let Some(piece) = start.piece_at(square) {
                let role = piece.role.unpromoted();
                if spec.hand_roles.contains(&role) {
                    hand_cap[role.index()] += 1;
                }
            }
        }
        for color in [Color::Sente, Color::Gote] {
            for (role, count) in start.hand(color).iter() {
                if spec.hand_roles.contains(&role) {
                    hand_cap[role.index()] += count;
                }
            }
        }
        let mut hand_offset = [0u16; ROLES];
        let mut hand_inputs = 0usize;
        for role in spec.hand_roles {
            hand_offset[role.index()] = hand_inputs as u16;
            hand_inputs += usize::from(hand_cap[role.index()]);
        }
        let size = spec.files;
        let squares = usize::from(size) * usize::from(size);
        let board_roles = spec.board_roles.len();
        let bucket_inputs = 2 * board_roles * squares + 2 * hand_inputs;
        let buckets = FILE_ZONES * RANK_ZONES;
        Layout {
            variant: V::VARIANT,
            size,
            board_role,
            board_roles,
            hand_offset,
            hand_cap,
            hand_inputs,
            bucket_inputs,
            buckets,
        }
    }

    /// The layout of a shogi-family game; `None` for Pawns-Only Chess.
    pub fn for_variant(variant: Variant) -> Option<Layout> {
        koma_rules::with_shogi_game!(variant, V => Some(Layout::of::<V>()), pawns => None)
    }

    /// How many inputs the network has.
    pub fn inputs(&self) -> usize {
        self.bucket_inputs * self.buckets
    }

    /// How many inputs each king bucket has: input `i` is feature
    /// `i % bucket_inputs()` of bucket `i / bucket_inputs()`.
    pub fn bucket_inputs(&self) -> usize {
        self.bucket_inputs
    }

    /// Files (and ranks) of the board.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The most of `role` that a hand is counted to.
    pub fn hand_cap(&self, role: Role) -> u8 {
        self.hand_cap[role.index()]
    }

    /// How `perspective` sees the board while its king stands on `king`
    /// (`None`: it has none, as in a mate problem's attacker).
    pub fn view(&self, perspective: Color, king: Option<Square>) -> View {
        let last = self.size - 1;
        let (mirror, bucket) = match king {
            None => (false, 0),
            Some(king) => {
                let (file, depth) = orient(perspective, king, last);
                let mirror = file > last / 2;
                let file = if mirror { last - file } else { file };
                // 9x9: the two edge files, the next two, the centre file;
                // 5x5: each file from the edge to the centre.
                let file_zone = if self.size == 9 {
                    usize::from(file / 2)
                } else {
                    usize::from(file)
                };
                let rank_zone = usize::from(depth >= self.near_ranks());
                (mirror, rank_zone * FILE_ZONES + file_zone)
            }
        };
        View {
            perspective,
            mirror,
            base: bucket * self.bucket_inputs,
        }
    }

    /// The ranks from its own back rank within which a king counts as near
    /// home.
    fn near_ranks(&self) -> u8 {
        if self.size == 9 {
            2
        } else {
            1
        }
    }

    /// The input of `piece` on `square`, seen through `view`.
    #[inline]
    pub fn board_input(&self, view: View, piece: Piece, square: Square) -> usize {
        let last = self.size - 1;
        let (file, depth) = orient(view.perspective, square, last);
        let file = if view.mirror { last - file } else { file };
        let square = usize::from(file) * usize::from(self.size) + usize::from(depth);
        let side = usize::from(piece.color != view.perspective);
        let role = usize::from(self.board_role[piece.role.index()]);
        let squares = usize::from(self.size) * usize::from(self.size);
        view.base + (side * self.board_roles + role) * squares + square
    }

    /// The input "`color` holds at least `count` of `role`", seen through
    /// `view`; `None` past the count the game's pieces allow (or for a
    /// role no hand holds, such as a captured king in Spear).
    #[inline]
    pub fn hand_input(&self, view: View, color: Color, role: Role, count: u8) -> Option<usize> {
        if count == 0 || count > self.hand_cap[role.index()] {
            return None;
        }
        let squares = usize::from(self.size) * usize::from(self.size);
        let side = usize::from(color != view.perspective);
        Some(
            view.base
                + 2 * self.board_roles * squares
                + side * self.hand_inputs
                + usize::from(self.hand_offset[role.index()])
                + usize::from(count - 1),
        )
    }

    /// Every input that is on in `position` for `perspective`, into `out`.
    pub fn active<V: ShogiVariant>(
        &self,
        position: &ShogiPosition<V>,
        perspective: Color,
        out: &mut Vec<usize>,
    ) {
        out.clear();
        self.for_each_active(position, perspective, |input| out.push(input));
    }

    /// Calls `f` with every input that is on in `position` for
    /// `perspective`: each piece on the board, then each hand count.
    pub fn for_each_active<V: ShogiVariant>(
        &self,
        position: &ShogiPosition<V>,
        perspective: Color,
        mut f: impl FnMut(usize),
    ) {
        let view = self.view(perspective, king_of(position, perspective));
        for square in position.occupied() {
            if let Some(piece) = position.piece_at(square) {
                f(self.board_input(view, piece, square));
            }
        }
        for color in [Color::Sente, Color::Gote] {
            for (role, count) in position.hand(color).iter() {
                for k in 1..=count {
                    if let Some(input) = self.hand_input(view, color, role, k) {
                        f(input);
                    }
                }
            }
        }
    }
}

/// File zones of the king buckets (from the edge, after mirroring).
const FILE_ZONES: usize = 3;
/// Rank zones of the king buckets: near its back rank or not.
const RANK_ZONES: usize = 2;

/// How one side sees the board while its king stands where it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    perspective: Color,
    mirror: bool,
    /// The first input of the king's bucket.
    base: usize,
}

/// Views one side can have: each king bucket, mirrored or not.
pub(crate) const VIEWS: usize = 2 * FILE_ZONES * RANK_ZONES;

impl View {
    /// A number below [`VIEWS`] that tells the view apart from the other
    /// views of its side, in `layout`.
    pub(crate) fn index(&self, layout: &Layout) -> usize {
        2 * (self.base / layout.bucket_inputs) + usize::from(self.mirror)
    }
}

/// `square` seen by `perspective`: its file (0 at the perspective's right
/// edge) and its depth (0 on the perspective's own back rank).
#[inline]
fn orient(perspective: Color, square: Square, last: u8) -> (u8, u8) {
    match perspective {
        Color::Sente => (square.file(), last - square.rank()),
        Color::Gote => (last - square.file(), square.rank()),
    }
}

/// Where `color`'s king stands, if it has one on the board.
pub fn king_of<V: ShogiVariant>(position: &ShogiPosition<V>, color: Color) -> Option<Square> {
    position.pieces(color, Role::King).into_iter().next()
}
