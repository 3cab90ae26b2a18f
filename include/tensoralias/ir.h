/* tensoralias/ir.h - whole graphs of operators, as TorchScript has them: a
 * C builder, the TorchScript IR reader and printer, and the operator set
 * nodes are resolved against.
 *
 * A ta_ir_graph owns everything in it: types, values, nodes and blocks live
 * until ta_ir_graph_destroy. A graph has inputs, one top block of nodes and
 * outputs; a node has an operator kind ("aten::add", "prim::If"), input
 * values, output values, attributes and sub-blocks (prim::If has two,
 * prim::Loop one), and a block has parameters, nodes and outputs. Every value
 * knows its uses, so a pass can rewrite the graph: insert, move and remove
 * nodes, replace the uses of a value after a point, add block outputs,
 * loop-carried values and graph outputs.
 *
 * The text format is the one torch 1.13.1 prints (str(graph)):
 *
 *   graph(%x : Tensor,
 *         %c : bool):
 *     %one : int = prim::Constant[value=1]()
 *     %y : Tensor = aten::add(%x, %x, %one) # model.py:3:8
 *     %z : Tensor = prim::If(%c)
 *       block0():
 *         -> (%y)
 *       block1():
 *         %w : Tensor = aten::relu_(%y)
 *         -> (%w)
 *     return (%z)
 *
 * ta_ir_read reads it (with a positioned diagnostic for anything malformed)
 * and ta_ir_write prints it back byte for byte.
 *
 * Operators are resolved to schemas by a ta_ir_ops set: IR names an operator
 * without its overload, and the overload is the first one, in registration
 * order, whose arguments accept the node's input types (TorchScript's
 * Node::matches). The default set is torch 1.13.1's registered operators
 * (with how AliasDb treats each: from its schema, conservatively, as a pure
 * function, or as a special case) plus the bundled native_functions.yaml's.
 */
#ifndef TENSORALIAS_IR_H
#define TENSORALIAS_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tensoralias/diag.h"
#include "tensoralias/export.h"
#include "tensoralias/native.h"
#include "tensoralias/schema.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ta_ir_graph ta_ir_graph;
typedef struct ta_ir_block ta_ir_block;
typedef struct ta_ir_node ta_ir_node;
typedef struct ta_ir_value ta_ir_value;
typedef struct ta_ir_type ta_ir_type;

/* ---- types ------------------------------------------------------------ */

/* TorchScript's types. A type belongs to the graph that made it and is
 * interned there: two equal types of one graph are the same pointer. */
typedef enum ta_ir_type_kind {
    TA_IR_TENSOR = 0, /* Tensor, or Float(2, 3, strides=[3, 1], ...) */
    TA_IR_INT,
    TA_IR_FLOAT,
    TA_IR_COMPLEX,
    TA_IR_NUMBER,     /* Scalar */
    TA_IR_BOOL,
    TA_IR_STR,
    TA_IR_NONE,       /* NoneType */
    TA_IR_DEVICE,
    TA_IR_GENERATOR,
    TA_IR_STORAGE,
    TA_IR_STREAM,
    TA_IR_QSCHEME,
    TA_IR_CAPSULE,
    TA_IR_ANY,
    TA_IR_ANY_LIST,   /* AnyListType */
    TA_IR_ANY_TUPLE,  /* AnyTupleType */
    TA_IR_ANY_CLASS,  /* AnyClassType */
    TA_IR_OPTIONAL,   /* T? */
    TA_IR_LIST,       /* T[] */
    TA_IR_TUPLE,      /* (T1, T2) */
    TA_IR_DICT,       /* Dict(K, V) */
    TA_IR_FUTURE,     /* Future(T) */
    TA_IR_RREF,       /* RRef(T) */
    TA_IR_AWAIT,      /* Await(T) */
    TA_IR_UNION,      /* Union(T1, T2) */
    TA_IR_CLASS,      /* __torch__.x.Y, with named attributes */
    TA_IR_VAR,        /* a type variable of a schema: t, t1 */
    TA_IR_OTHER       /* any other name, kept as written */
} ta_ir_type_kind;

