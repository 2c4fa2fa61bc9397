//! The PUCT search on Nim (one heap, take 1 to 3, whoever takes the last wins): the mover
//! wins exactly when the heap is not a multiple of 4, by leaving one.
#![allow(clippy::float_cmp)] // exact values: the settings as given, a value of exactly 0

use std::convert::Infallible;
use std::sync::atomic::AtomicBool;

use rand::SeedableRng;

use super::{Chosen, NONE, Scratch, Stats, Tree};
use crate::game::SortedActions;
use crate::random::unit;
use crate::*;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Nim {
    pub(crate) heap: u8,
    to_move: u8,
    moves: u32,
}

impl Game for Nim {
    type Action = u8;
    type Actions = SortedActions<u8>;
    type Information = (Nim, u8);
    const NAME: &'static str = "nim";

    fn players(&self) -> usize {
        2
    }

    fn turn(&self) -> Turn {
        if self.heap == 0 {
            Turn::Over
        } else {
            Turn::Player(self.to_move)
        }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend(1..=self.heap.min(3));
    }

    fn legal_set(&self, out: &mut SortedActions<u8>) {
        out.fill(1..=self.heap.min(3));
    }

    fn apply(&mut self, action: u8) {
        self.heap -= action;
        self.moves += 1;
        self.to_move = 1 - self.to_move;
    }

    fn information(&self, seat: u8) -> (Nim, u8) {
        (self.clone(), seat)
    }

    fn observer(info: &(Nim, u8)) -> u8 {
        info.1
    }

    fn sample(info: &(Nim, u8), _: &mut Rng) -> Nim {
        info.0.clone()
    }

    fn information_string(&self, seat: u8) -> String {
        format!("{seat} {self:?}")
    }

    fn returns(&self) -> [f64; MAX_PLAYERS] {
        let mut r = [0.0; MAX_PLAYERS];
        if self.heap == 0 {
            r[usize::from(1 - self.to_move)] = 1.0; // the seat that took the last
        }
        r
    }

    fn scores(&self) -> [i64; MAX_PLAYERS] {
        self.returns().map(|r| r as i64)
    }

    fn winners(&self) -> u8 {
        if self.heap == 0 {
            1 << (1 - self.to_move)
        } else {
            0
        }
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }
}

impl Encoded for Nim {
    const OBSERVATION_SIZE: usize = 2;
    const ACTION_COUNT: usize = 3;
    type Legal = LegalMasks<3>;

    fn action_number(action: u8) -> usize {
        usize::from(action) - 1
    }

    fn observation(&self, seat: u8, out: &mut [f32]) {
        out[0] = f32::from(self.heap);
        out[1] = f32::from(seat);
    }
}

pub(crate) fn heap(heap: u8) -> Nim {
    Nim {
        heap,
        to_move: 0,
        moves: 0,
    }
}

fn config(simulations: i64, batch: i64, fraction: f64, temperature: f64) -> PuctConfig {
    PuctConfig::new(simulations, batch, 1.5, 0.3, fraction, temperature).unwrap()
}

/// Priors `priors` for every leaf and the true value of each leaf.
fn oracle(priors: [f32; 3]) -> FnEvaluator<impl FnMut(&[Nim]) -> Evaluation> {
    FnEvaluator(move |leaves: &[Nim]| {
        let values = leaves.iter().flat_map(|l| {
            let v = if l.heap % 4 == 0 { -1.0 } else { 1.0 };
            [v, -v]
        });
        Evaluation::new(
            leaves.len(),
            leaves.iter().flat_map(|_| priors).collect(),
            values.collect(),
        )
    })
}

/// Priors `priors` and value 0 for every leaf: only the priors tell the actions apart.
fn flat(priors: [f32; 3]) -> FnEvaluator<impl FnMut(&[Nim]) -> Evaluation> {
    FnEvaluator(move |leaves: &[Nim]| {
        Evaluation::new(
            leaves.len(),
            leaves.iter().flat_map(|_| priors).collect(),
            vec![0.0; leaves.len() * 2],
        )
    })
}

fn visits(result: &PuctResult<u8>, action: u8) -> u32 {
    result
        .visits
        .iter()
        .find(|v| v.0 == action)
        .map_or(0, |v| v.1)
}

