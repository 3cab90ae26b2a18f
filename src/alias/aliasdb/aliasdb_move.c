/* aliasdb_move.c - whether a node can move next to another, and the move
 * (AliasDb::tryMove and its WorkingSet).
 *
 * Walking from the node to move towards the target, every node on the way
 * that depends on what is moving (uses its outputs or is used by it, writes
 * what it reads, reads what it writes) joins the moving set. A node with
 * side effects on the way stops the move. At the target, the moving set is
 * split when the node must end on the near side of it (the node goes, its
 * dependants stay on the far side), and the move is valid when the target
 * does not depend on what has to pass it. */
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/alloc.h"
#include "alias/aliasdb/aliasdb_internal.h"

typedef struct working_set {
    const ta_aliasdb *db;
    const ta_ir_node *mover;
    uint64_t *mover_writes, *mover_reads, *writes, *reads; /* by element */
    uint64_t *mover_users, *users, *in_set;                /* by node id */
    uint32_t ewords, nwords;
    const ta_ir_node **nodes;
    uint32_t n;
    size_t cap;
    uint32_t *tmp;
    uint32_t ntmp, cap_tmp;
    ta_status st;
} working_set;

static bool bit(const uint64_t *b, uint32_t i) { return b[i / 64] >> (i % 64) & 1; }
static void set_bit(uint64_t *b, uint32_t i) { b[i / 64] |= (uint64_t)1 << (i % 64); }

/* Marks every node of n's block that uses an output of n (a use inside a
 * nested block counts as a use by the node holding that block). */
static void mark_users(const ta_ir_node *n, uint64_t *users)
{
    for (uint32_t i = 0; i < n->noutputs; i++) {
        const ta_ir_value *v = n->outputs[i];
        for (uint32_t k = 0; k < v->nuses; k++) {
            ta_ir_node *u = ir_node_in_block(v->uses[k].user, n->block);
            if (u) set_bit(users, u->id);
        }
    }
}

static void mark_locations(working_set *ws, uint64_t *bits, bool writes, const ta_ir_node *n)
{
    ws->ntmp = 0;
    ta_status st = writes ? adb_collect_writes(ws->db, n, &ws->tmp, &ws->ntmp, &ws->cap_tmp)
                          : adb_collect_reads(ws->db, n, &ws->tmp, &ws->ntmp, &ws->cap_tmp);
    if (st != TA_OK) ws->st = st;
    for (uint32_t i = 0; i < ws->ntmp; i++) set_bit(bits, ws->tmp[i]);
}

/* Do the locations n writes (or reads) meet bits? */
static bool meets(working_set *ws, const uint64_t *bits, bool writes, const ta_ir_node *n)
{
    ws->ntmp = 0;
    ta_status st = writes ? adb_collect_writes(ws->db, n, &ws->tmp, &ws->ntmp, &ws->cap_tmp)
                          : adb_collect_reads(ws->db, n, &ws->tmp, &ws->ntmp, &ws->cap_tmp);
    if (st != TA_OK) ws->st = st;
    for (uint32_t i = 0; i < ws->ntmp; i++)
        if (bit(bits, ws->tmp[i])) return true;
    return false;
}

static bool ws_init(working_set *ws, const ta_aliasdb *db, const ta_ir_node *mover)
{
    memset(ws, 0, sizeof *ws);
    ws->db = db;
    ws->mover = mover;
    ws->ewords = (db->nelems + 63) / 64 + 1;
    ws->nwords = (db->g->nnodes + 63) / 64 + 1;
    uint64_t *mem = ta_calloc(4 * (size_t)ws->ewords + 3 * (size_t)ws->nwords, sizeof *mem);
    if (!mem) return false;
    ws->mover_writes = mem;
    ws->mover_reads = mem + ws->ewords;
    ws->writes = mem + 2 * ws->ewords;
    ws->reads = mem + 3 * ws->ewords;
    ws->mover_users = mem + 4 * ws->ewords;
    ws->users = ws->mover_users + ws->nwords;
    ws->in_set = ws->users + ws->nwords;
    mark_users(mover, ws->mover_users);
    mark_locations(ws, ws->mover_writes, true, mover);
    mark_locations(ws, ws->mover_reads, false, mover);
    return ws->st == TA_OK;
}

static void ws_free(working_set *ws)
{
    free(ws->mover_writes);
    free(ws->nodes);
    free(ws->tmp);
}

static void ws_add(working_set *ws, const ta_ir_node *n)
{
    if (TA_GROW_ONE(ws->nodes, ws->n, ws->cap, 16) != TA_OK) {
        ws->st = TA_ERR_NOMEM;
        return;
    }
    ws->nodes[ws->n++] = n;
    set_bit(ws->in_set, n->id);
    mark_users(n, ws->users);
    mark_locations(ws, ws->writes, true, n);
    mark_locations(ws, ws->reads, false, n);
}

