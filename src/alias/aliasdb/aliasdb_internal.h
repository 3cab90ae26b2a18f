/* aliasdb_internal.h - the analysis behind tensoralias/aliasdb.h, shared by
 * its files:
 *   aliasdb_types.c   which types are mutable, and the wildcard of each
 *   aliasdb_build.c   elements, pointers and containment; the node walk
 *   aliasdb_nodes.c   AliasDb's special cases, node by node kind
 *   aliasdb_schema.c  nodes analysed from their schemas; operator resolution
 *   aliasdb_locs.c    memory locations, wildcards, contained locations, writes
 *   aliasdb_query.c   the queries
 *   aliasdb_move.c    moving nodes (AliasDb::tryMove and its working set)
 *   aliasdb_graph.c   the points-to graph as igraph (GraphML, tests)
 *
 * Elements are numbered in the order AliasDb creates them, because the
 * order in which torch fills its location caches after the walk
 * (MemoryDAG::setWildcards) shows in its answers; the build follows
 * AliasDb's calls one for one so the numbering is the same.
 */
#ifndef TA_ALIAS_ALIASDB_ALIASDB_INTERNAL_H
#define TA_ALIAS_ALIASDB_ALIASDB_INTERNAL_H

#include "alias/ir/ir_internal.h"
#include "tensoralias/aliasdb.h"

#define ADB_NONE UINT32_MAX

/* A sorted set of element numbers. One element is kept inline. Sets are
 * shared between elements and never changed in place. */
typedef struct adb_set {
    uint32_t n;
    uint32_t one;
    const uint32_t *v; /* n > 1 */
} adb_set;

static inline const uint32_t *adb_set_data(const adb_set *s) { return s->n == 1 ? &s->one : s->v; }

typedef struct adb_elem {
    const ta_ir_value *value; /* NULL: the wildcard element of a type */
    const ta_ir_type *type;   /* the value's type, or the wildcard's alias type */
    uint32_t pts, cont;       /* heads of its points-to and contains edge lists */
    adb_set locs;             /* memory locations (MemoryDAG::getMemoryLocations) */
    uint8_t locs_state;       /* 0 not computed, 1 in progress, 2 done */
    bool open;                /* a location of an open type: contains every wildcard */
} adb_elem;

/* What AliasDb knows of a type (by type id). */
typedef struct adb_type {
    bool mapped;               /* the fields below are computed */
    uint32_t nset;             /* alias types it maps to; 0: immutable */
    const ta_ir_type *const *set;
    const ta_ir_type *single;  /* the one type standing for the set */
    uint32_t wildcard;         /* element of the wildcard keyed by this type */
    bool open_seen;            /* counted by adb_open_contents */
} adb_type;

typedef struct adb_write {
    uint32_t node, value;      /* ids */
    bool contained;            /* the value and everything it contains */
} adb_write;

enum { ADB_RECENT = 64, ADB_RECENT_INPUTS = 6 };

/* One slot of the resolution cache's front (aliasdb_schema.c). */
typedef struct adb_recent {
    const void *kind;
    uint32_t ninputs;
    const ta_ir_type *types[ADB_RECENT_INPUTS];
    const ta_ir_op *op;
} adb_recent;

struct ta_aliasdb {
    const ta_ir_graph *g;
    const ta_ir_ops *ops;
    ta_arena *arena;
    ir_types types;            /* derived types; the graph's are the parent */
    ta_diags *diags;
    ta_status status;          /* TA_OK until an allocation fails */

    adb_elem *elems;
    uint32_t nelems, cap_elems;
    uint32_t *edge_to, *edge_next;
    uint32_t nedges, cap_edges;

    uint32_t *elem_of;         /* by value id */
    adb_set *vlocs;            /* by value id: its element's locations (n 0: none) */
    uint8_t *wild_value;       /* by value id: the analysis made it a wildcard */
    uint32_t *wild_values;     /* their ids, in order */
    uint32_t nwild_values, cap_wild_values;
    uint32_t *wild_elems;      /* every wildcard element */
    uint32_t nwild_elems, cap_wild_elems;

    adb_type *tinfo;           /* by type id */
    uint32_t cap_tinfo;

    const ta_ir_op **op_of;    /* by node id */
    uint8_t *how;              /* by node id: ta_aliasdb_how */
    adb_set *writes;           /* by node id: what the node itself writes */
    uint64_t *written;         /* bitset of every written location */
    ta_map op_cache;           /* (kind, input types) -> op */
    adb_recent recent[ADB_RECENT];

    adb_write *reg;            /* the write registry of the walk */
    uint32_t nreg, cap_reg;
    bool has_open;             /* some location is of an open type */
    uint32_t *open_reach;      /* what one contains: every wildcard, closed */
    uint32_t nopen_reach;
    const ta_ir_node **wild_writers; /* nodes that write every wildcard */
    uint32_t nwild_writers, cap_wild_writers;
};

