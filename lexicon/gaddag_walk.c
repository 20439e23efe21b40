/*
 * The cross-checks of a board and the walk that finds the legal moves on the GADDAG
 * (rules I.2). See gaddag.h; lexicon/movegen.py's pure-Python walker is the reference
 * these functions must match: same moves, same scores (the tests compare them).
 */
#include "gaddag.h"

/* ------------------------------------------------------------------------------------
 * Cross-checks: for each empty square and each direction of the main word, the letters
 * that make a word of the perpendicular tiles through it (a mask; all letters when there
 * are none) and those tiles' points (-1 when there are none).
 * Arrays of 2 x 15 x 15: [direction][row][col], direction 0 across (the perpendicular
 * word is vertical), 1 down.
 * ------------------------------------------------------------------------------------ */

void cross_check(const Gaddag *g, const int8_t *tiles, const int32_t *points, int direction, int row, int col,
                 uint32_t *mask_out, int32_t *score_out) {
    int dr = direction == 0 ? 1 : 0, dc = direction == 0 ? 0 : 1;
    int8_t before[SIZE], after[SIZE];
    int nb = 0, na = 0, score = 0;
    for (int r = row - dr, c = col - dc; r >= 0 && c >= 0 && tiles[r * SIZE + c] >= 0; r -= dr, c -= dc) {
        before[nb++] = tiles[r * SIZE + c];  /* nearest first: the prefix reversed */
    }
    for (int r = row + dr, c = col + dc; r < SIZE && c < SIZE && tiles[r * SIZE + c] >= 0; r += dr, c += dc) {
        after[na++] = tiles[r * SIZE + c];
    }
    if (!nb && !na) { *mask_out = 0xFFFFFFFFu; *score_out = -1; return; }
    for (int i = 0; i < nb; i++) if (!(before[i] & BLANK_FLAG)) score += points[before[i]];
    for (int i = 0; i < na; i++) if (!(after[i] & BLANK_FLAG)) score += points[after[i]];
    *score_out = score;
    uint32_t mask = 0;
    if (nb) {
        /* rev(prefix) SEP letter suffix */
        const Arc *node = &g->root;
        for (int i = 0; i < nb && node; i++) node = child(g, *node, before[i] & LETTER_BITS);
        if (node) node = child(g, *node, g->sep);
        if (node) {
            uint32_t letters = node->mask & ((1u << g->sep) - 1u);
            while (letters) {
                int letter = CTZ(letters);
                letters &= letters - 1;
                const Arc *at = child(g, *node, letter);
                for (int i = 0; i < na && at; i++) at = child(g, *at, after[i] & LETTER_BITS);
                if (at && accepts(*at)) mask |= 1u << letter;
            }
        }
    } else {
        /* letter SEP suffix */
        uint32_t letters = g->root.mask & ((1u << g->sep) - 1u);
        while (letters) {
            int letter = CTZ(letters);
            letters &= letters - 1;
            const Arc *at = child(g, g->root, letter);
            if (at) at = child(g, *at, g->sep);
            for (int i = 0; i < na && at; i++) at = child(g, *at, after[i] & LETTER_BITS);
            if (at && accepts(*at)) mask |= 1u << letter;
        }
    }
    *mask_out = mask;
}

/* ------------------------------------------------------------------------------------
 * The walk.
 * ------------------------------------------------------------------------------------ */