#[test]
fn an_oracle_finds_the_winning_move_against_misleading_priors() {
    for h in [5u8, 6, 7, 9, 10, 11] {
        // The priors favour taking 3 whatever the heap, wrongly for 5 and 6.
        let mut puct = Puct::new(config(200, 4, 0.0, 0.0), 1);
        let result = puct
            .search(&heap(h), &mut oracle([0.1, 0.1, 0.8]))
            .unwrap()
            .unwrap();
        assert_eq!(result.best, h % 4, "heap {h}: {result:?}");
        assert!(result.value > 0.5, "{result:?}");
        assert_eq!(result.visits.iter().map(|v| v.1).sum::<u32>(), 200);
        assert_eq!(result.simulations, 200);
    }
}

#[test]
fn no_priors_search_as_uniform_ones() {
    // Priors of shape (rows, 0) are uniform: the same search as equal weights everywhere.
    fn search(h: u8, evaluator: &mut impl Evaluator<Nim, Error = Infallible>) -> PuctResult<u8> {
        let mut puct = Puct::new(config(120, 4, 0.25, 1.0), 5);
        puct.search(&heap(h), evaluator).unwrap().unwrap()
    }
    let mut none = FnEvaluator(|leaves: &[Nim]| {
        Evaluation::new(leaves.len(), Vec::new(), vec![0.0; leaves.len() * 2])
    });
    for h in [5u8, 9, 12] {
        assert_eq!(
            search(h, &mut none),
            search(h, &mut flat([1.0; 3])),
            "heap {h}"
        );
    }
}

#[test]
fn sparse_priors_search_as_the_same_dense_ones_and_bad_ones_are_refused() {
    // The oracle's values with priors naming only the positive weights, row by row.
    let priors = [0.1, 0.0, 0.9];
    let mut sparse = FnEvaluator(move |leaves: &[Nim]| {
        let dense = oracle(priors).0(leaves);
        let entries: Vec<(u32, f32)> = leaves
            .iter()
            .flat_map(|_| [(0, priors[0]), (2, priors[2])])
            .collect();
        let ends = (1..=leaves.len()).map(|r| 2 * r as u32).collect();
        Evaluation::sparse(leaves.len(), entries, ends, dense.values)
    });
    for h in [5u8, 9, 12] {
        let search = |evaluator: &mut dyn FnMut(&mut Puct) -> PuctResult<u8>| {
            evaluator(&mut Puct::new(config(150, 4, 0.25, 1.0), 7))
        };
        let want = search(&mut |p| p.search(&heap(h), &mut oracle(priors)).unwrap().unwrap());
        let got = search(&mut |p| p.search(&heap(h), &mut sparse).unwrap().unwrap());
        assert_eq!(got, want, "heap {h}");
    }
    let values = vec![0.0; 4];
    let bad = [
        (vec![(2, 0.5), (1, 0.5)], vec![2, 2], "not ascending"),
        (vec![(0, 0.5), (3, 0.5)], vec![1, 2], "name action 3"),
        (vec![(0, 0.5)], vec![1], "must have 2 rows"),
        (vec![(0, 0.5), (1, 0.5)], vec![2, 1], "out of order"),
        (
            vec![(0, 0.5), (1, 0.5)],
            vec![1, 1],
            "beyond their last row",
        ),
        (vec![(0, -0.5)], vec![1, 1], "finite and non-negative"),
    ];
    for (entries, ends, message) in bad {
        let error = Evaluation::sparse(2, entries, ends, values.clone())
            .check(2, 3, 2)
            .unwrap_err();
        assert!(error.0.contains(message), "{error}");
    }
    let mut both = Evaluation::sparse(2, vec![(0, 1.0)], vec![1, 1], values);
    both.check(2, 3, 2).unwrap();
    both.priors = vec![1.0; 6];
    both.priors_shape = vec![2, 3];
    assert!(both.check(2, 3, 2).unwrap_err().0.contains("dense ones"));
}

#[test]
fn rollouts_find_the_winning_move() {
    for h in [5u8, 6, 7] {
        let mut puct = Puct::new(config(1500, 8, 0.0, 0.0), 2);
        let found = puct.search(&heap(h), &mut RolloutEvaluator::new(3));
        assert_eq!(found.unwrap().unwrap().best, h % 4, "heap {h}");
    }
}

