//! Rules configuration (docs/spec/RULES.md sections 5, 8, 9) and the two themes.

use std::fmt;
use std::str::FromStr;

use crate::gem::Gem;

/// The most seats a game has (docs/spec/RULES.md section 1: 2 to 4 players).
pub const MAX_PLAYERS: usize = 4;

/// Who owns the gates in a three-player game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum GateVariant {
    /// Standard: each player owns one gate alone and shares one with each opponent.
    #[default]
    Shared,
    /// Variant: each player owns two gates alone.
    Exclusive,
}

/// How ties on points are broken.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum TieBreak {
    /// Most points, then most gems; still tied, all tied players win.
    #[default]
    MostGems,
    /// Most points; all tied players win.
    Shared,
}

/// Names and colours shown to people; never changes play.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Theme {
    /// Indigo (Ravensburger 2012).
    #[default]
    Indigo,
    /// Butterfly Garden, the re-theme.
    ButterflyGarden,
}

/// A rules configuration that was checked on construction.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    players: u8,
    hand_size: u8,
    three_player_gates: GateVariant,
    tie_break: TieBreak,
    open_hands: bool,
    theme: Theme,
}

/// Why a rules configuration was refused; names the field as a record does.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesError {
    /// The offending field, e.g. `"players"`.
    pub field: &'static str,
    /// What is wrong, for a person.
    pub message: String,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for RulesError {}

/// Gate owners as seat bitmasks, copied from docs/spec/RULES.md section 5 (not derived from seating).
const OWNERS_2: [u8; 6] = [0b01, 0b10, 0b01, 0b10, 0b01, 0b10];
const OWNERS_3_SHARED: [u8; 6] = [0b001, 0b011, 0b100, 0b101, 0b010, 0b110];
const OWNERS_3_EXCLUSIVE: [u8; 6] = [0b001, 0b010, 0b100, 0b001, 0b010, 0b100];
const OWNERS_4: [u8; 6] = [0b0011, 0b0110, 0b1001, 0b1010, 0b0101, 0b1100];

impl Rules {
    /// Seats of the rules a caller gives no count for: Indigo's basic game is for two.
    pub const DEFAULT_PLAYERS: u8 = 2;
    /// Tiles in hand of the rules a caller gives no size for: the basic game's one.
    pub const DEFAULT_HAND_SIZE: u8 = 1;

    /// Checks and builds a configuration.
    ///
    /// # Errors
    /// If `players` is not 2..=4 or `hand_size` not 1..=2.
    pub fn new(players: u8, hand_size: u8) -> Result<Rules, RulesError> {
        if !(2..=4).contains(&players) {
            return Err(RulesError {
                field: "players",
                message: format!("must be 2, 3 or 4, not {players}"),
            });
        }
        if !(1..=2).contains(&hand_size) {
            return Err(RulesError {
                field: "hand_size",
                message: format!("must be 1 or 2, not {hand_size}"),
            });
        }
        Ok(Rules {
            players,
            hand_size,
            three_player_gates: GateVariant::Shared,
            tie_break: TieBreak::MostGems,
            open_hands: false,
            theme: Theme::Indigo,
        })
    }

    /// Indigo's basic game: hands of one.
    ///
    /// # Errors
    /// If `players` is not 2..=4.
    pub fn indigo(players: u8) -> Result<Rules, RulesError> {
        Rules::new(players, 1)
    }

    /// Indigo's tactical variant: hands of two.
    ///
    /// # Errors
    /// If `players` is not 2..=4.
    pub fn tactical(players: u8) -> Result<Rules, RulesError> {
        Rules::new(players, 2)
    }

    /// Butterfly Garden: hands of two, its own names and colours.
    ///
    /// # Errors
    /// If `players` is not 2..=4.
    pub fn butterfly_garden(players: u8) -> Result<Rules, RulesError> {
        Ok(Rules::new(players, 2)?.with_theme(Theme::ButterflyGarden))
    }

    /// The same rules with another three-player gate assignment.
    #[must_use]
    pub const fn with_three_player_gates(mut self, variant: GateVariant) -> Rules {
        self.three_player_gates = variant;
        self
    }

    /// The same rules with another tie-break.
    #[must_use]
    pub const fn with_tie_break(mut self, tie_break: TieBreak) -> Rules {
        self.tie_break = tie_break;
        self
    }

    /// The same rules with hands open (`true`) or private.
    #[must_use]
    pub const fn with_open_hands(mut self, open: bool) -> Rules {
        self.open_hands = open;
        self
    }

    /// The same rules in another theme.
    #[must_use]
    pub const fn with_theme(mut self, theme: Theme) -> Rules {
        self.theme = theme;
        self
    }

    /// Number of players, 2..=4.
    #[inline]
    pub const fn players(self) -> u8 {
        self.players
    }

    /// Tiles in a full hand, 1 or 2.
    #[inline]
    pub const fn hand_size(self) -> u8 {
        self.hand_size
    }

