//! Indigo on the one search: the trait's contract, its fast paths playing the games of the
//! generic loop, and the pinned games of its batches.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use indigo_search::{
    Batch, Bot, BotSpec, Budget, Game as _, Ismcts, IsmctsConfig, Outcome, RandomBot, Rng,
    SearchBot, Turn, game_seed, seat_seed,
};
use rand::SeedableRng;

use crate::deal::Deal;
use crate::position::Position;
use crate::rng::shuffled_pile;
use crate::rules::Rules;
use crate::search_game::IndigoSetup;
use crate::testing::all_configurations;

/// Positions of random games of 2 to 4 players, every third placement.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..9u64 {
        let rules = Rules::indigo(2 + (seed % 3) as u8).unwrap();
        let mut p = Position::new(rules, &shuffled_pile(seed)).unwrap();
        let mut bot = RandomBot::new(seed);
        while let Some(mv) = bot.choose(&p).map(crate::Action::to_move) {
            if p.placed().is_multiple_of(3) {
                out.push(p);
            }
            p.play(mv).unwrap();
        }
        out.push(p);
    }
    out
}

#[test]
fn legal_actions_are_the_legal_moves_and_apply_is_play() {
    let mut actions = Vec::new();
    for p in positions() {
        indigo_search::Game::legal_actions(&p, &mut actions);
        assert_eq!(actions, Position::legal_actions(&p));
        for &a in actions.iter().step_by(7) {
            let (mut by_action, mut by_move) = (p, p);
            indigo_search::Game::apply(&mut by_action, a);
            by_move.play(a.to_move()).unwrap();
            assert_eq!(by_action, by_move);
        }
        assert_eq!(p.turn() == Turn::Over, actions.is_empty());
    }
}

#[test]
fn chance_outcomes_are_the_pile_counts_and_sum_to_one() {
    let mut p = Position::new_explicit(Rules::indigo(3).unwrap());
    let mut rng = Rng::seed_from_u64(4);
    let mut outcomes = Vec::new();
    let mut chance_nodes = 0;
    while p.turn() != Turn::Over {
        if p.turn() == Turn::Chance {
            chance_nodes += 1;
            p.chance_outcomes(&mut outcomes);
            assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
            let counts = p.chance_counts();
            for &(a, prob) in &outcomes {
                let n = f64::from(counts[a.index()]);
                assert!((prob - n / f64::from(p.pile_left())).abs() < 1e-12);
            }
        }
        let a = p.playout_action(&mut rng, &mut Vec::new()).unwrap();
        indigo_search::Game::apply(&mut p, a);
    }
    assert!(chance_nodes > 50);
}

#[test]
fn determinizations_keep_what_the_seat_knows() {
    let positions = positions();
    for (i, p) in positions.iter().enumerate() {
        for seed in 0..4u64 {
            let Some(seat) = p.to_move() else { continue };
            let sample = p.determinize(seat, &mut Rng::seed_from_u64(seed + 10 * i as u64));
            assert_eq!(sample.information_string(seat), p.information_string(seat));
            // The search relies on this at its root: the mover's legal actions are known.
            assert_eq!(sample.legal_action_set(), p.legal_action_set());
            // Sampled in place over another game's position: the same sample.
            let mut reused = positions[(i * 7 + 3) % positions.len()];
            let info = p.information(seat);
            Position::sample_into(
                &info,
                &mut reused,
                &mut Rng::seed_from_u64(seed + 10 * i as u64),
            );
            assert_eq!(reused, sample);
        }
    }
}

/// A batch of Indigo games under `rules` between `bots`.
fn batch(
    rules: Rules,
    bots: &[&str],
    lineups: Option<&[Vec<i64>]>,
    seed: u64,
    deal: Deal,
) -> Batch<IndigoSetup> {
    let bots = bots.iter().map(|b| b.parse().unwrap()).collect();
    Batch::new(IndigoSetup { rules, deal }, bots, lineups, seed).unwrap()
}

