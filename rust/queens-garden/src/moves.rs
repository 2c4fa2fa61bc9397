//! Moves and their notation (docs/spec/QUEENS_GARDEN.md section 15). Every value is kept in canonical
//! form, so two moves are equal exactly when their canonical notations are.

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Area, Cell};
use crate::kind::{Attribute, Kind};

/// A hexagon from storage used as a discard: a stored tile or a stored expansion (its printed
/// kind). Its **code** is `2 * kind id` (tile) or `2 * kind id + 1` (expansion), the order of
/// section 15.3.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Hexagon {
    /// A stored tile, written `KIND`.
    Tile(Kind),
    /// A stored expansion, written `KINDx`.
    Expansion(Kind),
}

impl Hexagon {
    /// The code `2 * kind + (1 for an expansion)`.
    #[inline]
    pub const fn code(self) -> u8 {
        match self {
            Hexagon::Tile(k) => 2 * k.id(),
            Hexagon::Expansion(k) => 2 * k.id() + 1,
        }
    }

    /// The hexagon with code `code` (0..71).
    pub const fn from_code(code: u8) -> Option<Hexagon> {
        match Kind::new(code / 2) {
            Some(k) if code.is_multiple_of(2) => Some(Hexagon::Tile(k)),
            Some(k) => Some(Hexagon::Expansion(k)),
            None => None,
        }
    }

    /// The kind it shows.
    #[inline]
    pub const fn kind(self) -> Kind {
        match self {
            Hexagon::Tile(k) | Hexagon::Expansion(k) => k,
        }
    }
}

impl fmt::Display for Hexagon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hexagon::Tile(k) => write!(f, "{k}"),
            Hexagon::Expansion(k) => write!(f, "{k}x"),
        }
    }
}

/// The most discards a payment has (a value-6 kind pays 5).
pub const MAX_PAYMENT: usize = 5;
/// The most hexagons a pass can discard (12 tile spaces and 2 expansion spaces).
pub const MAX_PASS_DISCARDS: usize = 14;

/// A payment (section 7.4): hexagons from storage (sorted by code) and a number of jokers.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[repr(align(8))]
pub struct Payment {
    codes: [u8; MAX_PAYMENT],
    len: u8,
    jokers: u8,
}

impl Payment {
    /// The empty payment (of a tree).
    pub const EMPTY: Payment = Payment {
        codes: [0; MAX_PAYMENT],
        len: 0,
        jokers: 0,
    };

    /// A payment of `hexagons` and `jokers`, `None` if it has more than 5 discards.
    pub fn new(hexagons: &[Hexagon], jokers: u8) -> Option<Payment> {
        if hexagons.len() + usize::from(jokers) > MAX_PAYMENT {
            return None;
        }
        let mut p = Payment {
            jokers,
            ..Payment::EMPTY
        };
        for h in hexagons {
            p.codes[usize::from(p.len)] = h.code();
            p.len += 1;
        }
        p.codes[..usize::from(p.len)].sort_unstable();
        Some(p)
    }

    /// From codes already sorted (internal: the generator).
    pub(crate) fn from_sorted_codes(codes: &[u8], jokers: u8) -> Payment {
        // Each of the five bytes on its own: a slice copy becomes a call to `memcpy`.
        Payment {
            codes: std::array::from_fn(|i| codes.get(i).copied().unwrap_or(0)),
            len: codes.len() as u8,
            jokers,
        }
    }

    /// From codes already sorted, hexagon `i` in byte `i` of `codes` (internal: the
    /// generator). The generator keeps its codes in one register: bytes set in memory one by
    /// one and then read as one payment stall the read (measured 1.11x slower a crowded list).
    #[inline]
    pub(crate) fn from_code_bytes(codes: u64, len: u8, jokers: u8) -> Payment {
        let b = codes.to_le_bytes();
        Payment {
            codes: [b[0], b[1], b[2], b[3], b[4]],
            len,
            jokers,
        }
    }

