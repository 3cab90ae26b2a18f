/* aliasdb_locs.c - after the walk: memory locations, wildcards, contained
 * locations and the write index, as AliasDb's constructor and MemoryDAG
 * compute them.
 *
 * An element's memory locations are itself when it points nowhere, else
 * the union of what it points to (MemoryDAG::getMemoryLocations). Wildcards
 * are then applied as MemoryDAG::setWildcards does: (1) for every wildcard
 * value, each of its locations is made to point to the wildcard element of
 * the value's type, and (2) walking the elements in creation order, an
 * element whose (possibly already computed) locations meet what step 1
 * redirected to its type's wildcard gets that wildcard added. Torch keeps
 * the locations computed before step 1 in a cache, so the redirection never
 * re-reaches them; the order-dependent result of step 2 is reproduced by
 * walking in the same order. Locations computed later follow the final
 * edges, which only leads to cached elements: the same as union of
 * children. Contained locations close over both locations and containment
 * (getAllContainedMemoryLocations), and from a location of an open type to
 * every wildcard. All sets are computed here, so queries only read. */
#include <stdlib.h>
#include <string.h>

#include "base/alloc.h"
#include "base/arena.h"
#include "base/grow.h"
#include "alias/aliasdb/aliasdb_internal.h"

/* A growable array of element numbers. */
typedef struct u32vec {
    uint32_t *v;
    uint32_t n;
    size_t cap;
} u32vec;

static bool vec_push(u32vec *s, uint32_t x)
{
    if (TA_GROW_ONE(s->v, s->n, s->cap, 64) != TA_OK) return false;
    s->v[s->n++] = x;
    return true;
}

static bool vec_push_set(u32vec *s, const adb_set *set)
{
    const uint32_t *d = adb_set_data(set);
    for (uint32_t i = 0; i < set->n; i++)
        if (!vec_push(s, d[i])) return false;
    return true;
}

/* ---- sets ------------------------------------------------------------------------ */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t sort_unique(uint32_t *v, uint32_t n)
{
    if (n < 2) return n;
    if (n == 2) {
        if (v[0] > v[1]) {
            uint32_t t = v[0];
            v[0] = v[1];
            v[1] = t;
        }
        return v[0] == v[1] ? 1 : 2;
    }
    qsort(v, n, sizeof *v, cmp_u32);
    uint32_t k = 1;
    for (uint32_t i = 1; i < n; i++)
        if (v[i] != v[k - 1]) v[k++] = v[i];
    return k;
}

/* A set of the sorted, distinct v[0..n). */
static bool set_make(ta_aliasdb *db, const uint32_t *v, uint32_t n, adb_set *out)
{
    memset(out, 0, sizeof *out);
    out->n = n;
    if (n == 1) out->one = v[0];
    if (n <= 1) return true;
    uint32_t *copy = ta_arena_alloc(db->arena, n * sizeof *copy);
    if (!copy) return false;
    memcpy(copy, v, n * sizeof *copy);
    out->v = copy;
    return true;
}

bool adb_set_has(const adb_set *s, uint32_t x)
{
    const uint32_t *d = adb_set_data(s);
    uint32_t lo = 0, hi = s->n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (d[mid] < x) lo = mid + 1;
        else hi = mid;
    }
    return lo < s->n && d[lo] == x;
}

bool adb_sets_intersect(const adb_set *a, const adb_set *b)
{
    if (!a->n || !b->n) return false;
    if (a->n == 1) return adb_set_has(b, a->one);
    if (b->n == 1) return adb_set_has(a, b->one);
    const uint32_t *x = a->v, *y = b->v;
    uint32_t i = 0, j = 0;
    while (i < a->n && j < b->n) {
        if (x[i] == y[j]) return true;
        if (x[i] < y[j]) i++;
        else j++;
    }
    return false;
}

/* s with x added, as a new set (sets are shared: never changed in place). */
static bool set_with(ta_aliasdb *db, const adb_set *s, uint32_t x, u32vec *tmp, adb_set *out)
{
    tmp->n = 0;
    if (!vec_push_set(tmp, s) || !vec_push(tmp, x)) return false;
    return set_make(db, tmp->v, sort_unique(tmp->v, tmp->n), out);
}

/* ---- memory locations ---------------------------------------------------------------- */

