//! The network format and its evaluator on Nim (observation: the heap and the seat; actions:
//! take 1, 2 or 3).
#![allow(clippy::float_cmp)] // exact values: the settings as given, a value of exactly 0

use std::sync::atomic::AtomicBool;

use rand::SeedableRng;
use safetensors::Dtype;
use safetensors::tensor::TensorView;

use super::{NetEvaluator, Network};
use crate::puct::tests::{Nim, heap};
use crate::{Evaluator, Game as _, PuctConfig, Rng};

type Tensor = (&'static str, Vec<usize>, Vec<f32>);

/// A safetensors file of `tensors` (F32) with `metadata`.
fn file(tensors: &[Tensor], metadata: &[(&str, &str)]) -> Vec<u8> {
    let bytes: Vec<(&str, Vec<usize>, Vec<u8>)> = tensors
        .iter()
        .map(|(name, shape, values)| {
            let bytes = values.iter().flat_map(|v| v.to_le_bytes()).collect();
            (*name, shape.clone(), bytes)
        })
        .collect();
    let views = bytes.iter().map(|(name, shape, data)| {
        (
            *name,
            TensorView::new(Dtype::F32, shape.clone(), data).unwrap(),
        )
    });
    let metadata = metadata
        .iter()
        .map(|&(k, v)| (k.to_string(), v.to_string()))
        .collect();
    safetensors::serialize(views, Some(metadata)).unwrap()
}

const METADATA: [(&str, &str); 7] = [
    ("format", "indigo-net/1"),
    ("game", "nim"),
    ("players", "2"),
    ("input", "log1p"),
    ("observation_size", "2"),
    ("action_count", "3"),
    ("trained", "by hand"),
];

/// Hidden layer 2 -> 2, value head 2 -> 1, policy head 2 -> 3.
fn tiny() -> Vec<Tensor> {
    vec![
        ("w1", vec![2, 2], vec![1.0, -1.0, 0.5, 2.0]),
        ("b1", vec![2], vec![0.1, -0.2]),
        ("wv", vec![2, 1], vec![0.3, -0.4]),
        ("bv", vec![1], vec![0.05]),
        ("wp", vec![2, 3], vec![1.0, 0.0, -1.0, 0.5, 0.25, 0.0]),
        ("bp", vec![3], vec![0.0, 0.1, 0.2]),
    ]
}

#[test]
fn the_forward_pass_is_the_hand_computation() {
    let network = Network::from_bytes(&file(&tiny(), &METADATA)).unwrap();
    network.check_game::<Nim>(2).unwrap();
    assert_eq!(network.hidden_sizes(), [2]);
    assert!(network.has_policy());
    assert_eq!(network.trained(), "by hand");
    // Heap 2, seat 1 to move: inputs ln 3, ln 2.
    let mut leaf = heap(3);
    leaf.apply(1);
    let (x0, x1) = (3f32.ln(), 2f32.ln());
    let h = [
        (0.1 + x0 * 1.0 + x1 * 0.5).max(0.0),
        (-0.2 + -x0 + x1 * 2.0).max(0.0),
    ];
    let v = (0.05 + 0.3 * h[0] - 0.4 * h[1]).tanh();
    // Legal: take 1 or 2 (numbers 0, 1).
    let logits = [h[0] + 0.5 * h[1], 0.1 + 0.25 * h[1]];
    let total = logits[0].exp() + logits[1].exp();
    let evaluation = NetEvaluator::new(&network)
        .evaluate(std::slice::from_ref(&leaf))
        .unwrap();
    // The legal actions' priors only, sparse: action 2 is not legal.
    let want_priors = [(0, logits[0].exp() / total), (1, logits[1].exp() / total)];
    let got_priors = evaluation.sparse_row(0).unwrap();
    assert_eq!(got_priors.len(), want_priors.len());
    for (&(a, got), (b, want)) in got_priors.iter().zip(want_priors) {
        assert_eq!(a, b);
        assert!((got - want).abs() < 1e-6, "{got} {want}");
    }
    assert_eq!(evaluation.priors_shape, [1, 0]);
    assert_eq!(
        evaluation.prior(0, 3, 1).to_bits(),
        got_priors[1].1.to_bits()
    );
    assert_eq!(evaluation.prior(0, 3, 2).to_bits(), 0f32.to_bits());
    assert!((evaluation.values[0] - v).abs() < 1e-6);
    assert!((evaluation.values[1] + v).abs() < 1e-6);
    evaluation.check(1, 3, 2).unwrap();
}

/// A network of `hidden` layers of random weights, half of them zero, without a policy head.
fn random_network(rng: &mut Rng, hidden: &[usize], columns: usize) -> Vec<u8> {
    let mut tensors: Vec<Tensor> = Vec::new();
    let mut random = |n: usize| -> Vec<f32> {
        (0..n)
            .map(|_| {
                let u = crate::random::unit(rng) as f32;
                if u < 0.5 { 0.0 } else { u - 0.75 }
            })
            .collect()
    };
    let names = [("w1", "b1"), ("w2", "b2"), ("w3", "b3")];
    let mut inputs = 2;
    for (&outputs, (w, b)) in hidden.iter().zip(names) {
        tensors.push((w, vec![inputs, outputs], random(inputs * outputs)));
        tensors.push((b, vec![outputs], random(outputs)));
        inputs = outputs;
    }
    tensors.push(("wv", vec![inputs, columns], random(inputs * columns)));
    tensors.push(("bv", vec![columns], random(columns)));
    file(&tensors, &METADATA)
}

#[test]
fn the_sparse_first_layer_is_the_dense_loop_and_value_only_has_no_priors() {
    let mut rng = Rng::seed_from_u64(3);
    let leaves: Vec<Nim> = (0..=12).map(heap).collect();
    for hidden in [&[5][..], &[7, 4], &[3, 6, 2]] {
        let network = Network::from_bytes(&random_network(&mut rng, hidden, 2)).unwrap();
        assert_eq!(network.hidden_sizes(), hidden);
        assert!(!network.has_policy());
        let sparse = NetEvaluator::new(&network).evaluate(&leaves).unwrap();
        let dense = NetEvaluator::new(&network)
            .dense()
            .evaluate(&leaves)
            .unwrap();
        assert_eq!(sparse.values, dense.values);
        assert_eq!(sparse.priors_shape, [leaves.len(), 0]);
        // Heap 0 is over: a zero row.
        assert_eq!(sparse.values[..2], [0.0, 0.0]);
        sparse.check(leaves.len(), 3, 2).unwrap();
    }
}

#[test]
fn every_refusal_of_the_format_says_what_is_wrong() {
    let refused = |tensors: &[Tensor], metadata: &[(&str, &str)], says: &str| {
        let error = Network::from_bytes(&file(tensors, metadata)).unwrap_err();
        assert!(error.0.contains(says), "{error} lacks {says:?}");
    };
    let with = |key: &str, value: &'static str| {
        let mut m = METADATA.to_vec();
        m.retain(|&(k, _)| k != key);
        m.push((key.to_string().leak(), value));
        m
    };
    let error = Network::from_bytes(b"not a network").unwrap_err();
    assert!(error.0.contains("not a safetensors file"), "{error}");
    refused(
        &tiny(),
        &with("format", "indigo-net/2"),
        "format is \"indigo-net/2\"",
    );
    refused(&tiny(), &with("input", "raw"), "input transform");
    refused(
        &tiny(),
        &with("players", "two"),
        "players must be a whole number",
    );
    let mut no_game = METADATA.to_vec();
    no_game.retain(|&(k, _)| k != "game");
    refused(&tiny(), &no_game, "no \"game\"");
    let without = |name: &str| {
        let mut t = tiny();
        t.retain(|(n, _, _)| *n != name);
        t
    };
    refused(&without("w1"), &METADATA, "no hidden layer w1");
    refused(&without("b1"), &METADATA, "no bias b1");
    refused(&without("wv"), &METADATA, "no value head");
    refused(&without("wp"), &METADATA, "bp without wp");
    let mut gap = tiny();
    gap.push(("w3", vec![2, 2], vec![0.0; 4]));
    refused(&gap, &METADATA, "tensor w3 is not one of");
    let mut shaped = tiny();
    shaped[0].1 = vec![4, 1];
    refused(
        &shaped,
        &METADATA,
        "tensor w1 has shape [4, 1], not [2, outputs]",
    );
    let mut shaped = tiny();
    shaped[4] = ("wp", vec![2, 2], vec![0.0; 4]);
    refused(&shaped, &METADATA, "tensor wp has shape [2, 2], not [2, 3]");
    let mut shaped = tiny();
    shaped[1].1 = vec![1, 2];
    refused(&shaped, &METADATA, "tensor b1 has shape [1, 2], not [2]");

    // Fits the file, not the game.
    let game = |metadata: &[(&str, &str)], players: usize, says: &str| {
        let network = Network::from_bytes(&file(&tiny(), metadata)).unwrap();
        let error = network.check_game::<Nim>(players).unwrap_err();
        assert!(error.0.contains(says), "{error} lacks {says:?}");
    };
    game(
        &with("game", "indigo"),
        2,
        "a network of \"indigo\", not of \"nim\"",
    );
    let sizes = [("observation_size", "3"), ("action_count", "4")];
    for (key, value) in sizes {
        let mut m = with(key, value);
        if key == "observation_size" {
            // w1's rows follow the declared size.
            let mut t = tiny();
            t[0] = ("w1", vec![3, 2], vec![0.0; 6]);
            let network = Network::from_bytes(&file(&t, &m)).unwrap();
            let error = network.check_game::<Nim>(2).unwrap_err();
            assert!(error.0.contains("observation_size is 3"), "{error}");
        } else {
            m.retain(|&(k, _)| k != "trained");
            let mut t = tiny();
            t[4] = ("wp", vec![2, 4], vec![0.0; 8]);
            t[5] = ("bp", vec![4], vec![0.0; 4]);
            let network = Network::from_bytes(&file(&t, &m)).unwrap();
            let error = network.check_game::<Nim>(2).unwrap_err();
            assert!(error.0.contains("action_count is 4"), "{error}");
        }
    }
    game(&METADATA, 3, "trained for 2 players, and this game has 3");
}

