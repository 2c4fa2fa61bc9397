"""The search interface from Python: actions and masks, explicit chance, information states,
determinization, returns, the ISMCTS bot, batch simulation and tournaments."""

from __future__ import annotations

import collections
import json
import math
import random
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

import indigo
from conftest import CONFIGS as ALL_CONFIGS
from conftest import make_rules
from indigo import (
    ACTION_COUNT,
    OBSERVATION_LAYOUT,
    OBSERVATION_SIZE,
    Game,
    IllegalMoveError,
    IndigoError,
    IsmctsBot,
    Move,
    MoveError,
    Rules,
    simulate,
)
from indigo._native import normalize_bot_spec
from indigo.bots import Bot, make_bot, play_game, split_bot_specs
from indigo.cli import main
from indigo.distributed import MAX_GAMES, MAX_THREADS, LocalBackend, RunError
from indigo.tournament import (
    MAX_SEATINGS,
    lineups,
    run_tournament,
    seating_count,
    summarise,
    tournament_games,
    wilson_interval,
)

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

CONFIGS = [make_rules(config) for config in ALL_CONFIGS]


def random_games(seed: int = 0, every: int = 5) -> Iterator[Game]:
    """Positions of random games in every configuration (every `every`-th position)."""
    rng = random.Random(seed)
    for k, rules in enumerate(CONFIGS):
        game = Game(rules, seed=seed * 100 + k)
        while not game.over:
            if len(game.moves) % every == 0:
                yield game.clone()
            game.play(rng.choice(game.legal_moves))
        yield game


def test_every_action_round_trips_through_move_and_text() -> None:
    assert ACTION_COUNT == 810
    for action in range(ACTION_COUNT):
        move = Move.from_action(action)
        assert move == move.canonical()
        assert Move.parse(str(move)).action == action
    # Equivalent rotations share one action; the centre has none.
    assert Move.parse("1@4:0,-3").action == Move.parse("1@1:0,-3").action
    assert Move(0, 0, 0, 0).action is None
    for bad in (-1, ACTION_COUNT, 2**70):
        with pytest.raises(MoveError, match="out of range"):
            Move.from_action(bad)


