/*
 * Building the GADDAG (and the word DAWG) from the words: the strings made and sorted one
 * first symbol at a time, fed to the incremental construction of a minimal acyclic
 * automaton from sorted input (Daciuk, Mihov, Watson & Watson 2000). See gaddag.h.
 */
#include "gaddag.h"

/* To keep memory low the strings are made and sorted one first symbol at a time (a
 * string's first symbol is the last letter of the word's prefix). */

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
static int build_automaton(const uint8_t *words, ptrdiff_t size, int sep, int plain, Builder *b, uint32_t *root) {
    /* The strings of each first symbol: where they start (the offset of that symbol in
     * ``words``: the last letter of the prefix, or a word's first letter), bucketed. */
    size_t counts[MAX_SYMBOLS + 1] = {0}, offsets[MAX_SYMBOLS + 2] = {0};
    ptrdiff_t start = 0;
    for (ptrdiff_t i = 0; i < size; i++) {
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
    if (!splits || !buffer || !path || size > (ptrdiff_t)UINT32_MAX) {
        free(splits); free(buffer); free(path);
        return -1;
    }
    size_t fill[MAX_SYMBOLS + 1];
    memcpy(fill, offsets, sizeof fill);
    start = 0;
    for (ptrdiff_t i = 0; i < size; i++) {
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
            ptrdiff_t split = splits[at_split], begin = split, end = split;
            while (begin > 0 && words[begin - 1] != 255) begin--;
            while (words[end] != 255) end++;
            Key key = {0, 0};
            int at = 0;
            if (plain) {
                for (ptrdiff_t j = begin; j < end; j++) key_set(&key, at++, words[j]);
            } else {
                /* rev(w[..split]) SEP w[split + 1..] */
                for (ptrdiff_t j = split; j >= begin; j--) key_set(&key, at++, words[j]);
                if (split + 1 < end) {
                    key_set(&key, at++, sep);
                    for (ptrdiff_t j = split + 1; j < end; j++) key_set(&key, at++, words[j]);
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
uint32_t *gaddag_arcs(const Builder *b, uint32_t root, uint32_t *root_first) {
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

int gaddag_build(const uint8_t *words, size_t size, int sep, int plain, Builder *b, uint32_t *root) {
    memset(b, 0, sizeof *b);
    if (table_grow(b) < 0) return -1;
    return build_automaton(words, (ptrdiff_t)size, sep, plain, b, root);
}

void builder_free(Builder *b) {
    free(b->mask);
    free(b->first);
    free(b->target);
    free(b->table);
    memset(b, 0, sizeof *b);
}
