//! A small network over a game's observation, read from a safetensors file and evaluated in
//! Rust ([`Network`], [`NetEvaluator`]): the learned evaluator of the PUCT search, with no
//! Python, so that every surface (batches, self-play, the C ABI, WebAssembly) can play it.
//!
//! The file format (`indigo-net/1`, `docs/alphazero.md`): an MLP over `ln(1 + x)` of every
//! observation value; hidden layers `w1` `[OBSERVATION_SIZE, H1]`, `b1`, `w2` `[H1, H2]`,
//! `b2`, ... (each `relu(x @ w + b)`); a value head `wv` `[Hk, V]`, `bv` with `tanh` (`V = 1`:
//! the mover's value in a two-player game, the other seat's its negation; `V = players`:
//! column `k` for the seat `k` places after the mover); an optional policy head `wp`
//! `[Hk, ACTION_COUNT]`, `bp` (logits, softmax over the legal actions; without it the priors
//! are uniform). Tensors are F32 or F16; the metadata names the format, the game, the seats,
//! the input transform and the sizes.

use std::fmt;

use safetensors::{Dtype, SafeTensors};

use crate::encoded::Encoded;
use crate::evaluator::{Evaluation, Evaluator};
use crate::game::{Game, Turn};

/// The `format` of every network file this crate reads.
pub const NETWORK_FORMAT: &str = "indigo-net/1";

/// Why a network was refused: what is wrong, for a person (naming the file when it came
/// from one).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// One dense layer: `x @ weights + bias`, `weights` row-major `[inputs, outputs]`.
#[derive(Clone, PartialEq, Debug)]
struct Layer {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Layer {
    /// `out = bias + x @ weights`, adding the rows of the non-zero inputs only: most of an
    /// observation, and of a hidden layer after `relu`, is zero (the benches' `net_leaf_2p`
    /// measure it against the dense loop, [`Layer::forward_dense`]).
    fn forward(&self, x: &[f32], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(&self.bias);
        for (i, xi) in nonzero(x) {
            let row = &self.weights[i * self.outputs..(i + 1) * self.outputs];
            for (o, &w) in out.iter_mut().zip(row) {
                *o += xi * w;
            }
        }
    }

    /// [`Layer::forward`] over every input, zero or not: the loop it is measured against.
    fn forward_dense(&self, x: &[f32], out: &mut Vec<f32>) {
        out.clear();
        out.extend_from_slice(&self.bias);
        for (&xi, row) in x.iter().zip(self.weights.chunks_exact(self.outputs)) {
            for (o, &w) in out.iter_mut().zip(row) {
                *o += xi * w;
            }
        }
    }
}

/// `ln(1 + n)` of every whole `n` below 64, as `f32::ln_1p` gives it.
fn log1p_table() -> &'static [f32; 64] {
    static TABLE: std::sync::OnceLock<[f32; 64]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| std::array::from_fn(|n| (n as f32).ln_1p()))
}

/// Values per block of [`nonzero`]'s scan.
const ZERO_BLOCK: usize = 8;

/// Whether every value of `block` is zero (either zero has no bit set but the sign).
fn is_zero(block: &[f32]) -> bool {
    block.iter().fold(0, |bits, v| bits | v.to_bits()) << 1 == 0
}

/// The non-zero values of `x` with their places, in order: a block of [`ZERO_BLOCK`] zeros
/// (most of an observation, and many of a hidden layer after `relu`) costs one test.
fn nonzero(x: &[f32]) -> impl Iterator<Item = (usize, f32)> + '_ {
    x.chunks(ZERO_BLOCK)
        .enumerate()
        .filter(|(_, block)| !is_zero(block))
        .flat_map(|(b, block)| {
            block
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0.0)
                .map(move |(i, &v)| (b * ZERO_BLOCK + i, v))
        })
}

/// Lanes of [`dot`]'s partial sums.
const DOT_LANES: usize = 8;

/// `a . b` over their common length, summed in [`DOT_LANES`] independent lanes so that no
/// addition waits on the one before it and the loop vectorizes (a single running sum cannot:
/// floating-point addition is not reordered).
fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, a_rest) = a[..n].as_chunks::<DOT_LANES>();
    let (b, b_rest) = b[..n].as_chunks::<DOT_LANES>();
    let mut lanes = [0.0f32; DOT_LANES];
    for (a, b) in a.iter().zip(b) {
        for lane in 0..DOT_LANES {
            lanes[lane] += a[lane] * b[lane];
        }
    }
    let rest: f32 = a_rest.iter().zip(b_rest).map(|(x, y)| x * y).sum();
    lanes.iter().sum::<f32>() + rest
}

