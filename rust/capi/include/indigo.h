/* indigo.h: the C ABI of indigo-game (rust/capi), for the library libindigo.{so,dylib,a}.
 *
 * Kept by hand; rust/capi/src/tests.rs checks that it declares every exported function and
 * every status with its value, and scripts/c-example (run by scripts/check) compiles and runs
 * examples/c/play.c with it through pkg-config (indigo.pc, made by scripts/c-install).
 *
 * Every function returning int32_t returns INDIGO_OK or an INDIGO_ERR_* status; on failure it
 * changes nothing and indigo_last_error() holds a message for a person (per thread). No Rust
 * panic crosses the boundary: a bug inside the library returns INDIGO_ERR_INTERNAL.
 *
 * Text out goes into a caller buffer: *length is always set to the text's length in bytes
 * without the NUL; if capacity < length + 1 nothing is written and the status is
 * INDIGO_ERR_BUFFER_TOO_SMALL (pass NULL and 0 to ask for the size). Arrays out work alike
 * with *count.
 *
 * Handles are not thread-safe: use one from one thread at a time.
 */
#ifndef INDIGO_H
#define INDIGO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define INDIGO_OK 0
/* A required pointer argument was null. */
#define INDIGO_ERR_NULL_POINTER 1
/* Rules out of range, unreadable move text, an unknown bot, text not UTF-8, an action out of
 * range. */
#define INDIGO_ERR_INVALID_ARGUMENT 2
/* The move is not legal in this position. */
#define INDIGO_ERR_ILLEGAL_MOVE 3
/* The record is not a valid indigo-record/1. */
#define INDIGO_ERR_BAD_RECORD 4
/* The buffer is too small; the size needed was written to *length or *count. */
#define INDIGO_ERR_BUFFER_TOO_SMALL 5
/* No move to undo, or the game is over. */
#define INDIGO_ERR_NO_MOVE 6
/* A bug inside the library (a caught panic); the handle is unchanged. */
#define INDIGO_ERR_INTERNAL 7
/* The text is not a valid position (docs/notation.md, docs/queens-garden.md "Positions as
 * text"); the message names the field. */
#define INDIGO_ERR_BAD_POSITION 8

/* What indigo_game_turn and indigo_garden_turn write besides a seat (0-based). */
/* The game is over. */
#define INDIGO_TURN_OVER -1
/* A chance node: the legal actions are chance's outcomes (an Indigo game read from an
 * explicit-chance record, waiting for a draw; Queen's Garden never has one). */
#define INDIGO_TURN_CHANCE -2

/* An Indigo game with its history. */
typedef struct IndigoGame IndigoGame;
/* A seeded bot. */
typedef struct IndigoBot IndigoBot;

/* A rules configuration (RULES.md sections 5, 8, 9). Flags: 0 for the standard rule, any other
 * value for the variant. */
typedef struct IndigoRules {
    uint8_t players;          /* 2, 3 or 4 */
    uint8_t hand_size;        /* 1 (basic game) or 2 (tactical variant, Butterfly Garden) */
    uint8_t exclusive_gates;  /* three players: each owns two gates alone */
    uint8_t shared_ties;      /* ties on points are shared, not broken by most gems */
    uint8_t open_hands;       /* every player sees every hand */
    uint8_t butterfly_garden; /* Butterfly Garden's names and colours (play unchanged) */
} IndigoRules;

/* The library's version, e.g. "0.1.0"; static, never freed. */
const char *indigo_version(void);
/* The message of the last failure on this thread ("" after a success); valid until the next
 * call on this thread. */
const char *indigo_last_error(void);

/* A new game under *rules whose pile is shuffled from seed (as indigo.Game(rules, seed=seed)). */
int32_t indigo_game_new(const IndigoRules *rules, uint64_t seed, IndigoGame **out);
/* The game an indigo-record/1 JSON text describes, every move replayed and checked. */
int32_t indigo_game_from_record(const char *json, IndigoGame **out);
/* The game at the position a position text describes (docs/notation.md), the pile's order
 * drawn from seed, with no moves before it. */
int32_t indigo_game_from_position(const char *text, uint64_t seed, IndigoGame **out);
/* The game's position as text (docs/notation.md, "Positions as text") into a caller buffer. */
int32_t indigo_game_position(const IndigoGame *game, char *out, size_t capacity, size_t *length);
/* Frees a game; NULL is ignored. */
void indigo_game_free(IndigoGame *game);

/* The legal moves as text ("TILE@ROTATION:Q,R", every rotation), one per line (no final
 * newline). */
int32_t indigo_game_legal_moves(const IndigoGame *game, char *out, size_t capacity,
                                size_t *length);
