//! Rules configuration: players, the scoring wheel and the joker rewards (docs/spec/QUEENS_GARDEN.md
//! sections 4, 7.5, 10; docs/spec/QG_FORMATS.md `rules`).

use std::fmt;

use crate::geometry::ElementKind;
use crate::kind::Attribute;

/// The most seats a game has.
pub const MAX_PLAYERS: usize = 4;

/// The scoring wheel: three different categories for each of the four rounds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Wheel([[Attribute; 3]; 4]);

const fn attr(i: u8) -> Attribute {
    match Attribute::new(i) {
        Some(a) => a,
        None => panic!("attribute index out of range"),
    }
}

impl Wheel {
    /// The default wheel, a PLACEHOLDER, not the printed wheel (ruling R3; no public source
    /// lists the printed one): round 1 `bl dg 1`, 2 `ye 2 3`, 3 `lg lp 4`, 4 `dp 5 6`.
    pub const PLACEHOLDER: Wheel = Wheel([
        [attr(0), attr(3), attr(6)],
        [attr(1), attr(7), attr(8)],
        [attr(2), attr(4), attr(9)],
        [attr(5), attr(10), attr(11)],
    ]);

    /// A wheel from its rounds.
    ///
    /// # Errors
    /// If a round repeats a category.
    pub fn new(rounds: [[Attribute; 3]; 4]) -> Result<Wheel, RulesError> {
        for (i, [a, b, c]) in rounds.iter().enumerate() {
            if a == b || a == c || b == c {
                return Err(RulesError::WheelRepeats { round: i as u8 + 1 });
            }
        }
        Ok(Wheel(rounds))
    }

    /// A wheel from the names of each round's categories (`bl` .. `dp`, `1` .. `6`).
    ///
    /// # Errors
    /// Not 4 rounds of 3, an unknown name, or a round that repeats a category; said for a
    /// person, starting with `wheel:`.
    pub fn from_names<S: AsRef<str>>(given: &[Vec<S>]) -> Result<Wheel, String> {
        let shape = || {
            format!(
                "wheel: must be 4 rounds of 3 categories each, not {} rounds of {:?}",
                given.len(),
                given.iter().map(Vec::len).collect::<Vec<_>>()
            )
        };
        let category = |name: &S| {
            name.as_ref()
                .parse::<Attribute>()
                .map_err(|e| format!("wheel: {e}"))
        };
        let rounds = given
            .iter()
            .map(|round| match round.as_slice() {
                [a, b, c] => Ok([category(a)?, category(b)?, category(c)?]),
                _ => Err(shape()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let rounds: [[Attribute; 3]; 4] = rounds.try_into().map_err(|_| shape())?;
        Wheel::new(rounds).map_err(|e| e.to_string())
    }

    /// The categories of `round` (1..4).
    pub fn round(&self, round: u8) -> [Attribute; 3] {
        self.0[usize::from(round.clamp(1, 4) - 1)]
    }

    /// All four rounds.
    pub const fn rounds(&self) -> [[Attribute; 3]; 4] {
        self.0
    }
}

impl Default for Wheel {
    fn default() -> Wheel {
        Wheel::PLACEHOLDER
    }
}

/// The jokers each element pays when surrounded (section 7.5, ruling R2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Jokers {
    /// The fountain.
    pub fountain: u8,
    /// Each statue (`d0 d2 d4`).
    pub statue: u8,
    /// Each bench (`d1 d3 d5`).
    pub bench: u8,
    /// Each pavilion.
    pub pavilion: u8,
}

impl Jokers {
    /// The default table: fountain 1, statue 2, bench 2, pavilion 3.
    pub const DEFAULT: Jokers = Jokers {
        fountain: 1,
        statue: 2,
        bench: 2,
        pavilion: 3,
    };

    /// The most jokers one element may pay.
    pub const MAX: u8 = 12;

    /// The elements in the order of the record format.
    pub const ELEMENTS: [&str; 4] = ["fountain", "statue", "bench", "pavilion"];

    /// A table from `(element, jokers)` pairs that name each of [`Jokers::ELEMENTS`] once.
    ///
    /// # Errors
    /// A missing or unknown element, or a count out of `0..=MAX`; said for a person.
    pub fn from_table<'a>(
        table: impl IntoIterator<Item = (&'a str, i64)>,
    ) -> Result<Jokers, String> {
        let mut values: [Option<u8>; 4] = [None; 4];
        for (element, n) in table {
            let slot = Jokers::ELEMENTS
                .iter()
                .position(|&e| e == element)
                .ok_or_else(|| {
                    format!(
                        "jokers: {element:?} is not an element (fountain, statue, bench, pavilion)"
                    )
                })?;
            let value = u8::try_from(n)
                .ok()
                .filter(|&v| v <= Jokers::MAX)
                .ok_or_else(|| {
                    format!("the {element} must pay 0..{} jokers, not {n}", Jokers::MAX)
                })?;
            values[slot] = Some(value);
        }
        let mut out = [0u8; 4];
        for ((value, given), element) in out.iter_mut().zip(values).zip(Jokers::ELEMENTS) {
            *value = given.ok_or_else(|| {
                format!(
                    "jokers: must give exactly {:?}, and {element:?} is missing",
                    Jokers::ELEMENTS
                )
            })?;
        }
        let [fountain, statue, bench, pavilion] = out;
        Ok(Jokers {
            fountain,
            statue,
            bench,
            pavilion,
        })
    }

    /// The reward of an element of `kind`.
    pub const fn reward(&self, kind: ElementKind) -> u8 {
        match kind {
            ElementKind::Fountain => self.fountain,
            ElementKind::Statue => self.statue,
            ElementKind::Bench => self.bench,
            ElementKind::Pavilion => self.pavilion,
        }
    }
}

impl Default for Jokers {
    fn default() -> Jokers {
        Jokers::DEFAULT
    }
}

/// A rules configuration that was checked on construction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    players: u8,
    wheel: Wheel,
    jokers: Jokers,
}

/// Why a rules configuration is not valid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RulesError {
    /// Players must be 2, 3 or 4.
    Players(u8),
    /// A round of the wheel names a category twice.
    WheelRepeats {
        /// The round 1..4.
        round: u8,
    },
    /// An element pays more than [`Jokers::MAX`].
    Jokers {
        /// `fountain`, `statue`, `bench` or `pavilion`.
        element: &'static str,
        /// The value given.
        value: u8,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Players(n) => write!(f, "players must be 2, 3 or 4, not {n}"),
            RulesError::WheelRepeats { round } => {
                write!(f, "round {round} of the wheel names a category twice")
            }
            RulesError::Jokers { element, value } => write!(
                f,
                "the {element} must pay 0..{} jokers, not {value}",
                Jokers::MAX
            ),
        }
    }
}

