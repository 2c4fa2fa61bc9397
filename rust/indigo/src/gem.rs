//! Gems (docs/spec/RULES.md section 1).

use std::fmt;
use std::str::FromStr;

/// A gem colour. Points: amber 1, emerald 2, sapphire 3.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
#[repr(u8)]
pub enum Gem {
    /// Amber (Butterfly Garden: blue butterfly), 1 point.
    Amber = 0,
    /// Emerald (pink butterfly), 2 points.
    Emerald = 1,
    /// Sapphire (purple butterfly), 3 points.
    Sapphire = 2,
}

impl Gem {
    /// All colours in point order.
    pub const ALL: [Gem; 3] = [Gem::Amber, Gem::Emerald, Gem::Sapphire];

    /// Points for collecting one.
    #[inline]
    pub const fn points(self) -> u16 {
        self as u16 + 1
    }

    /// The format name: `"amber"`, `"emerald"` or `"sapphire"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Gem::Amber => "amber",
            Gem::Emerald => "emerald",
            Gem::Sapphire => "sapphire",
        }
    }

    /// Compact storage in a board slot: 0 is "no gem".
    #[inline]
    pub(crate) const fn to_slot(self) -> u8 {
        self as u8 + 1
    }

    /// Inverse of [`Gem::to_slot`] for a non-zero slot.
    #[inline]
    pub(crate) const fn from_slot(slot: u8) -> Gem {
        match slot {
            1 => Gem::Amber,
            2 => Gem::Emerald,
            _ => Gem::Sapphire,
        }
    }
}

impl fmt::Display for Gem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Gem {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Gem::ALL
            .into_iter()
            .find(|g| g.as_str() == s)
            .ok_or_else(|| format!("unknown gem {s:?}: expected amber, emerald or sapphire"))
    }
}
