//! The search on a toy game: Nim with one heap, take 1 to 3, whoever takes the last wins, and
//! a chance node that adds 0 or 1 to the heap before the first move.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::game::SortedActions;

#[derive(Clone, Debug, PartialEq)]
struct Nim {
    heap: u8,
    dealt: bool,
    to_move: u8,
    moves: u32,
    winner: Option<u8>,
}

impl Nim {
    fn new(heap: u8) -> Nim {
        Nim {
            heap,
            dealt: false,
            to_move: 0,
            moves: 0,
            winner: None,
        }
    }
}

/// Numbered so that the bots of specs play it: actions 0 to 3 (chance's 0 and 1, takes 1 to
/// 3), observed as the heap and the seat.
impl Encoded for Nim {
    const OBSERVATION_SIZE: usize = 2;
    const ACTION_COUNT: usize = 4;
    type Legal = LegalMasks<4>;

    fn action_number(action: u8) -> usize {
        usize::from(action)
    }

    fn observation(&self, seat: u8, out: &mut [f32]) {
        out[0] = f32::from(self.heap);
        out[1] = f32::from(seat);
    }
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
        match (self.winner, self.dealt) {
            (Some(_), _) => Turn::Over,
            (None, false) => Turn::Chance,
            (None, true) => Turn::Player(self.to_move),
        }
    }

    fn legal_actions(&self, out: &mut Vec<u8>) {
        out.clear();
        match self.turn() {
            Turn::Over => {}
            Turn::Chance => out.extend([0, 1]),
            Turn::Player(_) => out.extend(1..=self.heap.min(3)),
        }
    }

    fn legal_set(&self, out: &mut SortedActions<u8>) {
        let mut actions = Vec::new();
        self.legal_actions(&mut actions);
        out.fill(actions);
    }

    fn apply(&mut self, action: u8) {
        if self.dealt {
            self.heap -= action;
            self.moves += 1;
            if self.heap == 0 {
                self.winner = Some(self.to_move);
            }
            self.to_move = 1 - self.to_move;
        } else {
            self.heap += action;
            self.dealt = true;
        }
    }

    fn chance_outcomes(&self, out: &mut Vec<(u8, f64)>) {
        out.clear();
        if self.turn() == Turn::Chance {
            out.extend([(0, 0.5), (1, 0.5)]);
        }
    }

    fn information(&self, seat: u8) -> (Nim, u8) {
        (self.clone(), seat)
    }

    fn observer(info: &(Nim, u8)) -> u8 {
        info.1
    }

    fn sample(info: &(Nim, u8), rng: &mut Rng) -> Nim {
        let mut nim = info.0.clone();
        if let Some(a) = nim
            .playout_action(rng, &mut Vec::new())
            .filter(|_| !nim.dealt)
        {
            nim.apply(a);
        }
        nim
    }

    fn information_string(&self, seat: u8) -> String {
        format!("{seat} {self:?}")
    }

    fn returns(&self) -> [f64; MAX_PLAYERS] {
        let mut r = [0.0; MAX_PLAYERS];
        if let Some(w) = self.winner {
            r[usize::from(w)] = 1.0;
        }
        r
    }

    fn scores(&self) -> [i64; MAX_PLAYERS] {
        self.returns().map(|r| r as i64)
    }

    fn winners(&self) -> u8 {
        self.winner.map_or(0, |w| 1 << w)
    }

    fn moves_played(&self) -> u32 {
        self.moves
    }
}

#[derive(Clone, Debug)]
struct NimSetup;

impl Setup for NimSetup {
    type Game = Nim;

    fn players(&self) -> usize {
        2
    }

    fn start(&self, seed: u64) -> Nim {
        Nim::new(10 + (seed % 7) as u8)
    }
}

fn dealt(heap: u8) -> Nim {
    Nim {
        dealt: true,
        ..Nim::new(heap)
    }
}

#[test]
fn ismcts_finds_the_winning_move_of_nim() {
    // From 5, 6 and 7 the winning move leaves a multiple of 4.
    for heap in [5u8, 6, 7] {
        let mut bot = Ismcts::new(IsmctsConfig::simulations(3000), 1);
        let result = bot.search(&dealt(heap)).unwrap();
        assert_eq!(result.best, heap % 4, "heap {heap}");
        assert_eq!(result.simulations, 3000);
        assert_eq!(result.visits.iter().map(|v| v.1).sum::<u32>(), 3000);
        assert!(result.visits.windows(2).all(|w| w[0].0 < w[1].0));
    }
}

