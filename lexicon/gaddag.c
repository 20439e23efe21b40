/*
 * The compiled move generator: a GADDAG (Gordon 1994) built from the word list, the
 * cross-checks of a board, and the walk that finds every legal move (rules I.2).
 *
 * Python side: lexicon/gaddag.py (the GADDAG, built and stored in the compiled lexicon)
 * and lexicon/movegen.py (generate, generate_top, count_moves, the cross-check cache).
 * lexicon/movegen.py's pure-Python walker is the reference these functions must match:
 * same moves, same scores (the tests compare them on random boards and racks).
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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
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
#if defined(__POPCNT__)
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

/* ------------------------------------------------------------------------------------
 * Building: the GADDAG strings of every word, sorted, fed to the incremental
 * construction of a minimal acyclic automaton from sorted input (Daciuk, Mihov,
 * Watson & Watson 2000). To keep memory low the strings are made and sorted one first
 * symbol at a time (a string's first symbol is the last letter of the word's prefix).
 * ------------------------------------------------------------------------------------ */

typedef struct { uint64_t hi, lo; } Key; /* up to 16 symbols, each symbol + 1 in a byte */

static int key_compare(const void *a, const void *b) {
    const Key *x = (const Key *)a, *y = (const Key *)b;
    if (x->hi != y->hi) return x->hi < y->hi ? -1 : 1;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return 0;
}

/* LSD radix sort of the keys on bytes ``from``..15 (8 bits a pass; a pass where every key
 * has the same byte is skipped); ``spare`` has room for ``n`` keys. Returns where the sorted
 * keys are: ``keys`` or ``spare``. */
static Key *radix_sort(Key *keys, Key *spare, size_t n, int from) {
    for (int byte = 15; byte >= from; byte--) {
        size_t count[256] = {0};
        int shift = 8 * (7 - (byte & 7));
        if (byte < 8) for (size_t i = 0; i < n; i++) count[(keys[i].hi >> shift) & 0xFF]++;
        else for (size_t i = 0; i < n; i++) count[(keys[i].lo >> shift) & 0xFF]++;
        int constant = 0;
        for (int d = 0; d < 256; d++) if (count[d] == n) constant = 1;
        if (constant || n == 0) continue;
        size_t at = 0;
        for (int d = 0; d < 256; d++) { size_t c = count[d]; count[d] = at; at += c; }
        if (byte < 8) for (size_t i = 0; i < n; i++) spare[count[(keys[i].hi >> shift) & 0xFF]++] = keys[i];
        else for (size_t i = 0; i < n; i++) spare[count[(keys[i].lo >> shift) & 0xFF]++] = keys[i];
        Key *swap = keys; keys = spare; spare = swap;
    }
    return keys;
}

/* Symbols in the key (its length). */
static inline int key_length_of(const Key *key) {
    if (key->lo) return 16 - CTZ64(key->lo) / 8;
    return key->hi ? 8 - CTZ64(key->hi) / 8 : 0;
}

/* Symbols the two keys share from the start. */
static inline int common_prefix(const Key *a, const Key *b) {
    uint64_t x = a->hi ^ b->hi;
    if (x) return CLZ64(x) / 8;
    x = a->lo ^ b->lo;
    return x ? 8 + CLZ64(x) / 8 : 16;
}

static inline int key_symbol(const Key *key, int i) { /* symbol + 1, 0 past the end */
    uint64_t word = i < 8 ? key->hi : key->lo;
    return (int)((word >> (8 * (7 - (i & 7)))) & 0xFF);
}

static inline void key_set(Key *key, int i, int symbol) {
    uint64_t value = (uint64_t)(symbol + 1) << (8 * (7 - (i & 7)));
    if (i < 8) key->hi |= value; else key->lo |= value;
}

typedef struct {
    uint32_t *mask, *first, *target;
    size_t nodes, node_room, first_room, edges, edge_room;
    uint32_t *table;   /* open addressing: node number + 1, 0 empty */
    size_t table_size;
} Builder;

typedef struct {            /* a node on the path of the last string, not yet registered */
    uint32_t mask;          /* symbols with an edge, and FINAL_BIT */
    int count;
    uint32_t targets[MAX_SYMBOLS + 1];
} Open;

static uint64_t node_hash(uint32_t mask, const uint32_t *targets, int count) {
    uint64_t h = 1469598103934665603ull ^ mask;
    for (int i = 0; i < count; i++) {
        h ^= targets[i];
        h *= 1099511628211ull;
        h ^= h >> 29;
    }
    return h * 0x9E3779B97F4A7C15ull;
}