typedef struct {
    const Gaddag *g;
    int letters;                 /* S */
    const int32_t *points;       /* per letter */
    int bingo_size, bingo_bonus;
    /* the line */
    int down, line;
    int8_t cells[SIZE];
    uint32_t masks[SIZE];
    int32_t cross[SIZE];
    int lm[SIZE], wm[SIZE];
    uint8_t anchor[SIZE];
    uint8_t open_left[SIZE];     /* the square before is empty, or the edge */
    uint8_t go_left[SIZE];       /* a leftward walk may go on to the square before (a tile, or
                                  * an empty square that is no anchor) */
    int cap[SIZE];               /* TOP mode: the most a rack tile is worth there, -1 if none fits */
    int anchor_at;               /* the anchor being walked from */
    int right_open;              /* the square after it is empty, or the edge */
    /* the rack */
    int counts[MAX_SYMBOLS + 1];
    int natural[MAX_SYMBOLS + 1]; /* the rack before the walk spends it */
    int rack_size, blanks;
    uint32_t available;          /* letters the rack can still play */
    /* the word: the letter at each square of the line (new tiles where cells[i] < 0);
     * room after it so that emit can copy 16 bytes from any start */
    int8_t path[2 * SIZE + 2];
    int blank_letters[MAX_SYMBOLS + 1]; /* letters the walk has played with a blank, in order */
    int blanks_played;
    /* the output */
    int mode;
    int32_t *info;
    int8_t *words;
    int64_t room, n;
    int32_t best;
} Walk;

/* One move: ``total`` points, the blanks at the new tiles of ``blanked`` (bit j: new tile j). */
static INLINE void emit(Walk *w, int start, int length, int placed, int total, const int *news, uint32_t blanked) {
    if (w->mode == MODE_TOP) {
        if (total < w->best) return;
        if (total > w->best) { w->best = total; w->n = 0; }
    } else if (total > w->best) {
        w->best = total;
    }
    if (w->mode != MODE_COUNT && w->n < w->room) {
        int32_t *row = w->info + w->n * I_COLUMNS;
        row[I_SCORE] = total;
        row[I_DOWN] = w->down;
        row[I_ROW] = w->down ? start : w->line;
        row[I_COL] = w->down ? w->line : start;
        row[I_LENGTH] = length;
        row[I_PLACED] = placed;
        int8_t *word = w->words + w->n * SIZE;
        /* the word's 15 bytes, zeros after it: two 8-byte loads, masked */
        uint64_t lo, hi;
        memcpy(&lo, w->path + start, 8);
        memcpy(&hi, w->path + start + 8, 8);
        if (length < 8) { lo &= (1ull << (8 * length)) - 1; hi = 0; }
        else hi &= (1ull << (8 * (length - 8))) - 1;
        memcpy(word, &lo, 8);
        memcpy(word + 8, &hi, SIZE - 8);
        while (blanked) {
            int j = CTZ(blanked);
            blanked &= blanked - 1;
            word[news[j] - start] |= BLANK_FLAG;
        }
    }
    w->n++;
}

typedef struct {
    int news[SIZE], penalties[SIZE], letters[SIZE], k;
    int excess[MAX_SYMBOLS + 1];   /* blanks still owed per letter: new tiles of it beyond the natural ones */
    int owed;                      /* their sum */
} Blanks;

/* Every choice of new tiles played by blanks from ``j`` on: at most ``left`` more, and
 * enough of each letter to cover what the natural tiles cannot (III.20.3: the placements
 * differ). */
static void assign_blanks(Walk *w, Blanks *b, int j, int left, int total, uint32_t blanked, int start, int length,
                          int placed) {
    if (b->owed > left) return;
    if (j == b->k || left == 0) {
        if (b->owed == 0) emit(w, start, length, placed, total, b->news, blanked);
        return;
    }
    int letter = b->letters[j];
    /* natural tile at j */
    int later = 0;   /* new tiles of the same letter after j, that blanks could still play */
    if (b->excess[letter])
        for (int i = j + 1; i < b->k; i++) later += b->letters[i] == letter;
    if (later >= b->excess[letter]) assign_blanks(w, b, j + 1, left, total, blanked, start, length, placed);
    /* blank at j */
    int owed_here = b->excess[letter] > 0;
    b->excess[letter] -= owed_here;
    b->owed -= owed_here;
    assign_blanks(w, b, j + 1, left - 1, total - b->penalties[j], blanked | (1u << j), start, length, placed);
    b->excess[letter] += owed_here;
    b->owed += owed_here;
}

/* Every placement of a word found with a rack of one or two blanks: each set S of new
 * tiles played by blanks (|S| <= the rack's blanks) that holds the letters the walk had to
 * play with a blank (it spent natural tiles first: those letters' naturals are short), each
 * S one placement (III.20.3), its score the word's less each blank's points there. */
