//! Explicit chance: events, outcomes and their probabilities, and exactness against the seed.

use indigo_search::{Rng, below};
use rand::SeedableRng;

use crate::chance::{ChanceError, ChanceEvent, OutcomeError};
use crate::kind::{KIND_COUNT, Kind};
use crate::moves::Move;
use crate::position::ChanceHook;
use crate::position::{Chance, EXPANSION_TOTAL, Position};
use crate::rules::Rules;
use crate::tests::kinds;

/// Writes down the outcomes the seed (or the record) deals, in step order.
#[derive(Default)]
struct Dealt(Vec<Kind>);

impl ChanceHook for Dealt {
    fn draw(&mut self, bag: &mut [u8], n: usize) {
        self.0.extend(bag[..n].iter().filter_map(|&k| Kind::new(k)));
    }

    fn reveal(&mut self, expansions: &mut [u8; EXPANSION_TOTAL], _revealed: u64, index: usize) {
        self.0.extend(Kind::new(expansions[index]));
    }
}

/// The outcomes the position's own chance deals for `mv`.
fn dealt(p: &Position, mv: &Move) -> Vec<Kind> {
    let mut hook = Dealt::default();
    p.clone().play_unchecked_with(mv, &mut hook).unwrap();
    hook.0
}

/// Seeded games of 2 to 4 players where a seat takes whenever it can two times in three
/// (so that the stacks run out and 4-player games reach refills), else plays the fast
/// playout policy.
fn each_move(games: u64, mut visit: impl FnMut(&Position, &Move)) {
    for seed in 0..games {
        let players = 2 + (seed % 3) as u8;
        let mut p = Position::from_seed(Rules::with_players(players).unwrap(), seed);
        let mut rng = Rng::seed_from_u64(seed);
        while !p.is_over() {
            let takes: Vec<Move> = p
                .legal_moves()
                .into_iter()
                .filter(|m| matches!(m, Move::Take { .. }))
                .collect();
            let mv = if !takes.is_empty() && below(&mut rng, 3) > 0 {
                takes[below(&mut rng, takes.len())]
            } else {
                p.playout_move(&mut |n| below(&mut rng, n)).unwrap()
            };
            visit(&p, &mv);
            p.play(&mv).unwrap();
        }
    }
}

#[test]
fn the_dealt_outcomes_replay_the_seeded_game_exactly() {
    let (mut draws, mut reveals) = (0, 0);
    each_move(24, |p, mv| {
        let event = p.chance_event(mv).unwrap();
        let outcomes = dealt(p, mv);
        assert_eq!(event.steps(), outcomes.len(), "{mv}");
        event.check(&outcomes).unwrap();
        let mut seeded = p.clone();
        seeded.play(mv).unwrap();
        let mut chosen = p.clone();
        chosen.play_with_outcomes(mv, &outcomes).unwrap();
        assert_eq!(chosen, seeded, "{mv}");
        draws += usize::from(event.draws() > 0);
        reveals += event.reveals();
    });
    assert!(draws > 400 && reveals > 100, "{draws} {reveals}");
}

#[test]
fn chosen_outcomes_are_what_the_display_shows() {
    for seed in 0..12 {
        let players = 2 + (seed % 3) as u8;
        let rules = Rules::with_players(players).unwrap();
        let mut rng = Rng::seed_from_u64(seed);
        let mut sample = |event: &ChanceEvent| {
            let mut chosen = Vec::new();
            while let Some(outcomes) = event.outcomes(&chosen).ok().filter(|o| !o.is_empty()) {
                let total: f64 = outcomes.iter().map(|o| o.1).sum();
                assert!((total - 1.0).abs() < 1e-12);
                assert!(outcomes.windows(2).all(|w| w[0].0 < w[1].0));
                chosen.push(outcomes[below(&mut rng, outcomes.len())].0);
            }
            chosen
        };
        let first = sample(&ChanceEvent::setup());
        let mut p = Position::with_first_draws(rules, seed, &first).unwrap();
        let mut sorted = first.clone();
        sorted.sort_unstable();
        assert_eq!(p.stack().unwrap().tiles, sorted);
        let mut moves = Rng::seed_from_u64(seed + 100);
        while let Some(mv) = p.playout_move(&mut |n| below(&mut moves, n)) {
            let event = p.chance_event(&mv).unwrap();
            let outcomes = sample(&event);
            let before_display = p.display();
            p.play_with_outcomes(&mv, &outcomes).unwrap();
            if event.draws() > 0 && !p.is_over() {
                let mut drawn = outcomes[..event.draws()].to_vec();
                drawn.sort_unstable();
                assert_eq!(p.stack().unwrap().tiles, drawn, "{mv}");
            }
            let mut shown: Vec<Kind> = p
                .display()
                .iter()
                .filter(|d| !before_display.contains(d))
                .filter_map(|d| match d {
                    crate::position::DisplayExpansion::Up { kind, .. } => Some(*kind),
                    crate::position::DisplayExpansion::Down { .. } => None,
                })
                .collect();
            let mut revealed = outcomes[event.draws()..].to_vec();
            if !matches!(mv, Move::Pass { .. }) {
                shown.sort_unstable();
                revealed.sort_unstable();
                assert_eq!(shown, revealed, "{mv}");
            }
            assert_eq!(p.tile_total(), 108);
            assert_eq!(p.expansion_total(), 36);
        }
        assert!(p.is_over());
    }
}

