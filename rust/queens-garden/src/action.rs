//! A fixed integer action space for search and learning: every move of the legal-move list
//! (section 15.3) is one integer below [`ACTION_COUNT`], the same in every position, and
//! ascending actions follow the canonical order of the list.
//!
//! Blocks, in this order (`P` = [`PAYMENT_COUNT`] = 485):
//!
//! * `take`: `attribute * 9^6 + sum(d_i * 9^(5 - i))` where `i` runs over the attribute's six
//!   kinds in kind-id order and `d_i` is `1 + slot` when the move chooses a slot for that kind,
//!   else 0 ([`TAKE_COUNT`] = 12 x 9^6 actions);
//! * `tile`: `TAKE_COUNT + (kind * 48 + cell) * P + payment` ([`TILE_COUNT`] = 36 x 48 x P);
//! * `exp`: the same after the `tile` block, `cell` being the petal of the printed hexagon;
//! * `buy`: then one action per area 0..5;
//! * `pass`: the last action (without discards; a pass with discards has no action, as it
//!   has no entry in the legal-move list).
//!
//! `payment` is the payment's rank among all payments a kind of that value could ever make
//! ([`payments`]), ascending by the number of jokers, then by the discards' codes compared
//! element by element (the order of 15.3); a tree has one payment (rank 0).

use std::fmt;
use std::sync::OnceLock;

use crate::geometry::{Area, CELL_COUNT, Cell};
use crate::kind::{Attribute, KIND_COUNT, Kind};
use crate::moves::{Choices, MAX_PAYMENT, Move, Payment};

/// Digits of a `take`'s choices: 0 (no choice) or 1 + a slot 0..7.
const CHOICE_RADIX: u32 = 9;
/// `take` actions.
pub const TAKE_COUNT: u32 = 12 * CHOICE_RADIX.pow(6);
/// The most payments of one kind (a value-6 kind: all jokers, or 1..5 discards of one colour
/// or one pattern, each a tile or a stored expansion).
pub const PAYMENT_COUNT: u32 = 485;
/// `tile` actions (and `exp` actions).
pub const TILE_COUNT: u32 = (KIND_COUNT * CELL_COUNT) as u32 * PAYMENT_COUNT;
const TILE_BASE: u32 = TAKE_COUNT;
const EXP_BASE: u32 = TILE_BASE + TILE_COUNT;
const BUY_BASE: u32 = EXP_BASE + TILE_COUNT;
const PASS_ACTION: u32 = BUY_BASE + 6;
/// Number of distinct actions.
pub const ACTION_COUNT: u32 = PASS_ACTION + 1;

/// A payment as `(jokers, codes)`: the sort key of 15.3.
type PaymentKey = (u8, Vec<u8>);

/// Every payment a kind could make, ascending (the table behind the `payment` rank).
pub fn payments(kind: Kind) -> &'static [Payment] {
    static TABLE: OnceLock<Vec<Vec<Payment>>> = OnceLock::new();
    &TABLE.get_or_init(|| Kind::all().map(all_payments).collect())[usize::from(kind.id())]
}

fn all_payments(kind: Kind) -> Vec<Payment> {
    let need = usize::from(kind.value().get() - 1);
    let mut keys: Vec<PaymentKey> = vec![(need as u8, Vec::new())];
    let colour: Vec<Kind> = Kind::all()
        .filter(|k| k.colour() == kind.colour() && *k != kind)
        .collect();
    let pattern: Vec<Kind> = Kind::all()
        .filter(|k| k.value() == kind.value() && *k != kind)
        .collect();
    for group in [colour, pattern] {
        // Each of the 5 kinds is absent, a tile (code 2 id) or an expansion (code 2 id + 1).
        for digits in 0..3u32.pow(5) {
            let mut codes = Vec::new();
            let mut d = digits;
            for k in &group {
                match d % 3 {
                    1 => codes.push(2 * k.id()),
                    2 => codes.push(2 * k.id() + 1),
                    _ => {}
                }
                d /= 3;
            }
            if !codes.is_empty() && codes.len() <= need {
                codes.sort_unstable();
                keys.push(((need - codes.len()) as u8, codes));
            }
        }
    }
    keys.sort();
    keys.dedup();
    keys.iter()
        .map(|(jokers, codes)| Payment::from_sorted_codes(codes, *jokers))
        .collect()
}

/// One of the [`ACTION_COUNT`] actions.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Action(u32);

/// An integer that names no action.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ActionOutOfRange(pub i64);

impl fmt::Display for ActionOutOfRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "action {} names no move: actions are 0..{} and each names one move of the \
             fixed encoding (docs/queens-garden.md)",
            self.0,
            ACTION_COUNT - 1
        )
    }
}

