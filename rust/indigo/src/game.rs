//! A game: a [`Position`] plus what apps need around it: the moves played, what each did, undo.

use std::fmt::Write as _;
use std::sync::Arc;

use indigo_search::{Rng, below};

use crate::moves::Move;
use crate::position::{IllegalDraw, IllegalMove, MAX_PLAYERS, Phase, PileError, Position};
use crate::rng::shuffled_pile;
use crate::rules::Rules;
use crate::tile::{TILE_TOTAL, TileType};
use crate::trace::{MoveEffects, PathRecorder};

/// One move of the history: the position before it, the move as given, its effects, and the
/// turn before it. Turns never change once played, so clones of a game share them.
#[derive(Debug)]
struct Turn {
    before: Position,
    effects: MoveEffects,
    previous: Option<Arc<Turn>>,
}

/// A game in progress with its history. The history is a chain of shared turns, so cloning a
/// game copies one position and one pointer, however long the game.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    seed: Option<u64>,
    last: Option<Arc<Turn>>,
}

impl Game {
    /// A new game whose pile is shuffled from `seed` (see [`crate::shuffled_pile`]).
    pub fn from_seed(rules: Rules, seed: u64) -> Game {
        let pile = shuffled_pile(seed);
        let position =
            Position::new(rules, &pile).unwrap_or_else(|_| unreachable!("the box is valid"));
        Game {
            position,
            seed: Some(seed),
            last: None,
        }
    }

    /// A new game with an explicit pile, front first.
    ///
    /// # Errors
    /// If `pile` is not a permutation of the box.
    pub fn from_pile(rules: Rules, pile: &[TileType]) -> Result<Game, PileError> {
        Ok(Game {
            position: Position::new(rules, pile)?,
            seed: None,
            last: None,
        })
    }

    /// A game that starts at `position`, with no moves before it: a position read from text
    /// ([`Position::from_text`]), a puzzle, an endgame.
    pub fn from_position(position: Position) -> Game {
        Game {
            position,
            seed: None,
            last: None,
        }
    }

    /// Whether the game starts at the set-up of its pile (as every game from a seed, a pile
    /// or a record does), so that its record ([`crate::write_record`]) describes it. A game
    /// from a mid-game position ([`Game::from_position`]) does not: its record would replay
    /// another game.
    pub fn starts_at_set_up(&self) -> bool {
        let initial = self.initial();
        if initial.is_explicit_chance() {
            // The record lists the draws: any position of the deal is one it describes.
            initial.placed() == 0
        } else {
            *initial == Position::set_up(initial.rules(), &initial.pile())
        }
    }

    /// A new game in explicit-chance mode: every draw, the deal included, waits for
    /// [`Game::apply_draw`] (see [`Position::new_explicit`]).
    pub fn explicit_chance(rules: Rules) -> Game {
        Game {
            position: Position::new_explicit(rules),
            seed: None,
            last: None,
        }
    }

    /// A new game as a caller describes it: `chance` is `"sampled"` (the pile is `pile`, or
    /// shuffled from `seed`, or from `fresh_seed()` when neither is given) or `"explicit"`
    /// (no seed or pile: the caller applies every draw).
    ///
    /// # Errors
    /// An unknown chance mode, a seed with a pile, a seed or pile with explicit chance, or a
    /// pile that is not the box; each said for a person.
    pub fn start(
        rules: Rules,
        chance: &str,
        seed: Option<u64>,
        pile: Option<&[TileType]>,
        fresh_seed: impl FnOnce() -> u64,
    ) -> Result<Game, String> {
        match (chance, seed, pile) {
            ("explicit", None, None) => Ok(Game::explicit_chance(rules)),
            ("explicit", _, _) => {
                Err("chance='explicit' takes no seed or pile: the caller applies every draw".into())
            }
            ("sampled", Some(_), Some(_)) => Err("give a seed or a pile, not both".into()),
            ("sampled", None, Some(pile)) => {
                Game::from_pile(rules, pile).map_err(|e| format!("pile: {e}"))
            }
            ("sampled", seed, None) => Ok(Game::from_seed(rules, seed.unwrap_or_else(fresh_seed))),
            (other, _, _) => Err(format!(
                "chance must be 'sampled' or 'explicit', not {other:?}"
            )),
        }
    }

