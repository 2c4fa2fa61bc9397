"""The ``indigo`` command line.

``indigo replay RECORD.json [--snapshots] [--legal]``
    Check an ``indigo-record/1`` or a ``queens-garden-record/1`` (told apart by its ``format``)
    and print the final position (or every position with ``--snapshots``) as
    ``indigo-snapshot/1`` or ``queens-garden-snapshot/1`` JSON, one object per line.
``indigo demo [--game G] [--players N] [--seed S] [--theme T] [--hand-size H] [--bot B] ...``
    Watch a whole game of Indigo or Azul: Queen's Garden between bots in the terminal.
``indigo tournament --bots ismcts:1000,greedy,random [--players N] [--games G] [--json]``
    Play bots against each other in every seat and report win rates, on this machine or on a
    Ray cluster (``--backend ray [--address A]``).
``indigo selfplay --bots ismcts:800 --games G --out DIR [--backend ray] [--json]``
    Play self-play games into records and Parquet training samples; rerun to resume.
``indigo bench [--json] [--quick]``
    Time a fixed, seeded workload at every layer; print the figures and a checksum.

Errors in the input (a bad record, an unreadable file, invalid JSON, a value out of range, a
place that cannot be written) print one line ``indigo: error: ...`` on standard error and exit
with status 2, as do bad arguments (``indigo COMMAND: error: ...``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import random
import socket
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from indigo import (
    CENTRE,
    CORNERS,
    GEM_POINTS,
    Game,
    GemPath,
    IndigoError,
    Move,
    MoveResult,
    RecordError,
    Rules,
    __version__,
)
from indigo import queens_garden as qg
from indigo._extras import install_hint
from indigo._native import normalize_bot_spec
from indigo.bots import Bot, make_bot, split_bot_specs
from indigo.distributed import LocalBackend, RayBackend, make_backend
from indigo.records import read_record as read_record_stream
from indigo.render.queens_garden import final_text, position_text
from indigo.render.terminal import (
    EDGE_NAMES,
    GEMS,
    board_text,
    gem_label,
    legend_text,
    seat_label,
    status_text,
)
from indigo.tournament import print_table, progress_bar, run_with_progress, tournament_games
from indigo.web.limits import add_limit_options, limits_from_args

__all__ = ["build_parser", "demo_bots", "demo_rules", "main", "move_text"]

PROG = "indigo"
SEED_LIMIT = 2**63
"""Seeds are 0 <= seed < SEED_LIMIT, so that every bot seed (seed + seat) fits in 64 bits."""
MAX_DELAY = 3600.0
"""The longest pause ``indigo demo --delay`` takes, in seconds."""


class CliError(Exception):
    """A user error: reported as one line on stderr, exit status 2."""


# ---------------------------------------------------------------------------------------------
# Argument parsing


class _Parser(argparse.ArgumentParser):
    """argparse with each error on one line, ``indigo COMMAND: error: ...``, status 2 (the
    subcommands' parsers are of this class too)."""

    def error(self, message: str) -> NoReturn:
        text = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {text} (see {self.prog} --help)\n")


def _seed(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if not 0 <= value < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"must be 0 .. 2**63-1, not {value}")
    return value


def _delay(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or not 0 <= value <= MAX_DELAY:
        raise argparse.ArgumentTypeError(f"must be 0 to {MAX_DELAY:g} seconds, not {text}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, not {value}")
    return value


def _port(text: str) -> int:
    value = _count(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"must be 0 to 65535, not {value}")
    return value


def _output_file(text: str) -> str:
    """A file to write in a folder that exists (checked before any work, so that a game is not
    played for nothing); whether it may be written shows only when it is."""
    if not text:
        raise argparse.ArgumentTypeError("empty: name a file")
    path = Path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: it is a folder")
    if not path.parent.is_dir():
        raise argparse.ArgumentTypeError(f"cannot write {text}: {path.parent} is not a folder")
    return text


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``indigo`` command."""
    parser = _Parser(
        prog=PROG,
        description="Indigo (and Butterfly Garden) and Azul: Queen's Garden: replay game "
        "records, watch bots play.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    replay = sub.add_parser(
        "replay",
        help="check a game record and print its positions as JSON",
        description="Check an indigo-record/1 or a queens-garden-record/1 (recognised by its "
        "format field) and print the final snapshot (indigo-snapshot/1 or "
        "queens-garden-snapshot/1) as one JSON line (keys sorted), or with --snapshots every "
        "position: the initial one, then one after each move. A bad record exits with status 2 "
        "and one line on stderr naming the offending field or move.",
    )
    replay.add_argument("record", metavar="RECORD.json", help="the record file, or - for stdin")
    replay.add_argument(
        "--snapshots", action="store_true", help="print every position, one per line"
    )
    replay.add_argument(
        "--legal", action="store_true", help="include the legal moves of the seat to move"
    )

    demo = sub.add_parser(
        "demo",
        help="watch a game between bots",
        description="Play a whole game between bots and show it: each move, what the gems "
        "did, the board, and the result. Seat i's bot is seeded with SEED + i and the pile "
        "with SEED, so a seed replays the same game. With --game queens-garden: Azul: Queen's "
        "Garden between two simple random bots (one seeded rng for all seats), set up from "
        "SEED; it uses the default scoring wheel, which is a PLACEHOLDER, not the printed wheel, "
        "and the unverified default jokers (fountain 1, statue 2, bench 2, pavilion 3). The "
        "Indigo options (--theme, --hand-size, --gates, --bot, --board-every) do not apply.",
    )
    demo.add_argument(
        "--game",
        choices=("indigo", "queens-garden"),
        default="indigo",
        help="indigo, or queens-garden (its scoring wheel is a placeholder, not the printed "
        "wheel) (default: indigo)",
    )
    demo.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    demo.add_argument(
        "--seed", type=_seed, default=None, help="seed of the pile and the bots (default: random)"
    )
    demo.add_argument("--theme", choices=("indigo", "butterfly-garden"), default="indigo")
    demo.add_argument(
        "--hand-size",
        type=int,
        choices=(1, 2),
        default=None,
        help="tiles in hand (default: 1 for Indigo, 2 for Butterfly Garden)",
    )
    demo.add_argument(
        "--gates",
        choices=("shared", "exclusive"),
        default="shared",
        help="three players: shared gates (standard) or one gate each (variant)",
    )
    demo.add_argument(
        "--bot",
        type=_bot_spec,
        default="greedy",
        help="every seat's bot: random, greedy, ismcts, ismcts:N, ismcts:time=SECONDS "
        "(default: greedy)",
    )
    demo.add_argument(
        "--delay", type=_delay, default=0.0, metavar="SECONDS", help="pause after each move"
    )
    demo.add_argument(
        "--board-every",
        type=_count,
        default=1,
        metavar="N",
        help="draw the board after every N moves (0: only at the start and the end)",
    )
    demo.add_argument(
        "--no-colour",
        "--no-color",
        dest="no_colour",
        action="store_true",
        help="plain text (also when stdout is not a terminal or NO_COLOR is set)",
    )
    _add_tournament(sub)
    _add_selfplay(sub)
    _add_bench(sub)
    _add_see_and_play(sub)
    return parser


def _bot_spec(text: str) -> str:
    try:
        return normalize_bot_spec(text)
    except IndigoError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _bot_specs(text: str) -> list[str]:
    return [_bot_spec(spec) for spec in split_bot_specs(text)]


def _positive(text: str) -> int:
    value = _count(text)
    if value == 0:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def _add_tournament(sub: Any) -> None:
    tournament = sub.add_parser(
        "tournament",
        help="play bots against each other and compare them",
        description="Play bots against each other inside Rust on every core. Seats rotate so "
        "that every bot plays every seat equally often (the game count is rounded up to whole "
        "rotations), and game i depends only on the seed and i. Reports each bot's win rate "
        "with a Wilson 95 %% confidence interval, its mean points and its mean points by seat. "
        "A shared win counts as a win for each winner.",
    )
    _add_bots(tournament, "ismcts:1000,greedy,random")
    tournament.add_argument("--games", type=_positive, default=100, help="(default: 100)")
    _add_rules(tournament)
    _add_backend(
        tournament,
        "games per task (default: all games locally; on Ray a quarter of the games per worker)",
    )
    tournament.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object instead: {"games", "players", "results": [{"bot", "wins", '
        '"win_rate", "ci95", "mean_points", "mean_points_by_seat", "games"}]}',
    )


def _add_bots(command: Any, example: str) -> None:
    command.add_argument(
        "--bots",
        type=_bot_specs,
        required=True,
        metavar="SPECS",
        help=f"comma-separated bots, e.g. {example} "
        "(ismcts settings may follow: ismcts:500,c=0.5,threads=2)",
    )


def _add_rules(command: Any) -> None:
    command.add_argument(
        "--game",
        choices=("indigo", "queens-garden"),
        default="indigo",
        help="the game; for queens-garden the Indigo options --hand-size and --gates do not "
        "apply (default: indigo)",
    )
    command.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    command.add_argument("--hand-size", type=int, choices=(1, 2), default=1)
    command.add_argument("--gates", choices=("shared", "exclusive"), default="shared")
    command.add_argument("--seed", type=_seed, default=0, help="(default: 0)")


def _add_backend(command: Any, batch_help: str | None) -> None:
    command.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="where games run: every core of this machine, or tasks on a Ray cluster "
        "(needs the 'ray' extra) (default: local)",
    )
    command.add_argument(
        "--address",
        help="the Ray cluster to join, e.g. 127.0.0.1:6379 or auto (default: RAY_ADDRESS, "
        "else a Ray started on this machine)",
    )
    command.add_argument(
        "--workers",
        type=_positive,
        help="Ray tasks at once, one CPU each (default: the cluster's CPUs)",
    )
    command.add_argument(
        "--threads",
        type=_count,
        default=0,
        help="local worker threads (default: 0, every core)",
    )
    if batch_help is not None:
        command.add_argument("--batch-size", type=_positive, metavar="GAMES", help=batch_help)


@contextlib.contextmanager
def _backend(args: argparse.Namespace) -> Iterator[LocalBackend | RayBackend]:
    """The backend the arguments name, connected while in use; a missing Ray says how to
    install it."""
    try:
        backend = make_backend(
            args.backend, address=args.address, workers=args.workers, threads=args.threads
        )
    except (ImportError, ValueError) as exc:
        raise CliError(str(exc)) from None
    with backend if isinstance(backend, RayBackend) else contextlib.nullcontext():
        yield backend


def batch_rules(args: argparse.Namespace) -> Rules | qg.Rules:
    """The rules that ``--game``, ``--players``, ``--hand-size`` and ``--gates`` name."""
    if args.game == "queens-garden":
        return qg.Rules(args.players)
    return demo_rules(args.players, "indigo", args.hand_size, args.gates)


def tournament(args: argparse.Namespace) -> int:
    """``indigo tournament``: the results table, or one JSON object with ``--json``."""
    rules = batch_rules(args)
    try:
        # Before connecting to anything: a lineup too large to play, or too many games.
        tournament_games(args.games, len(args.bots), args.players)
        with _backend(args) as backend:
            result = run_with_progress(
                args.bots,
                players=args.players,
                games=args.games,
                rules=rules,
                seed=args.seed,
                backend=backend,
                span=args.batch_size,
            )
    except IndigoError as exc:
        raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        print_table(result)
    return 0


def _add_selfplay(sub: Any) -> None:
    selfplay = sub.add_parser(
        "selfplay",
        help="play self-play games into records and Parquet training samples",
        description="Play games between bots (seats rotating as in a tournament; one bot "
        "plays every seat) and write each shard of games as indigo-record/1 lines "
        "(records-NNNNN.jsonl) and training samples (samples-NNNNN.parquet: observation, "
        "legal mask, ISMCTS visit counts, final outcome for the mover; docs/distributed.md). "
        "Rerunning with the same folder and settings skips finished shards.",
    )
    _add_bots(selfplay, "ismcts:800 or ismcts:800,greedy")
    selfplay.add_argument("--games", type=_positive, required=True)
    selfplay.add_argument("--out", required=True, metavar="DIR", help="the output folder")
    selfplay.add_argument(
        "--shard-size", type=_positive, default=100, metavar="GAMES", help="(default: 100)"
    )
    _add_rules(selfplay)
    _add_backend(selfplay, None)
    selfplay.add_argument(
        "--json",
        action="store_true",
        help='print one JSON object at the end: {"games", "shards_written", "shards_skipped", '
        '"samples_written", "folder"}',
    )


def selfplay(args: argparse.Namespace) -> int:
    """``indigo selfplay``: shards into ``--out``; a summary line, or JSON with ``--json``."""
    try:
        from indigo.selfplay import run_selfplay
    except ImportError as exc:
        raise CliError(str(exc)) from None
    rules = batch_rules(args)
    with _backend(args) as backend, progress_bar() as report:
        try:
            summary = run_selfplay(
                args.bots,
                args.games,
                args.out,
                rules=rules,
                seed=args.seed,
                shard_size=args.shard_size,
                backend=backend,
                progress=report,
            )
        except IndigoError as exc:
            raise CliError(str(exc)) from None
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(
            f"{summary.games} games in {summary.folder}: {summary.shards_written} shards "
            f"written ({summary.samples_written} samples), {summary.shards_skipped} "
            "already finished"
        )
    return 0


def _add_bench(sub: Any) -> None:
    bench = sub.add_parser(
        "bench",
        help="time the engine on a fixed workload",
        description="Time a fixed, seeded workload at every layer (Rust playouts, the batch "
        "API, Python calls, the pure-Python reference engine, ISMCTS on one and two threads) "
        "and print each figure with its unit, the targets it meets, and a checksum of the games "
        "played, which changes only when the engine's behaviour does. Each figure is the best "
        "of --repeat runs, with the runs of compared workloads interleaved; compare figures as "
        "ratios within one run (docs/benchmarks.md).",
    )
    bench.add_argument("--json", action="store_true", help="print one JSON object instead")
    bench.add_argument("--quick", action="store_true", help="a tenth of the work: about a second")
    bench.add_argument(
        "--repeat", type=_positive, default=3, help="runs of each workload; the best counts (3)"
    )


def bench(args: argparse.Namespace) -> int:
    """``indigo bench``: the figures as a table, or one JSON object with ``--json``."""
    from indigo.bench import report, run

    figures = run(quick=args.quick, repeat=args.repeat)
    print(json.dumps(figures) if args.json else report(figures))
    return 0


def _add_see_and_play(sub: Any) -> None:
    """The ``render``, ``play`` and ``serve`` subcommands (implemented in their own modules)."""
    render = sub.add_parser(
        "render",
        help="draw a position of a game record as SVG (or PNG)",
        description="Draw the position after move N of a record (default: the last) as SVG; "
        "as PNG when OUT ends in .png (needs the 'png' extra).",
    )
    render.add_argument("record", metavar="RECORD.json", help="the record file, or - for stdin")
    render.add_argument("--move", type=_count, default=None, metavar="N")
    render.add_argument(
        "-o", "--output", type=_output_file, default="-", metavar="OUT", help="default: stdout"
    )

    play = sub.add_parser(
        "play",
        help="play a game in the terminal against bots or people",
        description="Play in the terminal. Each seat is 'human' or a bot spec (random, "
        "greedy, ...). Type a move as T@R:Q,R; type 'help' at the prompt for more.",
    )
    play.add_argument("--players", default="human,greedy", metavar="SEAT,SEAT[,...]")
    play.add_argument("--hand-size", type=int, choices=(1, 2), default=None)
    play.add_argument("--theme", choices=("indigo", "butterfly-garden"), default="indigo")
    play.add_argument("--seed", type=_seed, default=None)
    play.add_argument(
        "--save", type=_output_file, default=None, metavar="FILE", help="write the record here"
    )
    play.add_argument("--no-colour", "--no-color", dest="no_colour", action="store_true")

    serve = sub.add_parser("serve", help="play in the browser: start the local web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_port, default=8000)
    add_limit_options(serve)


def main(argv: list[str] | None = None) -> int:
    """Run the ``indigo`` command with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.command == "replay":
            return replay(args.record, snapshots=args.snapshots, legal=args.legal)
        if args.command == "demo":
            return demo(args)
        if args.command == "tournament":
            return tournament(args)
        if args.command == "selfplay":
            return selfplay(args)
        if args.command == "bench":
            return bench(args)
        if args.command in ("render", "play", "serve"):
            return _see_and_play(args)
        parser.print_help(sys.stderr)
        return 2
    except CliError as exc:
        message = " ".join(str(exc).split())
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly.
        _silence_stdout()
        return 1
    except KeyboardInterrupt:
        return 130


def _see_and_play(args: argparse.Namespace) -> int:
    # Imported here: these modules import this one.
    if args.command == "render":
        from indigo.render.files import render_command

        return render_command(args.record, move=args.move, output=args.output)
    if args.command == "play":
        from indigo.play import play_command

        return play_command(args)
    try:
        from indigo.web.app import serve
    except ImportError as exc:
        raise CliError(
            f"indigo serve needs the 'web' extra ({exc}): {install_hint('web')}"
        ) from None
    _check_listen(args.host, args.port)
    return serve(args.host, args.port, limits_from_args(args))


def _check_listen(host: str, port: int) -> None:
    """Raises :class:`CliError` unless ``host`` resolves and ``port`` is free on it (the
    server, once started, reports these only in its log)."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except UnicodeError as exc:  # a host name the IDNA codec refuses
        raise CliError(f"cannot listen on {host}:{port}: {exc}") from None


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


# ---------------------------------------------------------------------------------------------
# replay


def read_record(path: str, stdin: TextIO | None = None) -> dict[str, Any]:
    """The parsed JSON object in ``path`` (``-``: standard input), read by
    :func:`indigo.records.read_record` (size cap, UTF-8 only). Raises :class:`CliError`."""
    name = "<stdin>" if path == "-" else path
    try:
        if path == "-":
            stream = stdin or sys.stdin
            return read_record_stream(getattr(stream, "buffer", stream))
        with open(path, "rb") as f:
            return read_record_stream(f)
    except OSError as exc:
        raise CliError(f"{name}: {exc.strerror or exc}") from None
    except RecordError as exc:
        raise CliError(f"{name}: {exc}") from None


def _where(at: str | int) -> str:
    return f"moves[{at}]" if isinstance(at, int) else str(at)


def _record_error(exc: RecordError) -> CliError:
    """One message that starts with the offending field or move."""
    where = _where(exc.at)
    message = str(exc)
    if not message.startswith(where):
        message = f"{where}: {message}"
    return CliError(message)


def replay(path: str, *, snapshots: bool = False, legal: bool = False) -> int:
    """``indigo replay``: validate the record, then print the snapshot(s)."""
    record = read_record(path)
    if record.get("format") == qg.RECORD_FORMAT:
        return _replay_queens_garden(record, snapshots=snapshots, legal=legal)
    # The whole record first: a bad record prints nothing on stdout.
    try:
        checked = Game.from_record(record)
    except RecordError as exc:
        error = _record_error(exc)
        if exc.at == "format":  # not Indigo's: say that the other game's format is read too
            error = CliError(f'{error} (or "{qg.RECORD_FORMAT}" for Queen\'s Garden)')
        raise error from None
    except Exception as exc:  # anything else the engine rejects the record with
        raise CliError(f"{path}: not a valid record: {exc}") from None
    if not snapshots:
        sys.stdout.write(checked.snapshot_json(legal=legal) + "\n")
        return 0
    # Replay from the record's rules and pile, one snapshot per position.
    game = Game(checked.rules, pile=checked.pile)
    lines = [game.snapshot_json(legal=legal)]
    for index, move in enumerate(checked.moves):
        try:
            game.play(move)
        except IndigoError as exc:  # only if the engine disagrees with its own record check
            raise CliError(f"moves[{index}]: {exc}") from None
        lines.append(game.snapshot_json(legal=legal))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _replay_queens_garden(record: dict[str, Any], *, snapshots: bool, legal: bool) -> int:
    """``indigo replay`` of a ``queens-garden-record/1``."""
    # The whole record first: a bad record prints nothing on stdout.
    try:
        checked = qg.Game.from_record(record)
    except RecordError as exc:
        raise _record_error(exc) from None
    if not snapshots:
        sys.stdout.write(checked.snapshot_json(legal=legal) + "\n")
        return 0
    # The same set-up and randomness, then the checked moves one by one.
    game = qg.Game.from_record({**record, "moves": []})
    lines = [game.snapshot_json(legal=legal)]
    for index, move in enumerate(checked.moves):
        try:
            game.play(move)
        except IndigoError as exc:  # only if the engine disagrees with its own record check
            raise CliError(f"moves[{index}]: {exc}") from None
        lines.append(game.snapshot_json(legal=legal))
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


# ---------------------------------------------------------------------------------------------
# demo


def demo_rules(
    players: int, theme: str, hand_size: int | None = None, gates: str = "shared"
) -> Rules:
    """The rules of ``indigo demo``: the theme's preset unless a hand size or variant is given."""
    if theme == "butterfly-garden":
        if hand_size is None and gates == "shared":
            return Rules.butterfly_garden(players)
        hand = 2 if hand_size is None else hand_size
        return Rules(
            players,
            hand,
            three_player_gates="exclusive" if gates == "exclusive" else "shared",
            theme="butterfly-garden",
        )
    if hand_size is None and gates == "shared":
        return Rules.indigo(players)
    hand = 1 if hand_size is None else hand_size
    return Rules(
        players, hand, three_player_gates="exclusive" if gates == "exclusive" else "shared"
    )


def demo_bots(spec: str, players: int, seed: int) -> list[Bot]:
    """One bot per seat; seat ``i``'s is seeded with ``seed + i``."""
    return [make_bot(spec, seed=seed + seat) for seat in range(players)]


def move_text(move: Move) -> str:
    """A move in notation ``T@R:Q,R``."""
    return f"{move.tile}@{move.rotation}:{move.q},{move.r}"


def _spot(q: int, r: int, edge: int) -> str:
    if (q, r) == CENTRE:
        return "the centre"
    if (q, r) in CORNERS:
        return f"corner ({q},{r})"
    return f"({q},{r}) {EDGE_NAMES[edge]}"


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def _tiles(n: int) -> str:
    return "1 tile" if n == 1 else f"{n} tiles"


def _seats(rules: Rules, seats: Sequence[int], colour: bool) -> str:
    return " and ".join(seat_label(rules, s, colour=colour) for s in seats)


def explain(game: Game, result: MoveResult, *, colour: bool) -> list[str]:
    """What happened in a move: the placement, then one line per gem that moved or was met."""
    rules = game.rules
    gains = [
        f"+{p} {seat_label(rules, s, colour=colour)}" for s, p in enumerate(result.points) if p
    ]
    head = (
        f"Move {len(game.moves)}: {seat_label(rules, result.seat, colour=colour)} "
        f"places {move_text(result.move)}"
    )
    if gains:
        head += f"  ({', '.join(gains)})"
    lines = [head]
    paths = result.paths
    told: set[int] = set()
    for i, path in enumerate(paths):
        if i in told:
            continue
        told.add(i)
        lines.append("  " + _path_text(rules, path, paths, told, colour))
    if not paths:
        lines.append("  no gem moves")
    return lines


def _path_text(
    rules: Rules, path: GemPath, paths: Sequence[GemPath], told: set[int], colour: bool
) -> str:
    name = gem_label(rules, path.gem, colour=colour)
    start = _spot(*path.start)
    moved = f"{name} from {start}"
    if path.steps:
        moved += f", {_tiles(len(path.steps))},"
    if path.outcome == "collected" and path.gate is not None:
        owners = path.owners
        each = " each" if len(owners) > 1 else ""
        return (
            f"{moved} leaves through {rules.gate_name} {path.gate}: "
            f"{_seats(rules, owners, colour)} +{GEM_POINTS[path.gem]}{each}"
        )
    if path.outcome == "collided" and path.collided_with is not None:
        other = paths[path.collided_with]
        told.add(path.collided_with)
        other_name = gem_label(rules, other.gem, colour=colour)
        other_text = f"the {other_name} from {_spot(*other.start)}"
        if other.steps:
            other_text += f" ({_tiles(len(other.steps))})"
        return f"{moved} meets {other_text}: both leave the game"
    if path.end is not None:
        return f"{moved} rests at {_spot(*path.end)}"
    return f"{moved} stops"


def _use_colour(no_colour: bool) -> bool:
    if no_colour or os.environ.get("NO_COLOR"):
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def result_lines(game: Game, *, colour: bool) -> list[str]:
    """Final scores, gems collected per seat (themed names) and the winner(s)."""
    rules = game.rules
    lines = [f"Game over after {len(game.moves)} moves ({game.removed} gems lost in collisions)."]
    lines.append("Final scores:")
    for seat in range(rules.players):
        got = game.collected[seat]
        gems = ", ".join(f"{gem_label(rules, g, colour=colour)} {got[g]}" for g in GEMS)
        lines.append(
            f"  {seat_label(rules, seat, colour=colour)}: {_points(game.scores[seat])}, "
            f"{sum(got.values())} gems ({gems})"
        )
    winners = game.winners
    label = ", ".join(seat_label(rules, s, colour=colour) for s in winners)
    if len(winners) == 1:
        lines.append(f"Winner: {label} with {_points(game.scores[winners[0]])}")
    elif winners:
        lines.append(f"Winners: {label} (tied with {_points(game.scores[winners[0]])})")
    else:
        lines.append("Winners: none")
    return lines


def demo(args: argparse.Namespace) -> int:
    """``indigo demo``: a whole game between bots, narrated."""
    seed: int = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    colour = _use_colour(args.no_colour)
    if args.game == "queens-garden":
        return queens_garden_demo(args.players, seed, colour=colour, delay=args.delay)
    rules = demo_rules(args.players, args.theme, args.hand_size, args.gates)
    game = Game(rules, seed=seed)
    bots = demo_bots(args.bot, rules.players, seed)
    clear = args.delay > 0 and colour
    out = sys.stdout

    title = "Butterfly Garden" if rules.theme == "butterfly-garden" else "Indigo"
    gates = f", {rules.three_player_gates} gates" if rules.players == 3 else ""
    header = (
        f"{title}: {rules.players} players, hands of {rules.hand_size}{gates}, "
        f"{args.bot} bots, seed {seed}"
    )
    print(header, file=out)
    print(legend_text(rules, colour=colour), file=out)
    print(file=out)
    print(board_text(game, colour=colour), file=out)
    print(status_text(game, colour=colour), file=out)
    out.flush()

    while not game.over and game.to_move is not None:
        seat = game.to_move
        move = bots[seat].choose(game)
        result = game.play(move)
        if clear:
            out.write("\x1b[H\x1b[2J")
            print(header, file=out)
        print(file=out)
        print("\n".join(explain(game, result, colour=colour)), file=out)
        every = args.board_every
        if clear or game.over or (every and len(game.moves) % every == 0):
            print(board_text(game, colour=colour), file=out)
        print(status_text(game, colour=colour), file=out)
        out.flush()
        if args.delay:
            time.sleep(args.delay)

    print(file=out)
    print("\n".join(result_lines(game, colour=colour)), file=out)
    return 0


def queens_garden_demo(players: int, seed: int, *, colour: bool, delay: float = 0.0) -> int:
    """``indigo demo --game queens-garden``: set up from ``seed``, random bots (one rng seeded
    with ``seed``), the position after each round, then the final scoring."""
    game = qg.Game(qg.Rules(players), seed=seed)
    bot = qg.RandomBot(seed)
    out = sys.stdout
    print(
        f"Azul: Queen's Garden: {players} players, random bots, seed {seed} "
        "(scoring wheel: a placeholder, not the printed wheel)",
        file=out,
    )
    print(position_text(game.snapshot(), colour=colour), file=out)
    while not game.over:
        seat, round_number = game.to_move, game.round
        move = bot.choose(game)
        game.play(move)
        print(f"Move {game.moves_played}: P{seat} {move}", file=out)
        if game.over or game.round != round_number:
            points = "  ".join(f"P{s} +{p}" for s, p in enumerate(game.round_points[-1]))
            print(f"\nRound {round_number} scored: {points}", file=out)
            print(position_text(game.snapshot(), colour=colour), file=out)
        out.flush()
        if delay:
            time.sleep(delay)
    print(file=out)
    print(final_text(game.snapshot()), file=out)
    return 0