/// Game `index` of a batch seeded with `seed`, each move asked of its seat's bot and checked.
fn played_move_by_move(
    rules: Rules,
    seats: &[BotSpec],
    seed: u64,
    index: u64,
    deal: Deal,
) -> Outcome {
    let game = game_seed(seed, index);
    let mut p = Position::new(rules, &deal.pile(game)).unwrap();
    let mut bots: Vec<SearchBot<Position>> = (0..)
        .zip(seats)
        .map(|(s, spec)| spec.build(seat_seed(game, s)))
        .collect();
    while let Some(seat) = p.to_move() {
        let action = bots[usize::from(seat)].choose(&p).unwrap();
        p.play(action.to_move()).unwrap();
    }
    Outcome::of(&p)
}

#[test]
fn bots_play_only_legal_moves_in_every_configuration() {
    let specs = ["random", "greedy", "ismcts:30"];
    for rules in all_configurations() {
        let players = usize::from(rules.players());
        let names: Vec<&str> = (0..players).map(|s| specs[s % 3]).collect();
        let batch = batch(rules, &names, None, 11, Deal::Python);
        let played = batch
            .run(0..2, 1, &AtomicU64::new(0), &AtomicBool::new(false))
            .unwrap();
        for (index, outcome) in (0..2).zip(played) {
            // The batch plays unchecked; a whole game of checked moves proves them legal.
            let seats = batch.seats(index);
            assert_eq!(
                outcome,
                played_move_by_move(rules, &seats, 11, index, Deal::Python)
            );
        }
    }
}

#[test]
fn the_playout_fast_path_plays_the_games_of_playout_bots() {
    for rules in [Rules::indigo(2).unwrap(), Rules::tactical(4).unwrap()] {
        let batch = batch(rules, &["playout"], None, 17, Deal::Pcg);
        let outcomes = batch
            .run(3..203, 2, &AtomicU64::new(0), &AtomicBool::new(false))
            .unwrap();
        let native = crate::bench::playouts(rules, 17, 3..203);
        assert_eq!(native, crate::bench::GamesSummary::of(&outcomes));
        assert_eq!(native.games, 200);
        // Every game ran to the end: 54 tiles or all gems gone.
        assert!(
            outcomes
                .iter()
                .all(|o| o.moves == 54 || o.scores.iter().sum::<i32>() > 0)
        );
        // The checksum sees a change in any game.
        let shifted = crate::bench::playouts(rules, 17, 4..204);
        assert_ne!(native.checksum, shifted.checksum);
        // The same games with each move asked of its bot, and in the generic loop.
        let seats = [BotSpec::Playout; 4];
        let players = usize::from(rules.players());
        for (index, outcome) in (3..203).zip(&outcomes).step_by(7) {
            let by_moves = played_move_by_move(rules, &seats[..players], 17, index, Deal::Pcg);
            assert_eq!(*outcome, by_moves);
            let (mut state, seed) = batch.start(index);
            let mut seat_rngs = [const { Rng::new(0) }; 4];
            for (s, rng) in seat_rngs.iter_mut().enumerate() {
                *rng = Rng::seed_from_u64(seat_seed(seed, s));
            }
            indigo_search::playout_seats_stepwise(&mut state, &mut seat_rngs, 0);
            assert_eq!(*outcome, Outcome::of(&state));
        }
    }
}

#[test]
fn batches_do_not_depend_on_threads_or_splitting() {
    let lineups = [vec![0, 1], vec![1, 0]];
    let batch = batch(
        Rules::indigo(2).unwrap(),
        &["random", "greedy"],
        Some(&lineups),
        99,
        Deal::Pcg,
    );
    let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
    let whole = batch.run(0..40, 1, &done, &cancel).unwrap();
    let mut split = batch.run(0..15, 2, &done, &cancel).unwrap();
    split.extend(batch.run(15..40, 2, &done, &cancel).unwrap());
    assert_eq!(whole, split);
    assert_eq!(done.load(Ordering::Relaxed), 80);
    cancel.store(true, Ordering::Relaxed);
    assert!(batch.run(0..10, 1, &done, &cancel).is_none());
}