TA_API ta_ir_type_kind ta_ir_type_kind_of(const ta_ir_type *t);
/* Element count and elements of a composite type (OPTIONAL, LIST, FUTURE,
 * RREF, AWAIT: 1; DICT: 2; TUPLE, UNION: n); 0 / NULL otherwise. */
TA_API uint32_t ta_ir_type_nelems(const ta_ir_type *t);
TA_API const ta_ir_type *ta_ir_type_elem(const ta_ir_type *t, uint32_t i);
/* The class name, type variable name, other name, or the tensor details
 * ("Float(2, 3, ...)"; NULL for a plain Tensor). */
TA_API const char *ta_ir_type_name(const ta_ir_type *t);

/* Simple types: kind is one of TENSOR (plain) to ANY_CLASS. NULL on OOM or
 * a kind that needs arguments. */
TA_API const ta_ir_type *ta_ir_type_simple(ta_ir_graph *g, ta_ir_type_kind kind);
/* A Tensor with the details torch prints, e.g. "Float(2, 3, strides=[3, 1],
 * requires_grad=0, device=cpu)": kept as text, and a subtype of Tensor. */
TA_API const ta_ir_type *ta_ir_type_tensor_with(ta_ir_graph *g, const char *details);
TA_API const ta_ir_type *ta_ir_type_optional(ta_ir_graph *g, const ta_ir_type *elem);
TA_API const ta_ir_type *ta_ir_type_list(ta_ir_graph *g, const ta_ir_type *elem);
TA_API const ta_ir_type *ta_ir_type_tuple(ta_ir_graph *g, const ta_ir_type *const *elems,
                                          uint32_t n);
TA_API const ta_ir_type *ta_ir_type_dict(ta_ir_graph *g, const ta_ir_type *key,
                                         const ta_ir_type *value);
TA_API const ta_ir_type *ta_ir_type_future(ta_ir_graph *g, const ta_ir_type *elem);
TA_API const ta_ir_type *ta_ir_type_union(ta_ir_graph *g, const ta_ir_type *const *elems,
                                          uint32_t n);
/* The class type of that qualified name (made on first use). */
TA_API const ta_ir_type *ta_ir_type_class(ta_ir_graph *g, const char *qualified_name);
/* Declares attribute name of a class type (a no-op when it is declared
 * already). AliasDb counts what a class object may contain by the types of
 * its attributes; the reader declares those GetAttr and SetAttr show. */
TA_API ta_status ta_ir_class_add_attr(ta_ir_graph *g, const ta_ir_type *cls,
                                      const char *name, const ta_ir_type *type);
/* Says that the attributes added so far are all the class has (the reader
 * then adds none). Only then does the analysis know what an object of the
 * class may contain, as AliasDb does from the class's attribute types: a
 * graph shows only the attributes it reads, so an object of a class not
 * declared whole is taken to contain any mutable value (and the analysis
 * says so in a note). ta_ir_read_classes declares classes whole. */
TA_API ta_status ta_ir_class_declare_whole(ta_ir_graph *g, const ta_ir_type *cls);
TA_API bool ta_ir_class_is_whole(const ta_ir_type *cls);
TA_API uint32_t ta_ir_class_nattrs(const ta_ir_type *cls);
TA_API const char *ta_ir_class_attr_name(const ta_ir_type *cls, uint32_t i);
TA_API const ta_ir_type *ta_ir_class_attr_type(const ta_ir_type *cls, uint32_t i);

/* Parses a type as torch prints it ("Tensor", "int[]", "(Tensor, int)",
 * "Dict(str, Tensor)", "Tensor?", "__torch__.m.M", "Float(2, strides=[1],
 * requires_grad=0, device=cpu)"). TA_ERR_PARSE with a diagnostic (rule
 * "ir-syntax") when it is not one. */
TA_API ta_status ta_ir_type_parse(ta_ir_graph *g, const char *text, size_t len,
                                  const ta_ir_type **out, ta_diags *diags);