#[test]
fn priors_steer_the_visits() {
    for favourite in [1u8, 2, 3] {
        let mut priors = [0.1; 3];
        priors[usize::from(favourite) - 1] = 0.8;
        let mut puct = Puct::new(config(100, 1, 0.0, 0.0), 1);
        let result = puct.search(&heap(20), &mut flat(priors)).unwrap().unwrap();
        let most = result.visits.iter().max_by_key(|v| v.1).unwrap();
        assert_eq!(most.0, favourite, "{result:?}");
        assert!(most.1 > 60, "{result:?}");
        assert_eq!(result.best, favourite);
    }
}

#[test]
fn dirichlet_noise_changes_the_root_visits_only_when_enabled() {
    let run = |fraction: f64, seed: u64| {
        let mut puct = Puct::new(config(64, 4, fraction, 0.0), seed);
        puct.search(&heap(20), &mut flat([0.2, 0.3, 0.5]))
            .unwrap()
            .unwrap()
            .visits
    };
    let quiet: Vec<_> = (0..6).map(|seed| run(0.0, seed)).collect();
    assert!(quiet.iter().all(|v| *v == quiet[0]), "{quiet:?}");
    let noisy: Vec<_> = (0..6).map(|seed| run(0.5, seed)).collect();
    assert!(noisy.iter().any(|v| *v != quiet[0]), "{noisy:?}");
    assert!(noisy.iter().any(|v| *v != noisy[0]), "{noisy:?}");
}

#[test]
fn leaves_come_in_batches_of_at_most_batch_size() {
    for batch in [1usize, 3, 8, 64] {
        let mut calls = Vec::new();
        let mut counting = FnEvaluator(|leaves: &[Nim]| {
            calls.push(leaves.len());
            Evaluation::new(
                leaves.len(),
                vec![1.0; leaves.len() * 3],
                vec![0.0; leaves.len() * 2],
            )
        });
        let mut puct = Puct::new(config(50, batch as i64, 0.0, 0.0), 1);
        let result = puct.search(&heap(30), &mut counting).unwrap().unwrap();
        assert_eq!(calls[0], 1, "the root alone first");
        assert!(calls.iter().all(|&n| (1..=batch).contains(&n)), "{calls:?}");
        // No game ends within reach of 50 simulations from 30: every one is a leaf.
        assert_eq!(calls[1..].iter().sum::<usize>(), 50);
        assert_eq!(calls.len(), 1 + 50usize.div_ceil(batch));
        assert_eq!(result.evaluations, calls.len() as u64);
    }
}

#[test]
fn the_same_seed_gives_the_same_search_and_temperature_draws() {
    let run = |seed: u64, temperature: f64| {
        let mut puct = Puct::new(config(80, 4, 0.25, temperature), seed);
        let mut evaluator = RolloutEvaluator::new(seed);
        puct.search(&heap(13), &mut evaluator).unwrap().unwrap()
    };
    assert_eq!(run(4, 1.0), run(4, 1.0));
    // At temperature 1 the choice follows the visits: different seeds choose differently.
    let chosen: std::collections::BTreeSet<u8> = (0..30).map(|seed| run(seed, 1.0).best).collect();
    assert!(chosen.len() > 1, "{chosen:?}");
    for seed in 0..30 {
        let cold = run(seed, 0.0);
        let most = cold.visits.iter().map(|v| v.1).max().unwrap();
        assert_eq!(visits(&cold, cold.best), most);
    }
}

/// Fails at its third call.
struct Failing(usize);
impl Evaluator<Nim> for Failing {
    type Error = String;
    fn evaluate(&mut self, leaves: &[Nim]) -> Result<Evaluation, String> {
        self.0 += 1;
        if self.0 == 3 {
            return Err("no more".into());
        }
        Ok(Evaluation::new(
            leaves.len(),
            vec![1.0; leaves.len() * 3],
            vec![0.0; leaves.len() * 2],
        ))
    }
}