/// A network in the `indigo-net/1` format, checked against itself when read
/// ([`Network::from_bytes`]) and against a game before it plays ([`Network::check_game`]).
#[derive(Clone, PartialEq, Debug)]
pub struct Network {
    game: String,
    players: usize,
    observation_size: usize,
    action_count: usize,
    trained: String,
    hidden: Vec<Layer>,
    value: Layer,
    /// The policy head, transposed to `[ACTION_COUNT, Hk]`: a legal action's logit reads one
    /// contiguous row.
    policy: Option<Layer>,
}

/// A tensor's values, flat, and its shape.
type Values = (Vec<f32>, Vec<usize>);

/// A tensor's values as `f32`s (F32 or F16), with its shape.
fn values(tensors: &SafeTensors<'_>, name: &str) -> Result<Option<Values>, NetworkError> {
    let Ok(view) = tensors.tensor(name) else {
        return Ok(None);
    };
    let data = view.data();
    let values = match view.dtype() {
        Dtype::F32 => data
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        Dtype::F16 => data
            .chunks_exact(2)
            .map(|b| f16_to_f32(u16::from_le_bytes([b[0], b[1]])))
            .collect(),
        other => {
            return Err(NetworkError(format!(
                "tensor {name} is {other:?}; a network's tensors are F32 or F16"
            )));
        }
    };
    Ok(Some((values, view.shape().to_vec())))
}

/// An IEEE half-precision number as `f32` (exact).
fn f16_to_f32(h: u16) -> f32 {
    let sign = u32::from(h >> 15) << 31;
    let exponent = u32::from((h >> 10) & 0x1f);
    let mantissa = u32::from(h & 0x3ff);
    let bits = match (exponent, mantissa) {
        (0, 0) => sign,
        (0, m) => {
            // Subnormal: m * 2^-24.
            let value = m as f32 * f32::from_bits(0x3380_0000);
            return if sign == 0 { value } else { -value };
        }
        (0x1f, m) => sign | 0x7f80_0000 | (m << 13),
        (e, m) => sign | ((e + 112) << 23) | (m << 13),
    };
    f32::from_bits(bits)
}