    /// Applies a chance outcome: the drawing seat takes a tile of type `tile`.
    ///
    /// # Errors
    /// If no draw is waiting or the pile holds no such tile; nothing changes.
    pub fn apply_draw(&mut self, tile: TileType) -> Result<(), IllegalDraw> {
        self.position.apply_draw(tile)
    }

    /// Records which seed shuffled the pile (kept in records; changes nothing else).
    #[must_use]
    pub fn with_seed(mut self, seed: Option<u64>) -> Game {
        self.seed = seed;
        self
    }

    /// The current position.
    #[inline]
    pub const fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    #[inline]
    pub const fn rules(&self) -> Rules {
        self.position.rules()
    }

    /// The seed that shuffled the pile, when known.
    #[inline]
    pub const fn seed(&self) -> Option<u64> {
        self.seed
    }

    /// The position before the first move.
    pub fn initial(&self) -> &Position {
        self.turns().first().map_or(&self.position, |t| &t.before)
    }

    /// Checks and plays `mv`, returning what it caused; on error nothing changes.
    ///
    /// # Errors
    /// The reason `mv` may not be played.
    pub fn play(&mut self, mv: Move) -> Result<&MoveEffects, IllegalMove> {
        let before = self.position;
        let seat = match before.phase() {
            Phase::Move(seat) => seat,
            Phase::Draw(seat) => return Err(IllegalMove::AwaitingDraw { seat }),
            Phase::Over => return Err(IllegalMove::GameOver),
        };
        let mut recorder = PathRecorder::default();
        self.position.play_traced(mv, &mut recorder)?;
        let mut points = self.position.scores();
        for (p, b) in points.iter_mut().zip(before.scores()) {
            *p -= b;
        }
        let effects = MoveEffects {
            mv,
            seat,
            paths: recorder.paths,
            points,
            game_over: self.position.is_over(),
        };
        let previous = self.last.take();
        let turn = self.last.insert(Arc::new(Turn {
            before,
            effects,
            previous,
        }));
        Ok(&turn.effects)
    }