#[test]
fn a_wrong_evaluation_is_refused_and_an_evaluator_error_returned() {
    let mut puct = Puct::new(config(10, 2, 0.0, 0.0), 1);
    let mut short = FnEvaluator(|leaves: &[Nim]| {
        Evaluation::new(
            leaves.len(),
            vec![1.0; leaves.len() * 2],
            vec![0.0; leaves.len() * 2],
        )
    });
    let Err(PuctError::Evaluation(e)) = puct.search(&heap(9), &mut short) else {
        panic!("accepted priors of the wrong shape");
    };
    assert_eq!(
        e.0,
        "the evaluator's priors must have shape (1, 3) for 1 leaves, not (1, 2)"
    );
    let mut high = FnEvaluator(|leaves: &[Nim]| {
        Evaluation::new(
            leaves.len(),
            vec![1.0; leaves.len() * 3],
            vec![1.5; leaves.len() * 2],
        )
    });
    let Err(PuctError::Evaluation(e)) = puct.search(&heap(9), &mut high) else {
        panic!("accepted a value above 1");
    };
    assert!(e.0.contains("in [-1, 1], not 1.5"), "{e}");
    let mut failing = Failing(0);
    assert_eq!(
        puct.search(&heap(9), &mut failing),
        Err(PuctError::Evaluator("no more".to_string()))
    );
    assert_eq!(failing.0, 3, "the search stops at the error");
    let _: Result<_, PuctError<Infallible>> = puct.search(&heap(0), &mut RolloutEvaluator::new(1));
    assert_eq!(
        puct.search(&heap(0), &mut RolloutEvaluator::new(1)),
        Ok(None)
    );
}

#[test]
fn settings_are_checked() {
    assert!(PuctConfig::new(0, 1, 1.0, 0.3, 0.0, 0.0).is_err());
    assert!(PuctConfig::new(1, 0, 1.0, 0.3, 0.0, 0.0).is_err());
    assert!(PuctConfig::new(1, 1, 0.0, 0.3, 0.0, 0.0).is_err());
    assert!(PuctConfig::new(1, 1, 1.0, 0.0, 0.0, 0.0).is_err());
    assert!(PuctConfig::new(1, 1, 1.0, 0.3, 1.5, 0.0).is_err());
    let e = PuctConfig::new(1, 1, 1.0, 0.3, 0.0, -1.0).unwrap_err();
    assert_eq!(e.0, "temperature must be from 0 to 100, not -1");
    assert!(PuctConfig::new(1, 1, 1.0, 0.3, f64::NAN, 0.0).is_err());
}

#[test]
fn mixed_and_expansion_settings_are_checked() {
    let c = PuctConfig::default();
    assert_eq!(c.playout_mix(), 0.0);
    assert_eq!(c.expansion(), 1);
    assert_eq!(c.with_playout_mix(0.5).unwrap().playout_mix(), 0.5);
    for bad in [-0.1, 1.01, f64::NAN] {
        assert!(c.with_playout_mix(bad).is_err(), "{bad}");
    }
    assert_eq!(c.with_expansion(8).unwrap().expansion(), 8);
    let e = c.with_expansion(0).unwrap_err();
    assert_eq!(
        e.0,
        "expansion must be a whole number from 1 to 1000, not 0"
    );
    assert!(c.with_expansion(1001).is_err());
}

#[test]
fn a_playout_mixed_in_values_the_leaves_an_evaluator_does_not() {
    // `flat` values every leaf 0; with the playouts' results mixed in, the search finds
    // the winning move.
    let mixed = config(800, 8, 0.0, 0.0).with_playout_mix(1.0).unwrap();
    for h in [5u8, 6, 7] {
        let mut puct = Puct::new(mixed, 2);
        let result = puct.search(&heap(h), &mut flat([1.0; 3])).unwrap().unwrap();
        assert_eq!(result.best, h % 4, "heap {h}: {result:?}");
        assert!(result.value > 0.0, "{result:?}");
    }
    // From 30 no game ends within reach of the tree: unmixed, every value is `flat`'s 0.
    let value = |config| {
        let mut puct = Puct::new(config, 2);
        puct.search(&heap(30), &mut flat([1.0; 3]))
            .unwrap()
            .unwrap()
            .value
    };
    assert_eq!(value(config(800, 8, 0.0, 0.0)), 0.0);
    assert_ne!(value(mixed), 0.0);
}

