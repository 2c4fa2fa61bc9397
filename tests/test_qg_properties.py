"""Properties of random Queen's Garden games from random seeds and player counts.

Every position keeps 108 tiles and 36 expansions, the storage limits, the group rule and
non-negative scores; every game ends within QUEENS_GARDEN.md section 14's bound; notation round
trips; undo, copies and pickles restore positions exactly.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from indigo import queens_garden as qg
from qg_support import MOVE_BOUND, check_invariants

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

GAMES = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
PLAYERS = st.sampled_from([2, 3, 4])


def _choose(game: qg.Game, rng: random.Random) -> qg.Move:
    """A random legal move; passes sometimes carry random discards from storage."""
    legal = game.legal_moves
    move = rng.choice(legal)
    if move.verb != "pass" or rng.random() < 0.5:
        return move
    assert game.to_move is not None
    store = game.storages[game.to_move]
    hexagons = store["tiles"] + [k + "x" for k in store["expansions"]]
    discards = rng.sample(hexagons, rng.randint(0, min(3, len(hexagons))))
    return qg.Move.parse(" ".join(["pass", *discards]))


@GAMES
@given(seed=SEEDS, players=PLAYERS, choices=st.integers(0, 2**32))
def test_random_games_keep_the_invariants(seed: int, players: int, choices: int) -> None:
    rng = random.Random(choices)
    game = qg.Game(qg.Rules(players), seed=seed)
    snap = game.snapshot(legal=True)
    check_invariants(snap)
    while not game.over:
        assert game.moves_played < MOVE_BOUND[players]
        assert snap["legal"], "the game is on, so pass at least is legal"
        assert snap["legal"][-1] == "pass"
        for text in snap["legal"]:
            move = qg.Move.parse(text)
            assert str(move) == text
            assert qg.Move.parse(str(move)) == move
        move = _choose(game, rng)
        played = game.play(move).move
        assert played == move
        snap = game.snapshot(legal=True)
        check_invariants(snap)
    assert game.moves_played <= MOVE_BOUND[players]
    assert snap["phase"] == "end"
    assert snap["legal"] == []
    assert len(snap["round_points"]) == 4
    best = max(snap["scores"])
    assert snap["winners"] == [s for s, score in enumerate(snap["scores"]) if score == best]
    # The final breakdown adds up to the scores after round 4's scoring.
    assert game.final_scoring is not None
    for seat, part in enumerate(game.final_scoring):
        assert part["groups"] >= 0
        assert part["bonus"] % 6 == 0
        before = snap["scores"][seat] - part["storage"] - part["groups"] - part["bonus"]
        assert before >= 0
        # The storage step is clamped at 0: it takes at most the score it found.
        assert before + part["storage"] >= 0


@GAMES
@given(seed=SEEDS, players=PLAYERS, choices=st.integers(0, 2**32))
def test_undo_copy_and_pickle_restore_positions(seed: int, players: int, choices: int) -> None:
    rng = random.Random(choices)
    game = qg.Game(qg.Rules(players), seed=seed)
    history = [game.snapshot_json(legal=True)]
    while not game.over:
        if rng.random() < 0.1:
            twin = pickle.loads(pickle.dumps(game))
            assert twin == game
            assert twin.snapshot_json(legal=True) == history[-1]
            assert twin.seed == game.seed == seed
            for other in (game.clone(), copy.copy(game), copy.deepcopy(game)):
                assert other == game
                assert other.snapshot_json(legal=True) == history[-1]
            # A copy plays on independently and identically.
            move = _choose(game, rng)
            assert twin.play(move).move == game.clone().play(move).move
            assert twin != game
        move = _choose(game, rng)
        before = game.clone()
        game.play(move)
        if rng.random() < 0.3:
            assert game.undo() == move
            assert game == before
            assert game.snapshot_json(legal=True) == history[-1]
            game.play(move)
        history.append(game.snapshot_json(legal=True))
    # Undo all the way back, position by position.
    for expected in reversed(history[:-1]):
        game.undo()
        assert game.snapshot_json(legal=True) == expected
    assert game.moves_played == 0


@settings(max_examples=30, deadline=None)
@given(seed=SEEDS, players=PLAYERS)
def test_seeded_set_up_is_cpython_random(seed: int, players: int) -> None:
    """The bag is ``random.Random(seed).shuffle`` of the 108 tiles in kind order, then the
    expansions are the same rng's shuffle of the 36 kinds (docs/queens-garden.md)."""
    rng = random.Random(seed)
    bag = [kind for kind in qg.KINDS for _ in range(3)]
    rng.shuffle(bag)
    expansions = list(qg.KINDS)
    rng.shuffle(expansions)
    record = qg.Game(qg.Rules(players), seed=seed).to_record()
    assert record["bag"] == bag
    assert record["expansions"] == expansions
    assert record["refills"] == []
    assert record["rules"]["players"] == players