#[test]
fn a_file_is_named_in_its_refusal() {
    let error = Network::load("/no/such/network.safetensors").unwrap_err();
    assert!(error.0.contains("/no/such/network.safetensors"), "{error}");
    let path = std::env::temp_dir().join(format!("indigo-net-{}.bin", std::process::id()));
    std::fs::write(&path, b"garbage").unwrap();
    let error = Network::load(&path).unwrap_err();
    std::fs::remove_file(&path).unwrap();
    assert!(error.0.contains(&*path.to_string_lossy()), "{error}");
    assert!(error.0.contains("not a safetensors file"), "{error}");
}

#[test]
fn half_precision_reads_exactly() {
    for (bits, want) in [
        (0x3c00, 1.0f32),
        (0xc000, -2.0),
        (0x3555, 0.333_251_95),
        (0x0001, 5.960_464_5e-8),
        (0x7bff, 65504.0),
        (0x0000, 0.0),
    ] {
        assert_eq!(
            super::f16_to_f32(bits).to_bits(),
            want.to_bits(),
            "{bits:#x}"
        );
    }
    assert!(super::f16_to_f32(0x7c00).is_infinite());
}

#[test]
fn puct_with_a_network_finds_nims_winning_move_with_threads_reproducibly() {
    // The value of a heap is +1 for the mover exactly off multiples of 4: no MLP this small
    // learns that, so this network only steers; the search still finds the win by visiting
    // the end of the game.
    let network =
        Network::from_bytes(&random_network(&mut Rng::seed_from_u64(9), &[4], 1)).unwrap();
    let evaluator = NetEvaluator::new(&network);
    let stop = AtomicBool::new(false);
    let config = PuctConfig::default()
        .with_budget(crate::Budget::Simulations(3000))
        .unwrap()
        .with_threads(3)
        .unwrap();
    let run = |seed: u64| {
        crate::Puct::new(config, seed)
            .search_parallel_until(&heap(6), &evaluator, &stop)
            .unwrap()
            .unwrap()
    };
    let first = run(1);
    assert_eq!(first.best, 2);
    assert_eq!(first.simulations, 3000);
    assert_eq!(first.visits.iter().map(|v| v.1).sum::<u32>(), 3000);
    assert_eq!(run(1), first);
    // The same trees grown in turn with one evaluator: a network answers alike.
    let mut one = evaluator.clone();
    let in_turn = crate::Puct::new(config, 1)
        .search(&heap(6), &mut one)
        .unwrap()
        .unwrap();
    assert_eq!(in_turn, first);
}