/* Plays a move given as text, e.g. "4@0:0,-3". */
int32_t indigo_game_play(IndigoGame *game, const char *move);
/* Takes back the last move; INDIGO_ERR_NO_MOVE at the start. */
int32_t indigo_game_undo(IndigoGame *game);
/* The seat to move (0-based) into *seat, or -1 once the game is over or at a chance node
 * (indigo_game_turn tells the two apart). */
int32_t indigo_game_to_move(const IndigoGame *game, int32_t *seat);
/* Each seat's points, seat 0 first; *count = the number of players. */
int32_t indigo_game_scores(const IndigoGame *game, uint32_t *out, size_t capacity,
                           size_t *count);
/* The winning seats as a bitmask (bit s for seat s); 0 until the game is over. */
int32_t indigo_game_winners(const IndigoGame *game, uint32_t *winners);
/* The record (indigo-record/1 JSON, one line) into a caller buffer; INDIGO_ERR_INVALID_ARGUMENT
 * for a game from a mid-game position (indigo_game_from_position), which no record describes. */
int32_t indigo_game_record(const IndigoGame *game, char *out, size_t capacity, size_t *length);
/* The record as a new string to free with indigo_string_free; NULL on failure. */
char *indigo_game_record_string(const IndigoGame *game);
/* Frees a string made by the library; NULL is ignored. */
void indigo_string_free(char *text);

/* A bot of either game from a spec as on indigo command lines: "random", "greedy", "playout",
 * "ismcts:1000", "ismcts:time=0.5", "ismcts:2000,c=0.5,threads=2", "best", "net:200",
 * "net:file=PATH,400"; its choices are fixed by seed (except under a time budget), in Queen's
 * Garden as indigo.queens_garden.make_bot(spec, seed=seed). indigo_bot_choose asks it for an
 * Indigo move, indigo_garden_bot_choose for a Queen's Garden move; a net bot whose network does
 * not fit that game or its seat count is refused there (INDIGO_ERR_INVALID_ARGUMENT). */
int32_t indigo_bot_new(const char *spec, uint64_t seed, IndigoBot **out);
/* The bot's move for the seat to move, from what that seat knows: its text into a caller
 * buffer (16 bytes always suffice) and, if action is not NULL, its action number into *action.
 * The game is unchanged; INDIGO_ERR_NO_MOVE once it is over. The bot's random state moves on
 * with every choice, even one refused for a small buffer. */
int32_t indigo_bot_choose(IndigoBot *bot, const IndigoGame *game, char *out, size_t capacity,
                          size_t *length, uint32_t *action);
/* Frees a bot; NULL is ignored. */
void indigo_bot_free(IndigoBot *bot);

/* Azul: Queen's Garden: a game with its history, and a bot's move. */
typedef struct IndigoGarden IndigoGarden;

/* A new game for players (2..4) under the default wheel and jokers, set up from seed as
 * indigo.queens_garden.Game(Rules(players), seed=seed). */
int32_t indigo_garden_new(uint8_t players, uint64_t seed, IndigoGarden **out);
/* The game a queens-garden-record/1 JSON text describes, every move replayed and checked. */
int32_t indigo_garden_from_record(const char *json, IndigoGarden **out);
/* The game at the position a position text describes (docs/queens-garden.md), what is hidden
 * drawn from seed, with no moves before it. */
int32_t indigo_garden_from_position(const char *text, uint64_t seed, IndigoGarden **out);
/* The game's position as text (docs/queens-garden.md, "Positions as text") into a caller
 * buffer. */
int32_t indigo_garden_position(const IndigoGarden *garden, char *out, size_t capacity,
                               size_t *length);
/* Frees a game; NULL is ignored. */
void indigo_garden_free(IndigoGarden *garden);
/* The legal moves in canonical notation ("take ye", "pass", ...), one per line (no final
 * newline); empty once the game is over. */
int32_t indigo_garden_legal_moves(const IndigoGarden *garden, char *out, size_t capacity,
                                  size_t *length);
/* Plays a move in the notation of docs/queens-garden.md. */
int32_t indigo_garden_play(IndigoGarden *garden, const char *move);
/* Takes back the last move; INDIGO_ERR_NO_MOVE at the start. */
int32_t indigo_garden_undo(IndigoGarden *garden);
/* The seat to move (0-based) into *seat, or -1 once the game is over. */
int32_t indigo_garden_to_move(const IndigoGarden *garden, int32_t *seat);
/* Each seat's points, seat 0 first; *count = the number of players. */
int32_t indigo_garden_scores(const IndigoGarden *garden, uint32_t *out, size_t capacity,
                             size_t *count);
/* The winning seats as a bitmask; 0 until the game is over. */
int32_t indigo_garden_winners(const IndigoGarden *garden, uint32_t *winners);
/* The record (queens-garden-record/1 JSON, one line) into a caller buffer. */
int32_t indigo_garden_record(const IndigoGarden *garden, char *out, size_t capacity,
                             size_t *length);