impl Network {
    /// The network in `bytes` (a safetensors file), checked against itself: the metadata
    /// (`format`, `input`, `game`, `players`, sizes), every tensor present with its shape,
    /// the layers chained.
    ///
    /// # Errors
    /// The first thing wrong, for a person.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let tensors = SafeTensors::deserialize(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file ({e})")))?;
        let mut network = Network::metadata(bytes)?;
        let (observation_size, action_count) = (network.observation_size, network.action_count);
        let layer = |w: &str, b: &str, inputs: usize, outputs: Option<usize>| {
            let Some((weights, shape)) = values(&tensors, w)? else {
                return Ok(None);
            };
            let want_outputs = outputs.unwrap_or_else(|| shape.get(1).copied().unwrap_or(0));
            if shape != [inputs, want_outputs] || want_outputs == 0 {
                return Err(NetworkError(format!(
                    "tensor {w} has shape {shape:?}, not [{inputs}, {}]",
                    outputs.map_or_else(|| "outputs".into(), |o| o.to_string())
                )));
            }
            let (bias, bias_shape) = values(&tensors, b)?
                .ok_or_else(|| NetworkError(format!("tensor {w} has no bias {b}")))?;
            if bias_shape != [want_outputs] {
                return Err(NetworkError(format!(
                    "tensor {b} has shape {bias_shape:?}, not [{want_outputs}]"
                )));
            }
            Ok(Some(Layer {
                inputs,
                outputs: want_outputs,
                weights,
                bias,
            }))
        };
        let mut hidden: Vec<Layer> = Vec::new();
        loop {
            let k = hidden.len() + 1;
            let inputs = hidden.last().map_or(observation_size, |l| l.outputs);
            match layer(&format!("w{k}"), &format!("b{k}"), inputs, None)? {
                Some(l) => hidden.push(l),
                None => break,
            }
        }
        if hidden.is_empty() {
            return Err(NetworkError(
                "it has no hidden layer w1 (an MLP: w1, b1, then w2, b2, ...)".into(),
            ));
        }
        let numbered = |name: &str, prefix: &str| {
            name.strip_prefix(prefix)
                .and_then(|k| k.parse::<usize>().ok())
                .is_some_and(|k| (1..=hidden.len()).contains(&k))
        };
        let known = |name: &str| {
            matches!(name, "wv" | "bv" | "wp" | "bp") || numbered(name, "w") || numbered(name, "b")
        };
        if let Some(name) = tensors.names().into_iter().find(|n| !known(n)) {
            return Err(NetworkError(format!(
                "tensor {name} is not one of a network's (w1, b1, ... numbered from 1 without \
                 gaps, wv, bv, wp, bp)"
            )));
        }
        let last = hidden.last().map_or(observation_size, |l| l.outputs);
        let value = layer("wv", "bv", last, None)?
            .ok_or_else(|| NetworkError("it has no value head wv, bv".into()))?;
        let policy = layer("wp", "bp", last, Some(action_count))?.map(|head| {
            let mut weights = vec![0.0; head.weights.len()];
            for (i, row) in head.weights.chunks_exact(action_count).enumerate() {
                for (a, &w) in row.iter().enumerate() {
                    weights[a * last + i] = w;
                }
            }
            Layer {
                inputs: action_count,
                outputs: last,
                weights,
                bias: head.bias,
            }
        });
        if policy.is_none() && tensors.names().contains(&"bp") {
            return Err(NetworkError("it has a policy bias bp without wp".into()));
        }
        network.hidden = hidden;
        network.value = value;
        network.policy = policy;
        Ok(network)
    }

    /// The metadata of the file in `bytes`, checked, as a network with no layers yet.
    fn metadata(bytes: &[u8]) -> Result<Network, NetworkError> {
        let (_, header) = SafeTensors::read_metadata(bytes)
            .map_err(|e| NetworkError(format!("not a safetensors file ({e})")))?;
        let metadata = header.metadata().as_ref();
        let meta = |key: &str| -> Result<String, NetworkError> {
            metadata
                .and_then(|m| m.iter().find(|(k, _)| k.as_str() == key))
                .map(|(_, v)| v.clone())
                .ok_or_else(|| {
                    NetworkError(format!(
                        "its metadata has no {key:?} (an {NETWORK_FORMAT} network names its \
                         format, game, players, input, observation_size and action_count)"
                    ))
                })
        };
        let format = meta("format")?;
        if format != NETWORK_FORMAT {
            return Err(NetworkError(format!(
                "its format is {format:?}, not {NETWORK_FORMAT:?}"
            )));
        }
        let input = meta("input")?;
        if input != "log1p" {
            return Err(NetworkError(format!(
                "its input transform is {input:?}; the only one is \"log1p\""
            )));
        }
        let count = |key: &str| -> Result<usize, NetworkError> {
            let text = meta(key)?;
            text.trim()
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| {
                    NetworkError(format!(
                        "its {key} must be a whole number above 0, not {text:?}"
                    ))
                })
        };
        let game = meta("game")?;
        let players = count("players")?;
        let observation_size = count("observation_size")?;
        let action_count = count("action_count")?;
        let trained = meta("trained").unwrap_or_default();

        Ok(Network {
            game,
            players,
            observation_size,
            action_count,
            trained,
            hidden: Vec::new(),
            value: Layer {
                inputs: 0,
                outputs: 0,
                weights: Vec::new(),
                bias: Vec::new(),
            },
            policy: None,
        })
    }

    /// The network in the file at `path`.
    ///
    /// # Errors
    /// The file unread or refused ([`Network::from_bytes`]), the message naming it.
    pub fn load(path: impl AsRef<std::path::Path>) -> Result<Network, NetworkError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            NetworkError(format!(
                "cannot read the network file {}: {e}",
                path.display()
            ))
        })?;
        Network::from_bytes(&bytes).map_err(|e| {
            NetworkError(format!(
                "the network file {} is refused: {e}",
                path.display()
            ))
        })
    }

    /// Checks that this network fits game `G` played by `players` seats: the game's name,
    /// observation size and action count, the seats it was trained for and its value head.
    ///
    /// # Errors
    /// What does not fit, for a person.
    pub fn check_game<G: Encoded>(&self, players: usize) -> Result<(), NetworkError> {
        if self.game != G::NAME {
            return Err(NetworkError(format!(
                "it is a network of {:?}, not of {:?}",
                self.game,
                G::NAME
            )));
        }
        let sizes = [
            (
                "observation_size",
                self.observation_size,
                G::OBSERVATION_SIZE,
            ),
            ("action_count", self.action_count, G::ACTION_COUNT),
        ];
        for (name, has, want) in sizes {
            if has != want {
                return Err(NetworkError(format!(
                    "its {name} is {has}; {:?}'s is {want}",
                    G::NAME
                )));
            }
        }
        if self.players != players {
            return Err(NetworkError(format!(
                "it was trained for {} players, and this game has {players}",
                self.players
            )));
        }
        let v = self.value.outputs;
        if !(v == players || v == 1 && players == 2) {
            return Err(NetworkError(format!(
                "its value head has {v} columns; a {players}-player game needs {players}{}",
                if players == 2 { " or 1" } else { "" }
            )));
        }
        Ok(())
    }

    /// The game it was trained for, as the registry names it.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The seats it was trained for.
    pub const fn players(&self) -> usize {
        self.players
    }

    /// Whether it has a policy head (else its priors are uniform).
    pub const fn has_policy(&self) -> bool {
        self.policy.is_some()
    }

    /// How it was trained (the metadata's `trained`, maybe empty).
    pub fn trained(&self) -> &str {
        &self.trained
    }

    /// The sizes of its hidden layers, in order.
    pub fn hidden_sizes(&self) -> Vec<usize> {
        self.hidden.iter().map(|l| l.outputs).collect()
    }
}