static int grow(void **array, size_t *room, size_t need, size_t item) {
    if (need <= *room) return 0;
    size_t bigger = *room ? *room : 1024;
    while (bigger < need) bigger *= 2;
    void *moved = realloc(*array, bigger * item);
    if (!moved) return -1;
    *array = moved;
    *room = bigger;
    return 0;
}

static int table_insert(Builder *b, uint32_t node);

static int table_grow(Builder *b) {
    size_t old_size = b->table_size;
    uint32_t *old = b->table;
    b->table_size = old_size ? old_size * 2 : (1u << 16);
    b->table = calloc(b->table_size, sizeof(uint32_t));
    if (!b->table) return -1;
    for (size_t i = 0; i < old_size; i++)
        if (old[i] && table_insert(b, old[i] - 1) < 0) return -1;
    free(old);
    return 0;
}

static int table_insert(Builder *b, uint32_t node) {
    uint32_t mask = b->mask[node];
    int count = POPCOUNT(mask & ~FINAL_BIT);
    size_t slot = node_hash(mask, b->target + b->first[node], count) & (b->table_size - 1);
    while (b->table[slot]) slot = (slot + 1) & (b->table_size - 1);
    b->table[slot] = node + 1;
    return 0;
}

/* The registered node equal to ``open`` (same finality, same edges), registering it if new;
 * -1 when memory runs out. */
static int64_t register_node(Builder *b, const Open *open) {
    if ((b->nodes + 1) * 2 > b->table_size && table_grow(b) < 0) return -1;
    uint64_t h = node_hash(open->mask, open->targets, open->count);
    size_t slot = h & (b->table_size - 1);
    while (b->table[slot]) {
        uint32_t node = b->table[slot] - 1;
        if (b->mask[node] == open->mask &&
            memcmp(b->target + b->first[node], open->targets, open->count * sizeof(uint32_t)) == 0)
            return node;
        slot = (slot + 1) & (b->table_size - 1);
    }
    if (grow((void **)&b->mask, &b->node_room, b->nodes + 1, sizeof(uint32_t)) < 0) return -1;
    if (grow((void **)&b->first, &b->first_room, b->nodes + 1, sizeof(uint32_t)) < 0) return -1;
    if (grow((void **)&b->target, &b->edge_room, b->edges + open->count, sizeof(uint32_t)) < 0) return -1;
    uint32_t node = (uint32_t)b->nodes++;
    b->mask[node] = open->mask;
    b->first[node] = (uint32_t)b->edges;
    memcpy(b->target + b->edges, open->targets, open->count * sizeof(uint32_t));
    b->edges += open->count;
    b->table[slot] = node + 1;
    return node;
}

/* Register the open nodes deeper than ``depth``, linking each to its parent. */
static int close_path(Builder *b, Open *path, int *length, int depth) {
    while (*length > depth) {
        int64_t node = register_node(b, &path[*length]);
        if (node < 0) return -1;
        Open *parent = &path[*length - 1];
        parent->targets[parent->count - 1] = (uint32_t)node;
        (*length)--;
    }
    return 0;
}

/* words: each word's letter codes followed by 255. ``plain``: the words themselves (a
 * DAWG, the word graph of lexicon.lexicon), else their GADDAG strings. */
