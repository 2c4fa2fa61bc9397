"""The conformance vectors of ``shared/vectors`` (copied unchanged into ``tests/vectors``).

Each game is replayed move by move and every snapshot is compared with the reference one,
restricted to the fields docs/spec/FORMATS.md defines; bad records must be rejected naming the first
offending field or move.
"""

from __future__ import annotations

import copy
import json
import random
import types
from typing import Any

import pytest

import indigo
from conftest import (
    BOX,
    GAME_FILES,
    RefGame,
    load_vector,
    normalise,
    python_pile,
    restrict,
    snapshot_diff,
)
from indigo import Game, IndigoError, Move, RecordError, Rules

GAME_NAMES = [p.name for p in GAME_FILES]
BAD_CASES = load_vector("bad-records.json")
BAD_IDS = [case["name"] for case in BAD_CASES]


def test_vector_files_present() -> None:
    assert len(GAME_NAMES) == 16
    assert len(BAD_CASES) >= 12


def rules_of(record: dict[str, Any], **overrides: Any) -> Rules:
    ru = {**record["rules"], **overrides}
    return Rules(
        ru["players"],
        ru["hand_size"],
        three_player_gates=ru.get("three_player_gates", "shared"),
        tie_break=ru.get("tie_break", "most-gems"),
    )


