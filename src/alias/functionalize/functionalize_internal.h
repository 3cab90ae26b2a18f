/* functionalize_internal.h - the functionalization pass behind
 * tensoralias/functionalize.h, shared by its files:
 *   plan.c          where each value's memory comes from (its alias), what
 *                   each node writes and its functional counterpart, and
 *                   which memory cannot be followed exactly (tainted)
 *   counterpart.c   functional counterparts (torchgen's signature groups),
 *                   view kinds and their scatters
 *   env.c           the current value of every memory root and view in a
 *                   scope: reading (views taken again), writing (scatters)
 *   rewrite.c       the rewrite, block by block: nodes (each write becomes its
 *                   counterpart in place), If, Loop, copy-back, dead nodes
 *   functionalize.c the entry point and the report
 *
 * An alias says how to rebuild a value from memory roots: a root is memory
 * the graph owns as a whole (a graph input, a fresh operator output); a view
 * is a known view operator applied to another value; a cond is one of two
 * aliases chosen by a bool (a prim::If output whose branches return
 * different memory); an aggregate is a list or tuple built from values; an
 * unknown alias is one the pass cannot follow, and taints its roots.
 */
#ifndef TA_ALIAS_FUNC_INTERNAL_H
#define TA_ALIAS_FUNC_INTERNAL_H

#include "alias/ir/ir_internal.h"
#include "tensoralias/functionalize.h"
#include "tensoralias/torchgen.h"

typedef enum fn_alias_kind {
    FN_NONE = 0, /* holds no tensor memory (ints, strings, classes) */
    FN_ROOT,
    FN_VIEW,
    FN_COND,
    FN_AGG,
    FN_UNKNOWN
} fn_alias_kind;

typedef struct fn_alias fn_alias;
struct fn_alias {
    fn_alias_kind kind;
    ta_ir_value *root;        /* ROOT */
    ta_ir_node *view;         /* VIEW: the view node */
    ta_ir_value *parent;      /* VIEW: its input 0 as it was (the walk renames inputs) */
    ta_ir_value *cond;        /* COND */
    const fn_alias *alt[2];   /* COND: alt[0] when cond is true */
    ta_ir_node *ctor;         /* AGG: the ListConstruct / TupleConstruct */
    ta_ir_value **elems;      /* AGG: its inputs as they were; UNKNOWN: roots */
    uint32_t nelems;
};

enum { FN_MAX_ROOTS = 256 };

/* How the walk treats a node. */
typedef enum fn_node_plan {
    FN_PLAIN = 0,  /* read its inputs, nothing else */
    FN_FUNCTIONAL, /* a write with a functional counterpart */
    FN_KEEP        /* a write left in place (reason in fn_plan.why) */
} fn_node_plan;

typedef struct fn_write_plan {
    const ta_ir_op *op;     /* the node's own operator */
    const char *fkind;      /* the counterpart's kind, "aten::add" */
    uint32_t fnrets;        /* the counterpart's returns */
    uint32_t *inputs;       /* node inputs passed to the counterpart, in order */
    uint32_t ninputs;
    uint32_t *written;      /* node inputs written ... */
    uint32_t *from;         /* ... and the counterpart output with their value */
    uint32_t nwritten;
    int32_t *out_of;        /* per node output: the written[] entry it returns, -1, or
                             * -2 - i: the counterpart's output i (mutable's own returns) */
    uint32_t nouts;         /* the node's outputs */
} fn_write_plan;

/* The pass over one graph. Arrays indexed by value or node id cover the ids
 * the graph had when the pass began; what the pass adds is never looked up. */
typedef struct fn_pass {
    ta_ir_graph *g;
    const ta_ir_ops *ops;
    ta_arena *arena;          /* aliases, plans, strings */
    ta_diags *diags;
    uint32_t nvalues, nnodes;
    const fn_alias **alias;   /* per value */
    fn_node_plan *plan;       /* per node */
    fn_write_plan **wplan;    /* per node (FUNCTIONAL and KEEP) */
    const char **why;         /* per node: KEEP's reason */
    uint32_t *uf;             /* union-find over value ids (roots' classes) */
    const char **taint;       /* per class representative: why it stays, or NULL */
    uint32_t *mem_start;      /* members: values whose alias reaches root r are */
    uint32_t *mem;            /* mem[mem_start[r] .. mem_start[r+1]) */
    ta_ir_value **guard;      /* per loop node: "its body runs", made once */
    ta_ir_value **first;      /* per loop node: "first iteration", made once */
    uint32_t *stamp;          /* per value: scratch marks */
    uint32_t now;             /* the current mark */
    ta_func_report *report;
    bool no_copy_back;
    bool oom;                 /* an allocation failed where the plan went on safely */
} fn_pass;