#[test]
fn draw_probabilities_follow_the_bag_and_reveals_are_uniform() {
    let event = ChanceEvent::setup();
    let first = event.outcomes(&[]).unwrap();
    assert_eq!(first.len(), KIND_COUNT);
    assert!(first.iter().all(|&(_, p)| (p - 3.0 / 108.0).abs() < 1e-15));
    let bl1 = Kind::new(0).unwrap();
    let after = event.outcomes(&[bl1, bl1]).unwrap();
    assert!((after[0].1 - 1.0 / 106.0).abs() < 1e-15);
    assert!((after[1].1 - 3.0 / 106.0).abs() < 1e-15);
    assert_eq!(
        event.outcomes(&[bl1; 4]),
        Err(ChanceError::NotInBag { step: 3, kind: bl1 })
    );
    assert!(
        event
            .outcomes(&[bl1, bl1, bl1])
            .unwrap()
            .iter()
            .all(|o| o.0 != bl1)
    );
    // A reveal: the unseen kinds, uniformly, each once.
    let mut found = false;
    each_move(6, |p, mv| {
        let event = p.chance_event(mv).unwrap();
        if found || event.reveals() == 0 {
            return;
        }
        found = true;
        let outcomes = dealt(p, mv);
        let draws = &outcomes[..event.draws()];
        let next = event.outcomes(draws).unwrap();
        let unseen: Vec<Kind> = event.unseen().collect();
        assert_eq!(next.iter().map(|o| o.0).collect::<Vec<_>>(), unseen);
        assert!(
            next.iter()
                .all(|o| (o.1 - 1.0 / unseen.len() as f64).abs() < 1e-15)
        );
        let mut twice = draws.to_vec();
        twice.extend([unseen[0], unseen[0]]);
        if event.reveals() >= 2 {
            assert_eq!(
                event.check(&twice),
                Err(ChanceError::NotUnseen {
                    step: draws.len() + 1,
                    kind: unseen[0]
                })
            );
        }
    });
    assert!(found);
}

#[test]
fn bad_outcomes_are_refused_and_change_nothing() {
    let rules = Rules::with_players(2).unwrap();
    let mut p = Position::from_seed(rules, 5);
    let take = *p.legal_moves().first().unwrap();
    assert_eq!(p.chance_event(&take).unwrap().draws(), 4);
    let before = p.clone();
    let err = p.play_with_outcomes(&take, &[]).unwrap_err();
    assert_eq!(
        err,
        OutcomeError::Outcomes(ChanceError::Count {
            needed: 4,
            given: 0
        })
    );
    assert!(err.to_string().contains("needs 4 outcomes"), "{err}");
    let illegal = Move::parse("tile bl1 f0").unwrap();
    assert!(matches!(
        p.play_with_outcomes(&illegal, &[]),
        Err(OutcomeError::Move(_))
    ));
    assert_eq!(p, before);
    assert!(p.chance_event(&Move::PASS).unwrap().is_empty());
    assert!(matches!(
        Position::with_first_draws(rules, 1, &[Kind::new(0).unwrap(); 3]),
        Err(ChanceError::Count {
            needed: 4,
            given: 3
        })
    ));
}

/// Exactness and the event's bag at the rare shortages (examples 16.9, 16.10, section 11.3):
/// a refill mixes the bag and the tower, a top with fewer than 4, no tile at all.
#[test]
fn shortages_draw_from_the_bag_and_the_tower_together() {
    let cases = [
        ("dp6 bl1", "ye2 ye2 lg3 dg4 dg5 lp1 lp1 dp2 dp3 bl6", 4, 0),
        ("ye5", "", 1, 0),
        ("", "lg2 bl3 lg2", 3, 0),
        ("dp1 dp2", "bl1 bl2", 4, 0),
        ("", "", 0, 4),
    ];
    for (bag, tower, draws, reveals) in cases {
        let (mut p, take) = crate::tests::shortage(&kinds(bag), &kinds(tower), Vec::new());
        p.chance_mut(Chance::Seeded(2026));
        let event = p.chance_event(&take).unwrap();
        assert_eq!(
            (event.draws(), event.reveals()),
            (draws, reveals),
            "{bag} | {tower}"
        );
        if draws > 0 {
            let mut want = [0u8; KIND_COUNT];
            for k in kinds(bag).iter().chain(&kinds(tower)) {
                want[usize::from(k.id())] += 1;
            }
            assert_eq!(event.bag(), &want);
        }
        let outcomes = dealt(&p, &take);
        let mut seeded = p.clone();
        seeded.play(&take).unwrap();
        let mut chosen = p.clone();
        chosen.play_with_outcomes(&take, &outcomes).unwrap();
        assert_eq!(chosen, seeded);
        // Other possible outcomes (always the last one offered) are what the top gets.
        let mut other = Vec::new();
        while let Some(&(k, _)) = event.outcomes(&other).unwrap().last() {
            other.push(k);
        }
        let mut chosen = p.clone();
        chosen.play_with_outcomes(&take, &other).unwrap();
        if draws > 0 {
            let mut drawn = other[..draws].to_vec();
            drawn.sort_unstable();
            assert_eq!(chosen.stack().unwrap().tiles, drawn);
        }
    }
}