    /// The three-player gate assignment (kept, but ignored for 2 and 4 players).
    #[inline]
    pub const fn three_player_gates(self) -> GateVariant {
        self.three_player_gates
    }

    /// The tie-break.
    #[inline]
    pub const fn tie_break(self) -> TieBreak {
        self.tie_break
    }

    /// Whether every player sees every hand.
    #[inline]
    pub const fn open_hands(self) -> bool {
        self.open_hands
    }

    /// The theme.
    #[inline]
    pub const fn theme(self) -> Theme {
        self.theme
    }

    /// Whether seat `viewer` sees seat `seat`'s hand: its own always, any hand when hands
    /// are open.
    #[inline]
    pub const fn sees_hand(self, viewer: u8, seat: u8) -> bool {
        self.open_hands || viewer == seat
    }

    /// `seat` if it is a seat of these rules.
    ///
    /// # Errors
    /// `seat` is not `0..players`.
    pub fn seat(self, seat: i64) -> Result<u8, RulesError> {
        u8::try_from(seat)
            .ok()
            .filter(|&s| s < self.players)
            .ok_or_else(|| RulesError {
                field: "seat",
                message: format!("must be 0..{}, not {seat}", self.players - 1),
            })
    }

    /// `gate` if it is a gate (0..6).
    ///
    /// # Errors
    /// `gate` is not `0..6`.
    pub fn gate(gate: i64) -> Result<u8, RulesError> {
        u8::try_from(gate)
            .ok()
            .filter(|&g| g < 6)
            .ok_or_else(|| RulesError {
                field: "gate",
                message: format!("must be 0..5, not {gate}"),
            })
    }

    /// The preset of `theme` for `players`: [`Rules::indigo`] or [`Rules::butterfly_garden`].
    ///
    /// # Errors
    /// If `players` is not 2..=4.
    pub fn preset(theme: Theme, players: u8) -> Result<Rules, RulesError> {
        match theme {
            Theme::Indigo => Rules::indigo(players),
            Theme::ButterflyGarden => Rules::butterfly_garden(players),
        }
    }

    /// The seats owning gate `gate` (0..6) as a bitmask: bit `s` set for seat `s`.
    #[inline]
    pub const fn gate_owner_mask(self, gate: u8) -> u8 {
        let table = match (self.players, self.three_player_gates) {
            (2, _) => &OWNERS_2,
            (3, GateVariant::Shared) => &OWNERS_3_SHARED,
            (3, GateVariant::Exclusive) => &OWNERS_3_EXCLUSIVE,
            _ => &OWNERS_4,
        };
        table[gate as usize]
    }

    /// The seats owning gate `gate`, ascending.
    pub fn gate_owners(self, gate: u8) -> impl Iterator<Item = u8> {
        let mask = self.gate_owner_mask(gate);
        (0..self.players).filter(move |s| mask & (1 << s) != 0)
    }
}

impl Default for Rules {
    /// Indigo's basic game for two: what a game, batch or vector gets when given no rules.
    fn default() -> Rules {
        Rules::new(Rules::DEFAULT_PLAYERS, Rules::DEFAULT_HAND_SIZE)
            .unwrap_or_else(|_| unreachable!("the default players and hand size are valid"))
    }
}

impl GateVariant {
    /// The record spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            GateVariant::Shared => "shared",
            GateVariant::Exclusive => "exclusive",
        }
    }
}

impl FromStr for GateVariant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "shared" => Ok(GateVariant::Shared),
            "exclusive" => Ok(GateVariant::Exclusive),
            _ => Err(format!("must be \"shared\" or \"exclusive\", not {s:?}")),
        }
    }
}

impl TieBreak {
    /// The record spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            TieBreak::MostGems => "most-gems",
            TieBreak::Shared => "shared",
        }
    }
}

impl FromStr for TieBreak {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "most-gems" => Ok(TieBreak::MostGems),
            "shared" => Ok(TieBreak::Shared),
            _ => Err(format!("must be \"most-gems\" or \"shared\", not {s:?}")),
        }
    }
}