typedef struct walk {
    u32vec stack, tmp;
} walk;

/* The union of the children's locations (the single child's set, shared). */
static bool union_of(ta_aliasdb *db, walk *w, const uint32_t *kids, uint32_t nkids, adb_set *out)
{
    if (nkids == 1) {
        *out = db->elems[kids[0]].locs;
        return true;
    }
    w->tmp.n = 0;
    for (uint32_t i = 0; i < nkids; i++)
        if (!vec_push_set(&w->tmp, &db->elems[kids[i]].locs)) return false;
    return set_make(db, w->tmp.v, sort_unique(w->tmp.v, w->tmp.n), out);
}

/* The points-to children of e whose locations are computed. */
static uint32_t pts_children(const ta_aliasdb *db, uint32_t e, u32vec *out)
{
    out->n = 0;
    for (uint32_t k = db->elems[e].pts; k != ADB_NONE; k = db->edge_next[k])
        if (db->elems[db->edge_to[k]].locs_state == 2 && !vec_push(out, db->edge_to[k])) return ADB_NONE;
    return out->n;
}

/* getMemoryLocations with its cache, iteratively (chains of views are long). */
static bool compute_locs(ta_aliasdb *db, walk *w, uint32_t root, u32vec *kids)
{
    adb_elem *r = &db->elems[root];
    if (r->locs_state == 2) return true;
    /* the common case: one pointee, already done (a view of an earlier value) */
    if (r->pts != ADB_NONE && db->edge_next[r->pts] == ADB_NONE &&
        db->elems[db->edge_to[r->pts]].locs_state == 2) {
        r->locs = db->elems[db->edge_to[r->pts]].locs;
        r->locs_state = 2;
        return true;
    }
    w->stack.n = 0;
    if (!vec_push(&w->stack, root)) return false;
    while (w->stack.n) {
        uint32_t e = w->stack.v[w->stack.n - 1];
        adb_elem *el = &db->elems[e];
        if (el->locs_state == 2) {
            w->stack.n--;
            continue;
        }
        if (el->locs_state == 0) {
            el->locs_state = 1;
            for (uint32_t k = el->pts; k != ADB_NONE; k = db->edge_next[k])
                if (db->elems[db->edge_to[k]].locs_state == 0 && !vec_push(&w->stack, db->edge_to[k]))
                    return false;
            continue;
        }
        w->stack.n--;
        adb_set s;
        if (el->pts == ADB_NONE) {
            memset(&s, 0, sizeof s);
            s.n = 1;
            s.one = e;
        } else {
            uint32_t nk = pts_children(db, e, kids);
            if (nk == ADB_NONE || !union_of(db, w, kids->v, nk, &s)) return false;
        }
        db->elems[e].locs = s;
        db->elems[e].locs_state = 2;
    }
    return true;
}

/* MemoryDAG::setWildcards, steps 1 and 2 (see the file's header). */
static bool apply_wildcards(ta_aliasdb *db, walk *w, u32vec *kids)
{
    uint32_t words = (db->nelems + 63) / 64;
    uint64_t **redirected = ta_calloc(db->nelems ? db->nelems : 1, sizeof *redirected);
    bool ok = redirected != NULL;
    for (uint32_t i = 0; ok && i < db->nwild_values; i++) {
        uint32_t vid = db->wild_values[i];
        uint32_t e = db->elem_of[vid];
        uint32_t wc = adb_wildcard_of(db, db->elems[e].type);
        if (wc == ADB_NONE || !compute_locs(db, w, e, kids)) {
            ok = wc == ADB_NONE;
            continue;
        }
        if (!redirected[wc] && !(redirected[wc] = ta_calloc(words, sizeof(uint64_t)))) {
            ok = false;
            break;
        }
        const adb_set *s = &db->elems[e].locs;
        const uint32_t *d = adb_set_data(s);
        for (uint32_t k = 0; k < s->n; k++) redirected[wc][d[k] / 64] |= (uint64_t)1 << (d[k] % 64);
    }
    for (uint32_t e = 0; ok && e < db->nelems; e++) {
        const adb_elem *el = &db->elems[e];
        if (!el->value) continue;
        uint32_t wc = adb_wildcard_of(db, el->type);
        if (wc == ADB_NONE || !redirected[wc]) continue;
        if (!compute_locs(db, w, e, kids)) {
            ok = false;
            break;
        }
        const adb_set *s = &db->elems[e].locs;
        const uint32_t *d = adb_set_data(s);
        bool meets = false;
        for (uint32_t k = 0; k < s->n && !meets; k++) meets = redirected[wc][d[k] / 64] >> (d[k] % 64) & 1;
        if (meets && !adb_set_has(s, wc)) {
            adb_set with;
            if (!set_with(db, s, wc, &w->tmp, &with)) ok = false;
            else db->elems[e].locs = with;
        }
    }
    for (uint32_t e = 0; redirected && e < db->nelems; e++) free(redirected[e]);
    free(redirected);
    return ok;
}