/* aliasdb_types.c */
const adb_type *adb_type_info(ta_aliasdb *db, const ta_ir_type *t);
bool adb_mutable(ta_aliasdb *db, const ta_ir_type *t);
/* The wildcard element of t's alias type, made with its contained
 * wildcards when new (tryGetOrCreateWildcard); ADB_NONE for immutable t. */
uint32_t adb_wildcard_for(ta_aliasdb *db, const ta_ir_type *t);
/* The existing wildcard element of t's alias type, or ADB_NONE (getWildcard). */
uint32_t adb_wildcard_of(const ta_aliasdb *db, const ta_ir_type *t);
/* Points a fresh element at the wildcards of what its types contain
 * (addContainedTypesToFreshElement / pointUnionTypeElementToAllContainedTypes). */
void adb_link_contained_wildcards(ta_aliasdb *db, uint32_t e, const adb_type *ti);
/* Whether what an object of alias type t may contain is unknown: a class
 * not declared whole, or a type the IR has no kind for. */
bool adb_type_open(const ta_ir_type *t);
/* After the walk: marks the memory locations of open types (they contain
 * every wildcard, see adb_closure_add). Returns the number of open types
 * seen (*example: one). */
uint32_t adb_open_contents(ta_aliasdb *db, const ta_ir_type **example);

/* aliasdb_build.c */
uint32_t adb_new_elem(ta_aliasdb *db, const ta_ir_value *v);
void adb_point(ta_aliasdb *db, uint32_t from, uint32_t to);
void adb_contain(ta_aliasdb *db, uint32_t container, uint32_t inner);
bool adb_value_mutable(ta_aliasdb *db, const ta_ir_value *v);
void adb_give_fresh(ta_aliasdb *db, const ta_ir_value *v, bool contained_wildcards);
uint32_t adb_get_or_create(ta_aliasdb *db, const ta_ir_value *v);
uint32_t adb_set_wildcard(ta_aliasdb *db, const ta_ir_value *v);
void adb_make_pointer(ta_aliasdb *db, const ta_ir_value *from, const ta_ir_value *to);
void adb_add_contained(ta_aliasdb *db, const ta_ir_value *inner, const ta_ir_value *container);
void adb_register_write(ta_aliasdb *db, const ta_ir_value *v, const ta_ir_node *n, bool contained);
void adb_analyze_block(ta_aliasdb *db, const ta_ir_block *b);
void adb_nomem(ta_aliasdb *db);
bool adb_must_be_none(const ta_ir_value *v);

/* aliasdb_nodes.c */
void adb_analyze_node(ta_aliasdb *db, const ta_ir_node *n);
void adb_analyze_conservative(ta_aliasdb *db, const ta_ir_node *n);
void adb_analyze_creator(ta_aliasdb *db, const ta_ir_node *n);

/* aliasdb_schema.c */
const ta_ir_op *adb_resolve(ta_aliasdb *db, const ta_ir_node *n);
void adb_analyze_schema(ta_aliasdb *db, const ta_ir_node *n, const ta_ir_op *op);
/* The input of n bound to the schema argument called name, or NULL. */
const ta_ir_value *adb_named_input(ta_aliasdb *db, const ta_ir_node *n, const char *name);

/* The contained locations of some elements (a query's scratch). */
enum { ADB_CLOSURE_INLINE = 32 };

typedef struct adb_closure {
    uint32_t *v;               /* the locations, in visiting order */
    uint32_t n, cap;
    uint32_t *stack;
    uint32_t nstack, cap_stack;
    uint64_t *bits;            /* membership, once there are many */
    bool failed;               /* out of memory */
    bool wildcards;            /* every wildcard is in (an open location was) */
    uint32_t inline_v[ADB_CLOSURE_INLINE], inline_stack[ADB_CLOSURE_INLINE]; /* no malloc when small */
} adb_closure;

/* aliasdb_locs.c */
void adb_closure_init(adb_closure *c);
void adb_closure_add(const ta_aliasdb *db, adb_closure *c, uint32_t e);
void adb_closure_sort(adb_closure *c);
void adb_closure_free(adb_closure *c);
ta_status adb_finish(ta_aliasdb *db);
bool adb_sets_intersect(const adb_set *a, const adb_set *b);
bool adb_set_has(const adb_set *s, uint32_t x);
/* Every location n and the nodes of its blocks write / read, appended to a
 * growable array (duplicates allowed). */
ta_status adb_collect_writes(const ta_aliasdb *db, const ta_ir_node *n, uint32_t **v, uint32_t *nv,
                             uint32_t *cap);
ta_status adb_collect_reads(const ta_aliasdb *db, const ta_ir_node *n, uint32_t **v, uint32_t *nv,
                            uint32_t *cap);

/* aliasdb_graph.c: the points-to graph as igraph (vertex e is element e;
 * "name", "wildcard"; edges' "kind": points-to or contains). */
struct igraph_s;
ta_status adb_to_igraph(const ta_aliasdb *db, struct igraph_s *g);

/* aliasdb_query.c */
uint32_t adb_elem_of(const ta_aliasdb *db, const ta_ir_value *v);
bool adb_side_effects(const ta_aliasdb *db, const ta_ir_node *n);

#endif