/// A [`Network`] as the PUCT search's evaluator, for any [`Encoded`] game it fits
/// ([`Network::check_game`]; the search checks what it answers): each leaf's observation by
/// its mover, `log1p`, the MLP; priors by the softmax of the policy head over the leaf's legal
/// actions (none, uniform, without one), values by the value head.
#[derive(Clone, Debug)]
pub struct NetEvaluator<'n> {
    /// `None`: no network (uniform priors, every value 0), for a spec built unchecked for a
    /// game its network does not fit.
    network: Option<&'n Network>,
    /// Add every input's row, zero or not (only to measure the sparse first layer).
    dense: bool,
    observation: Vec<f32>,
    activations: [Vec<f32>; 2],
    values: Vec<f32>,
}

impl<'n> NetEvaluator<'n> {
    /// An evaluator of `network`.
    pub fn new(network: &'n Network) -> NetEvaluator<'n> {
        NetEvaluator {
            network: Some(network),
            ..NetEvaluator::blank()
        }
    }

    /// This evaluator adding every input's weights, zero or not: the same results, slower;
    /// only to measure the sparse loop against.
    #[must_use]
    pub fn dense(mut self) -> NetEvaluator<'n> {
        self.dense = true;
        self
    }

    /// An evaluator of no network: uniform priors, every value 0.
    pub fn blank() -> NetEvaluator<'n> {
        NetEvaluator {
            network: None,
            dense: false,
            observation: Vec::new(),
            activations: [Vec::new(), Vec::new()],
            values: Vec::new(),
        }
    }

    /// The network evaluated (`None` for [`NetEvaluator::blank`]).
    pub const fn network(&self) -> Option<&'n Network> {
        self.network
    }

    /// The last hidden layer's output for `leaf` (its observation by `seat`), in
    /// `self.activations[0]`.
    fn hidden<G: Encoded>(&mut self, network: &Network, leaf: &G, seat: u8) {
        // The game writes every value ([`Encoded::observation`]): no zeroing first.
        self.observation.resize(G::OBSERVATION_SIZE, 0.0);
        leaf.observation(seat, &mut self.observation);
        // ln(1 + 0) = 0: most values are zero, and a logarithm costs more than the rest;
        // most of the others are small counts, whose logarithms are kept.
        let table = log1p_table();
        let blocks = self
            .observation
            .chunks_mut(ZERO_BLOCK)
            .filter(|b| !is_zero(b));
        for x in blocks.flatten().filter(|x| **x != 0.0) {
            *x = match table.get(*x as usize) {
                #[allow(clippy::float_cmp)] // a whole number, compared exactly
                Some(&l) if (*x as usize) as f32 == *x => l,
                _ => x.ln_1p(),
            };
        }
        let [a, b] = &mut self.activations;
        for (i, layer) in network.hidden.iter().enumerate() {
            let (input, output) = match i {
                0 => (&self.observation[..], &mut *a),
                _ if i % 2 == 1 => (&a[..], &mut *b),
                _ => (&b[..], &mut *a),
            };
            if self.dense {
                layer.forward_dense(input, output);
            } else {
                layer.forward(input, output);
            }
            for o in output.iter_mut() {
                *o = o.max(0.0);
            }
        }
        if network.hidden.len().is_multiple_of(2) {
            std::mem::swap(a, b);
        }
    }
}

