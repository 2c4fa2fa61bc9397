//! A fixed integer action space for search and learning.
//!
//! An action is a tile type, one of its distinct (canonical) rotations, and a route cell:
//! `action = (ORIENTATION_BASE[tile] + rotation) * 54 + slot`, where `slot` is the cell's index
//! in [`ROUTE_CELLS`] (route cells sorted by `(q, r)`) and `ORIENTATION_BASE` = [0, 3, 4, 7, 13]
//! counts the distinct rotations of the types before (3, 1, 3, 6 and 2). So there are
//! [`ACTION_COUNT`] = 15 x 54 = 810 actions, equivalent rotations share one, and ascending
//! actions follow the order of [`crate::Position::legal_moves`].

use std::fmt;

use crate::board::{NO_SLOT, ROUTE_CELL_COUNT, ROUTE_CELLS, ROUTE_SLOT};
use crate::moves::Move;
use crate::tile::{Rotation, TILE_TYPE_COUNT, TileType};

/// Distinct (tile type, rotation) pairs.
pub const ORIENTATION_COUNT: usize = {
    let mut n = 0;
    let mut t = 0;
    while t < TILE_TYPE_COUNT {
        n += TileType::ALL[t].distinct_rotations() as usize;
        t += 1;
    }
    n
};

/// Number of distinct actions.
pub const ACTION_COUNT: usize = ORIENTATION_COUNT * ROUTE_CELL_COUNT;

/// `ORIENTATION_BASE[tile]`: the index of the type's rotation 0 among the orientations.
pub const ORIENTATION_BASE: [usize; TILE_TYPE_COUNT] = {
    let mut base = [0; TILE_TYPE_COUNT];
    let mut t = 1;
    while t < TILE_TYPE_COUNT {
        base[t] = base[t - 1] + TileType::ALL[t - 1].distinct_rotations() as usize;
        t += 1;
    }
    base
};

/// Each orientation's `(tile, rotation)`.
const ORIENTATIONS: [(TileType, u8); ORIENTATION_COUNT] = {
    let mut out = [(TileType::WideCurves, 0); ORIENTATION_COUNT];
    let mut t = 0;
    while t < TILE_TYPE_COUNT {
        let mut rho = 0;
        while rho < TileType::ALL[t].distinct_rotations() {
            out[ORIENTATION_BASE[t] + rho as usize] = (TileType::ALL[t], rho);
            rho += 1;
        }
        t += 1;
    }
    out
};

/// The first action of `tile` at canonical `rotation`; add the cell's slot.
#[inline]
pub(crate) const fn action_base(tile: TileType, rotation: u8) -> usize {
    (ORIENTATION_BASE[tile as usize] + rotation as usize) * ROUTE_CELL_COUNT
}

/// One of the [`ACTION_COUNT`] actions: a placement with the rotation made canonical.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Action(u16);

/// An integer that names no action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ActionOutOfRange(pub i64);

impl fmt::Display for ActionOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} is out of range: actions are 0..{}",
            self.0,
            ACTION_COUNT - 1
        )
    }
}

impl std::error::Error for ActionOutOfRange {}

impl Action {
    /// The action numbered `n`.
    ///
    /// # Errors
    /// If `n` is not below [`ACTION_COUNT`].
    #[inline]
    pub fn new(n: i64) -> Result<Action, ActionOutOfRange> {
        match u16::try_from(n) {
            Ok(v) if usize::from(v) < ACTION_COUNT => Ok(Action(v)),
            _ => Err(ActionOutOfRange(n)),
        }
    }

    /// The action numbered `index` (below [`ACTION_COUNT`]).
    #[inline]
    pub(crate) const fn from_index(index: usize) -> Action {
        debug_assert!(index < ACTION_COUNT);
        Action(index as u16)
    }

    /// Its number.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The placement this action plays (rotation canonical).
    #[inline]
    pub fn to_move(self) -> Move {
        let n = self.0 as usize;
        let (tile, rotation) = ORIENTATIONS[n / ROUTE_CELL_COUNT];
        Move {
            tile,
            rotation: Rotation::new(rotation).unwrap_or_else(|| unreachable!("below 6")),
            cell: ROUTE_CELLS[n % ROUTE_CELL_COUNT],
        }
    }