def test_masks_and_action_lists_agree_with_legal_moves() -> None:
    for game in random_games():
        mask = game.legal_action_mask()
        assert mask.dtype == np.bool_
        assert mask.shape == (ACTION_COUNT,)
        actions = game.legal_actions()
        assert actions == [m.action for m in game.legal_moves]
        assert np.flatnonzero(mask).tolist() == actions
        for action in actions[:: max(1, len(actions) // 5)]:
            assert game.is_legal(action)
        if game.over:
            assert not mask.any()


def test_playing_an_action_plays_its_move() -> None:
    a, b = Game(seed=4), Game(seed=4)
    while not a.over:
        action = a.legal_actions()[len(a.legal_actions()) // 2]
        assert a.play(action).move == b.play(Move.from_action(action)).move
    assert a.snapshot() == b.snapshot()
    with pytest.raises(IllegalMoveError):
        a.play(0)


def test_chance_outcomes_follow_the_pile_counts() -> None:
    game = Game(Rules.tactical(3), chance="explicit")
    assert game.explicit_chance
    assert game.is_chance_node()
    assert game.to_move is None
    rng = random.Random(2)
    while not game.over:
        if game.is_chance_node():
            outcomes = game.chance_outcomes()
            assert math.isclose(sum(p for _, p in outcomes), 1.0)
            pile = game.pile[len(game.pile) - game.pile_left :]
            counts = collections.Counter(pile)
            assert outcomes == [(t, counts[t] / game.pile_left) for t in sorted(counts)]
            tiles, weights = zip(*outcomes, strict=True)
            game.apply_action(rng.choices(tiles, weights)[0])
        else:
            assert game.chance_outcomes() == []
            game.play(rng.choice(game.legal_moves))
    assert sum(game.scores) > 0


def test_explicit_and_sampled_chance_give_the_same_game() -> None:
    for rules in CONFIGS:
        sampled = Game(rules, seed=9)
        explicit = Game(rules, chance="explicit")
        draws = iter(sampled.pile)
        rng = random.Random(1)
        while True:
            while explicit.is_chance_node():
                explicit.apply_action(next(draws))
            assert explicit.snapshot(legal=True) == sampled.snapshot(legal=True)
            if sampled.over:
                break
            move = rng.choice(sampled.legal_moves)
            assert explicit.play(move).points == sampled.play(move).points
        assert explicit.to_record()["pile"] == sampled.to_record()["pile"]


def test_chance_errors_change_nothing() -> None:
    game = Game(Rules.indigo(2), chance="explicit")
    before = game.snapshot()
    with pytest.raises(IllegalMoveError, match="must draw a tile first"):
        game.play(Move.parse("0@0:0,-3"))
    with pytest.raises(MoveError, match=r"tile must be a type 0\.\.4"):
        game.apply_action(7)
    assert game.snapshot() == before
    with pytest.raises(IndigoError, match="takes no seed"):
        Game(Rules.indigo(2), seed=1, chance="explicit")
    with pytest.raises(IndigoError, match="'sampled' or 'explicit'"):
        Game(chance="dice")  # type: ignore[arg-type]
    # Off a chance node an action is a placement's action number.
    sampled = Game(seed=1)
    action = sampled.legal_actions()[0]
    assert sampled.apply_action(action) is None
    assert sampled.moves == [Move.from_action(action)]


def test_observation_layout_tiles_the_tensor() -> None:
    spans = sorted((offset, int(np.prod(shape))) for offset, shape in OBSERVATION_LAYOUT.values())
    position = 0
    for offset, size in spans:
        assert offset == position
        position += size
    assert position == OBSERVATION_SIZE


def _segment(obs: np.ndarray, name: str) -> np.ndarray:
    offset, shape = OBSERVATION_LAYOUT[name]
    return obs[offset : offset + int(np.prod(shape))].reshape(shape)


def test_observations_show_what_the_seat_knows() -> None:
    for game in random_games(every=9):
        for seat in range(game.rules.players):
            obs = game.observation(seat)
            assert obs.dtype == np.float32
            assert obs.shape == (OBSERVATION_SIZE,)
            own = _segment(obs, "own_hand")
            assert own.tolist() == [game.hand(seat).count(t) for t in range(5)]
            scores = _segment(obs, "scores")[: game.rules.players]
            players = game.rules.players
            assert scores.tolist() == [game.scores[(seat + k) % players] for k in range(players)]
            assert _segment(obs, "tile_type").sum() == game.moves_played
            assert _segment(obs, "gem_at_edge").sum() == len(game.gems)
            assert _segment(obs, "game_over")[0] == float(game.over)
            # What the seat cannot see does not move its observation.
            other = game.resample(seat, seed=3)
            assert np.array_equal(other.observation(seat), obs)
            assert other.observation_string(seat) == game.observation_string(seat)


def test_resampling_keeps_the_information_state_and_hides_the_truth() -> None:
    for game in random_games(seed=1, every=11):
        for seat in range(game.rules.players):
            copy = game.resample(seat, seed=len(game.moves))
            info = game.information_state_string(seat)
            assert copy.information_state_string(seat) == info
            assert copy.information_state_hash(seat) == game.information_state_hash(seat)
            assert info.startswith(game.public_information_string())
            assert copy.moves == game.moves
            assert copy.hand(seat) == game.hand(seat)


def test_a_hidden_tile_follows_the_unseen_counts_whatever_it_is() -> None:
    """Two games that differ only in seat 1's hidden tile give seat 0 the same samples."""
    box = [t for t, n in enumerate(indigo.TILE_COUNTS) for _ in range(n)]
    a = box.copy()
    b = box.copy()
    b[1], b[53] = b[53], b[1]  # seat 1 is dealt type 4 instead of type 0
    games = [Game(Rules.indigo(2), pile=pile) for pile in (a, b)]
    assert games[0].hand(1) != games[1].hand(1)
    assert games[0].information_state_string(0) == games[1].information_state_string(0)
    samples = 4000
    counts = [
        collections.Counter(g.resample(0, seed=i).hand(1)[0] for i in range(samples)) for g in games
    ]
    assert counts[0] == counts[1], "the samples never read the true tile"
    unseen = collections.Counter(box)
    unseen[box[0]] -= 1  # seat 0's own tile
    total = sum(unseen.values())
    for tile, n in unseen.items():
        expected = samples * n / total
        assert abs(counts[0][tile] - expected) < 5 * math.sqrt(expected)


def test_information_states_are_private_by_default_and_open_as_an_option() -> None:
    closed = Game(Rules.indigo(3), seed=2)
    strings = {closed.information_state_string(s) for s in range(3)}
    assert len(strings) == 3
    opened = Game(Rules(3, 1, open_hands=True), seed=2)
    public = opened.public_information_string()
    for seat in range(3):
        assert f"dealt{seat}={opened.hand(seat)[0]}" in public


def test_returns_and_rewards() -> None:
    game = Game(Rules.indigo(3), seed=5)
    assert game.returns("win") == [0.0, 0.0, 0.0]
    assert game.rewards() == [0, 0, 0]
    rng = random.Random(0)
    while not game.over:
        result = game.play(rng.choice(game.legal_moves))
        assert game.rewards() == result.points
        assert game.returns() == [float(s) for s in game.scores]
    win = game.returns("win")
    assert math.isclose(sum(win), 1.0)
    assert [s for s in range(3) if win[s] > 0] == game.winners
    rank = game.returns("rank")
    assert all(rank[w] == max(rank) for w in game.winners)
    with pytest.raises(IndigoError, match="utility must be"):
        game.returns("elo")  # type: ignore[arg-type]


def test_bots_play_only_legal_moves_in_every_configuration() -> None:
    bots: list[Bot] = [IsmctsBot(40, seed=1), make_bot("greedy", seed=2), make_bot("random")]
    for rules in CONFIGS:
        game = Game(rules, seed=3)
        while not game.over:
            seat = game.to_move
            assert seat is not None
            move = bots[seat % 3].choose(game)
            assert game.is_legal(move)
            game.play(move)


def test_ismcts_is_deterministic_with_a_seed() -> None:
    game = Game(Rules.tactical(2), seed=8)
    for threads in (1, 2):
        first = IsmctsBot(300, seed=5, threads=threads).search(game)
        again = IsmctsBot(300, seed=5, threads=threads).search(game)
        assert (first.best, first.visits, first.value) == (again.best, again.visits, again.value)
        assert first.simulations == sum(first.visits.values()) == 300
        assert set(first.visits) <= set(game.legal_actions())
        policy = first.policy()
        assert policy.shape == (ACTION_COUNT,)
        assert math.isclose(policy.sum(), 1.0, rel_tol=1e-5)
        assert policy.argmax() == max(first.visits, key=lambda a: first.visits[a])
    timed = IsmctsBot(time=0.02, seed=1).search(game)
    assert timed.simulations > 0
    assert game.is_legal(timed.best)


MAX_SIMULATIONS = 10**12
MIN_TIME, MAX_TIME = 1e-6, 1e6
MAX_EXPLORATION = 100.0
MAX_SEARCH_THREADS = 1024

# Settings at the edges of the core's bounds, as constructor arguments and as spec text.
ACCEPTED_SETTINGS: list[tuple[dict[str, Any], str]] = [
    ({"simulations": 1}, "ismcts:1"),
    ({"simulations": MAX_SIMULATIONS}, f"ismcts:{MAX_SIMULATIONS}"),
    ({"simulations": np.int64(7)}, "ismcts:7"),
    ({"time": MIN_TIME}, f"ismcts:time={MIN_TIME}"),
    ({"time": MAX_TIME}, f"ismcts:time={MAX_TIME}"),
    ({"time": 0.123456789}, "ismcts:time=0.123456789"),
    ({"time": 3}, "ismcts:time=3"),
    ({"exploration": 1e-45}, "ismcts:c=1e-45"),
    ({"exploration": MAX_EXPLORATION}, f"ismcts:c={MAX_EXPLORATION}"),
    ({"exploration": 0.1}, "ismcts:c=0.1"),
    ({"threads": MAX_SEARCH_THREADS}, f"ismcts:threads={MAX_SEARCH_THREADS}"),
    ({"threads": np.uint8(2)}, "ismcts:threads=2"),
]
REFUSED_SETTINGS: list[tuple[dict[str, Any], str, str]] = [
    ({"simulations": 0}, "ismcts:0", "simulations"),
    ({"simulations": MAX_SIMULATIONS + 1}, f"ismcts:{MAX_SIMULATIONS + 1}", "simulations"),
    ({"simulations": -1}, "ismcts:-1", "simulations"),
    ({"simulations": 2**64}, "ismcts:1e30", "simulations"),
    ({"simulations": 10**5000}, "ismcts:" + "9" * 400, "simulations"),
    ({"time": 0}, "ismcts:time=0", "time"),
    ({"time": 1e-7}, "ismcts:time=1e-7", "time"),
    ({"time": MAX_TIME * 1.000001}, f"ismcts:time={MAX_TIME * 1.000001}", "time"),
    ({"time": 1e19}, "ismcts:time=1e19", "time"),
    ({"time": math.inf}, "ismcts:time=inf", "time"),
    ({"time": math.nan}, "ismcts:time=nan", "time"),
    ({"time": -1.0}, "ismcts:time=-1", "time"),
    ({"time": 10**400}, "ismcts:time=" + "9" * 400, "time"),
    ({"exploration": 0}, "ismcts:c=0", "not 0"),
    ({"exploration": 1e-50}, "ismcts:c=1e-50", "not 0"),
    ({"exploration": 1e39}, "ismcts:c=1e39", "not inf"),
    ({"exploration": -0.1}, "ismcts:c=-0.1", "exploration"),
    ({"exploration": math.nan}, "ismcts:c=nan", "exploration"),
    ({"exploration": 100.001}, "ismcts:c=100.001", "exploration"),
    ({"threads": 0}, "ismcts:threads=0", "threads"),
    ({"threads": MAX_SEARCH_THREADS + 1}, f"ismcts:threads={MAX_SEARCH_THREADS + 1}", "threads"),
    ({"threads": -1}, "ismcts:threads=-1", "threads"),
    ({"threads": 2**64}, "ismcts:threads=1.5", "threads"),
]


@pytest.mark.parametrize(
    ("kwargs", "spec"), ACCEPTED_SETTINGS, ids=[s for _, s in ACCEPTED_SETTINGS]
)
def test_bot_settings_at_their_bounds_round_trip(kwargs: dict[str, Any], spec: str) -> None:
    """One set of bounds for the constructor and specs; every normalised spec reads back."""
    built = IsmctsBot(**kwargs, seed=1)
    parsed = make_bot(spec, seed=1)
    assert isinstance(parsed, IsmctsBot)
    assert built.spec == parsed.spec == normalize_bot_spec(spec)
    again = make_bot(built.spec)
    assert isinstance(again, IsmctsBot)
    assert again.spec == built.spec


@pytest.mark.parametrize(
    ("kwargs", "spec", "message"), REFUSED_SETTINGS, ids=[s for _, s, _ in REFUSED_SETTINGS]
)
def test_bot_settings_beyond_their_bounds_are_refused(
    kwargs: dict[str, Any], spec: str, message: str
) -> None:
    with pytest.raises(IndigoError, match=message):
        IsmctsBot(**kwargs)
    with pytest.raises(IndigoError, match=message):
        make_bot(spec)
    with pytest.raises(IndigoError, match=message):
        simulate([spec], 1)


def test_simulations_and_time_together_stop_at_whichever_comes_first() -> None:
    """``ismcts:N,time=S`` keeps both limits (it read as ``ismcts:time=S``): the time stops a
    search of 10^12 simulations early, and simulations stop one with an hour to spare."""
    assert normalize_bot_spec("ismcts:200000,time=5") == "ismcts:200000,time=5"
    assert normalize_bot_spec("ismcts:time=5,200000") == "ismcts:200000,time=5"
    assert IsmctsBot(200000, time=5.0).spec == make_bot("ismcts:200000,time=5").spec
    game = Game(Rules.indigo(2), seed=1)
    timed = IsmctsBot(10**12, time=0.05, seed=1).search(game)
    assert 0 < timed.simulations < 10**12
    counted = IsmctsBot(300, time=3600.0, seed=1).search(game)
    assert counted.simulations == 300
    with pytest.raises(IndigoError, match="time must be"):
        IsmctsBot(10, time=0.0)


def test_ismcts_rejects_bad_settings() -> None:
    finished = Game(seed=1)
    while not finished.over:
        finished.play(finished.legal_moves[0])
    with pytest.raises(IllegalMoveError, match="nothing to search"):
        IsmctsBot(10).choose(finished)


def test_bot_specs() -> None:
    assert IsmctsBot(500, exploration=0.5, threads=2).spec == "ismcts:500,c=0.5,threads=2"
    assert make_bot("ismcts", seed=1).spec == "ismcts:1000"  # type: ignore[attr-defined]
    assert isinstance(make_bot("ismcts:time=0.1"), IsmctsBot)
    assert isinstance(make_bot("GREEDY"), Bot)
    for bad in ("chess", "random:3", "ismcts:-4", "ismcts:1.5", "ismcts:foo=1", ""):
        with pytest.raises(IndigoError, match="bad bot"):
            make_bot(bad)
    assert split_bot_specs("ismcts:1000,c=0.5,threads=2,greedy, random") == [
        "ismcts:1000,c=0.5,threads=2",
        "greedy",
        "random",
    ]
    # A setting's value may hold a colon (a Windows path); a new bot's name may not hold `=`.
    assert split_bot_specs(r"net,file=C:\nets\w.safetensors,time=0.1,ismcts:c=0.5") == [
        r"net,file=C:\nets\w.safetensors,time=0.1",
        "ismcts:c=0.5",
    ]


def test_ismcts_releases_the_gil() -> None:
    """A search in another thread lets this thread run Python meanwhile."""
    game = Game(seed=2)
    bot = IsmctsBot(time=0.3, seed=1)
    done = threading.Event()
    ticks = 0

    def search() -> None:
        bot.choose(game)
        done.set()

    worker = threading.Thread(target=search)
    worker.start()
    while not done.is_set():
        ticks += 1
    worker.join()
    assert ticks > 1000


def test_simulate_returns_numpy_results_that_replay() -> None:
    rules = Rules.indigo(2)
    result = simulate(["greedy", "random"], 12, rules=rules, seed=4, lineups=[[0, 1], [1, 0]])
    assert len(result) == 12
    assert result.bots == ["greedy", "random"]
    assert result.scores.shape == result.winners.shape == result.seats.shape == (12, 2)
    assert result.scores.dtype == np.int32
    assert result.winners.dtype == np.bool_
    assert result.seats[:, 0].tolist() == [0, 1] * 6
    assert result.winners.any(axis=1).all(), "every game has a winner"
    # Each game's seed deals the same pile as Game(rules, seed=...), and greedy wins more.
    for i, seed in enumerate(result.game_seeds.tolist()[:3]):
        game = Game(rules, seed=seed)
        assert result.placements[i] <= 54
        assert game.pile_left == 52
    greedy_wins = (result.winners & (result.seats == 0)).any(axis=1).sum()
    assert greedy_wins >= 9


def test_simulate_does_not_depend_on_threads_or_splitting() -> None:
    kwargs = {"rules": Rules.tactical(3), "seed": 7, "lineups": lineups(3, 3)}
    bots = ["random", "greedy", "ismcts:20"]
    whole = simulate(bots, 18, threads=1, **kwargs)  # type: ignore[arg-type]
    first = simulate(bots, 7, threads=2, **kwargs)  # type: ignore[arg-type]
    rest = simulate(bots, 11, start=7, threads=2, **kwargs)  # type: ignore[arg-type]
    assert rest.start == 7
    for name in ("scores", "winners", "placements", "seats", "game_seeds"):
        joined = np.concatenate([getattr(first, name), getattr(rest, name)])
        assert np.array_equal(getattr(whole, name), joined), name


def test_simulate_reports_progress_and_stops_on_errors() -> None:
    calls: list[tuple[int, int]] = []
    simulate(["random"], 30, progress=lambda done, total: calls.append((done, total)))
    assert calls[-1] == (30, 30)
    assert all(total == 30 and 0 <= done <= 30 for done, total in calls)

    def explode(done: int, total: int) -> None:
        raise RuntimeError("stop")

    with pytest.raises(RuntimeError, match="stop"):
        simulate(["ismcts:2000"], 1000, progress=explode, interval=0.01)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"bots": ["random", "greedy", "random"]}, "one bot per seat"),
        ({"bots": []}, "at least one bot"),
        ({"bots": ["chess"]}, "bad bot"),
        ({"bots": ["random"], "lineups": [[0]]}, "one bot index per seat"),
        ({"bots": ["random"], "lineups": [[0, 1]]}, "not 0..0"),
        ({"bots": ["random"], "lineups": []}, "must not be empty"),
        ({"bots": ["random"], "games": -1}, "games must be"),
        ({"bots": ["random"], "threads": -2}, "threads must be"),
        ({"bots": ["random"], "interval": 0.0}, "interval must be"),
    ],
)
def test_simulate_rejects_bad_input(kwargs: dict[str, object], message: str) -> None:
    kwargs = {"games": 2, **kwargs}
    with pytest.raises(IndigoError, match=message):
        simulate(**kwargs)  # type: ignore[arg-type]