impl std::error::Error for ActionOutOfRange {}

impl Action {
    /// The pass without discards.
    pub const PASS: Action = Action(PASS_ACTION);

    /// The action numbered `n`, if it names a move.
    ///
    /// # Errors
    /// If `n` is not below [`ACTION_COUNT`] or names no move (an unused code of the blocks).
    pub fn new(n: i64) -> Result<Action, ActionOutOfRange> {
        u32::try_from(n)
            .ok()
            .filter(|&v| v < ACTION_COUNT)
            .map(Action)
            .filter(|a| a.decode().is_some())
            .ok_or(ActionOutOfRange(n))
    }

    /// Its number.
    #[inline]
    pub const fn index(self) -> u32 {
        self.0
    }

    /// The action of `mv`; `None` for a pass with discards.
    pub fn from_move(mv: &Move) -> Option<Action> {
        Some(Action(match *mv {
            Move::Take { attribute, choices } => {
                let mut n = u32::from(attribute.index());
                for k in attribute.kinds() {
                    n = n * CHOICE_RADIX + choices.slot_of(k).map_or(0, |s| 1 + u32::from(s));
                }
                n
            }
            Move::Tile {
                kind,
                cell,
                payment,
            } => TILE_BASE + placement(kind, cell, payment)?,
            Move::Exp {
                kind,
                cell,
                payment,
            } => EXP_BASE + placement(kind, cell, payment)?,
            Move::Buy { area } => BUY_BASE + u32::from(area.index()),
            Move::Pass { discards } if discards.is_empty() => PASS_ACTION,
            Move::Pass { .. } => return None,
        }))
    }

    /// The move this action names.
    #[inline]
    pub fn to_move(self) -> Move {
        self.decode().unwrap_or(Move::PASS)
    }

    fn decode(self) -> Option<Move> {
        let n = self.0;
        if n < TILE_BASE {
            let attribute = Attribute::new((n / CHOICE_RADIX.pow(6)) as u8)?;
            let mut choices = Vec::new();
            for (i, k) in attribute.kinds().enumerate() {
                let d = n / CHOICE_RADIX.pow(5 - i as u32) % CHOICE_RADIX;
                if d > 0 {
                    choices.push((k, (d - 1) as u8));
                }
            }
            let choices = Choices::new(&choices)?;
            return Some(Move::Take { attribute, choices });
        }
        if n < BUY_BASE {
            let exp = n >= EXP_BASE;
            let m = n - if exp { EXP_BASE } else { TILE_BASE };
            let rank = (m % PAYMENT_COUNT) as usize;
            let place = m / PAYMENT_COUNT;
            let kind = Kind::new((place / CELL_COUNT as u32) as u8)?;
            let cell = Cell::new((place % CELL_COUNT as u32) as u8)?;
            let payment = *payments(kind).get(rank)?;
            return Some(if exp {
                Move::Exp {
                    kind,
                    cell,
                    payment,
                }
            } else {
                Move::Tile {
                    kind,
                    cell,
                    payment,
                }
            });
        }
        if n < PASS_ACTION {
            return Some(Move::Buy {
                area: Area::new((n - BUY_BASE) as u8)?,
            });
        }
        (n == PASS_ACTION).then_some(Move::PASS)
    }
}

/// A payment's sort key as one integer: the jokers, then each code plus 1 (0 past the last
/// code), most significant first, so that integers compare as the keys do.
fn payment_key(payment: Payment) -> u64 {
    let mut key = u64::from(payment.jokers());
    for i in 0..MAX_PAYMENT {
        key = key << 8 | payment.codes().get(i).map_or(0, |&c| u64::from(c) + 1);
    }
    key
}

/// [`payments`] as [`payment_key`]s, ascending.
fn payment_keys(kind: Kind) -> &'static [u64] {
    static TABLE: OnceLock<Vec<Vec<u64>>> = OnceLock::new();
    &TABLE.get_or_init(|| {
        Kind::all()
            .map(|k| payments(k).iter().copied().map(payment_key).collect())
            .collect()
    })[usize::from(kind.id())]
}

/// `(kind * 48 + cell) * P + rank`, if the payment is one the kind could make.
fn placement(kind: Kind, cell: Cell, payment: Payment) -> Option<u32> {
    let rank = payment_keys(kind)
        .binary_search(&payment_key(payment))
        .ok()?;
    let place = u32::from(kind.id()) * CELL_COUNT as u32 + u32::from(cell.index());
    Some(place * PAYMENT_COUNT + rank as u32)
}

const _: () = assert!(MAX_PAYMENT == 5);