static void record_blanks(Walk *w, int start, int end, int length, int placed, int score, int word_mult) {
    int news[SIZE], letters[SIZE], penalties[SIZE], k = 0;
    for (int i = start; i <= end; i++) {
        if (w->cells[i] >= 0) continue;
        int letter = w->path[i];
        int value = w->points[letter] * w->lm[i];
        news[k] = i;
        letters[k] = letter;
        penalties[k] = value * word_mult + (w->cross[i] >= 0 ? value * w->wm[i] : 0);
        k++;
    }
    int owed = w->blanks_played, room = w->blanks;
    int d1 = owed > 0 ? w->blank_letters[0] : -1, d2 = owed > 1 ? w->blank_letters[1] : -1;
    if (owed == 0) emit(w, start, length, placed, score, news, 0);
    if (room >= 1 && owed <= 1)
        for (int j = 0; j < k; j++)
            if (owed == 0 || letters[j] == d1) emit(w, start, length, placed, score - penalties[j], news, 1u << j);
    if (room >= 2)
        for (int i = 0; i < k; i++)
            for (int j = i + 1; j < k; j++) {
                int a = letters[i], b = letters[j];
                int ok = owed == 0 || (owed == 1 && (a == d1 || b == d1)) ||
                         (owed == 2 && ((a == d1 && b == d2) || (a == d2 && b == d1)));
                if (ok) emit(w, start, length, placed, score - penalties[i] - penalties[j], news, (1u << i) | (1u << j));
            }
}

static void record(Walk *w, int start, int end, int placed, int main, int word_mult, int cross_total) {
    int length = end - start + 1;
    if (length < 2) return;
    if (w->down && placed == 1) {
        /* A one-tile move that forms an across word too is reported as the across move. */
        for (int i = start; i <= end; i++)
            if (w->cells[i] < 0) { if (w->cross[i] >= 0) return; break; }
    }
    int score = main * word_mult + cross_total + (placed == w->bingo_size ? w->bingo_bonus : 0);
    if (!w->blanks) {
        emit(w, start, length, placed, score, NULL, 0);
        return;
    }
    if (w->blanks <= 2) {
        record_blanks(w, start, end, length, placed, score, word_mult);
        return;
    }
    Blanks b;
    b.k = 0;
    b.owed = 0;
    memset(b.excess, 0, sizeof b.excess);
    for (int i = start; i <= end; i++) {
        if (w->cells[i] >= 0) continue;
        int letter = w->path[i];
        int value = w->points[letter] * w->lm[i];
        b.news[b.k] = i;
        b.letters[b.k] = letter;
        b.penalties[b.k] = value * word_mult + (w->cross[i] >= 0 ? value * w->wm[i] : 0);
        b.k++;
    }
    for (int j = 0; j < b.k; j++) b.excess[b.letters[j]] = -w->natural[b.letters[j]];
    for (int j = 0; j < b.k; j++) b.excess[b.letters[j]]++;
    for (int j = 0; j < b.k; j++) {
        int letter = b.letters[j];
        if (b.excess[letter] < 0) b.excess[letter] = 0;
    }
    for (int j = 0; j < b.k; j++) {     /* each letter once */
        int letter = b.letters[j], first = 1;
        for (int i = 0; i < j; i++) if (b.letters[i] == letter) first = 0;
        if (first) b.owed += b.excess[letter];
    }
    assign_blanks(w, &b, 0, w->blanks, score, 0, start, length, placed);
}

static INLINE void go_on(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total,
                         int leftward, int leftmost, int blanks);

/* Whether the walk can go on from ``node`` to square ``pos``: the tile there is one of the
 * node's edges, or the square is empty and a rack tile left fits there and is one of them.
 * Checked before the call, so that the many dead ends cost no call. */
static INLINE int can_enter(const Walk *w, Arc node, int pos, int placed, int blanks) {
    int8_t tile = w->cells[pos];
    if (tile >= 0) return (node.mask >> (tile & LETTER_BITS)) & 1u;
    int blank = w->letters;
    return placed < w->rack_size &&
           (node.mask & w->masks[pos] & (blanks && w->counts[blank] ? 0xFFFFFFFFu : w->available) &
            ((1u << blank) - 1u)) != 0;
}