/* ---- contained locations ------------------------------------------------------------------ */

/* Whether c already holds x: a scan while it is small, a bitset after. */
static bool closure_seen(const ta_aliasdb *db, adb_closure *c, uint32_t x)
{
    if (!c->bits && c->n >= 32) {
        c->bits = ta_calloc(db->nelems / 64 + 1, sizeof *c->bits);
        if (!c->bits) return c->failed = true;
        for (uint32_t i = 0; i < c->n; i++) c->bits[c->v[i] / 64] |= (uint64_t)1 << (c->v[i] % 64);
    }
    if (c->bits) {
        if (c->bits[x / 64] >> (x % 64) & 1) return true;
        c->bits[x / 64] |= (uint64_t)1 << (x % 64);
        return false;
    }
    for (uint32_t i = 0; i < c->n; i++)
        if (c->v[i] == x) return true;
    return false;
}

void adb_closure_init(adb_closure *c)
{
    c->v = c->inline_v;
    c->stack = c->inline_stack;
    c->n = c->nstack = 0;
    c->cap = c->cap_stack = ADB_CLOSURE_INLINE;
    c->bits = NULL;
    c->failed = false;
    c->wildcards = false;
}

/* Appends x to v (which starts in the inline buffer, then moves to the heap). */
static bool closure_push(uint32_t **v, uint32_t *n, uint32_t *cap, const uint32_t *inline_buf, uint32_t x)
{
    if (*n == *cap) {
        uint32_t nc = *cap * 2;
        uint32_t *g = *v == inline_buf ? ta_malloc(nc * sizeof *g) : ta_realloc(*v, nc * sizeof *g);
        if (!g) return false;
        if (*v == inline_buf) memcpy(g, inline_buf, *n * sizeof *g);
        *v = g;
        *cap = nc;
    }
    (*v)[(*n)++] = x;
    return true;
}

/* Adds x (unless there) to the result and to the work list. */
static void closure_visit(const ta_aliasdb *db, adb_closure *c, uint32_t x)
{
    if (c->failed || closure_seen(db, c, x)) return;
    if (!closure_push(&c->v, &c->n, &c->cap, c->inline_v, x) ||
        !closure_push(&c->stack, &c->nstack, &c->cap_stack, c->inline_stack, x))
        c->failed = true;
}

/* Adds x to the result only: what it reaches is in already, or will be. */
static void closure_take(const ta_aliasdb *db, adb_closure *c, uint32_t x)
{
    if (c->failed || closure_seen(db, c, x)) return;
    if (!closure_push(&c->v, &c->n, &c->cap, c->inline_v, x)) c->failed = true;
}

/* getAllContainedMemoryLocations: e, and everything reachable from it
 * through its memory locations and the elements it contains. Without
 * cycles (torch cannot have them either) this is what torch caches per
 * element; it is computed when asked, so the build does not pay for sets
 * nobody reads. Appends to c (whose earlier contents count as seen). */
void adb_closure_add(const ta_aliasdb *db, adb_closure *c, uint32_t e)
{
    closure_visit(db, c, e);
    while (c->nstack && !c->failed) {
        uint32_t x = c->stack[--c->nstack];
        const adb_elem *el = &db->elems[x];
        const uint32_t *d = adb_set_data(&el->locs);
        for (uint32_t i = 0; i < el->locs.n; i++) closure_visit(db, c, d[i]);
        for (uint32_t k = el->cont; k != ADB_NONE; k = db->edge_next[k]) closure_visit(db, c, db->edge_to[k]);
        if (el->open && !c->wildcards) {
            /* an open location contains every wildcard (adb_open_contents):
             * their closure, made once (open_reach), is closed already */
            c->wildcards = true;
            for (uint32_t k = 0; k < db->nopen_reach; k++) closure_take(db, c, db->open_reach[k]);
        }
    }
}

