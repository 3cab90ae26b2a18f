/* ir_internal.h - the structures behind tensoralias/ir.h, shared by the IR
 * module's files (graph, types, reader, printer, operator set) and by the
 * alias analysis built on them (aliasdb*.c).
 *
 * Layout, as TorchScript's own IR has it: a block is a doubly linked list of
 * nodes between two sentinels, a param node (whose outputs are the block's
 * parameters) and a return node (whose inputs are the block's outputs), so
 * a block output is an ordinary use and a parameter an ordinary definition.
 * Every node has a 64-bit position within its block for O(1) order tests.
 * Everything is allocated from the graph's arena; arrays that grow are
 * copied to a larger arena allocation (the old one is dropped with the graph).
 */
#ifndef TA_ALIAS_IR_INTERNAL_H
#define TA_ALIAS_IR_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/map.h"
#include "tensoralias/ir.h"

/* ---- well-known node kinds --------------------------------------------- */

/* The kinds the analysis and the printer treat specially; every other kind
 * is IR_K_OTHER. kinds.c maps names to these. */
typedef enum ir_kind {
    IR_K_OTHER = 0,
    IR_K_PARAM,  /* the sentinels */
    IR_K_RETURN,
    IR_K_IF,
    IR_K_LOOP,
    IR_K_CONSTANT,
    IR_K_LIST_CONSTRUCT,
    IR_K_TUPLE_CONSTRUCT,
    IR_K_DICT_CONSTRUCT,
    IR_K_EXTRACTOR,        /* TupleUnpack, TupleIndex, TupleSlice, ListUnpack, PythonOp */
    IR_K_GET_ATTR,
    IR_K_SET_ATTR,
    IR_K_UNINITIALIZED,
    IR_K_CREATOR,          /* the kinds AliasDb gives fresh outputs from nothing */
    IR_K_SUBGRAPH,         /* FusionGroup & co.: need a Subgraph attribute */
    IR_K_FORK,
    IR_K_WAIT,
    IR_K_RPC,
    IR_K_BATCH_NORM,
    IR_K_INSTANCE_NORM,
    IR_K_GRAD_OF,
    IR_K_BROADCAST_MKLDNN,
    IR_K_UNCHECKED_CAST,
    IR_K_CONSTANT_CHUNK,
    IR_K_BROADCASTING_CHUNK,
    IR_K_PROFILE,          /* profile, profile_ivalue: output points to input 0 */
    IR_K_TYPE_CHECK,       /* TypeCheck, RequiresGradCheck */
    IR_K_BAILOUT,
    IR_K_GUARD,
    IR_K_CALL,             /* CallFunction, CallMethod */
    IR_K_ENTER_EXIT,
    IR_K_NOOP,             /* Print, isinstance */
    IR_K_AUTOGRAD_ZERO,
    IR_K_COUNT
} ir_kind;

/* An interned node kind: its name and what it is. */
typedef struct ir_kind_info {
    const char *name;      /* "aten::add", arena-owned */
    uint32_t len;
    ir_kind kind;
    bool side_effects;     /* Node::hasSideEffects' fixed list */
    bool list_non_escaping;/* cat, stack, ...: a list used only here stays in */
} ir_kind_info;

/* Fills info->kind and the flags for name (info->name set by the caller). */
void ir_kind_classify(ir_kind_info *info);

/* ---- types -------------------------------------------------------------- */

typedef struct ir_class_attrs {
    bool declared;         /* complete as declared: the reader adds nothing */
    uint32_t n, cap;
    const char **names;
    const ta_ir_type **types;
} ir_class_attrs;

struct ta_ir_type {
    uint8_t kind;          /* ta_ir_type_kind */
    bool detailed;         /* TENSOR with details (name holds them) */
    bool has_detail_inside;/* this type or an element is a detailed tensor */
    uint32_t id;           /* unique among the types of a table and its parent */
    uint32_t nelems;
    const ta_ir_type **elems;
    const char *name;      /* NUL-terminated, or NULL */
    ir_class_attrs *attrs; /* CLASS only */
};

/* A table of interned types. An analysis keeps a table of its own (for the
 * derived types it needs: unshaped, unions) whose parent is the graph's:
 * lookups try the parent first, so a type equal to a graph type is the graph
 * type, and ids continue after the parent's. */
typedef struct ir_types {
    ta_arena *arena;
    ta_map map;                       /* key bytes -> type */
    const struct ir_types *parent;
    uint32_t base, n;                 /* ids base .. base+n-1 */
    const ta_ir_type *simple[TA_IR_ANY_CLASS + 1];
} ir_types;

ta_status ir_types_init(ir_types *t, ta_arena *arena, const ir_types *parent);
void ir_types_clear(ir_types *t);
/* The interned type of that shape (made when new). NULL on OOM. */
const ta_ir_type *ir_type_make(ir_types *t, ta_ir_type_kind kind,
                               const ta_ir_type *const *elems, uint32_t n,
                               const char *name, size_t name_len);