def assert_snapshot(got: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    sub = restrict(got, expected)
    assert sub == expected, f"{where}: snapshot differs\n{snapshot_diff(sub, expected)}"


def initial_game(record: dict[str, Any]) -> Game:
    return Game.from_record({**record, "moves": []})


# ------------------------------------------------------------------------------------------
# Complete games
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_step_by_step(name: str) -> None:
    d = load_vector(name)
    record, snapshots = d["record"], d["snapshots"]
    assert len(snapshots) == len(record["moves"]) + 1

    game = initial_game(record)
    taken = [game.snapshot(legal=True)]
    assert_snapshot(taken[0], snapshots[0], f"{name} initial")
    for i, m in enumerate(record["moves"]):
        before = snapshots[i]
        result = game.play(Move(m["tile"], m["rotation"], m["q"], m["r"]))
        snap = game.snapshot(legal=True)
        taken.append(snap)
        assert_snapshot(snap, snapshots[i + 1], f"{name} after move {i} {m}")
        # The result agrees with the snapshots around it.
        assert result.seat == before["to_move"]
        assert result.move.canonical() == Move(m["tile"], m["rotation"], m["q"], m["r"]).canonical()
        gained = [a - b for a, b in zip(snapshots[i + 1]["scores"], before["scores"], strict=True)]
        assert list(result.points) == gained
        assert result.game_over == snapshots[i + 1]["over"]
    assert len(taken) == len(snapshots)
    assert game.over
    # The moves are kept as given (non-smallest rotations included).
    assert [mv.to_dict() for mv in game.moves] == record["moves"]

    # A full replay through the record reader reaches the same position.
    replayed = Game.from_record(record)
    assert replayed == game
    assert hash(replayed) == hash(game)
    assert normalise(replayed.snapshot(legal=True)) == normalise(game.snapshot(legal=True))
    assert_snapshot(replayed.snapshot(legal=True), snapshots[-1], f"{name} full replay")
    assert [mv.to_dict() for mv in replayed.moves] == record["moves"]


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_snapshot_json(name: str) -> None:
    """``snapshot_json`` is the same document as JSON text, compact with sorted keys."""
    d = load_vector(name)
    record, snapshots = d["record"], d["snapshots"]
    game = initial_game(record)
    checkpoints = {0, len(record["moves"]) // 2, len(record["moves"])}
    for i in range(len(record["moves"]) + 1):
        if i in checkpoints:
            text = game.snapshot_json(legal=True)
            parsed = json.loads(text)
            assert {k: parsed[k] for k in snapshots[i]} == snapshots[i]
            assert text == json.dumps(parsed, sort_keys=True, separators=(",", ":"))
        if i < len(record["moves"]):
            game.play(Move(**record["moves"][i]))


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_record_as_text_and_bytes(name: str) -> None:
    d = load_vector(name)
    record = d["record"]
    text = json.dumps(record)
    by_dict = Game.from_record(record)
    by_text = Game.from_record(text)
    by_bytes = Game.from_record(text.encode("utf-8"))
    assert by_text == by_dict
    assert by_bytes == by_dict
    for game in (by_text, by_bytes):
        assert_snapshot(game.snapshot(legal=True), d["snapshots"][-1], f"{name} from text")


def test_vector_record_not_mutated(vector: dict[str, Any]) -> None:
    record = vector["record"]
    before = copy.deepcopy(record)
    Game.from_record(record)
    assert record == before


def test_vector_record_as_any_mapping(vector: dict[str, Any]) -> None:
    """``from_record`` takes any ``Mapping``, not only ``dict``."""
    record = vector["record"]
    game = Game.from_record(types.MappingProxyType(record))
    assert game == Game.from_record(record)
    assert_snapshot(game.snapshot(legal=True), vector["snapshots"][-1], "MappingProxyType record")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_to_record_round_trip(name: str) -> None:
    d = load_vector(name)
    record = d["record"]
    game = Game.from_record(record)
    out = game.to_record()
    json.dumps(out)  # plain JSON
    assert out["format"] == "indigo-record/1"
    assert out["pile"] == record["pile"]
    assert out["rules"]["players"] == record["rules"]["players"]
    assert out["rules"]["hand_size"] == record["rules"]["hand_size"]
    assert len(out["moves"]) == len(record["moves"])
    for got, given in zip(out["moves"], record["moves"], strict=True):
        assert set(got) >= {"tile", "rotation", "q", "r"}
        assert Move(**{k: got[k] for k in ("tile", "rotation", "q", "r")}).canonical() == (
            Move(**given).canonical()
        )
    again = Game.from_record(out)
    assert again == game
    assert_snapshot(again.snapshot(legal=True), d["snapshots"][-1], f"{name} to_record")
    text = game.record_json()
    assert json.loads(text) == out
    assert text == json.dumps(out, sort_keys=True, separators=(",", ":"))
    assert Game.from_record(text) == game


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_built_from_rules_and_pile(name: str) -> None:
    """``Game(rules, pile=...)`` and ``Game(rules, seed=...)`` start at the recorded position."""
    d = load_vector(name)
    record = d["record"]
    rules = rules_of(record)
    by_pile = Game(rules, pile=record["pile"])
    assert by_pile.pile == record["pile"]
    assert by_pile.seed is None
    assert_snapshot(by_pile.snapshot(legal=True), d["snapshots"][0], f"{name} Game(pile=)")
    by_seed = Game(rules, seed=record["seed"])
    assert by_seed.pile == record["pile"]
    assert by_seed.seed == record["seed"]
    assert_snapshot(by_seed.snapshot(legal=True), d["snapshots"][0], f"{name} Game(seed=)")
    for m in record["moves"]:
        by_pile.play(Move(**m))
    assert by_pile == Game.from_record(record)
    assert_snapshot(by_pile.snapshot(legal=True), d["snapshots"][-1], f"{name} Game(pile=)")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_seed_shuffles_like_python(name: str) -> None:
    record = load_vector(name)["record"]
    assert python_pile(record["seed"]) == record["pile"]  # the vectors themselves
    assert Game(rules_of(record), seed=record["seed"]).pile == record["pile"]


@pytest.mark.parametrize(
    "seed", [0, 1, 2, 7, 42, 1234, 99999, 2**31 - 1, 2**32 - 1, 2**32, 2**40 + 17, 2**63 - 1]
)
def test_seed_shuffles_like_python(seed: int) -> None:
    expected = list(BOX)
    random.Random(seed).shuffle(expected)
    for rules in (Rules.indigo(2), Rules.tactical(3), Rules(4, 2)):
        game = Game(rules, seed=seed)
        assert game.pile == expected
        assert game.seed == seed


def test_random_seeds_shuffle_like_python() -> None:
    rng = random.Random(20240601)
    for _ in range(25):
        seed = rng.getrandbits(rng.choice([8, 16, 32, 48, 64]))
        assert Game(seed=seed).pile == python_pile(seed), seed


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_optional_and_unknown_fields(name: str) -> None:
    """Optional fields never change the game, unknown fields are ignored, seed is informational."""
    d = load_vector(name)
    record = d["record"]
    variants = [
        {k: v for k, v in record.items() if k != "seed"},
        {**record, "theme": "butterfly-garden"},
        {**record, "players_names": [f"p{i}" for i in range(record["rules"]["players"])]},
        {**record, "result": {"note": "anything"}, "x-comment": [1, 2, {"nested": True}]},
        {**record, "rules": {**record["rules"], "x-house-rule": 3}},
    ]
    for variant in variants:
        game = Game.from_record(variant)
        assert_snapshot(game.snapshot(legal=True), d["snapshots"][-1], f"{name} {sorted(variant)}")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_three_player_gates(name: str) -> None:
    """``three_player_gates`` is ignored unless there are three players, where it moves points."""
    d = load_vector(name)
    record = d["record"]
    players = record["rules"]["players"]
    if players == 3:
        other = "exclusive" if record["rules"]["three_player_gates"] == "shared" else "shared"
        game = Game.from_record(
            {**record, "rules": {**record["rules"], "three_player_gates": other}}
        )
        assert game.rules.three_player_gates == other
        ref = RefGame(players, record["rules"]["hand_size"], other, record["pile"])
        for m in record["moves"]:
            ref.play(m)
        assert_snapshot(game.snapshot(legal=True), ref.snapshot(legal=True), f"{name} {other}")
    else:
        for variant in ("shared", "exclusive"):
            rules = {**record["rules"], "three_player_gates": variant}
            game = Game.from_record({**record, "rules": rules})
            assert_snapshot(game.snapshot(legal=True), d["snapshots"][-1], f"{name} {variant}")
    if record["rules"].get("three_player_gates", "shared") == "shared":
        # Omitting the field means "shared".
        rules = {k: v for k, v in record["rules"].items() if k != "three_player_gates"}
        game = Game.from_record({**record, "rules": rules})
        assert_snapshot(game.snapshot(legal=True), d["snapshots"][-1], f"{name} default gates")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_vector_tie_break(name: str) -> None:
    """Explicit tie-breaks: "most-gems" is the default; "shared" changes only the winners."""
    d = load_vector(name)
    record, last = d["record"], d["snapshots"][-1]
    game = Game.from_record({**record, "rules": {**record["rules"], "tie_break": "most-gems"}})
    assert_snapshot(game.snapshot(legal=True), last, f"{name} most-gems")
    shared = Game.from_record({**record, "rules": {**record["rules"], "tie_break": "shared"}})
    assert shared.rules.tie_break == "shared"
    best = max(last["scores"])
    expected = {**last, "winners": [s for s, x in enumerate(last["scores"]) if x == best]}
    assert_snapshot(shared.snapshot(legal=True), expected, f"{name} shared tie-break")


# ------------------------------------------------------------------------------------------
# Bad records
# ------------------------------------------------------------------------------------------


def error_label(at: str | int) -> str:
    return f"moves[{at}]" if isinstance(at, int) else at


def check_rejected(record: Any, error_at: str | int) -> RecordError:
    with pytest.raises(RecordError) as exc:
        Game.from_record(record)
    err = exc.value
    assert isinstance(err, IndigoError)
    assert isinstance(err, ValueError)
    assert err.at == error_at
    assert type(err.at) is type(error_at)
    assert error_label(error_at) in str(err), f"message {str(err)!r} lacks {error_label(error_at)}"
    return err


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
def test_bad_record(case: dict[str, Any]) -> None:
    record = case["record"]
    before = copy.deepcopy(record)
    check_rejected(record, case["error_at"])
    assert record == before


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
def test_bad_record_as_text(case: dict[str, Any]) -> None:
    check_rejected(json.dumps(case["record"]), case["error_at"])


@pytest.mark.parametrize("case", BAD_CASES, ids=BAD_IDS)
def test_bad_record_as_bytes(case: dict[str, Any]) -> None:
    check_rejected(json.dumps(case["record"]).encode("utf-8"), case["error_at"])


BAD_MOVE_CASES = [case for case in BAD_CASES if isinstance(case["error_at"], int)]


@pytest.mark.parametrize("case", BAD_MOVE_CASES, ids=[c["name"] for c in BAD_MOVE_CASES])
def test_bad_record_prefix_is_good(case: dict[str, Any]) -> None:
    """The moves before a bad move are fine, and the bad move played directly is refused."""
    at = case["error_at"]
    record = {**case["record"], "moves": case["record"]["moves"][:at]}
    game = Game.from_record(record)
    assert len(game.moves) == at
    bad = case["record"]["moves"][at]
    before = game.snapshot(legal=True)
    clone = game.clone()
    with pytest.raises(IndigoError):
        game.play(Move(bad["tile"], bad["rotation"], bad["q"], bad["r"]))
    assert game == clone
    assert game.snapshot(legal=True) == before
    assert len(game.moves) == at


# Records broken on purpose from a good vector: (name, change, error_at). The changes follow
# FORMATS.md: which field is named, the order of the checks, and that 1.0, true and "1" are not
# integers.
def _set(path: str, value: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        record = copy.deepcopy(record)
        target = record
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        elif value is _DELETE:
            del target[last]
        else:
            target[last] = value
        return record

    return change


_DELETE = object()


def _both(*changes: Any) -> Any:
    def change(record: dict[str, Any]) -> dict[str, Any]:
        for c in changes:
            record = c(record)
        return record

    return change


CRAFTED = [
    ("format-missing", _set("format", _DELETE), "format"),
    ("format-number", _set("format", 1), "format"),
    ("players-float", _set("rules.players", 2.0), "rules.players"),
    ("players-true", _set("rules.players", True), "rules.players"),
    ("players-string", _set("rules.players", "2"), "rules.players"),
    ("players-1", _set("rules.players", 1), "rules.players"),
    ("players-missing", _set("rules.players", _DELETE), "rules.players"),
    ("hand-size-float", _set("rules.hand_size", 1.0), "rules.hand_size"),
    ("hand-size-true", _set("rules.hand_size", True), "rules.hand_size"),
    ("hand-size-string", _set("rules.hand_size", "1"), "rules.hand_size"),
    ("hand-size-0", _set("rules.hand_size", 0), "rules.hand_size"),
    ("tie-break-bad", _set("rules.tie_break", "coin-toss"), "rules.tie_break"),
    ("tie-break-number", _set("rules.tie_break", 1), "rules.tie_break"),
    ("pile-short", lambda r: {**r, "pile": r["pile"][:-1]}, "pile"),
    ("pile-long", lambda r: {**r, "pile": [*r["pile"], 0]}, "pile"),
    ("pile-type-5", lambda r: {**r, "pile": [5, *r["pile"][1:]]}, "pile"),
    ("pile-float", lambda r: {**r, "pile": [float(r["pile"][0]), *r["pile"][1:]]}, "pile"),
    ("pile-string", _set("pile", "0123"), "pile"),
    ("pile-missing", _set("pile", _DELETE), "pile"),
    ("moves-not-list", _set("moves", {"0": 1}), "moves"),
    ("move-0-tile-float", _set("moves.0.tile", 1.0), 0),
    ("move-0-rotation-true", _set("moves.0.rotation", True), 0),
    ("move-0-q-string", _set("moves.0.q", "0"), 0),
    ("move-0-missing-r", lambda r: _drop_key(r, 0, "r"), 0),
    ("move-0-not-object", _set("moves.0", [1, 0, 0, -1]), 0),
    ("move-3-rotation-negative", _set("moves.3.rotation", -1), 3),
    ("move-3-tile-5", _set("moves.3.tile", 5), 3),
    ("move-5-repeats-move-4-cell", lambda r: _repeat_cell(r, 5), 5),
    ("move-7-off-board", _both(_set("moves.7.q", 9), _set("moves.7.r", 0)), 7),
    ("move-2-centre", _both(_set("moves.2.q", 0), _set("moves.2.r", 0)), 2),
    # Order of the checks: format, rules, pile, moves.
    ("format-before-rules", _both(_set("format", "x"), _set("rules.players", 9)), "format"),
    (
        "players-before-hand",
        _both(_set("rules.players", 9), _set("rules.hand_size", 9)),
        "rules.players",
    ),
    ("rules-before-pile", _both(_set("rules.hand_size", 9), _set("pile", [])), "rules.hand_size"),
    ("pile-before-moves", _both(_set("pile", []), _set("moves.0.tile", 9)), "pile"),
    ("first-bad-move-wins", _both(_set("moves.4.tile", 9), _set("moves.2.rotation", 9)), 2),
]


def _drop_key(record: dict[str, Any], i: int, key: str) -> dict[str, Any]:
    record = copy.deepcopy(record)
    del record["moves"][i][key]
    return record


def _repeat_cell(record: dict[str, Any], i: int) -> dict[str, Any]:
    record = copy.deepcopy(record)
    record["moves"][i]["q"] = record["moves"][i - 1]["q"]
    record["moves"][i]["r"] = record["moves"][i - 1]["r"]
    return record


@pytest.mark.parametrize(("case", "change", "error_at"), CRAFTED, ids=[c[0] for c in CRAFTED])
def test_crafted_bad_record(case: str, change: Any, error_at: str | int) -> None:
    record = change(load_vector("game-01.json")["record"])
    check_rejected(record, error_at)
    check_rejected(json.dumps(record), error_at)


def test_crafted_three_player_gates_bad() -> None:
    record = load_vector("game-05.json")["record"]
    assert record["rules"]["players"] == 3
    bad = {**record, "rules": {**record["rules"], "three_player_gates": "private"}}
    check_rejected(bad, "rules.three_player_gates")
    bad = {**record, "rules": {**record["rules"], "three_player_gates": 1}}
    check_rejected(bad, "rules.three_player_gates")


def test_move_after_game_over_from_vector() -> None:
    """Any move after the recorded end is an error at that move's index."""
    record = load_vector("game-02.json")["record"]
    final = Game.from_record(record)
    assert final.over
    n = len(record["moves"])
    # The cells left empty at the end: place a tile there anyway.
    empty = [c for c in indigo.ROUTE_CELLS if final.tile_at(*c) is None]
    assert empty
    leftover = next(t for h in final.hands for t in h) if any(final.hands) else 0
    extra = {"tile": leftover, "rotation": 0, "q": empty[0][0], "r": empty[0][1]}
    check_rejected({**record, "moves": [*record["moves"], extra]}, n)


@pytest.mark.parametrize("text", ["", "not json", "[]", "42", '{"format": "indigo-record/1"'])
def test_unreadable_record_text(text: str) -> None:
    with pytest.raises(RecordError):
        Game.from_record(text)


def test_unreadable_record_bytes() -> None:
    with pytest.raises(RecordError):
        Game.from_record(b"\xff\xfe{")


@pytest.mark.parametrize("name", GAME_NAMES)
def test_reference_engine_replays_vector(name: str) -> None:
    """The pure-Python oracle (indigo.reference) agrees with the public vectors, move by move."""
    vector = load_vector(name)
    record = vector["record"]
    ref = RefGame.from_rules(record["rules"], record["pile"])
    assert_snapshot(ref.snapshot(legal=True), vector["snapshots"][0], f"{name} start")
    for i, move in enumerate(record["moves"]):
        ref.play(move)
        assert_snapshot(ref.snapshot(legal=True), vector["snapshots"][i + 1], f"{name} move {i}")
    assert RefGame.from_record(record).snapshot(legal=True) == ref.snapshot(legal=True)