/* Writes the type as torch prints it; returns the length it needed (buf is
 * always NUL-terminated when cap > 0). */
TA_API size_t ta_ir_type_print(const ta_ir_type *t, char *buf, size_t cap);

/* ---- graphs ----------------------------------------------------------- */

TA_API ta_status ta_ir_graph_create(ta_ir_graph **out);
TA_API void ta_ir_graph_destroy(ta_ir_graph *g);

/* The top block: its parameters are the graph's inputs, its outputs the
 * graph's outputs. */
TA_API ta_ir_block *ta_ir_graph_block(const ta_ir_graph *g);
/* Adds a graph input. name (without '%') may be NULL for a numbered value;
 * a name in use gets a ".N" suffix. TA_ERR_NOMEM (and *out NULL) on OOM. */
TA_API ta_status ta_ir_graph_add_input(ta_ir_graph *g, const char *name, const ta_ir_type *type,
                                       ta_ir_value **out);
TA_API ta_status ta_ir_graph_add_output(ta_ir_graph *g, ta_ir_value *v);
TA_API uint32_t ta_ir_graph_ninputs(const ta_ir_graph *g);
TA_API ta_ir_value *ta_ir_graph_input(const ta_ir_graph *g, uint32_t i);
TA_API uint32_t ta_ir_graph_noutputs(const ta_ir_graph *g);
TA_API ta_ir_value *ta_ir_graph_output(const ta_ir_graph *g, uint32_t i);
/* The value printed as %name (name with or without the '%'), or NULL. */
TA_API ta_ir_value *ta_ir_graph_find_value(const ta_ir_graph *g, const char *name);
/* Values and nodes ever created (ids are below these); removed ones keep
 * their ids. */
TA_API uint32_t ta_ir_graph_value_capacity(const ta_ir_graph *g);
TA_API uint32_t ta_ir_graph_node_capacity(const ta_ir_graph *g);

/* ---- blocks ----------------------------------------------------------- */

/* First and last node of a block (NULL when empty); ta_ir_node_next/prev
 * walk it. */
TA_API ta_ir_node *ta_ir_block_first(const ta_ir_block *b);
TA_API ta_ir_node *ta_ir_block_last(const ta_ir_block *b);
/* The node that owns the block; NULL for the graph's top block. */
TA_API ta_ir_node *ta_ir_block_owner(const ta_ir_block *b);
TA_API uint32_t ta_ir_block_nparams(const ta_ir_block *b);
TA_API ta_ir_value *ta_ir_block_param(const ta_ir_block *b, uint32_t i);
TA_API uint32_t ta_ir_block_noutputs(const ta_ir_block *b);
TA_API ta_ir_value *ta_ir_block_output(const ta_ir_block *b, uint32_t i);
/* Adds a parameter (a loop-carried value of a prim::Loop body, say). */
TA_API ta_status ta_ir_block_add_param(ta_ir_block *b, const char *name, const ta_ir_type *type,
                                       ta_ir_value **out);
TA_API ta_status ta_ir_block_add_output(ta_ir_block *b, ta_ir_value *v);
TA_API ta_status ta_ir_block_set_output(ta_ir_block *b, uint32_t i, ta_ir_value *v);

/* ---- nodes ------------------------------------------------------------ */

/* A new node of kind ("ns::name") with those inputs and noutputs outputs of
 * type Tensor (ta_ir_value_set_type changes them), not yet in a block: put it
 * in one with ta_ir_node_append / insert_before / insert_after.
 * TA_ERR_INVALID for a kind without "::", TA_ERR_NOMEM on OOM (*out NULL
 * either way). */
TA_API ta_status ta_ir_node_create(ta_ir_graph *g, const char *kind, ta_ir_value *const *inputs,
                                   uint32_t ninputs, uint32_t noutputs, ta_ir_node **out);
/* create + append to block b, the common case for a builder. */
TA_API ta_status ta_ir_append(ta_ir_graph *g, ta_ir_block *b, const char *kind,
                              ta_ir_value *const *inputs, uint32_t ninputs, uint32_t noutputs,
                              ta_ir_node **out);