static void ws_erase_mover(working_set *ws)
{
    ws->mover = NULL;
    memset(ws->mover_writes, 0, 2 * (size_t)ws->ewords * sizeof(uint64_t));
    memset(ws->mover_users, 0, ws->nwords * sizeof(uint64_t));
}

/* Does the working set consume an output of n? */
static bool consumes_from(working_set *ws, const ta_ir_node *n)
{
    for (uint32_t i = 0; i < n->noutputs; i++) {
        const ta_ir_value *v = n->outputs[i];
        for (uint32_t k = 0; k < v->nuses; k++) {
            ta_ir_node *u = ir_node_in_block(v->uses[k].user, n->block);
            if (u && ((ws->mover && u == ws->mover) || bit(ws->in_set, u->id))) return true;
        }
    }
    return false;
}

static bool data_dependency(working_set *ws, const ta_ir_node *n)
{
    const ta_ir_node *pivot = ws->mover ? ws->mover : ws->nodes[0];
    if (n->topo > pivot->topo)
        return (ws->mover && bit(ws->mover_users, n->id)) || bit(ws->users, n->id);
    return consumes_from(ws, n);
}

static bool mutability_dependency(working_set *ws, const ta_ir_node *n)
{
    if (meets(ws, ws->reads, true, n) || (ws->mover && meets(ws, ws->mover_reads, true, n))) return true;
    return meets(ws, ws->writes, false, n) || (ws->mover && meets(ws, ws->mover_writes, false, n));
}

static bool depends_on(working_set *ws, const ta_ir_node *n)
{
    if (!ws->mover && !ws->n) return false;
    return data_dependency(ws, n) || mutability_dependency(ws, n);
}

typedef enum side { BEFORE, AFTER } side;

static void move_one(const ta_ir_node *n, const ta_ir_node *pos, side s)
{
    if (s == BEFORE) ta_ir_node_move_before((ta_ir_node *)n, (ta_ir_node *)pos);
    else ta_ir_node_move_after((ta_ir_node *)n, (ta_ir_node *)pos);
}

static void perform(working_set *ws, const ta_ir_node *n, const ta_ir_node *m, side s, bool split)
{
    const ta_ir_node *cur = m;
    if (split) {
        move_one(n, m, s);
        for (uint32_t i = 0; i < ws->n; i++) {
            move_one(ws->nodes[i], cur, s == BEFORE ? AFTER : BEFORE);
            cur = ws->nodes[i];
        }
        return;
    }
    move_one(n, cur, s);
    cur = n;
    for (uint32_t i = 0; i < ws->n; i++) {
        move_one(ws->nodes[i], cur, s);
        cur = ws->nodes[i];
    }
}

static ta_status try_move(const ta_aliasdb *db, const ta_ir_node *n, const ta_ir_node *m, side s, bool dry,
                          bool *ok)
{
    *ok = false;
    if (!n || !m || !n->block || n->block != m->block) return TA_OK;
    if (n == m) {
        *ok = true;
        return TA_OK;
    }
    bool backwards = n->topo > m->topo;
    const ta_ir_node *cur = backwards ? n->prev : n->next;
    bool on_side = (s == BEFORE && !backwards) || (s == AFTER && backwards);
    if (on_side && cur == m) {
        *ok = true;
        return TA_OK;
    }
    if (adb_side_effects(db, n) || (!on_side && adb_side_effects(db, m))) return TA_OK;
    working_set ws;
    if (!ws_init(&ws, db, n)) {
        ws_free(&ws);
        return TA_ERR_NOMEM;
    }
    bool valid = true;
    for (; cur != m; cur = backwards ? cur->prev : cur->next) {
        if (adb_side_effects(db, cur)) {
            valid = false;
            break;
        }
        if (depends_on(&ws, cur)) ws_add(&ws, cur);
    }
    if (valid) {
        if (on_side) ws_erase_mover(&ws);
        valid = !depends_on(&ws, m);
    }
    ta_status st = ws.st;
    if (st == TA_OK && valid && !dry) perform(&ws, n, m, s, on_side);
    ws_free(&ws);
    *ok = st == TA_OK && valid;
    return st;
}

bool ta_aliasdb_can_move_after(const ta_aliasdb *db, const ta_ir_node *n, const ta_ir_node *m)
{
    bool ok;
    return try_move(db, n, m, AFTER, true, &ok) == TA_OK && ok;
}

bool ta_aliasdb_can_move_before(const ta_aliasdb *db, const ta_ir_node *n, const ta_ir_node *m)
{
    bool ok;
    return try_move(db, n, m, BEFORE, true, &ok) == TA_OK && ok;
}

ta_status ta_aliasdb_move_after(ta_aliasdb *db, ta_ir_node *n, ta_ir_node *m, bool *moved)
{
    return try_move(db, n, m, AFTER, false, moved);
}

ta_status ta_aliasdb_move_before(ta_aliasdb *db, ta_ir_node *n, ta_ir_node *m, bool *moved)
{
    return try_move(db, n, m, BEFORE, false, moved);
}