impl Theme {
    /// The record spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Theme::Indigo => "indigo",
            Theme::ButterflyGarden => "butterfly-garden",
        }
    }

    /// The gem's name for people.
    pub const fn gem_name(self, gem: Gem) -> &'static str {
        match (self, gem) {
            (Theme::Indigo, Gem::Amber) => "amber",
            (Theme::Indigo, Gem::Emerald) => "emerald",
            (Theme::Indigo, Gem::Sapphire) => "sapphire",
            (Theme::ButterflyGarden, Gem::Amber) => "blue butterfly",
            (Theme::ButterflyGarden, Gem::Emerald) => "pink butterfly",
            (Theme::ButterflyGarden, Gem::Sapphire) => "purple butterfly",
        }
    }

    /// The gem's colour as `#rrggbb`.
    pub const fn gem_colour(self, gem: Gem) -> &'static str {
        match (self, gem) {
            (Theme::Indigo, Gem::Amber) => "#f2b01e",
            (Theme::Indigo, Gem::Emerald) => "#2e9e4f",
            (Theme::Indigo, Gem::Sapphire) => "#2f4fd8",
            (Theme::ButterflyGarden, Gem::Amber) => "#3a8fe0",
            (Theme::ButterflyGarden, Gem::Emerald) => "#e5609e",
            (Theme::ButterflyGarden, Gem::Sapphire) => "#8a45c9",
        }
    }

    /// The colour marking seat `seat`'s gates, as `#rrggbb`.
    pub const fn seat_colour(self, seat: u8) -> &'static str {
        const INDIGO: [&str; 4] = ["#d6402b", "#f0f0f0", "#1f1f1f", "#c98a2c"];
        // Garden seats avoid the greens of the board and the butterflies' blue, pink and purple.
        const GARDEN: [&str; 4] = ["#e8731c", "#2d2a32", "#f5c518", "#fbfbf5"];
        match self {
            Theme::Indigo => INDIGO[seat as usize % 4],
            Theme::ButterflyGarden => GARDEN[seat as usize % 4],
        }
    }

    /// What a gate is called.
    pub const fn gate_name(self) -> &'static str {
        match self {
            Theme::Indigo => "gateway",
            Theme::ButterflyGarden => "flowerbed",
        }
    }
}

impl FromStr for Theme {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "indigo" => Ok(Theme::Indigo),
            "butterfly-garden" => Ok(Theme::ButterflyGarden),
            _ => Err(format!(
                "must be \"indigo\" or \"butterfly-garden\", not {s:?}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owners(rules: Rules) -> Vec<Vec<u8>> {
        (0..6).map(|g| rules.gate_owners(g).collect()).collect()
    }

    #[test]
    fn owner_tables_follow_rules_section_5() {
        let two = Rules::new(2, 1).unwrap();
        assert_eq!(
            owners(two),
            [vec![0], vec![1], vec![0], vec![1], vec![0], vec![1]]
        );
        let three = Rules::new(3, 1).unwrap();
        assert_eq!(
            owners(three),
            [
                vec![0],
                vec![0, 1],
                vec![2],
                vec![0, 2],
                vec![1],
                vec![1, 2]
            ]
        );
        let excl = three.with_three_player_gates(GateVariant::Exclusive);
        assert_eq!(
            owners(excl),
            [vec![0], vec![1], vec![2], vec![0], vec![1], vec![2]]
        );
        let four = Rules::new(4, 2).unwrap();
        assert_eq!(
            owners(four),
            [
                vec![0, 1],
                vec![1, 2],
                vec![0, 3],
                vec![1, 3],
                vec![0, 2],
                vec![2, 3]
            ]
        );
    }

    #[test]
    fn four_players_share_exactly_one_gate_per_pair() {
        let four = Rules::new(4, 1).unwrap();
        let mut pairs: Vec<u8> = (0..6).map(|g| four.gate_owner_mask(g)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        assert_eq!(pairs.len(), 6);
    }

    #[test]
    fn presets_seats_and_gates() {
        for players in 2..=4 {
            let garden = Rules::preset(Theme::ButterflyGarden, players).unwrap();
            assert_eq!(garden, Rules::butterfly_garden(players).unwrap());
            assert_eq!(
                (garden.hand_size(), garden.theme()),
                (2, Theme::ButterflyGarden)
            );
            let indigo = Rules::preset(Theme::Indigo, players).unwrap();
            assert_eq!(indigo, Rules::indigo(players).unwrap());
            assert_eq!(indigo.hand_size(), 1);
        }
        assert_eq!(Rules::default(), Rules::indigo(2).unwrap());
        let three = Rules::new(3, 1).unwrap();
        assert_eq!(three.seat(2), Ok(2));
        assert_eq!(
            three.seat(3).unwrap_err().to_string(),
            "seat: must be 0..2, not 3"
        );
        assert!(three.seat(-1).is_err());
        assert_eq!(Rules::gate(5), Ok(5));
        assert_eq!(
            Rules::gate(6).unwrap_err().to_string(),
            "gate: must be 0..5, not 6"
        );
        assert!(three.sees_hand(1, 1) && !three.sees_hand(0, 1));
        assert!(three.with_open_hands(true).sees_hand(0, 1));
    }

    #[test]
    fn bad_configurations_are_refused() {
        assert_eq!(Rules::new(5, 1).unwrap_err().field, "players");
        assert_eq!(Rules::new(1, 1).unwrap_err().field, "players");
        assert_eq!(Rules::new(2, 3).unwrap_err().field, "hand_size");
        assert_eq!(Rules::new(2, 0).unwrap_err().field, "hand_size");
    }
}