#[test]
fn a_leaf_waits_for_its_expansion_visit_to_be_evaluated() {
    // With batches of 1 a node is evaluated once, at its `expansion`-th visit: the
    // `expansion - 1` simulations before ended there without a row, so at most
    // 400 / expansion rows are asked for.
    let mut rows = Vec::new();
    for expansion in [1i64, 2, 8] {
        let mut calls = Vec::new();
        let config = config(400, 1, 0.0, 0.0).with_expansion(expansion).unwrap();
        let result = Puct::new(config, 4)
            .search(&heap(30), &mut counted(&mut calls, flat([1.0; 3])))
            .unwrap()
            .unwrap();
        assert_eq!(result.simulations, 400);
        assert_eq!(result.visits.iter().map(|v| v.1).sum::<u32>(), 400);
        let leaves: usize = calls[1..].iter().sum();
        assert!(
            leaves > 0 && leaves * expansion as usize <= 400,
            "{expansion}: {leaves}"
        );
        rows.push(leaves);
    }
    // No game ends within reach of the tree from 30: every simulation is a row at 1.
    assert_eq!(rows[0], 400);
    assert!(rows[2] < rows[1], "{rows:?}");
}

#[test]
fn the_rollout_bot_plays_nim_well() {
    let mut bot = PuctBot {
        puct: Puct::new(config(800, 8, 0.0, 0.0), 5),
        evaluator: RolloutEvaluator::new(5),
    };
    assert_eq!(Bot::<Nim>::choose(&mut bot, &heap(7)), Some(3));
    assert_eq!(Bot::<Nim>::choose(&mut bot, &heap(0)), None);
}

#[test]
fn a_time_budget_and_the_stop_flag_end_a_search() {
    let timed = PuctConfig::default()
        .with_budget(Budget::seconds(0.01).unwrap())
        .unwrap();
    assert_eq!(timed.simulations(), PuctConfig::MAX_SIMULATIONS);
    let found = Puct::new(timed, 1)
        .search(&heap(30), &mut RolloutEvaluator::new(2))
        .unwrap()
        .unwrap();
    assert!(found.simulations > 0 && found.simulations < PuctConfig::MAX_SIMULATIONS);
    // Stopped before it starts: one batch of each tree, then the answer.
    let stopped = std::sync::atomic::AtomicBool::new(true);
    let threads = timed.with_threads(2).unwrap();
    let found = Puct::new(threads, 1)
        .search_parallel_until(&heap(30), &RolloutEvaluator::new(2), &stopped)
        .unwrap()
        .unwrap();
    assert_eq!(found.simulations, 2 * PuctConfig::DEFAULT_BATCH_SIZE as u64);
    assert!(PuctConfig::default().with_threads(0).is_err());
    assert!(
        PuctConfig::default()
            .with_budget(Budget::Simulations(PuctConfig::MAX_SIMULATIONS + 1))
            .is_err()
    );
}

/// `evaluator` with the size of every batch it is asked for kept in `calls`.
fn counted<'a>(
    calls: &'a mut Vec<usize>,
    mut evaluator: impl Evaluator<Nim, Error = Infallible> + 'a,
) -> FnEvaluator<impl FnMut(&[Nim]) -> Evaluation + 'a> {
    FnEvaluator(move |leaves: &[Nim]| {
        calls.push(leaves.len());
        match evaluator.evaluate(leaves) {
            Ok(evaluation) => evaluation,
        }
    })
}