TA_API ta_status ta_ir_node_append(ta_ir_block *b, ta_ir_node *n);
TA_API ta_status ta_ir_node_insert_before(ta_ir_node *n, ta_ir_node *pos);
TA_API ta_status ta_ir_node_insert_after(ta_ir_node *n, ta_ir_node *pos);
/* Moves n (in a block) just before / after pos (in any block). */
TA_API ta_status ta_ir_node_move_before(ta_ir_node *n, ta_ir_node *pos);
TA_API ta_status ta_ir_node_move_after(ta_ir_node *n, ta_ir_node *pos);
/* Takes n out of its block and frees its names; its outputs must have no
 * uses left (TA_ERR_INVALID otherwise). Inputs stop counting n as a use. */
TA_API ta_status ta_ir_node_remove(ta_ir_node *n);

TA_API const char *ta_ir_node_kind(const ta_ir_node *n);
TA_API uint32_t ta_ir_node_id(const ta_ir_node *n);
TA_API ta_ir_block *ta_ir_node_block(const ta_ir_node *n);
TA_API ta_ir_node *ta_ir_node_next(const ta_ir_node *n);
TA_API ta_ir_node *ta_ir_node_prev(const ta_ir_node *n);
/* Whether a comes before b in program order (both in one graph; nodes in
 * nested blocks compare by their enclosing nodes in the common block). */
TA_API bool ta_ir_node_is_before(const ta_ir_node *a, const ta_ir_node *b);
TA_API uint32_t ta_ir_node_ninputs(const ta_ir_node *n);
TA_API ta_ir_value *ta_ir_node_input(const ta_ir_node *n, uint32_t i);
TA_API uint32_t ta_ir_node_noutputs(const ta_ir_node *n);
TA_API ta_ir_value *ta_ir_node_output(const ta_ir_node *n, uint32_t i);
TA_API uint32_t ta_ir_node_nblocks(const ta_ir_node *n);
TA_API ta_ir_block *ta_ir_node_block_at(const ta_ir_node *n, uint32_t i);
TA_API ta_status ta_ir_node_add_block(ta_ir_node *n, ta_ir_block **out);
TA_API ta_status ta_ir_node_add_input(ta_ir_node *n, ta_ir_value *v);
TA_API ta_status ta_ir_node_set_input(ta_ir_node *n, uint32_t i, ta_ir_value *v);
TA_API ta_status ta_ir_node_add_output(ta_ir_node *n, const char *name, const ta_ir_type *type,
                                       ta_ir_value **out);
/* Attributes: name and value as torch prints them ("value" "1", "name"
 * "\"conv1\"", "value" "<Tensor>"). Setting a name again replaces it. */
TA_API ta_status ta_ir_node_set_attr(ta_ir_node *n, const char *name, const char *value);
TA_API const char *ta_ir_node_attr(const ta_ir_node *n, const char *name);
TA_API uint32_t ta_ir_node_nattrs(const ta_ir_node *n);
TA_API const char *ta_ir_node_attr_name(const ta_ir_node *n, uint32_t i);
TA_API const char *ta_ir_node_attr_value(const ta_ir_node *n, uint32_t i);
/* The "# file:line:col" comment torch prints after the node, or NULL. */
TA_API const char *ta_ir_node_source(const ta_ir_node *n);
TA_API ta_status ta_ir_node_set_source(ta_ir_node *n, const char *source);
/* The line the node was read from (0 when built in memory). */
TA_API uint32_t ta_ir_node_line(const ta_ir_node *n);

/* ---- values ----------------------------------------------------------- */

/* The name printed after '%' ("x.1", "12"). */
TA_API const char *ta_ir_value_name(const ta_ir_value *v);
TA_API uint32_t ta_ir_value_id(const ta_ir_value *v);
TA_API const ta_ir_type *ta_ir_value_type(const ta_ir_value *v);
TA_API void ta_ir_value_set_type(ta_ir_value *v, const ta_ir_type *t);
TA_API ta_status ta_ir_value_set_name(ta_ir_value *v, const char *name);
/* The node that defines v; NULL for a graph input or block parameter, whose
 * block ta_ir_value_param_block gives. */