/* gen compiled for each direction, and for a rack with blanks (1) or without (0). */
static void gen_left0(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total);
static void gen_right0(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftmost);
static void gen_left1(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total);
static void gen_right1(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftmost);

/* Place or follow a tile at ``pos``, coming from ``node``: inlined into gen_left (the walk
 * leftwards from the anchor) and gen_right (after the separator), each compiled for its
 * direction. */
static INLINE void gen(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftward,
                int leftmost, int blanks) {
    const Gaddag *g = w->g;
    int8_t tile = w->cells[pos];
    if (tile >= 0) {
        int letter = tile & LETTER_BITS;
        const Arc *next = child(g, node, letter);
        if (!next) return;
        w->path[pos] = (int8_t)letter;
        go_on(w, pos, *next, placed, main + ((tile & BLANK_FLAG) ? 0 : w->points[letter]), word_mult,
              cross_total, leftward, leftmost, blanks);
        return;
    }
    if (placed >= w->rack_size) return;
    int blank = w->letters;
    uint32_t symbols = node.mask & ((1u << blank) - 1u);   /* the node's letters: its first edges */
    uint32_t letters = symbols & w->masks[pos] & (blanks && w->counts[blank] ? 0xFFFFFFFFu : w->available);
    int lm = w->lm[pos], wm = w->wm[pos], cs = w->cross[pos];
    const Arc *edges = g->arcs + node.first;
    uint32_t available = w->available;
    while (letters) {
        int letter = CTZ(letters);
        letters &= letters - 1;
        const Arc *next = edges + POPCOUNT(symbols & ((1u << letter) - 1u));
        int value = w->points[letter] * lm;
        w->path[pos] = (int8_t)letter;
        if (!blanks || w->counts[letter]) {   /* a natural tile first, else a blank */
            if (--w->counts[letter] == 0) w->available = available & ~(1u << letter);
            go_on(w, pos, *next, placed + 1, main + value, word_mult * wm,
                  cross_total + (cs >= 0 ? (cs + value) * wm : 0), leftward, leftmost, blanks);
            w->counts[letter]++;
            w->available = available;
        } else {
            w->counts[blank]--;
            w->blank_letters[w->blanks_played++] = letter;
            go_on(w, pos, *next, placed + 1, main + value, word_mult * wm,
                  cross_total + (cs >= 0 ? (cs + value) * wm : 0), leftward, leftmost, blanks);
            w->blanks_played--;
            w->counts[blank]++;
        }
    }
}

static INLINE void go_on(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total,
                         int leftward, int leftmost, int blanks) {
    const Gaddag *g = w->g;
    if (leftward) {
        int a = w->anchor_at;
        int left_open = w->open_left[pos];
        if (placed && left_open && w->right_open && accepts(node))
            record(w, pos, a, placed, main, word_mult, cross_total);
        /* Leftwards: through tiles, or onto empty squares that are not anchors (a move
         * covering an anchor further left is found from that anchor). */
        if (w->go_left[pos] && can_enter(w, node, pos - 1, placed, blanks))
            (blanks ? gen_left1 : gen_left0)(w, pos - 1, node, placed, main, word_mult, cross_total);
        if (left_open && a < SIZE - 1) {
            const Arc *turned = child(g, node, g->sep);
            if (turned && can_enter(w, *turned, a + 1, placed, blanks))
                (blanks ? gen_right1 : gen_right0)(w, a + 1, *turned, placed, main, word_mult, cross_total, pos);
        }
    } else {
        if (placed && (pos == SIZE - 1 || w->cells[pos + 1] < 0) && accepts(node))
            record(w, leftmost, pos, placed, main, word_mult, cross_total);
        if (pos < SIZE - 1 && can_enter(w, node, pos + 1, placed, blanks))
            (blanks ? gen_right1 : gen_right0)(w, pos + 1, node, placed, main, word_mult, cross_total, leftmost);
    }
}

