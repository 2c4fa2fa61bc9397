/* Through the C ABI (rust/capi/include/indigo.h): two bots play a whole game of Indigo and its
 * record replays it; then a flat Monte Carlo search written in C on the search calls (search.h:
 * resample, clone, legal actions, play by action number, returns) plays a whole game of Indigo
 * and one of Azul: Queen's Garden against the library's random bot. Built and run by
 * scripts/c-example (in scripts/check), through the library's pkg-config file:
 *   scripts/c-install PREFIX
 *   export PKG_CONFIG_PATH=PREFIX/lib/pkgconfig
 *   cc -std=c11 -Wall -Wextra -Werror examples/c/play.c $(pkg-config --cflags --libs indigo) \
 *      -Wl,-rpath,"$(pkg-config --variable=libdir indigo)" -o play && ./play [SEED]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "indigo.h"

/* Stops the program with the library's message if a call failed. */
static void check(int32_t status, const char *what) {
    if (status != INDIGO_OK) {
        fprintf(stderr, "play: %s failed (status %d): %s\n", what, (int)status,
                indigo_last_error());
        exit(1);
    }
}

/* A growable array of action numbers. */
typedef struct {
    uint32_t *items;
    size_t count, capacity;
} Actions;

/* Makes room for at least `needed` actions. */
static void grow(Actions *actions, size_t needed) {
    uint32_t *items = realloc(actions->items, needed * sizeof *items);
    check(items ? INDIGO_OK : INDIGO_ERR_INTERNAL, "realloc");
    actions->items = items;
    actions->capacity = needed;
}

/* The C side's random numbers: splitmix64. */
static uint64_t next(uint64_t *state) {
    uint64_t z = (*state += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

/* A number below n (n > 0). */
static size_t below(uint64_t *state, size_t n) { return (size_t)(next(state) % n); }

/* The search for Indigo, its budget at each of its moves DETERMINIZATIONS x CANDIDATES
 * playouts. */
#define DETERMINIZATIONS 4
#define CANDIDATES 8
#define ABI(name) indigo_game_##name
#define OWN(name) game_##name
#define HANDLE IndigoGame
#define BOT_PLAYS(bot, game)                                                                 \
    do {                                                                                     \
        char move[32];                                                                       \
        size_t length;                                                                       \
        uint32_t action;                                                                     \
        check(indigo_bot_choose(bot, game, move, sizeof move, &length, &action), "bot");     \
        check(indigo_game_play_action(game, action), "play_action");                         \
    } while (0)
#include "search.h"
#undef ABI
#undef OWN
#undef HANDLE
#undef BOT_PLAYS
#undef DETERMINIZATIONS
#undef CANDIDATES

/* The same search for Queen's Garden, on a smaller budget: its games are longer, and a debug
 * build of the library (as scripts/c-example uses) is slow to play them out. */
#define DETERMINIZATIONS 3
#define CANDIDATES 4
#define ABI(name) indigo_garden_##name
#define OWN(name) garden_##name
#define HANDLE IndigoGarden
#define BOT_PLAYS(bot, game)                                                                 \
    do {                                                                                     \
        char move[64];                                                                       \
        size_t length;                                                                       \
        check(indigo_garden_bot_choose(bot, game, move, sizeof move, &length), "bot");       \
        check(indigo_garden_play(game, move), "play");                                       \
    } while (0)
#include "search.h"
#undef ABI
#undef OWN
#undef HANDLE
#undef BOT_PLAYS
#undef DETERMINIZATIONS
#undef CANDIDATES

/* The game's position as text (docs/notation.md) loads into a game at the same position. */
static void same_position_from_its_text(const IndigoGame *game) {
    char text[1024], again[1024];
    size_t length;
    check(indigo_game_position(game, text, sizeof text, &length), "indigo_game_position");
    IndigoGame *copy = NULL;
    check(indigo_game_from_position(text, 1, &copy), "indigo_game_from_position");
    check(indigo_game_position(copy, again, sizeof again, &length), "indigo_game_position");
    indigo_game_free(copy);
    if (strcmp(text, again) != 0) {
        fprintf(stderr, "play: the position read back differs\n");
        exit(1);
    }
    printf("after 10 moves: %s\n", text);
}

int main(int argc, char **argv) {
    uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 7;
    IndigoRules rules = {.players = 2, .hand_size = 1};
    IndigoGame *game = NULL;
    IndigoBot *bots[2] = {NULL, NULL};
    check(indigo_game_new(&rules, seed, &game), "indigo_game_new");
    check(indigo_bot_new("ismcts:200", seed, &bots[0]), "indigo_bot_new");
    check(indigo_bot_new("greedy", seed + 1, &bots[1]), "indigo_bot_new");

    /* A refusal is a status and a message, and the game is unchanged. */
    if (indigo_game_play(game, "not a move") != INDIGO_ERR_INVALID_ARGUMENT) {
        fprintf(stderr, "play: a bad move was not refused\n");
        return 1;
    }

    int moves = 0;
    for (;;) {
        int32_t seat;
        check(indigo_game_to_move(game, &seat), "indigo_game_to_move");
        if (seat < 0) {
            break;
        }
        char move[32];
        size_t length;
        check(indigo_bot_choose(bots[seat], game, move, sizeof move, &length, NULL),
              "indigo_bot_choose");
        check(indigo_game_play(game, move), "indigo_game_play");
        moves++;
        if (moves == 10) {
            same_position_from_its_text(game);
        }
    }

    /* The record, in a string the library allocates, replays to the same game. */
    char *record = indigo_game_record_string(game);
    if (record == NULL) {
        check(INDIGO_ERR_INTERNAL, "indigo_game_record_string");
    }
    IndigoGame *replayed = NULL;
    check(indigo_game_from_record(record, &replayed), "indigo_game_from_record");

    uint32_t scores[4];
    size_t players;
    uint32_t winners;
    check(indigo_game_scores(replayed, scores, 4, &players), "indigo_game_scores");
    check(indigo_game_winners(replayed, &winners), "indigo_game_winners");
    printf("indigo %s, seed %llu: %d moves, record of %zu bytes\n", indigo_version(),
           (unsigned long long)seed, moves, (size_t)snprintf(NULL, 0, "%s", record));
    printf("final: ismcts:200 %u, greedy %u, winners", scores[0], scores[1]);
    for (size_t s = 0; s < players; s++) {
        if (winners & (1u << s)) {
            printf(" %zu", s);
        }
    }
    printf("\n");

    indigo_string_free(record);
    indigo_game_free(replayed);
    indigo_game_free(game);
    indigo_bot_free(bots[0]);
    indigo_bot_free(bots[1]);

    /* The search in C against the random bot, in both games. */
    uint64_t rng = seed;
    IndigoBot *random = NULL;
    check(indigo_bot_new("random", seed, &random), "indigo_bot_new");
    IndigoGame *indigo = NULL;
    check(indigo_game_new(&rules, seed + 2, &indigo), "indigo_game_new");
    game_match("indigo", indigo, random, &rng);
    indigo_game_free(indigo);
    IndigoGarden *garden = NULL;
    check(indigo_garden_new(2, seed + 3, &garden), "indigo_garden_new");
    garden_match("queens-garden", garden, random, &rng);
    indigo_garden_free(garden);
    indigo_bot_free(random);
    return 0;
}