#[test]
fn searches_grown_together_find_what_each_finds_alone_in_fewer_larger_calls() {
    // Noise and a temperature draw from each tree's generator; two threads are two trees.
    for threads in [1, 2] {
        let config = config(60, 4, 0.25, 1.0).with_threads(threads).unwrap();
        let heaps = [9u8, 13, 20, 30, 31];
        let mut alone_calls = Vec::new();
        let alone: Vec<_> = heaps
            .iter()
            .map(|&h| {
                let mut evaluator = counted(&mut alone_calls, oracle([0.2, 0.3, 0.5]));
                let mut puct = Puct::new(config, u64::from(h));
                puct.search(&heap(h), &mut evaluator).unwrap().unwrap()
            })
            .collect();
        let mut searches: Vec<_> = heaps
            .iter()
            .map(|&h| {
                Puct::new(config, u64::from(h))
                    .start_search(&heap(h))
                    .unwrap()
            })
            .collect();
        let mut together_calls = Vec::new();
        let mut evaluator = counted(&mut together_calls, oracle([0.2, 0.3, 0.5]));
        search_together(&mut searches, &mut evaluator, &AtomicBool::new(false)).unwrap();
        drop(evaluator);
        assert!(searches.iter().all(PuctSearch::is_finished));
        let together: Vec<_> = searches.into_iter().map(PuctSearch::result).collect();
        assert_eq!(together, alone, "threads {threads}");
        // Every tree's root in the first call, then every tree's batch of 4 in each call.
        let trees = heaps.len() * threads as usize;
        assert_eq!(together_calls[0], trees, "{together_calls:?}");
        assert_eq!(together_calls[1], trees * 4, "{together_calls:?}");
        assert_eq!(
            together_calls.iter().sum::<usize>(),
            alone_calls.iter().sum::<usize>()
        );
        assert!(
            together_calls.len() * 4 < alone_calls.len(),
            "{together_calls:?}"
        );
        assert!(alone_calls.iter().all(|&n| n <= 4));
    }
}

#[test]
fn an_evaluator_error_ends_searches_grown_together() {
    let mut searches: Vec<_> = (0..3)
        .map(|seed| {
            Puct::new(config(40, 2, 0.0, 0.0), seed)
                .start_search(&heap(20))
                .unwrap()
        })
        .collect();
    let mut failing = Failing(0);
    let stop = AtomicBool::new(false);
    assert_eq!(
        search_together(&mut searches, &mut failing, &stop),
        Err(PuctError::Evaluator("no more".to_string()))
    );
    assert_eq!(failing.0, 3, "the rounds stop at the error");
    assert!(searches.iter().all(|s| !s.is_finished()));
    assert!(
        Puct::new(config(4, 2, 0.0, 0.0), 1)
            .start_search(&heap(0))
            .is_none()
    );
}

/// Game `index` of a Nim self-play: its start, its seed and its search.
fn nim_game(index: u64) -> (Nim, u64, Puct) {
    let seed = game_seed(7, index);
    let puct = Puct::new(config(24, 4, 0.25, 1.0), mix(seed, 1));
    (heap(9 + (index % 5) as u8), seed, puct)
}

#[test]
fn self_play_in_flight_plays_the_games_of_one_at_a_time_in_fewer_larger_calls() {
    // One game at a time, each search alone: the games as self_play_with plays them.
    let mut alone = Vec::new();
    let mut evaluator = oracle([0.2, 0.3, 0.5]);
    for index in 3..10 {
        let (state, seed, mut puct) = nim_game(index);
        let game = self_play_with(state, seed, index, |state, _| {
            let found = puct.search(state, &mut evaluator)?;
            Ok::<_, PuctError<Infallible>>(found.map(|r| (r.best, Some(r.visits))))
        });
        alone.push(game.unwrap());
    }
    let summary = |games: &[SelfPlayOf<Nim>]| {
        games
            .iter()
            .map(|g| (g.seed, g.actions.clone(), g.outcome, g.samples.clone()))
            .collect::<Vec<_>>()
    };
    let mut counts = Vec::new();
    for in_flight in [1, 3, 7, 100] {
        let mut calls = Vec::new();
        let mut evaluator = counted(&mut calls, oracle([0.2, 0.3, 0.5]));
        let played = puct_self_play(3..10, in_flight, nim_game, &mut evaluator).unwrap();
        drop(evaluator);
        assert_eq!(summary(&played), summary(&alone), "in flight {in_flight}");
        assert!(played.iter().all(|g| g.samples.searched.iter().all(|&s| s)));
        if in_flight == 1 {
            assert!(calls.iter().all(|&n| n <= 4), "{calls:?}");
        } else {
            assert!(calls.iter().any(|&n| n > 4), "{calls:?}");
        }
        counts.push(calls.len());
    }
    // More games in flight, fewer calls (7 and 100 both hold all 7 games).
    assert!(
        counts[0] > 2 * counts[1] && counts[1] > counts[2],
        "{counts:?}"
    );
    assert_eq!(counts[2], counts[3]);
    let mut failing = Failing(0);
    let failed = puct_self_play(0..4, 2, nim_game, &mut failing);
    assert_eq!(
        failed.unwrap_err(),
        PuctError::Evaluator("no more".to_string())
    );
    let none = puct_self_play(5..5, 2, nim_game, &mut oracle([1.0; 3])).unwrap();
    assert!(none.is_empty());
}

