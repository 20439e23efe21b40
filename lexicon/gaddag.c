/*
 * The Python module lexicon._gaddag: the GADDAG build, the cross-checks and the walk of
 * gaddag_build.c and gaddag_walk.c (see gaddag.h), on buffers (numpy arrays, bytes).
 * Python side: lexicon/gaddag.py (the GADDAG, built and stored in the compiled lexicon),
 * lexicon/gaddag_walk.py (the cross-check cache, the walk's modes) and lexicon/movegen.py.
 * Every buffer's size is checked here; the walk itself trusts them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "gaddag.h"

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
    uint32_t root = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = gaddag_build((const uint8_t *)words.buf, (size_t)words.len, sep, plain, &b, &root);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&words);
    PyObject *result = NULL;
    uint32_t root_first = 0;
    uint32_t *arcs = status == 0 && !plain ? gaddag_arcs(&b, root, &root_first) : NULL;
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
    builder_free(&b);
    return result;
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
    const int32_t *c = counts.buf;
    int rack_size = 0;
    for (int s = 0; s <= g.sep; s++) {
        if (c[s] < 0 || c[s] > SIZE) { PyErr_SetString(PyExc_ValueError, "atril incoherente"); goto done; }
        rack_size += c[s];
    }
    if (rack_size > SIZE) { PyErr_SetString(PyExc_ValueError, "atril de más de 15 fichas"); goto done; }
    int64_t found = 0;
    int32_t best = 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = walk_moves(&g, t, lm.buf, wm.buf, points.buf, c, masks.buf, cross.buf, mode, directions, bingo_size,
                        bingo_bonus, info.buf, words.buf, info.len / (I_COLUMNS * 4), &found, &best);
    Py_END_ALLOW_THREADS
    if (status < 0) { PyErr_NoMemory(); goto done; }
    result = Py_BuildValue("Li", (long long)found, best);
done:
    gaddag_release(&buffers);
done_buffers:
    PyBuffer_Release(&tiles); PyBuffer_Release(&lm); PyBuffer_Release(&wm); PyBuffer_Release(&points);
    PyBuffer_Release(&counts); PyBuffer_Release(&masks); PyBuffer_Release(&cross); PyBuffer_Release(&info);
    PyBuffer_Release(&words);
    return result;
}

/* nearest(tiles, snapshots) -> (index, squares) or None
 * tiles: a board's 225 tile bytes (int8, -1 empty); snapshots: the kept boards' bytes, one
 * after the other. Of the snapshots that ``tiles`` only adds tiles to, the one it adds the
 * fewest to (the first of those): its index and the squares of the added tiles (bytes of
 * row, col pairs, as cross_checks reads them). None when there is none. */
static PyObject *py_nearest(PyObject *self, PyObject *args) {
    Py_buffer tiles, snapshots;
    if (!PyArg_ParseTuple(args, "y*y*", &tiles, &snapshots)) return NULL;
    PyObject *result = NULL;
    if (buffer_size(&tiles, SIZE * SIZE, "tiles") < 0) goto done;
    if (snapshots.len % (SIZE * SIZE)) {
        PyErr_SetString(PyExc_ValueError, "snapshots: no es un múltiplo de 225 bytes");
        goto done;
    }
    const int8_t *t = tiles.buf, *all = snapshots.buf;
    Py_ssize_t count = snapshots.len / (SIZE * SIZE), best = -1;
    int fewest = SIZE * SIZE + 1;
    for (Py_ssize_t k = 0; k < count; k++) {
        const int8_t *s = all + k * SIZE * SIZE;
        int added = 0, extends = 1;
        for (int i = 0; i < SIZE * SIZE; i++) {
            if (s[i] == t[i]) continue;
            if (s[i] >= 0) { extends = 0; break; }
            added++;
        }
        if (extends && added < fewest) { fewest = added; best = k; }
    }
    if (best < 0) { result = Py_None; Py_INCREF(result); goto done; }
    uint8_t squares[2 * SIZE * SIZE];
    int n = 0;
    const int8_t *s = all + best * SIZE * SIZE;
    for (int i = 0; i < SIZE * SIZE; i++)
        if (s[i] != t[i]) { squares[n++] = (uint8_t)(i / SIZE); squares[n++] = (uint8_t)(i % SIZE); }
    result = Py_BuildValue("ny#", best, (const char *)squares, (Py_ssize_t)n);
done:
    PyBuffer_Release(&tiles);
    PyBuffer_Release(&snapshots);
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
    {"nearest", py_nearest, METH_VARARGS,
     "nearest(tiles, snapshots) -> (index, squares) or None: the kept board that tiles extends with the fewest "
     "tiles, and those tiles' squares."},
    {"generate", py_generate, METH_VARARGS,
     "generate(gaddag, tiles, lm, wm, points, counts, masks, cross, mode, info, words, bingo_size, bingo_bonus"
     "[, directions]) -> (moves, best)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_gaddag", "The compiled GADDAG move generator.", -1, methods};

PyMODINIT_FUNC PyInit__gaddag(void) {
#if defined(GADDAG_NEEDS_POPCNT)
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("popcnt")) {
        PyErr_SetString(PyExc_ImportError, "lexicon._gaddag: el procesador no tiene la instrucción POPCNT");
        return NULL;
    }
#endif
    return PyModule_Create(&module);
}
