"""Stateful property test: random interleavings of everything a program does with a ``Game``.

Hypothesis drives a :class:`~hypothesis.stateful.RuleBasedStateMachine` through legal and
illegal plays, undo, clone, pickle, record round trips (dict, JSON text, bytes), snapshots and
bot choices, in every configuration. After every step the game must equal the pure-Python
reference engine (``indigo.reference``), and every rejected call must leave the game exactly as
it was (snapshot with legal list, record and history).
"""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from conftest import CONFIGS, equivalent_rotations, illegal_moves, make_rules, normalise
from indigo import (
    Game,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    Move,
    MoveError,
    RandomBot,
    RecordError,
)
from indigo.reference import RefGame

pytestmark = pytest.mark.slow  # left out of scripts/check --quick


def state(game: Game) -> tuple[Any, ...]:
    """Everything a rejected call must not change."""
    return (game.snapshot_json(legal=True), game.record_json(), game.moves, repr(game.last_result))


class GameMachine(RuleBasedStateMachine):
    game: Game
    ref: RefGame
    history: list[RefGame]  # the reference before each move, for undo
    detached: list[tuple[Game, str]]  # earlier copies and the record each must keep

    @initialize(
        config=st.sampled_from(CONFIGS),
        tie_break=st.sampled_from(["most-gems", "shared"]),
        open_hands=st.booleans(),
        seed=st.integers(0, 2**64 - 1),
    )
    def start(
        self, config: tuple[int, int, str], tie_break: str, open_hands: bool, seed: int
    ) -> None:
        rules = make_rules(config, tie_break=tie_break, open_hands=open_hands)
        self.game = Game(rules, seed=seed)
        self.ref = RefGame.from_rules(rules, self.game.pile)
        self.history = []
        self.detached = []

    def rejected(self, call: Any, error: type[BaseException]) -> None:
        """``call(game)`` raises ``error`` and changes nothing."""
        before = state(self.game)
        try:
            call(self.game)
        except error:
            pass
        else:
            raise AssertionError(f"expected {error.__name__}")
        assert state(self.game) == before

    # -- moves ----------------------------------------------------------------------------
    @precondition(lambda self: not self.game.over)
    @rule(choice=st.integers(0, 10**6), variant=st.integers(0, 5), as_text=st.booleans())
    def play_legal(self, choice: int, variant: int, as_text: bool) -> None:
        legal = self.game.legal_moves
        move = legal[choice % len(legal)]
        rotations = equivalent_rotations(move.tile, move.rotation)
        move = Move(move.tile, rotations[variant % len(rotations)], move.q, move.r)
        seat = self.game.to_move
        result = self.game.play(str(move) if as_text else move)
        self.history.append(copy.deepcopy(self.ref))
        self.ref.play(move)
        assert result.move == move
        assert result.seat == seat
        assert self.game.last_result is not None
        assert self.game.last_result.move == move
        assert result.game_over == self.game.over

    @rule(count=st.integers(1, 60), seed=st.integers(0, 2**64 - 1))
    def play_many(self, count: int, seed: int) -> None:
        """Runs of bot moves, so that games reach their end."""
        bot = RandomBot(seed=seed)
        for _ in range(count):
            if self.game.over:
                break
            move = bot.choose(self.game)
            self.game.play(move)
            self.history.append(copy.deepcopy(self.ref))
            self.ref.play(move)
            assert normalise(self.game.snapshot()) == self.ref.snapshot()

    @precondition(lambda self: not self.game.over)
    @rule(data=st.data())
    def play_illegal(self, data: st.DataObject) -> None:
        kinds = {k: v for k, v in illegal_moves(self.game).items() if v}
        kind = data.draw(st.sampled_from(sorted(kinds)))
        move = data.draw(st.sampled_from(kinds[kind]))
        assert not self.ref.is_legal(move)
        assert not self.game.is_legal(move)
        self.rejected(lambda g: g.play(move), IllegalMoveError)

    @rule(text=st.sampled_from(["", "4", "4@0:0", "9@0:0,-3", "4@6:0,-3", "4@0:0,-9", "x@y:z,w"]))
    def play_malformed(self, text: str) -> None:
        self.rejected(lambda g: g.play(text), MoveError)
        self.rejected(lambda g: g.is_legal(text), MoveError)

    @precondition(lambda self: self.game.over)
    @rule()
    def play_after_the_end(self) -> None:
        self.rejected(lambda g: g.play(Move(0, 0, 0, -3)), IllegalMoveError)
        self.rejected(lambda g: RandomBot(seed=1).choose(g), IllegalMoveError)

    @rule()
    def undo(self) -> None:
        if not self.history:
            self.rejected(lambda g: g.undo(), IndigoError)
            return
        last = self.game.moves[-1]
        assert self.game.undo() == last
        self.ref = self.history.pop()

    # -- copies and formats -----------------------------------------------------------------
    @rule(method=st.sampled_from(["clone", "copy.copy", "copy.deepcopy", "pickle"]))
    def replace_by_copy(self, method: str) -> None:
        copies = {
            "clone": Game.clone,
            "copy.copy": copy.copy,
            "copy.deepcopy": copy.deepcopy,
            "pickle": lambda g: pickle.loads(pickle.dumps(g)),
        }
        old = self.game
        new = copies[method](old)
        assert new is not old
        assert new == old
        assert state(new) == state(old)
        self.detached = [*self.detached[-2:], (old, old.record_json())]
        self.game = new

    @rule(form=st.sampled_from(["dict", "str", "bytes"]))
    def record_round_trip(self, form: str) -> None:
        text = self.game.record_json()
        record: Any = {"dict": self.game.to_record(), "str": text, "bytes": text.encode()}[form]
        back = Game.from_record(record)
        assert back == self.game
        assert back.moves == self.game.moves
        assert back.seed == self.game.seed
        assert back.rules == self.game.rules
        assert back.record_json() == text
        self.game = back

    @rule(data=st.data())
    def bad_record(self, data: st.DataObject) -> None:
        record = self.game.to_record()
        field = data.draw(st.sampled_from(["format", "rules", "pile", "moves"]))
        record[field] = data.draw(st.sampled_from([None, 1.5, "x", {}, [None], [[]]]))
        self.rejected(lambda g: Game.from_record(record), RecordError)
        self.rejected(lambda g: g.__setstate__(json.dumps(record)), RecordError)

    @rule(seat=st.integers(0, 3), legal=st.booleans())
    def snapshot(self, seat: int, legal: bool) -> None:
        if seat >= self.game.rules.players:
            self.rejected(lambda g: g.snapshot(seat=seat), IndigoError)
            return
        view = self.game.snapshot(seat=seat, legal=legal)
        full = self.game.snapshot(legal=legal)
        for s, hand in enumerate(view["hands"]):
            shown = s == seat or self.game.rules.open_hands
            assert hand == (full["hands"][s] if shown else [None] * len(full["hands"][s]))
        assert {**view, "hands": full["hands"]} == full

    @precondition(lambda self: not self.game.over)
    @rule(greedy=st.booleans(), seed=st.integers(0, 2**64 - 1))
    def bot_choice(self, greedy: bool, seed: int) -> None:
        before = state(self.game)
        bot = GreedyBot(seed=seed) if greedy else RandomBot(seed=seed)
        move = bot.choose(self.game)
        assert move in self.game.legal_moves
        assert state(self.game) == before

    # -- after every step -------------------------------------------------------------------
    @invariant()
    def matches_reference(self) -> None:
        assert normalise(self.game.snapshot(legal=True)) == self.ref.snapshot(legal=True)
        assert len(self.game.moves) == len(self.history)
        for game, record in self.detached:
            assert game.record_json() == record


GameMachine.TestCase.settings = settings(
    max_examples=60,
    stateful_step_count=60,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
test_game_machine = GameMachine.TestCase
