/* print.c - the IR printer: a graph as torch 1.13.1's Graph::print writes
 * it, so that reading and printing a graph torch printed gives the same
 * bytes back (tests check this over every .ir file they have). */
#include <stdio.h>
#include <stdlib.h>

#include "base/alloc.h"
#include "alias/ir/ir_internal.h"

static void print_type(FILE *out, const ta_ir_type *t)
{
    char buf[256];
    size_t n = ta_ir_type_print(t, buf, sizeof buf);
    if (n < sizeof buf) {
        fputs(buf, out);
        return;
    }
    char *big = ta_malloc(n + 1);
    if (!big) return;
    ta_ir_type_print(t, big, n + 1);
    fputs(big, out);
    free(big);
}

static void print_decl(FILE *out, const ta_ir_value *v)
{
    fprintf(out, "%%%s : ", v->name);
    print_type(out, v->type);
}

static void print_refs(FILE *out, ta_ir_value *const *vs, uint32_t n)
{
    fputc('(', out);
    for (uint32_t i = 0; i < n; i++) fprintf(out, "%s%%%s", i ? ", " : "", vs[i]->name);
    fputc(')', out);
}

static void indent(FILE *out, int n)
{
    for (int i = 0; i < n; i++) fputc(' ', out);
}

static void print_block_nodes(FILE *out, const ta_ir_block *b, int level, ta_ir_style style);

static void print_node(FILE *out, const ta_ir_node *n, int level, ta_ir_style style)
{
    indent(out, level);
    for (uint32_t i = 0; i < n->noutputs; i++) {
        if (i) fputs(", ", out);
        print_decl(out, n->outputs[i]);
    }
    if (n->noutputs || style == TA_IR_AS_TORCH_PRINTS) fputs(" = ", out);
    fputs(n->kind->name, out);
    if (n->nattrs) {
        fputc('[', out);
        for (uint32_t i = 0; i < n->nattrs; i++)
            fprintf(out, "%s%s=%s", i ? ", " : "", n->attrs[i].name, n->attrs[i].value);
        fputc(']', out);
    }
    print_refs(out, n->inputs, n->ninputs);
    if (n->source) fprintf(out, " # %s", n->source);
    fputc('\n', out);
    for (uint32_t i = 0; i < n->nblocks; i++) {
        const ta_ir_block *b = n->blocks[i];
        indent(out, level + 2);
        fprintf(out, "block%u(", i);
        for (uint32_t k = 0; k < b->param->noutputs; k++) {
            if (k) fputs(", ", out);
            print_decl(out, b->param->outputs[k]);
        }
        fputs("):\n", out);
        print_block_nodes(out, b, level + 4, style);
        indent(out, level + 4);
        fputs("-> ", out);
        print_refs(out, b->ret->inputs, b->ret->ninputs);
        fputc('\n', out);
    }
}

static void print_block_nodes(FILE *out, const ta_ir_block *b, int level, ta_ir_style style)
{
    for (const ta_ir_node *n = b->param->next; n != b->ret; n = n->next) print_node(out, n, level, style);
}

ta_status ta_ir_write(const ta_ir_graph *g, FILE *out) { return ta_ir_write_as(g, out, TA_IR_AS_TORCH_PRINTS); }

ta_status ta_ir_write_as(const ta_ir_graph *g, FILE *out, ta_ir_style style)
{
    const ta_ir_node *params = g->top->param;
    fputs("graph(", out);
    for (uint32_t i = 0; i < params->noutputs; i++) {
        if (i) fputs(",\n      ", out);
        print_decl(out, params->outputs[i]);
    }
    fputs("):\n", out);
    print_block_nodes(out, g->top, 2, style);
    fputs("  return ", out);
    print_refs(out, g->top->ret->inputs, g->top->ret->ninputs);
    fputc('\n', out);
    return ferror(out) ? TA_ERR_IO : TA_OK;
}

ta_status ta_ir_print(const ta_ir_graph *g, char **text, size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    *text = NULL;
    FILE *f = open_memstream(&buf, &n);
    if (!f) return TA_ERR_NOMEM;
    ta_status st = ta_ir_write(g, f);
    if (fclose(f) != 0 && st == TA_OK) st = TA_ERR_NOMEM;
    if (st != TA_OK) {
        free(buf);
        return st;
    }
    *text = buf;
    if (len) *len = n;
    return TA_OK;
}
