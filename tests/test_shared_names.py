"""The two games answer the same names for the same concepts (one vocabulary, OpenSpiel's
where it has one): every public name of one game's ``Game``, ``Move`` or ``MoveResult`` is
the other's too, but for the game-specific names listed here, each with its reason."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pytest

import indigo
from indigo import queens_garden as qg

INDIGO_ONLY: dict[str, dict[str, str]] = {
    "Game": {
        "board": "Indigo's hex board of route tiles",
        "centre": "Indigo's centre treasure",
        "collected": "the gems each seat has collected",
        "gems": "Indigo's gems on the board",
        "removed": "gems that left the board by colliding",
        "tile_at": "Indigo's route tile on a cell",
        "hand": "Indigo's hand of tiles (Queen's Garden's is the storage)",
        "hands": "Indigo's hands of tiles",
        "visible_hands": "the hands a seat sees under open or closed hands",
        "pile": "Indigo's pile of tiles to draw",
        "pile_left": "tiles left in Indigo's pile",
        "explicit_chance": "Indigo's draws may be chance nodes of their own (chance=)",
        "chance_seat": "the seat that draws at an Indigo chance node",
        "public_information_string": "Indigo's information state splits into public and "
        "private parts; Queen's Garden's is one string",
        "private_information_string": "as public_information_string",
    },
    "Move": {
        "tile": "an Indigo placement's tile type",
        "rotation": "an Indigo placement's rotation",
        "q": "an Indigo placement's cell",
        "r": "an Indigo placement's cell",
        "cell": "an Indigo placement's cell",
        "canonical": "an Indigo placement's canonical rotation",
        "paths": "an Indigo tile's paths",
        "to_dict": "an Indigo move's JSON object (Queen's Garden's moves are text)",
    },
    "MoveResult": {
        "paths": "the gem paths an Indigo placement moved",
        "collisions": "the gems an Indigo placement collided",
    },
}

GARDEN_ONLY: dict[str, dict[str, str]] = {
    "Game": {
        "round": "Queen's Garden's four rounds",
        "phase": "Queen's Garden's action and end phases",
        "stack": "the round's stack of expansions",
        "display": "the expansions that left the stack this round",
        "storages": "each seat's storage",
        "gardens": "each seat's garden",
        "bag_size": "tiles in the bag",
        "tower": "the discard tower",
        "supply_size": "expansions in the supply",
        "refills_used": "bag refills from the tower",
        "passed": "who has passed this round",
        "start_player": "the round's start player",
        "first_passer": "the round's first passer",
        "round_points": "each round's scoring",
        "final_scoring": "the final scoring's parts",
        "greedy_points": "the greedy bot's valuation",
        "chance_steps": "a Queen's Garden move holds its chance (draws, reveals) inside it",
        "successor": "the game after a move with its inner chance given",
        "first_draw_outcomes": "the set-up's chance, given explicitly",
        "with_first_draws": "the set-up's chance, given explicitly",
    },
    "Move": {"verb": "the rulebook's verb: take, tile, exp, buy or pass"},
    "MoveResult": {},
}

SHARED = {
    "Game": [
        "legal_actions",
        "legal_action_mask",
        "apply_action",
        "is_chance_node",
        "chance_outcomes",
        "information_state_string",
        "information_state_hash",
        "observation_string",
        "observation",
        "returns",
        "rewards",
        "resample",
        "clone",
        "undo",
        "to_record",
        "snapshot",
        "over",
        "to_move",
        "scores",
        "winners",
        "moves",
        "moves_played",
        "legal_moves",
        "is_legal",
        "play",
        "last_result",
    ],
    "Move": ["action", "from_action", "parse"],
    "MoveResult": ["move", "seat", "points", "game_over"],
}


def _public(cls: type) -> set[str]:
    return {name for name in dir(cls) if not name.startswith("_")}


@pytest.mark.parametrize("name", ["Game", "Move", "MoveResult"])
def test_every_shared_concept_has_one_name_in_both_games(name: str) -> None:
    ours, theirs = _public(getattr(indigo, name)), _public(getattr(qg, name))
    assert ours - set(INDIGO_ONLY[name]) == theirs - set(GARDEN_ONLY[name])
    # The lists stay true: each listed name exists in its game only.
    assert set(INDIGO_ONLY[name]) <= ours - theirs
    assert set(GARDEN_ONLY[name]) <= theirs - ours
    assert set(SHARED[name]) <= ours & theirs


def _indigo() -> indigo.Game:
    return indigo.Game(indigo.Rules.indigo(2), seed=3)


def _garden() -> qg.Game:
    return qg.Game(qg.Rules(2), seed=3)


@pytest.mark.parametrize("make", [_indigo, _garden], ids=["indigo", "queens-garden"])
def test_the_shared_names_mean_the_same(make: object) -> None:
    game = make()  # type: ignore[operator]
    assert game.moves_played == 0
    assert game.last_result is None
    assert game.is_chance_node() is False
    assert game.returns("points") == [float(s) for s in game.scores]
    assert game.returns() == game.returns("points")
    assert game.returns("win") == [0.0, 0.0]
    assert list(game.rewards()) == [0, 0]
    before = list(game.scores)
    action = game.legal_actions()[0]
    move = type(game.legal_moves[0]).from_action(action)
    assert move.action == action
    assert move == game.legal_moves[0]
    result = game.play(action)  # an action number is a move in both
    assert type(result).__name__ == "MoveResult"
    assert (result.move, result.seat, result.game_over) == (move, 0, False)
    assert list(result.points) == list(game.rewards())
    assert list(result.points) == [a - b for a, b in zip(game.scores, before, strict=True)]
    assert game.last_result.move == move
    assert game.moves == [move]
    assert game.moves_played == 1
    assert game.undo() == move
    assert game.apply_action(action) is None
    assert game.moves == [move]


@pytest.mark.parametrize("make", [_indigo, _garden], ids=["indigo", "queens-garden"])
def test_the_information_hash_and_observation_string_follow_what_a_seat_knows(
    make: object,
) -> None:
    game = make()  # type: ignore[operator]
    seen: dict[str, int] = {}
    for _ in range(12):
        for seat in range(game.rules.players):
            info = game.information_state_string(seat)
            digest = game.information_state_hash(seat)
            assert 0 <= digest < 2**64
            assert seen.setdefault(info, digest) == digest  # one string, one hash
            view = game.observation_string(seat)
            assert isinstance(view, str)
            assert view.startswith(f"seat={seat}") or "|" in view
            # What the seat cannot see moves neither its view nor its information state.
            other = game.resample(seat, seed=len(seen))
            assert other.observation_string(seat) == view
            assert other.information_state_hash(seat) == digest
        game.play(game.legal_actions()[len(seen) % len(game.legal_actions())])
    assert len(set(seen.values())) == len(seen)  # every information state its own hash
    assert game.observation_string(0) != game.observation_string(1)  # each seat's own view
    for method in (game.observation_string, game.information_state_hash):
        with pytest.raises(indigo.IndigoError, match="seat"):
            method(game.rules.players)


def test_one_form_of_simulate_self_play_and_make_bot_for_every_game() -> None:
    for entry in indigo.games.GAMES:
        specs = ["random", "greedy"]
        batch = indigo.self_play(specs, 2, seed=5, game=entry.name)
        assert type(batch) is entry.selfplay_batch
        direct = entry.self_play(specs, 2, seed=5)
        assert batch.records == direct.records
        simulation = indigo.simulate(specs, 2, seed=5, game=entry.name)
        assert simulation.checksum == entry.simulate(specs, 2, seed=5).checksum
        assert type(indigo.make_bot("random", seed=1, game=entry.name)) in entry.bots


@pytest.mark.parametrize("entry", indigo.games.GAMES, ids=lambda e: e.name)
def test_every_self_play_batch_has_the_shared_columns_in_one_shape(
    entry: indigo.games.GameEntry,
) -> None:
    batch = entry.self_play(["ismcts:20", "greedy"], 2, seed=3)
    assert isinstance(batch, indigo._native.SelfPlayColumns)
    assert len(batch) == 2
    assert batch.samples == len(batch.ply) > 0
    module = importlib.import_module(entry.module)
    shared = {
        "game": np.uint64,
        "ply": np.uint16,
        "seat": np.uint8,
        "observation": np.float32,
        "searched": np.bool_,
        "visit_offsets": np.int64,
        "outcome": np.float32,
        "points": np.uint16,
    }
    for name, dtype in shared.items():
        column = getattr(batch, name)
        assert column.dtype == dtype, name
        assert len(column) == batch.samples + (name == "visit_offsets"), name
    assert batch.visit_counts.dtype == np.uint32
    assert batch.observation.shape == (batch.samples, module.OBSERVATION_SIZE)
    assert batch.visit_actions.dtype == batch.action.dtype
    assert batch.searched.any()
    assert batch.visit_offsets[-1] == len(batch.visit_counts) > 0
    assert repr(batch) == f"<SelfPlayBatch games=2 samples={batch.samples}>"


@pytest.mark.parametrize("make", [_indigo, _garden], ids=["indigo", "queens-garden"])
def test_print_draws_the_position_and_repr_stays_short(make: object) -> None:
    game = make()  # type: ignore[operator]
    game.play(game.legal_actions()[0])
    drawn = str(game)
    entry = indigo.games.find_game(game)
    if entry is indigo.games.INDIGO:
        from indigo.render.terminal import board_text, status_text

        assert drawn == board_text(game, colour=False, codes=False) + "\n" + status_text(
            game, colour=False
        )
    else:
        from indigo.queens_garden.terminal import position_text

        assert drawn == position_text(game.snapshot())
    assert "\x1b" not in drawn
    assert drawn.count("\n") >= 5
    assert "\n" not in repr(game)
    assert len(repr(game)) < 100


def _equivalent_forms(move: Any) -> list[Any]:
    """Other spellings of ``move``: Indigo's equivalent rotations, Queen's Garden's discards
    in another order."""
    if isinstance(move, indigo.Move):
        rotations = [
            r for r in range(6) if indigo.Move(move.tile, r, move.q, move.r).canonical() == move
        ]
        return [indigo.Move(move.tile, r, move.q, move.r) for r in rotations]
    tokens = str(move).split(" ")  # the discards after a placement come in any order
    return [qg.Move.parse(" ".join([*tokens[:3], *reversed(tokens[3:])])), qg.Move.parse(str(move))]


@pytest.mark.parametrize("make", [_indigo, _garden], ids=["indigo", "queens-garden"])
def test_move_equality_hash_and_membership_agree_with_is_legal(make: object) -> None:
    game = make()  # type: ignore[operator]
    checked = 0
    for _ in range(12):
        legal = game.legal_moves
        for move in legal:
            for form in _equivalent_forms(move):
                assert game.is_legal(form)
                assert form in legal
                assert form == move
                assert hash(form) == hash(move)
                assert (form != move) is False
                checked += 1
        game.play(legal[len(legal) // 2])
    assert checked > 12
    # A placement whose rotation is not equivalent is another move.
    if isinstance(game, indigo.Game):
        a, b = indigo.Move.parse("0@1:0,-3"), indigo.Move.parse("0@4:0,-3")
        c = indigo.Move.parse("0@2:0,-3")
        assert a == b
        assert hash(a) == hash(b)
        assert len({a, b}) == 1
        assert a != c
        assert str(b) == "0@4:0,-3"  # the move keeps the rotation it was given


def _over(make: Any) -> Any:
    game = make()
    while not game.over:
        game.play(game.legal_actions()[-1 if game.moves_played % 3 else 0])
    return game


@pytest.mark.parametrize("make", [_indigo, _garden], ids=["indigo", "queens-garden"])
def test_every_utility_means_the_same_in_both_games(make: object) -> None:
    game = _over(make)
    win, rank, zero_sum = (game.returns(u) for u in ("win", "rank", "zero-sum"))
    assert sum(win) == pytest.approx(1.0)
    assert sum(zero_sum) == pytest.approx(0.0)
    assert [s for s, w in enumerate(win) if w > 0] == game.winners
    assert all(rank[w] == max(rank) for w in game.winners)
    assert 0.0 <= min(rank) <= max(rank) <= 1.0
    start = make()  # type: ignore[operator]
    assert start.returns("rank") == start.returns("zero-sum") == [0.0, 0.0]
    with pytest.raises(indigo.IndigoError, match="utility must be"):
        start.returns("elo")