def test_lineups_rotate_every_bot_through_every_seat() -> None:
    for bots, players in ((3, 2), (2, 2), (2, 4), (3, 4), (4, 3), (1, 3)):
        seatings = lineups(bots, players)
        per_seat = [collections.Counter(s[seat] for s in seatings) for seat in range(players)]
        for counter in per_seat:
            assert sorted(counter) == list(range(bots))
            assert len(set(counter.values())) == 1, (bots, players, seatings)


def test_seating_count_is_the_lineups_length_up_to_the_cap() -> None:
    for bots, players in ((3, 2), (2, 4), (4, 3), (1, 3), (12, 4), (316, 2)):
        assert seating_count(bots, players) == len(lineups(bots, players))
    assert seating_count(316, 2) <= MAX_SEATINGS < 317 * 316
    for bots, players in ((317, 2), (60, 4), (10**6, 10**6)):
        with pytest.raises(RunError, match=f"cap is {MAX_SEATINGS:,}"):
            lineups(bots, players)
    assert tournament_games(7, 3, 2) == 12
    assert tournament_games(MAX_GAMES, 1, 2) == MAX_GAMES
    with pytest.raises(RunError, match=r"rounded up to 4,294,967,298"):
        tournament_games(MAX_GAMES - 1, 3, 2)