static void gen_left0(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total) {
    gen(w, pos, node, placed, main, word_mult, cross_total, 1, 0, 0);
}

static void gen_right0(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftmost) {
    gen(w, pos, node, placed, main, word_mult, cross_total, 0, leftmost, 0);
}

static void gen_left1(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total) {
    gen(w, pos, node, placed, main, word_mult, cross_total, 1, 0, 1);
}

static void gen_right1(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftmost) {
    gen(w, pos, node, placed, main, word_mult, cross_total, 0, leftmost, 1);
}

/* An upper bound of the score of any move found from anchor ``a`` of the line (its
 * "shadow"): for each stretch of the line the move could cover (through squares where a
 * rack tile fits), the board tiles' points, and the rack's best tiles on the new squares,
 * the most valuable tile on the square that multiplies most (rearrangement inequality) —
 * or each square's most valuable fitting tile, when that is less. ``values``: the rack's
 * tile values, highest first. -1 when no move can be found from the anchor. */
/* A stretch of the line that a move could cover, as the shadow bound sees it. */
typedef struct {
    int lm[SIZE], cross_wm[SIZE], cap[SIZE];   /* per new square: letter premium, word premium of
                                                 * its cross word (0 without one), best fitting tile */
    int k, word_mult, fixed, cross_sum;        /* new squares; main word's multiplier; board tiles'
                                                 * points; cross words' board points, multiplied */
} Stretch;

static inline void stretch_add(Stretch *s, const Walk *w, int i) {
    int8_t tile = w->cells[i];
    if (tile >= 0) {
        if (!(tile & BLANK_FLAG)) s->fixed += w->points[tile & LETTER_BITS];
        return;
    }
    s->cap[s->k] = w->cap[i];
    s->lm[s->k] = w->lm[i];
    s->cross_wm[s->k] = w->cross[i] >= 0 ? w->wm[i] : 0;
    if (w->cross[i] >= 0) s->cross_sum += w->cross[i] * w->wm[i];
    s->word_mult *= w->wm[i];
    s->k++;
}

static int shadow_bound(const Walk *w, int a, const int *values) {
    int best = -1;
    for (int start = a; start >= 0; start--) {
        if (start < a && w->cells[start] < 0 && (w->anchor[start] || w->cap[start] < 0)) break;
        if (start > 0 && w->cells[start - 1] >= 0) continue;   /* the word would go on to the left */
        Stretch stretch = {.k = 0, .word_mult = 1, .fixed = 0, .cross_sum = 0};
        for (int i = start; i < a; i++) stretch_add(&stretch, w, i);
        if (stretch.k + 1 > w->rack_size) break;
        for (int end = a; end < SIZE; end++) {
            if (w->cells[end] < 0 && (w->cap[end] < 0 || stretch.k == w->rack_size)) break;
            stretch_add(&stretch, w, end);
            if (end < SIZE - 1 && w->cells[end + 1] >= 0) continue;   /* the word would go on */
            if (end == start) continue;
            /* The new tiles' part: at most the rack's best tiles on the squares that multiply
             * most, and at most each square's most valuable tile that fits there. */
            int k = stretch.k, effective[SIZE], capped = 0;
            for (int j = 0; j < k; j++) {
                effective[j] = stretch.lm[j] * (stretch.word_mult + stretch.cross_wm[j]);
                capped += effective[j] * stretch.cap[j];
            }
            for (int j = 1; j < k; j++) {  /* highest first */
                int value = effective[j], at = j;
                while (at > 0 && effective[at - 1] < value) { effective[at] = effective[at - 1]; at--; }
                effective[at] = value;
            }
            int sorted = 0;
            for (int j = 0; j < k; j++) sorted += values[j] * effective[j];
            int bound = stretch.fixed * stretch.word_mult + stretch.cross_sum +
                        (k == w->bingo_size ? w->bingo_bonus : 0) + (capped < sorted ? capped : sorted);
            if (bound > best) best = bound;
        }
    }
    return best;
}

