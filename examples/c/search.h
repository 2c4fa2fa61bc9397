/* A flat Monte Carlo search and a whole game against the library's random bot, written once
 * for both games: play.c includes this file once per game, with ABI(name) naming that game's
 * call (indigo_game_name or indigo_garden_name), HANDLE its handle type, OWN(name) the name of
 * a function defined here, BOT_PLAYS(bot, game) playing the bot's move, and the search's
 * budget DETERMINIZATIONS and CANDIDATES. The search calls have the same shape in both games,
 * so this code is the same for both.
 *
 * The search: at each of its moves, DETERMINIZATIONS times, a game drawn from what the seat
 * knows (ABI(resample)); for each of up to CANDIDATES legal actions, a copy of that game
 * (ABI(clone)), the action, uniformly random moves to the end and the seat's return. It plays
 * the action with the best total. */

/* The legal actions into *legal, grown to the size the library asks for. */
static void OWN(legal)(const HANDLE *game, Actions *legal) {
    int32_t status = ABI(legal_actions)(game, legal->items, legal->capacity, &legal->count);
    if (status == INDIGO_ERR_BUFFER_TOO_SMALL) {
        grow(legal, legal->count);
        status = ABI(legal_actions)(game, legal->items, legal->capacity, &legal->count);
    }
    check(status, "legal_actions");
}

/* Random legal actions to the end of the game. */
static void OWN(playout)(HANDLE *game, uint64_t *rng, Actions *legal) {
    for (;;) {
        int32_t turn;
        check(ABI(turn)(game, &turn), "turn");
        if (turn == INDIGO_TURN_OVER) {
            return;
        }
        OWN(legal)(game, legal);
        check(ABI(play_action)(game, legal->items[below(rng, legal->count)]), "play_action");
    }
}

/* The action the search chooses for seat, the seat to move in game; game is unchanged. */
static uint32_t OWN(search)(const HANDLE *game, int32_t seat, uint64_t *rng) {
    Actions legal = {0}, scratch = {0};
    OWN(legal)(game, &legal);
    /* The candidates: up to CANDIDATES legal actions drawn at random, at the front. */
    size_t candidates = legal.count < CANDIDATES ? legal.count : CANDIDATES;
    for (size_t i = 0; i < candidates; i++) {
        size_t j = i + below(rng, legal.count - i);
        uint32_t swap = legal.items[i];
        legal.items[i] = legal.items[j];
        legal.items[j] = swap;
    }
    double totals[CANDIDATES] = {0};
    for (int d = 0; d < DETERMINIZATIONS; d++) {
        HANDLE *world = NULL;
        check(ABI(resample)(game, (uint8_t)seat, next(rng), &world), "resample");
        for (size_t c = 0; c < candidates; c++) {
            HANDLE *copy = NULL;
            check(ABI(clone)(world, &copy), "clone");
            check(ABI(play_action)(copy, legal.items[c]), "play_action");
            OWN(playout)(copy, rng, &scratch);
            double returns[4];
            size_t players;
            check(ABI(returns)(copy, returns, 4, &players), "returns");
            totals[c] += returns[seat];
            ABI(free)(copy);
        }
        ABI(free)(world);
    }
    size_t best = 0;
    for (size_t c = 1; c < candidates; c++) {
        if (totals[c] > totals[best]) {
            best = c;
        }
    }
    uint32_t chosen = legal.items[best];
    free(legal.items);
    free(scratch.items);
    return chosen;
}

/* A whole game: the search in seat 0, the library's random bot in seat 1. Every move of the
 * search is checked to be among the legal actions before it is played. Prints one line. */
static void OWN(match)(const char *name, HANDLE *game, IndigoBot *bot, uint64_t *rng) {
    size_t size = ABI(observation_size)(), count;
    float *observation = malloc(size * sizeof *observation);
    check(observation ? INDIGO_OK : INDIGO_ERR_INTERNAL, "malloc");
    check(ABI(observation)(game, 0, observation, size, &count), "observation");
    free(observation);
    Actions legal = {0};
    int searched = 0, played = 0;
    for (;;) {
        int32_t turn;
        check(ABI(turn)(game, &turn), "turn");
        if (turn == INDIGO_TURN_OVER) {
            break;
        }
        if (turn == 0) {
            uint32_t action = OWN(search)(game, turn, rng);
            OWN(legal)(game, &legal);
            int listed = 0;
            for (size_t i = 0; i < legal.count; i++) {
                listed |= legal.items[i] == action;
            }
            if (!listed) {
                fprintf(stderr, "play: the search chose %u, not a legal action\n", action);
                exit(1);
            }
            check(ABI(play_action)(game, action), "play_action");
            searched++;
        } else {
            BOT_PLAYS(bot, game);
        }
        played++;
    }
    free(legal.items);
    uint32_t scores[4], winners;
    size_t players;
    check(ABI(scores)(game, scores, 4, &players), "scores");
    check(ABI(winners)(game, &winners), "winners");
    printf("search %s: %d moves, %d by the search, all legal; observation of %zu values; "
           "flat-mc:%d %u, random %u, winners",
           name, played, searched, count, DETERMINIZATIONS * CANDIDATES, scores[0], scores[1]);
    for (size_t s = 0; s < players; s++) {
        if (winners & (1u << s)) {
            printf(" %zu", s);
        }
    }
    printf("\n");
}