static int build_automaton(const uint8_t *words, Py_ssize_t size, int sep, int plain, Builder *b, uint32_t *root) {
    /* The strings of each first symbol: where they start (the offset of that symbol in
     * ``words``: the last letter of the prefix, or a word's first letter), bucketed. */
    size_t counts[MAX_SYMBOLS + 1] = {0}, offsets[MAX_SYMBOLS + 2] = {0};
    Py_ssize_t start = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (words[i] == 255) { start = i + 1; continue; }
        if (words[i] >= sep || i - start >= MAX_WORD) return -2;
        if (!plain || i == start) counts[words[i]]++;
    }
    if (size && words[size - 1] != 255) return -2;
    size_t largest = 0;
    for (int s = 0; s < sep; s++) {
        if (counts[s] > largest) largest = counts[s];
        offsets[s + 1] = offsets[s] + counts[s];
    }
    uint32_t *splits = malloc((offsets[sep] ? offsets[sep] : 1) * sizeof(uint32_t));
    Key *buffer = malloc(2 * (largest ? largest : 1) * sizeof(Key));
    Open *path = calloc(MAX_WORD + 2, sizeof(Open));
    if (!splits || !buffer || !path || size > (Py_ssize_t)UINT32_MAX) {
        free(splits); free(buffer); free(path);
        return -1;
    }
    size_t fill[MAX_SYMBOLS + 1];
    memcpy(fill, offsets, sizeof fill);
    start = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        if (words[i] == 255) { start = i + 1; continue; }
        if (!plain || i == start) splits[fill[words[i]]++] = (uint32_t)i;
    }
    Key *keys = buffer;
    int length = 0;           /* open nodes path[1..length] below the root path[0] */
    Key previous = {0, 0};
    int previous_length = 0;
    for (int first_symbol = 0; first_symbol < sep; first_symbol++) {
        size_t n = 0;
        for (size_t at_split = offsets[first_symbol]; at_split < offsets[first_symbol + 1]; at_split++) {
            Py_ssize_t split = splits[at_split], begin = split, end = split;
            while (begin > 0 && words[begin - 1] != 255) begin--;
            while (words[end] != 255) end++;
            Key key = {0, 0};
            int at = 0;
            if (plain) {
                for (Py_ssize_t j = begin; j < end; j++) key_set(&key, at++, words[j]);
            } else {
                /* rev(w[..split]) SEP w[split + 1..] */
                for (Py_ssize_t j = split; j >= begin; j--) key_set(&key, at++, words[j]);
                if (split + 1 < end) {
                    key_set(&key, at++, sep);
                    for (Py_ssize_t j = split + 1; j < end; j++) key_set(&key, at++, words[j]);
                }
            }
            keys[n++] = key;
        }
        Key *sorted = radix_sort(buffer, buffer + largest, n, 1);  /* byte 0 is the bucket's */
        for (size_t index = 0; index < n; index++) {
            const Key *key = &sorted[index];
            if (index && key_compare(key, &previous) == 0) continue; /* a word given twice */
            int key_length = key_length_of(key);
            int common = common_prefix(key, &previous);
            if (common > key_length) common = key_length;
            if (common > previous_length) common = previous_length;
            if (close_path(b, path, &length, common) < 0) { free(buffer); free(splits); free(path); return -1; }
            for (int d = common; d < key_length; d++) {
                int symbol = key_symbol(key, d) - 1;
                Open *parent = &path[d];
                parent->mask |= 1u << symbol;
                parent->targets[parent->count++] = 0;  /* set when the child is registered */
                memset(&path[d + 1], 0, sizeof(Open));
                length = d + 1;
            }
            path[key_length].mask |= FINAL_BIT;
            previous = *key;
            previous_length = key_length;
        }
    }
    free(buffer);
    free(splits);
    if (close_path(b, path, &length, 0) < 0) { free(path); return -1; }
    int64_t top = register_node(b, &path[0]);
    free(path);
    if (top < 0) return -1;
    *root = (uint32_t)top;
    return 0;
}

/* The arcs: for each edge, the (mask, first) pair of the node it leads to. Nodes' blocks of
 * arcs are laid out breadth first from the root, so that the first levels, which every
 * walk goes through, share a few cache lines. ``root_first``: where the root's block is. */
static uint32_t *arcs_of(const Builder *b, uint32_t root, uint32_t *root_first) {
    uint32_t *arcs = malloc((b->edges ? b->edges : 1) * 2 * sizeof(uint32_t));
    uint32_t *placed = malloc((b->nodes ? b->nodes : 1) * sizeof(uint32_t));   /* new first of each node */
    uint32_t *queue = malloc((b->nodes ? b->nodes : 1) * sizeof(uint32_t));
    uint8_t *seen = calloc(b->nodes ? b->nodes : 1, 1);
    if (!arcs || !placed || !queue || !seen) {
        free(arcs); free(placed); free(queue); free(seen);
        return NULL;
    }
    size_t head = 0, tail = 0, next = 0;
    queue[tail++] = root;
    seen[root] = 1;
    while (head < tail) {
        uint32_t node = queue[head++];
        int count = POPCOUNT(b->mask[node] & ~FINAL_BIT);
        placed[node] = (uint32_t)next;
        next += count;
        for (int i = 0; i < count; i++) {
            uint32_t target = b->target[b->first[node] + i];
            if (!seen[target]) { seen[target] = 1; queue[tail++] = target; }
        }
    }
    /* Nodes no path reaches (none in a minimal automaton) keep no arcs. */
    for (size_t i = 0; i < tail; i++) {
        uint32_t node = queue[i];
        int count = POPCOUNT(b->mask[node] & ~FINAL_BIT);
        for (int k = 0; k < count; k++) {
            uint32_t target = b->target[b->first[node] + k];
            arcs[2 * ((size_t)placed[node] + k)] = b->mask[target];
            arcs[2 * ((size_t)placed[node] + k) + 1] = placed[target];
        }
    }
    *root_first = placed[root];
    free(placed); free(queue); free(seen);
    return arcs;
}

