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
 *   loop_parity.c   loops carrying a tensor as its own transpose: a carried
 *                   bool says which of two it is (made before planning)
 *   loop_unroll.c   loops the plan cannot follow, unrolled when their trip
 *                   count is a small constant (then planned again)
 *   interpreter_quirk.c  block results read in nested loops returned through
 *                   aten::alias (torch 1.13.1's interpreter frees them early)
 *   functionalize.c the entry point and the report
 *
 * An alias says how to rebuild a value from memory roots: a root is memory
 * the graph owns as a whole (a graph input, a fresh operator output); a view
 * is a known view operator applied to another value; a cond is one of two
 * aliases chosen by a bool (a prim::If output whose branches return
 * different memory); an aggregate is a list or tuple built from values; an
 * unknown alias is one the pass cannot follow, and taints its roots.
 *
 * Names shared by these files carry the prefix fz_ ("fn" and "func" are
 * the yaml's functions, ta_native_func, everywhere else).
 */
#ifndef TA_ALIAS_FUNCTIONALIZE_INTERNAL_H
#define TA_ALIAS_FUNCTIONALIZE_INTERNAL_H

#include "alias/ir/ir_internal.h"
#include "base/map.h"
#include "tensoralias/functionalize.h"
#include "tensoralias/torchgen.h"

typedef enum fz_alias_kind {
    FZ_NONE = 0, /* holds no tensor memory (ints, strings, classes) */
    FZ_ROOT,
    FZ_VIEW,
    FZ_COND,
    FZ_AGG,
    FZ_UNKNOWN
} fz_alias_kind;

typedef struct fz_alias fz_alias;
struct fz_alias {
    fz_alias_kind kind;
    ta_ir_value *root;        /* ROOT */
    ta_ir_node *view;         /* VIEW: the view node */
    ta_ir_value *parent;      /* VIEW: its input 0 as it was (the walk renames inputs) */
    const fz_alias *up;       /* VIEW: instead of parent's alias (then parent is NULL): one
                               * alternative of a cond the view was pushed into */
    ta_ir_value *cond;        /* COND */
    const fz_alias *alt[2];   /* COND: alt[0] when cond is true */
    ta_ir_node *ctor;         /* AGG: the ListConstruct / TupleConstruct */
    ta_ir_value **elems;      /* AGG: its inputs as they were; UNKNOWN: roots */
    uint32_t nelems;
    uint32_t seen;            /* COND, AGG: the fz_roots walk that last visited it */
};

enum { FZ_MAX_ROOTS = 256 };

/* How the walk treats a node. */
typedef enum fz_node_plan {
    FZ_PLAIN = 0,  /* read its inputs, nothing else */
    FZ_FUNCTIONAL, /* a write with a functional counterpart */
    FZ_KEEP        /* a write left in place (reason in fz_plan.why) */
} fz_node_plan;

typedef struct fz_write_plan {
    const ta_ir_op *op;     /* the node's own operator */
    const char *fkind;      /* the counterpart's kind, "aten::add" */
    const ir_kind_info *fk; /* ... in the graph, once a node became it (nodes alike share a plan) */
    uint32_t fnrets;        /* the counterpart's returns */
    uint32_t *inputs;       /* node inputs passed to the counterpart, in order */
    uint32_t ninputs;
    uint32_t *written;      /* node inputs written ... */
    uint32_t *from;         /* ... and the counterpart output with their value */
    uint32_t nwritten;
    int32_t *out_of;        /* per node output: the written[] entry it returns, -1, or
                             * -2 - i: the counterpart's output i (mutable's own returns) */
    uint32_t nouts;         /* the node's outputs */
    const ta_ir_op *fop;    /* the counterpart */
} fz_write_plan;

/* Whether a mutating operator's counterpart has its torchgen signature:
 * computed once per pair (the signature is the costly part of planning). */
typedef struct fz_sig_verdict {
    const ta_ir_op *op, *fop;
    bool same;
} fz_sig_verdict;
enum { FZ_SIG_CACHE = 64 };

/* A write plan depends on the node's kind, its input types (they choose
 * the overloads) and its number of outputs only: nodes alike share one. */
enum { FZ_CP_SLOTS = 128, FZ_CP_INPUTS = 6, FZ_VK_SLOTS = 64 };
typedef struct fz_cp_slot {
    const ir_kind_info *kind;
    uint32_t ninputs, noutputs;
    const ta_ir_type *types[FZ_CP_INPUTS];
    fz_write_plan *w;
    const char *why;
} fz_cp_slot;

/* A loop's carried tensor j that each iteration transposes (loop_parity.c). */
typedef struct fz_parity {
    const ta_ir_node *loop;
    uint32_t j;
    ta_ir_value *transposed; /* its initial value transposed, before the loop */
    ta_ir_value *flag;       /* the body's bool: it is the initial value itself */
    ta_ir_value *flag_out;   /* the loop's result of that bool */
} fz_parity;

/* The pass over one graph. Arrays indexed by value or node id cover the ids
 * the graph had when the pass began; what the pass adds is never looked up. */
typedef struct fz_pass {
    ta_ir_graph *g;
    const ta_ir_ops *ops;
    ta_arena *arena;          /* aliases, plans, strings */
    ta_diags *diags;
    uint32_t nvalues, nnodes;
    const fz_alias **alias;   /* per value */
    fz_node_plan *plan;       /* per node */
    fz_write_plan **wplan;    /* per node (FUNCTIONAL and KEEP) */
    const char **why;         /* per node: KEEP's reason */
    uint32_t *uf;             /* union-find over value ids (roots' classes) */
    const char **taint;       /* per class representative: why it stays, or NULL */
    uint8_t *foreign;         /* ... and whether for a reason other than a loop's carrying */
    uint32_t *mem_start;      /* members: values whose alias reaches root r are */
    uint32_t *mem;            /* mem[mem_start[r] .. mem_start[r+1]) */
    ta_ir_value **guard;      /* per loop node: "its body runs", made once */
    ta_ir_value **first;      /* per loop node: "first iteration", made once */
    ir_resolver *resolver;    /* resolutions by kind and input types */
    struct fz_cp_slot *cp;    /* counterparts by kind, input and output types (counterpart.c) */
    const ta_ir_op **op;      /* per node: its operator, once resolved ... */
    uint8_t *op_done;         /* ... which it is when this is set */
    uint32_t nop;             /* nodes the two have room for */
    fz_sig_verdict sig[FZ_SIG_CACHE];
    uint32_t nsig;
    uint8_t *unroll;          /* per loop node: the plan cannot follow what it carries */
    fz_parity *parity;        /* loop_parity.c's loops */
    uint32_t nparity, cap_parity;
    uint32_t *stamp;          /* per value: scratch marks */
    uint32_t now;             /* the current mark */
    uint32_t walk;            /* the current fz_roots walk (fz_alias.seen) */
    ta_map conds, views;      /* conds and views on `up`, one alias per content (plan.c) */
    ta_map pushed;            /* push_views's result per view taken on its base (views) */
    bool has_loop;            /* the plan met a prim::Loop (interpreter_quirk.c) */
    const ir_kind_info *scatter_kind[8]; /* per fz_view_kind: what undoes it (env.c) */
    const ta_ir_op *vk_op[FZ_VK_SLOTS];  /* fz_view_kind_at's operators ... */
    uint8_t vk[FZ_VK_SLOTS];             /* ... and their view kinds */
    bool counting;            /* fz_op counts the mutating nodes it resolves (the first plan) */
    uint32_t nmutating;       /* ... here */
    ta_functionalize_report *report;
    bool no_copy_back;
    bool oom;                 /* an allocation failed where the plan went on safely */
} fz_pass;

/* ---- plan.c ---- */
ta_status fz_plan_graph(fz_pass *p);
uint32_t fz_find(fz_pass *p, uint32_t v);
/* Why the memory of value v's class must stay mutable, or NULL. */
const char *fz_tainted(fz_pass *p, const ta_ir_value *v);
/* Whether that is for a reason other than a loop carrying it (or too many roots). */
bool fz_tainted_foreign(fz_pass *p, const ta_ir_value *v);
/* The roots a reaches (through views, conds, aggregates) into out, after
 * the n already there, each once when the list fills up; returns the new
 * count, cap when there are more (or the chain is too deep to follow). */
uint32_t fz_roots(fz_pass *p, const fz_alias *a, ta_ir_value **out, uint32_t n, uint32_t cap);
/* Whether v is visible in block b (defined in b or a block enclosing it). */
bool fz_visible(const ta_ir_value *v, const ta_ir_block *b);
const fz_alias *fz_alias_of(const fz_pass *p, const ta_ir_value *v);
/* The alias a VIEW views. */
const fz_alias *fz_view_base(const fz_pass *p, const fz_alias *a);
/* A prim::If / prim::Loop of the shape the pass threads values through. */
bool fz_is_if(const ta_ir_node *n);
bool fz_is_loop(const ta_ir_node *n);

/* ---- counterpart.c ---- */
typedef enum fz_view_kind { /* scattered into their base first, then inverted (env.c) */
    FZ_NOT_VIEW = 0, FZ_V_SELECT, FZ_V_SLICE, FZ_V_DIAGONAL, FZ_V_AS_STRIDED,
    FZ_V_TRANSPOSE, FZ_V_T, FZ_V_UNSQUEEZE
} fz_view_kind;
fz_view_kind fz_view_kind_of(const ta_ir_op *op);
/* The same, remembered per operator (planning asks for every node). */
fz_view_kind fz_view_kind_at(fz_pass *p, const ta_ir_op *op);
/* The write plan of a mutating node, or NULL with *why set (arena string). */
ta_status fz_counterpart(fz_pass *p, ta_ir_node *n, const ta_ir_op *op, fz_write_plan **out,
                         const char **why);
/* Whether op writes any argument. */
bool fz_op_writes(const ta_ir_op *op);

/* ---- env.c ---- */
typedef struct fz_cursor {
    ta_ir_block *block;
    ta_ir_node *before; /* NULL: at the end of block */
} fz_cursor;

typedef struct fz_env {
    ta_ir_value **rcur;  /* per root: its current value */
    ta_ir_value **vcur;  /* per value: its current value, NULL when to be taken again */
    ta_ir_value **dirty; /* roots written in this scope, in order */
    uint32_t ndirty, cap_dirty;
} fz_env;

ta_status fz_env_init(fz_pass *p, fz_env *e);
ta_status fz_env_copy(fz_pass *p, fz_env *dst, const fz_env *src);
void fz_env_free(fz_env *e);
ta_status fz_emit(fz_pass *p, fz_cursor c, ta_ir_node *n);
/* The value holding v's current contents at c (v itself when untouched). */
ta_status fz_read(fz_pass *p, fz_env *e, fz_cursor c, ta_ir_value *v, ta_ir_value **out);
/* Writes nv as the new contents of the memory a describes. */
ta_status fz_write(fz_pass *p, fz_env *e, fz_cursor c, const fz_alias *a, ta_ir_value *nv);
/* Sets root r's current value in e and marks what views it for taking again. */
ta_status fz_set_root(fz_pass *p, fz_env *e, ta_ir_value *root, ta_ir_value *v);
/* After an If with blocks b0, b1 processed in e0, e1: the roots written in
 * either leave the If as new outputs, now current in e. */
ta_status fz_merge_if(fz_pass *p, fz_env *e, ta_ir_node *ifn, fz_env *e0, fz_env *e1);

/* ---- functionalize.c ---- */
/* The operator node n resolves to (NULL: none), resolved once per node. */
const ta_ir_op *fz_op(fz_pass *p, const ta_ir_node *n);
/* Node n now resolves to op (it became its counterpart). */
void fz_set_op(fz_pass *p, const ta_ir_node *n, const ta_ir_op *op);
struct ta_functionalize_report {
    ta_functionalize_counts counts;
    ta_functionalize_kept *kept;
    size_t nkept, cap_kept;
    ta_arena *arena;          /* the kept nodes' strings */
};
ta_status fz_report_kept(fz_pass *p, const ta_ir_node *n, const char *why);

/* ---- loop_parity.c ---- */
ta_status fz_prepare_parity(fz_pass *p);
const fz_parity *fz_parity_of(const fz_pass *p, const ta_ir_node *loop, uint32_t j);

/* ---- loop_unroll.c ---- */
/* The loops the plan marked that may be unrolled, inner ones first, into
 * *out (to free); returns their count. */
uint32_t fz_unroll_candidates(fz_pass *p, ta_ir_node ***out);
/* Unrolls those loops of g still small enough, counting them in *done;
 * parity entries follow the loops copied. */
ta_status fz_unroll(ta_ir_graph *g, ta_ir_node *const *loops, uint32_t n, fz_parity **parity, uint32_t *nparity,
                    uint32_t *cap_parity, uint32_t *done);
enum { FZ_UNROLL_ROUNDS = 4 };
 /* plans after unrolling: loops inside loops copied */

/* ---- interpreter_quirk.c ---- */
ta_status fz_guard_interpreter(fz_pass *p);

/* ---- rewrite.c ---- */
ta_status fz_walk_graph(fz_pass *p);
ta_status fz_walk_block(fz_pass *p, fz_env *e, ta_ir_block *b);

#endif