#[test]
fn threads_split_the_simulations_and_are_reproducible() {
    let config = IsmctsConfig::new(Budget::Simulations(1001), 0.7, 3).unwrap();
    let a = Ismcts::new(config, 5).search(&dealt(9)).unwrap();
    let b = Ismcts::new(config, 5).search(&dealt(9)).unwrap();
    assert_eq!(a, b);
    assert_eq!(a.simulations, 1001);
}

#[test]
fn simulations_and_time_stop_at_whichever_comes_first() {
    use std::time::Duration;
    let both = |n: u64, t: Duration| IsmctsConfig::new(Budget::SimulationsOrTime(n, t), 0.7, 2);
    // A time never reached changes nothing: the same search as the simulations alone.
    let counted = IsmctsConfig::new(Budget::Simulations(501), 0.7, 2).unwrap();
    let unreached = both(501, IsmctsConfig::MAX_TIME).unwrap();
    assert_eq!(
        Ismcts::new(unreached, 5).search(&dealt(9)),
        Ismcts::new(counted, 5).search(&dealt(9))
    );
    // A time reached first stops the search far below its simulations.
    let timed = both(IsmctsConfig::MAX_SIMULATIONS, Duration::from_millis(20)).unwrap();
    let found = Ismcts::new(timed, 5).search(&dealt(9)).unwrap();
    assert!(found.simulations >= 2 * 32, "{}", found.simulations);
    assert!(found.simulations < IsmctsConfig::MAX_SIMULATIONS);
    // Both limits are checked.
    assert!(both(0, Duration::from_secs(1)).is_err());
    assert!(both(5, Duration::ZERO).is_err());
    assert!(both(5, Duration::MAX).is_err());
}

#[test]
fn a_budget_is_given_as_simulations_time_or_both() {
    use std::time::Duration;
    assert_eq!(
        Budget::given(None, None),
        Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS))
    );
    assert_eq!(Budget::given(Some(5), None), Ok(Budget::Simulations(5)));
    assert_eq!(
        Budget::given(None, Some(0.5)),
        Ok(Budget::Time(Duration::from_millis(500)))
    );
    assert_eq!(
        Budget::given(Some(5), Some(0.5)),
        Ok(Budget::SimulationsOrTime(5, Duration::from_millis(500)))
    );
    assert!(Budget::given(Some(0), Some(0.5)).is_err());
    assert!(Budget::given(Some(5), Some(-1.0)).is_err());
    // A time added to a budget keeps the shorter one.
    let timed = Budget::given(Some(5), Some(0.5)).unwrap();
    assert_eq!(timed.or_time(2.0), Ok(timed));
    assert_eq!(
        timed.or_time(0.25),
        Ok(Budget::SimulationsOrTime(5, Duration::from_millis(250)))
    );
    assert_eq!(
        Budget::Time(Duration::from_secs(3)).or_time(1.0),
        Ok(Budget::Time(Duration::from_secs(1)))
    );
    assert_eq!(timed.simulation_limit(), Some(5));
    assert_eq!(timed.time_limit(), Some(Duration::from_millis(500)));
}

#[test]
fn no_search_unless_a_seat_is_to_move() {
    let mut bot = Ismcts::new(IsmctsConfig::simulations(10), 1);
    assert_eq!(bot.search(&Nim::new(5)), None); // a chance node
    let mut over = dealt(1);
    over.apply(1);
    assert_eq!(bot.search(&over), None);
    assert_eq!(Bot::<Nim>::choose(&mut RandomBot::new(1), &over), None);
}

#[test]
fn chance_probabilities_sum_to_one_and_playouts_end() {
    let mut rng = <Rng as rand::SeedableRng>::seed_from_u64(3);
    let mut nim = Nim::new(12);
    let mut outcomes = Vec::new();
    nim.chance_outcomes(&mut outcomes);
    assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
    nim.playout(&mut rng);
    assert_eq!(nim.turn(), Turn::Over);
    assert!((nim.returns().iter().sum::<f64>() - 1.0).abs() < 1e-12);
}