def _record_game(seed: int, players: int, rng: random.Random) -> tuple[qg.Game, list[qg.Move]]:
    """A game read from a record that lists every refill: a whole random game's record, cut
    after a random number of moves (so later refills come from the list, not a seed), and the
    moves the whole game played after the cut (the ones its listed refills fit)."""
    whole = qg.Game(qg.Rules(players), seed=seed)
    while not whole.over:
        whole.play(_choose(whole, rng))
    record = whole.to_record()
    cut = rng.randrange(len(record["moves"]))
    record["moves"] = record["moves"][:cut]
    return qg.Game.from_record(record), whole.moves[cut:]


def _successor(game: qg.Game, rng: random.Random) -> qg.Game:
    """The game after a random legal action with random outcomes of its chance steps."""
    action = rng.choice(game.legal_actions())
    chosen: list[int] = []
    while outcomes := game.chance_outcomes(action, chosen):
        chosen.append(rng.choice(outcomes)[0])
    return game.successor(action, chosen)


def _derived(how: str, seed: int, players: int, rng: random.Random) -> qg.Game:
    """A mid-game game made the way ``how`` names, a few moves already played on it."""
    if how == "first_draws":
        draws = [int(k) for k in rng.sample(range(36), 4)]
        game = qg.Game.with_first_draws(qg.Rules(players), draws, seed=seed)
    else:
        game = qg.Game(qg.Rules(players), seed=seed)
    for _ in range(rng.randrange(120)):
        if game.over:
            break
        game.play(_choose(game, rng))
    if how == "resample" and not game.over:
        game = game.resample(rng.randrange(players), seed=rng.getrandbits(64))
    elif how == "successor" and not game.over:
        game = _successor(game, rng)
    for _ in range(rng.randrange(4)):
        if game.over:
            break
        game.play(_choose(game, rng))
    return game


def _assert_same(game: qg.Game, twin: qg.Game) -> None:
    assert twin == game
    assert twin.snapshot_json(legal=True) == game.snapshot_json(legal=True)
    assert twin.legal_actions() == game.legal_actions()
    assert twin.seed == game.seed
    assert twin.moves == game.moves
    assert twin.record_json() == game.record_json()


@GAMES
@given(
    seed=SEEDS,
    players=PLAYERS,
    choices=st.integers(0, 2**32),
    how=st.sampled_from(["seeded", "record", "first_draws", "resample", "successor"]),
)
def test_pickle_restores_every_game_exactly(
    seed: int, players: int, choices: int, how: str
) -> None:
    """A pickled game, however it was made, is the same game: position and hidden information,
    undo history, and the same future (refills included) under the same moves."""
    rng = random.Random(choices)
    planned: list[qg.Move] = []
    if how == "record":
        game, planned = _record_game(seed, players, rng)
    else:
        game = _derived(how, seed, players, rng)
    twin = pickle.loads(pickle.dumps(game))
    _assert_same(game, twin)
    # The same history: undo takes both back through the same positions.
    undone, twin_undone = game.clone(), twin.clone()
    while undone.moves:
        assert twin_undone.undo() == undone.undo()
        _assert_same(undone, twin_undone)
    # The same future: play on to the end (through any refill) with the same moves.
    while not game.over:
        move = planned.pop(0) if planned else _choose(game, rng)
        assert twin.play(move).move == game.play(move).move
        _assert_same(game, twin)
        if rng.random() < 0.05:
            twin = pickle.loads(pickle.dumps(twin))
            _assert_same(game, twin)
    assert twin.legal_moves == []