/* Every move found from anchor ``a`` of the loaded line. When a tile is right before the
 * anchor, every such move holds the whole run of tiles ending there (the square before the
 * run is an anchor, or the edge): the walk reads the run first, from the root, then the
 * separator, and places tiles from the anchor on — rather than trying every letter on the
 * anchor before finding that the run does not follow it. */
static void walk_anchor(Walk *w, int a) {
    const Gaddag *g = w->g;
    w->anchor_at = a;
    w->right_open = a == SIZE - 1 || w->cells[a + 1] < 0;
    if (a == 0 || w->cells[a - 1] < 0) {
        (w->blanks ? gen_left1 : gen_left0)(w, a, g->root, 0, 0, 1, 0);
        return;
    }
    const Arc *node = &g->root;
    int main = 0, start = a - 1;
    for (; start >= 0 && w->cells[start] >= 0; start--) {
        int8_t tile = w->cells[start];
        node = child(g, *node, tile & LETTER_BITS);
        if (!node) return;
        w->path[start] = (int8_t)(tile & LETTER_BITS);
        if (!(tile & BLANK_FLAG)) main += w->points[tile & LETTER_BITS];
    }
    const Arc *turned = child(g, *node, g->sep);
    if (turned) (w->blanks ? gen_right1 : gen_right0)(w, a, *turned, 0, main, 1, 0, start + 1);
}

typedef struct {
    int bound, down, line, anchor;
} Unit;

static int unit_compare(const void *a, const void *b) {
    const Unit *x = (const Unit *)a, *y = (const Unit *)b;
    if (x->bound != y->bound) return y->bound - x->bound;
    if (x->down != y->down) return x->down - y->down;
    if (x->line != y->line) return x->line - y->line;
    return x->anchor - y->anchor;
}

static void load_line(Walk *w, const int8_t *tiles, const int8_t *lm, const int8_t *wm, const uint32_t *masks,
                      const int32_t *cross, int down, int line, int empty_board) {
    w->down = down;
    w->line = line;
    for (int i = 0; i < SIZE; i++) {
        int r = down ? i : line, c = down ? line : i;
        int at = r * SIZE + c;
        w->cells[i] = tiles[at];
        w->lm[i] = lm[at];
        w->wm[i] = wm[at];
        w->masks[i] = masks[down * SIZE * SIZE + at];
        w->cross[i] = cross[down * SIZE * SIZE + at];
        if (empty_board) {
            w->anchor[i] = r == SIZE / 2 && c == SIZE / 2;
            w->masks[i] = 0xFFFFFFFFu;
            w->cross[i] = -1;
        } else {
            w->anchor[i] = tiles[at] < 0 && ((r > 0 && tiles[at - SIZE] >= 0) || (r < SIZE - 1 && tiles[at + SIZE] >= 0) ||
                                             (c > 0 && tiles[at - 1] >= 0) || (c < SIZE - 1 && tiles[at + 1] >= 0));
        }
        if (w->mode == MODE_TOP) {
            int cap = w->counts[w->letters] ? 0 : -1;   /* a blank fits anywhere, worth 0 */
            for (uint32_t fits = w->available & w->masks[i]; fits; fits &= fits - 1)
                if (w->points[CTZ(fits)] > cap) cap = w->points[CTZ(fits)];
            w->cap[i] = w->masks[i] ? cap : -1;
        }
    }
    for (int i = 0; i < SIZE; i++) {
        w->open_left[i] = i == 0 || w->cells[i - 1] < 0;
        w->go_left[i] = i > 0 && (w->cells[i - 1] >= 0 || !w->anchor[i - 1]);
    }
}