#[test]
fn batches_are_validated_reproducible_and_ismcts_beats_random() {
    let specs: Vec<BotSpec> = ["ismcts:500", "random"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(Batch::new(NimSetup, vec![], Some(&[vec![0, 0]]), 1).is_err());
    assert!(Batch::new(NimSetup, specs.clone(), Some(&[]), 1).is_err());
    assert!(Batch::new(NimSetup, specs.clone(), Some(&[vec![0]]), 1).is_err());
    let error = Batch::new(NimSetup, specs.clone(), Some(&[vec![0, 2]]), 1).unwrap_err();
    assert!(error.0.contains("index 2 is not 0..1"), "{error}");
    let batch = Batch::new(NimSetup, specs, Some(&[vec![0, 1], vec![1, 0]]), 7).unwrap();
    let (done, cancel) = (
        std::sync::atomic::AtomicU64::default(),
        AtomicBool::new(false),
    );
    let a = batch.run(0..40, 2, &done, &cancel).unwrap();
    let b = batch.run(0..40, 1, &done, &cancel).unwrap();
    assert_eq!(a, b);
    let ismcts_wins = a
        .iter()
        .enumerate()
        .filter(|(i, o)| o.winners == if i % 2 == 0 { 1 } else { 2 })
        .count();
    assert!(ismcts_wins >= 36, "ismcts won {ismcts_wins} of 40");
}

#[test]
fn greedy_and_playout_bots_play_legal_actions() {
    let mut legal = Vec::new();
    for seed in 0..20 {
        let mut nim = dealt(9);
        let mut bots: [SearchBot<Nim>; 2] = [
            "greedy".parse::<BotSpec>().unwrap().build(seed),
            "playout".parse::<BotSpec>().unwrap().build(seed),
        ];
        while let Turn::Player(seat) = nim.turn() {
            let action = bots[usize::from(seat)].choose(&nim).unwrap();
            nim.legal_actions(&mut legal);
            assert!(legal.contains(&action));
            nim.apply(action);
        }
    }
}

#[test]
fn bad_specs_are_refused() {
    for bad in [
        "",
        "ismcts:0",
        "ismcts:c=0",
        "ismcts:threads=0",
        "random:3",
        "alphazero",
    ] {
        assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
    }
    let spec: BotSpec = "ismcts:200,c=0.5,threads=2".parse().unwrap();
    assert_eq!(spec.to_string().parse::<BotSpec>().unwrap(), spec);
}

#[test]
fn a_spec_keeps_simulations_and_time_together_canonically() {
    for (text, canonical) in [
        ("ismcts:200000,time=5", "ismcts:200000,time=5"),
        ("ismcts:time=5,200000", "ismcts:200000,time=5"),
        ("ismcts:time=0.5,sims=10,c=0.5", "ismcts:10,time=0.5,c=0.5"),
        ("ismcts:200000", "ismcts:200000"),
        ("ismcts:time=5", "ismcts:time=5"),
    ] {
        let spec: BotSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), canonical, "{text}");
        assert_eq!(canonical.parse::<BotSpec>().unwrap(), spec);
    }
    for bad in ["ismcts:0,time=5", "ismcts:10,time=0", "ismcts:10,time=1e7"] {
        assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
    }
}

#[test]
fn best_is_ismcts_at_the_games_tuned_exploration() {
    for (text, canonical) in [
        ("best", "best:1000"),
        ("BEST:time=0.05", "best:time=0.05"),
        ("best:500,time=2,threads=2", "best:500,time=2,threads=2"),
    ] {
        let spec: BotSpec = text.parse().unwrap();
        assert!(spec.searches(), "{text}");
        assert_eq!(spec.to_string(), canonical, "{text}");
        assert_eq!(canonical.parse::<BotSpec>().unwrap(), spec);
    }
    let error = "best:time=1,c=0.3".parse::<BotSpec>().unwrap_err();
    assert!(error.0.contains("tuned for each game"), "{error}");
    // Nim keeps ISMCTS's default exploration and its playout policy as `best`'s: `best`
    // searches exactly as `ismcts` with that budget.
    let best: BotSpec = "best:300".parse().unwrap();
    let ismcts: BotSpec = "ismcts:300".parse().unwrap();
    let (tuned, plain) = (
        best.search_config::<Nim>().unwrap(),
        ismcts.search_config::<Nim>().unwrap(),
    );
    assert_eq!(tuned.playout_policy(), PlayoutPolicy::Best);
    assert_eq!(plain.playout_policy(), PlayoutPolicy::Plain);
    assert_eq!(tuned, plain.with_best_playout());
    assert_eq!(
        "greedy".parse::<BotSpec>().unwrap().search_config::<Nim>(),
        None
    );
    let mut first = best.build::<Nim>(4);
    let mut second = ismcts.build::<Nim>(4);
    let mut state = Nim::new(9);
    state.apply(0);
    assert_eq!(first.choose(&state), second.choose(&state));
}

#[test]
fn a_progress_interval_is_a_positive_number_of_at_most_an_hour() {
    use std::time::Duration;
    assert_eq!(
        crate::progress_interval(0.25).unwrap(),
        Duration::from_millis(250)
    );
    assert_eq!(
        crate::progress_interval(1e9).unwrap(),
        Duration::from_secs(3600)
    );
    for refused in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(crate::progress_interval(refused).is_err(), "{refused}");
    }
}