    /// The hexagon discards, canonical order.
    pub fn hexagons(&self) -> impl ExactSizeIterator<Item = Hexagon> + '_ {
        self.codes()
            .iter()
            .map(|&c| Hexagon::from_code(c).unwrap_or_else(|| unreachable!("codes are below 72")))
    }

    /// The hexagon codes, ascending.
    #[inline]
    pub fn codes(&self) -> &[u8] {
        &self.codes[..usize::from(self.len)]
    }

    /// The number of jokers.
    #[inline]
    pub const fn jokers(&self) -> u8 {
        self.jokers
    }

    /// Discards in all (hexagons and jokers).
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize + self.jokers as usize
    }

    /// Whether nothing is paid.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl fmt::Display for Payment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for h in self.hexagons() {
            write!(f, " {h}")?;
        }
        for _ in 0..self.jokers {
            f.write_str(" *")?;
        }
        Ok(())
    }
}

/// The hexagons a pass discards (section 9): a multiset, sorted by code.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Discards {
    codes: [u8; MAX_PASS_DISCARDS],
    len: u8,
}

impl Discards {
    /// No discard.
    pub const NONE: Discards = Discards {
        codes: [0; MAX_PASS_DISCARDS],
        len: 0,
    };

    /// The discards `hexagons`, `None` if more than 14.
    pub fn new(hexagons: &[Hexagon]) -> Option<Discards> {
        if hexagons.len() > MAX_PASS_DISCARDS {
            return None;
        }
        let mut d = Discards::NONE;
        for h in hexagons {
            d.codes[usize::from(d.len)] = h.code();
            d.len += 1;
        }
        d.codes[..usize::from(d.len)].sort_unstable();
        Some(d)
    }

    /// The hexagons, canonical order.
    pub fn hexagons(&self) -> impl ExactSizeIterator<Item = Hexagon> + '_ {
        self.codes()
            .iter()
            .map(|&c| Hexagon::from_code(c).unwrap_or_else(|| unreachable!("codes are below 72")))
    }

    /// The codes, ascending.
    #[inline]
    pub fn codes(&self) -> &[u8] {
        &self.codes[..usize::from(self.len)]
    }

    /// The number of hexagons.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether nothing is discarded.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// The copy choices of a `take` (section 6.2): one slot per ambiguous kind, sorted by kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Choices {
    /// `(kind id, slot)`, ascending by kind.
    items: [(u8, u8); 6],
    len: u8,
}

impl Choices {
    /// No copy choice.
    pub const NONE: Choices = Choices {
        items: [(0, 0); 6],
        len: 0,
    };

    /// Choices from `(kind, slot)` pairs, `None` if a kind repeats or there are more than 6.
    pub fn new(choices: &[(Kind, u8)]) -> Option<Choices> {
        if choices.len() > 6 {
            return None;
        }
        let mut c = Choices::NONE;
        for &(k, slot) in choices {
            c.items[usize::from(c.len)] = (k.id(), slot);
            c.len += 1;
        }
        let items = &mut c.items[..usize::from(c.len)];
        items.sort_unstable();
        if items.windows(2).any(|w| w[0].0 == w[1].0) {
            return None;
        }
        Some(c)
    }

    /// The `(kind, slot)` pairs, ascending by kind.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Kind, u8)> + '_ {
        self.items[..usize::from(self.len)]
            .iter()
            .map(|&(k, s)| (Kind::new(k).unwrap_or_else(|| unreachable!()), s))
    }

    /// The slot chosen for `kind`.
    pub fn slot_of(&self, kind: Kind) -> Option<u8> {
        self.items[..usize::from(self.len)]
            .iter()
            .find(|&&(k, _)| k == kind.id())
            .map(|&(_, s)| s)
    }

    /// The number of choices.
    #[inline]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether there is no choice.
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, kind: Kind, slot: u8) {
        self.items[usize::from(self.len)] = (kind.id(), slot);
        self.len += 1;
    }
}

