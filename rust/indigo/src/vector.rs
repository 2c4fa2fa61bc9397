//! Indigo in the search crate's vectorised games ([`indigo_search::VectorGames`]): the hooks
//! that keep its fast paths. A step rewrites only what changed in a game's rows (a placement
//! changes one cell, the gems it moved, the scalars, the gate planes of a new viewer and the
//! mask bytes of the actions that came or went), and new episodes are dealt four piles at a
//! time ([`crate::IndigoSetup`]'s [`indigo_search::Setup::start_all`]).

use indigo_search::{LegalRow, LegalRows as _, MAX_PLAYERS, ObservationValue, Vectored};

use crate::action::{ACTION_COUNT, Action, ActionSet};
use crate::game::Game;
use crate::position::{OBSERVATION_SIZE, ObservationRow, Position, Utility};
use crate::rules::Rules;
use crate::search_game::IndigoSetup;

/// Indigo's vectorised games: `indigo_search::VectorGames` of an [`IndigoSetup`].
pub type VectorGames = indigo_search::VectorGames<IndigoSetup>;

/// What a game's buffer rows hold: its observation's record and the actions its mask marks.
#[derive(Clone, Copy, Debug)]
pub struct Shown {
    observation: ObservationRow,
    legal: ActionSet,
}

impl Default for Shown {
    fn default() -> Shown {
        Shown {
            observation: ObservationRow::ZEROS,
            legal: ActionSet::default(),
        }
    }
}

impl Vectored for Position {
    type VectorLegal = ActionSet;
    type Shown = Shown;
    type Utility = Utility;
    const MASKS: bool = true;
    const COMPACT: bool = true;

    #[inline]
    fn returns_under(&self, utility: Utility) -> [f64; MAX_PLAYERS] {
        self.returns(utility)
    }

    #[inline]
    fn vector_legal(&self, out: &mut ActionSet) {
        *out = self.legal_action_set();
    }

    #[inline]
    fn legal_number(legal: &ActionSet, number: i64) -> Option<Action> {
        Action::new(number).ok().filter(|&a| legal.contains(a))
    }

    #[inline]
    fn write_view<V: ObservationValue>(
        &self,
        viewer: u8,
        legal: &ActionSet,
        observation: &mut [V],
        legal_row: LegalRow<'_>,
        shown: &mut Shown,
    ) {
        let observation: &mut [V; OBSERVATION_SIZE] = observation
            .try_into()
            .unwrap_or_else(|_| unreachable!("a row is OBSERVATION_SIZE long"));
        self.update_observation(viewer, observation, &mut shown.observation);
        match legal_row {
            LegalRow::Mask(mask) => {
                let mask: &mut [bool; ACTION_COUNT] = mask
                    .try_into()
                    .unwrap_or_else(|_| unreachable!("a row is ACTION_COUNT long"));
                legal.update_mask(&shown.legal, mask);
                shown.legal = *legal;
            }
            LegalRow::List(lists) => lists.push_row(legal.iter().map(Action::index)),
        }
    }

    #[inline]
    fn new_game(shown: &mut Shown) {
        shown.observation.new_game();
    }
}

