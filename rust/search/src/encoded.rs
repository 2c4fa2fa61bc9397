//! A game numbered for tensors ([`Encoded`]), as OpenSpiel numbers its games: an observation
//! tensor per seat and an action number per action. The PUCT search's evaluators read leaves
//! through it ([`encode_leaves`]) and self-play keeps its samples in it; a sample's legal
//! actions are kept as the game chooses ([`LegalRows`]): lists, so that a large action space
//! (Queen's Garden's 8 million) costs what its legal lists cost, or dense masks for a small one
//! (Indigo's 810).

use std::fmt::Debug;

use crate::game::{Game, Turn};

/// A game whose observations and actions are numbered for a network: every observation is
/// [`Encoded::OBSERVATION_SIZE`] values and every action one of [`Encoded::ACTION_COUNT`]
/// numbers, the same number for the same move in every position.
pub trait Encoded: Game {
    /// Values in one observation.
    const OBSERVATION_SIZE: usize;
    /// Actions are numbered `0..ACTION_COUNT`.
    const ACTION_COUNT: usize;
    /// How a self-play sample keeps its legal actions: [`LegalLists`] for a large action
    /// space, [`LegalMasks`] for a small fixed one.
    type Legal: LegalRows;
    /// The game's shipped network ([`crate::Network`], an `indigo-net/1` safetensors file,
    /// embedded with `include_bytes!`): what the `net` bot plays without a file. Empty for a
    /// game that ships none (`net` then needs `file=`).
    const DEFAULT_NETWORK: &'static [u8] = &[];

    /// The number of `action`, below [`Encoded::ACTION_COUNT`].
    fn action_number(action: Self::Action) -> usize;

    /// What `seat` knows of this state as [`Encoded::OBSERVATION_SIZE`] values written into
    /// `out` (that long): states the seat cannot tell apart give the same values.
    fn observation(&self, seat: u8, out: &mut [f32]);
}

/// The leaves of one batch as tensors, row after row: each leaf's observation by its mover
/// into `observations` (`leaves x OBSERVATION_SIZE`) and its legal actions into `masks`
/// (`leaves x ACTION_COUNT`). Both are cleared first; a leaf with no seat to move gets a zero
/// row.
pub fn encode_leaves<G: Encoded>(leaves: &[G], observations: &mut Vec<f32>, masks: &mut Vec<bool>) {
    observations.clear();
    observations.resize(leaves.len() * G::OBSERVATION_SIZE, 0.0);
    masks.clear();
    masks.resize(leaves.len() * G::ACTION_COUNT, false);
    let mut legal = Vec::new();
    let rows = observations
        .chunks_exact_mut(G::OBSERVATION_SIZE)
        .zip(masks.chunks_exact_mut(G::ACTION_COUNT));
    for (leaf, (observation, mask)) in leaves.iter().zip(rows) {
        if let Turn::Player(seat) = leaf.turn() {
            leaf.observation(seat, observation);
            leaf.legal_actions(&mut legal);
            for &action in &legal {
                mask[G::action_number(action)] = true;
            }
        }
    }
}

/// The legal actions of samples, one row per sample, kept as a game chooses.
pub trait LegalRows: Clone + Debug + Default + PartialEq + Send {
    /// An action number as a sample keeps it.
    type Number: Copy + Debug + PartialEq + Send;

    /// `action` ([`Encoded::action_number`]) as a sample keeps it.
    fn number(action: usize) -> Self::Number;

    /// Adds a row: the legal action numbers ([`Encoded::action_number`]), ascending.
    fn push_row(&mut self, legal: impl Iterator<Item = usize>);

    /// Appends `other`'s rows.
    fn append(&mut self, other: &Self);
}

/// Legal actions as lists: a row costs what its list costs, whatever the action space
/// (Queen's Garden's 8 million).
#[derive(Clone, Debug, PartialEq)]
pub struct LegalLists {
    /// Row `r`'s legal actions are `actions[offsets[r]..offsets[r + 1]]`, ascending; rows + 1
    /// offsets.
    pub offsets: Vec<u32>,
    /// The legal actions of every row.
    pub actions: Vec<u32>,
}

impl Default for LegalLists {
    fn default() -> LegalLists {
        LegalLists {
            offsets: vec![0],
            actions: Vec::new(),
        }
    }
}

impl LegalRows for LegalLists {
    type Number = u32;

    #[inline]
    fn number(action: usize) -> u32 {
        action as u32
    }

    fn push_row(&mut self, legal: impl Iterator<Item = usize>) {
        self.actions.extend(legal.map(Self::number));
        self.offsets.push(self.actions.len() as u32);
    }

    fn append(&mut self, other: &LegalLists) {
        append_offsets(&mut self.offsets, &other.offsets, self.actions.len());
        self.actions.extend_from_slice(&other.actions);
    }
}

/// Legal actions as dense masks of `ACTIONS` flags a row, for a small fixed action space
/// numbered in `u16` (Indigo's 810).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LegalMasks<const ACTIONS: usize> {
    /// Row `r`'s flags are `masks[r * ACTIONS..(r + 1) * ACTIONS]`: whether each action is
    /// legal.
    pub masks: Vec<bool>,
}

impl<const ACTIONS: usize> LegalRows for LegalMasks<ACTIONS> {
    type Number = u16;

    #[inline]
    fn number(action: usize) -> u16 {
        const { assert!(ACTIONS <= 1 << 16, "masks number their actions in u16") };
        action as u16
    }

    fn push_row(&mut self, legal: impl Iterator<Item = usize>) {
        let row = self.masks.len();
        self.masks.resize(row + ACTIONS, false);
        for action in legal {
            self.masks[row + action] = true;
        }
    }

    fn append(&mut self, other: &LegalMasks<ACTIONS>) {
        self.masks.extend_from_slice(&other.masks);
    }
}

/// Extends row offsets `into` with `from`'s, shifted by `base` (the values already kept).
pub(crate) fn append_offsets(into: &mut Vec<u32>, from: &[u32], base: usize) {
    if into.is_empty() {
        into.push(0);
    }
    into.extend(from.iter().skip(1).map(|&o| base as u32 + o));
}
