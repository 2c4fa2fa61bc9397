/* indigo.h: the C ABI of indigo-game (rust/capi), for the library libindigo.{so,dylib,a}.
 *
 * Kept by hand; rust/capi/src/tests.rs checks that it declares every exported function and
 * every status with its value, and scripts/check compiles and runs examples/c/play.c with it.
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

/* The legal moves' action numbers (ascending) into out[0..capacity]; *count = how many. */
int32_t indigo_game_legal_actions(const IndigoGame *game, uint32_t *out, size_t capacity,
                                  size_t *count);
/* The legal moves as text ("TILE@ROTATION:Q,R", every rotation), one per line (no final
 * newline). */
int32_t indigo_game_legal_moves(const IndigoGame *game, char *out, size_t capacity,
                                size_t *length);
/* Plays a move given as text, e.g. "4@0:0,-3". */
int32_t indigo_game_play(IndigoGame *game, const char *move);
/* Plays the move numbered action. */
int32_t indigo_game_play_action(IndigoGame *game, uint32_t action);
/* Takes back the last move; INDIGO_ERR_NO_MOVE at the start. */
int32_t indigo_game_undo(IndigoGame *game);
/* The seat to move (0-based) into *seat, or -1 once the game is over. */
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
 * "ismcts:1000", "ismcts:time=0.5", "ismcts:2000,c=0.5,threads=2"; its choices are fixed by
 * seed (except under a time budget), in Queen's Garden as
 * indigo.queens_garden.make_bot(spec, seed=seed). indigo_bot_choose asks it for an Indigo
 * move, indigo_garden_bot_choose for a Queen's Garden move. */
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

#ifdef __cplusplus
}
#endif

#endif /* INDIGO_H */
