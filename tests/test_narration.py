"""Every move in words, for every game of the registry: the narration of whole seeded games
(2 and 4 players, both Indigo themes) and the web log built from it read as sentences, never as
move notation; Queen's Garden's words agree with what the engine did."""

from __future__ import annotations

import re
from typing import Any

import pytest

from indigo import queens_garden as qg
from indigo.games import GAMES, QUEENS_GARDEN, GameEntry
from indigo.queens_garden.narration import discard_words, hexagon_words, move_lines, move_marks
from indigo.queens_garden.svg import game_at
from web_server import keyed_client

VERBS = ("placed", "took", "passed", "bought", "laid", "ran", "left", "waits", "met", "stopped")
"""A move's line says what someone or something did: at least one of these."""
TALLIES = ("scored", "final scoring", "no gem moved")
"""A line under a move may instead tell the scoring it ended with, or that no gem moved."""
THEMES = ("indigo", "butterfly-garden")


def _whole_game(entry: GameEntry[Any, Any, Any], players: int, theme: str, seed: int) -> Any:
    game = entry.game(entry.table_rules(players, theme, None, "shared"), seed=seed)
    bots = [entry.make_bot(spec, seed=seed + i) for i, spec in enumerate(["greedy", "random"])]
    while not game.over:
        game.play(bots[game.to_move % 2].choose(game))
    return game


def _notation(game: Any) -> set[str]:
    """Every token of the game's moves in notation but plain numbers (a number is a word)."""
    return {token for move in game.moves for token in str(move).split() if not token.isdigit()}


def _assert_words(log: list[list[str]], game: Any) -> None:
    """One entry per move, ``Move N: P<seat> ...``, each line a sentence with a verb (or a
    tally), and not one token of the game's notation in any line."""
    codes = _notation(game)
    assert len(log) == len(game.moves) > 0
    for number, (lines, move) in enumerate(zip(log, game.moves, strict=True), 1):
        assert re.match(rf"Move {number}: P[0-3] [a-z]", lines[0]), lines[0]
        assert any(verb in lines[0].split() for verb in VERBS), lines[0]
        for line in lines:
            assert any(word in line.split() for word in VERBS) or any(
                tally in line for tally in TALLIES
            ), line
            words = set(re.split(r"[\s,;:()]+", line))
            assert not words & codes, (line, words & codes)
            if not str(move).isalpha():  # "pass" is in "passed"; any longer move is not
                assert str(move) not in line


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_every_move_of_a_whole_game_reads_as_words(
    entry: GameEntry[Any, Any, Any], players: int, theme: str
) -> None:
    game = _whole_game(entry, players, theme, seed=20 + players)
    log = entry.move_log(game)
    _assert_words(log, game)
    if theme == "butterfly-garden" and entry.game is not qg.Game:
        told = " ".join(line for lines in log for line in lines)
        assert "butterfly" in told
        assert "amber" not in told
        assert "gateway" not in told


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_the_web_log_is_the_narration(entry: GameEntry[Any, Any, Any]) -> None:
    """A whole game of bots through the web app: its log and its results' words are the
    narration's, and read as words."""
    client = keyed_client()
    body = {"game": entry.name, "seats": ["greedy", "random", "greedy"], "seed": 3}
    state = client.post("/api/games", json=body).json()
    texts: list[list[str]] = []
    while not state["over"]:
        answer = client.post(f"/api/games/{state['id']}/advance", json={"max": 54}).json()
        texts += [result["text"] for result in answer["results"]]
        state = answer["state"]
    store = client.app.state.store  # type: ignore[attr-defined]
    game = store.peek(state["id"]).game
    assert state["log"] == texts == entry.move_log(game)
    assert len(state["log_marks"]) == len(texts)
    assert [m["seat"] for m in state["log_marks"]] == [
        int(lines[0].split()[2][1:]) for lines in texts
    ]
    _assert_words(state["log"], game)