/// A random tree node for [`super::Tree::choose`]: its priors added in two rows (the second
/// merged into the first, as a second determinization's evaluation is), children made for
/// some actions with an entry and some without, in between and after, with random visits
/// and values.
fn random_node(rng: &mut Rng) -> Tree<u8> {
    // One in `listed` actions has an entry in each row, one in `made` a child; values
    // lean to losses as often as not.
    let listed = [1, 3, 10][below(rng, 3)];
    let made_one_in = [1, 2, 4][below(rng, 3)];
    let lean = [0.0, -0.9][below(rng, 2)];
    let mut tree = Tree::new(0, 0);
    let row = |rng: &mut Rng| -> Vec<(u8, f32)> {
        let mut entries = Vec::new();
        for a in 0..40u8 {
            if below(rng, listed) == 0 {
                let prior = if below(rng, 8) == 0 {
                    0.0
                } else {
                    unit(rng) as f32
                };
                entries.push((a, prior));
            }
        }
        entries
    };
    let make_children = |tree: &mut Tree<u8>, rng: &mut Rng| {
        for action in 0..40u8 {
            let mut made = false;
            let mut c = tree.nodes[0].first_child;
            while c != NONE {
                made |= tree.nodes[c as usize].action == action;
                c = tree.nodes[c as usize].next_sibling;
            }
            if made || below(rng, made_one_in) != 0 {
                continue;
            }
            let (start, end) = tree.nodes[0].priors.unwrap_or((0, 0));
            let entry = (start..end).find(|&k| tree.entries[k as usize].action == action);
            let child = tree.add_child(0, action, 0, entry.unwrap_or(NONE));
            let visits = 1 + below(rng, 30) as u32;
            let mean = (lean + unit(rng) as f32 * 2.0 - 1.0).max(-1.0);
            *tree.stats_mut(child) = Stats::new(visits, mean * visits as f32);
        }
    };
    let first = row(rng);
    tree.add_priors(0, first.into_iter());
    make_children(&mut tree, rng);
    let second = row(rng);
    tree.add_priors(0, second.into_iter());
    make_children(&mut tree, rng);
    tree
}

/// Every entry's child is the child of its action and points back at it, the entries
/// without a child have no statistics, and the node counts the children without an entry.
fn check_entries(tree: &Tree<u8>) {
    let (start, end) = tree.nodes[0].priors.unwrap();
    let row = &tree.entries[start as usize..end as usize];
    assert!(
        row.windows(2).all(|w| w[0].action < w[1].action),
        "ascending, once each"
    );
    let mut unlisted = 0;
    let mut child = tree.nodes[0].first_child;
    while child != NONE {
        let n = &tree.nodes[child as usize];
        if let Some(i) = row.iter().position(|e| e.action == n.action) {
            assert_eq!(row[i].child, child);
            assert_eq!(n.entry, start + i as u32);
        } else {
            assert_eq!(n.entry, NONE);
            unlisted += 1;
        }
        assert!(tree.stats(child).visits > 0, "statistics kept");
        child = n.next_sibling;
    }
    assert_eq!(tree.nodes[0].unlisted, unlisted);
    assert!(
        row.iter()
            .all(|e| e.child != NONE || (e.stats.visits == 0 && e.stats.value == 0.0))
    );
    let made = row.iter().filter(|e| e.child != NONE).count();
    assert_eq!(made as u32 + unlisted, {
        let mut n = 0;
        let mut c = tree.nodes[0].first_child;
        while c != NONE {
            n += 1;
            c = tree.nodes[c as usize].next_sibling;
        }
        n
    });
}