/* The record as a new string to free with indigo_string_free; NULL on failure. */
char *indigo_garden_record_string(const IndigoGarden *garden);

/* The move of a bot (indigo_bot_new) for the seat to move, in canonical notation, into a
 * caller buffer (64 bytes always suffice). The game is unchanged; INDIGO_ERR_NO_MOVE once it
 * is over. */
int32_t indigo_garden_bot_choose(IndigoBot *bot, const IndigoGarden *garden, char *out,
                                 size_t capacity, size_t *length);

/* Search and learning: the same calls for both games, indigo_game_* on an IndigoGame and
 * indigo_garden_* on an IndigoGarden, decided by the search crate's traits (as in Python:
 * legal_actions, apply_action, observation, information_state_string, resample, returns).
 * An action number is the same move in every position (docs/search.md, "Actions", for
 * Indigo; docs/queens-garden.md, "Actions for search"); a seat is 0-based, and one that is not a seat
 * of the game is INDIGO_ERR_INVALID_ARGUMENT. */

/* Values in one observation (indigo.OBSERVATION_LAYOUT, indigo.queens_garden's). */
size_t indigo_game_observation_size(void);
size_t indigo_garden_observation_size(void);
/* Action numbers are 0..action_count-1 (Indigo 810, Queen's Garden 8,053,459). */
uint32_t indigo_game_action_count(void);
uint32_t indigo_garden_action_count(void);

/* A copy of the game, history included, into *out (free it with indigo_game_free or
 * indigo_garden_free): search on the copy leaves the game as it is. */
int32_t indigo_game_clone(const IndigoGame *game, IndigoGame **out);
int32_t indigo_garden_clone(const IndigoGarden *garden, IndigoGarden **out);

/* Whose turn it is into *turn: the seat to move, INDIGO_TURN_CHANCE or INDIGO_TURN_OVER. */
int32_t indigo_game_turn(const IndigoGame *game, int32_t *turn);
int32_t indigo_garden_turn(const IndigoGarden *garden, int32_t *turn);

/* The legal action numbers, ascending, into out[0..capacity]; *count = how many (none once
 * over). At an Indigo chance node they are the tile types that can be drawn. In Queen's
 * Garden they follow indigo_garden_legal_moves' order. */
int32_t indigo_game_legal_actions(const IndigoGame *game, uint32_t *out, size_t capacity,
                                  size_t *count);
int32_t indigo_garden_legal_actions(const IndigoGarden *garden, uint32_t *out, size_t capacity,
                                    size_t *count);

/* Plays the legal action numbered action, into the history (undo and the record see it):
 * INDIGO_ERR_INVALID_ARGUMENT for a number that names no action, INDIGO_ERR_ILLEGAL_MOVE for
 * one not legal now. */
int32_t indigo_game_play_action(IndigoGame *game, uint32_t action);
int32_t indigo_garden_play_action(IndigoGarden *garden, uint32_t action);

/* What seat knows as observation_size float values into out[0..capacity]; *count = the size.
 * Two games the seat cannot tell apart give the same values. */
int32_t indigo_game_observation(const IndigoGame *game, uint8_t seat, float *out,
                                size_t capacity, size_t *count);
int32_t indigo_garden_observation(const IndigoGarden *garden, uint8_t seat, float *out,
                                  size_t capacity, size_t *count);

/* Seat's information state as text into a caller buffer: equal for two games exactly when the
 * seat cannot tell them apart (Indigo's with perfect recall: the public moves and draws, then
 * the seat's own draws; Queen's Garden's the seat, the expansions every player has seen and
 * the public snapshot). */
int32_t indigo_game_information_state(const IndigoGame *game, uint8_t seat, char *out,
                                      size_t capacity, size_t *length);
int32_t indigo_garden_information_state(const IndigoGarden *garden, uint8_t seat, char *out,
                                        size_t capacity, size_t *length);

/* A determinization for seat into *out: a game consistent with what seat knows, everything
 * hidden from it drawn from seed, as game.resample(seat, seed=seed) in Python. Indigo's keeps
 * the history (the same moves, the seat's own draws); Queen's Garden's has no moves before
 * it. Free it as a game. */
int32_t indigo_game_resample(const IndigoGame *game, uint8_t seat, uint64_t seed,
                             IndigoGame **out);
int32_t indigo_garden_resample(const IndigoGarden *garden, uint8_t seat, uint64_t seed,
                               IndigoGarden **out);

/* Each seat's return, seat 0 first: once the game is over the winners share 1, before that
 * every return is 0; *count = the number of players. */
int32_t indigo_game_returns(const IndigoGame *game, double *out, size_t capacity,
                            size_t *count);
int32_t indigo_garden_returns(const IndigoGarden *garden, double *out, size_t capacity,
                              size_t *count);

#ifdef __cplusplus
}
#endif

#endif /* INDIGO_H */
