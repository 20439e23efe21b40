/*
 * The move generator's C code: what its three files share.
 *
 *   gaddag_build.c  the GADDAG (and the word DAWG) built from the words;
 *   gaddag_walk.c   the cross-checks of a board, and the walk that finds the moves;
 *   gaddag.c        the Python module lexicon._gaddag that exposes them.
 *
 * The GADDAG, minimised, in one array of arcs (8 bytes each). A node is a pair
 * (mask, first): bit L of mask set when the node has an edge for symbol L (letters
 * 0..S-1, the separator S), bit 31 set when the path to the node is a whole GADDAG
 * string ("accepts"); its edges are the arcs first, first + 1, ... in symbol order, so
 * the edge for L is arcs[first + popcount(mask below L)]; each arc holds the pair of the
 * node it leads to. A step of the walk is one memory read. The root's pair is kept apart.
 * For a word w of n letters and each split k = 1..n, the GADDAG holds
 * rev(w[0..k-1]) + (k < n ? SEP + w[k..n-1] : ""). A move is found from an anchor (an
 * empty square next to a tile) by reading the word leftwards from the anchor, then, after
 * the separator, rightwards from the square after it.
 *
 * Tiles: letter codes 0..S-1; a blank standing for L is L | 64; -1 an empty square; the
 * rack's blank is the code S.
 */
#ifndef DUPLICADA_GADDAG_H
#define DUPLICADA_GADDAG_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(_MSC_VER)
#include <intrin.h>
#define POPCOUNT(x) ((int)__popcnt(x))
static inline int ctz32(uint32_t x) { unsigned long at; _BitScanForward(&at, x); return (int)at; }
static inline int ctz64(uint64_t x) { unsigned long at; _BitScanForward64(&at, x); return (int)at; }
static inline int clz64(uint64_t x) { unsigned long at; _BitScanReverse64(&at, x); return 63 - (int)at; }
#define CTZ(x) ctz32(x)
#define CTZ64(x) ctz64(x)
#define CLZ64(x) clz64(x)
#else
#define CTZ(x) __builtin_ctz(x)
#define CTZ64(x) __builtin_ctzll(x)
#define CLZ64(x) __builtin_clzll(x)
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__POPCNT__)
/* The walk counts bits at every step (the edge for a letter is found by the bits below
 * it): with GCC on x86-64 the code is compiled for the processor's POPCNT instruction
 * (every x86-64 processor since 2008; the MSVC build above assumes it too), about a tenth
 * fewer instructions; the module refuses to load on a processor without it
 * (gaddag.c, PyInit__gaddag), so the pure-Python walker is used there. */
#pragma GCC target("popcnt")
#define GADDAG_NEEDS_POPCNT 1
#define POPCOUNT(x) __builtin_popcount(x)
#elif defined(__POPCNT__)
#define POPCOUNT(x) __builtin_popcount(x)
#else
/* Without the processor's instruction in the target (the default for x86-64), the
 * compiler's __builtin_popcount is a library call: this inline form is faster. */
static inline int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#define POPCOUNT(x) popcount32(x)
#endif
#endif

#if defined(__GNUC__)
#define INLINE inline __attribute__((always_inline))
#else
#define INLINE __forceinline
#endif

#define SIZE 15
#define MAX_WORD 15
#define BLANK_FLAG 64
#define LETTER_BITS 63
#define FINAL_BIT 0x80000000u
#define MAX_SYMBOLS 31

typedef struct {
    uint32_t mask, first;   /* a node: its symbols (and FINAL_BIT), its first arc */
} Arc;

typedef struct {
    const Arc *arcs;
    uint32_t count;
    Arc root;
    int sep;
} Gaddag;

/* The node reached from ``node`` by ``symbol``, or NULL. */
static inline const Arc *child(const Gaddag *g, Arc node, int symbol) {
    if (!((node.mask >> symbol) & 1u)) return NULL;
    return &g->arcs[node.first + POPCOUNT(node.mask & ((1u << symbol) - 1u))];
}

static inline int accepts(Arc node) { return (node.mask & FINAL_BIT) != 0; }

/* --- gaddag_build.c ------------------------------------------------------------------ */

typedef struct {
    uint32_t *mask, *first, *target;
    size_t nodes, node_room, first_room, edges, edge_room;
    uint32_t *table;   /* open addressing: node number + 1, 0 empty */
    size_t table_size;
} Builder;

/* Build the minimal automaton of ``words`` (each word's letter codes followed by 255):
 * their GADDAG strings, or with ``plain`` the words themselves. 0, -1 when memory runs
 * out, -2 for a letter outside the alphabet or a word longer than 15. Free with
 * builder_free, even after an error. */
int gaddag_build(const uint8_t *words, size_t size, int sep, int plain, Builder *b, uint32_t *root);

/* The arcs (two uint32 each) of a built GADDAG, laid out breadth first; NULL when memory
 * runs out. ``root_first``: where the root's arcs start. */
uint32_t *gaddag_arcs(const Builder *b, uint32_t root, uint32_t *root_first);

void builder_free(Builder *b);

/* --- gaddag_walk.c ------------------------------------------------------------------- */

enum { MODE_ALL = 0, MODE_TOP = 1, MODE_COUNT = 2 };
enum { I_SCORE, I_DOWN, I_ROW, I_COL, I_LENGTH, I_PLACED, I_COLUMNS };

/* The cross-check of one empty square for moves in ``direction`` (0 across: the
 * perpendicular word is vertical; 1 down): the letters that make a word with the
 * perpendicular tiles (all bits when there are none) and those tiles' points (-1 then). */
void cross_check(const Gaddag *g, const int8_t *tiles, const int32_t *points, int direction, int row, int col,
                 uint32_t *mask_out, int32_t *score_out);

/* Every legal move of the rack ``counts`` (per letter, the blank last) on ``tiles``, in
 * ``mode`` and ``directions`` (1 across, 2 down, 3 both), written to ``info``/``words``
 * while there is room (``room`` rows); ``found``: how many moves (in MODE_TOP, of the
 * best score, ``best``). 0, or -1 when memory runs out. */
int walk_moves(const Gaddag *g, const int8_t *tiles, const int8_t *lm, const int8_t *wm, const int32_t *points,
               const int32_t *counts, const uint32_t *masks, const int32_t *cross, int mode, int directions,
               int bingo_size, int bingo_bonus, int32_t *info, int8_t *words, int64_t room, int64_t *found,
               int32_t *best);

#endif
