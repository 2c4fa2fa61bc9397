//! The observation tensor's layout and contents.

// Observation values are small exact counts.
#![allow(clippy::float_cmp, clippy::needless_range_loop)]

use indigo_search::{Rng, below};
use rand::SeedableRng;

use crate::observation::{OBSERVATION_LAYOUT, OBSERVATION_SIZE};
use crate::position::Position;
use crate::rules::Rules;

fn segment<'a>(obs: &'a [f32], name: &str) -> &'a [f32] {
    let &(_, offset, shape) = OBSERVATION_LAYOUT.iter().find(|s| s.0 == name).unwrap();
    &obs[offset..offset + shape.iter().product::<usize>()]
}

fn observe(p: &Position, seat: u8) -> Vec<f32> {
    let mut out = vec![f32::NAN; OBSERVATION_SIZE];
    p.observation(seat, &mut out);
    out
}

#[test]
fn the_layout_covers_the_tensor_exactly() {
    let mut next = 0;
    for (name, offset, shape) in OBSERVATION_LAYOUT {
        assert_eq!(offset, next, "{name}");
        next += shape.iter().product::<usize>();
    }
    assert_eq!(next, OBSERVATION_SIZE);
}

#[test]
fn observations_show_the_public_position_from_each_seat() {
    for seed in 0..6 {
        let players = 2 + (seed % 3) as u8;
        let mut p = Position::from_seed(Rules::with_players(players).unwrap(), seed);
        let mut rng = Rng::seed_from_u64(seed);
        while let Some(mv) = p.playout_move(&mut |n| below(&mut rng, n)) {
            let seat = p.to_move().unwrap();
            let obs = observe(&p, seat);
            assert!(obs.iter().all(|v| v.is_finite() && *v >= 0.0));
            let scores = segment(&obs, "scores");
            for k in 0..usize::from(players) {
                let s = (usize::from(seat) + k) % usize::from(players);
                assert_eq!(scores[k], p.scores()[s] as f32);
                let tiles: f32 = segment(&obs, "storage_tiles")[k * 36..(k + 1) * 36]
                    .iter()
                    .sum();
                assert_eq!(tiles, f32::from(p.storage(s as u8).tile_count()));
                let placed: f32 = segment(&obs, "garden_colour")[k * 6 * 48..(k + 1) * 6 * 48]
                    .iter()
                    .sum();
                assert_eq!(placed as usize, p.garden(s as u8).hexagons().count());
            }
            assert_eq!(segment(&obs, "to_move")[0], 1.0);
            assert_eq!(segment(&obs, "bag_size")[0], p.bag_len() as f32);
            let tower: f32 = segment(&obs, "tower").iter().sum();
            assert_eq!(tower as usize, p.tower_len());
            // Another seat sees the same facts, its own seat first.
            let other = (seat + 1) % players;
            let theirs = observe(&p, other);
            let block = 36;
            let own = &segment(&obs, "storage_tiles")[block..2 * block];
            assert_eq!(own, &segment(&theirs, "storage_tiles")[..block]);
            assert_eq!(segment(&obs, "slot_tiles"), segment(&theirs, "slot_tiles"));
            // Nothing hidden is in it: a determinization looks the same.
            let mut draw = Rng::seed_from_u64(seed + 7);
            let resampled = p.resample(&mut |n| below(&mut draw, n), seed);
            assert_eq!(observe(&resampled, seat), obs);
            p.play(&mv).unwrap();
        }
        let obs = observe(&p, 0);
        assert_eq!(segment(&obs, "game_over"), [1.0]);
        assert_eq!(segment(&obs, "to_move").iter().sum::<f32>(), 0.0);
    }
}