#[test]
fn a_net_spec_reads_its_file_once_and_reads_back() {
    use crate::{Bot as _, BotSpec, Turn};
    let path = std::env::temp_dir().join(format!("indigo-spec-{}.safetensors", std::process::id()));
    std::fs::write(&path, file(&tiny(), &METADATA)).unwrap();
    let text = format!("net:file={},30,threads=2", path.display());
    let spec: BotSpec = text.parse().unwrap();
    std::fs::remove_file(&path).unwrap();
    let canonical = format!("net:30,threads=2,file={}", path.display());
    assert_eq!(spec.to_string(), canonical);
    spec.check::<Nim>(Some(2)).unwrap();
    let error = spec.check::<Nim>(Some(3)).unwrap_err();
    assert!(error.0.contains(&*path.to_string_lossy()), "{error}");
    assert!(error.0.contains("trained for 2 players"), "{error}");
    // Read back from the text alone, the file gone: the network kept when it was read.
    std::fs::write(&path, file(&tiny(), &METADATA)).unwrap();
    assert_eq!(canonical.parse::<BotSpec>().unwrap(), spec);
    std::fs::remove_file(&path).unwrap();
    let mut bots = [spec.build::<Nim>(1), spec.build::<Nim>(2)];
    let mut nim = heap(9);
    while let Turn::Player(seat) = nim.turn() {
        let take = bots[usize::from(seat)].choose(&nim).unwrap();
        assert!((1..=3).contains(&take) && take <= nim.heap);
        nim.apply(take);
    }
    assert_eq!(nim.winners().count_ones(), 1);
}

