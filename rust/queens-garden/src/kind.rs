//! Colours, pattern values, hexagon kinds and attributes (docs/spec/QUEENS_GARDEN.md section 1).

use std::fmt;
use std::str::FromStr;

/// The six colours in their fixed order.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Colour {
    /// `bl`
    Blue,
    /// `ye`
    Yellow,
    /// `lg`
    LightGreen,
    /// `dg`
    DarkGreen,
    /// `lp`
    LightPurple,
    /// `dp`
    DarkPurple,
}

const COLOUR_CODES: [&str; 6] = ["bl", "ye", "lg", "dg", "lp", "dp"];

impl Colour {
    /// All colours, index order.
    pub const ALL: [Colour; 6] = [
        Colour::Blue,
        Colour::Yellow,
        Colour::LightGreen,
        Colour::DarkGreen,
        Colour::LightPurple,
        Colour::DarkPurple,
    ];

    /// The index 0..5.
    #[inline]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// The colour with index `i` (0..5).
    pub const fn from_index(i: u8) -> Option<Colour> {
        if i < 6 {
            Some(Colour::ALL[i as usize])
        } else {
            None
        }
    }

    /// The two-letter code, e.g. `bl`.
    pub const fn code(self) -> &'static str {
        COLOUR_CODES[self as usize]
    }

    /// The colour whose code is `code`.
    pub fn from_code(code: &str) -> Option<Colour> {
        COLOUR_CODES
            .iter()
            .position(|&c| c == code)
            .and_then(|i| Colour::from_index(i as u8))
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A pattern, by its value 1..6 (its cost and its points).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Value(u8);

impl Value {
    /// The value `v` (1..6).
    pub const fn new(v: u8) -> Option<Value> {
        if v >= 1 && v <= 6 {
            Some(Value(v))
        } else {
            None
        }
    }

    /// The value 1..6.
    #[inline]
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The number of hexagon kinds.
pub const KIND_COUNT: usize = 36;

/// A hexagon kind: a (colour, pattern) pair with id `6 * colour + value - 1` (0..35).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Kind(u8);

impl Kind {
    /// The kind with id `id` (0..35).
    pub const fn new(id: u8) -> Option<Kind> {
        if (id as usize) < KIND_COUNT {
            Some(Kind(id))
        } else {
            None
        }
    }

    /// The kind of `colour` and `value`.
    pub const fn of(colour: Colour, value: Value) -> Kind {
        Kind(6 * colour as u8 + value.0 - 1)
    }

    /// The id 0..35.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The colour.
    #[inline]
    pub const fn colour(self) -> Colour {
        Colour::ALL[(self.0 / 6) as usize]
    }

    /// The pattern value 1..6.
    #[inline]
    pub const fn value(self) -> Value {
        Value(self.0 % 6 + 1)
    }

    /// Whether the kind shows `attribute` (its colour or its pattern).
    #[inline]
    pub const fn shows(self, attribute: Attribute) -> bool {
        let a = attribute.0;
        if a < 6 {
            self.0 / 6 == a
        } else {
            self.0 % 6 == a - 6
        }
    }

    /// All 36 kinds, id order.
    pub fn all() -> impl Iterator<Item = Kind> {
        (0..KIND_COUNT as u8).map(Kind)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour().code(), self.value().0)
    }
}

/// A string that names no kind, attribute, cell or area.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseNameError {
    /// What was expected, e.g. `"a kind (bl1..dp6)"`.
    pub expected: &'static str,
    /// The text given.
    pub text: String,
}

impl fmt::Display for ParseNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not {}", self.text, self.expected)
    }
}

impl std::error::Error for ParseNameError {}

impl FromStr for Kind {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Kind, ParseNameError> {
        let err = || ParseNameError {
            expected: "a kind (bl1..dp6)",
            text: s.to_owned(),
        };
        if s.len() != 3 || !s.is_ascii() {
            return Err(err());
        }
        let colour = Colour::from_code(&s[..2]).ok_or_else(err)?;
        let value = s[2..]
            .parse::<u8>()
            .ok()
            .and_then(Value::new)
            .ok_or_else(err)?;
        Ok(Kind::of(colour, value))
    }
}

/// An attribute: a colour (index 0..5) or a pattern (index 6..11 for values 1..6).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Attribute(u8);

impl Attribute {
    /// The attribute with index `i` (0..11).
    pub const fn new(i: u8) -> Option<Attribute> {
        if i < 12 { Some(Attribute(i)) } else { None }
    }

    /// The colour attribute.
    pub const fn colour(colour: Colour) -> Attribute {
        Attribute(colour as u8)
    }

    /// The pattern attribute.
    pub const fn pattern(value: Value) -> Attribute {
        Attribute(5 + value.0)
    }

    /// The index 0..11.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// All 12 attributes, index order.
    pub fn all() -> impl Iterator<Item = Attribute> {
        (0..12).map(Attribute)
    }

    /// The six kinds that show this attribute, id order.
    pub fn kinds(self) -> impl Iterator<Item = Kind> {
        let (first, step) = if self.0 < 6 {
            (6 * self.0, 1)
        } else {
            (self.0 - 6, 6)
        };
        (0..6).map(move |i| Kind(first + step * i))
    }
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 6 {
            f.write_str(COLOUR_CODES[self.0 as usize])
        } else {
            write!(f, "{}", self.0 - 5)
        }
    }
}

impl FromStr for Attribute {
    type Err = ParseNameError;

    fn from_str(s: &str) -> Result<Attribute, ParseNameError> {
        if let Some(c) = Colour::from_code(s) {
            return Ok(Attribute::colour(c));
        }
        match s.as_bytes() {
            [d @ b'1'..=b'6'] => Ok(Attribute(d - b'1' + 6)),
            _ => Err(ParseNameError {
                expected: "an attribute (a colour code bl ye lg dg lp dp or a value 1..6)",
                text: s.to_owned(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_by_name_and_id() {
        for k in Kind::all() {
            assert_eq!(k.to_string().parse::<Kind>(), Ok(k));
            assert_eq!(Kind::of(k.colour(), k.value()), k);
        }
        assert_eq!("bl1".parse::<Kind>().map(Kind::id), Ok(0));
        assert_eq!("bl6".parse::<Kind>().map(Kind::id), Ok(5));
        assert_eq!("ye1".parse::<Kind>().map(Kind::id), Ok(6));
        assert_eq!("dp6".parse::<Kind>().map(Kind::id), Ok(35));
        for bad in ["", "bl0", "bl7", "BL1", "bl", "bl12", "xx1", "é1x"] {
            assert!(bad.parse::<Kind>().is_err(), "{bad}");
        }
    }

    #[test]
    fn attributes_read_and_print() {
        let names: Vec<String> = Attribute::all().map(|a| a.to_string()).collect();
        assert_eq!(
            names,
            [
                "bl", "ye", "lg", "dg", "lp", "dp", "1", "2", "3", "4", "5", "6"
            ]
        );
        for a in Attribute::all() {
            assert_eq!(a.to_string().parse::<Attribute>(), Ok(a));
            let filtered: Vec<Kind> = Kind::all().filter(|k| k.shows(a)).collect();
            assert_eq!(a.kinds().collect::<Vec<_>>(), filtered);
        }
        assert!("0".parse::<Attribute>().is_err());
        assert!("7".parse::<Attribute>().is_err());
    }
}