#[test]
fn random_and_greedy_games_are_pinned() {
    // Every configuration, seat orders and tie-breaks included; retaken only when the bots'
    // generator (`indigo_search::Rng`) became wyrand.
    let mut checksum = 0;
    for rules in all_configurations() {
        let players = i64::from(rules.players());
        let lineups = [(0..players).map(|s| s % 2).collect()];
        let batch = batch(
            rules,
            &["greedy", "random"],
            Some(&lineups),
            7,
            Deal::Python,
        );
        let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
        for outcome in batch.run(0..6, 1, &done, &cancel).unwrap() {
            checksum = outcome.fold_into(checksum);
        }
    }
    assert_eq!(checksum, 1_727_710_269_957_436_518);
}

#[test]
fn best_searches_at_indigos_tuned_exploration() {
    let best: BotSpec = "best:time=0.5,threads=2".parse().unwrap();
    let config = best.search_config::<Position>().unwrap();
    assert_eq!(Some(config.exploration()), Position::BEST_EXPLORATION);
    assert_eq!(
        (config.budget(), config.threads()),
        (Budget::Time(std::time::Duration::from_millis(500)), 2)
    );
}

#[test]
fn ismcts_is_deterministic_with_a_seed_and_a_simulation_budget() {
    let p = Position::new(Rules::tactical(3).unwrap(), &shuffled_pile(8)).unwrap();
    for threads in [1, 2] {
        let config = IsmctsConfig::new(Budget::Simulations(400), 0.7, threads).unwrap();
        let a = Ismcts::new(config, 42).search(&p).unwrap();
        let b = Ismcts::new(config, 42).search(&p).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.simulations, 400);
        assert_eq!(
            a.visits.iter().map(|&(_, v)| u64::from(v)).sum::<u64>(),
            400
        );
        assert!(
            a.visits
                .iter()
                .all(|&(action, _)| p.check(action.to_move()).is_ok())
        );
    }
    let timed = IsmctsConfig::new(Budget::seconds(0.02).unwrap(), 0.7, 1).unwrap();
    let r = Ismcts::new(timed, 1).search(&p).unwrap();
    assert!(r.simulations > 0 && p.check(r.best.to_move()).is_ok());
}

#[test]
fn ismcts_beats_random_play() {
    // Seeded, so this always plays the same 20 games; a broken search loses many of them.
    let lineups = [vec![0, 1], vec![1, 0]];
    let batch = batch(
        Rules::indigo(2).unwrap(),
        &["ismcts:300", "random"],
        Some(&lineups),
        5,
        Deal::Python,
    );
    let outcomes = batch
        .run(0..20, 0, &AtomicU64::new(0), &AtomicBool::new(false))
        .unwrap();
    let wins = (0..)
        .zip(&outcomes)
        .filter(|&(i, o)| o.winners & (1 << (i % 2)) != 0)
        .count();
    assert!(wins >= 18, "ISMCTS won only {wins} of 20");
}

#[test]
fn the_shipped_network_fits_two_players_and_its_sparse_pass_is_the_dense_one() {
    use indigo_search::{Encoded as _, Evaluator as _, NetEvaluator, Network};
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    network.check_game::<Position>(2).unwrap();
    let error = network.check_game::<Position>(3).unwrap_err();
    assert!(error.0.contains("trained for 2 players"), "{error}");
    let leaves: Vec<Position> = positions()
        .into_iter()
        .filter(|p| p.players() == 2)
        .collect();
    let sparse = NetEvaluator::new(&network).evaluate(&leaves).unwrap();
    let dense = NetEvaluator::new(&network)
        .dense()
        .evaluate(&leaves)
        .unwrap();
    for (s, d) in sparse.values.iter().zip(&dense.values) {
        assert!((s - d).abs() < 1e-5, "{s} {d}");
    }
    assert_eq!(sparse.sparse_ends, dense.sparse_ends);
    for (s, d) in sparse.sparse_priors.iter().zip(&dense.sparse_priors) {
        assert_eq!(s.0, d.0);
        assert!((s.1 - d.1).abs() < 1e-5, "{s:?} {d:?}");
    }
    sparse.check(leaves.len(), crate::ACTION_COUNT, 2).unwrap();
}