void adb_closure_sort(adb_closure *c)
{
    c->n = sort_unique(c->v, c->n);
}

void adb_closure_free(adb_closure *c)
{
    if (c->v != c->inline_v) free(c->v);
    if (c->stack != c->inline_stack) free(c->stack);
    free(c->bits);
    adb_closure_init(c);
}

/* ---- writes ------------------------------------------------------------------------------ */

static bool index_writes(ta_aliasdb *db, u32vec *tmp)
{
    uint32_t nn = db->g->nnodes;
    /* group the registry by node; a node's writes are registered together */
    for (uint32_t i = 0; i < db->nreg;) {
        uint32_t n = db->reg[i].node;
        tmp->n = 0;
        if (!vec_push_set(tmp, &db->writes[n])) return false;
        for (; i < db->nreg && db->reg[i].node == n; i++) {
            uint32_t e = db->elem_of[db->reg[i].value];
            if (e == ADB_NONE) continue;
            if (!db->reg[i].contained) {
                if (!vec_push_set(tmp, &db->elems[e].locs)) return false;
                continue;
            }
            adb_closure c;
            adb_closure_init(&c);
            adb_closure_add(db, &c, e);
            bool ok = !c.failed;
            for (uint32_t k = 0; ok && k < c.n; k++) ok = vec_push(tmp, c.v[k]);
            adb_closure_free(&c);
            if (!ok) return false;
        }
        if (!set_make(db, tmp->v, sort_unique(tmp->v, tmp->n), &db->writes[n])) return false;
    }
    for (uint32_t i = 0; i < db->nwild_writers; i++) {
        const ta_ir_node *n = db->wild_writers[i];
        tmp->n = 0;
        if (!vec_push_set(tmp, &db->writes[n->id])) return false;
        for (uint32_t k = 0; k < db->nwild_elems; k++)
            if (!vec_push(tmp, db->wild_elems[k])) return false;
        if (!set_make(db, tmp->v, sort_unique(tmp->v, tmp->n), &db->writes[n->id])) return false;
    }
    db->written = ta_arena_zalloc(db->arena, ((db->nelems + 63) / 64 + 1) * sizeof *db->written);
    if (!db->written) return false;
    for (uint32_t id = 0; id < nn; id++) {
        const uint32_t *d = adb_set_data(&db->writes[id]);
        for (uint32_t k = 0; k < db->writes[id].n; k++) db->written[d[k] / 64] |= (uint64_t)1 << (d[k] % 64);
    }
    return true;
}

/* Each value's locations in one array by value id, so a query reads one
 * 16-byte entry per value. */
static bool value_locations(ta_aliasdb *db)
{
    uint32_t nv = db->g->nvalues;
    db->vlocs = ta_arena_zalloc(db->arena, (nv ? nv : 1) * sizeof *db->vlocs);
    if (!db->vlocs) return false;
    for (uint32_t id = 0; id < nv; id++)
        if (db->elem_of[id] != ADB_NONE) db->vlocs[id] = db->elems[db->elem_of[id]].locs;
    return true;
}

/* What an open location contains: every wildcard and what those reach
 * (made with the wildcards counted in, so it is closed). */
static bool open_reach(ta_aliasdb *db)
{
    adb_closure c;
    adb_closure_init(&c);
    c.wildcards = true;
    for (uint32_t k = 0; k < db->nwild_elems; k++) adb_closure_add(db, &c, db->wild_elems[k]);
    adb_closure_sort(&c);
    bool ok = !c.failed && (!c.n || (db->open_reach = ta_arena_alloc(db->arena, c.n * sizeof *db->open_reach)));
    if (ok && c.n) memcpy(db->open_reach, c.v, c.n * sizeof *db->open_reach);
    db->nopen_reach = ok ? c.n : 0;
    adb_closure_free(&c);
    return ok;
}