TA_API ta_ir_node *ta_ir_value_node(const ta_ir_value *v);
TA_API ta_ir_block *ta_ir_value_param_block(const ta_ir_value *v);
/* Uses: the node (NULL for a block output) and input index (or output
 * index in the block, whose block ta_ir_value_use_block gives). */
TA_API uint32_t ta_ir_value_nuses(const ta_ir_value *v);
TA_API ta_ir_node *ta_ir_value_use_node(const ta_ir_value *v, uint32_t i);
TA_API ta_ir_block *ta_ir_value_use_block(const ta_ir_value *v, uint32_t i);
TA_API uint32_t ta_ir_value_use_index(const ta_ir_value *v, uint32_t i);
/* Replaces every use of v by w. */
TA_API ta_status ta_ir_value_replace_uses(ta_ir_value *v, ta_ir_value *w);
/* Replaces the uses of v that come after node `after` in program order
 * (nodes after it in its block and inside their blocks, outputs of the
 * blocks enclosing it, and so on outwards) by w. */
TA_API ta_status ta_ir_value_replace_uses_after(ta_ir_value *v, ta_ir_value *w,
                                                const ta_ir_node *after);

/* ---- text ------------------------------------------------------------- */

/* Reads a graph printed by torch. source names the text in diagnostics
 * (NULL: "<string>"). TA_ERR_PARSE with a positioned diagnostic (rule
 * "ir-syntax", or "ir-undefined" for a value used before its definition)
 * when malformed; nothing is kept then. Class types get the attributes their
 * prim::GetAttr / prim::SetAttr nodes show. */
TA_API ta_status ta_ir_read(const char *text, size_t len, const char *source,
                            ta_ir_graph **out, ta_diags *diags);
/* The same into a graph made with ta_ir_graph_create that has no inputs or
 * nodes yet (it may have class types declared). On failure the graph holds
 * whatever was read and should be destroyed. */
TA_API ta_status ta_ir_read_into(ta_ir_graph *g, const char *text, size_t len,
                                 const char *source, ta_diags *diags);
/* Declares class types completely, one a line:
 *     __torch__.m.Block(conv : __torch__.m.Conv, scale : Tensor, n : int)
 * (attribute names may be left out: "__torch__.m.Conv(Tensor, Tensor?)").
 * What a class object may contain is its attributes' types, and a graph
 * does not show them all (only those it reads; an un-inlined graph fewer
 * still): a declared class is whole (ta_ir_class_declare_whole) and not
 * extended by what the reader sees. Empty lines and lines
 * starting with '#' are skipped. TA_ERR_PARSE with a positioned diagnostic
 * (rule "ir-syntax") for a malformed line or a class declared twice. */
TA_API ta_status ta_ir_read_classes(ta_ir_graph *g, const char *text, size_t len,
                                    const char *source, ta_diags *diags);
/* Prints the graph as torch does. TA_ERR_IO on a write error. */
TA_API ta_status ta_ir_write(const ta_ir_graph *g, FILE *out);
/* Two spellings: torch prints a node without outputs as "= ns::op(...)",
 * but torch._C.parse_ir reads it only as "ns::op(...)". */
typedef enum ta_ir_style { TA_IR_AS_TORCH_PRINTS = 0, TA_IR_AS_PARSE_IR_READS } ta_ir_style;
TA_API ta_status ta_ir_write_as(const ta_ir_graph *g, FILE *out, ta_ir_style style);
/* The same into a malloc'd NUL-terminated string (*len may be NULL). */
TA_API ta_status ta_ir_print(const ta_ir_graph *g, char **text, size_t *len);

/* ---- operators -------------------------------------------------------- */