/// Legal action `action`'s PUCT score at the root of `tree` (the node of [`random_node`]),
/// every legal action looked at.
fn reference_score(tree: &Tree<u8>, legal: &[u8], c_puct: f32, action: u8) -> f32 {
    let (start, end) = tree.nodes[0].priors.unwrap();
    let row = &tree.entries[start as usize..end as usize];
    let child_of = |a: u8| {
        let mut c = tree.nodes[0].first_child;
        while c != NONE && tree.nodes[c as usize].action != a {
            c = tree.nodes[c as usize].next_sibling;
        }
        c
    };
    let prior_of = |a: u8| row.iter().find(|e| e.action == a).map(|e| e.prior);
    let weights: f32 = legal.iter().filter_map(|&a| prior_of(a)).sum();
    let visits: u32 = legal
        .iter()
        .map(|&a| child_of(a))
        .filter(|&c| c != NONE)
        .map(|c| tree.stats(c).visits)
        .sum();
    let explore = c_puct * (visits.max(1) as f32).sqrt();
    let share = if weights > 0.0 {
        prior_of(action).unwrap_or(0.0) / weights
    } else {
        1.0 / legal.len() as f32
    };
    let (q, n) = match child_of(action) {
        NONE => (0.0, 0.0),
        c => {
            let stats = tree.stats(c);
            (stats.value / stats.visits as f32, stats.visits as f32)
        }
    };
    q + explore * share / (1.0 + n)
}

#[test]
fn the_descent_chooses_what_scoring_every_legal_action_chooses() {
    let mut rng = Rng::seed_from_u64(8);
    let (mut fallbacks, mut evaluations) = (0, 0);
    for _ in 0..3000 {
        let tree = random_node(&mut rng);
        check_entries(&tree);
        let priors = tree.nodes[0].priors.unwrap();
        let row = &tree.entries[priors.0 as usize..priors.1 as usize];
        let child_of = |action: u8| {
            let mut c = tree.nodes[0].first_child;
            while c != NONE && tree.nodes[c as usize].action != action {
                c = tree.nodes[c as usize].next_sibling;
            }
            c
        };
        let one_in = [1, 2, 10][below(&mut rng, 3)];
        let legal: Vec<u8> = (0..40u8).filter(|_| below(&mut rng, one_in) == 0).collect();
        if legal.is_empty() {
            continue;
        }
        let mut set = SortedActions::default();
        set.fill(legal.iter().copied());
        let c_puct = 0.5 + unit(&mut rng) as f32 * 3.0;
        let mut scratch = Scratch {
            legal: Vec::new(),
            children: Vec::new(),
            path: Vec::new(),
        };
        let chosen = tree.choose(
            0,
            priors,
            c_puct,
            &set,
            |out| {
                fallbacks += 1;
                out.clone_from(&legal);
            },
            &mut scratch,
        );
        let score = |a: u8| reference_score(&tree, &legal, c_puct, a);
        let prior_of = |a: u8| row.iter().find(|e| e.action == a).map(|e| e.prior);
        let listed_legal = legal.iter().any(|&a| prior_of(a).is_some());
        let Some(chosen) = chosen else {
            assert!(
                !listed_legal && !row.is_empty(),
                "None only for a row of other actions"
            );
            evaluations += 1;
            continue;
        };
        assert!(listed_legal || row.is_empty());
        let action = match chosen {
            Chosen::Child(c) => {
                assert_eq!(child_of(tree.nodes[c as usize].action), c);
                tree.nodes[c as usize].action
            }
            Chosen::Entry(k) => {
                assert_eq!(tree.entries[k as usize].child, NONE);
                tree.entries[k as usize].action
            }
            Chosen::Unlisted(a) => {
                assert!(prior_of(a).is_none() && child_of(a) == NONE);
                a
            }
        };
        assert!(legal.contains(&action));
        let best = legal
            .iter()
            .map(|&a| score(a))
            .fold(f32::NEG_INFINITY, f32::max);
        assert!(
            score(action) >= best - 1e-5,
            "chose {action} scoring {} of a best {best}",
            score(action)
        );
    }
    // Both of the descent's rarer paths were taken.
    assert!(
        fallbacks > 20 && evaluations > 20,
        "{fallbacks} {evaluations}"
    );
}