def test_run_bounds_are_the_batch_apis() -> None:
    """MAX_GAMES and MAX_THREADS are what simulate and self_play accept."""
    simulate(["random"], 0, threads=MAX_THREADS)
    LocalBackend(MAX_THREADS)
    for call in (
        lambda: simulate(["random"], 0, threads=MAX_THREADS + 1),
        lambda: simulate(["random"], MAX_GAMES + 1),
        lambda: LocalBackend(MAX_THREADS + 1),
        lambda: indigo.self_play(["random"], MAX_GAMES + 1),
    ):
        with pytest.raises(IndigoError):
            call()


def test_wilson_interval() -> None:
    low, high = wilson_interval(8, 10)
    assert math.isclose(low, 0.4902, abs_tol=1e-4)
    assert math.isclose(high, 0.9433, abs_tol=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 5)[1] == 1.0


def test_tournament_statistics_match_the_games() -> None:
    bots = ["greedy", "random", "ismcts:30"]
    result = run_tournament(bots, players=2, games=10, seed=3)
    assert result.games == 12, "rounded up to two rounds of the 6 seatings"
    sim = simulate(bots, 12, rules=Rules.indigo(2), seed=3, lineups=lineups(3, 2))
    assert summarise(sim, bots) == result
    for b, r in enumerate(result.results):
        in_game = sim.seats == b
        assert r.games == 8
        assert r.bot == bots[b]
        assert r.wins == int((in_game & sim.winners).any(axis=1).sum())
        assert r.win_rate == r.wins / 8
        assert r.ci95 == wilson_interval(r.wins, 8)
        assert math.isclose(r.mean_points, sim.scores[in_game].mean())
        for seat in range(2):
            mask = sim.seats[:, seat] == b
            assert r.mean_points_by_seat[seat] == pytest.approx(sim.scores[mask, seat].mean())