/// A move (section 5): one action. Values are canonical (lists sorted), so `==` is equality
/// of canonical notation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Action A: name an attribute, take one hexagon of each selected kind.
    Take {
        /// The attribute named.
        attribute: Attribute,
        /// The slot chosen for each ambiguous kind.
        choices: Choices,
    },
    /// Action B: place a stored tile on a free space and pay for it.
    Tile {
        /// The tile's kind.
        kind: Kind,
        /// The free space.
        cell: Cell,
        /// The discards.
        payment: Payment,
    },
    /// Action C: place a stored expansion face up, its printed hexagon on `cell`.
    Exp {
        /// The expansion's printed kind.
        kind: Kind,
        /// The petal getting the printed hexagon (names the area and the orientation).
        cell: Cell,
        /// The discards.
        payment: Payment,
    },
    /// Action C: buy a face-down expansion from the supply for 6 points and place it.
    Buy {
        /// The free area.
        area: Area,
    },
    /// Action D: pass, discarding hexagons from storage.
    Pass {
        /// The discarded hexagons.
        discards: Discards,
    },
}

/// Why a string is not a move (section 15.1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveParseError {
    /// Empty text.
    Empty,
    /// Leading, trailing or repeated spaces, or a character other than a space between tokens.
    Spacing,
    /// The first token names no action.
    UnknownAction(String),
    /// A token the head needs is missing, e.g. the attribute of `take`.
    Missing(&'static str),
    /// A token is not what its place requires.
    BadToken {
        /// The token.
        token: String,
        /// What was expected there.
        expected: &'static str,
    },
    /// A copy choice names a kind twice.
    RepeatedChoice(Kind),
    /// A copy choice names a kind the attribute does not select.
    ChoiceOffAttribute {
        /// The kind.
        kind: Kind,
        /// The attribute named.
        attribute: Attribute,
    },
    /// A payment lists the wrong number of discards.
    DiscardCount {
        /// The placed kind.
        kind: Kind,
        /// `value - 1`.
        needed: usize,
        /// How many were given.
        given: usize,
    },
    /// More than 14 hexagons in a pass.
    TooManyDiscards(usize),
    /// A token after a head that takes none (`buy AREA`).
    Extra(String),
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Empty => f.write_str("a move cannot be empty"),
            MoveParseError::Spacing => f.write_str(
                "tokens must be separated by single spaces, with no leading or trailing space",
            ),
            MoveParseError::UnknownAction(t) => {
                write!(f, "{t:?} is not an action (take, tile, exp, buy or pass)")
            }
            MoveParseError::Missing(what) => write!(f, "{what} is missing"),
            MoveParseError::BadToken { token, expected } => {
                write!(f, "{token:?} is not {expected}")
            }
            MoveParseError::RepeatedChoice(k) => write!(f, "the copy choice of {k} is repeated"),
            MoveParseError::ChoiceOffAttribute { kind, attribute } => write!(
                f,
                "{kind} does not show {attribute}, so it cannot have a copy choice"
            ),
            MoveParseError::DiscardCount {
                kind,
                needed,
                given,
            } => write!(
                f,
                "{kind} needs exactly {needed} discards (value - 1), not {given}"
            ),
            MoveParseError::TooManyDiscards(n) => write!(
                f,
                "a pass discards at most {MAX_PASS_DISCARDS} hexagons, not {n}"
            ),
            MoveParseError::Extra(t) => write!(f, "unexpected token {t:?}"),
        }
    }
}

impl std::error::Error for MoveParseError {}

fn token<T: FromStr>(text: Option<&str>, what: &'static str) -> Result<T, MoveParseError> {
    let t = text.ok_or(MoveParseError::Missing(what))?;
    t.parse().map_err(|_| MoveParseError::BadToken {
        token: t.to_owned(),
        expected: what,
    })
}

/// A discard token: `KIND`, `KINDx` or `*` (`None`).
fn discard(t: &str, jokers_allowed: bool) -> Result<Option<Hexagon>, MoveParseError> {
    let expected = if jokers_allowed {
        "a discard (KIND, KINDx or *)"
    } else {
        "a discard (KIND or KINDx)"
    };
    let bad = || MoveParseError::BadToken {
        token: t.to_owned(),
        expected,
    };
    if t == "*" {
        return if jokers_allowed { Ok(None) } else { Err(bad()) };
    }
    if let Some(k) = t.strip_suffix('x') {
        return k
            .parse()
            .map(|k| Some(Hexagon::Expansion(k)))
            .map_err(|_| bad());
    }
    t.parse().map(|k| Some(Hexagon::Tile(k))).map_err(|_| bad())
}