/// The game of `rules` seeded with `seed` after `actions` (an episode of a vector, which
/// played them).
pub fn episode_game(rules: Rules, seed: u64, actions: &[Action]) -> Game {
    let mut game = Game::from_seed(rules, seed);
    for &action in actions {
        game.play(action.to_move())
            .unwrap_or_else(|_| unreachable!("the vector played it"));
    }
    game
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use indigo_search::{
        BotSpec, Contents, Legal, Observations, Opponents, Outputs, Rng, VectorError, below,
        game_seed,
    };
    use rand::SeedableRng;

    use super::*;
    use crate::deal::Deal;
    use crate::rng::shuffled_pile;

    /// `n` games of `rules` seeded from `seed`.
    fn vector(rules: Rules, n: usize, utility: Utility, seed: u64) -> VectorGames {
        let setup = IndigoSetup {
            rules,
            deal: Deal::Python,
        };
        VectorGames::new(setup, n, utility, seed)
    }

    /// Game `env` of `games` as a [`Game`].
    fn game(games: &VectorGames, env: usize) -> Result<Game, VectorError> {
        let (seed, actions) = games.episode(env)?;
        Ok(episode_game(games.setup().rules, seed, actions))
    }

    /// Owned buffers for `n` games of `players` seats.
    struct Buffers {
        observations: Vec<f32>,
        masks: Vec<bool>,
        rewards: Vec<f32>,
        terminations: Vec<bool>,
        to_play: Vec<i8>,
    }

    impl Buffers {
        fn new(n: usize, players: usize) -> Buffers {
            Buffers {
                observations: vec![0.0; n * OBSERVATION_SIZE],
                masks: vec![false; n * ACTION_COUNT],
                rewards: vec![0.0; n * players],
                terminations: vec![false; n],
                to_play: vec![0; n],
            }
        }

        /// The buffers, kept from the last call (see [`Contents::Previous`]).
        fn outputs(&mut self) -> Outputs<'_> {
            Outputs {
                observations: Observations::F32(&mut self.observations),
                contents: Contents::Previous,
                legal: Legal::Masks(&mut self.masks),
                rewards: &mut self.rewards,
                terminations: &mut self.terminations,
                to_play: &mut self.to_play,
            }
        }
    }

    /// A uniformly random legal action number for each position; `none` where there is none.
    fn random_actions<'a>(
        positions: impl Iterator<Item = &'a Position>,
        rng: &mut Rng,
        none: i64,
    ) -> Vec<i64> {
        positions
            .map(|p| {
                let legal = p.legal_action_set();
                legal
                    .nth(below(rng, legal.len().max(1)))
                    .map_or(none, |a| a.index() as i64)
            })
            .collect()
    }

    /// Steps a vector and separate positions with the same random legal actions through
    /// several episodes; every output matches what the positions say, autoreset included,
    /// with the buffers kept between steps (only what changed is written).
    #[test]
    fn matches_separate_positions() {
        let rules = Rules::new(3, 2).unwrap();
        let n = 3;
        let mut games = vector(rules, n, Utility::Rank, 5);
        let mut buffers = Buffers::new(n, 3);
        games
            .reset(5, &mut buffers.outputs(), &AtomicBool::new(false))
            .unwrap();
        let mut mirror: Vec<Position> = (0..n)
            .map(|env| Position::new(rules, &shuffled_pile(game_seed(5, env as u64))).unwrap())
            .collect();
        let mut episodes = [0u64; 3];
        let mut ended = [false; 3];
        let mut rng = Rng::seed_from_u64(1);
        for _ in 0..400 {
            let actions = random_actions(mirror.iter(), &mut rng, -1);
            let movers: Vec<Option<u8>> = mirror.iter().map(Position::to_move).collect();
            games
                .step(&actions, &mut buffers.outputs(), &AtomicBool::new(false))
                .unwrap();
            for env in 0..n {
                if ended[env] {
                    episodes[env] += 1;
                    let seed = game_seed(5, episodes[env] * n as u64 + env as u64);
                    mirror[env] = Position::new(rules, &shuffled_pile(seed)).unwrap();
                } else {
                    mirror[env]
                        .play(Action::new(actions[env]).unwrap().to_move())
                        .unwrap();
                }
                let p = &mirror[env];
                let terminated = !ended[env] && p.is_over();
                ended[env] = terminated;
                let viewer = p.to_move().or(movers[env]).unwrap();
                let mut obs = [0.0; OBSERVATION_SIZE];
                p.information(viewer).observation(&mut obs);
                assert_eq!(
                    &buffers.observations[env * OBSERVATION_SIZE..][..OBSERVATION_SIZE],
                    &obs[..]
                );
                let legal: Vec<usize> = (0..ACTION_COUNT)
                    .filter(|&a| buffers.masks[env * ACTION_COUNT + a])
                    .collect();
                let want: Vec<usize> = p.legal_actions().iter().map(|a| a.index()).collect();
                assert_eq!(legal, want);
                assert_eq!(buffers.terminations[env], terminated);
                assert_eq!(buffers.to_play[env], viewer as i8);
                let want: Vec<f32> = p.returns(Utility::Rank)[..3]
                    .iter()
                    .map(|&r| if terminated { r as f32 } else { 0.0 })
                    .collect();
                assert_eq!(buffers.rewards[env * 3..][..3], want[..]);
            }
            assert_eq!(games.episodes(), episodes.to_vec());
        }
        assert!(episodes.iter().all(|&e| e >= 2), "{episodes:?}");
    }

    /// Compact (`u8`) observations, writes into zeroed buffers and into kept ones give the
    /// same values as `f32` observations written over stale buffers.
    #[test]
    fn compact_zeroed_and_kept_outputs_match() {
        let rules = Rules::new(4, 2).unwrap();
        let n = 4;
        let mut full = vector(rules, n, Utility::Points, 3);
        let mut compact = full.clone();
        let mut kept = full.clone();
        let mut kept_bytes = vec![0u8; n * OBSERVATION_SIZE];
        let mut kept_buffers = Buffers::new(n, 4);
        let mut stale = Buffers::new(n, 4);
        let mut rng = Rng::seed_from_u64(2);
        for _ in 0..120 {
            let actions = random_actions(full.states(), &mut rng, 0);
            stale.observations.fill(7.0);
            stale.masks.fill(true);
            let mut out = stale.outputs();
            out.contents = Contents::Unknown;
            full.step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            let mut fresh = Buffers::new(n, 4);
            let mut bytes = vec![0u8; n * OBSERVATION_SIZE];
            let mut out = fresh.outputs();
            out.observations = Observations::U8(&mut bytes);
            out.contents = Contents::Zeros;
            compact
                .step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            let widened: Vec<f32> = bytes.iter().map(|&b| f32::from(b)).collect();
            assert_eq!(widened, stale.observations);
            let mut out = kept_buffers.outputs();
            out.observations = Observations::U8(&mut kept_bytes);
            kept.step(&actions, &mut out, &AtomicBool::new(false))
                .unwrap();
            assert_eq!(kept_bytes, bytes);
            assert_eq!(kept_buffers.masks, stale.masks);
            assert_eq!(fresh.masks, stale.masks);
            assert_eq!(fresh.rewards, stale.rewards);
            assert_eq!(fresh.terminations, stale.terminations);
            assert_eq!(fresh.to_play, stale.to_play);
        }
    }

    /// Bots play every seat but the learner's inside the step; each game replays as a
    /// [`Game`]; a partial reset starts only the marked games' next episodes.
    #[test]
    fn opponents_move_inside_the_step_and_games_replay() {
        let rules = Rules::new(3, 1).unwrap();
        let mut bots = [None; MAX_PLAYERS];
        bots[0] = Some(BotSpec::Greedy);
        bots[2] = Some(BotSpec::Random);
        let games = vector(rules, 2, Utility::Win, 4);
        for learner in [0, 3] {
            let refused = games
                .clone()
                .against(Opponents { learner, bots }, &AtomicBool::new(false));
            assert!(matches!(refused, Err(VectorError::Opponents(_))));
        }
        let mut games = games
            .against(Opponents { learner: 1, bots }, &AtomicBool::new(false))
            .unwrap();
        let mut buffers = Buffers::new(2, 3);
        let mut rng = Rng::seed_from_u64(3);
        let mut finished = 0;
        for _ in 0..60 {
            let actions = random_actions(games.states(), &mut rng, 0);
            games
                .step(&actions, &mut buffers.outputs(), &AtomicBool::new(false))
                .unwrap();
            for env in 0..2 {
                assert_eq!(buffers.to_play[env], 1);
                let game = game(&games, env).unwrap();
                let p = game.position();
                assert_eq!(Some(p), games.states().nth(env));
                assert!(p.is_over() || p.to_move() == Some(1));
                assert_eq!(p.is_over(), buffers.terminations[env]);
                finished += usize::from(buffers.terminations[env]);
            }
        }
        assert!(finished >= 2, "{finished}");
        let kept = *games.states().next().unwrap();
        let episode = games.episodes()[1];
        games
            .reset_some(
                &[false, true],
                &mut buffers.outputs(),
                &AtomicBool::new(false),
            )
            .unwrap();
        assert_eq!(games.states().next(), Some(&kept));
        assert_eq!(games.episodes()[1], episode + 1);
        assert_eq!(game(&games, 1).unwrap().position().to_move(), Some(1));
        assert!(matches!(
            game(&games, 2),
            Err(VectorError::NoGame { env: 2, len: 2 })
        ));
    }

    #[test]
    fn opponents_sit_around_the_learner_in_seat_order() {
        let specs = [BotSpec::Random, BotSpec::Greedy];
        let seated = Opponents::around(1, 3, &specs).unwrap();
        assert_eq!(seated.learner, 1);
        assert_eq!(
            seated.bots[..4],
            [Some(BotSpec::Random), None, Some(BotSpec::Greedy), None]
        );
        assert!(matches!(
            Opponents::around(0, 3, &specs[..1]),
            Err(VectorError::Opponents(_))
        ));
    }

    #[test]
    fn an_illegal_action_steps_no_game() {
        let rules = Rules::indigo(2).unwrap();
        let mut games = vector(rules, 2, Utility::Win, 9);
        let mut buffers = Buffers::new(2, 2);
        let before: Vec<Position> = games.states().copied().collect();
        let legal = before[0].legal_actions()[0].index() as i64;
        for bad in [-1, ACTION_COUNT as i64, i64::MAX] {
            let err = games.step(
                &[legal, bad],
                &mut buffers.outputs(),
                &AtomicBool::new(false),
            );
            assert!(
                matches!(err, Err(VectorError::Illegal { env: 1, .. })),
                "{err:?}"
            );
        }
        let err = games.step(&[legal], &mut buffers.outputs(), &AtomicBool::new(false));
        assert!(matches!(
            err,
            Err(VectorError::Size {
                name: "actions",
                expected: 2,
                found: 1
            })
        ));
        let mut small = Buffers::new(1, 2);
        assert!(
            games
                .step(
                    &[legal, legal],
                    &mut small.outputs(),
                    &AtomicBool::new(false)
                )
                .is_err()
        );
        assert_eq!(games.states().copied().collect::<Vec<_>>(), before);
    }

    #[test]
    fn reset_restarts_the_first_episodes() {
        let rules = Rules::indigo(2).unwrap();
        let mut games = vector(rules, 2, Utility::Win, 9);
        let first = games.game_seeds();
        assert_eq!(first, vec![game_seed(9, 0), game_seed(9, 1)]);
        let mut buffers = Buffers::new(2, 2);
        games
            .reset(10, &mut buffers.outputs(), &AtomicBool::new(false))
            .unwrap();
        assert_eq!(games.game_seeds(), vec![game_seed(10, 0), game_seed(10, 1)]);
        assert!(buffers.masks.iter().any(|&m| m));
        assert_eq!(buffers.to_play, vec![0, 0]);
    }
}