@pytest.mark.parametrize("players", [2, 4])
def test_queens_garden_words_agree_with_the_engine(players: int) -> None:
    """What the words say was taken is what came into storage; a placement names its kind and
    payment, and the jokers it won are the ones storage gained; a pass names its discards."""
    game = _whole_game(QUEENS_GARDEN, players, "indigo", seed=31)
    replay = game_at(game, 0)
    seen = set()
    for number, move in enumerate(game.moves, 1):
        before = replay.clone()
        seat = before.to_move
        replay.play(move)
        head = move_lines(number, before, move, replay)[0]
        marks = move_marks(before, move)
        assert marks["seat"] == seat
        tokens = str(move).split()
        seen.add(move.verb)
        if move.verb == "take":
            gained = list(replay.storages[seat]["tiles"])
            for kind in before.storages[seat]["tiles"]:
                gained.remove(kind)
            expansions = list(replay.storages[seat]["expansions"])
            for kind in before.storages[seat]["expansions"]:
                expansions.remove(kind)
            for kind in gained:
                assert re.search(rf"(?<!the ){hexagon_words(kind)}\b", head), (head, kind)
            for kind in expansions:
                assert f"the {hexagon_words(kind)} expansion" in head, (head, kind)
            assert head.count(" from slot ") == len(marks["slots"]) > 0
        elif move.verb in ("tile", "exp"):
            assert hexagon_words(tokens[1]) in head
            for token in tokens[3:]:
                if token != "*":
                    assert discard_words(token) in head
            won = replay.storages[seat]["jokers"] - (
                before.storages[seat]["jokers"] - tokens.count("*")
            )
            assert (f"won {won} joker" in head) == (won > 0), head
            assert len(marks["cells"]) == (1 if move.verb == "tile" else 7)
        elif move.verb == "pass":
            assert head.split()[3] == "passed"
            assert ("passed first" in head) == (not any(before.passed))
    assert {"take", "tile", "pass"} <= seen


def test_the_first_pass_a_discard_and_the_scoring_in_words() -> None:
    game = qg.Game(qg.Rules(2), seed=7)
    game.play(next(move for move in game.legal_moves if move.verb == "take"))
    before = game.clone()
    game.play("pass")
    assert move_lines(2, before, "pass", game) == [
        "Move 2: P1 passed first (so loses a point and starts the next round)  (P1 -1)"
    ]
    kind = game.storages[0]["tiles"][0]
    before = game.clone()
    game.play(f"pass {kind}")  # the last to pass: round 1 is scored
    lines = move_lines(3, before, f"pass {kind}", game)
    assert lines[0].startswith(f"Move 3: P0 passed, discarding a {hexagon_words(kind)}")
    points = ", ".join(f"P{seat} +{p}" for seat, p in enumerate(game.round_points[0]))
    assert lines[1:] == [f"  round 1 scored (blue, dark green, tree): {points}"]
    while not game.over:
        game.play("pass")
    last = game_at(game, game.moves_played - 1)
    told = move_lines(game.moves_played, last, "pass", game)
    final = game.final_scoring
    assert final is not None
    assert told[-2:] == [
        f"  final scoring of P{seat}: storage {part['storage']:+d}, groups +{part['groups']}, "
        f"bonus +{part['bonus']}"
        for seat, part in enumerate(final)
    ]
    assert told[-3].startswith("  round 4 scored (dark purple, plant, lily): P0 +")


def test_the_terminal_says_the_words_and_the_notation_it_reads() -> None:
    from indigo.queens_garden.play import told

    game = qg.Game(qg.Rules(2), seed=7)
    before = game.clone()
    move = next(move for move in game.legal_moves if move.verb == "take")
    game.play(move)
    assert told(before, move, game) == [f"{move_lines(1, before, move, game)[0]} [{move}]"]


def test_indigo_places_are_named_as_the_board_shows_them() -> None:
    import indigo
    from indigo.narration import place_name

    rules, garden = indigo.Rules.indigo(2), indigo.Rules.butterfly_garden(2)
    assert place_name(0, 0, rules) == "the centre"
    assert place_name(0, -4, rules) == "the N corner"
    assert place_name(-4, 0, rules) == "the NW corner"
    assert place_name(1, -4, rules) == "the edge by gateway 0 (N end)"
    assert place_name(2, -4, rules) == "the edge by gateway 0 (middle)"
    assert place_name(-1, -3, garden) == "the edge by flowerbed 5 (N end)"
    assert place_name(0, -1, rules) == "beside the centre (N)"
    assert place_name(1, -2, rules) == "the inner ring (N-NE)"
    assert place_name(-3, 0, rules) == "the outer ring (NW)"
    assert place_name(1, -3, rules) == "the outer ring (N-NE, nearer N)"
    assert place_name(2, -3, rules) == "the outer ring (N-NE, nearer NE)"
    names = {place_name(q, r, rules) for q, r in indigo.ROUTE_CELLS}
    assert len(names) == len(indigo.ROUTE_CELLS)  # one name per cell