/// A slot number: decimal, no leading zeros.
fn slot(t: &str) -> Option<u8> {
    if t.is_empty() || (t.len() > 1 && t.starts_with('0')) || !t.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    t.parse().ok()
}

impl Move {
    /// Reads a move in the notation of section 15.1: the tokens after the fixed head in any
    /// order. Parsing checks the notation only; legality is the position's business.
    ///
    /// # Errors
    /// What is wrong with the text.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        if text.is_empty() {
            return Err(MoveParseError::Empty);
        }
        let tokens: Vec<&str> = text.split(' ').collect();
        if tokens.iter().any(|t| t.is_empty()) {
            return Err(MoveParseError::Spacing);
        }
        let mut it = tokens.into_iter();
        let action = it.next().unwrap_or_default();
        match action {
            "take" => {
                let attribute: Attribute =
                    token(it.next(), "an attribute (bl ye lg dg lp dp or 1..6)")?;
                let mut choices = Choices::NONE;
                for t in it {
                    let bad = || MoveParseError::BadToken {
                        token: t.to_owned(),
                        expected: "a copy choice KIND@SLOT",
                    };
                    let (k, s) = t.split_once('@').ok_or_else(bad)?;
                    let kind: Kind = k.parse().map_err(|_| bad())?;
                    let s = slot(s).ok_or_else(bad)?;
                    if !kind.shows(attribute) {
                        return Err(MoveParseError::ChoiceOffAttribute { kind, attribute });
                    }
                    if choices.slot_of(kind).is_some() {
                        return Err(MoveParseError::RepeatedChoice(kind));
                    }
                    choices.push(kind, s);
                }
                let n = choices.len();
                choices.items[..n].sort_unstable();
                Ok(Move::Take { attribute, choices })
            }
            "tile" | "exp" => {
                let kind: Kind = token(it.next(), "a kind (bl1..dp6)")?;
                let cell: Cell = token(it.next(), "a cell (f0..f5, a0c..a5c, a00..a55)")?;
                let mut hexagons = Vec::with_capacity(MAX_PAYMENT);
                let mut jokers = 0usize;
                for t in it {
                    match discard(t, true)? {
                        Some(h) => hexagons.push(h),
                        None => jokers += 1,
                    }
                }
                let needed = usize::from(kind.value().get() - 1);
                let given = hexagons.len() + jokers;
                if given != needed {
                    return Err(MoveParseError::DiscardCount {
                        kind,
                        needed,
                        given,
                    });
                }
                let payment = Payment::new(&hexagons, jokers as u8)
                    .unwrap_or_else(|| unreachable!("at most 5 discards"));
                Ok(if action == "tile" {
                    Move::Tile {
                        kind,
                        cell,
                        payment,
                    }
                } else {
                    Move::Exp {
                        kind,
                        cell,
                        payment,
                    }
                })
            }
            "buy" => {
                let area: Area = token(it.next(), "an area (a0..a5)")?;
                match it.next() {
                    Some(t) => Err(MoveParseError::Extra(t.to_owned())),
                    None => Ok(Move::Buy { area }),
                }
            }
            "pass" => {
                let hexagons = it
                    .map(|t| discard(t, false).map(|h| h.unwrap_or_else(|| unreachable!())))
                    .collect::<Result<Vec<Hexagon>, _>>()?;
                let discards = Discards::new(&hexagons)
                    .ok_or(MoveParseError::TooManyDiscards(hexagons.len()))?;
                Ok(Move::Pass { discards })
            }
            other => Err(MoveParseError::UnknownAction(other.to_owned())),
        }
    }

    /// `pass` without discards.
    pub const PASS: Move = Move::Pass {
        discards: Discards::NONE,
    };

    /// The action's rank in the legal-move order: take 0, tile 1, exp 2, buy 3, pass 4.
    pub const fn action_rank(&self) -> u8 {
        match self {
            Move::Take { .. } => 0,
            Move::Tile { .. } => 1,
            Move::Exp { .. } => 2,
            Move::Buy { .. } => 3,
            Move::Pass { .. } => 4,
        }
    }
}