/* How AliasDb treats an operator (c10::AliasAnalysisKind). */
typedef enum ta_ir_alias_kind {
    TA_IR_FROM_SCHEMA = 0,
    TA_IR_CONSERVATIVE,
    TA_IR_PURE_FUNCTION,
    TA_IR_SPECIAL_CASE
} ta_ir_alias_kind;

typedef struct ta_ir_ops ta_ir_ops;
typedef struct ta_ir_op ta_ir_op;

TA_API ta_status ta_ir_ops_create(ta_ir_ops **out);
TA_API void ta_ir_ops_destroy(ta_ir_ops *ops);
/* Adds one schema (after the overloads its operator has already). An
 * overload already in the set is kept as it is (*added false). */
TA_API ta_status ta_ir_ops_add(ta_ir_ops *ops, const char *schema, size_t len,
                               ta_ir_alias_kind kind, bool *added, ta_diags *diags);
/* Adds every schema of a schema list (schema_list.h: one a line, each
 * optionally after its kind, FROM_SCHEMA, CONSERVATIVE, PURE_FUNCTION or
 * INTERNAL_SPECIAL_CASE, and a tab; '#' comments). A line that does not
 * parse is an error diagnostic at its position (TA_ERR_PARSE), the others
 * are still added. */
TA_API ta_status ta_ir_ops_add_text(ta_ir_ops *ops, const char *text, size_t len,
                                    const char *source, ta_diags *diags);
TA_API ta_status ta_ir_ops_add_file(ta_ir_ops *ops, const char *path, ta_diags *diags);
/* Adds the schemas of a loaded native_functions.yaml (FROM_SCHEMA), after
 * those already in the set; the set keeps a copy. */
TA_API ta_status ta_ir_ops_add_native(ta_ir_ops *ops, const ta_native_file *f,
                                      ta_diags *diags);
TA_API size_t ta_ir_ops_count(const ta_ir_ops *ops);

/* The default operator set, compiled into the library: torch 1.13.1's
 * registered operators, each with how AliasDb treats it, then the schemas of
 * the bundled native_functions.yaml (PyTorch main) that torch's list lacks.
 * An overload the set already has is left as it is.
 *
 * ta_ir_ops_add_default adds the overloads of every operator g's nodes name
 * (g's nodes then resolve exactly as against the whole set, for a fraction of
 * the cost: only those schemas are parsed); g NULL adds the whole set (4,398
 * schemas). ta_ir_ops_add_default_kind adds the overloads of one operator
 * ("aten::add"), in order; *found says whether the default set has it. */
TA_API ta_status ta_ir_ops_add_default(ta_ir_ops *ops, const ta_ir_graph *g, ta_diags *diags);
TA_API ta_status ta_ir_ops_add_default_kind(ta_ir_ops *ops, const char *kind, bool *found,
                                            ta_diags *diags);

/* The operator node n resolves to: the first overload of its kind, in the
 * order they were added, whose arguments accept n's inputs (TorchScript's
 * Node::matches: subtypes, type variables bound consistently, as many
 * inputs as arguments unless the schema has "..."). NULL when none does. */
TA_API const ta_ir_op *ta_ir_ops_resolve(const ta_ir_ops *ops, const ta_ir_node *n);
/* Whether some overload of that kind ("aten::add") is in the set. */
TA_API bool ta_ir_ops_has_kind(const ta_ir_ops *ops, const char *kind);
/* The first overload of kind in the set (NULL: none), and the one after op
 * (NULL after the last): the order resolution tries them in. */
TA_API const ta_ir_op *ta_ir_ops_overloads(const ta_ir_ops *ops, const char *kind);
TA_API const ta_ir_op *ta_ir_op_next(const ta_ir_op *op);
TA_API const ta_schema *ta_ir_op_schema(const ta_ir_op *op);
TA_API ta_ir_alias_kind ta_ir_op_alias_kind(const ta_ir_op *op);
/* "aten::add.Tensor(Tensor self, ...) -> Tensor" as it was added. */
TA_API const char *ta_ir_op_text(const ta_ir_op *op);

#ifdef __cplusplus
}
#endif
#endif