const ta_ir_type *ir_type_simple(ir_types *t, ta_ir_type_kind kind);
/* Union(T, NoneType) is T? (as torch normalizes it); other unions as given. */
const ta_ir_type *ir_type_union(ir_types *t, const ta_ir_type *const *elems, uint32_t n);
/* "Tensor", "int", ... for the simple kinds; NULL for the others. */
const char *ir_type_simple_name(ta_ir_type_kind kind);
/* Number of ids used by t and its parents. */
uint32_t ir_types_count(const ir_types *t);
/* Parses a type at text[*pos..len); on success *pos is after it. Returns
 * NULL and sets *err_pos on a syntax error (OOM: *err_pos = SIZE_MAX). */
const ta_ir_type *ir_type_parse_at(ir_types *t, const char *text, size_t len,
                                   size_t *pos, size_t *err_pos, const char **err_msg);
/* The IR type a schema type denotes (ScalarType -> int, SymInt -> int,
 * Scalar -> Scalar, t -> type variable, ...). NULL on OOM. */
const ta_ir_type *ir_type_from_schema(ir_types *t, const ta_type *st);
ta_status ir_class_add_attr(ta_arena *arena, const ta_ir_type *cls, const char *name,
                            size_t name_len, const ta_ir_type *type);

/* ---- graph ---------------------------------------------------------------- */

typedef struct ir_use {
    ta_ir_node *user;  /* a return node for a block output */
    uint32_t index;
    uint32_t user_id;  /* user->id, in what was padding: a pass filtering a
                        * value's thousands of uses by user need not load each */
} ir_use;

struct ta_ir_value {
    uint32_t id;
    uint32_t offset;        /* output index in its node */
    const ta_ir_type *type;
    const char *name;       /* without '%' */
    ta_ir_node *node;       /* defining node (a param node for parameters) */
    ir_use *uses;
    uint32_t nuses, cap_uses;
};

typedef struct ir_attr {
    const char *name;
    const char *value;      /* as printed */
} ir_attr;

/* What a walk over the nodes reads comes first, in 64 bytes: a pass over a
 * large graph misses the cache on nearly every node, once a line. */
struct ta_ir_node {
    uint32_t id;
    uint32_t ninputs;
    const ir_kind_info *kind;
    ta_ir_node *prev, *next;
    ta_ir_value **inputs;
    ta_ir_value **outputs;
    uint32_t noutputs, nblocks;
    ta_ir_block *block;     /* NULL while detached */
    ta_ir_block **blocks;
    ta_ir_graph *graph;
    int64_t topo;
    uint32_t cap_inputs, cap_outputs, cap_blocks;
    uint32_t nattrs, cap_attrs;
    ir_attr *attrs;
    const char *source;     /* the "# ..." comment, without "# " */
    uint32_t line, col;     /* where the reader found it (0 when built) */
};

struct ta_ir_block {
    ta_ir_graph *graph;
    ta_ir_node *owner;      /* NULL for the top block */
    ta_ir_node *param;      /* sentinel before the first node */
    ta_ir_node *ret;        /* sentinel after the last node */
};

struct ta_ir_graph {
    ta_arena *arena;
    ir_types types;
    ta_map names;           /* value name -> value (NULL when freed) */
    ta_map kinds;           /* node kind -> ir_kind_info */
    ta_ir_block *top;
    uint32_t nvalues, nnodes;
    uint64_t next_number;   /* next free numeric name */
    const char *source;     /* the name the reader was given, for diagnostics */
    ta_ir_value *vnext, *vend; /* values come from blocks of their own, so
                                  the ones a pass looks at share cache lines */
};

/* Grows an arena array of elements of size sz to hold at least need. */
ta_status ir_grow(ta_arena *a, void **arr, uint32_t *cap, uint32_t need, size_t sz);
const ir_kind_info *ir_graph_kind(ta_ir_graph *g, const char *name, size_t len);
ta_ir_value *ir_value_new(ta_ir_graph *g, ta_ir_node *def, const char *name,
                          size_t name_len, const ta_ir_type *type);
/* A value called exactly name (whose ta_map_hash_bytes is h), unless the
 * name is taken (*taken). NULL on OOM too (*taken false). */
ta_ir_value *ir_value_define(ta_ir_graph *g, ta_ir_node *def, const char *name, size_t name_len,
                             uint64_t h, const ta_ir_type *type, bool *taken);
/* Frees v's name (v is being removed). */
void ir_value_forget(ta_ir_graph *g, ta_ir_value *v);
/* Frees many values' names: each is looked up a few values after its slot
 * was prefetched (a large graph's name map misses the cache). Values go in
 * with ir_forget_push, the last few out with ir_forget_flush. */