#[test]
fn a_net_search_is_the_same_with_the_networks_priors_sparse_or_dense() {
    use indigo_search::{
        Encoded as _, Evaluation, Evaluator as _, FnEvaluator, NetEvaluator, Network, Puct,
        PuctConfig,
    };
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    assert!(network.has_policy());
    // The network's answers with every row's priors spread over all the game's actions.
    let mut dense = FnEvaluator(|leaves: &[Position]| {
        let sparse = NetEvaluator::new(&network).evaluate(leaves).unwrap();
        let mut priors = vec![0.0; leaves.len() * crate::ACTION_COUNT];
        for (r, row) in priors.chunks_exact_mut(crate::ACTION_COUNT).enumerate() {
            for &(a, p) in sparse.sparse_row(r).unwrap() {
                row[a as usize] = p;
            }
        }
        Evaluation::new(leaves.len(), priors, sparse.values)
    });
    let config = PuctConfig::new(300, 8, 1.5, 0.3, 0.25, 1.0).unwrap();
    let mut searched = 0;
    for p in positions()
        .into_iter()
        .filter(|p| p.players() == 2)
        .step_by(4)
    {
        let sparse = Puct::new(config, 9).search(&p, &mut NetEvaluator::new(&network));
        let want = Puct::new(config, 9).search(&p, &mut dense);
        assert_eq!(sparse.unwrap(), want.unwrap());
        searched += 1;
    }
    assert!(searched >= 3, "{searched}");
}

#[test]
fn net_plays_whole_games_and_a_batch_refuses_it_at_a_seat_count_it_was_not_trained_for() {
    let rules = Rules::indigo(2).unwrap();
    let batch = batch(rules, &["net:16", "random"], None, 5, Deal::Python);
    let played = batch
        .run(0..2, 1, &AtomicU64::new(0), &AtomicBool::new(false))
        .unwrap();
    for (index, outcome) in (0..2).zip(played) {
        assert_eq!(
            outcome,
            played_move_by_move(rules, &batch.seats(index), 5, index, Deal::Python)
        );
    }
    let bots = vec!["net".parse().unwrap(); 3];
    let setup = IndigoSetup {
        rules: Rules::indigo(3).unwrap(),
        deal: Deal::Python,
    };
    let error = Batch::new(setup, bots, None, 1).unwrap_err();
    assert!(error.0.contains("trained for 2 players"), "{error}");
}

#[test]
fn puct_self_play_in_flight_plays_the_games_of_one_at_a_time_in_fewer_larger_calls() {
    use indigo_search::{
        Encoded as _, Evaluator as _, FnEvaluator, NetEvaluator, Network, Puct, PuctConfig, mix,
        puct_self_play,
    };
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    // Noise and a temperature: each search's own draws decide its games.
    let config = PuctConfig::new(12, 4, 1.5, 0.3, 0.25, 1.0).unwrap();
    let start = |index: u64| {
        let seed = game_seed(3, index);
        let position = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(seed)).unwrap();
        (position, seed, Puct::new(config, mix(seed, 1)))
    };
    let mut runs = Vec::new();
    for in_flight in [1, 3] {
        let mut calls = Vec::new();
        let mut net = NetEvaluator::new(&network);
        let mut evaluator = FnEvaluator(|leaves: &[Position]| {
            calls.push(leaves.len());
            match net.evaluate(leaves) {
                Ok(evaluation) => evaluation,
            }
        });
        let played = puct_self_play(2..5, in_flight, start, &mut evaluator).unwrap();
        let games: Vec<_> = played
            .into_iter()
            .map(|g| (g.seed, g.actions, g.outcome, g.samples))
            .collect();
        runs.push((games, calls));
    }
    let [(one, one_calls), (three, three_calls)] = &runs[..] else {
        unreachable!()
    };
    assert_eq!(three, one);
    assert!(
        one.iter()
            .all(|g| g.1.len() > 40 && g.3.searched.iter().all(|&s| s))
    );
    assert_eq!(one[0].0, game_seed(3, 2));
    assert!(one_calls.iter().all(|&n| n <= 4), "{one_calls:?}");
    assert!(three_calls.iter().any(|&n| n > 4), "{three_calls:?}");
    assert!(
        3 * three_calls.len() < 2 * one_calls.len(),
        "{three_calls:?}"
    );
}