def test_tournament_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--bots", "greedy,random", "--games", "6", "--seed", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 6
    assert out["players"] == 2
    assert [r["bot"] for r in out["results"]] == ["greedy", "random"]
    for r in out["results"]:
        assert set(r) == {
            "bot",
            "games",
            "wins",
            "win_rate",
            "ci95",
            "mean_points",
            "mean_points_by_seat",
        }
        assert r["win_rate"] == r["wins"] / out["games"]
        assert len(r["mean_points_by_seat"]) == 2
    assert main(["tournament", "--bots", "greedy,chess"]) == 2
    assert "bad bot" in capsys.readouterr().err


def test_tournament_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["tournament", "--bots", "greedy,random", "--games", "4", "--players", "3"]) == 0
    out = capsys.readouterr().out
    assert "greedy" in out
    assert "random" in out
    assert "seat 2" in out
    assert "a shared win counts as a win for each winner" in out


class FirstLegal:
    """A bot of the user's own: the first legal move; it records what it was shown."""

    def __init__(self) -> None:
        self.piles: list[list[int]] = []

    def choose(self, game: Game) -> Move:
        self.piles.append(game.pile)
        return game.legal_moves[0]


def test_own_bots_play_next_to_the_native_ones() -> None:
    mine = FirstLegal()
    assert isinstance(mine, Bot)
    game = play_game([mine, make_bot("ismcts:50", seed=1)], seed=12)
    assert game.over
    assert len(mine.piles) == len(game.moves[::2])
    true_pile = game.pile
    # Fair play hands each bot a resample: its pile beyond the drawn tiles is not the truth.
    assert any(p[10:] != true_pile[10:] for p in mine.piles)
    assert (
        play_game([FirstLegal(), FirstLegal()], seed=3).snapshot()
        == play_game([FirstLegal(), FirstLegal()], seed=3, fair=False).snapshot()
    ), "resampling changes what a bot sees, not the game"


def test_play_game_rejects_illegal_choices() -> None:
    class Cheat:
        def choose(self, game: Game) -> Move:
            return Move.parse("0@0:0,0")

    with pytest.raises(IllegalMoveError, match="seat 0's bot chose 0@0:0,0"):
        play_game([Cheat(), FirstLegal()], seed=1)
    with pytest.raises(IndigoError, match="one bot per seat"):
        play_game([FirstLegal()], rules=Rules.indigo(2))