#[test]
fn watched_work_stops_once_cancelled_and_returns_its_result() {
    use std::sync::atomic::Ordering;
    use std::time::Duration;
    let mut asked = 0;
    let spun = crate::watched(
        Duration::from_millis(1),
        || {
            asked += 1;
            asked == 3
        },
        |stop: &AtomicBool| {
            // The work may not be scheduled before the third ask on a busy machine: what it
            // returns, not how long it spun, is what the watcher must hand back.
            while !stop.load(Ordering::Relaxed) {
                std::thread::yield_now();
            }
            "stopped"
        },
    );
    assert!(matches!(spun, Ok("stopped")));
    assert_eq!(asked, 3, "not asked again once it said stop");
}

#[test]
fn a_batch_range_is_checked() {
    assert_eq!(batch_games(3, 4, 2), Ok((3..7, 2)));
    let err = |r: Result<_, BatchError>| r.unwrap_err().0;
    assert_eq!(
        err(batch_games(0, -1, 0)),
        "games must be 0 to 2**32, not -1"
    );
    assert_eq!(
        err(batch_games(-5, 1, 0)),
        "start must be 0 to 2**62, not -5"
    );
    assert_eq!(
        err(batch_games(0, 1, 1025)),
        "threads must be 0 to 1024, not 1025"
    );
    assert!(batch_games(1 << 62, 1 << 32, 1024).is_ok());
}

#[test]
fn the_fold_sees_every_field_and_keeps_short_games_as_before() {
    let outcome = |winners, moves| Outcome {
        scores: [3, 1, 0, 0],
        winners,
        moves,
    };
    // Under 256 moves: the scores, then `winners << 8 | moves`.
    let scores = [3u64, 1, 0, 0].iter().fold(0, |acc, &s| acc << 16 | s);
    assert_eq!(
        outcome(1, 54).fold_into(9),
        mix(mix(9, scores), (1 << 8) + 54)
    );
    // Longer games collide with no other winners or length.
    let folds: Vec<u64> = [(1, 256), (2, 0), (1, 0), (0, 256), (1, 1 << 20)]
        .iter()
        .map(|&(w, m)| outcome(w, m).fold_into(0))
        .collect();
    let distinct: std::collections::HashSet<_> = folds.iter().collect();
    assert_eq!(distinct.len(), folds.len());
}

#[test]
fn net_specs_read_back_and_name_their_file() {
    for (text, canonical) in [
        ("net", "net:200"),
        ("NET:400", "net:400"),
        ("net:time=0.1", "net:time=0.1"),
        (
            "net:800,time=2,threads=2,c=2",
            "net:800,time=2,c=2,threads=2",
        ),
        ("net:expand=3,mix=0.5,50", "net:50,mix=0.5,expand=3"),
        ("net:mix=0,c=1.5", "net:200,c=1.5,mix=0"),
    ] {
        let spec: BotSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), canonical, "{text}");
        assert_eq!(canonical.parse::<BotSpec>().unwrap(), spec);
        assert!(spec.searches());
        assert_eq!(spec.search_config::<Nim>(), None);
    }
    for bad in [
        "net:0",
        "net:c=0",
        "net:threads=0",
        "net:temperature=1",
        "net:time=-1",
        "net:mix=1.5",
        "net:mix=-0.1",
        "net:expand=0",
        "net:expand=1001",
        "net:expand=2.5",
    ] {
        assert!(bad.parse::<BotSpec>().is_err(), "{bad}");
    }
    let error = "net:file=/no/such.safetensors"
        .parse::<BotSpec>()
        .unwrap_err();
    assert!(error.0.contains("/no/such.safetensors"), "{error}");
    // Nim ships no network: checked, `net` says so; built unchecked, it still plays.
    let net: BotSpec = "net:50".parse().unwrap();
    let error = net.check::<Nim>(Some(2)).unwrap_err();
    assert!(error.0.contains("ships no network"), "{error}");
    let mut bot = net.build::<Nim>(1);
    assert!(bot.choose(&dealt(5)).is_some());
}

#[test]
fn sorted_actions_answer_membership_and_bounds_without_the_taken() {
    let mut set = SortedActions::default();
    assert_eq!(set.bounds(), None);
    set.fill([9u8, 2, 5, 7]);
    assert_eq!(set.bounds(), Some((2, 9)));
    assert!(set.contains(5) && !set.contains(6));
    assert!(set.take(2) && set.take(9));
    assert!(!set.contains(2));
    assert_eq!(set.bounds(), Some((5, 7)));
    assert!(set.take(7));
    assert_eq!(set.bounds(), Some((5, 5)));
    assert!(set.take(5));
    assert_eq!(set.bounds(), None);
}