    /// Takes back the last move and returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let turn = self.last.take()?;
        self.position = turn.before;
        self.last.clone_from(&turn.previous);
        Some(turn.effects.mv)
    }

    /// The moves played, as given.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.turns().into_iter().map(|t| t.effects.mv)
    }

    /// What the last move caused.
    pub fn last_effects(&self) -> Option<&MoveEffects> {
        self.last.as_deref().map(|t| &t.effects)
    }

    /// The turns played, first to last.
    fn turns(&self) -> Vec<&Turn> {
        let mut turns = Vec::new();
        let mut next = self.last.as_deref();
        while let Some(turn) = next {
            turns.push(turn);
            next = turn.previous.as_deref();
        }
        turns.reverse();
        turns
    }

    /// The position after move `turn` of `turns` (this game's turns).
    fn after<'a>(&'a self, turns: &[&'a Turn], turn: usize) -> &'a Position {
        turns
            .get(turn + 1)
            .map_or(&self.position, |next| &next.before)
    }

    /// Whether the mover of `turn` has drawn after it (public: the pile shrank).
    fn drew_after(&self, turns: &[&Turn], turn: usize) -> bool {
        self.after(turns, turn).pile_left() < turns[turn].before.pile_left()
    }

    /// The tiles `seat` has taken so far, in order: the deal, then one draw after each of its
    /// moves while the pile lasted. Private to `seat` unless hands are open.
    pub fn draws(&self, seat: u8) -> Vec<TileType> {
        let start = self.initial();
        let mut held: Vec<TileType> = start.hand(seat).collect();
        let mut out = held.clone();
        let turns = self.turns();
        for (i, turn) in turns.iter().enumerate() {
            if turn.effects.seat != seat {
                continue;
            }
            if let Some(k) = held.iter().position(|&t| t == turn.effects.mv.tile) {
                held.remove(k);
            }
            let mut now: Vec<TileType> = self.after(&turns, i).hand(seat).collect();
            for t in &held {
                if let Some(k) = now.iter().position(|x| x == t) {
                    now.remove(k);
                }
            }
            out.extend(&now);
            held.extend(now);
        }
        out
    }

    /// The public part of every seat's information state: rules, then each move with its
    /// seat and whether a draw followed (open hands: every draw by type).
    pub fn public_information_string(&self) -> String {
        let rules = self.rules();
        let mut s = format!(
            "indigo players={} hand_size={} gates={} tie_break={} open_hands={}",
            rules.players(),
            rules.hand_size(),
            rules.three_player_gates().as_str(),
            rules.tie_break().as_str(),
            rules.open_hands(),
        );
        if rules.open_hands() {
            for seat in 0..rules.players() {
                let _ = write!(s, " dealt{seat}=");
                for t in self.initial().hand(seat) {
                    let _ = write!(s, "{t}");
                }
            }
        }
        // With open hands each draw is public: seat k's n-th draw after the deal.
        let open: Vec<Vec<TileType>> = if rules.open_hands() {
            (0..rules.players()).map(|seat| self.draws(seat)).collect()
        } else {
            Vec::new()
        };
        let mut next = [usize::from(rules.hand_size()); crate::position::MAX_PLAYERS];
        let turns = self.turns();
        for (i, turn) in turns.iter().enumerate() {
            let seat = turn.effects.seat;
            let _ = write!(s, "; {seat}:{}", turn.effects.mv.canonical());
            if self.drew_after(&turns, i) {
                s.push_str(" +");
                let k = usize::from(seat);
                if let Some(t) = open.get(k).and_then(|d| d.get(next[k])) {
                    let _ = write!(s, "{t}");
                }
                next[k] += 1;
            }
        }
        let _ = write!(s, "; {}", self.position.information(0).public_string());
        s
    }

    /// The private part of `seat`'s information state: the tiles it has taken, in order.
    pub fn private_information_string(&self, seat: u8) -> String {
        let mut s = format!("seat={seat} draws=");
        for t in self.draws(seat) {
            let _ = write!(s, "{t}");
        }
        s
    }

    /// `seat`'s information state (perfect recall): the public part, `|`, the private part.
    pub fn information_state_string(&self, seat: u8) -> String {
        format!(
            "{} | {}",
            self.public_information_string(),
            self.private_information_string(seat)
        )
    }

    /// A 64-bit hash of [`Game::information_state_string`] (XXH3, stable across runs).
    pub fn information_state_hash(&self, seat: u8) -> u64 {
        xxhash_rust::xxh3::xxh3_64(self.information_state_string(seat).as_bytes())
    }

    /// [`Game::resample`] with the search's generator ([`indigo_search::Rng`]) seeded with `seed`.
    #[must_use]
    pub fn resample_seeded(&self, observer: u8, seed: u64) -> Game {
        use rand::SeedableRng;
        self.resample(observer, &mut Rng::seed_from_u64(seed))
    }

    /// At a chance node, each tile type still in the pile with the probability that it is
    /// drawn, in type order; empty elsewhere.
    pub fn chance_outcomes(&self) -> Vec<(TileType, f64)> {
        let total = f64::from(self.position.pile_left());
        TileType::ALL
            .into_iter()
            .zip(self.position.chance_counts())
            .filter(|&(_, n)| n > 0)
            .map(|(t, n)| (t, f64::from(n) / total))
            .collect()
    }

    /// Each seat's hand as `viewer` sees it ([`Rules::sees_hand`]): a tile where it is seen,
    /// `None` where it is hidden.
    pub fn visible_hands(&self, viewer: u8) -> Vec<Vec<Option<TileType>>> {
        let rules = self.rules();
        (0..rules.players())
            .map(|seat| {
                let seen = rules.sees_hand(viewer, seat);
                self.position
                    .hand(seat)
                    .map(|t| seen.then_some(t))
                    .collect()
            })
            .collect()
    }

    /// Points each seat gained with the last move; zeros before the first.
    pub fn last_points(&self) -> [u16; MAX_PLAYERS] {
        self.last_effects().map_or([0; MAX_PLAYERS], |e| e.points)
    }

    /// A full game consistent with what `observer` knows, history included: the same moves,
    /// `observer`'s own draws, and every public fact; the other seats' hidden draws and the
    /// pile order drawn at random from the tiles `observer` has not seen. Reads no hidden
    /// tile: the current hidden tiles come from [`Position::information`], and each hidden
    /// earlier draw is, going back from that sample, a random tile of the hand it joined.
    #[must_use]
    pub fn resample(&self, observer: u8, rng: &mut Rng) -> Game {
        let rules = self.rules();
        let players = rules.players();
        let sampled = self.position.information(observer).fill(rng);
        let turns = self.turns();
        // Each seat's draws, in order: known for the observer (and for all with open hands),
        // rebuilt backwards from the sampled hand for the others.
        let draws: Vec<Vec<TileType>> = (0..players)
            .map(|seat| {
                if rules.sees_hand(observer, seat) {
                    return self.draws(seat);
                }
                let mut hand: Vec<TileType> = sampled.hand(seat).collect();
                let mut later = Vec::new();
                for (i, turn) in turns.iter().enumerate().rev() {
                    if turn.effects.seat != seat {
                        continue;
                    }
                    if self.drew_after(&turns, i) && !hand.is_empty() {
                        later.push(hand.remove(below(rng, hand.len())));
                    }
                    hand.push(turn.effects.mv.tile);
                }
                later.reverse();
                hand.sort_unstable();
                hand.extend(later);
                hand
            })
            .collect();
        // The pile front in the order the tiles were taken: the deal, then after each move.
        let mut taken = vec![0usize; usize::from(players)];
        let mut front = Vec::with_capacity(TILE_TOTAL);
        let mut take = |seat: u8, front: &mut Vec<TileType>| {
            let s = usize::from(seat);
            if let Some(&t) = draws[s].get(taken[s]) {
                front.push(t);
                taken[s] += 1;
            }
        };
        for _ in 0..rules.hand_size() {
            for seat in 0..players {
                take(seat, &mut front);
            }
        }
        for (i, turn) in turns.iter().enumerate() {
            if self.drew_after(&turns, i) {
                take(turn.effects.seat, &mut front);
            }
        }
        let mut game = if self.position.is_explicit_chance() {
            let mut game = Game::explicit_chance(rules);
            let mut next = front.iter();
            let mut moves = self.moves();
            loop {
                if game.position.is_chance_node() {
                    match next.next() {
                        Some(&t) => drop(game.apply_draw(t)),
                        None => break,
                    }
                } else if let Some(mv) = moves.next() {
                    drop(game.play(mv));
                } else {
                    break;
                }
            }
            game
        } else {
            let rest = sampled.pile_rest();
            let pile: Vec<TileType> = front.iter().copied().chain(rest).collect();
            let mut game = Game::from_pile(rules, &pile)
                .unwrap_or_else(|_| unreachable!("the front and the unseen rest fill the box"));
            for mv in self.moves() {
                drop(game.play(mv));
            }
            game
        };
        game.seed = None;
        debug_assert_eq!(game.turns().len(), turns.len());
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::position::Phase;
    use crate::position::Position;
    use crate::record::snapshot;
    use crate::rng::shuffled_pile;
    use crate::rules::Rules;
    use crate::testing::all_configurations;
    use crate::tile::TileType;
    use indigo_search::Rng;
    use indigo_search::below;
    use indigo_search::{Bot, RandomBot};
    use rand::SeedableRng;

    fn start(chance: &str, seed: Option<u64>, pile: Option<&[TileType]>) -> Result<Game, String> {
        Game::start(Rules::indigo(2).unwrap(), chance, seed, pile, || 77)
    }

    #[test]
    fn start_takes_a_seed_a_pile_or_neither() {
        assert_eq!(start("sampled", Some(3), None).unwrap().seed(), Some(3));
        assert_eq!(start("sampled", None, None).unwrap().seed(), Some(77));
        let pile = shuffled_pile(5);
        let game = start("sampled", None, Some(&pile)).unwrap();
        assert_eq!((game.seed(), game.position().pile()), (None, pile));
        assert!(
            start("explicit", None, None)
                .unwrap()
                .position()
                .is_chance_node()
        );
        let err = |r: Result<Game, String>| r.unwrap_err();
        assert!(err(start("sampled", Some(1), Some(&pile))).contains("not both"));
        assert!(err(start("explicit", Some(1), None)).contains("takes no seed or pile"));
        assert!(err(start("explicit", None, Some(&pile))).contains("takes no seed or pile"));
        assert!(err(start("sampled", None, Some(&pile[1..]))).starts_with("pile: "));
        assert!(err(start("dice", None, None)).contains("'sampled' or 'explicit'"));
    }

    #[test]
    fn chance_outcomes_are_the_pile_shares_at_a_draw_only() {
        let mut game = Game::explicit_chance(Rules::indigo(2).unwrap());
        let outcomes = game.chance_outcomes();
        let total: f64 = outcomes.iter().map(|&(_, p)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!(outcomes[1], (TileType::ALL[1], 6.0 / 54.0));
        for &(t, _) in &outcomes[..2] {
            game.apply_draw(t).unwrap();
        }
        assert!(!game.position().is_chance_node());
        assert!(game.chance_outcomes().is_empty());
    }

    #[test]
    fn hands_are_seen_by_their_seat_or_by_all_when_open() {
        let closed = Game::from_seed(Rules::tactical(3).unwrap(), 4);
        let hands = closed.visible_hands(1);
        assert_eq!(hands.len(), 3);
        assert!(hands[0].iter().chain(&hands[2]).all(Option::is_none));
        let own: Vec<_> = closed.position().hand(1).map(Some).collect();
        assert_eq!(hands[1], own);
        let open = Game::from_seed(Rules::tactical(3).unwrap().with_open_hands(true), 4);
        assert!(open.visible_hands(1).iter().flatten().all(Option::is_some));
    }

    #[test]
    fn last_points_and_seeded_resamples() {
        let mut game = Game::from_seed(Rules::indigo(2).unwrap(), 9);
        assert_eq!(game.last_points(), [0; MAX_PLAYERS]);
        while let Some(mv) = game.position().legal_moves().first().copied() {
            let points = game.play(mv).unwrap().points;
            assert_eq!(game.last_points(), points);
        }
        let a = game.resample_seeded(0, 5);
        assert_eq!(a.position(), game.resample_seeded(0, 5).position());
        assert_eq!(
            a.moves().collect::<Vec<_>>(),
            game.moves().collect::<Vec<_>>()
        );
    }

    /// Plays `pile` with the same random choices in sampled and in explicit-chance mode.
    fn play_both_modes(rules: Rules, pile: &[TileType], seed: u64) {
        let mut sampled = Position::new(rules, pile).unwrap();
        let mut explicit = Position::new_explicit(rules);
        let mut draws = pile.iter();
        let mut rng = Rng::seed_from_u64(seed);
        loop {
            while let Phase::Draw(_) = explicit.phase() {
                let counts = explicit.chance_counts();
                assert_eq!(
                    counts.iter().map(|&c| u32::from(c)).sum::<u32>(),
                    u32::from(explicit.pile_left()),
                    "the outcome weights are the pile"
                );
                let tile = *draws.next().unwrap();
                assert!(counts[tile as usize] > 0);
                explicit.apply_draw(tile).unwrap();
            }
            assert_eq!(
                snapshot(&explicit, None, true),
                snapshot(&sampled, None, true),
                "same outcomes, same game"
            );
            let moves = sampled.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[below(&mut rng, moves.len())];
            sampled.play(mv).unwrap();
            explicit.play(mv).unwrap();
        }
        assert!(explicit.is_over() && sampled.is_over());
    }

    #[test]
    fn explicit_and_sampled_chance_give_the_same_games() {
        for (k, rules) in all_configurations().into_iter().enumerate() {
            for seed in 0..5 {
                play_both_modes(rules, &shuffled_pile(seed * 31 + k as u64), seed);
            }
        }
    }

    #[test]
    fn chance_outcomes_are_checked() {
        let rules = Rules::indigo(2).unwrap();
        let mut p = Position::new_explicit(rules);
        assert_eq!(p.phase(), Phase::Draw(0));
        assert_eq!(p.chance_counts(), [14, 6, 14, 14, 6]);
        assert!(
            p.play("0@0:0,-3".parse().unwrap()).is_err(),
            "no move before the deal"
        );
        // Deal two Bends, then draw a Bends after each move until all six are out.
        p.apply_draw(TileType::Bends).unwrap();
        assert_eq!(p.phase(), Phase::Draw(1));
        p.apply_draw(TileType::Bends).unwrap();
        assert_eq!(p.phase(), Phase::Move(0));
        assert!(p.apply_draw(TileType::Bends).is_err(), "no draw is waiting");
        for k in 0..4 {
            let mv = p.legal_moves()[0];
            p.play(mv).unwrap();
            assert_eq!(p.phase(), Phase::Draw(k % 2));
            assert_eq!(p.chance_counts()[4], 4 - k);
            p.apply_draw(TileType::Bends).unwrap();
        }
        let mv = p.legal_moves()[0];
        p.play(mv).unwrap();
        let mut q = p;
        let frozen = q;
        assert!(
            q.apply_draw(TileType::Bends).is_err(),
            "only six tiles of type 4"
        );
        assert_eq!(q, frozen, "a refused outcome changes nothing");
        let mut r = Position::new(rules, &shuffled_pile(1)).unwrap();
        assert!(
            r.apply_draw(TileType::Bends).is_err(),
            "sampled games have no chance nodes"
        );
    }

    #[test]
    fn resampled_games_keep_the_observers_information_state() {
        for (k, rules) in all_configurations().into_iter().enumerate() {
            for explicit in [false, true] {
                let mut game = if explicit {
                    Game::explicit_chance(rules)
                } else {
                    Game::from_seed(rules, k as u64)
                };
                let pile = shuffled_pile(k as u64);
                let mut draws = pile.iter();
                let mut rng = Rng::seed_from_u64(k as u64);
                let mut bot = RandomBot::new(3);
                for turn in 0.. {
                    while game.position().is_chance_node() {
                        game.apply_draw(*draws.next().unwrap()).unwrap();
                    }
                    if turn % 7 == 0 {
                        for seat in 0..rules.players() {
                            let copy = game.resample(seat, &mut rng);
                            assert_eq!(
                                copy.information_state_string(seat),
                                game.information_state_string(seat)
                            );
                            assert_eq!(
                                copy.moves().collect::<Vec<_>>(),
                                game.moves().collect::<Vec<_>>()
                            );
                        }
                    }
                    let Some(mv) = bot.choose(game.position()).map(crate::Action::to_move) else {
                        break;
                    };
                    game.play(mv).unwrap();
                }
            }
        }
    }

    #[test]
    fn information_states_separate_public_and_private_parts() {
        let rules = Rules::indigo(2).unwrap();
        let mut game = Game::from_seed(rules, 4);
        let mut bot = RandomBot::new(1);
        for _ in 0..4 {
            game.play(
                bot.choose(game.position())
                    .map(crate::Action::to_move)
                    .unwrap(),
            )
            .unwrap();
        }
        let (s0, s1) = (
            game.information_state_string(0),
            game.information_state_string(1),
        );
        let public = game.public_information_string();
        assert!(s0.starts_with(&public) && s1.starts_with(&public));
        assert_ne!(s0, s1, "hands are private");
        assert_ne!(
            game.information_state_hash(0),
            game.information_state_hash(1)
        );
        let pile = game.position().pile();
        assert!(
            !game
                .private_information_string(0)
                .contains(&format!("{}{}", pile[10] as u8, pile[11] as u8))
                || pile[10] == pile[11],
            "future draws are not in the string"
        );
    }

    #[test]
    fn game_clones_share_history_but_move_on_alone() {
        let mut game = crate::Game::from_seed(Rules::indigo(2).unwrap(), 4);
        for _ in 0..10 {
            let mv = game.position().legal_moves()[0];
            game.play(mv).unwrap();
        }
        let mut other = game.clone();
        let mv = other.position().legal_moves()[3];
        other.play(mv).unwrap();
        let tenth = game.moves().nth(9);
        assert_eq!(game.undo(), tenth);
        assert_eq!(game.moves().count(), 9);
        assert_eq!(other.moves().count(), 11);
        assert_eq!(other.last_effects().map(|e| e.mv), Some(mv));
        assert_eq!(game.initial(), other.initial());
        while other.undo().is_some() {}
        assert_eq!(other.position(), game.initial());
        assert_eq!(
            other.public_information_string(),
            crate::Game::from_seed(Rules::indigo(2).unwrap(), 4).public_information_string()
        );
    }
}