    /// The action of `mv` (its rotation made canonical); `None` if `mv` is not on a route cell.
    #[inline]
    pub fn from_move(mv: Move) -> Option<Action> {
        let slot = ROUTE_SLOT[mv.cell.index()];
        if slot == NO_SLOT {
            return None;
        }
        let mv = mv.canonical();
        Some(Action(
            (action_base(mv.tile, mv.rotation.get()) + slot as usize) as u16,
        ))
    }
}

impl From<Action> for Move {
    fn from(action: Action) -> Move {
        action.to_move()
    }
}

/// `BYTE_ENTRIES[byte]`: the eight mask entries a byte of an [`ActionSet`] stands for.
const BYTE_ENTRIES: [[bool; 8]; 256] = {
    let mut table = [[false; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            table[byte][bit] = byte >> bit & 1 == 1;
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// The set of legal actions as a bitset (bit `a` set when action `a` is legal).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ActionSet(pub(crate) [u64; ACTION_COUNT.div_ceil(64)]);

impl Default for ActionSet {
    fn default() -> Self {
        ActionSet([0; ACTION_COUNT.div_ceil(64)])
    }
}

impl ActionSet {
    /// Adds the actions `base + slot` for each set bit `slot` of `slots`.
    #[inline]
    pub(crate) fn insert_slots(&mut self, base: usize, slots: u64) {
        let (word, shift) = (base / 64, base % 64);
        self.0[word] |= slots << shift;
        if shift > 64 - ROUTE_CELL_COUNT && word + 1 < self.0.len() {
            self.0[word + 1] |= slots >> (64 - shift);
        }
    }

    /// Adds `action`.
    #[inline]
    pub fn insert(&mut self, action: Action) {
        self.0[action.index() / 64] |= 1 << (action.index() % 64);
    }

    /// Removes `action`.
    #[inline]
    pub fn remove(&mut self, action: Action) {
        self.0[action.index() / 64] &= !(1 << (action.index() % 64));
    }

    /// Whether `action` is in the set.
    #[inline]
    pub fn contains(&self, action: Action) -> bool {
        self.0[action.index() / 64] & (1 << (action.index() % 64)) != 0
    }

    /// How many actions the set holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The `k`-th action in ascending order (`k < len()`).
    #[inline]
    pub fn nth(&self, mut k: usize) -> Option<Action> {
        for (i, &word) in self.0.iter().enumerate() {
            let ones = word.count_ones() as usize;
            if k < ones {
                let mut w = word;
                for _ in 0..k {
                    w &= w - 1;
                }
                return Some(Action((i * 64 + w.trailing_zeros() as usize) as u16));
            }
            k -= ones;
        }
        None
    }

    /// The smallest and the largest action in the set, if any: the lowest set bit of the
    /// first word that has one and the highest of the last.
    #[inline]
    pub fn bounds(&self) -> Option<(Action, Action)> {
        let first = self.0.iter().position(|&w| w != 0)?;
        let last = self.0.iter().rposition(|&w| w != 0)?;
        let low = first * 64 + self.0[first].trailing_zeros() as usize;
        let high = last * 64 + 63 - self.0[last].leading_zeros() as usize;
        Some((Action(low as u16), Action(high as u16)))
    }

    /// Writes the set as a mask: `out[a]` is whether action `a` is in it (`out` holds
    /// [`ACTION_COUNT`] entries).
    pub fn write_mask(&self, out: &mut [bool]) {
        out.fill(false);
        self.mark_mask(out);
    }

    /// Sets `out[a]` for each action `a` in the set, leaving the other entries as they are.
    pub fn mark_mask(&self, out: &mut [bool]) {
        for a in self.iter() {
            out[a.index()] = true;
        }
    }

    /// Makes `out`, which holds `shown`'s mask, this set's mask: only the 64 entries of each
    /// word that differs between the two sets are written, 8 at a time from a table.
    #[inline]
    pub(crate) fn update_mask(&self, shown: &ActionSet, out: &mut [bool; ACTION_COUNT]) {
        let (words, tail) = out.as_chunks_mut::<64>();
        let pairs = self.0.iter().zip(&shown.0);
        for (entries, (&now, &before)) in words.iter_mut().zip(pairs.clone()) {
            if now != before {
                for (k, eight) in entries.as_chunks_mut::<8>().0.iter_mut().enumerate() {
                    *eight = BYTE_ENTRIES[usize::from((now >> (8 * k)) as u8)];
                }
            }
        }
        let (now, before) = (self.0[self.0.len() - 1], shown.0[self.0.len() - 1]);
        if now != before {
            for (k, entries) in tail.chunks_mut(8).enumerate() {
                let expanded = &BYTE_ENTRIES[usize::from((now >> (8 * k)) as u8)];
                entries.copy_from_slice(&expanded[..entries.len()]);
            }
        }
    }

    /// The actions in ascending order.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &word)| {
            let mut w = word;
            std::iter::from_fn(move || {
                (w != 0).then(|| {
                    let bit = w.trailing_zeros() as usize;
                    w &= w - 1;
                    Action((i * 64 + bit) as u16)
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::action::{ACTION_COUNT, Action};
    use crate::moves::Move;
    use crate::testing::random_positions;

    #[test]
    fn every_action_round_trips_through_its_move_and_text() {
        for n in 0..ACTION_COUNT {
            let action = Action::new(n as i64).unwrap();
            let mv = action.to_move();
            assert_eq!(mv, mv.canonical(), "action {n} names a canonical move");
            let text = mv.to_string();
            let parsed: Move = text.parse().unwrap();
            assert_eq!(Action::from_move(parsed), Some(action), "{text}");
        }
        assert_eq!(ACTION_COUNT, 810);
        assert!(Action::new(ACTION_COUNT as i64).is_err());
        assert!(Action::new(-1).is_err());
    }

    #[test]
    fn equivalent_rotations_share_one_action() {
        // Type 1 (three straights) looks the same after a half turn.
        let a: Move = "1@4:0,-3".parse().unwrap();
        let b: Move = "1@1:0,-3".parse().unwrap();
        assert_eq!(Action::from_move(a), Action::from_move(b));
        let c: Move = "0@0:0,0".parse().unwrap();
        assert_eq!(Action::from_move(c), None, "the centre is no route cell");
    }

    #[test]
    fn legal_actions_agree_with_the_legal_moves() {
        for p in random_positions(3) {
            let moves = p.legal_moves();
            let actions = p.legal_actions();
            let from_moves: Vec<Action> = moves
                .iter()
                .map(|&m| Action::from_move(m).unwrap())
                .collect();
            assert_eq!(actions, from_moves, "same actions, same order");
            let set = p.legal_action_set();
            assert_eq!(set.len(), actions.len());
            assert_eq!(set.iter().collect::<Vec<_>>(), actions);
            for (k, &a) in actions.iter().enumerate() {
                assert_eq!(set.nth(k), Some(a));
                assert!(set.contains(a));
                assert_eq!(p.check(a.to_move()), Ok(()));
            }
            assert_eq!(
                set.bounds(),
                actions.first().zip(actions.last()).map(|(&a, &b)| (a, b))
            );
        }
    }

    #[test]
    fn a_set_bounds_its_actions_across_its_words() {
        use crate::action::ActionSet;
        let mut set = ActionSet::default();
        assert_eq!(set.bounds(), None);
        for (low, high) in [(5, 5), (0, 809), (63, 64), (64, 700), (130, 191)] {
            set = ActionSet::default();
            set.insert(Action::from_index(high));
            set.insert(Action::from_index(low));
            let bounds = Some((Action::from_index(low), Action::from_index(high)));
            assert_eq!(set.bounds(), bounds, "{low} {high}");
        }
    }
}