/* Open types (adb_open_contents), said once. */
static void note_open(ta_aliasdb *db)
{
    const ta_ir_type *example = NULL;
    uint32_t n = adb_open_contents(db, &example);
    if (!n) return;
    db->has_open = true;
    char name[256];
    ta_ir_type_print(example, name, sizeof name);
    ta_loc loc = {db->g->source, 0, 0, 0, NULL, 0};
    ta_diag_note(db->diags, &loc, "ir-class-undeclared",
                 "%u class or unknown type%s not declared whole (%s%s): an object of %s is taken to contain "
                 "any mutable value, so may_contain_alias, has_writers and moves may be more cautious than AliasDb",
                 n, n == 1 ? " is" : "s are", name, n > 1 ? ", ..." : "", n == 1 ? "it" : "them");
    ta_diag_hint(db->diags, "declare classes whole: graph-alias --classes FILE (tools/torch/script_classes.py "
                            "writes it for a scripted module), or ta_ir_class_declare_whole");
}

ta_status adb_finish(ta_aliasdb *db)
{
    walk w = {{0}, {0}};
    u32vec kids = {0};
    /* every value's type mapped, so the wildcard of each can be looked up */
    for (uint32_t e = 0; e < db->nelems; e++)
        if (db->elems[e].value && !adb_type_info(db, db->elems[e].type)) break;
    note_open(db);
    bool ok = db->status == TA_OK && apply_wildcards(db, &w, &kids);
    for (uint32_t e = 0; ok && e < db->nelems; e++) ok = compute_locs(db, &w, e, &kids);
    ok = ok && (!db->has_open || open_reach(db)) && index_writes(db, &w.tmp) && value_locations(db);
    free(w.stack.v);
    free(w.tmp.v);
    free(kids.v);
    db->nreg = 0; /* the registry (arena-owned) is folded into the index */
    return ok ? TA_OK : TA_ERR_NOMEM;
}

/* ---- per-node reads and writes ---------------------------------------------------------------- */

static ta_status push_set(uint32_t **v, uint32_t *nv, uint32_t *cap, const adb_set *s)
{
    if (!s->n) return TA_OK;
    if (*nv + s->n > *cap) {
        uint32_t c = *cap ? *cap : 64;
        while (c < *nv + s->n) c *= 2;
        uint32_t *n = ta_realloc(*v, c * sizeof *n);
        if (!n) return TA_ERR_NOMEM;
        *v = n;
        *cap = c;
    }
    memcpy(*v + *nv, adb_set_data(s), s->n * sizeof **v);
    *nv += s->n;
    return TA_OK;
}

ta_status adb_collect_writes(const ta_aliasdb *db, const ta_ir_node *n, uint32_t **v, uint32_t *nv,
                             uint32_t *cap)
{
    ta_status st = push_set(v, nv, cap, &db->writes[n->id]);
    for (uint32_t b = 0; st == TA_OK && b < n->nblocks; b++)
        for (const ta_ir_node *m = n->blocks[b]->param->next; st == TA_OK && m != n->blocks[b]->ret; m = m->next)
            st = adb_collect_writes(db, m, v, nv, cap);
    return st;
}

/* The inputs of n and of the nodes of its blocks, into one closure: a value
 * read many times (a module object, say) is walked once. */
static void reads_into(const ta_aliasdb *db, const ta_ir_node *n, adb_closure *c)
{
    for (uint32_t i = 0; i < n->ninputs && !c->failed; i++) {
        uint32_t e = db->elem_of[n->inputs[i]->id];
        if (e != ADB_NONE) adb_closure_add(db, c, e);
    }
    for (uint32_t b = 0; b < n->nblocks; b++)
        for (const ta_ir_node *m = n->blocks[b]->param->next; m != n->blocks[b]->ret; m = m->next) reads_into(db, m, c);
}

ta_status adb_collect_reads(const ta_aliasdb *db, const ta_ir_node *n, uint32_t **v, uint32_t *nv,
                            uint32_t *cap)
{
    adb_closure c;
    adb_closure_init(&c);
    reads_into(db, n, &c);
    adb_set s = {c.n, c.n == 1 ? c.v[0] : 0, c.v};
    ta_status st = c.failed ? TA_ERR_NOMEM : push_set(v, nv, cap, &s);
    adb_closure_free(&c);
    return st;
}