static int walk_board(Walk *w, const int8_t *tiles, const int8_t *lm, const int8_t *wm, const uint32_t *masks,
                      const int32_t *cross, int directions) {
    int empty_board = 1;
    for (int i = 0; i < SIZE * SIZE; i++) if (tiles[i] >= 0) { empty_board = 0; break; }
    int values[MAX_SYMBOLS + 8], nvalues = 0;
    for (int s = 0; s <= w->letters; s++)
        for (int j = 0; j < w->counts[s] && nvalues < MAX_SYMBOLS + 7; j++)
            values[nvalues++] = s == w->letters ? 0 : w->points[s];
    for (int j = 1; j < nvalues; j++) {
        int value = values[j], at = j;
        while (at > 0 && values[at - 1] < value) { values[at] = values[at - 1]; at--; }
        values[at] = value;
    }
    /* On the empty board of a layout symmetric about its diagonal (the standard one), the
     * down moves are the across moves mirrored: walk across only, then mirror. */
    int mirrored = empty_board && directions == 3;
    for (int r = 0; r < SIZE && mirrored; r++)
        for (int c = 0; c < SIZE; c++)
            if (lm[r * SIZE + c] != lm[c * SIZE + r] || wm[r * SIZE + c] != wm[c * SIZE + r]) { mirrored = 0; break; }
    Unit *units = NULL;
    int nunits = 0;
    if (w->mode == MODE_TOP) {
        units = malloc(2 * SIZE * SIZE * sizeof(Unit));
        if (!units) return -1;
    }
    for (int down = 0; down < (mirrored ? 1 : 2); down++) {
        if (!((directions >> down) & 1)) continue;
        for (int line = 0; line < SIZE; line++) {
            load_line(w, tiles, lm, wm, masks, cross, down, line, empty_board);
            for (int a = 0; a < SIZE; a++) {
                if (!w->anchor[a] || !w->masks[a]) continue;
                if (w->mode == MODE_TOP) {
                    int bound = shadow_bound(w, a, values);
                    if (bound >= 0) units[nunits++] = (Unit){bound, down, line, a};
                    continue;
                }
                walk_anchor(w, a);
            }
        }
    }
    if (w->mode == MODE_TOP) {
        qsort(units, nunits, sizeof(Unit), unit_compare);
        int loaded_down = -1, loaded_line = -1;
        for (int u = 0; u < nunits; u++) {
            if (units[u].bound < w->best) break;   /* no move from here on can reach the best score */
            if (units[u].down != loaded_down || units[u].line != loaded_line) {
                load_line(w, tiles, lm, wm, masks, cross, units[u].down, units[u].line, empty_board);
                loaded_down = units[u].down;
                loaded_line = units[u].line;
            }
            walk_anchor(w, units[u].anchor);
        }
        free(units);
    }
    if (mirrored) {
        int64_t across = w->n;
        for (int64_t i = 0; w->mode != MODE_COUNT && i < across && across + i < w->room; i++) {
            int32_t *row = w->info + (across + i) * I_COLUMNS;
            memcpy(row, w->info + i * I_COLUMNS, I_COLUMNS * sizeof(int32_t));
            row[I_DOWN] = 1;
            row[I_ROW] = w->info[i * I_COLUMNS + I_COL];
            row[I_COL] = w->info[i * I_COLUMNS + I_ROW];
            memcpy(w->words + (across + i) * SIZE, w->words + i * SIZE, SIZE);
        }
        w->n = 2 * across;
    }
    return 0;
}

int walk_moves(const Gaddag *g, const int8_t *tiles, const int8_t *lm, const int8_t *wm, const int32_t *points,
               const int32_t *counts, const uint32_t *masks, const int32_t *cross, int mode, int directions,
               int bingo_size, int bingo_bonus, int32_t *info, int8_t *words, int64_t room, int64_t *found,
               int32_t *best) {
    Walk *w = calloc(1, sizeof(Walk));
    if (!w) return -1;
    w->g = g;
    w->letters = g->sep;
    w->points = points;
    w->bingo_size = bingo_size;
    w->bingo_bonus = bingo_bonus;
    for (int s = 0; s <= g->sep; s++) {
        w->counts[s] = counts[s];
        w->natural[s] = counts[s];
        w->rack_size += counts[s];
        if (s < g->sep && counts[s]) w->available |= 1u << s;
    }
    w->blanks = counts[g->sep];
    w->mode = mode;
    w->info = info;
    w->words = words;
    w->room = room;
    w->best = mode == MODE_TOP ? 0 : -1;
    int status = walk_board(w, tiles, lm, wm, masks, cross, directions);
    *found = w->n;
    *best = w->n ? w->best : 0;
    free(w);
    return status;
}
