/* classes.c - class declarations for graphs that do not show everything a
 * class holds (see ta_ir_read_classes in tensoralias/ir.h).
 *
 *   line  := QUALNAME '(' [attr {',' attr}] ')'
 *   attr  := [NAME ':'] type
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "alias/ir/ir_internal.h"

typedef struct class_line {
    ta_ir_graph *g;
    const char *s; /* the line */
    size_t len, pos;
    const char *source;
    uint32_t line;
    ta_diags *diags;
} class_line;

static ta_status fail(class_line *c, size_t pos, const char *msg)
{
    ta_loc loc = {c->source, c->line, (uint32_t)pos + 1, 1, c->s, (uint32_t)c->len};
    ta_diag_error(c->diags, &loc, "ir-syntax", "%s", msg);
    return TA_ERR_PARSE;
}

static void skip(class_line *c)
{
    while (c->pos < c->len && c->s[c->pos] == ' ') c->pos++;
}

static size_t name_at(const class_line *c, size_t pos)
{
    size_t end = pos;
    while (end < c->len && (isalnum((unsigned char)c->s[end]) || c->s[end] == '_' || c->s[end] == '.')) end++;
    return end - pos;
}

/* attr := [NAME ':'] type */
static ta_status attr(class_line *c, const ta_ir_type *cls, uint32_t index)
{
    skip(c);
    size_t n = name_at(c, c->pos), after = c->pos + n;
    while (after < c->len && c->s[after] == ' ') after++;
    const char *name = NULL;
    char numbered[16];
    size_t name_len;
    if (n && after < c->len && c->s[after] == ':') {
        name = c->s + c->pos;
        name_len = n;
        c->pos = after + 1;
        skip(c);
    } else {
        name_len = (size_t)snprintf(numbered, sizeof numbered, "_%u", index);
        name = numbered;
    }
    size_t err = 0;
    const char *msg = NULL;
    const ta_ir_type *t = ir_type_parse_at(&c->g->types, c->s, c->len, &c->pos, &err, &msg);
    if (!t) return err == SIZE_MAX ? TA_ERR_NOMEM : fail(c, err, msg);
    return ir_class_add_attr(c->g->arena, cls, name, name_len, t);
}

/* line := QUALNAME '(' [attr {',' attr}] ')' */
static ta_status class_decl(class_line *c)
{
    size_t n = name_at(c, c->pos);
    if (!n) return fail(c, c->pos, "expected a class name");
    const ta_ir_type *cls = ir_type_make(&c->g->types, TA_IR_CLASS, NULL, 0, c->s + c->pos, n);
    if (!cls) return TA_ERR_NOMEM;
    if (cls->attrs->declared) return fail(c, c->pos, "class declared twice");
    c->pos += n;
    skip(c);
    if (c->pos >= c->len || c->s[c->pos] != '(') return fail(c, c->pos, "expected '(' after the class name");
    c->pos++;
    skip(c);
    for (uint32_t i = 0; c->pos < c->len && c->s[c->pos] != ')'; i++) {
        ta_status st = attr(c, cls, i);
        if (st != TA_OK) return st;
        skip(c);
        if (c->pos < c->len && c->s[c->pos] == ',') c->pos++;
        else if (c->pos >= c->len || c->s[c->pos] != ')') return fail(c, c->pos, "expected ',' or ')'");
    }
    if (c->pos >= c->len) return fail(c, c->pos, "expected ')'");
    c->pos++;
    skip(c);
    if (c->pos < c->len) return fail(c, c->pos, "unexpected text after the class");
    cls->attrs->declared = true;
    return TA_OK;
}

ta_status ta_ir_read_classes(ta_ir_graph *g, const char *text, size_t len, const char *source,
                             ta_diags *diags)
{
    if (!g || !text) return TA_ERR_INVALID;
    uint32_t line = 0;
    for (size_t pos = 0; pos < len;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t end = nl ? (size_t)(nl - text) : len;
        class_line c = {g, text + pos, end - pos, 0, source ? source : "<classes>", ++line, diags};
        pos = end + 1;
        while (c.len && (c.s[c.len - 1] == '\r' || c.s[c.len - 1] == ' ')) c.len--;
        skip(&c);
        if (c.pos == c.len || c.s[c.pos] == '#') continue;
        ta_status st = class_decl(&c);
        if (st != TA_OK) return st;
    }
    return TA_OK;
}
