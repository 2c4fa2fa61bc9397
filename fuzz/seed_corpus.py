"""Write the seed corpora of the fuzz targets from the conformance vectors.

``fuzz/corpus/record/``: each vector game's record and each bad record, as JSON text.
``fuzz/corpus/differential/``: each vector game in the differential target's byte layout
(``fuzz/src/lib.rs``: rules byte, pile choices, then one play step per move).
``fuzz/corpus/qg_record/``: each Queen's Garden vector record and bad record, and the legal-move
lists of the vector snapshots as lines of notation (``fuzz/src/qg.rs``).
``fuzz/corpus/qg_state/``: Queen's Garden states (pickles) of games played by seeded random bots
to several points, their resampled games, and a few inputs of the target's forging layout
(``fuzz/src/qg_state.rs``: players, seed, plies, flags, then 3 bytes per forged field).

Run from the repository root: ``python3 fuzz/seed_corpus.py``. The committed corpus is this
output plus what ``cargo fuzz cmin`` kept from fuzzing runs.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from indigo import queens_garden as qg
from indigo.reference import BOX, CONFIGS, RefGame, canonical_rotation

ROOT = Path(__file__).resolve().parent.parent


def differential_bytes(record: dict) -> bytes:
    rules = record["rules"]
    players, hand_size = rules["players"], rules["hand_size"]
    gates = rules.get("three_player_gates", "shared") if players == 3 else "shared"
    head = CONFIGS.index((players, hand_size, gates))
    if rules.get("tie_break", "most-gems") == "shared":
        head |= 8
    out = bytearray([head])
    left = sorted(BOX)
    for tile in record["pile"]:
        i = left.index(tile)
        out.append(i)
        left.pop(i)
    ref = RefGame.from_rules(rules, record["pile"])
    for move in record["moves"]:
        tile, rotation = move["tile"], move["rotation"]
        rho = canonical_rotation(tile, rotation)
        equivalent = [x for x in range(6) if canonical_rotation(tile, x) == rho]
        index = ref.legal_moves().index((tile, rho, move["q"], move["r"]))
        out += bytes([16 * equivalent.index(rotation)]) + index.to_bytes(2, "big")
        ref.play(move)
    return bytes(out)


def write(directory: Path, data: bytes) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / hashlib.sha1(data).hexdigest()).write_bytes(data)


def main() -> None:
    vectors = ROOT / "tests" / "vectors"
    corpus = ROOT / "fuzz" / "corpus"
    for path in sorted(vectors.glob("game-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))["record"]
        write(corpus / "record", json.dumps(record, sort_keys=True).encode())
        write(corpus / "differential", differential_bytes(record))
    for case in json.loads((vectors / "bad-records.json").read_text(encoding="utf-8")):
        write(corpus / "record", json.dumps(case["record"], sort_keys=True).encode())
    qg_vectors = ROOT / "tests" / "vectors-qg"
    for path in sorted(qg_vectors.glob("game-*.json")):
        game = json.loads(path.read_text(encoding="utf-8"))
        write(corpus / "qg_record", json.dumps(game["record"], sort_keys=True).encode())
        lines = [m for snapshot in game["snapshots"][:40] for m in snapshot.get("legal", [])]
        lines += game["record"]["moves"][:40]
        write(corpus / "qg_record", "\n".join(lines).encode())
    for case in json.loads((qg_vectors / "bad-records.json").read_text(encoding="utf-8")):
        write(corpus / "qg_record", json.dumps(case["record"], sort_keys=True).encode())
    qg_states(corpus / "qg_state")


def qg_states(directory: Path) -> None:
    for players in (2, 3, 4):
        for seed in (1, 2):
            game = qg.Game(qg.Rules(players), seed=seed)
            bot = qg.make_bot("random", seed=seed)
            plies = 0
            while True:
                if plies in (0, 7, 40, 120) or game.over:
                    write(directory, game.__getstate__())
                    if not game.over:
                        write(directory, game.resample(plies % players, seed=plies).__getstate__())
                if game.over:
                    break
                game.play(bot.choose(game))
                plies += 1
    for head in ([0, 1, 10, 0], [1, 2, 40, 1], [2, 3, 90, 1]):
        write(directory, bytes([*head, 0, 7, 200, 1, 3, 4, 2, 9, 250]))


if __name__ == "__main__":
    main()