/* ---- plan.c ---- */
ta_status fn_plan_graph(fn_pass *p);
uint32_t fn_find(fn_pass *p, uint32_t v);
/* Why the memory of value v's class must stay mutable, or NULL. */
const char *fn_tainted(fn_pass *p, const ta_ir_value *v);
/* The roots a reaches (through views, conds, aggregates) into out (up to
 * cap), after the n already there; returns the new count. */
uint32_t fn_roots(fn_pass *p, const fn_alias *a, ta_ir_value **out, uint32_t n, uint32_t cap);
/* Collects the roots of a (value pointers) into out (up to cap); returns the count. */
uint32_t fn_alias_roots(const fn_alias *a, ta_ir_value **out, uint32_t n, uint32_t cap);
/* Whether v is visible in block b (defined in b or a block enclosing it). */
bool fn_visible(const ta_ir_value *v, const ta_ir_block *b);
const fn_alias *fn_alias_of(const fn_pass *p, const ta_ir_value *v);
/* A prim::If / prim::Loop of the shape the pass threads values through. */
bool fn_is_if(const ta_ir_node *n);
bool fn_is_loop(const ta_ir_node *n);

/* ---- counterpart.c ---- */
typedef enum fn_view_kind {
    FN_NOT_VIEW = 0, FN_V_SELECT, FN_V_SLICE, FN_V_DIAGONAL, FN_V_AS_STRIDED,
    FN_V_TRANSPOSE, FN_V_T, FN_V_UNSQUEEZE
} fn_view_kind;
fn_view_kind fn_view_kind_of(const ta_ir_op *op);
/* The write plan of a mutating node, or NULL with *why set (arena string). */
ta_status fn_counterpart(fn_pass *p, ta_ir_node *n, const ta_ir_op *op, fn_write_plan **out,
                         const char **why);
/* Whether op writes any argument. */
bool fn_op_writes(const ta_ir_op *op);

/* ---- env.c ---- */
typedef struct fn_cursor {
    ta_ir_block *block;
    ta_ir_node *before; /* NULL: at the end of block */
} fn_cursor;

typedef struct fn_env {
    ta_ir_value **rcur;  /* per root: its current value */
    ta_ir_value **vcur;  /* per value: its current value, NULL when to be taken again */
    ta_ir_value **dirty; /* roots written in this scope, in order */
    uint32_t ndirty, cap_dirty;
} fn_env;

ta_status fn_env_init(fn_pass *p, fn_env *e);
ta_status fn_env_copy(fn_pass *p, fn_env *dst, const fn_env *src);
void fn_env_free(fn_env *e);
ta_status fn_emit(fn_pass *p, fn_cursor c, ta_ir_node *n);
/* The value holding v's current contents at c (v itself when untouched). */
ta_status fn_read(fn_pass *p, fn_env *e, fn_cursor c, ta_ir_value *v, ta_ir_value **out);
/* Writes nv as the new contents of the memory a describes. */
ta_status fn_write(fn_pass *p, fn_env *e, fn_cursor c, const fn_alias *a, ta_ir_value *nv);
/* Sets root r's current value in e and marks what views it for taking again. */
ta_status fn_set_root(fn_pass *p, fn_env *e, ta_ir_value *root, ta_ir_value *v);
/* After an If with blocks b0, b1 processed in e0, e1: the roots written in
 * either leave the If as new outputs, now current in e. */
ta_status fn_merge_if(fn_pass *p, fn_env *e, ta_ir_node *ifn, fn_env *e0, fn_env *e1);

/* ---- functionalize.c ---- */
struct ta_func_report {
    ta_func_counts counts;
    ta_func_kept *kept;
    size_t nkept, cap_kept;
    ta_arena *arena;          /* the kept nodes' strings */
};
ta_status fn_report_kept(fn_pass *p, const ta_ir_node *n, const char *why);

/* ---- rewrite.c ---- */
ta_status fn_walk_graph(fn_pass *p);
ta_status fn_walk_block(fn_pass *p, fn_env *e, ta_ir_block *b);

#endif