enum { IR_FORGET_AHEAD = 8 };
typedef struct ir_forget_queue {
    ta_ir_value *v[IR_FORGET_AHEAD];
    uint64_t hash[IR_FORGET_AHEAD];
    uint32_t head, n;
} ir_forget_queue;
void ir_forget_push(ta_ir_graph *g, ir_forget_queue *q, ta_ir_value *v);
void ir_forget_flush(ta_ir_graph *g, ir_forget_queue *q);
ta_status ir_value_add_use(ta_ir_graph *g, ta_ir_value *v, ta_ir_node *user, uint32_t index);
void ir_value_drop_use(ta_ir_value *v, ta_ir_node *user, uint32_t index);
/* Drops v's uses by the nodes marked in gone (indexed by node id), keeping
 * the others in order. */
void ir_value_drop_uses_by(ta_ir_value *v, const uint8_t *gone);
ta_ir_node *ir_node_new(ta_ir_graph *g, const ir_kind_info *kind);
/* ta_ir_node_create with the kind looked up already (ir_graph_kind). */
ta_status ir_node_create_kind(ta_ir_graph *g, const ir_kind_info *k, ta_ir_value *const *inputs, uint32_t ninputs,
                              uint32_t noutputs, ta_ir_node **out);
ta_ir_block *ir_block_new(ta_ir_graph *g, ta_ir_node *owner);
/* Inserts detached n after pos (a node or the param sentinel). */
void ir_node_link_after(ta_ir_node *n, ta_ir_node *pos);
/* Removes n (no sentinel), whose outputs have no uses and whose inputs'
 * uses the caller drops itself (ir_value_drop_uses_by), the names of its
 * outputs freed through q. */
void ir_node_remove_unused(ta_ir_graph *g, ta_ir_node *n, ir_forget_queue *q);
/* The node of `target`'s chain of enclosing nodes that sits in block b, or
 * NULL when target is not inside b. */
ta_ir_node *ir_node_in_block(ta_ir_node *target, const ta_ir_block *b);
/* Whether a name is a decimal number (such names are auto names). */
bool ir_name_is_number(const char *s, size_t len, uint64_t *value);

/* ---- operators ------------------------------------------------------------ */

/* match.c: structural equality and TorchScript's subtyping of types (of
 * any tables), and Node::matches. */
bool ir_type_equal(const ta_ir_type *a, const ta_ir_type *b);
bool ir_type_subtype(const ta_ir_type *a, const ta_ir_type *f);
typedef struct ta_ir_op ta_ir_op;
bool ir_op_matches(const ta_ir_op *op, const ta_ir_node *n);

/* resolver.c: ta_ir_ops_resolve with a cache of (kind, input types) -> op,
 * for a pass over one graph and one operator set. */
enum { IR_RESOLVER_SLOTS = 256, IR_RESOLVER_INPUTS = 6 };
typedef struct ir_resolver_slot {
    const ir_kind_info *kind;
    uint32_t ninputs;
    const ta_ir_type *types[IR_RESOLVER_INPUTS];
    const ta_ir_op *op;
} ir_resolver_slot;
typedef struct ir_resolver {
    const ta_ir_ops *ops;
    ir_resolver_slot slot[IR_RESOLVER_SLOTS];
} ir_resolver;
void ir_resolver_init(ir_resolver *r, const ta_ir_ops *ops);
const ta_ir_op *ir_resolve(ir_resolver *r, const ta_ir_node *n);

/* ops.c: adds one schema (see ta_ir_ops_add); opts place it in diagnostics. */
ta_status ir_ops_add_schema(ta_ir_ops *ops, const char *text, size_t len, ta_ir_alias_kind kind,
                            const ta_parse_opts *opts, bool *added, ta_diags *diags);
/* Whether the overload "ns::name.overload" ("ns::name." for the one without
 * a name) is in the set. */
bool ir_ops_has_overload(const ta_ir_ops *ops, const char *key, size_t len);

enum { IR_MAX_SLOT_SETS = 4 };

/* An argument's or return's alias annotation as AliasDb reads it (the
 * annotation c10::Argument keeps, a list's element annotation standing in
 * for the list's), worked out once when the operator is added. */
typedef struct ir_alias_slot {
    bool present;
    bool write;
    bool wild_before;  /* "*" among the sets before */
    bool wild_after;   /* "*" among the sets after "->" */
    bool same;         /* the sets after are the sets before */
    uint8_t nsets;     /* sets before, "*" left out */
    uint8_t sets[IR_MAX_SLOT_SETS]; /* set names numbered within the schema */
} ir_alias_slot;

struct ta_ir_op {
    const ta_schema *schema;
    ta_ir_alias_kind kind;
    const char *text;
    const ta_ir_type **formals; /* argument types as TorchScript sees them */
    uint32_t nformals;
    bool vararg;
    ir_alias_slot *args, *rets; /* schema->nargs, schema->nrets */
    ta_ir_op *next;             /* the next overload of the same name */
};

#endif