impl FromStr for Move {
    type Err = MoveParseError;

    fn from_str(s: &str) -> Result<Move, MoveParseError> {
        Move::parse(s)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Take { attribute, choices } => {
                write!(f, "take {attribute}")?;
                for (k, s) in choices.iter() {
                    write!(f, " {k}@{s}")?;
                }
                Ok(())
            }
            Move::Tile {
                kind,
                cell,
                payment,
            } => write!(f, "tile {kind} {cell}{payment}"),
            Move::Exp {
                kind,
                cell,
                payment,
            } => write!(f, "exp {kind} {cell}{payment}"),
            Move::Buy { area } => write!(f, "buy {area}"),
            Move::Pass { discards } => {
                f.write_str("pass")?;
                for h in discards.hexagons() {
                    write!(f, " {h}")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Move::parse(s).unwrap().to_string()
    }

    #[test]
    fn free_order_reads_to_the_canonical_form() {
        assert_eq!(canon("tile bl3 f0 * ye3"), "tile bl3 f0 ye3 *");
        assert_eq!(canon("tile bl3 f0 dg3 ye3x"), "tile bl3 f0 ye3x dg3");
        assert_eq!(canon("pass dg4x bl1 bl1"), "pass bl1 bl1 dg4x");
        assert_eq!(canon("pass bl1x bl1"), "pass bl1 bl1x");
        assert_eq!(canon("take 2 lg2@1 ye2@0"), "take 2 ye2@0 lg2@1");
        assert_eq!(canon("exp lg1 a03"), "exp lg1 a03");
        assert_eq!(canon("buy a2"), "buy a2");
        assert_eq!(canon("take 1 lg1@12"), "take 1 lg1@12");
        assert_eq!(
            Move::parse("tile bl3 f0 * ye3"),
            Move::parse("tile bl3 f0 ye3 *")
        );
    }

    #[test]
    fn anything_else_is_not_a_move() {
        let cases: [(&str, MoveParseError); 14] = [
            ("", MoveParseError::Empty),
            (" take bl", MoveParseError::Spacing),
            ("take bl ", MoveParseError::Spacing),
            ("take  bl", MoveParseError::Spacing),
            ("TAKE bl", MoveParseError::UnknownAction("TAKE".into())),
            (
                "take",
                MoveParseError::Missing("an attribute (bl ye lg dg lp dp or 1..6)"),
            ),
            (
                "take 2 ye2@0 ye2@1",
                MoveParseError::RepeatedChoice("ye2".parse().unwrap()),
            ),
            (
                "take 2 ye3@0",
                MoveParseError::ChoiceOffAttribute {
                    kind: "ye3".parse().unwrap(),
                    attribute: "2".parse().unwrap(),
                },
            ),
            (
                "take 2 ye2@01",
                MoveParseError::BadToken {
                    token: "ye2@01".into(),
                    expected: "a copy choice KIND@SLOT",
                },
            ),
            (
                "tile bl3 f0 ye3",
                MoveParseError::DiscardCount {
                    kind: "bl3".parse().unwrap(),
                    needed: 2,
                    given: 1,
                },
            ),
            (
                "pass *",
                MoveParseError::BadToken {
                    token: "*".into(),
                    expected: "a discard (KIND or KINDx)",
                },
            ),
            ("buy a2 a3", MoveParseError::Extra("a3".into())),
            (
                "tile bl3 f6 * *",
                MoveParseError::BadToken {
                    token: "f6".into(),
                    expected: "a cell (f0..f5, a0c..a5c, a00..a55)",
                },
            ),
            (
                "pass bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1 bl1",
                MoveParseError::TooManyDiscards(15),
            ),
        ];
        for (text, want) in cases {
            assert_eq!(Move::parse(text), Err(want), "{text:?}");
        }
        for text in ["take bl\t", "tile Bl3 f0 * *", "take x", "pass\n", "buy a6"] {
            assert!(Move::parse(text).is_err(), "{text:?}");
        }
    }
}
