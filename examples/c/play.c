/* Two bots play a whole game of Indigo through the C ABI (rust/capi/include/indigo.h) and the
 * result is printed. Built and run by scripts/check:
 *   cargo build --release -p indigo-capi
 *   cc -std=c11 -Wall -Wextra -Werror -Irust/capi/include examples/c/play.c \
 *      -Ltarget/release -lindigo -Wl,-rpath,target/release -o play && ./play [SEED]
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
    return 0;
}
