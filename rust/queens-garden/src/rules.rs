//! Rules configuration: players, the scoring wheel and the joker rewards (QUEENS_GARDEN.md
//! sections 4, 7.5, 10; QG_FORMATS.md `rules`).

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

impl std::error::Error for RulesError {}

impl Rules {
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