static PyObject *py_build(PyObject *self, PyObject *args) {
    Py_buffer words;
    int sep, plain = 0;
    if (!PyArg_ParseTuple(args, "y*i|p", &words, &sep, &plain)) return NULL;
    if (sep < 1 || sep > MAX_SYMBOLS - 1) {
        PyBuffer_Release(&words);
        PyErr_SetString(PyExc_ValueError, "alfabeto de más de 30 letras");
        return NULL;
    }
    Builder b;
    memset(&b, 0, sizeof b);
    uint32_t root = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = table_grow(&b);
    if (status == 0) status = build_automaton((const uint8_t *)words.buf, words.len, sep, plain, &b, &root);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&words);
    PyObject *result = NULL;
    uint32_t root_first = 0;
    uint32_t *arcs = status == 0 && !plain ? arcs_of(&b, root, &root_first) : NULL;
    if (status == -2) {
        PyErr_SetString(PyExc_ValueError, "palabra con una letra fuera del alfabeto o de más de 15 fichas");
    } else if (status < 0 || (!plain && !arcs)) {
        PyErr_NoMemory();
    } else if (plain) {
        result = Py_BuildValue("y#y#y#I", (const char *)b.mask, (Py_ssize_t)(b.nodes * 4), (const char *)b.first,
                               (Py_ssize_t)(b.nodes * 4), (const char *)b.target, (Py_ssize_t)(b.edges * 4), root);
    } else {
        result = Py_BuildValue("y#IIn", (const char *)arcs, (Py_ssize_t)(b.edges * 8), b.mask[root], root_first,
                               (Py_ssize_t)b.nodes);
    }
    free(arcs);
    free(b.mask); free(b.first); free(b.target); free(b.table);
    return result;
}

/* ------------------------------------------------------------------------------------
 * The GADDAG as the walk sees it.
 * ------------------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------------------
 * Cross-checks: for each empty square and each direction of the main word, the letters
 * that make a word of the perpendicular tiles through it (a mask; all letters when there
 * are none) and those tiles' points (-1 when there are none).
 * Arrays of 2 x 15 x 15: [direction][row][col], direction 0 across (the perpendicular
 * word is vertical), 1 down.
 * ------------------------------------------------------------------------------------ */

static void cross_check(const Gaddag *g, const int8_t *tiles, const int32_t *points, int direction, int row,
                        int col, uint32_t *mask_out, int32_t *score_out) {
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

enum { MODE_ALL = 0, MODE_TOP = 1, MODE_COUNT = 2 };
enum { I_SCORE, I_DOWN, I_ROW, I_COL, I_LENGTH, I_PLACED, I_COLUMNS };

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
    int anchor_at;               /* the anchor being walked from */
    /* the rack */
    int counts[MAX_SYMBOLS + 1];
    int natural[MAX_SYMBOLS + 1]; /* the rack before the walk spends it */
    int rack_size, blanks;
    uint32_t available;          /* letters the rack can still play */
    /* the word */
    int8_t path[SIZE];           /* letter at each square of the line */
    uint8_t fresh[SIZE];         /* 1 where the move places a tile */
    /* the output */
    int mode;
    int32_t *info;
    int8_t *words;
    int64_t room, n;
    int32_t best;
} Walk;

static void update_available(Walk *w, int letter) {
    if (w->counts[letter]) w->available |= 1u << letter; else w->available &= ~(1u << letter);
}