impl Default for Rules {
    /// Two players, the default wheel and joker table: what a game gets when given no rules.
    fn default() -> Rules {
        Rules {
            players: Rules::DEFAULT_PLAYERS,
            wheel: Wheel::PLACEHOLDER,
            jokers: Jokers::DEFAULT,
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// Seats of the rules a caller gives no count for.
    pub const DEFAULT_PLAYERS: u8 = 2;

    /// Checked rules.
    ///
    /// # Errors
    /// If `players` is not 2..4 or a joker reward exceeds [`Jokers::MAX`] (a [`Wheel`] is valid
    /// by construction).
    pub fn new(players: u8, wheel: Wheel, jokers: Jokers) -> Result<Rules, RulesError> {
        if !(2..=4).contains(&players) {
            return Err(RulesError::Players(players));
        }
        for (element, value) in [
            ("fountain", jokers.fountain),
            ("statue", jokers.statue),
            ("bench", jokers.bench),
            ("pavilion", jokers.pavilion),
        ] {
            if value > Jokers::MAX {
                return Err(RulesError::Jokers { element, value });
            }
        }
        Ok(Rules {
            players,
            wheel,
            jokers,
        })
    }

    /// `players` seats with the default rules: [`Wheel::PLACEHOLDER`] (a PLACEHOLDER, not the
    /// printed wheel, which no public source lists) and [`Jokers::DEFAULT`].
    ///
    /// # Errors
    /// If `players` is not 2..4.
    pub fn with_players(players: u8) -> Result<Rules, RulesError> {
        Rules::new(players, Wheel::PLACEHOLDER, Jokers::DEFAULT)
    }

    /// The number of seats.
    #[inline]
    pub const fn players(&self) -> u8 {
        self.players
    }

    /// The scoring wheel.
    #[inline]
    pub const fn wheel(&self) -> &Wheel {
        &self.wheel
    }

    /// The joker rewards.
    #[inline]
    pub const fn jokers(&self) -> &Jokers {
        &self.jokers
    }

    /// The round stack size `S`: 5, 7 or 8 for 2, 3 or 4 players.
    #[inline]
    pub const fn stack_size(&self) -> u8 {
        match self.players {
            2 => 5,
            3 => 7,
            _ => 8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wheel_from_names() {
        let names = [
            ["bl", "dg", "1"],
            ["ye", "2", "3"],
            ["lg", "lp", "4"],
            ["dp", "5", "6"],
        ];
        let given: Vec<Vec<&str>> = names.iter().map(|r| r.to_vec()).collect();
        assert_eq!(Wheel::from_names(&given), Ok(Wheel::PLACEHOLDER));
        let err = |given: &[Vec<&str>]| Wheel::from_names(given).unwrap_err();
        assert!(err(&given[..3]).contains("not 3 rounds of [3, 3, 3]"));
        assert!(err(&vec![vec!["bl", "ye"]; 4]).contains("4 rounds of 3"));
        assert!(err(&vec![vec!["bl", "xx", "1"]; 4]).starts_with("wheel: "));
        assert!(err(&vec![vec!["bl", "bl", "1"]; 4]).contains("round 1"));
    }

    #[test]
    fn the_default_rules_are_two_players() {
        assert_eq!(Rules::default(), Rules::with_players(2).unwrap());
    }

    #[test]
    fn jokers_from_a_table() {
        let table = [
            ("pavilion", 3),
            ("fountain", 1),
            ("bench", 2),
            ("statue", 2),
        ];
        assert_eq!(Jokers::from_table(table), Ok(Jokers::DEFAULT));
        let err = |t: &[(&str, i64)]| Jokers::from_table(t.iter().copied()).unwrap_err();
        assert!(err(&table[..3]).contains("\"statue\" is missing"));
        assert!(err(&[("fountain", 1), ("swing", 1)]).contains("\"swing\" is not an element"));
        assert!(err(&[("fountain", 13)]).contains("the fountain must pay 0..12 jokers, not 13"));
        assert!(err(&[("fountain", -1)]).contains("not -1"));
    }
}