impl<G: Encoded> Evaluator<G> for NetEvaluator<'_> {
    type Error = std::convert::Infallible;

    fn evaluate(&mut self, leaves: &[G]) -> Result<Evaluation, Self::Error> {
        let players = leaves.first().map_or(0, Game::players);
        let Some(network) = self.network else {
            let values = vec![0.0; leaves.len() * players];
            return Ok(Evaluation::new(leaves.len(), Vec::new(), values));
        };
        let policy = network.policy.as_ref();
        // Priors of the legal actions only: nothing per action of the game (810 in Indigo).
        let mut priors: Vec<(u32, f32)> = Vec::new();
        let mut ends: Vec<u32> =
            Vec::with_capacity(if policy.is_some() { leaves.len() } else { 0 });
        let mut values = Vec::with_capacity(leaves.len() * players);
        let mut legal = Vec::new();
        let mut logits: Vec<(usize, f32)> = Vec::new();
        for leaf in leaves {
            let Turn::Player(seat) = leaf.turn() else {
                values.extend(std::iter::repeat_n(0.0, players));
                if policy.is_some() {
                    ends.push(priors.len() as u32);
                }
                continue;
            };
            self.hidden(network, leaf, seat);
            let h = &self.activations[0];
            network.value.forward(h, &mut self.values);
            match self.values[..] {
                [v] => {
                    let v = v.tanh();
                    values.push(v);
                    values.extend(std::iter::repeat_n(-v, players.saturating_sub(1)));
                }
                _ => values.extend(self.values.iter().map(|v| v.tanh())),
            }
            let Some(head) = policy else { continue };
            leaf.legal_actions(&mut legal);
            logits.clear();
            logits.extend(legal.iter().map(|&action| {
                let a = G::action_number(action);
                let row = &head.weights[a * head.outputs..(a + 1) * head.outputs];
                (a, head.bias[a] + dot(row, h))
            }));
            let top = logits.iter().map(|l| l.1).fold(f32::NEG_INFINITY, f32::max);
            let start = priors.len();
            let mut total = 0.0;
            for &(a, logit) in &logits {
                let p = (logit - top).exp();
                priors.push((a as u32, p));
                total += p;
            }
            let out = &mut priors[start..];
            if total > 0.0 && total.is_finite() {
                for (_, p) in out.iter_mut() {
                    *p /= total;
                }
            }
            out.sort_unstable_by_key(|&(a, _)| a);
            ends.push(priors.len() as u32);
        }
        if policy.is_none() {
            return Ok(Evaluation::new(leaves.len(), Vec::new(), values));
        }
        Ok(Evaluation::sparse(leaves.len(), priors, ends, values))
    }
}

/// `value` kept for the process's life in `store`: the one already kept if equal. What bot
/// specs name is kept so (specs are `Copy`, and a batch builds a bot from one for each
/// game): each distinct network, path and `net` setting is read once and stored once.
pub(crate) fn keep_in<T: PartialEq + Send + Sync>(
    store: &std::sync::Mutex<Vec<&'static T>>,
    value: T,
) -> &'static T {
    let mut kept = store
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&same) = kept.iter().find(|&&k| *k == value) {
        return same;
    }
    let value: &'static T = Box::leak(Box::new(value));
    kept.push(value);
    value
}

/// `network`, kept ([`keep_in`]).
pub(crate) fn keep(network: Network) -> &'static Network {
    static KEPT: std::sync::Mutex<Vec<&'static Network>> = std::sync::Mutex::new(Vec::new());
    keep_in(&KEPT, network)
}

/// The games' shipped networks read so far, by the address of their embedded bytes.
static SHIPPED: std::sync::Mutex<Vec<(usize, &'static Network)>> =
    std::sync::Mutex::new(Vec::new());

/// Game `G`'s shipped network ([`Encoded::DEFAULT_NETWORK`]), read once.
///
/// # Errors
/// The game ships none, or a network the reader refuses.
pub(crate) fn shipped<G: Encoded>() -> Result<&'static Network, NetworkError> {
    let key = G::DEFAULT_NETWORK.as_ptr() as usize;
    if G::DEFAULT_NETWORK.is_empty() {
        return Err(NetworkError(format!(
            "{:?} ships no network: name one with net:file=PATH",
            G::NAME
        )));
    }
    let mut kept = SHIPPED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, network)) = kept.iter().find(|(k, _)| *k == key) {
        return Ok(network);
    }
    let network = Network::from_bytes(G::DEFAULT_NETWORK)
        .map_err(|e| NetworkError(format!("{:?}'s shipped network is refused: {e}", G::NAME)))?;
    let network: &'static Network = Box::leak(Box::new(network));
    kept.push((key, network));
    Ok(network)
}

#[cfg(test)]
mod tests;