/* One move: ``total`` points, the blanks at the new tiles of ``blanked`` (bit j: new tile j). */
static void emit(Walk *w, int start, int length, int placed, int total, const int *news, uint32_t blanked) {
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
        memcpy(word, w->path + start, length);
        memset(word + length, 0, SIZE - length);
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

static void record(Walk *w, int start, int end, int placed, int main, int word_mult, int cross_total) {
    int length = end - start + 1;
    if (length < 2) return;
    if (w->down && placed == 1) {
        /* A one-tile move that forms an across word too is reported as the across move. */
        for (int i = start; i <= end; i++)
            if (w->fresh[i]) { if (w->cross[i] >= 0) return; break; }
    }
    int score = main * word_mult + cross_total + (placed == w->bingo_size ? w->bingo_bonus : 0);
    if (!w->blanks) {
        emit(w, start, length, placed, score, NULL, 0);
        return;
    }
    Blanks b;
    b.k = 0;
    b.owed = 0;
    for (int i = start; i <= end; i++) {
        if (!w->fresh[i]) continue;
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
                         int leftward, int leftmost);

/* Place or follow a tile at ``pos``, coming from ``node``. */
static void gen(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total, int leftward,
                int leftmost) {
    const Gaddag *g = w->g;
    int8_t tile = w->cells[pos];
    if (tile >= 0) {
        int letter = tile & LETTER_BITS;
        const Arc *next = child(g, node, letter);
        if (!next) return;
        w->path[pos] = (int8_t)letter;
        w->fresh[pos] = 0;
        go_on(w, pos, *next, placed, main + ((tile & BLANK_FLAG) ? 0 : w->points[letter]), word_mult,
              cross_total, leftward, leftmost);
        return;
    }
    if (placed >= w->rack_size) return;
    uint32_t symbols = node.mask & ((1u << w->letters) - 1u);   /* the node's letters: its first edges */
    uint32_t letters = symbols & w->masks[pos] & (w->counts[w->letters] ? 0xFFFFFFFFu : w->available);
    int lm = w->lm[pos], wm = w->wm[pos], cs = w->cross[pos];
    const Arc *edges = g->arcs + node.first;
    while (letters) {
        int letter = CTZ(letters);
        letters &= letters - 1;
        const Arc *next = edges + POPCOUNT(symbols & ((1u << letter) - 1u));
        int spent = w->counts[letter] ? letter : w->letters;   /* a natural tile first, else a blank */
        w->counts[spent]--;
        if (spent != w->letters) update_available(w, spent);
        int value = w->points[letter] * lm;
        w->path[pos] = (int8_t)letter;
        w->fresh[pos] = 1;
        go_on(w, pos, *next, placed + 1, main + value, word_mult * wm,
              cross_total + (cs >= 0 ? (cs + value) * wm : 0), leftward, leftmost);
        w->counts[spent]++;
        if (spent != w->letters) update_available(w, spent);
    }
    w->fresh[pos] = 0;
}

static INLINE void go_on(Walk *w, int pos, Arc node, int placed, int main, int word_mult, int cross_total,
                         int leftward, int leftmost) {
    const Gaddag *g = w->g;
    if (leftward) {
        int a = w->anchor_at;
        int left_open = pos == 0 || w->cells[pos - 1] < 0;
        int right_open = a == SIZE - 1 || w->cells[a + 1] < 0;
        if (placed && left_open && right_open && accepts(node)) record(w, pos, a, placed, main, word_mult, cross_total);
        /* Leftwards: through tiles, or onto empty squares that are not anchors (a move
         * covering an anchor further left is found from that anchor). */
        if (pos > 0 && (w->cells[pos - 1] >= 0 || !w->anchor[pos - 1]))
            gen(w, pos - 1, node, placed, main, word_mult, cross_total, 1, leftmost);
        if (left_open && a < SIZE - 1) {
            const Arc *turned = child(g, node, g->sep);
            if (turned) gen(w, a + 1, *turned, placed, main, word_mult, cross_total, 0, pos);
        }
    } else {
        if (placed && (pos == SIZE - 1 || w->cells[pos + 1] < 0) && accepts(node))
            record(w, leftmost, pos, placed, main, word_mult, cross_total);
        if (pos < SIZE - 1) gen(w, pos + 1, node, placed, main, word_mult, cross_total, 0, leftmost);
    }
}

/* An upper bound of the score of any move found from anchor ``a`` of the line (its
 * "shadow"): for each stretch of the line the move could cover, the board tiles' points,
 * and the rack's best tiles on the new squares, the most valuable tile on the square
 * that multiplies most (rearrangement inequality). ``values``: the rack's tile values,
 * highest first. -1 when no move can be found from the anchor. */
static int shadow_bound(const Walk *w, int a, const int *values) {
    int best = -1;
    for (int start = a; start >= 0; start--) {
        if (start < a && w->cells[start] < 0 && (w->anchor[start] || !w->masks[start])) break;
        if (start > 0 && w->cells[start - 1] >= 0) continue;   /* the word would go on to the left */
        int empties_left = 0, board_left = 0;
        for (int i = start; i < a; i++) {
            if (w->cells[i] < 0) empties_left++;
            else if (!(w->cells[i] & BLANK_FLAG)) board_left += w->points[w->cells[i] & LETTER_BITS];
        }
        if (empties_left + 1 > w->rack_size) break;
        int coefficients_lm[SIZE], coefficients_wm[SIZE], k = 0, word_mult = 1, fixed = board_left, cross_sum = 0;
        for (int i = start; i < a; i++)
            if (w->cells[i] < 0) {
                coefficients_lm[k] = w->lm[i];
                coefficients_wm[k] = w->cross[i] >= 0 ? w->wm[i] : 0;
                if (w->cross[i] >= 0) cross_sum += w->cross[i] * w->wm[i];
                word_mult *= w->wm[i];
                k++;
            }
        for (int end = a; end < SIZE; end++) {
            int8_t tile = w->cells[end];
            if (tile < 0) {
                if (!w->masks[end] || k == w->rack_size) break;
                coefficients_lm[k] = w->lm[end];
                coefficients_wm[k] = w->cross[end] >= 0 ? w->wm[end] : 0;
                if (w->cross[end] >= 0) cross_sum += w->cross[end] * w->wm[end];
                word_mult *= w->wm[end];
                k++;
            } else if (!(tile & BLANK_FLAG)) {
                fixed += w->points[tile & LETTER_BITS];
            }
            if (end < SIZE - 1 && w->cells[end + 1] >= 0) continue;   /* the word would go on */
            if (end == start) continue;
            int effective[SIZE];
            for (int j = 0; j < k; j++) effective[j] = coefficients_lm[j] * (word_mult + coefficients_wm[j]);
            for (int j = 1; j < k; j++) {  /* highest first */
                int value = effective[j], at = j;
                while (at > 0 && effective[at - 1] < value) { effective[at] = effective[at - 1]; at--; }
                effective[at] = value;
            }
            int bound = fixed * word_mult + cross_sum + (k == w->bingo_size ? w->bingo_bonus : 0);
            for (int j = 0; j < k; j++) bound += values[j] * effective[j];
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
    if (a == 0 || w->cells[a - 1] < 0) {
        gen(w, a, g->root, 0, 0, 1, 0, 1, a);
        return;
    }
    const Arc *node = &g->root;
    int main = 0, start = a - 1;
    for (; start >= 0 && w->cells[start] >= 0; start--) {
        int8_t tile = w->cells[start];
        node = child(g, *node, tile & LETTER_BITS);
        if (!node) return;
        w->path[start] = (int8_t)(tile & LETTER_BITS);
        w->fresh[start] = 0;
        if (!(tile & BLANK_FLAG)) main += w->points[tile & LETTER_BITS];
    }
    const Arc *turned = child(g, *node, g->sep);
    if (turned) gen(w, a, *turned, 0, main, 1, 0, 0, start + 1);
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

/* ------------------------------------------------------------------------------------
 * Python entry points.
 * ------------------------------------------------------------------------------------ */

typedef struct {
    Py_buffer arcs;
} GaddagBuffers;

/* gaddag: (arcs, root mask, root first, separator), as lexicon.gaddag.Gaddag.arguments. */
static int gaddag_from(PyObject *tuple, GaddagBuffers *buffers, Gaddag *g) {
    unsigned int root_mask, root_first;
    int sep;
    if (!PyArg_ParseTuple(tuple, "y*IIi", &buffers->arcs, &root_mask, &root_first, &sep)) return -1;
    g->arcs = buffers->arcs.buf;
    g->count = (uint32_t)(buffers->arcs.len / 8);
    g->root.mask = root_mask;
    g->root.first = root_first;
    g->sep = sep;
    if (buffers->arcs.len % 8 || sep < 1 || sep > MAX_SYMBOLS - 1) {
        PyBuffer_Release(&buffers->arcs);
        PyErr_SetString(PyExc_ValueError, "GADDAG incoherente");
        return -1;
    }
    return 0;
}

static void gaddag_release(GaddagBuffers *buffers) { PyBuffer_Release(&buffers->arcs); }

/* NULL when the node's symbols are in the alphabet and its arcs in the array. */
static const char *node_problem(const Gaddag *g, Arc node) {
    uint32_t symbols = node.mask & ~FINAL_BIT;
    if (symbols >> (g->sep + 1)) return "símbolo fuera del alfabeto";
    if ((uint64_t)node.first + POPCOUNT(symbols) > g->count) return "aristas fuera del grafo";
    return NULL;
}

/* Check the arrays once (when a lexicon is loaded): every edge inside, every node's
 * edges inside; so that the walk can trust them. */
static PyObject *py_check(PyObject *self, PyObject *args) {
    PyObject *gaddag_tuple;
    if (!PyArg_ParseTuple(args, "O!", &PyTuple_Type, &gaddag_tuple)) return NULL;
    GaddagBuffers buffers;
    Gaddag g;
    if (gaddag_from(gaddag_tuple, &buffers, &g) < 0) return NULL;
    const char *problem = node_problem(&g, g.root);
    for (uint32_t arc = 0; arc < g.count && !problem; arc++) problem = node_problem(&g, g.arcs[arc]);
    gaddag_release(&buffers);
    if (problem) {
        PyErr_SetString(PyExc_ValueError, problem);
        return NULL;
    }
    Py_RETURN_NONE;
}

static int buffer_size(Py_buffer *buffer, Py_ssize_t expected, const char *name) {
    if (buffer->len != expected) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, se esperaban %zd", name, buffer->len, expected);
        return -1;
    }
    return 0;
}

/* cross_checks(gaddag, tiles, points, masks_out, cross_out, squares)
 * squares: None for every square, else bytes of row, col pairs: the squares whose tiles
 * are new; the squares whose cross-checks they change are recomputed. */
static PyObject *py_cross_checks(PyObject *self, PyObject *args) {
    PyObject *gaddag_tuple, *squares_object;
    Py_buffer tiles, points, masks, cross;
    if (!PyArg_ParseTuple(args, "O!y*y*w*w*O", &PyTuple_Type, &gaddag_tuple, &tiles, &points, &masks, &cross,
                          &squares_object))
        return NULL;
    GaddagBuffers buffers;
    Gaddag g;
    PyObject *result = NULL;
    Py_buffer squares = {0};
    int have_squares = squares_object != Py_None;
    if (gaddag_from(gaddag_tuple, &buffers, &g) < 0) goto done_buffers;
    if (buffer_size(&tiles, SIZE * SIZE, "tiles") < 0 || buffer_size(&masks, 2 * SIZE * SIZE * 4, "masks") < 0 ||
        buffer_size(&cross, 2 * SIZE * SIZE * 4, "cross") < 0 || buffer_size(&points, g.sep * 4, "points") < 0)
        goto done;
    if (have_squares && PyObject_GetBuffer(squares_object, &squares, PyBUF_SIMPLE) < 0) goto done;
    const int8_t *t = tiles.buf;
    for (int i = 0; i < SIZE * SIZE; i++)
        if (t[i] >= 0 && (t[i] & LETTER_BITS) >= g.sep) {
            PyErr_SetString(PyExc_ValueError, "ficha fuera del alfabeto en el tablero");
            goto done;
        }
    uint32_t *m = masks.buf;
    int32_t *x = cross.buf;
    uint8_t todo[2][SIZE][SIZE];
    memset(todo, have_squares ? 0 : 1, sizeof todo);
    if (have_squares) {
        const uint8_t *s = squares.buf;
        for (Py_ssize_t i = 0; i + 1 < squares.len; i += 2) {
            int row = s[i], col = s[i + 1];
            if (row >= SIZE || col >= SIZE) continue;
            for (int direction = 0; direction < 2; direction++) {
                int dr = direction == 0 ? 1 : 0, dc = 1 - dr;
                todo[direction][row][col] = 1;
                for (int sign = -1; sign <= 1; sign += 2) {
                    int r = row, c = col;
                    while (r >= 0 && r < SIZE && c >= 0 && c < SIZE && t[r * SIZE + c] >= 0) { r += sign * dr; c += sign * dc; }
                    if (r >= 0 && r < SIZE && c >= 0 && c < SIZE) todo[direction][r][c] = 1;
                }
            }
        }
    }
    Py_BEGIN_ALLOW_THREADS
    for (int direction = 0; direction < 2; direction++)
        for (int row = 0; row < SIZE; row++)
            for (int col = 0; col < SIZE; col++) {
                if (!todo[direction][row][col]) continue;
                int at = direction * SIZE * SIZE + row * SIZE + col;
                if (t[row * SIZE + col] >= 0) { m[at] = 0; x[at] = -1; continue; }
                cross_check(&g, t, points.buf, direction, row, col, &m[at], &x[at]);
            }
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    if (have_squares && squares.obj) PyBuffer_Release(&squares);
    gaddag_release(&buffers);
done_buffers:
    PyBuffer_Release(&tiles);
    PyBuffer_Release(&points);
    PyBuffer_Release(&masks);
    PyBuffer_Release(&cross);
    return result;
}

/* generate(gaddag, tiles, letter_mult, word_mult, points, counts, masks, cross, mode,
 *          info_out, words_out, bingo_size, bingo_bonus[, directions]) -> (moves, best score)
 * Writes as many moves as ``info_out`` has rows; the count returned is all of them.
 * ``directions``: 1 across moves only, 2 down moves only, 3 both (the default). */
static PyObject *py_generate(PyObject *self, PyObject *args) {
    PyObject *gaddag_tuple;
    Py_buffer tiles, lm, wm, points, counts, masks, cross, info, words;
    int mode, bingo_size, bingo_bonus, directions = 3;
    if (!PyArg_ParseTuple(args, "O!y*y*y*y*y*y*y*iw*w*ii|i", &PyTuple_Type, &gaddag_tuple, &tiles, &lm, &wm, &points,
                          &counts, &masks, &cross, &mode, &info, &words, &bingo_size, &bingo_bonus, &directions))
        return NULL;
    GaddagBuffers buffers;
    Gaddag g;
    PyObject *result = NULL;
    Walk *w = NULL;
    if (gaddag_from(gaddag_tuple, &buffers, &g) < 0) goto done_buffers;
    if (buffer_size(&tiles, SIZE * SIZE, "tiles") < 0 || buffer_size(&lm, SIZE * SIZE, "letter_mult") < 0 ||
        buffer_size(&wm, SIZE * SIZE, "word_mult") < 0 || buffer_size(&masks, 2 * SIZE * SIZE * 4, "masks") < 0 ||
        buffer_size(&cross, 2 * SIZE * SIZE * 4, "cross") < 0 || buffer_size(&points, g.sep * 4, "points") < 0 ||
        buffer_size(&counts, (g.sep + 1) * 4, "counts") < 0)
        goto done;
    if (info.len % (I_COLUMNS * 4) || words.len != info.len / (I_COLUMNS * 4) * SIZE || mode < 0 || mode > 2 ||
        directions < 1 || directions > 3) {
        PyErr_SetString(PyExc_ValueError, "tablas de salida incoherentes");
        goto done;
    }
    const int8_t *t = tiles.buf;
    for (int i = 0; i < SIZE * SIZE; i++)
        if (t[i] >= 0 && (t[i] & LETTER_BITS) >= g.sep) {
            PyErr_SetString(PyExc_ValueError, "ficha fuera del alfabeto en el tablero");
            goto done;
        }
    w = calloc(1, sizeof(Walk));
    if (!w) { PyErr_NoMemory(); goto done; }
    w->g = &g;
    w->letters = g.sep;
    w->points = points.buf;
    w->bingo_size = bingo_size;
    w->bingo_bonus = bingo_bonus;
    const int32_t *c = counts.buf;
    for (int s = 0; s <= g.sep; s++) {
        if (c[s] < 0 || c[s] > 100) { PyErr_SetString(PyExc_ValueError, "atril incoherente"); goto done; }
        w->counts[s] = c[s];
        w->natural[s] = c[s];
        w->rack_size += c[s];
        if (s < g.sep && c[s]) w->available |= 1u << s;
    }
    if (w->rack_size > SIZE) { PyErr_SetString(PyExc_ValueError, "atril de más de 15 fichas"); goto done; }
    w->blanks = c[g.sep];
    w->mode = mode;
    w->info = info.buf;
    w->words = words.buf;
    w->room = info.len / (I_COLUMNS * 4);
    w->best = mode == MODE_TOP ? 0 : -1;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk_board(w, t, lm.buf, wm.buf, masks.buf, cross.buf, directions);
    Py_END_ALLOW_THREADS
    if (status < 0) { PyErr_NoMemory(); goto done; }
    result = Py_BuildValue("Li", (long long)w->n, w->n ? w->best : 0);
done:
    free(w);
    gaddag_release(&buffers);
done_buffers:
    PyBuffer_Release(&tiles); PyBuffer_Release(&lm); PyBuffer_Release(&wm); PyBuffer_Release(&points);
    PyBuffer_Release(&counts); PyBuffer_Release(&masks); PyBuffer_Release(&cross); PyBuffer_Release(&info);
    PyBuffer_Release(&words);
    return result;
}

static PyMethodDef methods[] = {
    {"build", py_build, METH_VARARGS,
     "build(words, separator, plain=False) -> (arcs, root mask, root first, nodes): the minimised GADDAG of "
     "the words (each word's letter codes followed by 255); with plain=True their minimised DAWG as "
     "(mask, first, target, root), nodes numbered children first."},
    {"check", py_check, METH_VARARGS, "check(gaddag): ValueError when the arrays are inconsistent."},
    {"cross_checks", py_cross_checks, METH_VARARGS,
     "cross_checks(gaddag, tiles, points, masks, cross, squares): fill the cross-check masks and scores."},
    {"generate", py_generate, METH_VARARGS,
     "generate(gaddag, tiles, lm, wm, points, counts, masks, cross, mode, info, words, bingo_size, bingo_bonus) "
     "-> (moves, best)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gaddag", "The compiled GADDAG move generator.", -1, methods};

PyMODINIT_FUNC PyInit__gaddag(void) { return PyModule_Create(&module); }