#[test]
fn a_net_spec_steers_by_a_policy_head_unless_its_settings_say_otherwise() {
    use crate::{BotSpec, Budget, NetSpec};
    let policy = Network::from_bytes(&file(&tiny(), &METADATA)).unwrap();
    let value_only =
        Network::from_bytes(&random_network(&mut Rng::seed_from_u64(1), &[3], 1)).unwrap();
    let BotSpec::Net(net) = "net:30".parse().unwrap() else {
        unreachable!("a net spec")
    };
    let steered = net.config_for(Some(&policy));
    assert_eq!(
        (steered.playout_mix(), steered.expansion(), steered.c_puct()),
        (
            NetSpec::POLICY_PLAYOUT_MIX as f32,
            NetSpec::POLICY_EXPANSION as u32,
            NetSpec::POLICY_C_PUCT as f32
        )
    );
    assert_eq!(steered.budget(), Budget::Simulations(30));
    // AlphaZero's settings for a value-only network, or none.
    let alphazero = PuctConfig::default()
        .with_budget(Budget::Simulations(30))
        .unwrap();
    assert_eq!(net.config_for(Some(&value_only)), alphazero);
    assert_eq!(net.config_for(None), alphazero);
    let text = "net:30,mix=0.25,expand=1,c=2";
    let BotSpec::Net(named) = text.parse().unwrap() else {
        unreachable!("a net spec")
    };
    let kept = named.config_for(Some(&policy));
    assert_eq!(
        (kept.playout_mix(), kept.expansion(), kept.c_puct()),
        (0.25, 1, 2.0)
    );
    assert_eq!(
        BotSpec::Net(named).to_string(),
        "net:30,c=2,mix=0.25,expand=1"
    );
}
